"""Standing Orders as goals: where each unit wants to be, and how much the turn limit presses.

- **Advance** (to an objective): get within it — for a raze objective, within reach of the
  building with a weapon that can damage it — before the turn limit. The press is counted in
  turns: distance over Move against the turns left. Points scored every turn press always;
  points only at the end press when the slack runs out, leaving time to fight first.
- **Screen**: stand between the objective and the enemy, a little in front of it.
- **Attack**: close to weapon range of the enemy the unit can hurt most; seeing none, make for
  the contested ground. A unit in range of it but without a line to it, with nothing else to
  shoot, makes for the nearest place in range that has one (within two moves), rather than
  stand all battle where it cannot see its target.
- **Hold**: stay put (turning in place is allowed: it is the unit's place, not its facing).
- **No Order**: Raw and Green units hold in place; better units use their judgement — advance
  on the nearest ground their side scores, or attack where it scores none.

Standing on the ground is worth something of its own (``presence``): an objective is held by a
side with a unit inside and no enemy inside, so the first unit there counts most, and ground the
enemy scores is worth denying. Choosing who acts reads how hard a unit's order presses
(``press_of``), kept for the turn.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import geometry
from ..cards import barred_at
from ..geometry import nearest_point
from ..scenario import Objective, ObjectiveKind, OrderKind, Quality
from ..targeting import STRUCTURE_POWER
from .attacks import reach_here
from .board import GRID
from .odds import harm_by_reach
from .threat import can_hurt

if TYPE_CHECKING:
    from ..geometry import Point
    from ..tables import ScenarioTables
    from .board import Board, Piece

ON_ORDERS_ONLY = Quality.GREEN.step
"""Units of this quality step or lower hold in place without an Order (BUCS: Raw, Green)."""

ATTACK_PRESS = 0.4
"""Value of a turn's progress toward the enemy for an Attack order."""

SCREEN_PRESS = 0.8
"""Value of a turn's progress toward the screening position."""

PRESENCE = 0.5
"""Share of an objective's remaining points credited to the unit standing on it."""

DENY = 0.5
"""Ground only the enemy scores is worth this share of its points to stand on (denial)."""

FIRING_SPOT = 0.01
"""Close enough to the place a unit on Attack makes for to get a line to its target: the
place itself (the log keeps positions to the thousandth)."""

SCREEN_AHEAD = 1.5
"""How far in front of the objective's centre a screen stands, as a share of its radius."""


@dataclass(frozen=True, slots=True)
class Goal:
    """Where a unit wants to be."""

    point: Point
    """Where to go."""
    radius: float
    """Close enough: within this distance of ``point``."""
    press: float
    """Points per turn of distance still to cover (how much the order presses)."""
    objective: Objective | None
    """The objective it serves, if any."""
    target: str | None = None
    """The enemy it is closing on (Attack), if any."""


def order_kind(unit: Piece, board: Board) -> OrderKind:
    """The order the unit acts on, after the quality rule for units without an Order (an own
    unit's order never changes, nor do the objectives: worked out once)."""
    if unit.order is None:
        unit.order = _order_kind(unit, board)
    return unit.order


def _order_kind(unit: Piece, board: Board) -> OrderKind:
    order = unit.info.order
    if order is None:
        return OrderKind.HOLD
    if order.given:
        return order.kind
    if unit.info.quality.step <= ON_ORDERS_ONLY:
        return OrderKind.HOLD  # Raw and Green units need an Order to act on their own.
    scored = [o for o in board.objectives if board.side in o.sides]
    return OrderKind.ADVANCE if scored else OrderKind.ATTACK


def goal_for(unit: Piece, board: Board) -> Goal | None:
    """The unit's goal this activation, or None for units that stay put.

    Kept for the decision: choosing who acts and planning its activation both ask, and the
    answer depends only on what the decision sees.
    """
    kept = unit.goal
    if kept is not None and kept[0] == board.decision:
        return kept[1]
    goal = _goal_for(unit, board)
    unit.goal = (board.decision, goal)
    return goal


