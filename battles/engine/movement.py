"""Movement: real paths around what a unit may not enter, never longer than Move.

A unit's obstacles are the movement-blocking pieces its card does not let it enter and the
standing buildings that do not admit it (unless it has Breaching). Aerial units have none.
Amphibious units cross water at half cost ("movement doubled in water"), along its joints with
other pieces as well: a joint is inside both (E34), so it is in the water.

Entering a hazard asks for a terrain roll, 1d6 ≤ current Skill; a failure stops the unit at
the edge (a hundredth of an inch short of it) and ends its activation. Sure-Footed skips the
roll except for walls. Entering a building through Breaching asks for a Skill roll or 1 Hit,
once the unit reaches the wall: a unit a hazard stops short of it pays nothing.
One roll per piece per move: a unit that starts inside a piece rolls only if it leaves and
comes back in.

Where two pieces meet edge to edge, the joint between them is inside both (E34): a path along
it enters each (a roll for a hazard, a refusal for an obstacle), as a string along it is blocked
(E1). The outer edge of a single piece is still outside it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING

from . import events as ev
from . import geometry, paths
from .cards import Keyword
from .combat import damage
from .events import RollPurpose
from .pathfinding import PathFinder
from .tables import FinderKey, keep

if TYPE_CHECKING:
    from .battle import Battle
    from .cards import UnitCard
    from .geometry import CostJoint, CostRegion, Point, Polygon
    from .state import UnitState

GRAZE = 0.002
"""How far a path, all its legs together, may run inside an obstacle: positions are logged to a
thousandth of an inch."""

MARGIN = 0.01
"""Planned paths stop this much short of the budget, so rounding never overspends Move."""

EDGE_GAP = 0.01
"""A unit stopped by a failed terrain roll stands this far short of the edge, outside."""

WATER_RATE = 0.5
"""Movement cost per inch of water for Amphibious units (movement doubled)."""


PassageKey = tuple[tuple[str, ...], bool, bool, int]
"""What a passage depends on, so that two units with the same key move over the same table: the
pieces and buildings it may not enter, whether water costs it double (Amphibious), whether it
flies over everything (Aerial), and the terrain version."""


PathCheck = tuple[str, int, tuple[tuple[float, ...], ...]]
"""A path checked for a unit over the table as it stands (``path_problem``): the unit, the
terrain version and the path."""

Entry = tuple[float, str, "Polygon"]
"""A roll a move asks for (``_entries``): the distance along the path it is made at, "hazard"
or "breach", and the piece's or building's footprint."""

EntriesKey = tuple[int, tuple["Point", ...]]
"""The rolls a move asks for over the opening table: the unit's card number and the path."""

PlanAsked = tuple["PassageKey", "Point", "Point", float]
"""A move planned (``plan_path``): the passage, start, goal and budget; the answer depends on
nothing else."""


@dataclass(frozen=True, slots=True)
class Passage:
    """What the table looks like to one unit's movement."""

    obstacles: tuple[Polygon, ...]
    """Footprints it may not enter."""
    cost_regions: tuple[CostRegion, ...]
    """Regions with a different cost per inch (water for Amphibious units)."""
    key: PassageKey
    """The same key means the same passage."""
    joints: tuple[tuple[int, Point, Point], ...] = ()
    """(obstacle index, c, d): a stretch c-d where obstacle meets another piece edge to edge,
    which is inside it (E34)."""
    cost_joints: tuple[CostJoint, ...] = ()
    """Where a cost region meets another piece edge to edge: inside the region too (E34)."""


def passage(b: Battle, unit: UnitState) -> Passage:
    """The unit's obstacles and cost regions as the table stands now."""
    # Over the opening table a unit's passage is the same in every battle of the scenario.
    version = b.state.terrain_version
    passages = b.state.scenario.tables.opening_passages if version == 0 else b.passages
    key = (unit.id, version)
    found = passages.get(key)
    if found is None:
        found = passages[key] = _passage(b, unit)
    return found


def joints(b: Battle) -> dict[str, tuple[tuple[Point, Point], ...]]:
    """Each terrain piece's and standing building's joints (``Sight.joints``)."""
    return b.sight.joints()


