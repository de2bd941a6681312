"""What an attack is worth, and what standing somewhere offers the next shot.

All values are in victory points: a unit is worth its Size, because that is what the enemy
scores for removing it.

- **attack value**: the Size an attack takes off the target in expectation (``odds.harm``), plus
  the threat the target would stop posing if it is removed now — so fire goes where it can
  actually hurt, finishes damaged targets, and prefers big ones. Rifles do not rattle tanks: a
  shot that cannot suppress and seldom damages counts for a quarter.
- **offers**: a unit's attacks on an enemy with a positive value, most valuable first, with
  their reach. They depend on where neither stands, only on what the two are (card, Skill,
  Hits: ``Piece.state``), the enemy's danger and the turns left (up to ``DANGER_TURNS``), so
  they are kept for the battle by those.
- **building worth**: the raze points a building carries for the side, and what its fall does
  to those inside, times the chance of finishing it in the turns left.
- **opportunity**: the best attack a unit could make next time from a place, on the enemies it
  sees now.
"""

from __future__ import annotations

import math
from operator import itemgetter
from typing import TYPE_CHECKING

from .. import geometry
from ..scenario import ObjectiveKind
from ..tables import STATES, keep
from .board import SQUARES, square
from .odds import Shot, at_least, harm, removal_now
from .threat import LOST_SIGHT, danger

if TYPE_CHECKING:
    from ..geometry import Point
    from ..state import BuildingState
    from .board import Board, Piece

WEAKEN = 1.0
"""Share of a target's danger credited per unit of harm short of removing it (suppression
lowers its Skill, damage brings its removal nearer)."""

POOR_ODDS = 0.1
"""Damage chance under which an attack that cannot suppress is a poor use of the activation:
rifles on mech armour (1 in 24) are; rifles on a one-Hit medium tank (1 in 7, and each damage
removes it) are not."""

CANNOT_SUPPRESS = 0.25
"""Weight on such an attack's value."""

DANGER_TURNS = 2
"""Turns of an enemy's fire a removal is credited with sparing."""

LIMITED_USE = 0.8
"""A limited weapon (missiles, Charges) is kept for a target that makes it clearly better."""


Offer = tuple[float, float, str]
"""One attack a unit could make on a target: (value, reach: the weapon's range, weapon). A plain
tuple, as ``Target`` is (see there)."""


def attack_value(board: Board, unit: Piece, target: Piece, shot: Shot, danger: float) -> float:
    """Expected Size taken off ``target``, plus the danger it stops posing if removed now."""
    dem = board.demoralise_at
    hurt = harm(shot.damage, shot.suppress, target.hits, target.skill, dem)
    value = target.size * hurt
    # Removing it now spares what it would do to us this turn and the next; hurting it short of
    # that weakens it a little.
    now = removal_now(shot.damage, shot.suppress, target.hits, target.skill, dem)
    spared = now + WEAKEN * max(0.0, hurt - now)
    value += spared * danger * min(board.turns_left, DANGER_TURNS)
    if shot.ram:
        # Ramming is resolved in both directions: pay for the blow back.
        back_damage, back_suppress = shot.blow_back
        value -= unit.size * harm(back_damage, back_suppress, unit.hits, unit.skill, dem)
    if shot.limited:
        value *= LIMITED_USE
    if shot.power < target.card.resistance and shot.damage < POOR_ODDS:
        # Rifles rattle infantry; they do not rattle tanks. A shot that cannot suppress and
        # seldom damages is kept for better targets.
        value *= CANNOT_SUPPRESS
    return value


OfferKey = tuple[int, float, int]
"""What a unit's offers on a target are kept for, in the scenario's tables
(``ScenarioTables.offers``): the two units' states (``Piece.state``) as one number, attacker *
STATES + target, the target's danger (``threat.danger``) and the turns of it an attack spares
(the turns left, up to ``DANGER_TURNS``)."""


