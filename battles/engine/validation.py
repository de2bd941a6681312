"""Scenario validation: JSON in, a ``Scenario`` out, or a ``ScenarioError`` naming every problem.

Nothing runs on a bad scenario. Every check records ``(path, reason)`` and carries on, so one
refusal lists all the problems; cross-checks (ids, deployment) run only on parts that parsed.
The checker never assumes a type it has not verified, so arbitrary JSON cannot crash it.
"""

from __future__ import annotations

import math
from typing import Any

from . import geometry
from .cards import CHARGES, CLOSE_COMBAT, Admits, BuildingCard, Keyword, UnitCard, Weapon
from .rulesets import Ruleset
from .targeting import STRUCTURE_POWER
from .terrain import (
    KIND_DEFAULTS,
    TerrainProps,
    kind_defaults,
    kind_name,
    known_kinds,
    movement_refusal,
)

_BAD: Any = object()
"""Marker for a value that failed its check (its problem is already recorded)."""

_TERRAIN_FLAGS = ("blocks_movement", "blocks_sight", "hazard", "wall", "water")
_LISTS = (list, tuple)
"""What stands for a JSON list: a Python caller may write a position ``(2, 2)`` or a tuple of
keywords where JSON has a list, and is held to every other check as JSON is."""
_KEYWORDS = {k.value: k for k in Keyword}