def _passage(b: Battle, unit: UnitState) -> Passage:
    card = unit.card
    if unit.aerial:
        return Passage((), (), ((), False, True, b.state.terrain_version))
    blocked: list[str] = []
    polys: list[Polygon] = []
    regions: list[CostRegion] = []
    found = joints(b)
    # A joint of two water pieces is listed by both: once is enough.
    wet: dict[CostJoint, None] = {}
    amphibious = card.has(Keyword.AMPHIBIOUS)
    for t in b.state.terrain:
        if not card.may_enter(t.props):
            blocked.append(t.id)
            polys.append(t.polygon)
        elif amphibious and t.props.water:
            regions.append((t.polygon, WATER_RATE))
            wet.update(((c, d, WATER_RATE), None) for c, d in found.get(t.id, ()))
    breaching = card.has(Keyword.BREACHING)
    for bs in b.state.buildings.values():
        if not bs.collapsed and not breaching and not bs.card.admits_size(card.size):
            blocked.append(bs.id)
            polys.append(bs.polygon)
    key: PassageKey = (tuple(blocked), amphibious, False, b.state.terrain_version)
    edges = tuple((i, c, d) for i, pid in enumerate(blocked) for c, d in found.get(pid, ()))
    return Passage(tuple(polys), tuple(regions), key, edges, tuple(wet))


def finder(b: Battle, p: Passage) -> PathFinder:
    """The PathFinder for this passage (one per distinct set of obstacles)."""
    pf = b.finders.get(p.key)
    if pf is None:
        # The scenario's finders serve every battle over its table: one visibility graph each.
        scenario = b.state.scenario
        shared = scenario.tables.finders
        seams = tuple((c, d) for _, c, d in p.joints)
        key = FinderKey(p.obstacles, p.cost_regions, seams, p.cost_joints)
        pf = shared.get(key)
        if pf is None:
            pf = shared[key] = PathFinder(
                p.obstacles, scenario.bounds, p.cost_regions, seams, p.cost_joints
            )
        b.finders[p.key] = pf
    return pf


def path_problem(
    b: Battle, unit: UnitState, path: list[Point], budget: float, asked: list[Point] | None = None
) -> tuple[str | None, float]:
    """Why ``path`` (starting where the unit stands) is not a legal move, and its cost.

    ``asked``: the path as the commander gave it, before its waypoints were rounded to the
    log's thousandths of an inch (E42). The unit goes along ``path``, but the Move limits
    ``asked``: rounding may lengthen a path of exactly the Move left by a hair, and must not
    refuse it. Such a move costs the Move left."""
    # A planned path is checked again when the commander orders it; only the budget differs.
    # Over the opening table the answers are the scenario's: its battles weigh the same moves.
    version = b.state.terrain_version
    checks = b.state.scenario.tables.opening_path_checks if version == 0 else b.path_checks
    key: PathCheck = (unit.id, version, tuple(map(tuple, path)))
    found = checks.get(key)
    if found is None:
        found = keep(checks, key, _path_problem(b, unit, path))
    problem, cost = found
    if problem is None and cost > budget + 1e-6:
        if asked is not None and asked != path:
            p = passage(b, unit)
            if paths.path_cost(asked, p.cost_regions, p.cost_joints) <= budget + 1e-6:
                return None, budget
        costs = geometry.inches_shown(cost, math.ceil)
        left = geometry.inches_shown(budget, math.floor)
        return f'the path costs {costs}", more than the {left}" left', cost
    return problem, cost


