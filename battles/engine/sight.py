"""Line of sight and concealment: "model's eye view — use a string".

A line from A to B is blocked when it crosses the interior of a sight-blocking piece (terrain
or a standing building) that holds neither A nor B strictly inside. A point exactly on a piece's
edge is outside it: units walking around a wood hug its edge, and must not see through it.
Units inside the same sight-blocking piece always see each other; Aerial units are never
blocked and never concealed. Results are cached per position pair and terrain version.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import Keyword

if TYPE_CHECKING:
    from .geometry import Point, Polygon
    from .state import BattleState, UnitState


class Sight:
    """Sight questions about one battle, cached until the terrain changes."""

    def __init__(self, state: BattleState) -> None:
        self.state = state
        self._version = -1
        self._blockers: list[tuple[str, Polygon]] = []
        self._lines: dict[tuple[Point, Point], bool] = {}
        self._inside: dict[Point, frozenset[str]] = {}

    def _refresh(self) -> None:
        if self._version == self.state.terrain_version:
            return
        self._version = self.state.terrain_version
        self._lines.clear()
        self._inside.clear()
        blockers = [(t.id, t.polygon) for t in self.state.terrain if t.props.blocks_sight]
        blockers += [(b.id, b.polygon) for b in self.state.buildings.values() if not b.collapsed]
        self._blockers = blockers

    def pieces_at(self, p: Point) -> frozenset[str]:
        """Ids of the sight-blocking pieces (terrain, standing buildings) strictly holding ``p``."""
        self._refresh()
        found = self._inside.get(p)
        if found is None:
            found = frozenset(i for i, poly in self._blockers if poly.contains_strictly(p))
            self._inside[p] = found
        return found

    def line_clear(self, a: Point, b: Point) -> bool:
        """Whether the string from ``a`` to ``b`` crosses no sight-blocking piece."""
        self._refresh()
        key = (a, b) if a <= b else (b, a)
        clear = self._lines.get(key)
        if clear is None:
            ina, inb = self.pieces_at(a), self.pieces_at(b)
            if ina & inb:
                clear = True  # Same rubble field, wood or building: they see each other.
            else:
                clear = not any(
                    poly.crossed_by(a, b)
                    for i, poly in self._blockers
                    if i not in ina and i not in inb
                )
            self._lines[key] = clear
        return clear

    def sees(self, a: UnitState, b: UnitState, a_pos: Point | None = None) -> bool:
        """Whether unit ``a`` (optionally standing at ``a_pos``) has a clear line to unit ``b``."""
        if a.card.has(Keyword.AERIAL) or b.card.has(Keyword.AERIAL):
            return True  # Aerial: never blocked.
        return self.line_clear(a_pos or a.position, b.position)

    def same_piece(self, a: Point, b: Point) -> bool:
        """Whether both points lie inside one sight-blocking piece."""
        return bool(self.pieces_at(a) & self.pieces_at(b))

    def hidden(self, unit: UnitState) -> bool:
        """Whether the unit, not being revealed, should be concealed where it stands.

        Inside sight-blocking terrain it is; in the open it is when no enemy has a line to it
        ("everything behind the blocking terrain starts concealed"). Aerial never is.
        """
        if unit.card.has(Keyword.AERIAL):
            return False
        if self.pieces_at(unit.position):
            return True
        return not any(
            self.sees(e, unit) for e in self.state.side_units(self.state.enemy_of(unit.side))
        )

    def in_the_open_and_seen(self, unit: UnitState) -> bool:
        """A concealed unit outside any sight-blocking piece with an enemy line to it is spotted."""
        if self.pieces_at(unit.position):
            return False
        return any(
            self.sees(e, unit) for e in self.state.side_units(self.state.enemy_of(unit.side))
        )
