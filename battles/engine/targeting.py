"""Who may attack whom with what: every restriction on an attack, as one question.

``attack_problem`` returns why an attack is illegal, or ``None``. The engine asks it before
resolving any attack a commander orders, and commanders ask it (through their view) to choose.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import geometry
from .cards import CLOSE_COMBAT, Keyword, UnitCard, Weapon
from .events import AttackKind
from .state import BuildingState
from .tables import keep

if TYPE_CHECKING:
    from .battle import Battle
    from .geometry import Point, Polygon
    from .rulesets import Ruleset
    from .state import UnitState

CLOSE_RANGE = 1.0
"""Close combat reaches this far (Range 1)."""

STRUCTURE_POWER = 3
"""Only weapons of at least this Power can damage (and so target) a structure."""

SENSOR_RANGE = 6.0
"""A Sensor reveals a concealed unit within this distance."""

BESIDE = 0.001
"""How far beside the edge of a stretch of wall a string is tried to, in inches (the log's
precision): where the nearest wall is hidden, the nearest part seen lies at such an edge
(``building_aim``), found however narrow the gap it is seen through."""


@dataclass(frozen=True, slots=True)
class AttackProfile:
    """What an attack uses: its kind, the name in the log, Power, Range and the weapon line."""

    kind: AttackKind
    """Shoot, Melee or Ram."""
    name: str
    """Weapon name, ``Melee`` or ``Ram``."""
    power: int
    """Power of the attack."""
    range: float
    """Reach in inches."""
    weapon: Weapon | None
    """The weapon line when shooting."""


def attack_profile(card: UnitCard, weapon: str) -> AttackProfile | None:
    """The profile for ``weapon`` on this card (``CLOSE_COMBAT`` for Melee/Ramming)."""
    if weapon == CLOSE_COMBAT:
        if card.melee is not None:
            return AttackProfile(AttackKind.MELEE, "Melee", card.melee, CLOSE_RANGE, None)
        return AttackProfile(AttackKind.RAM, "Ram", card.size, CLOSE_RANGE, None)
    w = card.weapon(weapon)
    if w is None:
        return None
    return AttackProfile(AttackKind.SHOOT, w.name, w.power, w.range, w)


def no_weapon(unit: str, card: UnitCard, weapon: str) -> str:
    """The refusal of a weapon the card does not print, saying what it does print and how close
    combat is ordered: by ``CLOSE_COMBAT``, whatever the log calls it (Melee, Ram)."""
    names = ", ".join(repr(w.name) for w in card.weapons)
    has = f"its weapons: {names}" if names else "it prints no weapon"
    return (
        f"{unit} has no weapon {weapon!r} ({has}); close combat, logged as Melee or Ram, is "
        f"ordered with CLOSE_COMBAT ({CLOSE_COMBAT!r})"
    )


def cannot_ram_units(card: UnitCard, ruleset: Ruleset) -> bool:
    """Whether the card may not ram a unit (E31): under Combined Arms only weapons marked AA can
    attack an Aerial unit, and a ram is resolved in both directions, so a flier's ram would draw
    a blow back that may not strike it. It may still ram a building, which never strikes back."""
    return ruleset.aerial_only_aa and Keyword.AERIAL in card.keywords


def unit_profiles(b: Battle, unit: UnitState) -> dict[str, AttackProfile]:
    """Profile by name for each weapon on the card, then ``CLOSE_COMBAT``; a card never changes,
    so each unit's are worked out once for all the scenario's battles (``Battle.profiles``)."""
    found = b.profiles.get(unit.id)
    if found is None:
        names = [w.name for w in unit.card.weapons]
        names.append(CLOSE_COMBAT)
        found = {n: prof for n in names if (prof := attack_profile(unit.card, n)) is not None}
        b.profiles[unit.id] = found
    return found


def nearest_wall(b: Battle, bld: BuildingState, p: Point) -> Point:
    """The building's point nearest to ``p`` (``geometry.nearest_point``); footprints never move,
    so the scenario's tables keep them for all its battles."""
    return b.state.scenario.tables.nearest_wall(bld, p)