def _path_problem(
    b: Battle, unit: UnitState, path: list[Point], gone: frozenset[str] = frozenset()
) -> tuple[str | None, float]:
    """Why ``path`` is not a legal move, whatever its cost, and its cost; ``gone``: obstacles
    (by id) to leave out, as a building about to fall (``battle._may_open``)."""
    w, h = b.state.scenario.width, b.state.scenario.height
    for x, y in path:
        if not (math.isfinite(x) and math.isfinite(y)) or not (0 <= x <= w and 0 <= y <= h):
            return f"({x}, {y}) is off the table", 0.0
    p = passage(b, unit)
    kept = [pid not in gone for pid in p.key[0]]  # the key names the obstacles, in order
    # The graze is for the whole path, not each leg: waypoints a hair apart must not add up to a
    # walk through the piece.
    inside = [0.0] * len(p.obstacles)
    for a, c in pairwise(path):
        for i, poly in enumerate(p.obstacles):
            if kept[i] and poly.crossed_by(a, c):
                inside[i] += poly.length_inside(a, c)
                if inside[i] > GRAZE:
                    return f"the path crosses terrain {unit.id} may not enter", 0.0
        # A joint with another piece is inside the obstacle too (E34).
        for i, d, e in p.joints:
            span = geometry.along_span(a, c, d, e) if kept[i] else None
            if span is not None:
                inside[i] += (span[1] - span[0]) * math.dist(a, c)
                if inside[i] > GRAZE:
                    return f"the path crosses terrain {unit.id} may not enter", 0.0
    # On a joint with another piece it ends inside the obstacle too (E34).
    end = path[-1]
    if any(
        k and poly.contains_strictly(end) for k, poly in zip(kept, p.obstacles, strict=True)
    ) or any(kept[i] and geometry.on_joint(end, ((d, e),)) for i, d, e in p.joints):
        return f"the path ends inside terrain {unit.id} may not enter", 0.0
    return None, paths.path_cost(path, p.cost_regions, p.cost_joints)


def problem_once_gone(
    b: Battle, unit: UnitState, path: list[Point], gone: frozenset[str]
) -> str | None:
    """Why ``path`` would still be no legal move, its cost aside, were the obstacles ``gone``
    (by id) not there: what a building's fall cannot open."""
    return _path_problem(b, unit, path, gone)[0]


PLANS_KEPT = 4096
"""Planned moves a path finder keeps before it forgets them all, rather than grow forever."""


def plan_path(
    b: Battle, unit: UnitState, goal: Point, budget: float, start: Point | None = None
) -> list[Point] | None:
    """The legal path toward ``goal`` that the unit can afford, rounded as the log keeps it.

    Returns the path including its start, or None when the goal cannot be reached at all.
    """
    start = start or unit.position
    p = passage(b, unit)
    # The answer depends only on the passage and these three: a unit that stood still, or a
    # move weighed again, asks the same question.
    key: PlanAsked = (p.key, start, goal, budget)
    if key in b.planned:
        found = b.planned[key]
        return None if found is None else list(found)
    # Nor does it depend on the battle beyond the table, which the finder stands for: battles
    # over the same table, whose units start where they did, plan the same first moves.
    plans = finder(b, p).plans
    asked = (start, goal, budget)
    if asked in plans:
        found = plans[asked]
    else:
        path = _plan_path(b, unit, p, start, goal, budget)
        found = None if path is None else tuple(path)
        if len(plans) >= PLANS_KEPT:
            plans.clear()
        plans[asked] = found
    b.planned[key] = found
    return None if found is None else list(found)


def _plan_path(
    b: Battle, unit: UnitState, p: Passage, start: Point, goal: Point, budget: float
) -> list[Point] | None:
    full = finder(b, p).shortest_path(start, goal)
    if full is None:
        return None
    limit = max(0.0, budget - MARGIN)
    for _ in range(5):
        path = paths.truncate_path_by_cost(full, limit, p.cost_regions, p.cost_joints)
        path = [geometry.rnd_point(q) for q in path] or [geometry.rnd_point(start)]
        path[0] = start
        path[-1] = _outside(path[-1], p.obstacles)
        if path_problem(b, unit, path, budget)[0] is None:
            return path
        limit = max(0.0, limit - MARGIN)
    return [start]


def _outside(q: Point, obstacles: tuple[Polygon, ...]) -> Point:
    """A rounded point next to ``q`` that lies in no obstacle (rounding can nudge one inward)."""
    if not any(poly.contains_strictly(q) for poly in obstacles):
        return q
    step = 10.0**-geometry.PRECISION
    for dx in (-step, 0.0, step):
        for dy in (-step, 0.0, step):
            c = geometry.rnd_point((q[0] + dx, q[1] + dy))
            if not any(poly.contains_strictly(c) for poly in obstacles):
                return c
    return q


