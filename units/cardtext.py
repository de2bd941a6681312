"""Team Bravo card text, both ways: render a card to the "WRITING A CARD" format and parse it back.

A unit card, as a player writes it on an index card::

    Rifle Squad
    Skill 4 · Move 5 · Resistance 1 · Hits 3 · Size 1
    Rifles — Power 2, Range 12
    Rocket Launcher — Power 5, Range 8, Size 2–5 only, two uses
    Melee 2
    Keywords: Move and Fire, Sure-Footed
    Enters: woods, buildings

A building card is marked on its name line::

    House (building)
    Resistance 3 · Hits 4
    Admits: Size 1–2
    Becomes: rubble field

Text is read into, and written from, the card dict shared with the battle engine, which
`units.carddata` defines and checks (its public names are importable from here too). Demolition
is a keyword *and* its weapon line: text that names either one gets both.

Parsing is forgiving about the hand ("·", "|", "," or ";" between items; "–" or "-" in ranges;
"two uses" or "2 uses"; any case) and strict about the game: every number is checked against the
card's ranges, and a bad card raises `CardTextError` naming the line and the field. Rendering
always writes the one canonical form, so `render_card(parse_card(text))` tidies a card and
`parse_card(render_card(card)) == card` for every valid card. Plain Python, no Django.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from units.carddata import (
    BOUNDS,
    BUILDING_FIELDS,
    BUILDING_MARK_RE,
    BUILDING_STATS,
    CHARGES,
    INCH_DECIMALS,
    KEYWORD_LABELS,
    KEYWORDS,
    LABEL_RE,
    MAX_INCHES,
    MAX_STAT,
    UNIT_FIELDS,
    UNIT_STATS,
    WEAPON_FIELDS,
    CardError,
    check_name,
    check_number,
    check_sizes,
    check_terrain,
    format_number,
    is_building,
    is_charges,
    validate_card,
)
from units.words import given

__all__ = [
    "BUILDING_FIELDS",
    "CHARGES",
    "INCH_DECIMALS",
    "KEYWORDS",
    "KEYWORD_LABELS",
    "MAX_INCHES",
    "MAX_STAT",
    "UNIT_FIELDS",
    "WEAPON_FIELDS",
    "CardError",
    "CardTextError",
    "is_building",
    "is_charges",
    "parse_card",
    "render_card",
    "validate_card",
]

_STAT_LABELS = {name: name.capitalize() for name in (*UNIT_STATS, "melee")}
_UNIT_STAT_LINE = "Skill N · Move N · Resistance N · Hits N · Size N"
_BUILDING_STAT_LINE = "Resistance N · Hits N"


class CardTextError(CardError):
    """Card text that cannot be read; `line` is 1-based, counting blank lines."""

    def __init__(self, line: int, field: str, message: str) -> None:
        super().__init__(field, message)
        self.args = (line, field, message)
        self.line = line

    def __str__(self) -> str:
        return f'line {self.line}, field "{self.field}": {self.message}'


# ---------------------------------------------------------------------------------------------
# Rendering
# ---------------------------------------------------------------------------------------------

_USE_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _format_sizes(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"Size {low}" if low == high else f"Size {low}–{high}"
    if low is not None:
        return f"Size {low}+"
    return f"Size up to {high}"


def _format_uses(uses: int) -> str:
    count = _USE_WORDS[uses] if uses < len(_USE_WORDS) else str(uses)
    return f"{count} use" if uses == 1 else f"{count} uses"


def weapon_items(weapon: dict[str, Any]) -> list[str]:
    """What a card prints of a weapon after its name: "Power 3", "Range 12", then its
    restrictions ("AA", "buildings only", "Size 1–2 only", "two uses")."""
    items = [f"Power {weapon['power']}", f"Range {format_number(weapon['range'])}"]
    if weapon.get("aa"):
        items.append("AA")
    if weapon.get("buildings_only"):
        items.append("buildings only")
    low, high = weapon.get("min_size"), weapon.get("max_size")
    if low is not None or high is not None:
        items.append(f"{_format_sizes(low, high)} only")
    if weapon.get("uses") is not None:
        items.append(_format_uses(weapon["uses"]))
    return items


def weapon_head(weapon: dict[str, Any]) -> str:
    """What a card prints of a weapon before its items: its name and the dash, "Rifles —"."""
    return f"{weapon['name']} —"


def _render_weapon(weapon: dict[str, Any]) -> str:
    return f"{weapon_head(weapon)} {', '.join(weapon_items(weapon))}"


def stat_items(card: dict[str, Any]) -> list[str]:
    """A unit card's stat line, item by item: "Skill 4", "Move 5", ... "Size 1"."""
    return [f"{_STAT_LABELS[stat]} {format_number(card[stat])}" for stat in UNIT_STATS]


