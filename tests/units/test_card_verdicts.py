"""One card validator: the library, the card model and the battle engine give every card the same
verdict, and a bad card the same words, because the library asks the engine's checks.

Entry points for a card dict: `validate_card` (the card text reads and renders through it),
`UnitType.full_clean` (the admin), the engine's `UnitCard.from_dict`, and a scenario holding the
card (`parse_scenario`). The library's stored form asks more than the engine does of a
scenario's shorthand (every field written out, keywords in order, Charges spelt out, names and
numbers a card's text can hold): those cards are refused by the library and taken by a battle,
and the last test pins that difference down.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from battles.engine import ScenarioError, parse_scenario
from battles.engine.cards import UnitCard
from battles.engine.validation import card_problems
from tests.engine.helpers import building, scenario, square
from units.carddata import CardError, validate_card
from units.cardtext import parse_card
from units.models import UnitType
from units.services import library_read

pytestmark = pytest.mark.django_db

LIBRARY = [e for e in library_read() if e.kind != UnitType.Kind.TERRAIN]

UNIT = parse_card(
    "Rifle Squad\nSkill 4 · Move 5 · Resistance 1 · Hits 2 · Size 1\nRifles — Power 2, Range 12"
)
HOUSE = parse_card(
    "House (building)\nResistance 3 · Hits 4\nAdmits: Size 1–2\nBecomes: rubble field"
)


def changed(card: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """The card with one field (a dotted path, "weapons.0.power") set to ``value``."""
    card = copy.deepcopy(card)
    *parents, last = path.split(".")
    target: Any = card
    for key in parents:
        target = target[int(key)] if key.isdigit() else target[key]
    target[int(last) if last.isdigit() else last] = value
    return card


# (card, ruleset, the field named, the words): cards that break a card rule.
BAD = [
    (changed(UNIT, "skill", 6), "combined_arms", "skill", "must be 2..5, got 6"),
    (changed(UNIT, "skill", True), "combined_arms", "skill", "must be an integer, got a boolean"),
    (changed(UNIT, "size", 0), "combined_arms", "size", "must be 1..5, got 0"),
    (changed(UNIT, "hits", 0), "combined_arms", "hits", "must be at least 1, got 0"),
    # The engine bounds a card's numbers as the library does (no battle overflows).
    (changed(UNIT, "hits", 100), "combined_arms", "hits", "must be 1..99, got 100"),
    (changed(UNIT, "move", -1), "combined_arms", "move", "must be at least 0, got -1"),
    # A printed Melee is "Size + 0 to 3": one past either end is refused, naming the card.
    (
        changed(UNIT, "melee", 0),
        "combined_arms",
        "melee",
        "'Rifle Squad' is Size 1, so its Melee must be 1..4, got 0",
    ),
    (
        changed(UNIT, "melee", 5),
        "one_year_war",
        "melee",
        "'Rifle Squad' is Size 1, so its Melee must be 1..4, got 5",
    ),
    (changed(UNIT, "melee", 2.5), "combined_arms", "melee", "must be an integer, got 2.5"),
    (
        changed(UNIT, "name", ""),
        "combined_arms",
        "name",
        "must be a non-empty string, got a string",
    ),
    (changed(UNIT, "armour", 3), "combined_arms", "armour", "unknown field"),
    (
        changed(UNIT, "weapons.0.power", -1),
        "combined_arms",
        "weapons[0].power",
        "must be at least 0, got -1",
    ),
    (
        changed(UNIT, "weapons.0.range", 0),
        "combined_arms",
        "weapons[0].range",
        "must be greater than 0, got 0",
    ),
    (
        changed(UNIT, "weapons", [*UNIT["weapons"], UNIT["weapons"][0]]),
        "combined_arms",
        "weapons[1].name",
        "duplicate weapon name 'Rifles'",
    ),
    (
        changed(UNIT, "keywords", ["flying"]),
        "combined_arms",
        "keywords[0]",
        "unknown keyword 'flying'",
    ),
    (
        changed(UNIT, "keywords", ["sensor"]),
        "combined_arms",
        "keywords[0]",
        "keyword 'sensor' is not allowed under combined_arms",
    ),
    (changed(HOUSE, "hits", 0), "combined_arms", "hits", "must be at least 1, got 0"),
    (
        changed(HOUSE, "admits", {"min_size": 3, "max_size": 2}),
        "combined_arms",
        "admits.max_size",
        "must be at least min_size 3, got 2",
    ),
    (changed(HOUSE, "rubble", "lava"), "one_year_war", "rubble", "unknown terrain kind 'lava'"),
]

# Cards a scenario may write but the library does not store, and why.
FORM_ONLY = [
    ({k: v for k, v in UNIT.items() if k != "melee"}, "melee", "missing"),
    (changed(UNIT, "keywords", ["breaching", "aerial"]), "keywords", "canonical order"),
    (changed(UNIT, "keywords", ["demolition"]), "keywords", "add Charges"),
    (changed(UNIT, "name", " Rifle Squad"), "name", "spaces"),
    (changed(UNIT, "move", 0.1 + 0.2), "move", "decimal places"),
]


def is_building(card: dict[str, Any]) -> bool:
    return "rubble" in card


def in_a_scenario(card: dict[str, Any], ruleset: str) -> dict[str, Any]:
    if is_building(card):
        house = building("h", square(10, 10, 14, 14))
        house["card"] = card
        return scenario([], [], buildings=[house], ruleset=ruleset)
    placed = {"id": "u", "position": [2, 2], "facing": 0, "order": {"kind": "hold"}, "card": card}
    return scenario([placed], [], ruleset=ruleset)


def scenario_problems(card: dict[str, Any], ruleset: str) -> list[tuple[str, str]]:
    """The card's problems as a battle reports them, by the card's own paths."""
    prefix = "buildings[0].card." if is_building(card) else "sides[0].units[0].card."
    try:
        parse_scenario(in_a_scenario(card, ruleset))
    except ScenarioError as error:
        return [(p.removeprefix(prefix), why) for p, why in error.problems if p.startswith(prefix)]
    return []


def model(card: dict[str, Any], ruleset: str) -> UnitType:
    kind = UnitType.Kind.BUILDING if is_building(card) else UnitType.Kind.UNIT
    name = card["name"] if isinstance(card.get("name"), str) and card["name"] else "Unnamed"
    return UnitType(name=name, kind=kind, ruleset=ruleset, card=card)


@pytest.mark.parametrize("entry", LIBRARY, ids=lambda e: e.source)
def test_every_library_card_is_taken_by_every_entry_point(entry):
    validate_card(entry.card, entry.ruleset)
    model(entry.card, entry.ruleset).full_clean(validate_constraints=False)
    assert card_problems(entry.card, building=is_building(entry.card)) == []
    assert scenario_problems(entry.card, entry.ruleset) == []
    if not is_building(entry.card):
        # The engine reads the stored card as the library wrote it, and writes it back the same.
        assert UnitCard.from_dict(entry.card, entry.ruleset).to_dict() == entry.card


@pytest.mark.parametrize(("card", "ruleset", "field", "words"), BAD)
def test_a_bad_card_is_refused_in_the_same_words_by_every_entry_point(card, ruleset, field, words):
    with pytest.raises(CardError) as library:
        validate_card(card, ruleset)
    assert words in library.value.message
    assert library.value.field == field
    said = str(library.value)  # field "skill": must be 2..5, got 6

    with pytest.raises(ValidationError) as admin:
        model(card, ruleset).full_clean(validate_constraints=False)
    assert admin.value.message_dict["card"] == [said]

    (first, *_) = scenario_problems(card, ruleset)
    assert first == (field, library.value.message)

    if not is_building(card):
        with pytest.raises(ScenarioError) as engine:
            UnitCard.from_dict(card, ruleset)
        assert engine.value.problems[0] == (f"card.{field}", library.value.message)


@pytest.mark.parametrize(("card", "field", "words"), FORM_ONLY)
def test_the_library_asks_its_stored_form_of_cards_a_battle_takes(card, field, words):
    with pytest.raises(CardError) as library:
        validate_card(card)
    assert library.value.field == field and words in library.value.message
    assert card_problems(card, building=False) == []
    assert scenario_problems(card, "combined_arms") == []
