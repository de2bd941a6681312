"""Victory: removed units scored by Size (in ``combat.remove``), objectives, the winner.

"Held" means a side has an unremoved unit within the objective's radius and the enemy has none.
A raze objective counts as held by its sides once its building has collapsed.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from . import events as ev
from .scenario import Objective, ObjectiveKind

if TYPE_CHECKING:
    from collections.abc import Iterable

    from .battle import Battle
    from .state import BattleState, UnitState


def holders(
    state: BattleState, obj: Objective, units: Iterable[UnitState] | None = None
) -> list[str]:
    """Sides (among those the objective scores for) that hold it now.

    ``units``: the units that count, every unit in the battle unless given (a side's view gives
    those the side can see: a concealed enemy on the objective is not shown by who holds it).
    """
    if obj.kind is ObjectiveKind.RAZE:
        assert obj.building is not None
        return list(obj.sides) if state.buildings[obj.building].collapsed else []
    assert obj.point is not None
    point, reach = obj.point, obj.radius + 1e-9
    # Asked of every objective at every turn's end, of every unit: ``math.dist`` is
    # ``geometry.distance`` without its call, and a second side within ends the question.
    dist = math.dist
    side = None
    for u in state.units.values() if units is None else units:
        if u.active and dist(u.position, point) <= reach:
            if side is None:
                side = u.side
            elif u.side != side:
                return []
    return [side] if side is not None and side in obj.sides else []


def _award(b: Battle, points: int, reason: str, sides: list[str]) -> None:
    for side in sides:
        total = b.state.scores[side] + points
        b.emit(ev.Score(side, points, reason, total))


def score_turn(b: Battle) -> None:
    """End of a turn: points per turn to each side holding an objective."""
    for obj in b.scenario.objectives:
        if obj.points_per_turn:
            _award(b, obj.points_per_turn, f"objective:{obj.id}", holders(b.state, obj))


def score_end(b: Battle) -> None:
    """End of the battle: points at end to each side holding (or having razed) an objective."""
    for obj in b.scenario.objectives:
        if obj.points_at_end:
            _award(b, obj.points_at_end, f"objective:{obj.id}", holders(b.state, obj))


def objectives_held(state: BattleState, side: str) -> list[str]:
    """Ids of the objectives ``side`` holds now."""
    return [o.id for o in state.scenario.objectives if side in holders(state, o)]