def card_notes(card: dict[str, Any]) -> list[str]:
    """The lines a unit's card prints after its weapons: "Melee 6", "Keywords: Breaching",
    "Enters: woods", each only where the card has it."""
    lines = []
    if card["melee"] is not None:
        lines.append(f"Melee {card['melee']}")
    if card["keywords"]:
        lines.append("Keywords: " + ", ".join(KEYWORD_LABELS[k] for k in card["keywords"]))
    if card["enters"]:
        lines.append("Enters: " + ", ".join(card["enters"]))
    return lines


def render_card(card: dict[str, Any]) -> str:
    """The card's canonical text (no trailing newline); raises `CardError` on an invalid card."""
    validate_card(card)
    if is_building(card):
        lines = [
            f"{card['name']} (building)",
            f"Resistance {card['resistance']} · Hits {card['hits']}",
        ]
        if card["admits"] is not None:
            admits = card["admits"]
            lines.append(f"Admits: {_format_sizes(admits['min_size'], admits['max_size'])}")
        lines.append(f"Becomes: {card['rubble']}")
        return "\n".join(lines)

    lines = [card["name"], " · ".join(stat_items(card))]
    lines.extend(_render_weapon(weapon) for weapon in card["weapons"])
    lines.extend(card_notes(card))
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------------------------

_ITEM_SEPARATOR_RE = re.compile(r"[·|,;•]")
_STAT_ITEM_RE = re.compile(r"^([^\W\d_]+)\s*:?\s*(.*)$")
_NUMBER_RE = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?")
_INCH_MARK_RE = re.compile(r'^(?:"|”|″|in\.?|inch|inches)$', re.IGNORECASE)
_MAX_NUMBER_CHARS = 12  # far past any valid value; keeps int() and float() cheap and finite
# The name runs to the *last* dash that comes before "Power", so names may hold dashes.
_WEAPON_RE = re.compile(r"^(.+)(?:—|–|\s-)\s*(power\b.*)$", re.IGNORECASE)
_WEAPON_SEPARATOR_RE = re.compile(r"—|–|\s-")
# A dash after "Melee" is a separator only when a space follows it: "Melee -1" is negative.
_MELEE_RE = re.compile(r"^melee(?![^\W\d_])\s*(?:[:—–]|-(?=\s))?\s*(.*)$", re.IGNORECASE)
_SIZE_ITEM_RE = re.compile(r"^(?:target\s+)?size\b\s*:?\s*(.*?)\s*(?:\bonly)?$", re.IGNORECASE)
_USES_RE = re.compile(r"^(?:(\w+)\s+uses?|uses\s*:?\s*(\w+))$", re.IGNORECASE)
_NOTHING = {"", "nothing", "none", "no one", "—", "-"}

_SIZE_PATTERNS: tuple[tuple[re.Pattern[str], Callable[[int, int], tuple[Any, Any]]], ...] = (
    (re.compile(r"^([0-9]{1,6})\s*(?:–|—|-|to)\s*([0-9]{1,6})$"), lambda a, b: (a, b)),
    (re.compile(r"^([0-9]{1,6})\s*\+$"), lambda a, _: (a, None)),
    (re.compile(r"^([0-9]{1,6})\s+or\s+(?:more|larger|bigger)$"), lambda a, _: (a, None)),
    (re.compile(r"^(?:up\s+to|at\s+most|<=|≤)\s*([0-9]{1,6})$"), lambda a, _: (None, a)),
    (re.compile(r"^([0-9]{1,6})\s+or\s+(?:less|smaller)$"), lambda a, _: (None, a)),
    (re.compile(r"^([0-9]{1,6})$"), lambda a, _: (a, a)),
)
_SIZE_FORMS = '"Size 1–2", "Size 3", "Size 3+" or "Size up to 2"'


