"""What one decision knows: the ``Picture`` a commander weighs its choices on.

A ``Picture`` is built from the side's ``BattleView`` for one decision (the battle does not
change during it), so every sum on it can be kept on it. It holds the board — the units, the
buildings, and the questions about places every sum asks (the building holding a point, a line
between two points, whether a unit there is hidden or sheltered) — and is composed with its two
sums, each a file: the threat a place is under (``threat.py``: ``Picture.threats``) and what
attacks and places are worth (``values.py``: ``Picture.values``).

Sums that change little within a turn are kept in the commander's ``TurnMemo`` for the rest of
the turn, and answers that depend only on the table in its ``BattleMemo`` for the battle; what
depends only on the cards, and the lines over the opening table (every building standing), is
the scenario's (``tables.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .. import geometry
from ..cards import Keyword
from ..geometry import nearest_point
from .odds import Shot, best_shot
from .threat import Threats
from .values import Values

if TYPE_CHECKING:
    from ..commander import BattleView, UnitInfo
    from ..geometry import Point, Polygon
    from ..state import BuildingState

MEMORY = 1
"""Turns an enemy that went out of sight is still reckoned with where it was last seen."""

GRID = 1.0
"""Side of the squares lines are reckoned between, in inches (``Picture.sees``)."""

_EDGE = 1024
_SIDE = 4096
_SQUARES = _SIDE * _SIDE
"""A square's number in ``Picture.sees``: (column + _EDGE) * _SIDE + row + _EDGE, unique for
squares within 1,024 of the table's corner (any table is far smaller)."""

ValueKey = tuple[str, int, int, str, int, int, str, float]
"""An attack's value for the turn: (unit id, its Hits, its Skill, target id, its Hits, its
Skill, weapon, the target's danger) (``Values.attack_value``)."""

WorthKey = tuple[str, int, int]
"""A building's worth for the turn: (building id, its Hits, standing buildings)."""

FinishKey = tuple[str, int, int]
"""The chance of finishing a building: (building id, its Hits, our units in the battle)."""

ExposedKey = tuple[str, "Point", float]
"""Our units an enemy could attack: (enemy id, where it stands, its reach)."""

DangerKey = tuple[str, "Point", int, int]
"""An enemy's danger: (enemy id, where it stands, its Hits, its Skill)."""

CrossingKey = tuple[tuple["Point", ...], int, bool, "tuple[int, int] | None", int]
"""The price of the rolls a path asks for: (path, Skill up to 6, Sure-Footed, (Size, Hits) of a
unit with Breaching, standing buildings) (``moves.crossing_cost``)."""


@dataclass(slots=True)
class TurnMemo:
    """What the commander keeps for the rest of a turn: sums that change little within it, one
    table a subject. Cleared when the turn changes."""

    values: dict[ValueKey, float] = field(default_factory=dict)
    """Attack values (``Values.attack_value``)."""
    worth: dict[WorthKey, float] = field(default_factory=dict)
    """Buildings' worth (``Values.building_worth``)."""
    finish: dict[FinishKey, float] = field(default_factory=dict)
    """Chances of bringing a building down (``Values._can_finish``)."""
    exposed: dict[ExposedKey, list[str]] = field(default_factory=dict)
    """Our units in an enemy's reach (``Threats._exposed_to``)."""
    danger: dict[DangerKey, float] = field(default_factory=dict)
    """Enemies' danger (``Threats.danger``)."""
    press: dict[str, tuple[UnitInfo, float]] = field(default_factory=dict)
    """Each unit's press, with the unit asked (``goals.press_of``)."""
    reach: dict[str, tuple[UnitInfo, int, Any]] = field(default_factory=dict)
    """Each unit's ``attacks.Reach``, with the unit and the standing buildings it was for."""
    enemies: tuple[int, dict[str, UnitInfo]] | None = None
    """The last decision's number in the turn and the enemies it saw (``attacks._changes``)."""


@dataclass(slots=True)
class BattleMemo:
    """What the commander keeps for the battle: answers that depend only on the table. Those
    about places are kept per count of standing buildings: a fall changes them."""

    lines: dict[int, dict[int, bool]] = field(default_factory=dict)
    """Lines between grid squares once a building has fallen (``Picture.sees``; before, the
    scenario's ``opening_lines``)."""
    inside: dict[int, dict[Point, str | None]] = field(default_factory=dict)
    """The building holding each point (``Picture.building_at``)."""
    walls: dict[tuple[str, Point], float] = field(default_factory=dict)
    """Distance from a point to a building's nearest wall."""
    crossing: dict[CrossingKey, float] = field(default_factory=dict)
    """The price of a path's rolls (``moves.crossing_cost``)."""
    rolling: dict[tuple[bool, int], list[Polygon]] = field(default_factory=dict)
    """The pieces whose entry asks for a roll, by Sure-Footed and standing buildings."""
    raze: dict[str, float] | None = None
    """Raze points per building for the side (``Values._raze_points``)."""


class Picture:
    """The battle as one decision sees it, the questions about places, and its sums."""

    def __init__(
        self,
        view: BattleView,
        remembered: dict[str, tuple[UnitInfo, int]],
        memo: TurnMemo | None = None,
        kept: BattleMemo | None = None,
    ) -> None:
        self.view = view
        self.kept = BattleMemo() if kept is None else kept
        """Kept by the commander for the battle (``BattleMemo``)."""
        self.ruleset = view.ruleset
        self.tables = view.tables
        self.demoralise_at = view.ruleset.demoralise_at_skill
        self.own = view.own_units()
        self.enemies = view.enemies()
        self.buildings: list[BuildingState] = [b for b in view.buildings if not b.collapsed]
        self._standing = len(self.buildings)
        self.lines: dict[int, bool] = (
            self.tables.opening_lines
            if self._standing == len(view.buildings)
            else self.kept.lines.setdefault(self._standing, {})
        )
        """Lines between grid squares (``sees``): the scenario's while every building stands
        (the table is the one every battle of it starts on), else kept for the battle while
        no more buildings fall."""
        self.turns_left = view.turn_limit - view.turn + 1
        """Turns still to play, this one included."""
        seen = {e.id for e in self.enemies}
        self.lost_sight = [
            e
            for eid, (e, turn) in remembered.items()
            if eid not in seen and view.turn - turn <= MEMORY
        ]
        """Enemies seen lately that are out of sight now, as last seen: a player's memory."""
        self.memo = TurnMemo() if memo is None else memo
        """Kept by the commander for the rest of the turn (``TurnMemo``)."""
        self._sheltered: dict[str, bool] = {}
        self._enemy_by_id: dict[str, UnitInfo] | None = None
        self.inside_at: dict[Point, str | None] = self.kept.inside.setdefault(self._standing, {})
        """Building holding each point, kept while no building falls."""
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
        self.threats = Threats(self)
        """The threat a place is under (``threat.py``)."""
        self.values = Values(self)
        """What attacks and places are worth (``values.py``)."""

    # --- places ---------------------------------------------------------------------------------

    def building_at(self, p: Point) -> str | None:
        """The standing building whose footprint strictly holds ``p``, if any."""
        inside = self.inside_at
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
        walls = self.kept.walls
        key = (b.id, p)
        found = walls.get(key)
        if found is None:
            found = walls[key] = geometry.distance(p, nearest_point(b.polygon, p))
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
