"""What the fuzzing found, kept as plain tests: each input is refused with a message naming the
bad field, and nothing is written (on PostgreSQL these crashed with a DataError or a
TypeError before)."""

from __future__ import annotations

import copy

import pytest
from django.core.exceptions import ValidationError

from battles.models import Battle
from battles.services import BattleInputError, battle_launch
from campaign.models import Campaign, Force
from campaign.services.transfer import campaign_import, force_import
from campaign.transfer.export import campaign_export, force_export
from tests.fuzz.test_scenarios import REFERENCE

pytestmark = pytest.mark.django_db


@pytest.fixture
def export(world):
    data = campaign_export(campaign=world.campaign)
    data["campaign"]["name"] = "Op. Imported"
    return data


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda d: d["campaign"].update(name="a\x00b"), "campaign.name"),
        (lambda d: d["forces"][0].update(name="\x00"), "forces[0].name"),
        (lambda d: d["forces"][0]["units"][0]["history"][0].update(text="x\x00"), ".text"),
        (lambda d: d["forces"][0]["units"][0]["history"][0].update(details={"k": "\x00"}), ".k"),
        (lambda d: d["forces"][0].update(name=["a list"]), "forces[0].name"),
        (lambda d: d["forces"][0].update(owner=["a list"]), "forces[0].owner"),
        (lambda d: d["campaign"].update(gm={"a": "dict"}), "campaign.gm"),
        (lambda d: d["campaign"]["members"][0].update(user=["a list"]), "members[0].user"),
    ],
)
def test_campaign_import_refuses_what_the_database_cannot_hold(export, change, path):
    campaigns = Campaign.objects.count()
    document = copy.deepcopy(export)
    change(document)
    with pytest.raises(ValidationError) as refused:
        campaign_import(data=document)
    assert any(key.endswith(path) for key in refused.value.message_dict), refused.value
    assert Campaign.objects.count() == campaigns


def test_force_import_refuses_a_nul_in_a_unit_name(world):
    document = force_export(force=world.force)
    document["force"]["name"] = "Imported"
    document["force"]["units"][0]["name"] = "Squad\x00"
    forces = Force.objects.count()
    with pytest.raises(ValidationError) as refused:
        force_import(campaign=world.campaign, data=document, actor=world.users["gm"])
    assert "force.units[0].name" in refused.value.message_dict
    assert Force.objects.count() == forces


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda s: s.update(name="a\x00b"), "name"),
        (lambda s: s["sides"][0].update(name="\x00"), "sides[0].name"),
        (lambda s: s.update(name="x" * 201), "name"),
    ],
)
def test_battle_launch_refuses_what_the_database_cannot_hold(change, path):
    scenario = copy.deepcopy(REFERENCE["crossroads"])
    change(scenario)
    with pytest.raises(BattleInputError) as refused:
        battle_launch(name="", scenario=scenario, seed=1)
    assert [p for p, _ in refused.value.errors] == [path]
    assert not Battle.objects.exists()
