"""Where a unit might move: the candidate paths the default commander weighs, and their risks.

Toward the order's goal (in full, and stopping short where the target comes into range) and, for
a unit under fire where it stands, into the nearest sight-blocking piece it may enter and (under
heavier fire, with nothing in reach to shoot back at) straight back out of reach: every place
weighed lies within a move of the unit (``Piece.stride``). Every path comes from the view's own
planner (or is a prefix of one, checked by the view), so the engine accepts it. Terrain and
Breaching rolls on the way are priced by their chance of failing.
"""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING

from .. import geometry
from ..geometry import nearest_point
from ..paths import box, boxes_meet, first_entry
from ..tables import keep
from .attacks import reach_here
from .threat import threat

if TYPE_CHECKING:
    from ..geometry import Point
    from .board import Board, Piece
    from .goals import Goal

HAZARD = 0.4
"""Points lost to a failed terrain roll (the activation, and the tempo)."""

UNDER_FIRE = 0.1
"""Share of its Size a unit must stand to lose where it is before it weighs taking cover."""


def candidate_paths(board: Board, u: Piece, goal: Goal) -> list[list[Point]]:
    """Moves worth weighing: toward the goal (in full, and stopping where the target comes into
    range), and under fire into cover and, with nothing to shoot back at, away."""
    view = board.view
    out: list[list[Point]] = []
    full = view.plan_path(u.id, goal.point)
    if full is not None and len(full) >= 2:
        out.append(full)
        length = geometry.path_length(full)
        # Where the target comes into range, rather than driving into its lap.
        stop = _prefix_within(full, goal.point, goal.radius) if goal.target is not None else None
        if stop is not None and 0.3 < stop < length - 0.3:
            prefix = _prefix(full, stop)
            if view.path_cost(u.id, prefix) is not None:
                out.append(prefix)
    # Cover and retreat are for a unit under fire; one out of harm's way makes for its goal.
    here = threat(board, u, u.position, u.info.concealed)
    cover = _cover_spot(board, u, goal) if here > UNDER_FIRE * u.size else None
    if cover is not None:
        path = view.plan_path(u.id, cover)
        if path is not None and len(path) >= 2 and board.hidden_at(u, path[-1]):
            out.append(path)
    if here > 0.25 * u.size and reach_here(board, u).bound <= 0:
        # Under heavy fire with nothing in reach to answer it: getting out of reach may pay. (A
        # unit that can answer fights or takes cover; the move away was seldom its best.)
        away = retreat_point(board, u.position, u.move, board.table)
        if away is not None:
            path = view.plan_path(u.id, away)
            if path is not None and len(path) >= 2:
                out.append(path)
    return out


CrossingKey = tuple[tuple["Point", ...], int, bool, "tuple[int, int] | None"]
"""All that the price of crossing a path depends on, the table aside (``crossing_cost``): the
path, the Skill its rolls are made at (6 and over always passes), Sure-Footed or not (then only
walls ask for a roll), and a Breaching unit's Size and Hits (what a failed breach costs it)."""


def crossing_cost(board: Board, u: Piece, path: list[Point]) -> float:
    """Price of the terrain and Breaching rolls the path asks for, by their chance of failing."""
    if u.aerial or len(path) < 2:
        return 0.0
    # Only the table and these few figures count: a path weighed again (the unit stood still,
    # another unit with the same card, or another battle over the opening table) is priced
    # once, while no building falls.
    key: CrossingKey = (
        tuple(path),
        min(u.skill, 6),
        u.sure,
        (u.size, u.hits) if u.breaching else None,
    )
    kept = board.crossings
    found = kept.get(key)
    if found is None:
        found = keep(kept, key, _crossing_cost(board, u, path))
    return found


def _crossing_cost(board: Board, u: Piece, path: list[Point]) -> float:
    fail = 1.0 - min(u.skill, 6) / 6.0
    around = box(path)
    cost = 0.0
    for poly in _rolling(board, u.sure):
        if boxes_meet(around, poly.bbox) and _enters(path, poly):
            cost += HAZARD * fail
    if u.breaching:
        for b in board.buildings:
            breach = not b.card.admits_size(u.size)
            if breach and boxes_meet(around, b.polygon.bbox) and _enters(path, b.polygon):
                cost += fail * u.size / max(u.hits, 1)
    return cost


def _rolling(board: Board, sure: bool) -> list[geometry.Polygon]:
    """The terrain pieces whose entry asks for a terrain roll (walls even of the Sure-Footed):
    kept while no building falls (its rubble is new terrain)."""
    found = board.rolling.get(sure)
    if found is None:
        found = [
            t.polygon for t in board.view.terrain if t.props.hazard and (t.props.wall or not sure)
        ]
        board.rolling[sure] = found
    return found