class _Checker:
    """Collects problems while reading one untrusted JSON document."""

    def __init__(self, fought: bool = False) -> None:
        self.problems: list[tuple[str, str]] = []
        self.fought = fought
        """The document is a battle already fought, read back: the card-writing rules an older
        engine did not check (a printed Melee's range) are not asked of its cards."""

    def fail(self, path: str, reason: str) -> Any:
        self.problems.append((path, reason))
        return _BAD

    def obj(self, value: Any, path: str, required: set[str], optional: set[str]) -> dict | None:
        if not isinstance(value, dict):
            self.fail(path, f"must be an object, got {_kind(value)}")
            return None
        for key in sorted(set(value) - required - optional, key=str):
            self.fail(_join(path, str(key)), "unknown field")
        for key in sorted(required - set(value)):
            self.fail(_join(path, key), "required")
        return value

    def int_(self, value: Any, path: str, lo: int | None = None, hi: int | None = None) -> Any:
        if isinstance(value, bool) or not isinstance(value, int):
            return self.fail(path, f"must be an integer, got {_kind(value)}")
        return self._bounded(value, path, lo, hi)

    def num(self, value: Any, path: str, lo: float | None = None, hi: float | None = None) -> Any:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return self.fail(path, f"must be a number, got {_kind(value)}")
        try:
            v = float(value)
        except OverflowError:  # an integer literal of hundreds of digits
            return self.fail(path, f"is too large, got {_show(value)}")
        if not math.isfinite(v):
            return self.fail(path, f"must be finite, got {value}")
        return self._bounded(v, path, lo, hi)

    def capped(self, v: Any, path: str, lo: float, hi: float, unit: str = "") -> Any:
        """``v`` (already checked from below against ``lo``), refused past ``hi`` in the card
        library's words; a value too small is still told "at least", as it always was."""
        if v is not _BAD and v > hi:
            return self.fail(path, f"must be {_show(lo)}..{_show(hi)}{unit}, got {_show(v)}")
        return v

    def card_int(self, value: Any, path: str, lo: int) -> Any:
        """A card's whole number: at least ``lo``, at most the card library's MAX_CARD_NUMBER."""
        return self.capped(self.int_(value, path, lo), path, lo, MAX_CARD_NUMBER)

    def reach(self, value: Any, path: str) -> Any:
        """A weapon's Range: more than 0, at most MAX_INCHES, in the card library's words. An
        integer past the bound is refused by it before it is read as a float (one of hundreds of
        digits fits none)."""
        too_far = f"must be more than 0 and at most {_show(MAX_INCHES)} inches, got "
        if isinstance(value, int) and not isinstance(value, bool) and value > MAX_INCHES:
            return self.fail(path, too_far + _show(value))
        v = self.positive(value, path)
        if v is not _BAD and v > MAX_INCHES:
            return self.fail(path, too_far + _show(v))
        return v

    def positive(self, value: Any, path: str) -> Any:
        v = self.num(value, path)
        if v is not _BAD and v <= 0:
            return self.fail(path, f"must be greater than 0, got {_show(v)}")
        return v

    def _bounded(self, v: Any, path: str, lo: float | None, hi: float | None) -> Any:
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            if lo is not None and hi is not None:
                return self.fail(path, f"must be {_show(lo)}..{_show(hi)}, got {_show(v)}")
            if lo is not None:
                return self.fail(path, f"must be at least {_show(lo)}, got {_show(v)}")
            assert hi is not None
            return self.fail(path, f"must be at most {_show(hi)}, got {_show(v)}")
        return v

    def str_(self, value: Any, path: str) -> Any:
        if not isinstance(value, str) or not value.strip():
            return self.fail(path, f"must be a non-empty string, got {_kind(value)}")
        if not value.isascii():
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:  # JSON's "\ud800": the log could not be written
                return self.fail(path, "must be text (a lone surrogate is not)")
        return value

    def bool_(self, value: Any, path: str) -> Any:
        if not isinstance(value, bool):
            return self.fail(path, f"must be true or false, got {_kind(value)}")
        return value

    def list_(self, value: Any, path: str) -> list:
        if not isinstance(value, _LISTS):
            self.fail(path, f"must be a list, got {_kind(value)}")
            return []
        return value if isinstance(value, list) else list(value)

    def point(self, value: Any, path: str, width: float, height: float) -> Any:
        if not isinstance(value, _LISTS) or len(value) != 2:
            return self.fail(path, "must be a pair [x, y]")
        x = self.num(value[0], path + "[0]")
        y = self.num(value[1], path + "[1]")
        if x is _BAD or y is _BAD:
            return _BAD
        if not (0 <= x <= width and 0 <= y <= height):
            return self.fail(
                path,
                f"({_show(x)}, {_show(y)}) is off the "
                f"{geometry.table_size_text(_show(width), _show(height))} table",
            )
        return (x, y)

    def polygon(self, value: Any, path: str, width: float, height: float) -> Any:
        pts = self.list_(value, path)
        if not isinstance(value, _LISTS):
            return _BAD
        if len(pts) < 3:
            return self.fail(path, f"needs at least 3 points, got {len(pts)}")
        if len(pts) > MAX_CORNERS:
            return self.fail(path, f"at most {MAX_CORNERS} corners, got {len(pts)}")
        parsed = [self.point(p, f"{path}[{i}]", width, height) for i, p in enumerate(pts)]
        if any(p is _BAD for p in parsed):
            return _BAD
        try:
            poly = geometry.Polygon.of(parsed)
        except ValueError:
            # Repeated points leave fewer than three corners: no shape at all.
            return self.fail(path, "needs at least 3 distinct points")
        if abs(poly.area) < 1e-9:
            return self.fail(path, "has no area")
        if not poly.is_simple():
            return self.fail(path, "must be a simple polygon (edges may not cross)")
        return poly


# --- limits ----------------------------------------------------------------------------------
# What a real table needs, with room: the reference scenarios use at most 11 terrain pieces, 6
# buildings, 4 corners a piece and 20 units a side on a 24" table. The limits bound the engine's
# cost (bench/README.md, "Largest valid scenario") and are checked before anything else, so an
# oversized paste is refused at the cost of counting it.

