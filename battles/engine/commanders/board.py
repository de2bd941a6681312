"""The board as one decision sees it: the units, the buildings, and where lines and cover are.

``Board`` is the ground floor of a commander's ``Picture`` (``picture.py``): what the side's
``BattleView`` shows for one decision, and the questions about places every sum asks (the
building holding a point, a line between two points, whether a unit there is hidden or
sheltered). The sums are built on it, one layer a subject: ``Threats`` (``threat.py``), then
``Values`` (``values.py``), then ``Picture``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import geometry
from ..cards import Keyword
from ..footprint import nearest_point
from .odds import Shot, best_shot

if TYPE_CHECKING:
    from ..commander import BattleView, UnitInfo
    from ..geometry import Point
    from ..state import BuildingState

MEMORY = 1
"""Turns an enemy that went out of sight is still reckoned with where it was last seen."""

GRID = 1.0
"""Side of the squares lines are reckoned between, in inches (``Board.sees``)."""

_EDGE = 1024
_SIDE = 4096
_SQUARES = _SIDE * _SIDE
"""A square's number in ``Board.sees``: (column + _EDGE) * _SIDE + row + _EDGE, unique for
squares within 1,024 of the table's corner (any table is far smaller)."""


class Board:
    """The battle as one decision sees it, and the questions about places."""

    def __init__(
        self,
        view: BattleView,
        remembered: dict[str, tuple[UnitInfo, int]],
        memo: dict[tuple, Any] | None = None,
        kept: dict[tuple, Any] | None = None,
    ) -> None:
        self.view = view
        self.kept: dict[tuple, Any] = {} if kept is None else kept
        """Kept by the commander for the battle: answers that depend only on the table (lines
        between grid squares, the building holding a point, walls, terrain that rolls)."""
        self.ruleset = view.ruleset
        self.tables = view.tables
        self.demoralise_at = view.ruleset.demoralise_at_skill
        self.own = view.own_units()
        self.enemies = view.enemies()
        self.buildings: list[BuildingState] = [b for b in view.buildings if not b.collapsed]
        self._standing = len(self.buildings)
        self.lines: dict[int, bool] = self.kept.setdefault(("lines", self._standing), {})
        """Lines between grid squares (``sees``), kept while no building falls."""
        self.turns_left = view.turn_limit - view.turn + 1
        """Turns still to play, this one included."""
        seen = {e.id for e in self.enemies}
        self.lost_sight = [
            e
            for eid, (e, turn) in remembered.items()
            if eid not in seen and view.turn - turn <= MEMORY
        ]
        """Enemies seen lately that are out of sight now, as last seen: a player's memory."""
        self.memo: dict[tuple, Any] = {} if memo is None else memo
        """Kept by the commander for the rest of the turn: sums that change little within it."""
        self._sheltered: dict[str, bool] = {}
        self._enemy_by_id: dict[str, UnitInfo] | None = None
        self._inside_at: dict[Point, str | None] = self.kept.setdefault(
            ("inside", self._standing), {}
        )
        """Building holding each point, kept while no building falls."""
        self._begin()

    def _begin(self) -> None:
        """Start the decision's caches empty: each layer over the board adds its own."""

    # --- places ---------------------------------------------------------------------------------

    def building_at(self, p: Point) -> str | None:
        """The standing building whose footprint strictly holds ``p``, if any."""
        inside = self._inside_at
        try:
            return inside[p]
        except KeyError:
            found = next((b.id for b in self.buildings if b.polygon.contains_strictly(p)), None)
            inside[p] = found
            return found

    def enemy(self, eid: str) -> UnitInfo | None:
        """The visible enemy with this id, if any."""
        if self._enemy_by_id is None:
            self._enemy_by_id = {e.id: e for e in self.enemies}
        return self._enemy_by_id.get(eid)

    def distance_to_building(self, b: BuildingState, p: Point) -> float:
        """Distance from ``p`` to the building's nearest wall (kept for the battle)."""
        key = ("wall", b.id, p)
        found = self.kept.get(key)
        if found is None:
            found = geometry.distance(p, nearest_point(b.polygon, p))
            self.kept[key] = found
        return found

    def sheltered(self, unit: UnitInfo, p: Point) -> bool:
        """Inside a standing building: only the building can be attacked."""
        if p == unit.position:
            known = self._sheltered.get(unit.id)
            if known is None:
                known = not unit.card.has(Keyword.AERIAL) and self.building_at(p) is not None
                self._sheltered[unit.id] = known
            return known
        return not unit.card.has(Keyword.AERIAL) and self.building_at(p) is not None

    def hidden_at(self, unit: UnitInfo, p: Point) -> bool:
        """Inside a sight-blocking piece: concealed there unless it fires."""
        return not unit.card.has(Keyword.AERIAL) and bool(self.view.cover_at(p))

    def sees(self, a: Point, b: Point) -> bool:
        """A line from ``a`` to ``b`` as the commander reckons it: between the centres of the
        ``GRID``-inch squares holding them. The threat and the next shot ask for a line from
        every enemy to every place weighed; on the grid the same lines come back again and
        again, and are kept for the battle (while no building falls)."""
        g = GRID
        ax, ay, bx, by = int(a[0] // g), int(a[1] // g), int(b[0] // g), int(b[1] // g)
        # The squares as one number each (an int key hashes far faster than nested tuples).
        ka, kb = (ax + _EDGE) * _SIDE + ay + _EDGE, (bx + _EDGE) * _SIDE + by + _EDGE
        key = ka * _SQUARES + kb if ka <= kb else kb * _SQUARES + ka
        found = self.lines.get(key)
        if found is None:
            found = self.view.line_clear(
                ((ax + 0.5) * g, (ay + 0.5) * g), ((bx + 0.5) * g, (by + 0.5) * g)
            )
            self.lines[key] = found
        return found

    def best_shot(self, attacker: UnitInfo, target: UnitInfo) -> tuple[float, Shot] | None:
        """The attacker's attack with the most harm on the target, and that harm."""
        return best_shot(self.tables, attacker, target)

    def can_follow_in(self, unit: UnitInfo, enemy: UnitInfo) -> bool:
        """Whether the unit could go into the building the enemy shelters in (it admits the
        unit, or the unit has Breaching) and fight it there, where they see each other."""
        inside = self.building_at(enemy.position)
        if inside is None or unit.card.has(Keyword.AERIAL):
            return False
        b = next(b for b in self.buildings if b.id == inside)
        return b.card.admits_size(unit.card.size) or unit.card.has(Keyword.BREACHING)

    def can_hurt(self, unit: UnitInfo, enemy: UnitInfo) -> bool:
        """Whether anything on the unit's card can damage the enemy where it stands."""
        if self.sheltered(enemy, enemy.position):
            return False  # Only its building can be attacked.
        return self.tables.can_damage(unit.id, unit.skill, enemy.id)
