"""Team Bravo cards as data: the card dict shared with the battle engine, and its checks.

A unit card dict holds name, skill, move, resistance, hits, size, melee, weapons, keywords and
enters; a building card dict holds name, resistance, hits, admits and rubble (`validate_card`
says exactly). Demolition is a keyword *and* its weapon line: a card has the keyword exactly when
its weapons hold the standard Charges line, so the engine only ever reads `weapons`.

The card rules are the battle engine's own checks (`validate_card` asks them first); this module
adds the stored form's. Every check raises `CardError` naming the field by its path
("weapons[1].power"); the card text format (`units.cardtext`) reuses the form's checks for each
line it reads. Plain Python, no Django.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from battles.engine.cards import CHARGES as ENGINE_CHARGES
from battles.engine.cards import Keyword
from battles.engine.rulesets import RULESETS
from battles.engine.validation import card_problems
from units.words import given, value_shown

KEYWORDS: tuple[str, ...] = tuple(k.value for k in Keyword)
"""Every keyword (the engine's `Keyword`), in the canonical order cards list them."""

KEYWORD_LABELS: dict[str, str] = {k.value: k.label for k in Keyword}
"""Each keyword as a card's text prints it."""

UNIT_FIELDS = (
    "name", "skill", "move", "resistance", "hits", "size", "melee", "weapons", "keywords", "enters"
)  # fmt: skip
WEAPON_FIELDS = ("name", "power", "range", "aa", "buildings_only", "min_size", "max_size", "uses")
BUILDING_FIELDS = ("name", "resistance", "hits", "admits", "rubble")

CHARGES: dict[str, Any] = {**ENGINE_CHARGES.to_dict(), "range": int(ENGINE_CHARGES.range)}
"""Demolition's weapon line (the engine's), as the rule text prints it: Range 1, not 1.0. Copy
it before changing anything."""

MAX_STAT = 99
"""Ceiling on whole-number stats other than Skill and Size: far past any card, short to write."""
MAX_INCHES = 1000
"""Ceiling on Move and Range; a 24" table needs nothing near it."""
INCH_DECIMALS = 3
"""Move and Range may be written to thousandths of an inch, no finer."""
MAX_NAME = 100
"""Characters of any name on a card (the card's, a weapon's, what a building becomes) and of a
terrain type's: the library stores a card's name in a column this wide (`UnitType.name`), well
within the text a battle takes (the engine's `MAX_TEXT`)."""


@dataclass(frozen=True)
class Bounds:
    low: float
    high: float
    whole: bool
    low_open: bool = False
    unit: str = ""


BOUNDS: dict[str, Bounds] = {
    "skill": Bounds(2, 5, whole=True),
    "size": Bounds(1, 5, whole=True),
    "resistance": Bounds(0, MAX_STAT, whole=True),
    "hits": Bounds(1, MAX_STAT, whole=True),
    "melee": Bounds(0, MAX_STAT, whole=True),
    "power": Bounds(0, MAX_STAT, whole=True),
    "uses": Bounds(1, MAX_STAT, whole=True),
    "min_size": Bounds(1, 5, whole=True),
    "max_size": Bounds(1, 5, whole=True),
    "move": Bounds(0, MAX_INCHES, whole=False, unit=" inches"),
    "range": Bounds(0, MAX_INCHES, whole=False, low_open=True, unit=" inches"),
}

UNIT_STATS = ("skill", "move", "resistance", "hits", "size")
BUILDING_STATS = ("resistance", "hits")


class FieldError(ValueError):
    """A library entry that breaks its rules; `field` names what is wrong."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(field, message)
        self.field = field
        self.message = message

    def __str__(self) -> str:
        return f'field "{self.field}": {self.message}'


class CardError(FieldError):
    """A card (dict or text) breaks the card rules; `field` names what is wrong."""


# ---------------------------------------------------------------------------------------------
# Checking values (shared by dicts and text)
# ---------------------------------------------------------------------------------------------


def check_number(field: str, value: Any) -> None:
    bounds = BOUNDS[field]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise CardError(field, f"must be a number, got {value_shown(value)}")
    if bounds.whole and not isinstance(value, int):
        raise CardError(field, f"must be a whole number, got {format_number(value)}")
    if not math.isfinite(value):
        raise CardError(field, f"must be a finite number, got {value_shown(value)}")
    low_ok = value > bounds.low if bounds.low_open else value >= bounds.low
    if not low_ok or value > bounds.high:
        low = format_number(bounds.low)
        high = format_number(bounds.high)
        span = f"more than {low} and at most {high}" if bounds.low_open else f"{low}..{high}"
        raise CardError(field, f"must be {span}{bounds.unit}, got {format_number(value)}")
    if isinstance(value, float) and float(f"{value:.{INCH_DECIMALS}f}") != value:
        raise CardError(
            field, f"at most {INCH_DECIMALS} decimal places, got {format_number(value)}"
        )


LABEL_RE = re.compile(r"^(keywords|enters|admits|becomes)\s*:\s*(.*)$", re.IGNORECASE)
BUILDING_MARK_RE = re.compile(r"^(.*?)\s*\(building\)$", re.IGNORECASE)
_TERRAIN_RE = re.compile(r"[a-z]+(?:[ -][a-z]+)*")


def check_name(field: str, name: Any, *, kind: str) -> None:
    if not isinstance(name, str):
        raise CardError(field, f"must be text, got {value_shown(name)}")
    if not name:
        raise CardError(field, "must not be empty")
    if len(name) > MAX_NAME:
        raise CardError(field, f"must be at most {MAX_NAME} characters, got {len(name)}")
    if not name.isprintable():
        raise CardError(field, f"must be one line of printable text, got {given(name)}")
    if name != name.strip():
        raise CardError(field, f"must not start or end with spaces, got {given(name)}")
    if kind == "unit" and BUILDING_MARK_RE.match(name):
        raise CardError(field, 'a unit\'s name cannot end in "(building)", which marks a building')
    if kind == "weapon" and LABEL_RE.match(name):
        raise CardError(field, f"a weapon's name cannot start like a labelled line: {given(name)}")


def terrain_kind_problem(kind: Any) -> str | None:
    """What is wrong with a terrain kind, as a card's Enters line or `terrain.json` names it."""
    if not isinstance(kind, str) or not _TERRAIN_RE.fullmatch(kind):
        return f"a terrain kind is lower-case words, got {value_shown(kind)}"
    if len(kind) > MAX_NAME:
        return f"a terrain kind is at most {MAX_NAME} characters, got {len(kind)}"
    return None


def check_terrain(field: str, kind: Any) -> None:
    if problem := terrain_kind_problem(kind):
        raise CardError(field, problem)


def check_sizes(prefix: str, low: Any, high: Any, *, optional: bool) -> None:
    for key, value in (("min_size", low), ("max_size", high)):
        if value is not None or not optional:
            _check_number_at(f"{prefix}{key}", key, value)
    if low is not None and high is not None and low > high:
        raise CardError(f"{prefix}min_size", f"must not exceed max_size, got Size {low}–{high}")


def _check_number_at(path: str, field: str, value: Any) -> None:
    """`check_number` reporting the full dict path (e.g. "weapons[1].power")."""
    try:
        check_number(field, value)
    except CardError as error:
        raise CardError(path, error.message) from None


def is_charges(weapon: dict[str, Any]) -> bool:
    """Whether a weapon is Demolition's standard Charges line (its name in any case)."""
    return (
        isinstance(weapon.get("name"), str)
        and weapon["name"].casefold() == "charges"
        and all(weapon.get(key) == CHARGES[key] for key in WEAPON_FIELDS if key != "name")
    )


# ---------------------------------------------------------------------------------------------
# Validating a card dict
# ---------------------------------------------------------------------------------------------


def is_building(card: dict[str, Any]) -> bool:
    """A building card has a rubble state and no Skill."""
    return "rubble" in card and "skill" not in card


def _check_keys(prefix: str, data: Any, expected: tuple[str, ...]) -> None:
    if not isinstance(data, dict):
        raise CardError(
            prefix.rstrip(".") or "card", f"must be a mapping, got {type(data).__name__}"
        )
    for key in expected:
        if key not in data:
            raise CardError(f"{prefix}{key}", "missing")
    for key in data:
        if key not in expected:
            raise CardError(f"{prefix}{key}", "unknown field")


def validate_card(card: Any, ruleset: str = "") -> None:
    """Raise `CardError`, naming the field by its path, unless `card` is a valid card dict.

    First the card rules, checked by the battle engine as it checks every card in a scenario
    (`battles.engine.validation.card_problems`; `ruleset`, a ruleset's name, limits the
    keywords, blank allows every rule text's), so a card stored here is one a battle takes,
    refused with the same words. Then the stored form, which the engine leaves open (a
    scenario may leave fields out): every field written out, keywords in the rule text's order
    with Demolition's Charges line spelt out, names and numbers a card's text can hold.

    Unit: name, skill 2..5, move >= 0, resistance >= 0, hits >= 1, size 1..5, melee (whole
    number or None), weapons, keywords (canonical order, no repeats), enters (terrain kinds).
    Building: name, resistance, hits, admits ({"min_size", "max_size"} or None), rubble.
    """
    building = isinstance(card, dict) and is_building(card)
    problems = card_problems(card, building=building, ruleset=RULESETS.get(ruleset))
    if problems:
        raise CardError(*problems[0])
    if building:
        _validate_building(card)
    else:
        _validate_unit(card)


def _validate_building(card: dict[str, Any]) -> None:
    _check_keys("", card, BUILDING_FIELDS)
    check_name("name", card["name"], kind="building")
    for stat in BUILDING_STATS:
        check_number(stat, card[stat])
    admits = card["admits"]
    if admits is not None:
        _check_keys("admits.", admits, ("min_size", "max_size"))
        check_sizes("admits.", admits["min_size"], admits["max_size"], optional=False)
    check_name("rubble", card["rubble"], kind="rubble")


def _validate_unit(card: Any) -> None:
    _check_keys("", card, UNIT_FIELDS)
    check_name("name", card["name"], kind="unit")
    for stat in UNIT_STATS:
        check_number(stat, card[stat])
    if card["melee"] is not None:
        check_number("melee", card["melee"])

    weapons = card["weapons"]
    if not isinstance(weapons, list):
        raise CardError("weapons", "must be a list")
    seen: set[str] = set()
    for index, weapon in enumerate(weapons):
        prefix = f"weapons[{index}]."
        _check_keys(prefix, weapon, WEAPON_FIELDS)
        _validate_weapon(prefix, weapon)
        if weapon["name"].casefold() in seen:
            raise CardError(f"{prefix}name", f"duplicate weapon {given(weapon['name'])}")
        seen.add(weapon["name"].casefold())

    keywords = card["keywords"]
    if not isinstance(keywords, list):
        raise CardError("keywords", "must be a list")
    for keyword in keywords:
        if keyword not in KEYWORDS:
            raise CardError("keywords", f"unknown keyword {given(keyword)}")
    if len(set(keywords)) != len(keywords):
        raise CardError("keywords", "a keyword is listed twice")
    if keywords != sorted(keywords, key=KEYWORDS.index):
        raise CardError("keywords", f"must be in the canonical order {', '.join(KEYWORDS)}")
    has_charges = any(is_charges(weapon) for weapon in weapons)
    if "demolition" in keywords and not has_charges:
        raise CardError(
            "keywords", "Demolition is a weapon line: add Charges — Power 4, Range 1, ..."
        )
    if has_charges and "demolition" not in keywords:
        raise CardError("keywords", "the Charges weapon line is Demolition: add the keyword")

    enters = card["enters"]
    if not isinstance(enters, list):
        raise CardError("enters", "must be a list")
    for kind in enters:
        check_terrain("enters", kind)
    if len(set(enters)) != len(enters):
        raise CardError("enters", "a terrain kind is listed twice")


def _validate_weapon(prefix: str, weapon: dict[str, Any]) -> None:
    check_name(f"{prefix}name", weapon["name"], kind="weapon")
    _check_number_at(f"{prefix}power", "power", weapon["power"])
    _check_number_at(f"{prefix}range", "range", weapon["range"])
    for flag in ("aa", "buildings_only"):
        if not isinstance(weapon[flag], bool):
            raise CardError(
                f"{prefix}{flag}", f"must be true or false, got {value_shown(weapon[flag])}"
            )
    check_sizes(prefix, weapon["min_size"], weapon["max_size"], optional=True)
    if weapon["uses"] is not None:
        _check_number_at(f"{prefix}uses", "uses", weapon["uses"])


def format_number(value: float) -> str:
    """Whole numbers without ".0"; others in their shortest exact decimal form."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return repr(value) if isinstance(value, float) else str(value)