MAX_CORNERS = 64
"""Corners of one terrain, building or deployment-zone polygon (a traced river bank, a ragged
wood)."""
MAX_WATER_CORNERS = 128
"""Corners of every water piece together, and of every building that falls to water. Water costs
an Amphibious unit half its Move (a cost region), so its paths are searched over a graph of every
corner of water, unpruned: the work grows with the square of their number and more (one turn
over 40 lakes of 64 corners took minutes), so it is bounded here rather than in the engine, which
keeps every path it finds as it is. 128 corners: two traced rivers; the reference scenarios use
12."""
MAX_TERRAIN = 40
MAX_BUILDINGS = 20
MAX_UNITS_PER_SIDE = 40
MAX_OBJECTIVES = 20
MAX_TABLE = 96.0
"""Inches on either side of the table: an eight-foot table."""
MAX_DESCRIPTION = 4000
"""Characters of the free-text description."""
MAX_TEXT = 200
"""Characters of any other string (names, ids, kinds)."""
MAX_SCENARIO_TEXT = 200_000
"""Characters of a scenario given as JSON text (``parse_scenario_json``, ``load_scenario``): the
largest scenario the other limits admit is about 120 kB compact."""
MAX_DEPTH = 12
"""Nesting of lists and objects; a scenario needs 7 (sides, units, card, weapons, weapon)."""
MAX_CARD_NUMBER = 99
"""Power, Resistance, Melee, Hits and uses on a card, as the card library has it: two digits, far
past any card for six-sided dice; bigger ones only overflow the odds the commander works out."""
MAX_WEAPONS = 12
"""Weapon lines on one card (the rule text's cards have one to three): the commander works out
attack odds for every weapon against every card when a scenario is read."""
MAX_INCHES = 1000.0
"""Inches of Move or of a weapon's Range, as the card library has them."""
MAX_POINTS = 9999
"""Points an objective awards, per turn or at the end."""

_COUNTED = (
    ("terrain", MAX_TERRAIN, "terrain pieces"),
    ("buildings", MAX_BUILDINGS, "buildings"),
    ("objectives", MAX_OBJECTIVES, "objectives"),
)


def check_limits(data: Any) -> list[tuple[str, str]]:
    """The limits ``data`` exceeds, as (path, reason): cheap, and safe on any JSON value.

    Walks the document without recursion, so nesting of any depth is measured, not crashed on.
    """
    problems: list[tuple[str, str]] = []
    stack: list[tuple[Any, int]] = [(data, 1)]
    deepest = 0
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            deepest = max(deepest, depth)
            if depth <= MAX_DEPTH:
                stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, _LISTS):
            deepest = max(deepest, depth)
            if depth <= MAX_DEPTH:
                stack.extend((v, depth + 1) for v in value)
    if deepest > MAX_DEPTH:
        problems.append(("", f"nested more than {MAX_DEPTH} levels deep"))
        return problems
    if not isinstance(data, dict):
        return problems
    _text_problems(problems, data, "", MAX_TEXT)
    description = data.get("description")
    if description is not None:
        if not isinstance(description, str):
            problems.append(("description", f"must be a string, got {_kind(description)}"))
        elif len(description) > MAX_DESCRIPTION:
            problems.append(
                (
                    "description",
                    f"must be at most {MAX_DESCRIPTION} characters, got {len(description)}",
                )
            )
    table = data.get("table")
    if isinstance(table, dict):
        for key in ("width", "height"):
            size = table.get(key)
            if isinstance(size, (int, float)) and not isinstance(size, bool) and size > MAX_TABLE:
                problems.append((f"table.{key}", f"must be at most {_show(MAX_TABLE)}, got {size}"))
    for key, limit, what in _COUNTED:
        items = data.get(key)
        if isinstance(items, _LISTS) and len(items) > limit:
            problems.append((key, f"at most {limit} {what}, got {len(items)}"))
    for key in ("terrain", "buildings"):
        items = data.get(key)
        for i, piece in enumerate(items if isinstance(items, _LISTS) else []):
            corners = piece.get("polygon") if isinstance(piece, dict) else None
            if isinstance(corners, _LISTS) and len(corners) > MAX_CORNERS:
                problems.append(
                    (f"{key}[{i}].polygon", f"at most {MAX_CORNERS} corners, got {len(corners)}")
                )
    wet = _water_corners(data)
    if wet > MAX_WATER_CORNERS:
        problems.append(
            (
                "terrain",
                f"at most {MAX_WATER_CORNERS} corners of water in all, got {wet}: an Amphibious "
                "unit's paths are searched over every corner of water",
            )
        )
    sides = data.get("sides")
    for i, side in enumerate(sides[:2] if isinstance(sides, _LISTS) else []):
        corners = side.get("zone") if isinstance(side, dict) else None
        if isinstance(corners, _LISTS) and len(corners) > MAX_CORNERS:
            problems.append(
                (f"sides[{i}].zone", f"at most {MAX_CORNERS} corners, got {len(corners)}")
            )
        units = side.get("units") if isinstance(side, dict) else None
        if isinstance(units, _LISTS) and len(units) > MAX_UNITS_PER_SIDE:
            problems.append(
                (f"sides[{i}].units", f"at most {MAX_UNITS_PER_SIDE} units, got {len(units)}")
            )
    return problems