def _split_items(text: str) -> list[str]:
    # Empty items come from a trailing or doubled separator: harmless, so skipped.
    return [item.strip() for item in _ITEM_SEPARATOR_RE.split(text) if item.strip()]


def _read_number(field: str, text: str) -> int | float:
    """A number as written after a label, checked against the field's range."""
    match = _NUMBER_RE.match(text)
    if not text:
        raise CardError(field, "missing its value")
    if not match:
        raise CardError(field, f"expected a number, got {given(text)}")
    rest = text[match.end() :].strip()
    if rest and not (BOUNDS[field].unit and _INCH_MARK_RE.match(rest)):
        raise CardError(field, f"unexpected text after the value: {given(rest)}")
    token = match.group()
    if len(token) > _MAX_NUMBER_CHARS:
        raise CardError(field, f"number too long: {token}")
    value: int | float = float(token) if "." in token else int(token)
    if isinstance(value, float) and value.is_integer():
        value = int(value)  # "5.0" is 5: whole numbers are written and stored whole
    check_number(field, value)
    return value


def _read_sizes(spec: str) -> tuple[int | None, int | None]:
    spec = " ".join(spec.split())
    for pattern, build in _SIZE_PATTERNS:
        match = pattern.match(spec)
        if match:
            numbers = [int(group) for group in match.groups()]
            low, high = build(numbers[0], numbers[-1])
            check_sizes("", low, high, optional=True)
            return low, high
    raise CardError("min_size", f"expected {_SIZE_FORMS}, got {given(spec)}")


def _read_uses(count: str) -> int:
    count = count.lower()
    if count in _USE_WORDS:
        uses = _USE_WORDS.index(count)
    elif count.isascii() and count.isdigit() and len(count) <= _MAX_NUMBER_CHARS:
        uses = int(count)
    else:
        raise CardError("uses", f"expected a number of uses, got {given(count)}")
    check_number("uses", uses)
    return uses


def _parse_weapon(text: str) -> dict[str, Any]:
    match = _WEAPON_RE.match(text)
    separator = _WEAPON_SEPARATOR_RE.search(text)
    if match:
        name, rest = match.group(1), match.group(2)
    elif separator:
        # Power is not first (or is missing): the name ends at the first dash.
        name, rest = text[: separator.start()], text[separator.end() :]
    else:
        raise CardError("weapon", 'expected "Name — Power N, Range N[, restrictions]"')
    name = name.strip()
    if not name:
        raise CardError("weapon", 'missing the weapon\'s name before "— Power"')
    check_name("weapon", name, kind="weapon")

    weapon: dict[str, Any] = {key: None for key in WEAPON_FIELDS}
    weapon.update(name=name, aa=False, buildings_only=False)
    seen: set[str] = set()

    def once(field: str, label: str) -> None:
        if field in seen:
            raise CardError(field, f"duplicate {given(label)}")
        seen.add(field)

    for item in _split_items(rest):
        lower = " ".join(item.lower().split())
        stat = _STAT_ITEM_RE.match(item)
        label, value = (stat[1].lower(), stat[2].strip()) if stat else ("", "")
        size = _SIZE_ITEM_RE.match(lower)
        uses = _USES_RE.match(lower)
        if label in ("power", "range"):
            once(label, label.capitalize())
            weapon[label] = _read_number(label, value)
        elif lower == "aa":
            once("aa", "AA")
            weapon["aa"] = True
        elif re.fullmatch(r"buildings? only", lower):
            once("buildings_only", "buildings only")
            weapon["buildings_only"] = True
        elif size:
            once("min_size", "Size ... only")
            weapon["min_size"], weapon["max_size"] = _read_sizes(size.group(1))
        elif uses:
            once("uses", "uses")
            weapon["uses"] = _read_uses(uses.group(1) or uses.group(2))
        else:
            raise CardError("restriction", f"unknown restriction {given(item)}")
    for required in ("power", "range"):
        if weapon[required] is None:
            raise CardError(required, f'missing; a weapon line reads "{name} — Power N, Range N"')
    return weapon


