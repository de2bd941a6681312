"""Plane geometry for the battle engine: points, directions, terrain polygons and line of sight.

The table is a rectangle in inches (24" x 24" by default, origin at a corner) and a unit is a
point. Terrain pieces are simple polygons. This module answers the engine's geometric questions
about them:

- does a piece of terrain block the line between two points (`sight_blocked`,
  `Polygon.crossed_by`);
- is a target inside a Fixed Mount's front arc (`in_arc`, `bearing`);
- where is the nearest wall of a building (`nearest_point`).

Paths along the table live beside it: measuring and cutting them in `paths`, finding them around
obstacles in `pathfinding`. Pure standard library, on the engine's hot path: polygons precompute
their bounding box and edges.

Tolerance: `EPSILON` (1e-9) is used everywhere, as inches for positions (a point closer than
`EPSILON` to an edge is on that edge) and as radians or degrees for directions.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

Point = tuple[float, float]
CostRegion = tuple["Polygon", float]
"""A region where movement costs ``rate`` inches of Move per inch travelled."""
CostJoint = tuple[Point, Point, float]
"""A stretch c-d where a cost region meets another piece edge to edge: inside the region (E34),
so movement along it costs the region's ``rate`` too."""

EPSILON = 1e-9
_TAU = 2.0 * math.pi


def table_size_text(width: str, height: str) -> str:
    """A table's size as every page and message writes it, from its width and height already
    written as numbers: "24″ × 24″"."""
    return f"{width}\u2033 \u00d7 {height}\u2033"


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


FRONT_ARC = 45.0
"""A Fixed Mount's front arc reaches this many degrees either side of its facing."""