def execute_move(
    b: Battle, unit: UnitState, path: list[Point], cost: float, facing: float | None
) -> bool:
    """Walk a validated path, rolling for hazards and breaches; False if the unit was stopped."""
    checks = _entries(b, unit, path)
    end_at: float | None = None
    halted: Polygon | None = None
    breached = 0
    for dist, kind, piece in checks:
        if kind == "hazard":
            if not b.dice.check(unit.id, RollPurpose.TERRAIN, unit.skill):
                end_at, halted = max(0.0, dist - EDGE_GAP), piece
                break
        elif not b.dice.check(unit.id, RollPurpose.BREACHING, unit.skill):
            breached += 1
            if breached >= unit.hits:
                end_at = dist  # The Hit that removes it lands at the breach.
                break
    travelled = path
    if end_at is not None:
        p = passage(b, unit)
        travelled = [geometry.rnd_point(q) for q in paths.truncate_path(path, end_at)] or [path[0]]
        if halted is not None:
            # Met at a shallow angle, the piece's edge lies far nearer than EDGE_GAP to the stop,
            # and rounding can carry the unit over it: it stands outside (E12).
            travelled[-1] = _outside(travelled[-1], (halted, *p.obstacles))
        cost = paths.path_cost(travelled, p.cost_regions, p.cost_joints)
    # A unit stopped short never makes the turn it planned at the end (turning is movement).
    new_facing = facing_after(travelled, facing if halted is None else None, unit.facing)
    b.emit(ev.Move(unit.id, tuple(travelled), geometry.rnd(cost), new_facing, halted is not None))
    for _ in range(breached):
        if unit.active:
            damage(b, unit, None)
    return halted is None and unit.active


def facing_after(path: list[Point], named: float | None, facing: float) -> float:
    """The facing after walking ``path`` (its start first) from ``facing``: the one the unit
    names, or else the way its last leg with length went (E16), as the log has it: a waypoint
    repeated at the end is no leg and no direction."""
    if named is None:
        # The last leg first. A loop, not ``next`` over a generator: one left unfinished is
        # closed by raising GeneratorExit into it, dearer than the search.
        for i in range(len(path) - 1, 0, -1):
            a, c = path[i - 1], path[i]
            if a != c:
                named = geometry.bearing(a, c)
                break
    return facing if named is None else geometry.rnd_facing(named)


def _entries(b: Battle, unit: UnitState, path: list[Point]) -> tuple[Entry, ...]:
    """(distance along the path, "hazard" | "breach", the piece or building's footprint) for
    every roll the path asks for."""
    card = unit.card
    if unit.aerial or len(path) < 2:
        return ()
    if b.state.terrain_version:
        return _rolls(b, card, path)
    # Over the opening table they depend on the card and the path alone, and units that start
    # where they did make the same moves in many battles: the scenario's tables keep them.
    tables = b.state.scenario.tables
    key = (tables.card_no[unit.id], tuple(path))
    found = tables.opening_entries.get(key)
    if found is None:
        found = keep(tables.opening_entries, key, _rolls(b, card, path))
    return found


def _rolls(b: Battle, card: UnitCard, path: list[Point]) -> tuple[Entry, ...]:
    found: list[Entry] = []
    sure = card.has(Keyword.SURE_FOOTED)
    around = paths.box(path)
    # A path along a joint between two pieces enters both (E34).
    edges = joints(b)
    for t in b.state.terrain:
        if t.props.hazard and (t.props.wall or not sure):
            if not paths.boxes_meet(around, t.polygon.bbox):
                continue  # never entered
            hit = paths.first_entry(path, t.polygon, from_outside=True, joints=edges.get(t.id, ()))
            if hit is not None:
                found.append((hit[2], "hazard", t.polygon))
    if card.has(Keyword.BREACHING):
        for bs in b.state.buildings.values():
            if not bs.collapsed and not bs.card.admits_size(card.size):
                hit = paths.first_entry(
                    path, bs.polygon, from_outside=True, joints=edges.get(bs.id, ())
                )
                if hit is not None:
                    found.append((hit[2], "breach", bs.polygon))
    found.sort(key=_decided_at)
    return tuple(found)


def _decided_at(entry: Entry) -> tuple[float, int]:
    """Where along the path a roll settles whether the unit goes on.

    A failed hazard roll leaves the unit ``EDGE_GAP`` short of the hazard, so a hazard that
    begins at a building's wall (or within ``EDGE_GAP`` past it) is rolled first: a unit it stops
    never reaches the wall and owes no Breaching roll for a building it did not enter.
    """
    dist, kind, _ = entry
    if kind == "hazard":
        return dist - EDGE_GAP, 0
    return dist, 1
