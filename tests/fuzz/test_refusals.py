"""Inputs that crashed the map paste or a launch with a 500 are refused with a clear 400.

Deep nesting (the JSON reader's recursion), a ``\\u0000`` escape (PostgreSQL stores no NUL), a
description nested hundreds deep (it saved, then its launch failed copying it) and a polygon of
thousands of corners (an O(n²) check inside the request) are each refused on the form, naming
what is wrong, and nothing is saved.
"""

from __future__ import annotations

import json
import math

import pytest
from django.urls import reverse

from battles.engine.validation import MAX_CORNERS, MAX_DEPTH
from battles.models import Battle
from battles.services import MAX_SCENARIO_TEXT, BattleInputError, battle_launch
from campaign.models import SavedMap
from campaign.templatetags.sentences import as_sentence
from tests.web.campaign_world import CROSSROADS, login

pytestmark = pytest.mark.django_db


def _crossroads() -> dict:
    return json.loads(CROSSROADS.read_text())


def _nested_description() -> str:
    scenario = _crossroads()
    text = json.dumps(scenario)
    return text[:-1] + ', "description": ' + '{"d": ' * 600 + '"x"' + "}" * 600 + "}"


def _nul_escape() -> str:
    scenario = _crossroads()
    scenario["sides"][0]["units"][0]["card"]["name"] = "Rifle\x00Squad"
    return json.dumps(scenario)  # json writes the NUL as the escape \u0000


def _many_corners() -> str:
    scenario = _crossroads()
    scenario["terrain"][0]["polygon"] = [
        [
            round(12 + 3 * math.cos(2 * math.pi * i / 9000), 2),
            round(12 + 3 * math.sin(2 * math.pi * i / 9000), 2),
        ]
        for i in range(9000)
    ]
    return json.dumps(scenario)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("[" * 10_000 + "]" * 10_000, "nested far too deep"),
        ('{"a":' * 10_000 + "1" + "}" * 10_000, "nested far too deep"),
        ("[" * 100 + "]" * 100, "must be a scenario document (an object)"),
        (_nested_description(), f"nested more than {MAX_DEPTH} levels deep"),
        (_nul_escape(), "sides[0].units[0].card.name: must not contain a NUL character"),
        (_many_corners(), f"terrain[0].polygon: at most {MAX_CORNERS} corners, got 9000"),
        ("x" * (MAX_SCENARIO_TEXT + 1), f"at most {MAX_SCENARIO_TEXT} characters"),
    ],
    ids=["list-10000", "object-10000", "list-100", "description-600", "nul", "corners", "size"],
)
def test_a_pasted_map_that_crashed_is_refused_with_a_reason(client, world, text, said):
    login(client, world, "gm")
    url = reverse("campaign:map-add", args=[world.campaign.pk])
    refused = client.post(url, {"name": "Hostile", "scenario": text})
    assert refused.status_code == 400
    # A refusal that opens the line starts with a capital (one opening with its path keeps it).
    page = refused.content.decode()
    assert said in page or as_sentence(said) in page, page[:2000]
    assert not SavedMap.objects.exists()


def test_a_launch_with_a_nested_description_is_refused_before_anything_is_saved(world):
    scenario = _crossroads()
    nested: object = "x"
    for _ in range(600):
        nested = {"d": nested}
    scenario["description"] = nested
    battles = Battle.objects.count()
    with pytest.raises(BattleInputError) as refused:
        battle_launch(name="Deep", scenario=scenario)
    assert refused.value.errors == [("", f"nested more than {MAX_DEPTH} levels deep")]
    assert Battle.objects.count() == battles


def test_a_launch_with_a_nul_is_refused_naming_the_field(world):
    scenario = _crossroads()
    scenario["sides"][1]["units"][0]["id"] = "x\x00"
    battles = Battle.objects.count()
    with pytest.raises(BattleInputError) as refused:
        battle_launch(name="Nul", scenario=scenario)
    assert ("sides[1].units[0].id", "must not contain a NUL character") in refused.value.errors
    assert Battle.objects.count() == battles


def test_a_force_at_its_unit_limit_refuses_one_more(client, world):
    """12,360 units made a force's set-up page take 12 s: a force holds a bounded number."""
    from campaign.models import Unit
    from campaign.rules.values import MAX_UNITS_PER_FORCE

    card = Unit.objects.get(pk=world.unit.pk).unit_type
    held = world.force.units.count()
    Unit.objects.bulk_create(
        Unit(force=world.force, unit_type=card, name=f"Filler {i}")
        for i in range(MAX_UNITS_PER_FORCE - held)
    )
    login(client, world, "gm")
    url = reverse("campaign:unit-add", args=[world.campaign.pk, world.force.pk])
    data = {"unit_type": card.pk, "name": "One too many", "quality": "green",
            "equipment": "good", "specialties": ["infantry"]}  # fmt: skip
    refused = client.post(url, data)
    assert refused.status_code == 400
    assert f"already holds {MAX_UNITS_PER_FORCE} units" in refused.content.decode()
    assert world.force.units.count() == MAX_UNITS_PER_FORCE
