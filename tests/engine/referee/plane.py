"""Plane geometry for the referee, written for it alone: points, polygons, segments.

A point on a polygon's outer edge is outside it (the rules' edge ruling, E1); "inside" is
strictly inside, and "within" adds its joints with other polygons, which are inside both (E34).
Every answer that depends on a hair's breadth is given with the margin it was won by, so the
referee can leave a case it cannot call with certainty to the engine.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

Point = tuple[float, float]
Ring = Sequence[Point]

TOUCH = 1e-9
"""Closer than this to an edge is on the edge."""


def dist(a: Point, b: Point) -> float:
    return math.hypot(b[0] - a[0], b[1] - a[1])


def bearing(a: Point, b: Point) -> float:
    """Degrees counter-clockwise from +x, in [0, 360)."""
    return math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])) % 360.0


def _edges(ring: Ring):
    n = len(ring)
    for i in range(n):
        yield ring[i], ring[(i + 1) % n]


def _seg_dist(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    L2 = dx * dx + dy * dy
    t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / L2))
    return math.hypot(a[0] + t * dx - p[0], a[1] + t * dy - p[1])


def edge_distance(ring: Ring, p: Point) -> float:
    """How far ``p`` is from the polygon's boundary."""
    return min(_seg_dist(p, a, b) for a, b in _edges(ring))


def _crossings(ring: Ring, p: Point) -> bool:
    x, y = p
    odd = False
    for (ax, ay), (bx, by) in _edges(ring):
        if (ay > y) != (by > y):
            xc = ax + (y - ay) * (bx - ax) / (by - ay)
            if xc > x:
                odd = not odd
    return odd


def inside(ring: Ring, p: Point) -> bool:
    """Strictly inside (a point on an edge is not)."""
    return edge_distance(ring, p) > TOUCH and _crossings(ring, p)


def depth(ring: Ring, p: Point) -> float:
    """Signed distance to the boundary: positive inside, negative outside."""
    d = edge_distance(ring, p)
    return d if _crossings(ring, p) else -d


def nearest_on_boundary(ring: Ring, p: Point) -> Point:
    best, best_d = p, math.inf
    for a, b in _edges(ring):
        dx, dy = b[0] - a[0], b[1] - a[1]
        L2 = dx * dx + dy * dy
        t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / L2))
        q = (a[0] + t * dx, a[1] + t * dy)
        d = dist(p, q)
        if d < best_d:
            best, best_d = q, d
    return best


def along(ring: Ring, step: float) -> list[Point]:
    """Points every ``step`` (or a little less) along the ring's edges, corners included."""
    out = []
    for a, b in _edges(ring):
        n = max(1, math.ceil(dist(a, b) / step))
        out += [(a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n) for k in range(n)]
    return out


def _params(ring: Ring, a: Point, b: Point) -> list[float]:
    """Where along a-b (0..1) it meets the polygon's edges."""
    ts = [0.0, 1.0]
    rx, ry = b[0] - a[0], b[1] - a[1]
    for c, d in _edges(ring):
        sx, sy = d[0] - c[0], d[1] - c[1]
        den = rx * sy - ry * sx
        qx, qy = c[0] - a[0], c[1] - a[1]
        if abs(den) < 1e-15:
            # Parallel: where the edge's ends project onto a-b (collinear overlaps).
            L2 = rx * rx + ry * ry
            if L2 > 0:
                for e in (c, d):
                    ts.append(((e[0] - a[0]) * rx + (e[1] - a[1]) * ry) / L2)
            continue
        t = (qx * sy - qy * sx) / den
        u = (qx * ry - qy * rx) / den
        if -1e-12 <= u <= 1 + 1e-12:
            ts.append(t)
    return sorted(t for t in ts if 0.0 <= t <= 1.0)


def spans_inside(ring: Ring, a: Point, b: Point) -> list[tuple[float, float]]:
    """The stretches (t0, t1) of a-b strictly inside the polygon, merged, in order."""
    ts = _params(ring, a, b)
    out: list[tuple[float, float]] = []
    for t0, t1 in itertools.pairwise(ts):
        if t1 - t0 <= 1e-12:
            continue
        m = (t0 + t1) / 2
        if inside(ring, (a[0] + (b[0] - a[0]) * m, a[1] + (b[1] - a[1]) * m)):
            if out and abs(out[-1][1] - t0) <= 1e-12:
                out[-1] = (out[-1][0], t1)
            else:
                out.append((t0, t1))
    return out


def shifted(a: Point, b: Point, by: float) -> tuple[Point, Point]:
    """Segment a-b moved ``by`` to its left (to its right when negative)."""
    d = dist(a, b)
    nx, ny = -(b[1] - a[1]) / d * by, (b[0] - a[0]) / d * by
    return (a[0] + nx, a[1] + ny), (b[0] + nx, b[1] + ny)


def has_edge_on(ring: Ring, a: Point, b: Point, within: float) -> bool:
    """Whether an edge of the polygon lies on the line a-b (both its ends within ``within``)."""
    d = dist(a, b)
    dx, dy = (b[0] - a[0]) / d, (b[1] - a[1]) / d

    def off(p: Point) -> float:
        return abs(dx * (p[1] - a[1]) - dy * (p[0] - a[0]))

    return any(off(p) <= within and off(q) <= within for p, q in _edges(ring))