def _read_stats(text: str, allowed: tuple[str, ...], form: str) -> dict[str, int | float]:
    """The stat line: every allowed stat exactly once, in any order."""
    stats: dict[str, int | float] = {}
    for item in _split_items(text):
        match = _STAT_ITEM_RE.match(item)
        label, value = (match[1].lower(), match[2].strip()) if match else ("", "")
        if label not in allowed:
            if label in _STAT_LABELS:
                raise CardError(label, f"a building has no {_STAT_LABELS[label]}")
            raise CardError("stats", f'unknown stat {given(item)}; the stat line reads "{form}"')
        if label in stats:
            raise CardError(label, f"duplicate {given(_STAT_LABELS[label])}")
        stats[label] = _read_number(label, value)
    for required in allowed:
        if required != "melee" and required not in stats:
            raise CardError(required, f'missing; the stat line reads "{form}"')
    return stats


_Lines = list[tuple[int, str]]


def parse_card(text: str) -> dict[str, Any]:
    """Read card text into a card dict (unit or building, told apart by "(building)").

    Raises `CardTextError` (and nothing else) for any text that is not a valid card.
    """
    if not isinstance(text, str):
        raise TypeError(f"card text must be str, got {type(text).__name__}")
    lines = [(number, line.strip()) for number, line in enumerate(text.splitlines(), 1)]
    lines = [(number, line) for number, line in lines if line]
    if not lines:
        raise CardTextError(1, "name", "the card is empty; it starts with the name")
    mark = BUILDING_MARK_RE.match(lines[0][1])
    if mark:
        return _parse_building(mark.group(1), lines)
    return _parse_unit(lines)