def _enters(path: list[Point], polygon: geometry.Polygon) -> bool:
    """Whether the path goes into the polygon (a unit starting inside must leave first)."""
    return first_entry(path, polygon, from_outside=True) is not None


def retreat_point(board: Board, p: Point, reach: float, table: tuple[float, float]) -> Point | None:
    """``reach`` inches from ``p`` straight away from the enemies that can see it."""
    foes = board.foes
    if not foes:
        return None
    sx = sum(e.position[0] for e in foes) / len(foes)
    sy = sum(e.position[1] for e in foes) / len(foes)
    dx, dy = p[0] - sx, p[1] - sy
    norm = (dx * dx + dy * dy) ** 0.5
    if norm < 1e-6:
        return None
    x = min(max(p[0] + dx / norm * reach, 0.2), table[0] - 0.2)
    y = min(max(p[1] + dy / norm * reach, 0.2), table[1] - 0.2)
    return (x, y)


def _cover_spot(board: Board, u: Piece, goal: Goal) -> Point | None:
    """A point just inside the sight-blocking piece within reach that is nearest the goal."""
    if u.aerial:
        return None  # Aerial is never concealed: there is no cover to take.
    best: tuple[float, Point] | None = None
    for spot in _cover_spots(board, u):
        score = geometry.distance(spot, goal.point)
        if best is None or score < best[0]:
            best = (score, spot)
    return None if best is None else best[1]


CoverKey = tuple[str, int, "Point"]
"""What the cover within reach of a unit is kept for, while no building falls
(``Board.cover_spots``): the side (the buildings it may shelter in), the unit's card (its Move and
the pieces it may enter) and where it stands."""


def _cover_spots(board: Board, u: Piece) -> list[Point]:
    """A point just inside each sight-blocking piece within reach of the unit, in the order of
    its shelters (``_shelters``). Only the table, the side, the card and where the unit stands
    count: kept while no building falls, over the opening table for every battle."""
    here = u.position
    key: CoverKey = (board.side, u.no, here)
    kept = board.cover_spots
    found = kept.get(key)
    if found is not None:
        return found
    found = []
    reach = u.move
    hx, hy = here
    near = reach - 0.5
    far = (near + 1e-6) ** 2  # a hair over, so rounding can never rule out a piece in reach
    for poly in _shelters(board, u):
        # The nearest point lies in the bounding box, so a box out of reach rules the piece out
        # before the exact (and much dearer) nearest point is sought.
        x0, y0, x1, y1 = poly.bbox
        dx = max(x0 - hx, 0.0, hx - x1)
        dy = max(y0 - hy, 0.0, hy - y1)
        if near >= 0 and dx * dx + dy * dy > far:
            continue
        if poly.contains_strictly(here):
            continue
        edge = nearest_point(poly, here)
        if geometry.distance(here, edge) > reach - 0.5:
            continue
        c = poly.centroid
        d = geometry.distance(edge, c)
        if d < 1e-6:
            continue
        step = min(0.6, d)
        found.append(
            (
                round(edge[0] + (c[0] - edge[0]) / d * step, 3),
                round(edge[1] + (c[1] - edge[1]) / d * step, 3),
            )
        )
    return keep(kept, key, found)


def _shelters(board: Board, u: Piece) -> list[geometry.Polygon]:
    """The sight-blocking pieces the unit's card may enter, and the standing buildings of no side
    or ours that admit it: kept while no building falls."""
    found = board.shelters.get(u.no)
    if found is None:
        card = u.card
        found = [
            t.polygon
            for t in board.view.terrain
            if t.props.blocks_sight and card.may_enter(t.props)
        ]
        found += [
            b.polygon
            for b in board.buildings
            if b.card.admits_size(u.size) and b.side in (None, board.side)
        ]
        board.shelters[u.no] = found
    return found


def _prefix(path: list[Point], length: float) -> list[Point]:
    """The path cut ``length`` inches along, its end rounded as the log keeps positions."""
    out = [path[0]]
    left = length
    for a, b in pairwise(path):
        leg = geometry.distance(a, b)
        if leg >= left:
            t = left / leg if leg else 0.0
            out.append((round(a[0] + (b[0] - a[0]) * t, 3), round(a[1] + (b[1] - a[1]) * t, 3)))
            return out
        out.append(b)
        left -= leg
    return out


def _prefix_within(path: list[Point], point: Point, radius: float) -> float | None:
    """How far along the path it first comes within ``radius`` of ``point``, if it does."""
    walked = 0.0
    for a, b in pairwise(path):
        leg = geometry.distance(a, b)
        steps = max(1, int(leg / 0.5))
        for i in range(1, steps + 1):
            t = i / steps
            q = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
            if geometry.distance(q, point) <= radius:
                return walked + leg * t
        walked += leg
    return None