def attack_problem(
    b: Battle,
    attacker: UnitState,
    target_id: str,
    weapon: str,
    origin: Point | None = None,
    facing: float | None = None,
    spotted: bool = False,
) -> str | None:
    """Why ``attacker`` may not attack ``target_id`` with ``weapon``, or None.

    ``origin`` and ``facing`` ask the question for where the unit would stand and face;
    ``spotted`` asks it as if the target, concealed now, had been spotted by then (by a move
    before the attack): everything but its concealment.
    """
    if not attacker.active:
        return "the attacker has been removed"
    # The scenario's profiles read first, as ``unit_profiles`` would: asked of nearly every
    # attack considered, a call less each time.
    profiles = b.profiles.get(attacker.id) or unit_profiles(b, attacker)
    prof = profiles.get(weapon)
    if prof is None:
        return no_weapon(attacker.id, attacker.card, weapon)
    w = prof.weapon
    if w is not None and w.uses is not None and attacker.uses.get(w.name, 0) <= 0:
        return f"{w.name} has no uses left"
    pos = origin or attacker.position
    st = b.state
    bld = st.buildings.get(target_id)
    if bld is not None:
        return _building_problem(b, attacker, bld, prof, pos, facing)
    target = st.units.get(target_id)
    if target is None:
        return f"unknown target {target_id!r}"
    if not target.active:
        return f"{target_id} has been removed"
    if target.side == attacker.side:
        return f"{target_id} is on the same side"
    if w is not None and w.buildings_only:
        return f"{w.name} may attack buildings only"
    if w is not None and not (
        (w.min_size is None or target.card.size >= w.min_size)
        and (w.max_size is None or target.card.size <= w.max_size)
    ):
        return f"{w.name} may not attack Size {target.card.size}"
    if target.aerial and b.ruleset.aerial_only_aa and not (w is not None and w.aa):
        return "only weapons marked AA can attack an Aerial unit"
    if prof.kind is AttackKind.RAM and cannot_ram_units(attacker.card, b.ruleset):
        return "a flier cannot ram under Combined Arms: the blow back could not strike it"
    if math.dist(pos, target.position) > prof.range + 1e-9:  # (``geometry.distance``)
        return f"{target_id} is out of range ({prof.range:g})"
    inside = None if target.aerial else b.sight.building_at(target.position)
    if inside is not None and not _in_building(b, attacker, target.position, pos):
        return f"{target_id} is inside building {inside}: attack the building"
    if prof.kind is AttackKind.RAM and (walls := _rams_out_of(b, attacker, target, pos)):
        return f"{attacker.id} is inside {walls}: a ram's blow back could not strike it (E32)"
    same_piece = b.sight.in_one_piece(attacker, target, pos)
    if target.concealed and not same_piece and not spotted:
        return f"{target_id} is concealed"
    if not b.sight.sees(attacker, target, pos):
        return f"no line of sight to {target_id}"
    return _arc_problem(attacker, pos, target.position, facing)


def _building_problem(
    b: Battle,
    attacker: UnitState,
    bld: BuildingState,
    prof: AttackProfile,
    pos: Point,
    facing: float | None,
) -> str | None:
    if bld.collapsed:
        return f"{bld.id} has already collapsed"
    if bld.side == attacker.side:
        return f"{bld.id} belongs to the same side"
    w = prof.weapon
    if w is not None and w.size_limited:
        return f"{w.name} is restricted by Size; a building has none"
    if prof.power < STRUCTURE_POWER:
        return f"only Power {STRUCTURE_POWER}+ can damage a structure"
    # A flier over a building is not inside it (it attacks the building, at 0").
    if not attacker.aerial and b.sight.holds(bld.id, bld.polygon, pos):
        return f"{attacker.id} is inside {bld.id}"
    if geometry.distance(pos, nearest_wall(b, bld, pos)) > prof.range + 1e-9:
        return f"{bld.id} is out of range ({prof.range:g})"
    if building_aim(b, attacker, bld, pos, prof.range, facing) is not None:
        return None
    if Keyword.FIXED_MOUNT in attacker.card.keywords and (
        building_aim(b, attacker, bld, pos, prof.range, facing, arc=False) is not None
    ):
        return "the target is outside the front arc of a Fixed Mount"
    return f"no line of sight to {bld.id}"


AimKey = tuple[str, "Point", float, "float | None", bool]
"""All that ``building_aim`` depends on, the table aside: the building, where the attacker stands,
its reach, its facing when the arc limits it (None when not) and whether it flies."""


