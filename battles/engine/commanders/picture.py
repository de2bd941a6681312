"""What one decision knows: the ``Picture`` a commander weighs its choices on.

A ``Picture`` is built from the side's ``BattleView`` for one decision (the battle does not
change during it), so every sum on it can be cached on it; sums that change little within a
turn are kept in the commander's memo for the rest of the turn, and answers that depend only on
the table (lines of sight between grid squares, the building holding a point) for the battle.
It is built in layers, one subject a file: the ``Board`` (``board.py``: the units, buildings,
lines and cover), the threat a place is under (``threat.py``), what attacks and places are worth
(``values.py``), and here what the commander keeps per unit for the decision.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .values import Values

if TYPE_CHECKING:
    from ..commander import UnitInfo
    from ..geometry import Point


class Picture(Values):
    """The battle as one decision sees it, with per-decision caches: the ``Board``, its
    ``Threats`` and ``Values``, and what the commander keeps per unit for the decision."""

    def _begin(self) -> None:
        super()._begin()
        self.orders: dict[str, tuple[UnitInfo, Any]] = {}
        """Each unit's order kind this decision (``goals.order_kind``), with the unit asked."""
        self.goals: dict[str, tuple[UnitInfo, Any]] = {}
        """Each unit's goal this decision (``goals.goal_for``), with the unit asked."""
        self.attack_changes: tuple[int, set[str] | None] | None = None
        """This decision's number in the turn and the enemies changed since the side's last
        (``attacks.py``), once asked."""
        self.gains: dict[tuple[str, Point, float | None], float] = {}
        """What a place offers a unit this decision, threat aside (``default._gain``)."""
        self.ground: dict[str, tuple[UnitInfo, Any]] = {}
        """Each unit's share of the objectives' ground this decision (``goals.presence``)."""