def _goal_for(unit: Piece, board: Board) -> Goal | None:
    kind = order_kind(unit, board)
    if kind is OrderKind.HOLD or unit.move <= 0:
        return None
    if kind is OrderKind.ATTACK:
        return _attack_goal(unit, board)
    obj = _objective(unit, board)
    if obj is None:
        return _attack_goal(unit, board)
    if kind is OrderKind.SCREEN:
        return _screen_goal(unit, board, obj)
    return _advance_goal(unit, board, obj)


def turns_needed(distance: float, radius: float, move: float) -> float:
    """Activations of full movement to get within ``radius``."""
    return max(0.0, distance - radius) / move if move > 0 else float("inf")


def _objective(unit: Piece, board: Board) -> Objective | None:
    order = unit.info.order
    if order is not None and order.objective is not None:
        for o in board.objectives:
            if o.id == order.objective:
                return o
    best: tuple[float, Objective] | None = None
    for o in board.objectives:
        if board.side not in o.sides:
            continue
        d = geometry.distance(unit.position, _centre(board, o))
        if best is None or d < best[0]:
            best = (d, o)
    return None if best is None else best[1]


def _centre(board: Board, obj: Objective) -> Point:
    if obj.point is not None:
        return obj.point
    for b in board.all_buildings:
        if b.id == obj.building:
            return b.polygon.centroid
    return (0.0, 0.0)


def _press(board: Board, obj: Objective, distance: float, radius: float, move: float) -> float:
    """Count the turns: per-turn points always press; end points press as the slack runs out."""
    ours = board.side in obj.sides
    if ours and obj.points_per_turn:
        return float(obj.points_per_turn)
    slack = board.turns_left - turns_needed(distance, radius, move)
    if slack <= 1.0:
        return 3.0
    if slack <= 2.0:
        return 1.2
    return 0.35


def _advance_goal(unit: Piece, board: Board, obj: Objective) -> Goal | None:
    if obj.kind is ObjectiveKind.RAZE:
        b = next((b for b in board.buildings if b.id == obj.building), None)
        if b is None:
            return _attack_goal(unit, board)  # Razed already: back to the fight.
        tables = board.tables
        reach = max(
            (
                s.range
                for s in tables.card_shots(unit.no, unit.skill, tables.card_no[b.id])
                if s.power >= STRUCTURE_POWER
            ),
            default=0.0,
        )
        point = nearest_point(b.polygon, unit.position)
        radius = max(reach - 0.3, 0.5) if reach else 3.0
    else:
        assert obj.point is not None
        point, radius = obj.point, obj.radius * 0.7
    d = geometry.distance(unit.position, point)
    return Goal(point, radius, _press(board, obj, d, radius, unit.move), obj)


def _screen_goal(unit: Piece, board: Board, obj: Objective) -> Goal:
    centre = _centre(board, obj)
    threat = _enemy_centre(board)
    if threat is None:
        return Goal(centre, obj.radius, SCREEN_PRESS, obj)
    d = geometry.distance(centre, threat)
    if d < 1e-6:
        return Goal(centre, obj.radius, SCREEN_PRESS, obj)
    # In front of the objective's centre, on the line to the enemy, but inside the ground: a
    # screen standing outside it does not stop the enemy holding it.
    ahead = min(obj.radius * SCREEN_AHEAD, d / 2.0)
    point = (
        centre[0] + (threat[0] - centre[0]) / d * ahead,
        centre[1] + (threat[1] - centre[1]) / d * ahead,
    )
    return Goal(_on_table(board, point), 1.0, SCREEN_PRESS, obj)