def offers(board: Board, unit: Piece, target: Piece) -> list[Offer]:
    """The unit's attacks on the target with a positive value, most valuable first (ties in
    card order), wherever the two stand. They depend only on the two units' states, the
    target's danger and the turns left (``attack_value``): kept in the scenario's tables by
    those, for either side and every battle, so a new turn asks again only where a danger
    moved to a figure no battle has met yet."""
    threat = danger(board, target)
    key: OfferKey = (
        unit.state * STATES + target.state,
        threat,
        min(board.turns_left, DANGER_TURNS),
    )
    kept = board.tables.offers
    found = kept.get(key)
    if found is None:
        found = []
        for s in board.tables.card_shots(unit.no, unit.skill, target.no):
            if s.damage + s.suppress > 0:
                v = attack_value(board, unit, target, s, threat)
                if v > 0:
                    found.append((v, s.range, s.weapon))
        found.sort(key=by_value, reverse=True)
        keep(kept, key, found)
    return found


by_value = itemgetter(0)
"""Sort key of an ``Offer`` or a ``Target``, sorted with ``reverse=True``: the most valuable
first (a reversed sort is still stable, so ties keep their order), and no Python call per
entry."""


def worth_attacking(board: Board) -> list[tuple[BuildingState, int, float]]:
    """The standing buildings worth bringing down to this side, with their Hits and that worth
    (compare two decisions' lists to know whether attacks on them changed). Once a decision."""
    found = board.worth
    if found is None:
        found = [(b, b.hits, w) for b in board.buildings if (w := building_worth(board, b)) > 0]
        board.worth = found
    return found


WorthKey = tuple[str, int, int]
"""What a building's worth is kept for, within the turn (``Board.worths``): the building, its
Hits and the standing buildings (a fall moves units out of one and changes who is inside)."""

FinishOdds = tuple[int, int, tuple[float, ...]]
"""What the chance of bringing a building down depends on (``ScenarioTables.finish_odds``): its
Hits, the turns left, and the best chance of damaging it of each of our units that has one, in
order."""

FinishKey = tuple[str, int, int]
"""What the chance of bringing a building down is kept for, within the turn
(``Board.finishes``): the building, its Hits and our units in the battle (those that could
attack it)."""


def building_worth(board: Board, b: BuildingState) -> float:
    """What bringing the building down is worth to this side, in points (may be negative).

    Kept for the rest of the turn while the building stands with the Hits it had: units go in
    and out of buildings seldom, and every ready unit's attack asks at every decision.
    """
    worths = board.worths
    key: WorthKey = (b.id, b.hits, len(board.buildings))
    found = worths.get(key)
    if found is None:
        found = worths[key] = _building_worth(board, b)
    return found


def _building_worth(board: Board, b: BuildingState) -> float:
    worth = _raze_points(board).get(b.id, 0.0)
    # Each occupant rolls Skill or takes a Hit when it collapses.
    for u, weight in _occupants(board).get(b.id, ()):
        worth += weight * u.size * (1.0 - min(u.skill, 6) / 6.0) / max(u.hits, 1)
    if worth > 0:
        worth *= _can_finish(board, b)
    return worth


def _raze_points(board: Board) -> dict[str, float]:
    """Per building, the raze objectives' end points for this side (the enemy's count against):
    the objectives never change, so this is worked out once a battle."""
    found = board.raze_points
    if found is None:
        found = {}
        for o in board.objectives:
            if o.kind is ObjectiveKind.RAZE and o.building is not None:
                points = o.points_at_end if board.side in o.sides else -o.points_at_end
                # Summed in objective order from 0.0, as the worth always was.
                found[o.building] = found.get(o.building, 0.0) + points
        board.raze_points = found
    return found


def _occupants(board: Board) -> dict[str, list[tuple[Piece, float]]]:
    """Units inside each standing building, weighted: enemies +1 (lost from sight: less), our
    own -1 (they roll too when it falls). One on the wall two share is inside both (E34), and
    rolls when either falls. Once a decision."""
    inside = board.occupants
    if inside is None:
        inside = {}
        weighted = [(e, 1.0) for e in board.foes]
        weighted += [(e, LOST_SIGHT) for e in board.lost]
        weighted += [(o, -1.0) for o in board.own]
        standing = {b.id for b in board.buildings}
        for u, weight in weighted:
            if u.inside is not None:
                for where in standing.intersection(u.cover):
                    inside.setdefault(where, []).append((u, weight))
        board.occupants = inside
    return inside


