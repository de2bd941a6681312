"""Plane geometry for the battle engine: terrain polygons, line of sight, arcs and movement paths.

The table is a rectangle in inches (24" x 24" by default, origin at a corner) and a unit is a
point. Terrain pieces are simple polygons. This module answers the engine's geometric questions:

- does a piece of terrain block the line between two points (`sight_blocked`);
- is a target inside a Fixed Mount's front arc (`in_arc`, `bearing`);
- what is the shortest path that avoids the pieces a unit may not enter (`PathFinder`), how much of
  it a unit can afford (`truncate_path`, `truncate_path_by_cost`) and where it first enters a
  hazard (`first_entry`).

Pure standard library, on the engine's hot path: polygons precompute their bounding box and edges,
and a `PathFinder` precomputes its visibility graph once per set of obstacles.

Tolerance: `EPSILON` (1e-9) is used everywhere, as inches for positions (a point closer than
`EPSILON` to an edge is on that edge) and as radians or degrees for directions.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import count, pairwise

Point = tuple[float, float]
CostRegion = tuple["Polygon", float]

EPSILON = 1e-9
_TAU = 2.0 * math.pi
# Depth of the frames that stand in for "off the table" when a path hugs the table edge.
_FRAME_DEPTH = 1.0
# A PathFinder forgets its answers past this many (start, goal) pairs rather than grow forever.
_PATH_CACHE_SIZE = 4096


def distance(a: Point, b: Point) -> float:
    """Centre-to-centre distance in inches."""
    return math.dist(a, b)


def path_length(path: Sequence[Point]) -> float:
    """Total length of a polyline; 0.0 for fewer than two points."""
    total = 0.0
    for a, b in pairwise(path):
        total += math.dist(a, b)
    return total


def bearing(origin: Point, target: Point) -> float:
    """Direction from origin to target in degrees in [0, 360): 0 is +x, counter-clockwise."""
    degrees = math.degrees(math.atan2(target[1] - origin[1], target[0] - origin[0])) % 360.0
    # A tiny negative angle rounds up to exactly 360.0 under %, which is outside the range.
    return 0.0 if degrees >= 360.0 else degrees


def in_arc(origin: Point, facing_degrees: float, target: Point, half_angle: float = 45.0) -> bool:
    """True if target lies within ±half_angle of facing, arc edges included (within EPSILON°).

    A target at the origin itself is in arc: it is in base contact, whichever way the unit faces.
    """
    if math.dist(origin, target) <= EPSILON:
        return True
    off = (bearing(origin, target) - facing_degrees + 180.0) % 360.0 - 180.0
    return abs(off) <= half_angle + EPSILON


def _lerp(a: Point, b: Point, t: float) -> Point:
    if t <= 0.0:
        return a
    if t >= 1.0:
        return b
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def _cross(o: Point, a: Point, b: Point) -> float:
    """Twice the signed area of triangle o-a-b: > 0 when o->a->b turns counter-clockwise."""
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _on_segment(p: Point, a: Point, b: Point) -> bool:
    """True if p is within EPSILON of the segment a-b."""
    ex, ey = b[0] - a[0], b[1] - a[1]
    length = math.hypot(ex, ey)
    if length <= EPSILON:
        return math.dist(p, a) <= EPSILON
    wx, wy = p[0] - a[0], p[1] - a[1]
    if abs(wx * ey - wy * ex) > EPSILON * length:
        return False
    along = wx * ex + wy * ey
    return -EPSILON * length <= along <= length * length + EPSILON * length


def _segments_touch(a: Point, b: Point, c: Point, d: Point) -> bool:
    """True if the closed segments a-b and c-d share at least one point (within EPSILON)."""
    d1, d2 = _cross(c, d, a), _cross(c, d, b)
    d3, d4 = _cross(a, b, c), _cross(a, b, d)
    if ((d1 > 0 > d2) or (d1 < 0 < d2)) and ((d3 > 0 > d4) or (d3 < 0 < d4)):
        return True
    return (
        _on_segment(a, c, d) or _on_segment(b, c, d) or _on_segment(c, a, b) or _on_segment(d, a, b)
    )


@dataclass(frozen=True, slots=True)
class Polygon:
    """A simple polygon (convex or concave) such as a terrain piece; vertices in either winding."""

    points: tuple[Point, ...]
    """Vertices in order, without repeating the first at the end."""
    bbox: tuple[float, float, float, float] = field(init=False, repr=False, compare=False)
    """(min x, min y, max x, max y), to reject far-away queries cheaply."""
    area: float = field(init=False, repr=False, compare=False)
    """Enclosed area in square inches."""
    centroid: Point = field(init=False, repr=False, compare=False)
    """Centre of mass of the enclosed area (the vertex average for a degenerate polygon)."""
    _edges: tuple[tuple[float, float, float, float, float], ...] = field(
        init=False, repr=False, compare=False
    )
    _winding: float = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        points = _clean_ring(self.points)
        if len(points) < 3:
            raise ValueError(f"a polygon needs at least 3 distinct vertices, got {points!r}")
        xs = [x for x, _ in points]
        ys = [y for _, y in points]
        edges = tuple(
            (ax, ay, bx - ax, by - ay, math.hypot(bx - ax, by - ay))
            for (ax, ay), (bx, by) in zip(points, points[1:] + points[:1], strict=True)
        )
        twice_area, cx, cy = 0.0, 0.0, 0.0
        for (ax, ay), (bx, by) in zip(points, points[1:] + points[:1], strict=True):
            step = ax * by - bx * ay
            twice_area += step
            cx += (ax + bx) * step
            cy += (ay + by) * step
        if abs(twice_area) > EPSILON:
            centroid = (cx / (3.0 * twice_area), cy / (3.0 * twice_area))
        else:
            centroid = (sum(xs) / len(xs), sum(ys) / len(ys))
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "bbox", (min(xs), min(ys), max(xs), max(ys)))
        object.__setattr__(self, "area", abs(twice_area) / 2.0)
        object.__setattr__(self, "centroid", centroid)
        object.__setattr__(self, "_edges", edges)
        object.__setattr__(self, "_winding", 1.0 if twice_area >= 0 else -1.0)

    @classmethod
    def of(cls, points: Iterable[Sequence[float]]) -> Polygon:
        """Build from any iterable of (x, y) pairs, e.g. lists read from scenario JSON."""
        return cls(tuple((float(p[0]), float(p[1])) for p in points))

    # --- points -------------------------------------------------------------------------------

    def contains(self, p: Point) -> bool:
        """True if p is inside the polygon or on its boundary."""
        return self._locate(p) >= 0

    def contains_strictly(self, p: Point) -> bool:
        """True if p is in the interior: inside and farther than EPSILON from every edge."""
        return self._locate(p) > 0

    def _locate(self, p: Point) -> int:
        """1 inside, 0 on the boundary, -1 outside."""
        x, y = p
        x0, y0, x1, y1 = self.bbox
        if x < x0 - EPSILON or x > x1 + EPSILON or y < y0 - EPSILON or y > y1 + EPSILON:
            return -1
        inside = False
        for ax, ay, ex, ey, length in self._edges:
            wx, wy = x - ax, y - ay
            if abs(wx * ey - wy * ex) <= EPSILON * length:
                along = wx * ex + wy * ey
                if -EPSILON * length <= along <= length * length + EPSILON * length:
                    return 0
            # Crossing number with the half-open rule, so a vertex on the ray counts once.
            if (ay > y) != (ay + ey > y) and x < ax + (y - ay) * ex / ey:
                inside = not inside
        return 1 if inside else -1

    # --- segments -----------------------------------------------------------------------------

    def _bbox_meets(self, a: Point, b: Point) -> bool:
        x0, y0, x1, y1 = self.bbox
        return not (
            max(a[0], b[0]) < x0 - EPSILON
            or min(a[0], b[0]) > x1 + EPSILON
            or max(a[1], b[1]) < y0 - EPSILON
            or min(a[1], b[1]) > y1 + EPSILON
        )

    def _events(self, a: Point, b: Point) -> list[float]:
        """Sorted parameters t in [0, 1] where a + t(b - a) meets the boundary, plus 0 and 1.

        Between two consecutive events the segment is wholly inside or wholly outside, so one
        midpoint test per sub-interval classifies it. Spare events are harmless; missing ones
        are not, hence the generous tolerances.
        """
        ax, ay = a
        dx, dy = b[0] - ax, b[1] - ay
        seg_sq = dx * dx + dy * dy
        seg_len = math.sqrt(seg_sq)
        events = [0.0, 1.0]
        if seg_len <= EPSILON:
            return events
        t_tol = EPSILON / seg_len
        for px, py, ex, ey, length in self._edges:
            wx, wy = px - ax, py - ay
            denom = dx * ey - dy * ex
            if abs(denom) > EPSILON * seg_len * length:
                t = (wx * ey - wy * ex) / denom
                u = (wx * dy - wy * dx) / denom
                u_tol = EPSILON / length
                if -t_tol <= t <= 1.0 + t_tol and -u_tol <= u <= 1.0 + u_tol:
                    events.append(min(1.0, max(0.0, t)))
            elif abs(wx * dy - wy * dx) <= EPSILON * seg_len * (1.0 + length):
                # Parallel and (nearly) on the same line: the overlap's ends are the events, so
                # a segment lying within a long edge still registers as touching it.
                t_p = (wx * dx + wy * dy) / seg_sq
                t_q = ((wx + ex) * dx + (wy + ey) * dy) / seg_sq
                low, high = min(t_p, t_q), max(t_p, t_q)
                if high >= -t_tol and low <= 1.0 + t_tol:
                    events += [min(1.0, max(0.0, low)), min(1.0, max(0.0, high))]
        events.sort()
        return events

    def _inside(
        self, a: Point, b: Point, events: list[float], seg_len: float
    ) -> Iterator[tuple[float, float]]:
        """The sub-intervals (t0, t1) between events, of positive length, in the interior."""
        for t0, t1 in pairwise(events):
            if (t1 - t0) * seg_len > EPSILON and self._locate(_lerp(a, b, (t0 + t1) / 2.0)) > 0:
                yield t0, t1

    def _inside_spans(self, a: Point, b: Point) -> Iterator[tuple[float, float]]:
        """The sub-intervals (t0, t1) of segment a-b, of positive length, in the interior."""
        seg_len = math.dist(a, b)
        if seg_len <= EPSILON or not self._bbox_meets(a, b):
            return iter(())
        return self._inside(a, b, self._events(a, b), seg_len)

    def crossed_by(self, a: Point, b: Point) -> bool:
        """True iff some part of segment a-b of positive length lies in the interior.

        A segment that runs along an edge, touches the boundary or grazes a vertex does not cross.
        """
        return next(self._inside_spans(a, b), None) is not None

    def length_inside(self, a: Point, b: Point) -> float:
        """Length of the part of segment a-b that lies in the interior."""
        return sum(t1 - t0 for t0, t1 in self._inside_spans(a, b)) * math.dist(a, b)

    def entry(self, a: Point, b: Point) -> float | None:
        """Smallest t in [0, 1) at which a + t(b - a) enters the interior, None if it never does.

        If a is already strictly inside, the answer is 0.0. If a is on the boundary and the
        segment goes inwards, it is also 0.0 (the entry is at a).
        """
        span = next(self._inside_spans(a, b), None)
        return span[0] if span else None

    # --- validation ---------------------------------------------------------------------------

    def is_simple(self) -> bool:
        """True if no two edges meet except adjacent edges at their shared vertex."""
        points = self.points
        n = len(points)
        if self.area <= EPSILON:
            return False
        edges = [(points[i], points[(i + 1) % n]) for i in range(n)]
        for i in range(n):
            a, b = edges[i]
            # Adjacent edges share a vertex; they must not fold back along each other.
            c = edges[(i + 1) % n][1]
            if _on_segment(c, a, b) or _on_segment(a, b, c):
                return False
            for j in range(i + 2, n):
                if i == 0 and j == n - 1:
                    continue
                if _segments_touch(a, b, *edges[j]):
                    return False
        return True

    # --- local shape, for the path finder -----------------------------------------------------

    def _sector_at(self, p: Point) -> tuple[float, float] | None:
        """The directions from boundary point p that point into the polygon, as (start, sweep).

        Angles are radians, the sector runs counter-clockwise from start. None if p is not on
        the boundary.
        """
        x0, y0, x1, y1 = self.bbox
        if not (x0 - EPSILON <= p[0] <= x1 + EPSILON and y0 - EPSILON <= p[1] <= y1 + EPSILON):
            return None
        points = self.points
        for i, v in enumerate(points):
            if math.dist(v, p) <= EPSILON:
                after, before = points[(i + 1) % len(points)], points[i - 1]
                if self._winding < 0:
                    after, before = before, after
                start = math.atan2(after[1] - v[1], after[0] - v[0])
                end = math.atan2(before[1] - v[1], before[0] - v[0])
                return start % _TAU, (end - start) % _TAU
        for ax, ay, ex, ey, _ in self._edges:
            if _on_segment(p, (ax, ay), (ax + ex, ay + ey)):
                # The interior is on the left of each edge walked counter-clockwise.
                start = math.atan2(ey, ex) if self._winding > 0 else math.atan2(-ey, -ex)
                return start % _TAU, math.pi
        return None

    def _is_convex_vertex(self, i: int) -> bool:
        """True if the interior angle at vertex i is below 180°: only such corners bend paths."""
        points = self.points
        turn = _cross(points[i - 1], points[i], points[(i + 1) % len(points)])
        return turn * self._winding > EPSILON


def _clean_ring(points: Iterable[Sequence[float]]) -> tuple[Point, ...]:
    """Float pairs with repeated consecutive vertices (and a closing repeat) removed."""
    ring: list[Point] = []
    for p in points:
        q = (float(p[0]), float(p[1]))
        if not ring or math.dist(q, ring[-1]) > EPSILON:
            ring.append(q)
    while len(ring) > 1 and math.dist(ring[0], ring[-1]) <= EPSILON:
        ring.pop()
    return tuple(ring)


# --- line of sight ----------------------------------------------------------------------------


def sight_blocked(a: Point, b: Point, blockers: Iterable[Polygon]) -> bool:
    """True if a-b crosses the interior of a blocker that contains neither a nor b.

    A piece that holds the shooter or the target (boundary included) never blocks that line.
    """
    for piece in blockers:
        if not piece._bbox_meets(a, b):
            continue
        if piece.contains(a) or piece.contains(b):
            continue
        if piece.crossed_by(a, b):
            return True
    return False


# --- paths: length, cost, truncation, hazards -------------------------------------------------


def _cost_pieces(
    a: Point, b: Point, cost_regions: Sequence[CostRegion]
) -> list[tuple[float, float, float]]:
    """Split a-b into (t0, t1, cost per inch) pieces.

    Inside a region a piece costs that region's multiplier per inch; where regions overlap the
    lowest multiplier applies (two overlapping water pieces are still just water).
    """
    touched = [(poly, rate) for poly, rate in cost_regions if poly._bbox_meets(a, b)]
    if not touched or math.dist(a, b) <= EPSILON:
        return [(0.0, 1.0, 1.0)]
    events = sorted({t for poly, _ in touched for t in poly._events(a, b)})
    pieces = []
    for t0, t1 in pairwise(events):
        mid = _lerp(a, b, (t0 + t1) / 2.0)
        rates = [rate for poly, rate in touched if poly._locate(mid) > 0]
        pieces.append((t0, t1, min(rates) if rates else 1.0))
    return pieces


def segment_cost(a: Point, b: Point, cost_regions: Sequence[CostRegion] = ()) -> float:
    """Movement cost of the straight segment a-b: its length, weighted inside cost regions."""
    length = math.dist(a, b)
    if not cost_regions:
        return length
    return sum((t1 - t0) * rate for t0, t1, rate in _cost_pieces(a, b, cost_regions)) * length


def path_cost(path: Sequence[Point], cost_regions: Sequence[CostRegion] = ()) -> float:
    """Movement cost of a polyline: the sum of its segment costs (its length without regions)."""
    total = 0.0
    for a, b in pairwise(path):
        total += segment_cost(a, b, cost_regions)
    return total


def _largest_fraction(fits: Callable[[float], bool], t: float) -> float:
    """The largest fraction in [0, t] that fits, trusting t unless rounding pushed it over."""
    if fits(t):
        return t
    lo, hi = 0.0, t
    for _ in range(64):
        mid = (lo + hi) / 2.0
        if fits(mid):
            lo = mid
        else:
            hi = mid
    return lo


def truncate_path(path: Sequence[Point], max_length: float) -> list[Point]:
    """The prefix of path of length min(total, max_length), ending at an interpolated point.

    The result's path_length never exceeds max_length, even by rounding. [path[0]] if
    max_length <= 0; [] for an empty path.
    """
    if not path:
        return []
    prefix = [path[0]]
    spent = 0.0
    for a, b in pairwise(path):
        step = math.dist(a, b)
        if spent + step <= max_length:
            prefix.append(b)
            spent += step
            continue
        if step > 0.0 and max_length > spent:
            t = _largest_fraction(
                lambda t, a=a, b=b, done=spent: done + math.dist(a, _lerp(a, b, t)) <= max_length,
                (max_length - spent) / step,
            )
            if t > 0.0:
                prefix.append(_lerp(a, b, t))
        break
    return prefix


def truncate_path_by_cost(
    path: Sequence[Point], max_cost: float, cost_regions: Sequence[CostRegion]
) -> list[Point]:
    """Like truncate_path, measuring movement cost (see segment_cost) instead of length.

    The result's path_cost never exceeds max_cost. For Amphibious units pass the water pieces
    with multiplier 0.5.
    """
    if not path:
        return []
    prefix = [path[0]]
    spent = 0.0
    for a, b in pairwise(path):
        step = segment_cost(a, b, cost_regions)
        if spent + step <= max_cost:
            prefix.append(b)
            spent += step
            continue
        length = math.dist(a, b)
        if length > 0.0 and max_cost > spent:
            t = _fraction_for_cost(a, b, max_cost - spent, cost_regions)
            t = _largest_fraction(
                lambda t, a=a, b=b, done=spent: (
                    done + segment_cost(a, _lerp(a, b, t), cost_regions) <= max_cost
                ),
                t,
            )
            if t > 0.0:
                prefix.append(_lerp(a, b, t))
        break
    return prefix


def _fraction_for_cost(
    a: Point, b: Point, budget: float, cost_regions: Sequence[CostRegion]
) -> float:
    """The fraction t of a-b at which the cost of a -> a + t(b - a) reaches budget."""
    length = math.dist(a, b)
    spent = 0.0
    for t0, t1, rate in _cost_pieces(a, b, cost_regions):
        piece = (t1 - t0) * length * rate
        if spent + piece >= budget:
            return t0 + (budget - spent) / (length * rate)
        spent += piece
    return 1.0


def first_entry(
    path: Sequence[Point], polygon: Polygon, *, from_outside: bool = False
) -> tuple[int, Point, float] | None:
    """Where the path first enters the polygon's interior: (segment index, point, distance).

    The distance is measured along the path (length, not cost). A path that starts strictly
    inside enters at once: (0, path[0], 0.0) — unless from_outside is True, in which case the
    first entry after the path has left the interior is reported instead (for a unit that
    starts in rubble: only going back in needs another roll). None if it never enters, and for
    a path of fewer than two points (no movement).
    """
    if len(path) < 2:
        return None
    skipping = polygon.contains_strictly(path[0])
    if skipping and not from_outside:
        return 0, path[0], 0.0
    walked = 0.0
    for index, (a, b) in enumerate(pairwise(path)):
        step = math.dist(a, b)
        if step <= EPSILON:
            walked += step
            continue
        spans = list(polygon._inside_spans(a, b))
        if skipping:
            # Events are clamped, so a stretch that goes on from the segment's start is exactly 0.
            if spans and spans[0][0] == 0.0:
                if spans[0][1] >= 1.0:
                    walked += step
                    continue
                spans = spans[1:]
            skipping = False
        if spans:
            t = spans[0][0]
            return index, _lerp(a, b, t), walked + t * step
        walked += step
    return None


# --- path finding -----------------------------------------------------------------------------


def _frames(bounds: tuple[float, float, float, float]) -> tuple[Polygon, ...]:
    """Four slabs just off the table, so the table edge acts like the edge of an obstacle.

    With them, a piece that touches the table edge seals it: no path slips between the two.
    """
    x0, y0, x1, y1 = bounds
    d = _FRAME_DEPTH
    return (
        Polygon(((x0 - d, y0 - d), (x0, y0 - d), (x0, y1 + d), (x0 - d, y1 + d))),
        Polygon(((x1, y0 - d), (x1 + d, y0 - d), (x1 + d, y1 + d), (x1, y1 + d))),
        Polygon(((x0 - d, y0 - d), (x1 + d, y0 - d), (x1 + d, y0), (x0 - d, y0))),
        Polygon(((x0 - d, y1), (x1 + d, y1), (x1 + d, y1 + d), (x0 - d, y1 + d))),
    )


def _free_wedges(sectors: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """The open directions around a point, given the (start, sweep) sectors that pieces fill.

    Returned as (low, high) angles with low in [0, 2π] and high > low (it may pass 2π). Sectors
    that meet edge to edge leave no gap between them: pieces that touch seal the seam.
    """
    filled: list[tuple[float, float]] = []
    for start, sweep in sectors:
        end = start + sweep
        if end > _TAU:
            filled += [(start, _TAU), (0.0, end - _TAU)]
        else:
            filled.append((start, end))
    filled.sort()
    merged: list[list[float]] = []
    for start, end in filled:
        if merged and start <= merged[-1][1] + EPSILON:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    free = []
    for i, (_, end) in enumerate(merged):
        following = merged[i + 1][0] if i + 1 < len(merged) else merged[0][0] + _TAU
        if following - end > EPSILON:
            free.append((end, following))
    return free


def _squeezes(a: Point, b: Point, touched: Sequence[tuple[Polygon, list[float]]]) -> bool:
    """True if a-b passes between pieces that touch, with one piece on each side of it.

    Each piece alone is only touched (no piece's interior is crossed), so at any point along
    a-b a piece lies wholly on one side; pieces on both sides at once mean the segment runs
    along a shared edge or through a corner where two pieces meet.
    """
    seg_len = math.dist(a, b)
    ux, uy = (b[0] - a[0]) / seg_len, (b[1] - a[1]) / seg_len
    tol = EPSILON / seg_len
    distinct: list[float] = []
    for t in sorted(t for _, events in touched for t in events):
        if not distinct or t - distinct[-1] > tol:
            distinct.append(t)
    # The ends are not checked: standing in such a corner is allowed, passing through is not.
    samples = [t for t in distinct if tol < t < 1.0 - tol]
    samples += [(t0 + t1) / 2.0 for t0, t1 in pairwise(distinct)]
    for t in samples:
        p = _lerp(a, b, t)
        left = right = False
        for piece, _ in touched:
            sector = piece._sector_at(p)
            if sector is None:
                continue
            middle = sector[0] + sector[1] / 2.0
            side = ux * math.sin(middle) - uy * math.cos(middle)
            left = left or side > EPSILON
            right = right or side < -EPSILON
        if left and right:
            return True
    return False


class PathFinder:
    """Shortest movement paths around obstacles on a bounded table; build once, query often.

    A path never crosses the interior of an obstacle and never leaves the bounds. Pieces that
    touch (along an edge, or corner to corner) or that touch the table edge are sealed: a path
    does not squeeze through the zero-width gap between them, though it may slide along their
    outer edges.

    The search runs on a visibility graph over obstacle corners (and cost-region corners),
    precomputed here; each query adds its start and goal and runs A*. Without cost regions the
    result is the exact shortest path. With cost regions it is an approximation (exact
    weighted-region shortest paths are hard): the path may be a little more expensive than the
    true optimum, but the cost reported (`shortest_cost`, `reachable_within`) is always the true
    cost of the path returned, never less.

    A start strictly inside an obstacle (a unit where a building has just collapsed, say) does
    not fail the query: the obstacles holding the start are ignored for that query, so the unit
    walks out (and may walk anywhere within them). The same goes for a start wedged in a sealed
    seam between touching pieces. A goal strictly inside an obstacle, or outside the bounds, is
    unreachable; so is a start outside the bounds.
    """

    def __init__(
        self,
        obstacles: Sequence[Polygon],
        bounds: tuple[float, float, float, float] = (0.0, 0.0, 24.0, 24.0),
        cost_regions: Sequence[CostRegion] = (),
    ) -> None:
        self.obstacles: tuple[Polygon, ...] = tuple(obstacles)
        x0, y0, x1, y1 = (float(v) for v in bounds)
        if not (x0 < x1 and y0 < y1):
            raise ValueError(f"bounds must be (min x, min y, max x, max y), got {bounds!r}")
        self.bounds = (x0, y0, x1, y1)
        self.cost_regions: tuple[CostRegion, ...] = tuple(
            (poly, float(rate)) for poly, rate in cost_regions
        )
        if any(rate <= 0.0 for _, rate in self.cost_regions):
            raise ValueError("a cost region's multiplier must be positive")
        self._min_rate = min([1.0, *(rate for _, rate in self.cost_regions)])
        self._walls = self.obstacles + _frames(self.bounds)
        # Shortest paths bend only at corners they wrap tangentially; with cost regions a path
        # may also bend to reach cheap ground, so nothing is pruned then.
        self._prune = not self.cost_regions
        self._answers: dict[tuple[float, float, float, float], tuple[list[Point], float] | None]
        self._answers = {}
        self._without: dict[tuple[int, ...], PathFinder] = {}
        self._build_graph()

    @staticmethod
    def shared(
        obstacles: Sequence[Polygon],
        bounds: tuple[float, float, float, float] = (0.0, 0.0, 24.0, 24.0),
        cost_regions: Sequence[CostRegion] = (),
    ) -> PathFinder:
        """A finder from a small process-wide cache, for many battles over the same terrain."""
        return _shared_finder(
            tuple(obstacles),
            tuple(float(v) for v in bounds),
            tuple((poly, float(rate)) for poly, rate in cost_regions),
        )

    # --- queries ------------------------------------------------------------------------------

    def shortest_path(self, start: Point, goal: Point) -> list[Point] | None:
        """[start, ..., goal], cheapest by movement cost, or None if the goal is unreachable."""
        found = self._solve(start, goal)
        return list(found[0]) if found else None

    def shortest_cost(self, start: Point, goal: Point) -> float | None:
        """The movement cost of shortest_path(start, goal), or None if unreachable."""
        found = self._solve(start, goal)
        return found[1] if found else None

    def reachable_within(self, start: Point, goal: Point, max_cost: float) -> bool:
        """True if the goal can be reached for at most max_cost (allowing EPSILON of rounding)."""
        found = self._solve(start, goal)
        return found is not None and found[1] <= max_cost + EPSILON

    def cost(self, path: Sequence[Point]) -> float:
        """Movement cost of any path under this finder's cost regions."""
        return path_cost(path, self.cost_regions)

    def _solve(self, start: Point, goal: Point) -> tuple[list[Point], float] | None:
        start = (float(start[0]), float(start[1]))
        goal = (float(goal[0]), float(goal[1]))
        key = (start[0], start[1], goal[0], goal[1])
        if key in self._answers:
            return self._answers[key]
        found = self._solve_afresh(start, goal)
        if len(self._answers) >= _PATH_CACHE_SIZE:
            self._answers.clear()
        self._answers[key] = found
        return found

    def _solve_afresh(self, start: Point, goal: Point) -> tuple[list[Point], float] | None:
        if not (self._in_bounds(start) and self._in_bounds(goal)):
            return None
        holding = tuple(i for i, o in enumerate(self.obstacles) if o._locate(start) > 0)
        if holding:
            return self._ignoring(holding)._solve(start, goal)
        if any(o._locate(goal) > 0 for o in self.obstacles):
            return None
        if math.dist(start, goal) <= EPSILON:
            return [start, goal], path_cost([start, goal], self.cost_regions)
        found = self._search(start, goal)
        if found is None:
            wedged = self._sealing(start)
            if wedged:
                return self._ignoring(wedged)._solve(start, goal)
        return found

    def _in_bounds(self, p: Point) -> bool:
        x0, y0, x1, y1 = self.bounds
        return x0 - EPSILON <= p[0] <= x1 + EPSILON and y0 - EPSILON <= p[1] <= y1 + EPSILON

    def _ignoring(self, indices: tuple[int, ...]) -> PathFinder:
        finder = self._without.get(indices)
        if finder is None:
            kept = [o for i, o in enumerate(self.obstacles) if i not in indices]
            finder = PathFinder(kept, self.bounds, self.cost_regions)
            self._without[indices] = finder
        return finder

    def _sealing(self, p: Point) -> tuple[int, ...]:
        """The obstacles that together leave point p no way out, if it sits in a sealed seam."""
        touching = tuple(i for i, o in enumerate(self.obstacles) if o._sector_at(p) is not None)
        if not touching:
            return ()
        sectors = [s for wall in self._walls if (s := wall._sector_at(p)) is not None]
        return touching if len(sectors) > 1 and not _free_wedges(sectors) else ()

    # --- the visibility graph -----------------------------------------------------------------

    def _build_graph(self) -> None:
        # A taut path bends only at convex obstacle corners; a cheaper one may also bend at any
        # corner of a cost region.
        candidates: list[tuple[Point, tuple[Point, Point] | None]] = []
        for poly in self.obstacles:
            ring = poly.points
            for i, corner in enumerate(ring):
                if poly._is_convex_vertex(i):
                    candidates.append((corner, (ring[i - 1], ring[(i + 1) % len(ring)])))
        for poly, _ in self.cost_regions:
            candidates += [(corner, None) for corner in poly.points]

        self._points: list[Point] = []
        # The corner's two neighbours, for the tangency test; None where it does not apply.
        self._hinges: list[tuple[Point, Point] | None] = []
        # A corner where pieces meet splits into one graph node per open wedge of directions,
        # so a path cannot enter through one wedge and leave through another.
        self._wedges: list[int | list[tuple[float, float, int]]] = []
        self._node_point: list[int] = []
        for corner, hinge in candidates:
            if not self._in_bounds(corner) or any(o._locate(corner) > 0 for o in self.obstacles):
                continue
            if any(math.dist(corner, p) <= EPSILON for p in self._points):
                continue
            sectors = [s for wall in self._walls if (s := wall._sector_at(corner)) is not None]
            index = len(self._points)
            if len(sectors) > 1:
                free = _free_wedges(sectors)
                if not free:
                    continue
                hinge = None
                entry: int | list[tuple[float, float, int]] = []
                for low, high in free:
                    entry.append((low, high, len(self._node_point)))
                    self._node_point.append(index)
            else:
                entry = len(self._node_point)
                self._node_point.append(index)
            self._points.append(corner)
            self._hinges.append(hinge)
            self._wedges.append(entry)

        self._adjacency: list[list[tuple[int, float]]] = [[] for _ in self._node_point]
        points = self._points
        for k in range(len(points)):
            p = points[k]
            for m in range(k + 1, len(points)):
                q = points[m]
                if not (self._tangent(k, q) and self._tangent(m, p)):
                    continue
                node_k, node_m = self._node_toward(k, q), self._node_toward(m, p)
                if node_k is None or node_m is None or self._blocked(p, q):
                    continue
                step = segment_cost(p, q, self.cost_regions)
                self._adjacency[node_k].append((node_m, step))
                self._adjacency[node_m].append((node_k, step))

    def _tangent(self, k: int, other: Point) -> bool:
        """False if the line from corner k to other cuts into the corner's obstacle."""
        hinge = self._hinges[k]
        if hinge is None or not self._prune:
            return True
        corner = self._points[k]
        before, after = hinge
        scale = EPSILON * math.dist(corner, other)
        c1 = _cross(corner, other, before)
        c2 = _cross(corner, other, after)
        tol1 = scale * math.dist(corner, before)
        tol2 = scale * math.dist(corner, after)
        return not ((c1 > tol1 and c2 < -tol2) or (c1 < -tol1 and c2 > tol2))

    def _node_toward(self, k: int, other: Point) -> int | None:
        """The graph node of corner k that a path to or from other uses; None if sealed off."""
        entry = self._wedges[k]
        if isinstance(entry, int):
            return entry
        p = self._points[k]
        angle = math.atan2(other[1] - p[1], other[0] - p[0]) % _TAU
        for low, high, node in entry:
            for turn in (angle - _TAU, angle, angle + _TAU):
                if low - EPSILON <= turn <= high + EPSILON:
                    return node
        return None

    def _blocked(self, a: Point, b: Point) -> bool:
        """True if segment a-b crosses an obstacle's interior or squeezes between pieces."""
        seg_len = math.dist(a, b)
        if seg_len <= EPSILON:
            return False
        lo_x, hi_x = min(a[0], b[0]) - EPSILON, max(a[0], b[0]) + EPSILON
        lo_y, hi_y = min(a[1], b[1]) - EPSILON, max(a[1], b[1]) + EPSILON
        touched = []
        for wall in self._walls:
            x0, y0, x1, y1 = wall.bbox
            if hi_x < x0 or lo_x > x1 or hi_y < y0 or lo_y > y1:
                continue
            events = wall._events(a, b)
            if next(wall._inside(a, b, events, seg_len), None) is not None:
                return True
            if len(events) > 2:
                touched.append((wall, events))
        return len(touched) > 1 and _squeezes(a, b, touched)

    # --- the search ---------------------------------------------------------------------------

    def _search(self, start: Point, goal: Point) -> tuple[list[Point], float] | None:
        points, node_point, regions = self._points, self._node_point, self.cost_regions
        rate = self._min_rate
        goal_node = len(node_point)
        tie = count()
        # Entries: (estimate, tie-break, cost so far, node, parent node or -1, edge checked).
        heap: list[tuple[float, int, float, int, int, bool]] = []
        if not self._blocked(start, goal):
            direct = segment_cost(start, goal, regions)
            if direct <= rate * math.dist(start, goal):
                return [start, goal], direct
            heap.append((direct, next(tie), direct, goal_node, -1, True))
        for k, p in enumerate(points):
            if math.dist(p, start) <= EPSILON:
                # Standing on the corner itself: every wedge of it is open to the start.
                entry = self._wedges[k]
                nodes = [entry] if isinstance(entry, int) else [node for _, _, node in entry]
                heap += [(0.0, next(tie), 0.0, node, -1, True) for node in nodes]
                continue
            if not self._tangent(k, start):
                continue
            node = self._node_toward(k, start)
            if node is None:
                continue
            # Whether the start sees this corner, and at what cost, is worked out only if the
            # search gets there; until then the cheapest conceivable cost stands in.
            step = rate * math.dist(start, p)
            heap.append((step + rate * math.dist(p, goal), next(tie), step, node, -1, False))
        heapq.heapify(heap)

        parents: dict[int, int] = {}
        best: dict[int, float] = {}
        while heap:
            _, _, so_far, node, parent, checked = heapq.heappop(heap)
            if node == goal_node:
                return self._assemble(start, goal, parent, parents)
            if node in parents:
                continue
            k = node_point[node]
            p = points[k]
            if not checked:
                if self._blocked(start, p):
                    continue
                if regions:
                    exact = segment_cost(start, p, regions)
                    estimate = exact + rate * math.dist(p, goal)
                    heapq.heappush(heap, (estimate, next(tie), exact, node, -1, True))
                    continue
            parents[node] = parent
            if math.dist(p, goal) <= EPSILON:
                heapq.heappush(heap, (so_far, next(tie), so_far, goal_node, node, True))
            elif (
                self._tangent(k, goal)
                and self._node_toward(k, goal) == node
                and not self._blocked(p, goal)
            ):
                total = so_far + segment_cost(p, goal, regions)
                heapq.heappush(heap, (total, next(tie), total, goal_node, node, True))
            for neighbour, step in self._adjacency[node]:
                if neighbour in parents:
                    continue
                total = so_far + step
                if total < best.get(neighbour, math.inf):
                    best[neighbour] = total
                    estimate = total + rate * math.dist(points[node_point[neighbour]], goal)
                    heapq.heappush(heap, (estimate, next(tie), total, neighbour, node, True))
        return None

    def _assemble(
        self, start: Point, goal: Point, last: int, parents: dict[int, int]
    ) -> tuple[list[Point], float]:
        corners = []
        node = last
        while node != -1:
            corners.append(self._points[self._node_point[node]])
            node = parents[node]
        path = [start]
        for corner in reversed(corners):
            if math.dist(corner, path[-1]) > EPSILON and math.dist(corner, goal) > EPSILON:
                path.append(corner)
        path.append(goal)
        # Re-measured rather than summed from the graph, so the cost is exactly that of the path.
        return path, path_cost(path, self.cost_regions)


@lru_cache(maxsize=64)
def _shared_finder(
    obstacles: tuple[Polygon, ...],
    bounds: tuple[float, ...],
    cost_regions: tuple[CostRegion, ...],
) -> PathFinder:
    x0, y0, x1, y1 = bounds
    return PathFinder(obstacles, (x0, y0, x1, y1), cost_regions)