def _attack_goal(unit: Piece, board: Board) -> Goal | None:
    best: tuple[float, Piece, float] | None = None
    for e in board.foes:
        follow = e.sheltered and can_follow_in(board, unit, e)
        if not follow and not can_hurt(board, unit, e):
            continue  # Only close on what it can actually hurt.
        reaches = harm_by_reach(board.tables, unit, e)
        if not reaches:
            continue
        reach, h = reaches[0]  # The longest reach, and the best harm from there.
        if follow:
            reach = 0.9  # In among them: only those inside the building see each other.
        d = geometry.distance(unit.position, e.position)
        score = e.size * h / (1.0 + max(0.0, d - reach) / max(unit.move, 1.0))
        if best is None or score > best[0]:
            best = (score, e, reach)
    if best is not None:
        _, e, reach = best
        radius = max(reach * 0.9, 0.8)
        if (
            geometry.distance(unit.position, e.position) <= radius
            and not _line_to(board, unit, e)
            and reach_here(board, unit).best(board, unit) is None
        ):
            # In range but out of sight of it: make for the nearest place that has a line.
            spot = _firing_spot(board, unit, e, radius)
            if spot is not None:
                return Goal(spot, FIRING_SPOT, ATTACK_PRESS, None, e.id)
        return Goal(e.position, radius, ATTACK_PRESS, None, e.id)
    # Nothing to shoot at: make for the ground the enemy wants, where it will come.
    contested = [o for o in board.objectives if o.point is not None]
    if not contested:
        return None
    o = min(contested, key=lambda o: geometry.distance(unit.position, o.point))  # type: ignore[arg-type]
    return Goal(o.point, o.radius, ATTACK_PRESS, o)  # type: ignore[arg-type]


def _line_to(board: Board, unit: Piece, enemy: Piece) -> bool:
    """Whether the unit has a line to the enemy where both stand. A flier needs none, nor does a
    shot at one; one inside a building is attacked only from inside it (``can_follow_in``)."""
    if unit.aerial or enemy.aerial or enemy.inside is not None:
        return True
    return board.view.line_clear(unit.position, enemy.position)


SpotKey = tuple[int, int, "Point", float]
"""What a firing spot is kept for, while no building falls (``Board.spots``): the unit's card
(its Move and where it may stand), the square it stands in, where the enemy stands, and the
range it must be within."""


def _firing_spot(board: Board, unit: Piece, enemy: Piece, radius: float) -> Point | None:
    """The centre of the grid square nearest the unit's, within two moves of it and ``radius``
    of the enemy, that has a line to the enemy and that the unit may stand in; None if no
    square does. Squares are tried nearest first, and most such places are a square or two
    away; the answer is kept while no building falls."""
    key: SpotKey = (unit.no, unit.square, enemy.position, radius)
    spots = board.spots
    if key in spots:
        return spots[key]
    found = spots[key] = _nearest_spot(board, unit, enemy, radius)
    return found