def building_aim(
    b: Battle,
    attacker: UnitState,
    bld: BuildingState,
    pos: Point,
    reach: float,
    facing: float | None = None,
    arc: bool = True,
) -> Point | None:
    """Where an attack from ``pos`` on the building goes, or None if it cannot be made.

    "Model's eye view — use a string": to any part of its walls. The tape goes to the nearest
    wall (E2), and the string too when that wall is seen (and, for a Fixed Mount, in its front
    arc); otherwise to the nearest point of the walls within ``reach`` that is
    (``_along_walls``, to ``BESIDE``). ``arc=False`` asks of sight alone.
    """
    facing = attacker.facing if facing is None else facing
    fixed = arc and Keyword.FIXED_MOUNT in attacker.card.keywords
    aerial = attacker.aerial
    # Only the table decides the rest: a unit standing still asks again each turn, and an attack
    # found legal is aimed again when it is made. Kept while the table stands as it does: over
    # the opening table, for every battle of the scenario.
    if b.aims_version != b.state.terrain_version:
        b.aims = {}
        b.aims_version = b.state.terrain_version
    aims = b.aims
    key: AimKey = (bld.id, pos, reach, facing if fixed else None, aerial)
    if key in aims:
        return aims[key]
    return keep(aims, key, _aim(b, bld, pos, reach, facing, fixed, aerial))


def _aim(
    b: Battle,
    bld: BuildingState,
    pos: Point,
    reach: float,
    facing: float,
    fixed: bool,
    aerial: bool,
) -> Point | None:
    tp = nearest_wall(b, bld, pos)
    # The arc first: it is the cheaper question.
    if (not fixed or geometry.in_arc(pos, facing, tp)) and (aerial or b.sight.line_clear(pos, tp)):
        return tp
    # Nearest first, the string tried only until a point is found (and only to points in the
    # arc): the points beyond the answer are never asked about.
    arc_edges = (facing - geometry.FRONT_ARC, facing + geometry.FRONT_ARC) if fixed else ()
    for q in _along_walls(bld, pos, reach, b.sight.outlines(), arc_edges):
        if (not fixed or geometry.in_arc(pos, facing, q)) and (
            aerial or b.sight.line_clear(pos, q)
        ):
            return q
    return None


def _along_walls(
    bld: BuildingState,
    pos: Point,
    reach: float,
    outlines: list[Polygon],
    arc_edges: tuple[float, ...] = (),
) -> list[Point]:
    """The points of the walls within ``reach`` of ``pos`` that the nearest part seen of them
    (in a Fixed Mount's arc, whose edges are the bearings ``arc_edges``) must be one of,
    nearest first (the earlier wall and point on a tie). A wall seen from behind is skipped: a
    string to it crosses the building itself.

    Along a wall, what is seen changes only where a string from ``pos`` grazes a corner of a
    sight-blocking piece (``outlines``), where a piece's edge crosses the wall, where the arc
    ends and where ``reach`` does. So the nearest point seen of a wall is one of its corners,
    the foot of the perpendicular from ``pos``, or within ``BESIDE`` of one of those edges, on
    either side.
    """
    limit = reach + 1e-9
    px, py = pos
    pts = bld.polygon.points
    ring = list(zip(pts, pts[1:] + pts[:1], strict=True))
    turning = sum(ax * by - bx * ay for (ax, ay), (bx, by) in ring)  # > 0: anticlockwise
    along = []
    for i, ((ax, ay), (bx, by)) in enumerate(ring):
        if ((bx - ax) * (py - ay) - (by - ay) * (px - ax)) * turning > 0:
            continue  # ``pos`` lies on the inner side of this wall's line.
        dx, dy = bx - ax, by - ay
        length = math.hypot(dx, dy)
        foot = ((px - ax) * dx + (py - ay) * dy) / (length * length)
        beside = BESIDE / length
        # A corner itself may be hidden where the wall beside it is not.
        tries = {0.0, beside, 1.0 - beside, 1.0, min(1.0, max(0.0, foot))}
        for t in _wall_edges((ax, ay), (bx, by), pos, reach, outlines, arc_edges):
            tries.update(u for u in (t - beside, t + beside) if 0.0 <= u <= 1.0)
        for t in tries:
            q = (ax + dx * t, ay + dy * t)
            d = geometry.distance(pos, q)
            if d <= limit:
                along.append((d, i, t, q))
    along.sort()
    return [q for _, _, _, q in along]