def _water_corners(data: dict) -> int:
    """Corners of the water pieces in ``data``, and of the buildings that fall to water, read as
    the checks after the limits read them (a piece's own ``water`` flag, else its kind's)."""
    total = 0
    pieces = data.get("terrain")
    for piece in pieces if isinstance(pieces, _LISTS) else []:
        if isinstance(piece, dict) and _wet(piece):
            total += _corners(piece.get("polygon"))
    buildings = data.get("buildings")
    for building in buildings if isinstance(buildings, _LISTS) else []:
        card = building.get("card") if isinstance(building, dict) else None
        rubble = card.get("rubble") if isinstance(card, dict) else None
        if isinstance(rubble, str):
            fallen = kind_defaults(rubble)
            wet = fallen is not None and fallen.water
        else:
            wet = isinstance(rubble, dict) and _wet(rubble)
        if wet and isinstance(building, dict):
            total += _corners(building.get("polygon"))
    return total


def _wet(piece: dict) -> bool:
    """Whether a terrain piece (or a building's rubble) as written is water."""
    flag = piece.get("water")
    if "water" in piece:
        return flag is True
    kind = piece.get("kind")
    base = KIND_DEFAULTS.get(kind_name(kind)) if isinstance(kind, str) else None
    return base is not None and base.water


def _corners(polygon: Any) -> int:
    return len(polygon) if isinstance(polygon, _LISTS) else 0


NUL = "must not contain a NUL character"
"""The refusal of a NUL character, typed or written as the escape ``\\u0000``: it is no text a
name could want, and the site's database stores none."""


def _text_problems(problems: list[tuple[str, str]], data: Any, path: str, limit: int) -> None:
    """Every string (value or key) in ``data`` longer than ``limit``, but the description, and
    every one holding a NUL character."""
    stack: list[tuple[Any, str]] = [(data, path)]
    while stack:
        value, at = stack.pop()
        if isinstance(value, str):
            if len(value) > limit and at != "description":
                problems.append((at, f"must be at most {limit} characters, got {len(value)}"))
            if "\x00" in value:
                problems.append((at, NUL))
        elif isinstance(value, dict):
            for key, item in value.items():
                if isinstance(key, str) and len(key) > limit:
                    problems.append((at, f"a field name is longer than {limit} characters"))
                    continue
                if isinstance(key, str) and "\x00" in key:
                    problems.append((_join(at, key), NUL))
                    continue
                stack.append((item, _join(at, str(key))))
        elif isinstance(value, _LISTS):
            stack.extend((item, f"{at}[{i}]") for i, item in enumerate(value))


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return _show(value)
    if isinstance(value, str):
        return "a string"
    if isinstance(value, _LISTS):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _show(v: float) -> str:
    if isinstance(v, int):
        digits = str(abs(v))
        if len(digits) > 15:
            return f"a {'negative ' if v < 0 else ''}number of {len(digits)} digits"
        return str(v)
    return str(int(v)) if v.is_integer() and abs(v) < 1e15 else repr(v)


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