def _can_finish(board: Board, b: BuildingState) -> float:
    """Chance the side brings the building down in the turns left, every unit that can damage it
    attacking it each turn: a raze half done at the end scores nothing."""
    finishes = board.finishes
    key: FinishKey = (b.id, b.hits, len(board.own))
    if key in finishes:
        return finishes[key]
    tables = board.tables
    target = tables.card_no[b.id]
    bests = tuple(
        best for o in board.own if (best := tables.best_damage(o.no, o.skill, target)) > 0
    )
    # The chance depends on nothing else: the same sum comes up in every battle of the scenario.
    odds: FinishOdds = (b.hits, board.turns_left, bests)
    found = tables.finish_odds.get(odds)
    if found is None:
        chances = [best for best in bests for _ in range(board.turns_left)]
        found = keep(tables.finish_odds, odds, at_least(b.hits, chances) if chances else 0.0)
    finishes[key] = found
    return found


def building_value(board: Board, b: BuildingState, shot: Shot) -> float:
    """Expected worth of one attack on a building: its share of bringing the building down."""
    worth = building_worth(board, b)
    if worth <= 0:
        return 0.0
    value = shot.damage * worth / max(b.hits, 1) * (2.0 if b.hits <= 1 else 1.0)
    return value * (LIMITED_USE if shot.limited else 1.0)


Target = tuple[float, float, float, int, float, bool, "str | None"]
"""An attack ``opportunity`` scans: an offer on an enemy with where the enemy stands: (value, x,
y, the grid square holding the enemy (``board.square``), reach, whether the enemy flies (no line
is needed to it), the building it shelters in (only those inside can attack it)).

A plain tuple, not a named one: ``opportunity`` unpacks one at every place a plan weighs, and
Python specializes unpacking and indexing for plain tuples only (named, these and ``Source``
cost about 5% of a 20v20's instructions)."""


def _targets(board: Board, unit: Piece) -> list[Target]:
    """The attacks on visible enemies worth scanning, best first: an attack on an enemy that
    reaches no farther than a better one on the same enemy is never the first in range with a
    line, so it goes. Once a decision."""
    kept = unit.targets
    if kept is not None and kept[0] == board.decision:
        return kept[1]
    out = []
    # Every place weighed is within a move of where the unit stands.
    ux, uy = unit.position
    limit = unit.reach + unit.move + 1e-6
    for e in board.foes:
        ex, ey = e.position
        if math.hypot(ex - ux, ey - uy) > limit:
            continue
        flies = e.aerial
        inside = e.inside
        for value, reach, _ in offers(board, unit, e):
            out.append((value, ex, ey, e.square, reach, flies, inside))
    out.sort(key=by_value, reverse=True)
    # An entry is scanned for its place, range and line alone: by (place, aerial, shelter),
    # only those reaching farther than every better one can ever be first.
    farthest: dict[tuple[float, float, bool, str | None], float] = {}
    kept_targets = []
    for entry in out:
        _, x, y, _, reach, flies, inside = entry
        key = (x, y, flies, inside)
        if farthest.get(key, -1.0) < reach:
            farthest[key] = reach
            kept_targets.append(entry)
    unit.targets = (board.decision, kept_targets)
    return kept_targets


def best_opportunity(board: Board, unit: Piece) -> float:
    """The most ``opportunity`` can be anywhere: the unit's most valuable attack on what it
    sees, wherever it would stand."""
    found = _targets(board, unit)
    return found[0][0] if found else 0.0


def opportunity(board: Board, unit: Piece, p: Point, facing: float | None = None) -> float:
    """The best attack the unit could make from ``p`` next time, against what it sees now.

    ``facing`` limits a Fixed Mount to its front arc (turning would cost the activation). An
    enemy inside a building can be attacked only from inside the same building.
    """
    aerial = unit.aerial
    arc = facing is not None and unit.fixed
    here = None if aerial else board.building_at(p)
    px, py = p
    at = -1
    lines = board.lines
    for v, ex, ey, sq, reach, flies, inside in _targets(board, unit):
        if inside is not None and inside != here:
            continue
        if math.hypot(ex - px, ey - py) > reach:
            continue
        if arc and not geometry.in_arc(p, facing, (ex, ey)):  # type: ignore[arg-type]
            continue
        if aerial or flies:
            return v
        if at < 0:
            at = square(p)
        clear = lines.get(at * SQUARES + sq if at <= sq else sq * SQUARES + at)
        if clear is None:
            clear = board.sees(at, sq)
        if clear:
            return v
    return 0.0
