"""Line of sight and concealment: "model's eye view — use a string".

A line from A to B is blocked when it crosses the interior of a sight-blocking piece (terrain
or a standing building) that holds neither A nor B. A point exactly on a piece's outer edge is
outside it: units walking around a wood hug its edge, and must not see through it. Two pieces
laid edge to edge are one for a string along the joint: it is blocked. The joint is inside both
(E34), for a unit standing on it too: it is in each piece, and an occupant of each building.
Units in the same rubble field or building always see each other, whether or not the rubble
blocks sight; two in the same wood or on the same hill see each other only when no other
sight-blocking piece lies between them. Aerial
units are never blocked and never concealed, and never inside a piece: they fly over it.

Sight depends only on positions and on the terrain, and the terrain changes only when a building
collapses. So every answer is cached by position (or pair of positions) until the terrain
version moves on; units walking about only ever add entries. Every battle of a scenario starts
on the same table, and most are fought on it throughout: the answers over it are kept in the
scenario's tables, shared by its battles (``tables.OPENING_KEPT`` bounds them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .geometry import joints_by_piece, on_joint, runs_along, seams
from .tables import keep
from .terrain import kind_defaults

if TYPE_CHECKING:
    from collections.abc import Iterable

    from .geometry import Point, Polygon
    from .state import BattleState, UnitState

_NOWHERE: frozenset[str] = frozenset()

_UNASKED = object()
"""``building_at``'s mark of a point not asked about yet (None is an answer: no building)."""

SightPieces = tuple[
    "list[tuple[str, Polygon]]",
    "list[tuple[str, Polygon]]",
    frozenset[str],
    frozenset[str],
    "list[tuple[str, Polygon]]",
    "list[tuple[str, Polygon, float, float, float, float]]",
]
"""The pieces of a table as sight asks about them: the sight-blocking pieces (terrain, then the
standing buildings), the standing buildings, their ids, the pieces whose occupants always see
each other (rubble fields and buildings), the rubble fields that block no sight, and each
blocker with its bounding box widened by EPSILON (``Polygon.near_box``)."""