# --- cards -----------------------------------------------------------------------------------

_WEAPON_REQ = {"name", "power", "range"}
_WEAPON_OPT = {"aa", "buildings_only", "min_size", "max_size", "uses"}
_CARD_REQ = {"name", "skill", "move", "resistance", "hits", "size"}
_CARD_OPT = {"melee", "weapons", "keywords", "enters"}


def _weapon(c: _Checker, data: Any, path: str) -> Weapon | None:
    # Missing fields are recorded by obj(): they count against the card too.
    before = len(c.problems)
    d = c.obj(data, path, _WEAPON_REQ, _WEAPON_OPT)
    if d is None:
        return None
    name = c.str_(d.get("name"), path + ".name") if "name" in d else _BAD
    if name == CLOSE_COMBAT:
        c.fail(path + ".name", f"{CLOSE_COMBAT!r} names close combat (Melee or Ramming): rename it")
    power = c.card_int(d.get("power"), path + ".power", 0) if "power" in d else _BAD
    rng = c.reach(d.get("range"), path + ".range") if "range" in d else _BAD
    aa = c.bool_(d.get("aa", False), path + ".aa")
    bonly = c.bool_(d.get("buildings_only", False), path + ".buildings_only")
    lo = d.get("min_size")
    hi = d.get("max_size")
    lo = None if lo is None else c.int_(lo, path + ".min_size", 1, 5)
    hi = None if hi is None else c.int_(hi, path + ".max_size", 1, 5)
    if isinstance(lo, int) and isinstance(hi, int) and lo > hi:
        c.fail(path + ".max_size", f"must be at least min_size {lo}, got {hi}")
    uses = d.get("uses")
    uses = None if uses is None else c.card_int(uses, path + ".uses", 1)
    if bonly is True and power is not _BAD and power < STRUCTURE_POWER:
        # A weapon that may attack nothing but buildings, and cannot damage one, does nothing.
        c.fail(
            path + ".power",
            f"must be at least {STRUCTURE_POWER} on a buildings-only weapon (only weapons of "
            f"Power {STRUCTURE_POWER}+ can damage a structure), got {power}",
        )
    if bonly is True and (lo is not None or hi is not None):
        # Buildings have no Size (E14): a buildings-only weapon limited by Size attacks nothing.
        c.fail(
            path + (".min_size" if lo is not None else ".max_size"),
            "a buildings-only weapon may have no Size restriction: it attacks only buildings, "
            "which have no Size, so with one it could attack nothing",
        )
    if len(c.problems) != before:
        return None
    return Weapon(name, power, rng, aa, bonly, lo, hi, uses)


MELEE_ABOVE_SIZE = 3
"""WRITING A CARD: a printed Melee is "Size + 0 to 3 for what it's swinging"."""


def _check_melee(c: _Checker, path: str, name: Any, size: int, melee: int) -> None:
    """A printed Melee from the card's Size to its Size + 3, both ends included."""
    if size <= melee <= size + MELEE_ABOVE_SIZE:
        return
    card = f"{name!r}" if name is not _BAD else "the card"
    c.fail(
        path,
        f"Melee is Size + 0 to {MELEE_ABOVE_SIZE}: {card} is Size {size}, so its Melee must be "
        f"{size}..{size + MELEE_ABOVE_SIZE}, got {melee}",
    )


