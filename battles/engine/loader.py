"""Reading a scenario: JSON text or a parsed dict in, a validated ``Scenario`` out.

Per-field checks live in ``validation``; this module walks the document and then cross-checks
what only the whole can tell: ids, references, deployment, and that someone has an objective.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path
from typing import Any

from . import geometry
from .cards import barred_at
from .errors import ScenarioError
from .geometry import Point, insides_meet
from .rulesets import RULESETS, Ruleset
from .scenario import (
    BuildingSetup,
    Objective,
    ObjectiveKind,
    Order,
    OrderKind,
    Quality,
    Scenario,
    SideSetup,
    UnitSetup,
)
from .terrain import TerrainPiece
from .validation import (
    _BAD,
    _LISTS,
    _TERRAIN_FLAGS,
    MAX_POINTS,
    MAX_SCENARIO_TEXT,
    _building_card,
    _Checker,
    _terrain_props,
    check_limits,
    parse_unit_card,
)

TABLE_SIDE = 24.0
"""Inches on either side of the table when the scenario gives no size (or a bad one)."""
_TOP_REQ = {"ruleset", "turn_limit", "sides", "objectives"}
_TOP_OPT = {"name", "table", "terrain", "buildings", "description"}
_ORDERS = {o.value for o in OrderKind}
_QUALITIES = [q.value for q in Quality]


def load_scenario(path: str | Path) -> Scenario:
    """Read and validate a scenario file; malformed JSON is a ``ScenarioError`` too. Only a
    regular file is read (not a pipe or a device, which may never end), and no more of it than
    ``MAX_SCENARIO_TEXT`` characters of UTF-8 could take."""
    if not isinstance(path, (str, Path)):
        raise ScenarioError([("", f"a scenario file is named by a path, got {_short(path)}")])
    try:
        # Asked before opening: opening a pipe waits for a writer.
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise ScenarioError([("", f"cannot read {path}: not a regular file")])
        with Path(path).open("rb") as f:
            raw = f.read(4 * MAX_SCENARIO_TEXT + 1)
        text = raw.decode("utf-8")
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name; UnicodeDecodeError
        raise ScenarioError([("", f"cannot read {path}: {exc}")]) from exc
    return parse_scenario_json(text)


def _once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose every key is given once: a key given twice would otherwise keep its
    last value without a word (``"turn_limit": 500, "turn_limit": 6``)."""
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise ValueError(f"the key {_short(key)} is given twice in one object")
        seen.add(key)
    return dict(pairs)


def parse_scenario_json(text: str | bytes) -> Scenario:
    """Validate a scenario given as JSON text: at most ``MAX_SCENARIO_TEXT`` characters, counted
    before anything is read (bytes are decoded as ``json.loads`` decodes them)."""
    if isinstance(text, bytes):
        try:
            text = text.decode(json.detect_encoding(text), "surrogatepass")
        except UnicodeDecodeError as exc:
            raise ScenarioError([("", f"malformed JSON: {exc}")]) from exc
    if len(text) > MAX_SCENARIO_TEXT:
        raise ScenarioError(
            [("", f"must be at most {MAX_SCENARIO_TEXT} characters of JSON, got {len(text)}")]
        )
    try:
        data = json.loads(text, object_pairs_hook=_once_each)
    except (ValueError, RecursionError) as exc:
        raise ScenarioError([("", f"malformed JSON: {exc}")]) from exc
    return parse_scenario(data)