def _at(number: int, action: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Run one line's parsing; a `CardError` becomes a `CardTextError` on that line."""
    try:
        return action(*args, **kwargs)
    except CardTextError:
        raise
    except CardError as error:
        raise CardTextError(number, error.field, error.message) from None


def _validated(card: dict[str, Any], line_of: dict[str, int], weapon_lines: list[int]) -> None:
    """A last check of the whole card; each rule was already checked on its own line."""
    try:
        validate_card(card)
    except CardError as error:
        found = re.match(r"weapons\[(\d+)\]", error.field)
        top = re.split(r"[.\[]", error.field)[0]
        number = weapon_lines[int(found.group(1))] if found else line_of.get(top, line_of["name"])
        raise CardTextError(number, error.field.rsplit(".", 1)[-1], error.message) from None


def _parse_unit(lines: _Lines) -> dict[str, Any]:
    name_line, name = lines[0]
    _at(name_line, check_name, "name", name, kind="unit")
    if len(lines) < 2:
        raise CardTextError(name_line + 1, "stats", f'missing the stat line "{_UNIT_STAT_LINE}"')
    stat_line, stat_text = lines[1]
    stats = _at(stat_line, _read_stats, stat_text, (*UNIT_STATS, "melee"), _UNIT_STAT_LINE)
    card: dict[str, Any] = {"name": name, **{stat: stats[stat] for stat in UNIT_STATS}}
    card.update(melee=stats.get("melee"), weapons=[], keywords=[], enters=[])
    line_of = {"name": name_line, **{stat: stat_line for stat in stats}}
    weapon_lines: list[int] = []

    for number, text in lines[2:]:
        label = LABEL_RE.match(text)
        melee = _MELEE_RE.match(text)
        if label:
            field = label.group(1).lower()
            if field in ("admits", "becomes"):
                raise CardTextError(
                    number,
                    "admits" if field == "admits" else "rubble",
                    'only a building card has this line; end its name with "(building)"',
                )
            if field in line_of:
                raise CardTextError(number, field, f'duplicate "{label.group(1)}:" line')
            line_of[field] = number
            reader = _read_keywords if field == "keywords" else _read_enters
            card[field] = _at(number, reader, label.group(2))
        elif melee and not _WEAPON_RE.match(text) and not _WEAPON_SEPARATOR_RE.search(melee[1]):
            if "melee" in line_of:
                raise CardTextError(number, "melee", 'duplicate "Melee"')
            line_of["melee"] = number
            card["melee"] = _at(number, _read_number, "melee", melee[1].strip())
        elif _WEAPON_SEPARATOR_RE.search(text):
            weapon = _at(number, _parse_weapon, text)
            if any(w["name"].casefold() == weapon["name"].casefold() for w in card["weapons"]):
                raise CardTextError(number, "weapon", f"duplicate weapon {given(weapon['name'])}")
            card["weapons"].append(weapon)
            weapon_lines.append(number)
        else:
            raise CardTextError(
                number,
                "card",
                f"unrecognised line {given(text)}; expected a weapon (Name — Power N, Range N), "
                '"Melee N", "Keywords: ..." or "Enters: ..."',
            )

    _join_demolition(card, line_of.get("keywords", name_line))
    _validated(card, line_of, weapon_lines)
    return card


def _join_demolition(card: dict[str, Any], keywords_line: int) -> None:
    """Demolition and its Charges line come together: either one on a card brings the other."""
    has_charges = any(is_charges(weapon) for weapon in card["weapons"])
    if has_charges and "demolition" not in card["keywords"]:
        card["keywords"] = sorted([*card["keywords"], "demolition"], key=KEYWORDS.index)
    elif "demolition" in card["keywords"] and not has_charges:
        if any(weapon["name"].casefold() == "charges" for weapon in card["weapons"]):
            raise CardTextError(
                keywords_line,
                "keywords",
                "Demolition brings the standard Charges line (Power 4, Range 1, buildings only, "
                'two uses), but this card already has a different weapon named "Charges"',
            )
        card["weapons"].append(dict(CHARGES))


def _squash(word: str) -> str:
    return "".join(ch for ch in word.lower() if ch.isalpha())


_KEYWORD_LOOKUP = {_squash(label): keyword for keyword, label in KEYWORD_LABELS.items()}


def _read_keywords(text: str) -> list[str]:
    keywords: list[str] = []
    for item in _split_items(text):
        keyword = _KEYWORD_LOOKUP.get(_squash(item))
        if keyword is None:
            raise CardError("keywords", f"unknown keyword {given(item)}")
        if keyword in keywords:
            raise CardError("keywords", f"duplicate keyword {given(KEYWORD_LABELS[keyword])}")
        keywords.append(keyword)
    return sorted(keywords, key=KEYWORDS.index)


def _read_enters(text: str) -> list[str]:
    enters: list[str] = []
    for item in _split_items(text):
        kind = " ".join(item.lower().split())
        check_terrain("enters", kind)
        if kind in enters:
            raise CardError("enters", f"duplicate terrain kind {given(kind)}")
        enters.append(kind)
    return enters


def _parse_building(name: str, lines: _Lines) -> dict[str, Any]:
    name_line = lines[0][0]
    _at(name_line, check_name, "name", name, kind="building")
    if len(lines) < 2:
        raise CardTextError(
            name_line + 1, "stats", f'missing the stat line "{_BUILDING_STAT_LINE}"'
        )
    stat_line, stat_text = lines[1]
    stats = _at(stat_line, _read_stats, stat_text, BUILDING_STATS, _BUILDING_STAT_LINE)
    card: dict[str, Any] = {"name": name, "resistance": stats["resistance"], "hits": stats["hits"]}
    card.update(admits=None, rubble=None)
    line_of = {"name": name_line, "resistance": stat_line, "hits": stat_line}

    for number, text in lines[2:]:
        label = LABEL_RE.match(text)
        if not label:
            raise CardTextError(
                number,
                "card",
                f'unrecognised line {given(text)}; expected "Admits: Size N–N" or "Becomes: ..."',
            )
        field = {"admits": "admits", "becomes": "rubble"}.get(label.group(1).lower())
        if field is None:
            raise CardTextError(
                number, label.group(1).lower(), f'a building card has no "{label.group(1)}:" line'
            )
        if field in line_of:
            raise CardTextError(number, field, f'duplicate "{label.group(1)}:" line')
        line_of[field] = number
        value = label.group(2).strip()
        if field == "admits":
            card["admits"] = _at(number, _read_admits, value)
        else:
            _at(number, check_name, "rubble", value, kind="rubble")
            card["rubble"] = value

    if card["rubble"] is None:
        raise CardTextError(
            lines[-1][0] + 1, "rubble", 'missing the "Becomes: <rubble>" line: what it falls into'
        )
    _validated(card, line_of, [])
    return card


def _read_admits(text: str) -> dict[str, int] | None:
    spec = " ".join(text.lower().split())
    if spec in _NOTHING:
        return None
    size = _SIZE_ITEM_RE.match(spec)
    try:
        low, high = _read_sizes(size.group(1) if size else spec)
    except CardError as error:
        raise CardError("admits", error.message) from None
    # An open end admits everything that way: Size 3+ is Size 3–5.
    return {"min_size": 1 if low is None else low, "max_size": 5 if high is None else high}