def parse_unit_card(data: Any, path: str, ruleset: Ruleset | None, c: _Checker) -> UnitCard | None:
    """Validate one unit card dict; adds Charges for Demolition if the card lacks it.

    ``ruleset`` decides which keywords are allowed; ``None`` allows every rule text's.
    """
    # Missing fields are recorded by obj(): they count against the card too.
    before = len(c.problems)
    d = c.obj(data, path, _CARD_REQ, _CARD_OPT)
    if d is None:
        return None
    name = c.str_(d.get("name"), path + ".name") if "name" in d else _BAD
    skill = c.int_(d["skill"], path + ".skill", 2, 5) if "skill" in d else _BAD
    move = (
        c.capped(c.num(d["move"], path + ".move", 0), path + ".move", 0, MAX_INCHES, " inches")
        if "move" in d
        else _BAD
    )
    res = _BAD
    if "resistance" in d:
        res = c.card_int(d["resistance"], path + ".resistance", 0)
    hits = c.card_int(d["hits"], path + ".hits", 1) if "hits" in d else _BAD
    size = c.int_(d["size"], path + ".size", 1, 5) if "size" in d else _BAD
    melee = d.get("melee")
    melee = None if melee is None else c.card_int(melee, path + ".melee", 0)
    if melee is not None and melee is not _BAD and size is not _BAD and not c.fought:
        _check_melee(c, path + ".melee", name, size, melee)
    weapons: list[Weapon] = []
    names: set[str] = set()  # the names so far as a set: a long list is checked in linear time
    given = c.list_(d.get("weapons", []), path + ".weapons")
    if len(given) > MAX_WEAPONS:
        # Refused before any is read: the commander works out its odds for every weapon.
        c.fail(path + ".weapons", f"at most {MAX_WEAPONS} weapons on a card, got {len(given)}")
        given = []
    for i, w in enumerate(given):
        wp = _weapon(c, w, f"{path}.weapons[{i}]")
        if wp is not None:
            if wp.name in names:
                c.fail(f"{path}.weapons[{i}].name", f"duplicate weapon name {wp.name!r}")
            names.add(wp.name)
            weapons.append(wp)
    keywords: set[Keyword] = set()
    for i, k in enumerate(c.list_(d.get("keywords", []), path + ".keywords")):
        kp = f"{path}.keywords[{i}]"
        if not isinstance(k, str):
            c.fail(kp, f"must be a keyword string, got {_kind(k)}")
        elif k not in _KEYWORDS:
            c.fail(kp, f"unknown keyword {k!r}")
        elif ruleset is not None and _KEYWORDS[k] not in ruleset.keywords:
            c.fail(kp, f"keyword {k!r} is not allowed under {ruleset.name}")
        else:
            keywords.add(_KEYWORDS[k])
    enters: set[str] = set()
    for i, e in enumerate(c.list_(d.get("enters", []), path + ".enters")):
        if c.str_(e, f"{path}.enters[{i}]") is not _BAD:
            enters.add(kind_name(e))  # read as a terrain's kind is: "lake" enters water
    if Keyword.DEMOLITION in keywords:
        for i, w in enumerate(weapons):
            if w.name == CHARGES.name and w != CHARGES:
                # "Charges — Power 4, Range 1, buildings only, two uses": the line is the rule.
                c.fail(
                    f"{path}.weapons[{i}]",
                    "a Demolition card's Charges are Power 4, Range 1, buildings only, two uses",
                )
    if len(c.problems) != before:
        return None
    if Keyword.DEMOLITION in keywords and not any(w.name == CHARGES.name for w in weapons):
        weapons.append(CHARGES)
    return UnitCard(
        name,
        skill,
        move,
        res,
        hits,
        size,
        melee,
        tuple(weapons),
        frozenset(keywords),
        frozenset(enters),
    )


def card_problems(
    data: Any, *, building: bool, ruleset: Ruleset | None = None
) -> list[tuple[str, str]]:
    """Every problem with one card dict, as (path in the card, reason): "weapons[1].power".

    The checks every card in a scenario gets, for whoever else holds cards (the card library
    checks its cards with these, so a card it stores is one a battle accepts). ``building``
    says which kind of card ``data`` is; ``ruleset`` as for ``parse_unit_card``.
    """
    c = _Checker()
    if building:
        _building_card(c, data, "")
    else:
        parse_unit_card(data, "", ruleset, c)
    return [(path.removeprefix(".") or "card", reason) for path, reason in c.problems]