def parse_scenario(data: Any, *, fought: bool = False) -> Scenario:
    """Validate a parsed scenario document; raises ``ScenarioError`` listing every problem.

    ``fought`` reads back the scenario of a battle already fought, for its report: a card an
    older engine accepted stands as it was fought, though a launch today would refuse it for a
    card-writing rule checked since (a printed Melee's range).
    """
    too_big = check_limits(data)
    if too_big:
        # Refused on size alone, before any check whose cost grows with the document.
        raise ScenarioError(too_big)
    c = _Checker(fought)
    d = c.obj(data, "", _TOP_REQ, _TOP_OPT)
    if d is None:
        raise ScenarioError(c.problems)
    name = d.get("name", "Untitled battle")
    if c.str_(name, "name") is _BAD:
        name = "?"
    ruleset = None
    if "ruleset" in d:
        if d["ruleset"] in RULESETS if isinstance(d["ruleset"], str) else False:
            ruleset = RULESETS[d["ruleset"]]
        else:
            c.fail("ruleset", f"must be one of {sorted(RULESETS)}, got {_short(d['ruleset'])}")
    width = height = TABLE_SIDE
    if "table" in d:
        t = c.obj(d["table"], "table", set(), {"width", "height"})
        if t is not None:
            width = c.positive(t.get("width", TABLE_SIDE), "table.width")
            height = c.positive(t.get("height", TABLE_SIDE), "table.height")
            if width is _BAD or height is _BAD:
                width = height = TABLE_SIDE
    turn_limit = c.int_(d["turn_limit"], "turn_limit", 1, 100) if "turn_limit" in d else _BAD
    if ruleset is None:
        # Card keywords depend on the ruleset; without one, further checks would only mislead.
        raise ScenarioError(c.problems or [("ruleset", "required")])

    terrain = _parse_terrain(c, d.get("terrain", []), width, height)
    buildings = _parse_buildings(c, d.get("buildings", []), width, height)
    sides = _parse_sides(c, d.get("sides"), ruleset, width, height)
    objectives = _parse_objectives(c, d.get("objectives"), width, height)
    if c.problems:
        raise ScenarioError(c.problems)
    _cross_check(c, terrain, buildings, sides, objectives)
    if c.problems:
        raise ScenarioError(c.problems)
    digest = hashlib.sha256(
        json.dumps(data, sort_keys=True, separators=(",", ":")).encode()
    ).hexdigest()
    return Scenario(
        name,
        ruleset,
        width,
        height,
        turn_limit,
        tuple(terrain),
        tuple(buildings),
        tuple(objectives),
        (sides[0], sides[1]),
        digest,
    )


def _short(v: Any) -> str:
    s = json.dumps(v) if isinstance(v, (str, int, float, bool, type(None))) else type(v).__name__
    return s if len(s) < 40 else s[:37] + "..."


def _parse_terrain(c: _Checker, data: Any, w: float, h: float) -> list[TerrainPiece]:
    out = []
    for i, t in enumerate(c.list_(data, "terrain")):
        p = f"terrain[{i}]"
        d = c.obj(t, p, {"id", "kind", "polygon"}, set(_TERRAIN_FLAGS))
        if d is None:
            continue
        tid = c.str_(d.get("id"), p + ".id") if "id" in d else _BAD
        props = _terrain_props(c, d, p)
        poly = c.polygon(d.get("polygon"), p + ".polygon", w, h) if "polygon" in d else _BAD
        if tid is not _BAD and props is not None and poly is not _BAD:
            out.append(TerrainPiece(tid, props, poly))
    return out


def _parse_buildings(c: _Checker, data: Any, w: float, h: float) -> list[BuildingSetup]:
    out = []
    for i, b in enumerate(c.list_(data, "buildings")):
        p = f"buildings[{i}]"
        d = c.obj(b, p, {"id", "card", "polygon"}, {"side"})
        if d is None:
            continue
        bid = c.str_(d.get("id"), p + ".id") if "id" in d else _BAD
        card = _building_card(c, d.get("card"), p + ".card") if "card" in d else None
        poly = c.polygon(d.get("polygon"), p + ".polygon", w, h) if "polygon" in d else _BAD
        side = d.get("side")
        if side is not None and c.str_(side, p + ".side") is _BAD:
            side = _BAD
        if bid is not _BAD and card is not None and poly is not _BAD and side is not _BAD:
            out.append(BuildingSetup(bid, card, poly, side))
    return out


def _parse_sides(c: _Checker, data: Any, rs: Ruleset, w: float, h: float) -> list[SideSetup]:
    sides = c.list_(data, "sides")
    if isinstance(data, _LISTS) and len(sides) != 2:
        c.fail("sides", f"must list exactly 2 sides, got {len(sides)}")
    out = []
    for i, s in enumerate(sides[:2]):
        p = f"sides[{i}]"
        d = c.obj(s, p, {"id", "units"}, {"name", "zone"})
        if d is None:
            continue
        sid = c.str_(d.get("id"), p + ".id") if "id" in d else _BAD
        sname = d.get("name", sid)
        if c.str_(sname, p + ".name") is _BAD:
            sname = "?"
        units = []
        raw = c.list_(d.get("units"), p + ".units") if "units" in d else []
        if isinstance(d.get("units"), _LISTS) and not raw:
            c.fail(p + ".units", "a side needs at least one unit")
        for j, u in enumerate(raw):
            unit = _parse_unit(c, u, f"{p}.units[{j}]", sid, rs, w, h)
            if unit is not None:
                units.append(unit)
        zone = c.polygon(d["zone"], p + ".zone", w, h) if "zone" in d else None
        if sid is not _BAD and zone is not _BAD:
            out.append(SideSetup(sid, sname, tuple(units), zone))
    return out


