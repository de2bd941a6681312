"""Paths along the table: their movement cost, how much of one a unit can afford, hazards on it.

A path is a polyline of points. Its cost is its length, except inside cost regions (water for an
Amphibious unit) and along their joints with other pieces (inside them too, E34), where each inch
costs the region's rate. A unit short of Move walks a prefix of
its path (`truncate_path`, `truncate_path_by_cost`); entering a hazard on the way is found by
`first_entry`. Finding the path in the first place is `pathfinding`'s job.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from itertools import pairwise

from .geometry import (
    EPSILON,
    CostJoint,
    CostRegion,
    Point,
    Polygon,
    _lerp,
    along_span,
    on_joint,
)


def _cost_pieces(
    a: Point, b: Point, cost_regions: Sequence[CostRegion], joints: Sequence[CostJoint] = ()
) -> list[tuple[float, float, float]]:
    """Split a-b into (t0, t1, cost per inch) pieces.

    Inside a region, or along one of its joints, a piece costs that region's multiplier per inch;
    where regions overlap the lowest multiplier applies (two overlapping water pieces are still
    just water).
    """
    if math.dist(a, b) <= EPSILON:
        return [(0.0, 1.0, 1.0)]
    touched = [(poly, rate) for poly, rate in cost_regions if poly._bbox_meets(a, b)]
    along = [(span, rate) for c, d, rate in joints if (span := along_span(a, b, c, d)) is not None]
    if not touched and not along:
        return [(0.0, 1.0, 1.0)]
    events = {0.0, 1.0}
    events.update(t for poly, _ in touched for t in poly._events(a, b))
    events.update(t for span, _ in along for t in span)
    pieces = []
    for t0, t1 in pairwise(sorted(events)):
        t = (t0 + t1) / 2.0
        mid = _lerp(a, b, t)
        rates = [rate for poly, rate in touched if poly._locate(mid) > 0]
        rates += [rate for (s0, s1), rate in along if s0 <= t <= s1]
        pieces.append((t0, t1, min(rates) if rates else 1.0))
    return pieces


def segment_cost(
    a: Point, b: Point, cost_regions: Sequence[CostRegion] = (), joints: Sequence[CostJoint] = ()
) -> float:
    """Movement cost of the straight segment a-b: its length, weighted inside cost regions and
    along their joints."""
    length = math.dist(a, b)
    if not cost_regions:
        return length
    pieces = _cost_pieces(a, b, cost_regions, joints)
    return sum((t1 - t0) * rate for t0, t1, rate in pieces) * length


def path_cost(
    path: Sequence[Point], cost_regions: Sequence[CostRegion] = (), joints: Sequence[CostJoint] = ()
) -> float:
    """Movement cost of a polyline: the sum of its segment costs (its length without regions)."""
    total = 0.0
    for a, b in pairwise(path):
        total += segment_cost(a, b, cost_regions, joints)
    return total


def _largest_fraction(fits: Callable[[float], bool], t: float) -> float:
    """The largest fraction in [0, t] that fits, trusting t unless rounding pushed it over."""
    if fits(t):
        return t
    lo, hi = 0.0, t
    for _ in range(64):
        mid = (lo + hi) / 2.0
        if mid in (lo, hi):
            # lo and hi are neighbouring floats: every remaining step would land here again and
            # leave them as they are (hi is known not to fit; lo fits, or is still 0.0).
            break
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

            def fits(t: float, a: Point = a, b: Point = b, done: float = spent) -> bool:
                return done + math.dist(a, _lerp(a, b, t)) <= max_length

            t = _largest_fraction(fits, (max_length - spent) / step)
            if t > 0.0:
                prefix.append(_lerp(a, b, t))
        break
    return prefix


def truncate_path_by_cost(
    path: Sequence[Point],
    max_cost: float,
    cost_regions: Sequence[CostRegion],
    joints: Sequence[CostJoint] = (),
) -> list[Point]:
    """Like truncate_path, measuring movement cost (see segment_cost) instead of length.

    The result's path_cost never exceeds max_cost. For Amphibious units pass the water pieces
    with multiplier 0.5, and their joints.
    """
    if not path:
        return []
    prefix = [path[0]]
    spent = 0.0
    for a, b in pairwise(path):
        step = segment_cost(a, b, cost_regions, joints)
        if spent + step <= max_cost:
            prefix.append(b)
            spent += step
            continue
        length = math.dist(a, b)
        if length > 0.0 and max_cost > spent:
            t = _fraction_for_cost(a, b, max_cost - spent, cost_regions, joints)

            def affordable(t: float, a: Point = a, b: Point = b, done: float = spent) -> bool:
                return done + segment_cost(a, _lerp(a, b, t), cost_regions, joints) <= max_cost

            t = _largest_fraction(affordable, t)
            if t > 0.0:
                prefix.append(_lerp(a, b, t))
        break
    return prefix


def _fraction_for_cost(
    a: Point,
    b: Point,
    budget: float,
    cost_regions: Sequence[CostRegion],
    joints: Sequence[CostJoint] = (),
) -> float:
    """The fraction t of a-b at which the cost of a -> a + t(b - a) reaches budget."""
    length = math.dist(a, b)
    spent = 0.0
    for t0, t1, rate in _cost_pieces(a, b, cost_regions, joints):
        piece = (t1 - t0) * length * rate
        if spent + piece >= budget:
            return t0 + (budget - spent) / (length * rate)
        spent += piece
    return 1.0


Box = tuple[float, float, float, float]
"""(min x, min y, max x, max y)."""


def box(path: Sequence[Point]) -> Box:
    """The box around the path, widened by ``EPSILON``: a piece whose own box it misses is one
    the path never enters (``first_entry`` is None)."""
    xs = [q[0] for q in path]
    ys = [q[1] for q in path]
    return (min(xs) - EPSILON, min(ys) - EPSILON, max(xs) + EPSILON, max(ys) + EPSILON)


def boxes_meet(a: Box, b: Box) -> bool:
    """Whether two boxes overlap (edges touching included)."""
    return not (a[2] < b[0] or b[2] < a[0] or a[3] < b[1] or b[3] < a[1])


def first_entry(
    path: Sequence[Point],
    polygon: Polygon,
    *,
    from_outside: bool = False,
    joints: Sequence[tuple[Point, Point]] = (),
) -> tuple[int, Point, float] | None:
    """Where the path first enters the polygon's interior: (segment index, point, distance).

    ``joints`` are the stretches of its boundary where another piece meets it edge to edge: a
    path running along one is inside both (E34), so it enters there too.

    The distance is measured along the path (length, not cost). A path that starts strictly
    inside enters at once: (0, path[0], 0.0) — unless from_outside is True, in which case the
    first entry after the path has left the interior is reported instead (for a unit that
    starts in rubble: only going back in needs another roll). A path starting on a joint starts
    inside. None if it never enters, and for a path of fewer than two points (no movement).
    """
    if len(path) < 2:
        return None
    skipping = polygon.contains_strictly(path[0]) or on_joint(path[0], joints)
    if skipping and not from_outside:
        return 0, path[0], 0.0
    walked = 0.0
    for index, (a, b) in enumerate(pairwise(path)):
        step = math.dist(a, b)
        if step <= EPSILON:
            walked += step
            continue
        spans = list(polygon._inside_spans(a, b))
        if joints:
            spans = _with_joints(spans, a, b, joints)
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


def _with_joints(
    spans: list[tuple[float, float]], a: Point, b: Point, joints: Sequence[tuple[Point, Point]]
) -> list[tuple[float, float]]:
    """The interior stretches of a-b with those running along a joint added, merged in order."""
    extra = [span for c, d in joints if (span := along_span(a, b, c, d)) is not None]
    if not extra:
        return spans
    merged: list[tuple[float, float]] = []
    for t0, t1 in sorted(spans + extra):
        if merged and t0 <= merged[-1][1] + EPSILON:
            merged[-1] = (merged[-1][0], max(merged[-1][1], t1))
        else:
            merged.append((t0, t1))
    return merged
