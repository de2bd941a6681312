"""The shapes an activation may take: M = move, A = attack or Sensor reveal.

An activation is a move or an attack, not both (``actions.py``). Move and Fire allows
move-then-attack or attack-then-move; Split Movement allows move, attack, move.
"""

from __future__ import annotations

from .actions import MoveStep
from .cards import Keyword, UnitCard

_PLAIN = frozenset({"", "M", "A"})
_MOVE_AND_FIRE = frozenset({"MA", "AM"})
_SPLIT = frozenset({"MA", "AM", "MAM"})


def allowed_shapes(card: UnitCard) -> frozenset[str]:
    """Step shapes the card permits: M = move, A = attack or Sensor reveal."""
    shapes = _PLAIN
    if card.has(Keyword.MOVE_AND_FIRE):
        shapes = shapes | _MOVE_AND_FIRE
    if card.has(Keyword.SPLIT_MOVEMENT):
        shapes = shapes | _SPLIT
    return shapes


def shape(steps: tuple[object, ...]) -> str:
    """The steps as a shape, such as "MA" for a move and then an attack."""
    return "".join(["M" if isinstance(s, MoveStep) else "A" for s in steps])