def _parse_unit(
    c: _Checker, data: Any, p: str, side: str, rs: Ruleset, w: float, h: float
) -> UnitSetup | None:
    d = c.obj(data, p, {"id", "card", "position"}, {"facing", "order", "quality", "paradrop"})
    if d is None:
        return None
    uid = c.str_(d.get("id"), p + ".id") if "id" in d else _BAD
    card = parse_unit_card(d.get("card"), p + ".card", rs, c) if "card" in d else None
    pos = c.point(d.get("position"), p + ".position", w, h) if "position" in d else _BAD
    facing = c.num(d.get("facing", 0), p + ".facing")
    # No Order is recorded as Hold, marked as not given: the commander may judge for itself.
    order = Order(OrderKind.HOLD, None, given=False)
    quality = Quality.AVERAGE
    if "quality" in d:
        q = d["quality"]
        if not isinstance(q, str) or q not in _QUALITIES:
            c.fail(p + ".quality", f"must be one of {_QUALITIES}, got {_short(q)}")
        else:
            quality = Quality(q)
    paradrop = c.bool_(d["paradrop"], p + ".paradrop") if "paradrop" in d else False
    if "order" in d:
        o = c.obj(d["order"], p + ".order", {"kind"}, {"objective"})
        if o is not None and "kind" in o:
            kind = o["kind"]
            obj = o.get("objective")
            if not isinstance(kind, str) or kind not in _ORDERS:
                c.fail(p + ".order.kind", f"must be one of {sorted(_ORDERS)}, got {_short(kind)}")
            elif obj is not None and c.str_(obj, p + ".order.objective") is _BAD:
                pass
            else:
                order = Order(OrderKind(kind), obj)
    if _BAD in (uid, side, pos, facing, paradrop) or card is None:
        return None  # Already failed; a bad side id fails its side.
    return UnitSetup(uid, side, card, pos, geometry.rnd_facing(facing), order, quality, paradrop)


def _parse_objectives(c: _Checker, data: Any, w: float, h: float) -> list[Objective]:
    raw = c.list_(data, "objectives")
    if isinstance(data, _LISTS) and not raw:
        c.fail(
            "objectives",
            "give at least one side an objective: without one, both players correctly refuse "
            "to move",
        )
    out = []
    opt = {"kind", "point", "radius", "building", "points_per_turn", "points_at_end"}
    for i, o in enumerate(raw):
        p = f"objectives[{i}]"
        d = c.obj(o, p, {"id", "sides"}, opt)
        if d is None:
            continue
        before = len(c.problems)
        oid = c.str_(d.get("id"), p + ".id") if "id" in d else _BAD
        kind = d.get("kind", "hold")
        if kind not in ("hold", "raze"):
            c.fail(p + ".kind", f"must be 'hold' or 'raze', got {_short(kind)}")
            kind = "hold"
        sides = c.list_(d.get("sides"), p + ".sides") if "sides" in d else []
        if isinstance(d.get("sides"), _LISTS) and not sides:
            c.fail(p + ".sides", "must name at least one side")
        named: set[str] = set()  # a set, so that a long list is checked in linear time
        for j, s in enumerate(sides):
            if c.str_(s, f"{p}.sides[{j}]") is not _BAD:
                if s in named:
                    c.fail(f"{p}.sides[{j}]", f"names side {s!r} twice")
                named.add(s)
        per_turn = c.capped(
            c.int_(d.get("points_per_turn", 0), p + ".points_per_turn", 0),
            p + ".points_per_turn",
            0,
            MAX_POINTS,
        )
        at_end = c.capped(
            c.int_(d.get("points_at_end", 0), p + ".points_at_end", 0),
            p + ".points_at_end",
            0,
            MAX_POINTS,
        )
        if per_turn is not _BAD and at_end is not _BAD and per_turn + at_end == 0:
            c.fail(p, "awards no points: set points_per_turn or points_at_end")
        point, radius, building = None, 0.0, None
        if kind == "hold":
            if "building" in d:
                c.fail(p + ".building", "only raze objectives name a building")
            point = (
                c.point(d.get("point"), p + ".point", w, h)
                if "point" in d
                else c.fail(p + ".point", "required for a hold objective")
            )
            radius = c.positive(d.get("radius", 3), p + ".radius")
        else:
            for k in ("point", "radius"):
                if k in d:
                    c.fail(f"{p}.{k}", "a raze objective names a building, not ground")
            building = (
                c.str_(d.get("building"), p + ".building")
                if "building" in d
                else c.fail(p + ".building", "required for a raze objective")
            )
        if len(c.problems) == before and oid is not _BAD:  # (a missing id failed in c.obj)
            out.append(
                Objective(
                    oid,
                    ObjectiveKind(kind),
                    tuple(sides),
                    point,
                    radius,
                    building,
                    per_turn,
                    at_end,
                )
            )
    return out


