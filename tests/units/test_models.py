"""Unit types: a card, a building or a terrain type, checked like the library checks it."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from units.cardtext import parse_card
from units.models import UnitType

pytestmark = pytest.mark.django_db

RIFLES = parse_card("Rifle Squad\nSkill 3 · Move 5 · Resistance 1 · Hits 1 · Size 1")
HOUSE = parse_card("House (building)\nResistance 3 · Hits 4\nBecomes: rubble field")
WOODS = {
    "kind": "woods",
    "blocks_movement": True,
    "blocks_sight": True,
    "hazard": False,
    "wall": False,
    "water": False,
}


def test_it_accepts_a_valid_card_of_each_kind():
    UnitType(name="Rifle Squad", kind="unit", card=RIFLES).full_clean()
    UnitType(name="House", kind="building", card=HOUSE).full_clean()
    UnitType(name="woods", kind="terrain", ruleset="", card=WOODS).full_clean()


@pytest.mark.parametrize(
    ("unit_type", "field"),
    [
        (UnitType(name="Rifle Squad", card={**RIFLES, "skill": 9}), "card"),
        (UnitType(name="Rifle Squad", kind="building", card=RIFLES), "kind"),
        (UnitType(name="House", kind="unit", card=HOUSE), "kind"),
        (UnitType(name="Rifles", card=RIFLES), "name"),
        (UnitType(name="woods", kind="terrain", card=WOODS), "ruleset"),
        (UnitType(name="Rifle Squad", ruleset="", card=RIFLES), "ruleset"),
        (UnitType(name="wall", kind="terrain", ruleset="", card={**WOODS, "wall": True}), "card"),
        (
            UnitType(name="heaps", kind="terrain", ruleset="", card={**WOODS, "kind": "rubble"}),
            "card",
        ),
    ],
)
def test_it_refuses_a_bad_card_naming_the_field(unit_type, field):
    with pytest.raises(ValidationError) as refused:
        unit_type.full_clean()
    assert field in refused.value.message_dict


def test_the_database_keeps_terrain_out_of_any_one_ruleset():
    with pytest.raises(IntegrityError), transaction.atomic():
        UnitType.objects.create(name="woods", kind="terrain", ruleset="combined_arms", card=WOODS)


def test_it_writes_its_card_in_the_card_text_format():
    assert UnitType(name="Rifle Squad", card=RIFLES).text.startswith("Rifle Squad\nSkill 3 · ")
    assert UnitType(name="woods", kind="terrain", ruleset="", card=WOODS).text == ""