def in_arc(
    origin: Point, facing_degrees: float, target: Point, half_angle: float = FRONT_ARC
) -> bool:
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
    near_box: tuple[float, float, float, float] = field(init=False, repr=False, compare=False)
    """``bbox`` widened by ``EPSILON`` on every side: no point or segment outside it touches the
    polygon, within the tolerance of its tests."""
    area: float = field(init=False, repr=False, compare=False)
    """Enclosed area in square inches."""
    centroid: Point = field(init=False, repr=False, compare=False)
    """Centre of mass of the enclosed area (the vertex average for a degenerate polygon)."""
    _edges: tuple[tuple[float, float, float, float, float], ...] = field(
        init=False, repr=False, compare=False
    )
    _winding: float = field(init=False, repr=False, compare=False)
    _planes: tuple[tuple[float, float, float], ...] | None = field(
        init=False, repr=False, compare=False
    )
    """A convex polygon's edges as half-planes, (nx, ny, c) with nx·x + ny·y + c the signed
    distance inside that edge's line; None for a concave one (``crossed_by``)."""

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
        x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
        object.__setattr__(self, "bbox", (x0, y0, x1, y1))
        near_box = (x0 - EPSILON, y0 - EPSILON, x1 + EPSILON, y1 + EPSILON)
        object.__setattr__(self, "near_box", near_box)
        object.__setattr__(self, "area", abs(twice_area) / 2.0)
        object.__setattr__(self, "centroid", centroid)
        object.__setattr__(self, "_edges", edges)
        winding = 1.0 if twice_area >= 0 else -1.0
        object.__setattr__(self, "_winding", winding)
        object.__setattr__(self, "_planes", _half_planes(points, edges, winding))

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
        x0, y0, x1, y1 = self.near_box
        if x < x0 or x > x1 or y < y0 or y > y1:
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
        x0, y0, x1, y1 = self.near_box
        return not (
            max(a[0], b[0]) < x0
            or min(a[0], b[0]) > x1
            or max(a[1], b[1]) < y0
            or min(a[1], b[1]) > y1
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
        if self._planes is not None:
            clear = _clipped(self._planes, a, b)
            if clear is not None:
                return clear
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
        """True if no two edges meet except adjacent edges at their shared vertex.

        A sweep along x: edges are taken in order of their left end, and each is tested only
        against the edges still open there (those whose x-range reaches it) whose y-range
        overlaps its own, so a pasted ring of many corners costs about n log n, not n².
        """
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
        lo_x = [min(a[0], b[0]) - EPSILON for a, b in edges]
        hi_x = [max(a[0], b[0]) + EPSILON for a, b in edges]
        lo_y = [min(a[1], b[1]) - EPSILON for a, b in edges]
        hi_y = [max(a[1], b[1]) + EPSILON for a, b in edges]
        open_edges: list[int] = []
        for i in sorted(range(n), key=lambda k: lo_x[k]):
            open_edges = [j for j in open_edges if hi_x[j] >= lo_x[i]]
            for j in open_edges:
                if (i - j) % n in (1, n - 1):
                    continue  # adjacent: checked above
                if hi_y[j] < lo_y[i] or hi_y[i] < lo_y[j]:
                    continue
                if _segments_touch(edges[i][0], edges[i][1], edges[j][0], edges[j][1]):
                    return False
            open_edges.append(i)
        return True

    # --- local shape, for the path finder -----------------------------------------------------

    def _sector_at(self, p: Point) -> tuple[float, float] | None:
        """The directions from boundary point p that point into the polygon, as (start, sweep).

        Angles are radians, the sector runs counter-clockwise from start. None if p is not on
        the boundary.
        """
        x0, y0, x1, y1 = self.near_box
        if not (x0 <= p[0] <= x1 and y0 <= p[1] <= y1):
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


DEEP = 1e-6
"""How far from a convex piece's boundary a segment must pass, in or out, for ``crossed_by`` to
settle it by its half-planes: a thousand times ``EPSILON``, beyond every tolerance of the exact
test, so both always agree; anything nearer goes to the exact test."""


def _half_planes(
    points: tuple[Point, ...],
    edges: tuple[tuple[float, float, float, float, float], ...],
    winding: float,
) -> tuple[tuple[float, float, float], ...] | None:
    """The edges of a convex ring as inward half-planes (see ``Polygon._planes``), or None."""
    n = len(points)
    for i in range(n):
        if _cross(points[i - 1], points[i], points[(i + 1) % n]) * winding < -EPSILON:
            return None  # a reflex corner: concave
    planes = []
    for ax, ay, ex, ey, length in edges:
        if length <= EPSILON:
            return None
        # The interior lies on the left of each edge walked counter-clockwise.
        nx, ny = -ey * winding / length, ex * winding / length
        planes.append((nx, ny, -(nx * ax + ny * ay)))
    return tuple(planes)


def _clipped(planes: tuple[tuple[float, float, float], ...], a: Point, b: Point) -> bool | None:
    """Whether a-b crosses the convex piece, when its half-planes settle it; else None.

    True when some point of the segment lies ``DEEP`` inside every edge (so deep in the
    interior: the exact test finds the stretch around it inside), False when no point comes
    within ``DEEP`` of the piece (the exact test finds no contact), None in between.
    """
    ax, ay = a
    bx, by = b
    deep, near = DEEP, -DEEP
    if abs(bx - ax) + abs(by - ay) <= deep:
        return None  # too short to say: the exact test decides
    in_lo, in_hi, near_lo, near_hi = 0.0, 1.0, 0.0, 1.0
    for nx, ny, c in planes:
        sa = nx * ax + ny * ay + c
        sb = nx * bx + ny * by + c
        # Where along a-b the distance inside this edge is at least DEEP (in) and -DEEP (near):
        # the end that falls short of it bounds the stretch from its side.
        if sa < near:
            if sb < near:
                return False
            t = (near - sa) / (sb - sa)
            if t > near_lo:
                near_lo = t
        elif sb < near:
            t = (near - sa) / (sb - sa)
            if t < near_hi:
                near_hi = t
        if sa < deep:
            if sb < deep:
                in_lo, in_hi = 1.0, 0.0
            else:
                t = (deep - sa) / (sb - sa)
                if t > in_lo:
                    in_lo = t
        elif sb < deep:
            t = (deep - sa) / (sb - sa)
            if t < in_hi:
                in_hi = t
    if near_lo > near_hi:
        return False
    if in_lo < in_hi:
        return True
    return None


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


# --- line of sight and measuring ------------------------------------------------------------


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


SEAM_TOLERANCE = 1e-6
"""How far off each other's line two edges may lie and still meet edge to edge (coordinates are
kept to a thousandth of an inch, so edges laid together lie on one line to far better than this)."""

_SEAM_ANGLE = 1e-6
_SEAM_OFFSET = 1e-5
"""Buckets edges are sorted into by their line (radians, inches), coarser than the tolerance."""


def seams(polygons: Sequence[Polygon]) -> list[tuple[int, int, Point, Point]]:
    """(i, j, c, d) for every stretch c-d where polygons i < j meet edge to edge, their insides on
    opposite sides of it.

    Two woods laid side by side are one wood: a string along the joint runs through the middle of
    it, though it crosses the inside of neither (``Sight``). Edges are sorted into buckets by the
    line they lie on, so only edges on one line are compared.
    """
    buckets: dict[tuple[int, int], list[tuple[int, Point, Point]]] = {}
    found: list[tuple[int, int, Point, Point]] = []
    for j, poly in enumerate(polygons):
        for ax, ay, dx, dy, length in poly._edges:
            if length <= EPSILON:
                continue
            ux, uy = dx / length, dy / length
            if ux < 0 or (ux == 0 and uy < 0):
                ux, uy = -ux, -uy  # A line has no direction.
            angle = round(math.atan2(uy, ux) / _SEAM_ANGLE)
            offset = round((ux * ay - uy * ax) / _SEAM_OFFSET)
            a, b = (ax, ay), (ax + dx, ay + dy)
            for da in (-1, 0, 1):
                for do in (-1, 0, 1):
                    for i, c, d in buckets.get((angle + da, offset + do), ()):
                        if i == j:
                            continue
                        shared = _shared_stretch(a, b, c, d)
                        if shared is not None and _apart(polygons[i], poly, *shared):
                            found.append((i, j, *shared))
            buckets.setdefault((angle, offset), []).append((j, a, b))
    return found


def along_span(a: Point, b: Point, c: Point, d: Point) -> tuple[float, float] | None:
    """The stretch (t0, t1) of a-b, of positive length, that runs along c-d, or None."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length2 = dx * dx + dy * dy
    if length2 <= EPSILON * EPSILON:
        return None
    length = math.sqrt(length2)
    for px, py in (c, d):
        if abs(dx * (py - ay) - dy * (px - ax)) > SEAM_TOLERANCE * length:
            return None  # Off the line.
    t0 = ((c[0] - ax) * dx + (c[1] - ay) * dy) / length2
    t1 = ((d[0] - ax) * dx + (d[1] - ay) * dy) / length2
    lo, hi = max(0.0, min(t0, t1)), min(1.0, max(t0, t1))
    if (hi - lo) * length <= EPSILON:
        return None
    return lo, hi


def _shared_stretch(a: Point, b: Point, c: Point, d: Point) -> tuple[Point, Point] | None:
    """The stretch of a-b that c-d runs along, of positive length, or None."""
    span = along_span(a, b, c, d)
    if span is None:
        return None
    return _lerp(a, b, span[0]), _lerp(a, b, span[1])


def _apart(p: Polygon, q: Polygon, c: Point, d: Point) -> bool:
    """Whether ``p`` and ``q`` lie on opposite sides of their shared stretch c-d."""
    dx, dy = d[0] - c[0], d[1] - c[1]
    length = math.hypot(dx, dy)
    nx, ny = -dy / length * SEAM_TOLERANCE, dx / length * SEAM_TOLERANCE
    mx, my = (c[0] + d[0]) / 2, (c[1] + d[1]) / 2
    left, right = (mx + nx, my + ny), (mx - nx, my - ny)
    return (p.contains_strictly(left) and q.contains_strictly(right)) or (
        p.contains_strictly(right) and q.contains_strictly(left)
    )


def insides_meet(p: Polygon, q: Polygon) -> bool:
    """Whether two polygons overlap: some point lies in the interior of both.

    Laid edge to edge, or touching at a corner, they do not. Otherwise an edge of one runs
    through the inside of the other, or neither does and they are one shape (a boundary that
    stays out of the other's inside but encloses some of it can only be the other's boundary),
    so a point inside the one is inside the other: that cheap test goes first.
    """
    (px0, py0, px1, py1), (qx0, qy0, qx1, qy1) = p.bbox, q.bbox
    if px1 <= qx0 + EPSILON or qx1 <= px0 + EPSILON or py1 <= qy0 + EPSILON or qy1 <= py0 + EPSILON:
        return False
    if q.contains_strictly(_inner_point(p)) or p.contains_strictly(_inner_point(q)):
        return True
    for one, other in ((p, q), (q, p)):
        for ax, ay, ex, ey, _ in one._edges:
            a, b = (ax, ay), (ax + ex, ay + ey)
            if other._bbox_meets(a, b) and other.crossed_by(a, b):
                return True
    return False


def _inner_point(poly: Polygon) -> Point:
    """A point in the interior: between the first two crossings of a level line that passes
    between the two lowest heights of corners, so through no corner."""
    low, next_up = sorted({y for _, y in poly.points})[:2]
    y = (low + next_up) / 2.0
    xs = sorted(
        ax + (y - ay) * ex / ey for ax, ay, ex, ey, _ in poly._edges if (ay > y) != (ay + ey > y)
    )
    return ((xs[0] + xs[1]) / 2.0, y)


def joints_by_piece(
    pieces: Sequence[tuple[str, Polygon]],
) -> dict[str, tuple[tuple[Point, Point], ...]]:
    """Each piece's joints, by its id: the stretches of its boundary where another of ``pieces``
    meets it edge to edge, their insides on opposite sides (``seams``)."""
    by_id: dict[str, list[tuple[Point, Point]]] = {}
    for i, j, c, d in seams([poly for _, poly in pieces]):
        by_id.setdefault(pieces[i][0], []).append((c, d))
        by_id.setdefault(pieces[j][0], []).append((c, d))
    return {k: tuple(v) for k, v in by_id.items()}


def on_joint(p: Point, joints: Iterable[tuple[Point, Point]]) -> bool:
    """Whether ``p`` lies on one of the stretches c-d of ``joints`` away from its ends.

    A piece's joint with another is inside it (E34), for whoever stands on it as for a path or a
    string along it; the joint's ends, where it meets the pieces' outer edges, are outside (E1)."""
    return any(
        _on_segment(p, c, d) and math.dist(p, c) > EPSILON and math.dist(p, d) > EPSILON
        for c, d in joints
    )


def runs_along(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Whether segment a-b runs along segment c-d for a positive length."""
    return _shared_stretch(a, b, c, d) is not None


def nearest_point(poly: Polygon, p: Point) -> Point:
    """The point of ``poly`` (boundary included) nearest to ``p``; ``p`` itself if inside.

    A building is large: a tape measure goes to its nearest wall, not to its centre.
    """
    if poly.contains(p):
        return p
    best: Point = p
    best_d = math.inf
    pts = poly.points
    px, py = p
    for i in range(len(pts)):
        ax, ay = pts[i]
        bx, by = pts[(i + 1) % len(pts)]
        dx, dy = bx - ax, by - ay
        L2 = dx * dx + dy * dy
        t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / L2))
        qx, qy = ax + t * dx, ay + t * dy
        d = (qx - px) ** 2 + (qy - py) ** 2
        if d < best_d:
            best_d, best = d, (qx, qy)
    return best