def _nearest_spot(board: Board, unit: Piece, enemy: Piece, radius: float) -> Point | None:
    ex, ey = enemy.position
    width, height = board.table
    columns, rows = int(width // GRID), int(height // GRID)
    x, y = unit.position
    column, row = int(x // GRID), int(y // GRID)
    target = enemy.position
    # Where the unit may stand, as it might be deployed there (``cards.barred_at``).
    standing = [(b.id, b.polygon, b.card) for b in board.buildings]
    joints = board.view.joints()
    for dx, dy in _offsets(board.tables, int(2.0 * unit.stride / GRID)):
        c, r = column + dx, row + dy
        if not (0 <= c < columns and 0 <= r < rows):
            continue
        p = ((c + 0.5) * GRID, (r + 0.5) * GRID)
        if math.hypot(p[0] - ex, p[1] - ey) > radius:
            continue
        if board.view.line_clear(p, target) and not barred_at(
            unit.card, p, board.view.terrain, standing, joints
        ):
            return p
    return None


def _offsets(tables: ScenarioTables, squares: int) -> tuple[tuple[int, int], ...]:
    """The (column, row) offsets within ``squares`` squares of a square, nearest first (ties in
    a fixed order): the same for every unit of a Move, kept in the scenario's tables."""
    found = tables.spot_offsets.get(squares)
    if found is None:
        span = range(-squares, squares + 1)
        reach = squares * squares
        near = sorted((dx * dx + dy * dy, dx, dy) for dx in span for dy in span)
        found = tables.spot_offsets[squares] = tuple((dx, dy) for d, dx, dy in near if d <= reach)
    return found


def can_follow_in(board: Board, unit: Piece, enemy: Piece) -> bool:
    """Whether the unit could go into the building the enemy shelters in (it admits the unit, or
    the unit has Breaching) and fight it there, where they see each other."""
    inside = enemy.inside
    if inside is None or unit.aerial:
        return False
    b = next(b for b in board.buildings if b.id == inside)
    return b.card.admits_size(unit.size) or unit.breaching


def _enemy_centre(board: Board) -> Point | None:
    spots = [e.position for e in board.foes]
    if not spots:
        spots = [e.position for e in board.lost]
    if not spots:
        return None
    return (sum(p[0] for p in spots) / len(spots), sum(p[1] for p in spots) / len(spots))


def _on_table(board: Board, p: Point) -> Point:
    width, height = board.table
    return (min(max(p[0], 0.1), width - 0.1), min(max(p[1], 0.1), height - 0.1))


def press_of(board: Board, u: Piece) -> float:
    """How hard the unit's order presses it to move, to choose who acts first.

    Kept for the turn while the unit stands as it did: the goal behind it moves with the
    enemies, but only a little within a turn, and working it out for every ready unit at every
    decision would cost as much as planning the activation.
    """
    kept = u.press
    if kept is not None and kept[0] is u.info:
        return kept[1]
    goal = goal_for(u, board)
    press = 0.0
    if goal is not None and geometry.distance(u.position, goal.point) > goal.radius:
        press = goal.press
    u.press = (u.info, press)
    return press


def presence(board: Board, u: Piece, p: Point, reach: float = 0.0) -> float:
    """What standing at ``p`` adds to holding ground: objectives held by being there (with
    ``reach``, the most standing anywhere within that distance of ``p`` could add).

    An objective is held by a side with a unit inside and no enemy inside, so the first unit
    there counts most; ground the enemy scores is worth denying as much as ground we score.
    """
    value = 0.0
    for point, radius, share in _ground(board, u):
        if math.dist(p, point) - reach <= radius:
            value += share
    return value


def _ground(board: Board, u: Piece) -> list[tuple[Point, float, float]]:
    """(point, radius, this unit's share of its worth) for each objective on the ground, in
    objective order. None of it depends on where the unit would stand, and ``presence`` asks
    for every place weighed: worked out once a decision per unit."""
    kept = u.ground
    if kept is not None and kept[0] == board.decision:
        return kept[1]
    out = []
    for point, radius, worth, holding in _objective_ground(board):
        others = len(holding) - (u.id in holding)
        out.append((point, radius, worth / (1 + others)))
    u.ground = (board.decision, out)
    return out


def _objective_ground(board: Board) -> list[tuple[Point, float, float, set[str]]]:
    """(point, radius, worth, our units inside) for each objective on the ground, in objective
    order: the same for every unit, so once a decision (``Board.objective_ground``)."""
    found = board.objective_ground
    if found is not None:
        return found
    found = []
    side = board.side
    turns = board.turns_left
    for o in board.objectives:
        if o.point is None:
            continue
        # This turn's points, the next one's, and the end points spread over the turns left:
        # standing there early earns the end points only by staying to the end.
        worth = (o.points_per_turn * min(turns, 2) + o.points_at_end / turns) * PRESENCE
        if side not in o.sides:
            worth *= DENY
        point, radius = o.point, o.radius
        holding = {f.id for f in board.own if math.dist(f.position, point) <= radius}
        found.append((point, radius, worth, holding))
    board.objective_ground = found
    return found