def _terrain_props(c: _Checker, d: dict, path: str, fallen: bool = False) -> TerrainProps | None:
    """A terrain piece's kind and flags; ``fallen`` for what a building becomes (E38)."""
    written = c.str_(d.get("kind"), path + ".kind") if "kind" in d else _BAD
    if written is _BAD:
        return None
    kind = kind_name(written)  # the rule texts' "rubble field" is rubble, their "lake" water
    base = KIND_DEFAULTS.get(kind)
    if base is None and not any(f in d for f in _TERRAIN_FLAGS):
        # A kind with no defaults and no flags would be open ground, whatever it was meant to
        # be: a typo is an error, not a silent default (E41).
        c.fail(path + ".kind", _unknown_kind(written))
        return None
    base = base or TerrainProps(kind)
    flags = {}
    for f in _TERRAIN_FLAGS:
        v = c.bool_(d[f], f"{path}.{f}") if f in d else getattr(base, f)
        if v is _BAD:
            return None
        flags[f] = v
    # A wall is a hazard by definition (rulings: "walls are hazards Sure-Footed does not excuse").
    flags["hazard"] = flags["hazard"] or flags["wall"]
    props = TerrainProps(kind, **flags)
    refusal = movement_refusal(props, fallen=fallen)
    if refusal is not None:
        # Units roll to cross rubble and stand in it, a building's occupants once it falls (E38).
        # Refused by the flag if given, else by the kind whose defaults block movement.
        c.fail(f"{path}.blocks_movement" if "blocks_movement" in d else path, refusal)
        return None
    return props


def _unknown_kind(written: str) -> str:
    return (
        f"unknown terrain kind {written!r}: use one of {known_kinds()}, or give its flags "
        f"({', '.join(_TERRAIN_FLAGS)}) to say what it does"
    )


def _building_card(c: _Checker, data: Any, path: str) -> BuildingCard | None:
    # Missing fields are recorded by obj(): they count against the card too.
    before = len(c.problems)
    d = c.obj(data, path, {"name", "resistance", "hits"}, {"admits", "rubble"})
    if d is None:
        return None
    name = c.str_(d.get("name"), path + ".name") if "name" in d else _BAD
    res = _BAD
    if "resistance" in d:
        res = c.card_int(d["resistance"], path + ".resistance", 0)
    hits = c.card_int(d["hits"], path + ".hits", 1) if "hits" in d else _BAD
    admits = None
    if d.get("admits") is not None:
        a = c.obj(d["admits"], path + ".admits", {"min_size", "max_size"}, set())
        if a is not None and {"min_size", "max_size"} <= set(a):
            lo = c.int_(a["min_size"], path + ".admits.min_size", 1, 5)
            hi = c.int_(a["max_size"], path + ".admits.max_size", 1, 5)
            if lo is not _BAD and hi is not _BAD:
                if lo > hi:
                    c.fail(path + ".admits.max_size", f"must be at least min_size {lo}, got {hi}")
                else:
                    admits = Admits(lo, hi)
    rubble: TerrainProps | None = KIND_DEFAULTS["rubble"]
    if isinstance(d.get("rubble"), str):
        # A card names what it becomes ("Becomes: rubble field"): a kind with its defaults.
        rubble = kind_defaults(d["rubble"])
        if rubble is None:
            c.fail(path + ".rubble", _unknown_kind(d["rubble"]))
        elif (refusal := movement_refusal(rubble, fallen=True)) is not None:
            # Its occupants stand in what it becomes (E38): "woods" or "water" would trap them.
            c.fail(path + ".rubble", refusal)
            rubble = None
    elif "rubble" in d:
        r = c.obj(d["rubble"], path + ".rubble", {"kind"}, set(_TERRAIN_FLAGS))
        rubble = _terrain_props(c, r, path + ".rubble", fallen=True) if r is not None else None
    if len(c.problems) != before or rubble is None:
        return None
    return BuildingCard(name, res, hits, admits, rubble)