def _cross_check(
    c: _Checker,
    terrain: list[TerrainPiece],
    buildings: list[BuildingSetup],
    sides: list[SideSetup],
    objectives: list[Objective],
) -> None:
    side_ids = [s.id for s in sides]
    if len(set(side_ids)) != len(side_ids):
        c.fail("sides[1].id", f"duplicate side id {side_ids[1]!r}")
    seen: dict[str, str] = {}
    for si, s in enumerate(sides):
        for ui, u in enumerate(s.units):
            _unique(c, seen, u.id, f"sides[{si}].units[{ui}].id")
    for bi, b in enumerate(buildings):
        _unique(c, seen, b.id, f"buildings[{bi}].id")
        if b.side is not None and b.side not in side_ids:
            c.fail(f"buildings[{bi}].side", f"unknown side {b.side!r}")
        for other in buildings[:bi]:
            if insides_meet(other.polygon, b.polygon):
                c.fail(
                    f"buildings[{bi}].polygon",
                    f"overlaps building {other.id!r}: a unit there would be inside both "
                    "(buildings may meet edge to edge, not overlap)",
                )
    pieces: dict[str, str] = {b.id: f"buildings[{i}].id" for i, b in enumerate(buildings)}
    for ti, t in enumerate(terrain):
        _unique(c, pieces, t.id, f"terrain[{ti}].id")
    obj_ids: dict[str, str] = {}
    owners = {b.id: b.side for b in buildings}
    for oi, o in enumerate(objectives):
        _unique(c, obj_ids, o.id, f"objectives[{oi}].id")
        for j, side_id in enumerate(o.sides):
            if side_id not in side_ids:
                c.fail(f"objectives[{oi}].sides[{j}]", f"unknown side {side_id!r}")
            elif o.building is not None and owners.get(o.building) == side_id:
                # A side never attacks its own building: it would score only if the enemy
                # razed it for it (E36).
                c.fail(
                    f"objectives[{oi}].sides[{j}]",
                    f"side {side_id!r} owns building {o.building!r} and never attacks it: a side "
                    "does not score for razing its own building",
                )
        if o.building is not None and o.building not in owners:
            c.fail(f"objectives[{oi}].building", f"unknown building {o.building!r}")
    joints = geometry.joints_by_piece(
        [(t.id, t.polygon) for t in terrain] + [(b.id, b.polygon) for b in buildings]
    )
    for si, s in enumerate(sides):
        for ui, u in enumerate(s.units):
            p = f"sides[{si}].units[{ui}]"
            if u.order.objective is not None and u.order.objective not in obj_ids:
                c.fail(p + ".order.objective", f"unknown objective {u.order.objective!r}")
            _check_deployment(c, p, u, terrain, buildings, joints)
            if s.zone is not None and not u.paradrop and not s.zone.contains(u.position):
                c.fail(p + ".position", f"outside the deployment zone of {s.name}")


def _unique(c: _Checker, seen: dict[str, str], ident: str, path: str) -> None:
    if ident in seen:
        c.fail(path, f"duplicate id {ident!r} (also at {seen[ident]})")
    else:
        seen[ident] = path


def _check_deployment(
    c: _Checker,
    p: str,
    u: UnitSetup,
    terrain: list[TerrainPiece],
    buildings: list[BuildingSetup],
    joints: dict[str, tuple[tuple[Point, Point], ...]],
) -> None:
    """A unit may not be deployed inside terrain or a building it could not move into, on its
    joint with another piece included (E34)."""
    kinds = {t.id: t.kind for t in terrain}
    footprints = [(b.id, b.polygon, b.card) for b in buildings]
    for barred in barred_at(u.card, u.position, terrain, footprints, joints):
        if barred in kinds:
            c.fail(p + ".position", f"deployed inside impassable {kinds[barred]} {barred!r}")
        else:
            c.fail(p + ".position", f"deployed inside building {barred!r}, which does not admit it")
