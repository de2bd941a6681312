"""The threat a place is under: what a unit standing there can expect to lose.

The Size a unit can expect to lose before it activates again, to the enemies its side can see
(and those lately lost from sight, where last seen, for less): each enemy's best attack on it,
in range and with a line now (in full), or able to get one by moving (in part). A unit inside a
standing building cannot be attacked at all; a unit concealed inside a sight-blocking piece only
by enemies in the same piece. The enemies it cannot hurt back weigh half again: that is what
armour keeps away from.

The sum is asked at every place a plan weighs, so it is kept light: only the ``SOURCES``
strongest enemies that could reach the unit's ground count (past a handful of guns the unit's
survival is spent), worked out once a decision (``sources``), and lines are reckoned between
grid squares (``Board.sees``).

Beside it: an enemy's **danger** (the most it can take off one of our units with its next
attack, which an attack on it spares) and ``under_guns``, the cheap stand-in for the threat
where a unit stands that choosing who acts reads.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .. import geometry
from .board import SQUARES, square
from .odds import harm_by_reach, harm_within

if TYPE_CHECKING:
    from ..geometry import Point
    from .board import Board, Piece

BLOCKED_IN_RANGE = 0.35
"""Share of an enemy's threat when it is in range but has no line now (it may move to get one)."""

MOVE_THEN_FIRE = 0.5
"""Share when it must move first but may fire in the same activation (Move and Fire, Split)."""

MOVE_NEXT_TURN = 0.25
"""Share when it must move first and fire in a later activation."""

ALREADY_ACTIVATED = 0.8
"""An enemy that has activated this turn fires only next turn: the unit may have moved by then."""

FAIR_FIGHT = 0.6
"""Weight on threats the unit can answer in kind: a fair exchange of fire is worth taking."""

CANNOT_HURT_BACK = 1.5
"""Weight on threats the unit cannot damage in return: keep armour away from what kills it."""

SHARED_FIRE = 1.0
"""How much friends already in an enemy's sights dilute its threat to this unit."""

LOST_SIGHT = 0.6
"""Weight of an enemy out of sight, as last seen (it may have moved, or been removed)."""

SOURCES = 6
"""Most threat sources weighed for one unit: the strongest (``sources``)."""

TURN_FIRST = 0.4
"""Share of a Fixed Mount's threat outside its front arc: it must turn (an activation) first."""


Source = tuple[
    float,
    float,
    int,
    float,
    tuple[tuple[float, float], ...],
    float,
    bool,
    bool,
    "float | None",
    frozenset[str],
]
"""One enemy's threat to one unit, all of it that does not depend on where the unit stands:
(x, y, its grid square (``board.square``), weight, (range, best harm from that far) longest
first (``odds.harm_by_reach``), move, whether it may move and fire in one activation, whether
it flies, a Fixed Mount's facing or None, the sight-blocking pieces it stands in). A plain
tuple, unpacked at every place a plan weighs (see ``values.Target``)."""


ThreatKey = tuple[str, "Point", bool]
"""A threat asked within a decision (``threat``): the unit, the place, whether hidden there."""


def sources(board: Board, unit: Piece) -> list[Source]:
    """Per enemy that can hurt the unit, the threat it poses (``Source``); enemies lately lost
    from sight count, where last seen, for less. Worked out once a decision.

    Only the ``SOURCES`` that could take the most off the unit count (weight times their best
    harm, before shared fire and a fair fight lower it), in the enemies' order, and only those
    that could reach a place the unit might stand (every place weighed lies within a move,
    ``Piece.stride``). Past a handful of guns the unit's survival is spent, and the threat sum
    is asked at every place weighed: the weakest add little and cost as much as the strongest.
    """
    kept = unit.sources
    if kept is not None and kept[0] == board.decision:
        return kept[1]
    tables = board.tables
    ux, uy = unit.position
    span = unit.stride
    near = []
    i = 0
    for pool, full in ((board.foes, 1.0), (board.lost, LOST_SIGHT)):
        for e in pool:
            i += 1
            ex, ey = e.position
            d = math.hypot(ex - ux, ey - uy)
            if d > e.reach + e.move + span:
                continue  # Out of reach of any place the unit might stand.
            reaches = harm_by_reach(tables, e, unit)
            if not reaches or d > reaches[0][0] + e.move + span:
                continue
            weight = full
            if full == 1.0 and e.info.activated:
                weight = ALREADY_ACTIVATED
            # The shortest reach carries the most harm: it is what the source could do.
            near.append((-weight * reaches[-1][1], i, e, weight, reaches))
    if len(near) > SOURCES:
        near.sort()  # by what it could take off, then place (the pieces are never compared)
        del near[SOURCES:]
        near.sort(key=_second)
    out = []
    for _, _, e, weight, reaches in near:
        # It fires once: friends already in its sights share the shot it will take.
        weight /= 1 + SHARED_FIRE * _exposed_to(board, e, unit, reaches[0][0])
        weight *= FAIR_FIGHT if can_hurt(board, unit, e) else CANNOT_HURT_BACK
        x, y = e.position
        facing = e.info.facing if e.fixed else None
        source: Source = (
            x,
            y,
            e.square,
            weight,
            reaches,
            e.move,
            e.mobile,
            e.aerial,
            facing,
            e.cover,
        )
        out.append(source)
    unit.sources = (board.decision, out)
    return out