def _wall_edges(
    a: Point,
    b: Point,
    pos: Point,
    reach: float,
    outlines: list[Polygon],
    arc_edges: tuple[float, ...],
) -> list[float]:
    """Where, along the wall from ``a`` (0) to ``b`` (1), what ``pos`` sees of it may change:
    a string from ``pos`` past a corner of a piece meets it, a piece's edge crosses it, an edge
    of the arc (a bearing of ``arc_edges``) meets it, or ``reach`` ends on it. Pieces clear of
    the triangle ``pos``-``a``-``b`` change nothing."""
    (ax, ay), (bx, by), (px, py) = a, b, pos
    dx, dy = bx - ax, by - ay
    found = []
    rays = [(math.cos(math.radians(d)), math.sin(math.radians(d)), 0.0) for d in arc_edges]
    x0, x1 = min(ax, bx, px), max(ax, bx, px)
    y0, y1 = min(ay, by, py), max(ay, by, py)
    for poly in outlines:
        bx0, by0, bx1, by1 = poly.bbox
        if bx1 < x0 or bx0 > x1 or by1 < y0 or by0 > y1:
            continue
        # The string past each corner c, if c lies between pos and the wall.
        rays.extend((cx - px, cy - py, 1.0) for cx, cy in poly.points)
        # The piece's edges across the wall (and the wall's ends, spare).
        found.extend(poly._events(a, b))
    for rx, ry, beyond in rays:
        # pos + s (rx, ry) = a + t (b - a), the wall at s >= beyond.
        den = rx * dy - ry * dx
        if abs(den) > 1e-12:
            t = ((ax - px) * ry - (ay - py) * rx) / den
            s = ((ax - px) * dy - (ay - py) * dx) / den
            if 0.0 <= t <= 1.0 and s >= beyond:
                found.append(t)
    # Where reach ends: |a + t (b - a) - pos| = reach.
    qa = dx * dx + dy * dy
    qb = 2 * (dx * (ax - px) + dy * (ay - py))
    qc = (ax - px) ** 2 + (ay - py) ** 2 - reach * reach
    root = qb * qb - 4 * qa * qc
    if root >= 0:
        ends = ((-qb - math.sqrt(root)) / (2 * qa), (-qb + math.sqrt(root)) / (2 * qa))
        found.extend(t for t in ends if 0.0 <= t <= 1.0)
    return found


def _arc_problem(attacker: UnitState, pos: Point, tp: Point, facing: float | None) -> str | None:
    facing = attacker.facing if facing is None else facing
    if attacker.card.has(Keyword.FIXED_MOUNT) and not geometry.in_arc(pos, facing, tp):
        return "the target is outside the front arc of a Fixed Mount"
    return None


def legal_attacks(
    b: Battle,
    attacker: UnitState,
    targets: Iterable[str],
    origin: Point | None = None,
    facing: float | None = None,
) -> list[tuple[str, str]]:
    """Every (target, weapon) among ``targets`` for which ``attack_problem`` finds no problem.

    The same answer as asking ``attack_problem`` for each target and each of the card's weapons
    (then ``CLOSE_COMBAT``), in that order, but with everything about the target (range, line,
    concealment, the building it is in) worked out once rather than once per weapon.
    """
    if not attacker.active:
        return []
    card = attacker.card
    usable = [
        (name, prof)
        for name, prof in unit_profiles(b, attacker).items()
        if (w := prof.weapon) is None or w.uses is None or attacker.uses.get(w.name, 0) > 0
    ]
    if not usable:
        return []
    pos = origin or attacker.position
    facing = attacker.facing if facing is None else facing
    fixed = Keyword.FIXED_MOUNT in card.keywords
    aerial_attacker = attacker.aerial
    aa_only = b.ruleset.aerial_only_aa
    no_ram = cannot_ram_units(card, b.ruleset)
    st = b.state
    found: list[tuple[str, str]] = []
    for tid in targets:
        bld = st.buildings.get(tid)
        if bld is not None:
            if bld.collapsed or bld.side == attacker.side:
                continue
            if not aerial_attacker and b.sight.holds(bld.id, bld.polygon, pos):
                continue
            dist = geometry.distance(pos, nearest_wall(b, bld, pos))
            aims: dict[float, bool] = {}  # by reach: whether some part of it may be attacked
            for name, prof in usable:
                w = prof.weapon
                if w is not None and w.size_limited:
                    continue
                if prof.power < STRUCTURE_POWER or dist > prof.range + 1e-9:
                    continue
                clear = aims.get(prof.range)
                if clear is None:
                    aim = building_aim(b, attacker, bld, pos, prof.range, facing)
                    clear = aims[prof.range] = aim is not None
                if clear:
                    found.append((tid, name))
            continue
        target = st.units.get(tid)
        if target is None or not target.active or target.side == attacker.side:
            continue
        tcard = target.card
        aerial_target = target.aerial
        dist = geometry.distance(pos, target.position)
        clear = None
        for name, prof in usable:
            w = prof.weapon
            if w is not None and (
                w.buildings_only
                or (w.min_size is not None and tcard.size < w.min_size)
                or (w.max_size is not None and tcard.size > w.max_size)
            ):
                continue
            if aerial_target and aa_only and not (w is not None and w.aa):
                continue
            if no_ram and prof.kind is AttackKind.RAM:
                continue
            if dist > prof.range + 1e-9:
                continue
            if prof.kind is AttackKind.RAM and _rams_out_of(b, attacker, target, pos):
                continue
            if clear is None:
                clear = _unit_in_view(
                    b, attacker, target, pos, facing, fixed, aerial_attacker or aerial_target
                )
            if clear:
                found.append((tid, name))
    return found