# --- the log's precision -------------------------------------------------------------------

PRECISION = 3
"""Decimals kept for every coordinate and distance in the log (a thousandth of an inch)."""


def rnd(x: float) -> float:
    """Round a float for the log; ``+ 0.0`` turns -0.0 into 0.0 so the JSON is stable."""
    return round(x, PRECISION) + 0.0


def inches_shown(x: float, toward: Callable[[float], int]) -> str:
    """``x`` in the log's thousandths of an inch, turned to a whole thousandth by ``toward``
    (``math.ceil`` or ``math.floor``), trailing zeros dropped: "4", "4.001". A refusal that
    weighs one number against another shows the larger rounded up and the smaller down, so a
    path costing a hair over the 4" left never reads as costing 4"."""
    # Rounded first to well under a thousandth: 4.001 is 4000.9999999999995 thousandths.
    n = toward(round(x * 10.0**PRECISION, 6))
    return f"{n / 10.0**PRECISION:.{PRECISION}f}".rstrip("0").rstrip(".")


def rnd_point(p: Point) -> Point:
    return (rnd(p[0]), rnd(p[1]))


def rnd_facing(degrees: float) -> float:
    """A direction as the log keeps it: rounded like every number of the log, in [0, 360) (a
    tiny negative angle, or one a hair under 360, comes to 0)."""
    return rnd(degrees % 360.0) % 360.0