def _second(entry: tuple) -> int:
    return entry[1]


def can_hurt(board: Board, unit: Piece, enemy: Piece) -> bool:
    """Whether anything on the unit's card can damage the enemy where it stands."""
    if enemy.sheltered:
        return False  # Only its building can be attacked.
    return board.tables.can_damage(unit.no, unit.skill, enemy.no)


def _exposed_to(board: Board, enemy: Piece, unit: Piece, reach: float) -> int:
    """Our other units the enemy could attack where they stand (in range, not concealed).

    Kept for the rest of the turn while the enemy stands where it did: our units move a little
    within a turn, and this only dilutes a weight."""
    kept = enemy.exposed
    stamp = (board.turn, enemy.position)
    if kept is None or kept[0] != stamp:
        kept = enemy.exposed = (stamp, {})
    exposed = kept[1].get(reach)
    if exposed is None:
        ex, ey = enemy.position
        exposed = kept[1][reach] = [
            oid for oid, ox, oy in _in_the_open(board) if math.hypot(ox - ex, oy - ey) <= reach
        ]
    return len(exposed) - (unit.id in exposed)


def _in_the_open(board: Board) -> list[tuple[str, float, float]]:
    """(id, x, y) of our units an enemy could attack where they stand: neither concealed nor
    sheltered. Worked out once a decision: every enemy's exposure sum walks it."""
    found = board.in_the_open
    if found is None:
        found = board.in_the_open = [
            (o.id, o.position[0], o.position[1])
            for o in board.own
            if not (o.info.concealed or o.sheltered)
        ]
    return found


def under_guns(board: Board, unit: Piece) -> float:
    """A cheap stand-in for the threat where the unit stands, to choose who acts first: the Size
    of the visible enemies whose weapons reach it now (distance only)."""
    if unit.info.concealed or unit.sheltered:
        return 0.0
    ux, uy = unit.position
    total = 0.0
    for e in board.foes:
        ex, ey = e.position
        if math.hypot(ex - ux, ey - uy) <= e.gun:
            total += 0.1 * e.size
    return min(total, unit.size)


def threat(board: Board, unit: Piece, p: Point, hidden: bool) -> float:
    """Size the unit can expect to lose standing at ``p`` until it activates again.

    ``hidden``: it will be concealed there (inside a sight-blocking piece, not firing).
    Kept for the decision.
    """
    key: ThreatKey = (unit.id, p, hidden)
    found = board.threats.get(key)
    if found is None:
        if not hidden and not unit.aerial and board.building_at(p) is not None:
            # Only the building can be attacked from outside, and those inside it see each
            # other: in a building the unit is as safe seen as hidden, the same sum.
            found = threat(board, unit, p, True)
        else:
            found = _threat(board, unit, p, hidden)
        board.threats[key] = found
    return found


def _threat(board: Board, unit: Piece, p: Point, hidden: bool) -> float:
    aerial = unit.aerial
    cover = board.cover_at(p) if hidden else frozenset()
    survive = 1.0
    px, py = p
    here = -1
    lines = board.lines
    for x, y, sq, weight, reaches, move, mobile, flies, facing, covers in sources(board, unit):
        d = math.hypot(x - px, y - py)
        if d > reaches[0][0] + move:
            continue
        if hidden and cover.isdisjoint(covers):
            continue
        h = harm_within(reaches, d)
        if h > 0:
            if aerial or flies:
                share = weight
            else:
                if here < 0:
                    here = square(p)
                clear = lines.get(sq * SQUARES + here if sq <= here else here * SQUARES + sq)
                if clear is None:
                    clear = board.sees(sq, here)
                share = weight if clear else BLOCKED_IN_RANGE * weight
        else:
            h = harm_within(reaches, d, move)
            share = (MOVE_THEN_FIRE if mobile else MOVE_NEXT_TURN) * weight
        if facing is not None and not geometry.in_arc((x, y), facing, p):
            share *= TURN_FIRST
        survive *= 1.0 - min(1.0, h * share)
    return unit.size * (1.0 - survive)


def danger(board: Board, enemy: Piece) -> float:
    """The most Size the enemy can take off one of our units with its next attack.

    Kept for the rest of the turn while the enemy stands, hits and sees as it does: our units
    move a little within a turn, and this is a weight, not a rule.
    """
    key = (board.turn, enemy.position, enemy.hits, enemy.skill)
    kept = enemy.danger
    if kept is not None and kept[0] == key:
        return kept[1]
    worst = 0.0
    ex, ey = enemy.position
    reach = enemy.gun + enemy.move
    tables = board.tables
    for o in board.own:
        ox, oy = o.position
        d = math.hypot(ox - ex, oy - ey)
        if d > reach:
            continue
        if o.info.concealed or o.sheltered:
            continue
        reaches = harm_by_reach(tables, enemy, o)
        h = harm_within(reaches, d, enemy.move)
        worst = max(worst, o.size * h)
    enemy.danger = (key, worst)
    return worst