def common_length(one: list[tuple[float, float]], other: list[tuple[float, float]]) -> float:
    """The total length (in t) two lists of stretches have in common."""
    return sum(max(0.0, min(a1, b1) - max(a0, b0)) for a0, a1 in one for b0, b1 in other)


def length_inside(ring: Ring, a: Point, b: Point) -> float:
    return sum(t1 - t0 for t0, t1 in spans_inside(ring, a, b)) * dist(a, b)


def path_length(path: Sequence[Point]) -> float:
    return sum(dist(p, q) for p, q in itertools.pairwise(path))


JOINT = 1e-5
"""How far to each side of a segment the referee looks for the pieces of a joint."""


def _merged(spans: list[tuple[float, float]]) -> list[tuple[float, float]]:
    out: list[tuple[float, float]] = []
    for t0, t1 in sorted(spans):
        if out and t0 <= out[-1][1] + 1e-12:
            out[-1] = (out[-1][0], max(out[-1][1], t1))
        else:
            out.append((t0, t1))
    return out


def joint_spans(
    ring: Ring, others: Sequence[Ring], a: Point, b: Point
) -> list[tuple[float, float]]:
    """The stretches of a-b that run along a joint of the polygon with another (E34): the
    polygon just off one side of it and another just off the other side, both at once."""
    if dist(a, b) <= 0 or not has_edge_on(ring, a, b, JOINT):
        return []
    near = [o for o in others if has_edge_on(o, a, b, JOINT)]
    found: list[tuple[float, float]] = []
    for by in (JOINT, -JOINT) if near else ():
        mine = spans_inside(ring, *shifted(a, b, by))
        theirs = [s for o in near for s in spans_inside(o, *shifted(a, b, -by))]
        for p0, p1 in mine:
            for q0, q1 in theirs:
                if min(p1, q1) > max(p0, q0):
                    found.append((max(p0, q0), min(p1, q1)))
    return _merged(found)


def _edge_along(ring: Ring, p: Point, a: Point, b: Point) -> bool:
    """Whether an edge of the polygon runs through ``p`` on the line a-b."""
    d = dist(a, b)
    dx, dy = (b[0] - a[0]) / d, (b[1] - a[1]) / d

    def off(q: Point) -> float:
        return abs(dx * (q[1] - a[1]) - dy * (q[0] - a[0]))

    return any(
        off(c) <= JOINT and off(e) <= JOINT and _seg_dist(p, c, e) <= TOUCH for c, e in _edges(ring)
    )


def within(ring: Ring, p: Point, others: Sequence[Ring] = ()) -> bool:
    """Inside the polygon: strictly, or on a joint of it with one of ``others``, which is inside
    both (E34): an edge of each runs through ``p`` on one line, the polygon just off one side of
    it and the other just off the other side. A joint's ends, on the pieces' outer edges, are
    not; nor is an edge that merely lies inside another piece."""
    if inside(ring, p):
        return True
    if not others or edge_distance(ring, p) > TOUCH:
        return False
    for a, b in _edges(ring):
        d = dist(a, b)
        if d <= 0 or _seg_dist(p, a, b) > TOUCH:
            continue
        meeting = [o for o in others if _edge_along(o, p, a, b)]
        nx, ny = -(b[1] - a[1]) / d * JOINT, (b[0] - a[0]) / d * JOINT
        for sx, sy in ((nx, ny), (-nx, -ny)) if meeting else ():
            mine, theirs = (p[0] + sx, p[1] + sy), (p[0] - sx, p[1] - sy)
            if inside(ring, mine) and any(inside(o, theirs) for o in meeting):
                return True
    return False


def spans_within(
    ring: Ring, others: Sequence[Ring], a: Point, b: Point
) -> list[tuple[float, float]]:
    """Where a-b is inside the polygon: its interior, and its joints with ``others`` (E34)."""
    return _merged(spans_inside(ring, a, b) + joint_spans(ring, others, a, b))


def path_inside(ring: Ring, path: Sequence[Point], others: Sequence[Ring] = ()) -> float:
    """How much of the path runs inside the polygon (strictly, or along a joint with others)."""
    return sum(
        sum(t1 - t0 for t0, t1 in spans_within(ring, others, p, q)) * dist(p, q)
        for p, q in itertools.pairwise(path)
    )


def entries(ring: Ring, path: Sequence[Point], others: Sequence[Ring] = ()) -> list[float]:
    """Distances along the path at which it goes from outside into the polygon's interior (or
    onto a joint of it with one of ``others``, which is inside both: E34).

    A path that starts inside does not enter there; it enters again only after it has left.
    """
    found: list[float] = []
    walked = 0.0
    was_inside = within(ring, path[0], others) if path else False
    for p, q in itertools.pairwise(path):
        step = dist(p, q)
        spans = spans_within(ring, others, p, q) if step > 0 else []
        for i, (t0, _) in enumerate(spans):
            if not (i == 0 and was_inside and t0 <= 1e-12):
                found.append(walked + t0 * step)
        if step > 0:
            was_inside = bool(spans) and spans[-1][1] >= 1 - 1e-12
        walked += step
    return found