class Sight:
    """Sight questions about one battle, cached until the terrain changes."""

    def __init__(self, state: BattleState) -> None:
        self.state = state
        self._version = -1
        self._blockers: list[tuple[str, Polygon]] = []
        # Each blocker's bounding box widened by EPSILON (``Polygon.near_box``).
        self._boxes: list[tuple[str, Polygon, float, float, float, float]] = []
        self._buildings: list[tuple[str, Polygon]] = []
        self._standing: frozenset[str] = _NOWHERE
        # Pieces whose occupants always see each other: rubble fields and buildings.
        self._mutual: frozenset[str] = _NOWHERE
        # Rubble fields that block no sight: no cover, but their occupants see each other too.
        self._open_fields: list[tuple[str, Polygon]] = []
        self._in_open_field: dict[Point, frozenset[str]] = {}
        # Stretches where two sight-blocking pieces meet edge to edge (``geometry.seams``).
        self._seams: list[tuple[str, str, Point, Point]] = []
        # Each piece's and standing building's joints with any other piece (E34).
        self._joints: dict[str, tuple[tuple[Point, Point], ...]] = {}
        self._lines: dict[tuple[Point, Point], bool] = {}
        self._inside: dict[Point, frozenset[str]] = {}
        self._building_at: dict[Point, str | None] = {}

    def _refresh(self) -> None:
        if self._version == self.state.terrain_version:
            return
        self._version = self.state.terrain_version
        tables = self.state.scenario.tables
        if self._version == 0:
            # Every building standing: the scenario's own table, whose answers its battles share.
            self._lines = tables.opening_sight_lines
            self._inside = tables.opening_pieces_at
            self._building_at = tables.opening_building_at
        else:
            self._lines, self._inside, self._building_at = {}, {}, {}
        self._in_open_field.clear()
        opening = self._version == 0
        # The opening table's pieces are the scenario's, shared by its battles: read, never
        # changed.
        pieces = tables.opening_sight_pieces if opening else None
        if pieces is None:
            pieces = self._pieces()
            if opening:
                tables.opening_sight_pieces = pieces
        (
            self._blockers,
            self._buildings,
            self._standing,
            self._mutual,
            self._open_fields,
            self._boxes,
        ) = pieces
        found = tables.opening_seams if opening else None
        if found is None:
            ids = [i for i, _ in self._blockers]
            polygons = [poly for _, poly in self._blockers]
            found = [(ids[i], ids[j], c, d) for i, j, c, d in seams(polygons)]
            if opening:
                tables.opening_seams = found
        self._seams = found
        joints = tables.opening_joints if opening else None
        if joints is None:
            joints = joints_by_piece(
                [(t.id, t.polygon) for t in self.state.terrain] + self._buildings
            )
            if opening:
                tables.opening_joints = joints
        self._joints = joints

    def _pieces(self) -> SightPieces:
        """The table's pieces as sight asks about them (``SightPieces``)."""
        blockers = [(t.id, t.polygon) for t in self.state.terrain if t.props.blocks_sight]
        standing = [(b.id, b.polygon) for b in self.state.buildings.values() if not b.collapsed]
        fallen = self.state.buildings
        rubble = kind_defaults("rubble")
        fields = [
            t for t in self.state.terrain if t.id in fallen or kind_defaults(t.kind) is rubble
        ]
        blockers += standing
        return (
            blockers,
            standing,
            frozenset(i for i, _ in standing),
            frozenset([i for i, _ in standing] + [t.id for t in fields if t.props.blocks_sight]),
            [(t.id, t.polygon) for t in fields if not t.props.blocks_sight],
            [(i, poly, *poly.near_box) for i, poly in blockers],
        )

    def joints(self) -> dict[str, tuple[tuple[Point, Point], ...]]:
        """Each terrain piece's and standing building's joints (``joints_by_piece``)."""
        if self._version != self.state.terrain_version:
            self._refresh()
        return self._joints

    def holds(self, piece: str, polygon: Polygon, p: Point) -> bool:
        """Whether the piece (terrain or a standing building) ``piece`` with footprint
        ``polygon`` holds ``p``: strictly inside it, or on one of its joints, which is inside
        both pieces it joins (E34). Its outer edge is outside (E1)."""
        if self._version != self.state.terrain_version:
            self._refresh()
        return self._held(piece, polygon, p)

    def _held(self, piece: str, polygon: Polygon, p: Point) -> bool:
        """``holds``, for callers that have brought the pieces up to date already."""
        if polygon.contains_strictly(p):
            return True
        found = self._joints.get(piece)
        return found is not None and on_joint(p, found)

    def outlines(self) -> list[Polygon]:
        """The sight-blocking pieces as they stand: terrain, and the buildings standing."""
        if self._version != self.state.terrain_version:
            self._refresh()
        return [poly for _, poly in self._blockers]

    def pieces_at(self, p: Point) -> frozenset[str]:
        """Ids of the sight-blocking pieces (terrain, standing buildings) holding ``p``
        (``holds``)."""
        if self._version != self.state.terrain_version:
            self._refresh()
        found = self._inside.get(p)
        if found is None:
            # Worked out apart: the names a search over the pieces reads would be made afresh
            # at every call here, kept answer or not.
            found = self._holding(p)
            keep(self._inside, p, found or _NOWHERE)
        return found

    def _holding(self, p: Point) -> frozenset[str]:
        """``pieces_at``, worked out. A piece whose widened box leaves ``p`` out does not hold
        it (``Polygon._locate`` rejects it so): only a joint may lie a hair beyond, so only a
        piece with joints is asked whatever its box, and the others without the calls asking
        would cost."""
        x, y = p
        joints = self._joints
        return frozenset(
            i
            for i, poly, x0, y0, x1, y1 in self._boxes
            if ((x0 <= x <= x1 and y0 <= y <= y1) or i in joints) and self._held(i, poly, p)
        )

    def building_at(self, p: Point) -> str | None:
        """Id of the first standing building (in scenario order) holding ``p`` (``holds``):
        on the wall two share, the one listed first."""
        if self._version != self.state.terrain_version:
            self._refresh()
        # ``get`` with a mark rather than catching KeyError: a raised error costs far more
        # than the lookup, and a new point is asked about often in a battle's first turns.
        kept = self._building_at.get(p, _UNASKED)
        if kept is not _UNASKED:
            return kept  # type: ignore[return-value]
        found = None
        for i, poly in self._buildings:
            if self._held(i, poly, p):
                found = i
                break
        keep(self._building_at, p, found)
        return found

    def buildings_at(self, p: Point) -> frozenset[str]:
        """Ids of every standing building holding ``p`` (``holds``): two, on a wall they share."""
        found = self.pieces_at(p)
        return found & self._standing if found else _NOWHERE

    def line_clear(self, a: Point, b: Point) -> bool:
        """Whether the string from ``a`` to ``b`` crosses no sight-blocking piece."""
        if self._version != self.state.terrain_version:
            self._refresh()
        # One orientation is always the one measured, so the answer cannot depend on which
        # end happened to be asked about first.
        if b < a:
            a, b = b, a
        key = (a, b)
        clear = self._lines.get(key)
        if clear is None:
            ina, inb = self.pieces_at(a), self.pieces_at(b)
            # In the same rubble field or building they see each other; anywhere else (the same
            # wood or hill included) only past the pieces holding neither of them.
            clear = (
                not (ina & inb).isdisjoint(self._mutual)
                or self._in_one_open_field(a, b)
                or self._measure(a, b, ina | inb)
            )
            keep(self._lines, key, clear)
        return clear

    def _open_fields_at(self, p: Point) -> frozenset[str]:
        """Ids of the rubble fields that block no sight holding ``p`` (``holds``)."""
        found = self._in_open_field.get(p)
        if found is None:
            found = frozenset(i for i, poly in self._open_fields if self._held(i, poly, p))
            self._in_open_field[p] = found or _NOWHERE
        return found

    def _in_one_open_field(self, a: Point, b: Point) -> bool:
        """Whether both points lie in one rubble field that blocks no sight: they see each other
        there as in any rubble field, whatever lies between (a wood within it)."""
        if not self._open_fields:
            return False
        return not self._open_fields_at(a).isdisjoint(self._open_fields_at(b))

    def _measure(self, a: Point, b: Point, holding: frozenset[str]) -> bool:
        """No blocker but those ``holding`` an end is crossed by a-b (``a`` has the lower x)."""
        ax, ay = a
        bx, by = b
        lo_y, hi_y = (ay, by) if ay <= by else (by, ay)
        for i, poly, x0, y0, x1, y1 in self._boxes:
            # Far-away pieces are rejected here, before any call, exactly as crossed_by would.
            if bx < x0 or ax > x1 or hi_y < y0 or lo_y > y1 or i in holding:
                continue
            if poly.crossed_by(a, b):
                return False
        # Two pieces laid edge to edge block along their joint as one piece would.
        for i, j, c, d in self._seams:
            if i not in holding and j not in holding and runs_along(a, b, c, d):
                return False
        return True

    def sees(self, a: UnitState, b: UnitState, a_pos: Point | None = None) -> bool:
        """Whether unit ``a`` (optionally standing at ``a_pos``) has a clear line to unit ``b``."""
        if a.aerial or b.aerial:
            return True  # Aerial: never blocked.
        return self.line_clear(a_pos or a.position, b.position)

    def same_piece(self, a: Point, b: Point) -> bool:
        """Whether both points lie inside one sight-blocking piece, or one rubble field (which
        lets its occupants see each other, concealed or not, even when it blocks no sight)."""
        if not self.pieces_at(a).isdisjoint(self.pieces_at(b)):
            return True
        if self._version != self.state.terrain_version:
            self._refresh()
        return self._in_one_open_field(a, b)

    def in_one_piece(self, a: UnitState, b: UnitState, a_pos: Point | None = None) -> bool:
        """Whether units ``a`` (optionally at ``a_pos``) and ``b`` stand in one sight-blocking
        piece. An Aerial unit flies over terrain and buildings, so it is never in one."""
        if a.aerial or b.aerial:
            return False
        return self.same_piece(a_pos or a.position, b.position)

    def pieces_of(self, unit: UnitState) -> frozenset[str]:
        """The sight-blocking pieces the unit stands in: none for an Aerial unit."""
        if unit.aerial:
            return _NOWHERE
        return self.pieces_at(unit.position)

    def pieces_held(self, units: Iterable[UnitState]) -> set[str]:
        """The sight-blocking pieces any of the units stands in (``pieces_of`` of each, asked
        of a whole side at every decision: read straight off the kept answers)."""
        if self._version != self.state.terrain_version:
            self._refresh()
        inside = self._inside
        held: set[str] = set()
        for u in units:
            if not u.aerial:
                found = inside.get(u.position)
                held.update(found if found is not None else self.pieces_at(u.position))
        return held

    def hidden(self, unit: UnitState) -> bool:
        """Whether the unit, not being revealed, should be concealed where it stands.

        Inside sight-blocking terrain it is; in the open it is when no enemy has a line to it
        ("everything behind the blocking terrain starts concealed"). Aerial never is.
        """
        if unit.aerial:
            return False
        if self.pieces_at(unit.position):
            return True
        return not self._seen_by_enemy(unit)

    def in_the_open_and_seen(self, unit: UnitState) -> bool:
        """A concealed unit outside any sight-blocking piece with an enemy line to it is spotted."""
        if self.pieces_at(unit.position):
            return False
        return self._seen_by_enemy(unit)

    def _seen_by_enemy(self, unit: UnitState) -> bool:
        st = self.state
        if unit.aerial:
            return bool(st.units_in_battle(st.enemy[unit.side]))
        p = unit.position
        # A loop rather than ``any`` over a generator: asked at the end of most activations.
        for e in st.units_in_battle(st.enemy[unit.side]):
            if e.aerial or self.line_clear(e.position, p):
                return True
        return False