def _unit_in_view(
    b: Battle,
    attacker: UnitState,
    target: UnitState,
    pos: Point,
    facing: float,
    fixed: bool,
    aerial: bool,
) -> bool:
    """The target-side conditions of ``attack_problem``: not walled in, seen, and in arc.

    ``aerial``: either unit is Aerial, so they are never in one piece."""
    sight = b.sight
    if not target.aerial:
        inside = sight.building_at(target.position)
        if inside is not None and not _in_building(b, attacker, target.position, pos):
            return False
    if target.concealed and (aerial or not sight.same_piece(pos, target.position)):
        return False
    if not sight.sees(attacker, target, pos):
        return False
    return not fixed or geometry.in_arc(pos, facing, target.position)


def _rams_out_of(b: Battle, attacker: UnitState, target: UnitState, pos: Point) -> str | None:
    """The building a ram from ``pos`` at ``target`` would go out of, if any (a flier is never
    inside one). "Attack the building, not the people inside": the blow back would strike the
    people inside, so there is no such ram (E32)."""
    walls = None if attacker.aerial else b.sight.building_at(pos)
    if walls is None or target.aerial:
        return walls
    return None if _in_building(b, attacker, target.position, pos) else walls


def _in_building(b: Battle, attacker: UnitState, target_at: Point, pos: Point) -> bool:
    """Whether the attacker, standing at ``pos``, is inside a building holding ``target_at``
    too: only then may it attack the people in it. On the wall two buildings share, the people
    are in both (E34), and an occupant of either may. Sharing any other piece with them (a hill
    or a rubble field the building stands on) does not let it past the walls; a flier is never
    inside (it flies over)."""
    if attacker.aerial:
        return False
    return not b.sight.buildings_at(pos).isdisjoint(b.sight.buildings_at(target_at))


def sensor_problem(
    b: Battle, unit: UnitState, target_id: str, origin: Point | None = None
) -> str | None:
    """Why ``unit`` may not use its Sensor on ``target_id``, or None. ``origin``: where a move
    before it in the activation ends, the target still concealed now; a move that ends with a
    line to it spots it (a target in the open), and a unit seen is no Sensor's to reveal."""
    if not unit.card.has(Keyword.SENSOR):
        return f"{unit.id} has no Sensor"
    target = b.state.units.get(target_id)
    if target is None or not target.active:
        return f"no unit {target_id!r} to reveal"
    if target.side == unit.side:
        return f"{target_id} is on the same side"
    if not target.concealed:
        return f"{target_id} is not concealed"
    if geometry.distance(origin or unit.position, target.position) > SENSOR_RANGE + 1e-9:
        return f'{target_id} is not within {SENSOR_RANGE:g}"'
    sight = b.sight
    if (
        origin is not None
        and not sight.pieces_at(target.position)
        and sight.sees(unit, target, origin)
    ):
        return f"{target_id} is seen from where the move ends: it is not concealed by then"
    return None
