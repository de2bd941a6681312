"""Properties of battles.engine.geometry on random terrain, checked with hypothesis.

The path finder is also compared with a brute-force search over every corner of every piece.
"""

from __future__ import annotations

import heapq
import math
from itertools import pairwise

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from battles.engine.geometry import Polygon, distance, path_length
from battles.engine.pathfinding import PathFinder
from battles.engine.paths import (
    first_entry,
    path_cost,
    segment_cost,
    truncate_path,
    truncate_path_by_cost,
)

BOUNDED = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

Point = tuple[float, float]

table_coord = st.floats(min_value=0.0, max_value=24.0, allow_nan=False)
table_point = st.tuples(table_coord, table_coord)
size = st.floats(min_value=0.5, max_value=6.0, allow_nan=False)
corner = st.floats(min_value=0.5, max_value=17.0, allow_nan=False)


@st.composite
def rectangles(draw: st.DrawFn) -> Polygon:
    x, y, w, h = draw(corner), draw(corner), draw(size), draw(size)
    return Polygon.of([(x, y), (x + w, y), (x + w, y + h), (x, y + h)])


@st.composite
def ells(draw: st.DrawFn) -> Polygon:
    x, y, w, h = draw(corner), draw(corner), draw(size), draw(size)
    cut = draw(st.floats(min_value=0.2, max_value=0.8))
    points = [(x, y), (x + w, y), (x + w, y + h * cut), (x + w * cut, y + h * cut)]
    points += [(x + w * cut, y + h), (x, y + h)]
    if draw(st.booleans()):
        points.reverse()
    return Polygon.of(points)


@st.composite
def stars(draw: st.DrawFn) -> Polygon:
    """Star-shaped polygons around a centre: convex or concave, always simple."""
    cx = draw(st.floats(min_value=3.5, max_value=20.5))
    cy = draw(st.floats(min_value=3.5, max_value=20.5))
    n = draw(st.integers(min_value=4, max_value=8))
    points = []
    for i in range(n):
        angle = (i + draw(st.floats(min_value=0.0, max_value=0.8))) * 2 * math.pi / n
        radius = draw(st.floats(min_value=0.5, max_value=3.0))
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    poly = Polygon.of(points)
    assume(poly.is_simple())
    return poly


pieces = st.one_of(rectangles(), ells(), stars())
terrain = st.lists(pieces, min_size=0, max_size=6)


def _segment_gap(a: Point, b: Point, c: Point, d: Point) -> float:
    """Distance between segments a-b and c-d (0 if they meet)."""
    if _segments_cross(a, b, c, d):
        return 0.0
    return min(_point_gap(a, c, d), _point_gap(b, c, d), _point_gap(c, a, b), _point_gap(d, a, b))


def _point_gap(p: Point, a: Point, b: Point) -> float:
    ex, ey = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((p[0] - a[0]) * ex + (p[1] - a[1]) * ey) / (ex * ex + ey * ey)))
    return math.dist(p, (a[0] + t * ex, a[1] + t * ey))


def _segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    def side(o: Point, p: Point, q: Point) -> float:
        return (p[0] - o[0]) * (q[1] - o[1]) - (p[1] - o[1]) * (q[0] - o[0])

    return side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0


def _edges(poly: Polygon) -> list[tuple[Point, Point]]:
    ring = poly.points
    return list(zip(ring, ring[1:] + ring[:1], strict=True))


def _apart(obstacles: list[Polygon]) -> bool:
    """True if no two boundaries come within a hair of each other (nesting is fine)."""
    for i, p in enumerate(obstacles):
        for q in obstacles[i + 1 :]:
            for a, b in _edges(p):
                for c, d in _edges(q):
                    if _segment_gap(a, b, c, d) < 1e-6:
                        return False
    return True


def _brute_force_cost(obstacles: list[Polygon], start: Point, goal: Point) -> float | None:
    """Dijkstra over start, goal and every corner, each step checked with crossed_by."""
    nodes = [start, goal]
    for poly in obstacles:
        for p in poly.points:
            inside = any(o.contains_strictly(p) for o in obstacles)
            if 0.0 <= p[0] <= 24.0 and 0.0 <= p[1] <= 24.0 and not inside:
                nodes.append(p)
    best = {0: 0.0}
    heap = [(0.0, 0)]
    done = set()
    while heap:
        cost, i = heapq.heappop(heap)
        if i in done:
            continue
        if i == 1:
            return cost
        done.add(i)
        for j, q in enumerate(nodes):
            if j in done or any(o.crossed_by(nodes[i], q) for o in obstacles):
                continue
            total = cost + distance(nodes[i], q)
            if total < best.get(j, math.inf):
                best[j] = total
                heapq.heappush(heap, (total, j))
    return None


def _free(obstacles: list[Polygon], p: Point) -> bool:
    return not any(o.contains_strictly(p) for o in obstacles)


# --- path finding -----------------------------------------------------------------------------


@BOUNDED
@given(terrain, table_point, table_point)
def test_a_found_path_never_crosses_an_obstacle_or_leaves_the_table(obstacles, start, goal):
    # A start inside a piece, or wedged where pieces touch, may walk through them (by design);
    # starts on a boundary are covered by the crafted tests.
    assume(not any(o.contains(start) for o in obstacles))
    path = PathFinder(obstacles).shortest_path(start, goal)
    if path is None:
        return
    assert path[0] == start and path[-1] == goal
    assert all(0.0 <= x <= 24.0 and 0.0 <= y <= 24.0 for x, y in path)
    for a, b in pairwise(path):
        assert not any(o.crossed_by(a, b) for o in obstacles), (a, b)


@BOUNDED
@given(terrain, table_point, table_point)
def test_a_path_costs_at_least_the_straight_line_and_exactly_that_when_it_is_clear(
    obstacles, start, goal
):
    assume(_free(obstacles, start) and _free(obstacles, goal))
    finder = PathFinder(obstacles)
    cost = finder.shortest_cost(start, goal)
    if cost is None:
        return
    assert cost >= distance(start, goal) - 1e-9
    assert cost == pytest.approx(path_length(finder.shortest_path(start, goal)), abs=1e-12)
    if _apart(obstacles) and not any(o.crossed_by(start, goal) for o in obstacles):
        assert cost == pytest.approx(distance(start, goal), abs=1e-9)


@BOUNDED
@given(
    st.lists(pieces, max_size=5),
    table_point,
    table_point,
)
def test_the_path_finder_agrees_with_a_brute_force_search(obstacles, start, goal):
    # Pieces kept off the table edge and apart from each other: where they touch, the finder
    # seals the seam and the brute force (which checks each piece alone) would slip through.
    assume(_apart(obstacles))
    assume(all(0.0 < x < 24.0 and 0.0 < y < 24.0 for o in obstacles for x, y in o.points))
    assume(_free(obstacles, start) and _free(obstacles, goal))
    expected = _brute_force_cost(obstacles, start, goal)
    found = PathFinder(obstacles).shortest_cost(start, goal)
    if expected is None:
        assert found is None
    else:
        assert found == pytest.approx(expected, abs=1e-7)


@BOUNDED
@given(terrain, st.lists(pieces, min_size=1, max_size=3), table_point, table_point)
def test_with_cost_regions_the_reported_cost_is_true_and_no_worse_than_going_straight(
    obstacles, water, start, goal
):
    assume(not any(o.contains(start) for o in obstacles) and _free(obstacles, goal))
    regions = [(poly, 0.5) for poly in water]
    finder = PathFinder(obstacles, cost_regions=regions)
    path = finder.shortest_path(start, goal)
    if path is None:
        return
    cost = finder.shortest_cost(start, goal)
    assert cost == path_cost(path, regions)
    assert cost >= 0.5 * distance(start, goal) - 1e-9
    for a, b in pairwise(path):
        assert not any(o.crossed_by(a, b) for o in obstacles)
    if _apart(obstacles) and not any(o.crossed_by(start, goal) for o in obstacles):
        assert cost <= segment_cost(start, goal, regions) + 1e-9


# --- polygons ---------------------------------------------------------------------------------


@BOUNDED
@given(pieces, table_point, table_point)
def test_crossing_is_symmetric_and_means_some_length_inside(poly, a, b):
    crossed = poly.crossed_by(a, b)
    assert crossed == poly.crossed_by(b, a)
    assert crossed == (poly.length_inside(a, b) > 0.0)
    assert poly.length_inside(a, b) == pytest.approx(poly.length_inside(b, a), abs=1e-9)
    assert poly.length_inside(a, b) <= distance(a, b) + 1e-9
    assert (poly.entry(a, b) is not None) == crossed


def _near_the_ring(poly: Polygon) -> st.SearchStrategy[Point]:
    """Points on, or a hair off, the polygon's corners and edges: where tolerances decide."""
    ring = poly.points
    marks = list(ring) + [((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) for a, b in _edges(poly)]
    hair = st.sampled_from([0.0, 1e-12, 1e-9, 3e-7, 1e-6, 2e-6, 1e-3])
    return st.builds(
        lambda m, h, sx, sy: (m[0] + sx * h, m[1] + sy * h),
        st.sampled_from(marks),
        hair,
        st.sampled_from([-1.0, 0.0, 1.0]),
        st.sampled_from([-1.0, 0.0, 1.0]),
    )


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_convex_piece_s_half_planes_agree_with_the_exact_crossing(data):
    """``crossed_by`` settles most segments on a convex piece by its half-planes; whatever they
    settle, the exact test (events along the segment, midpoints located) says the same, on
    segments through corners, along edges and a hair either side of them."""
    poly = data.draw(st.one_of(rectangles(), stars()))
    assume(poly._planes is not None)
    ends = st.one_of(table_point, _near_the_ring(poly))
    a, b = data.draw(ends), data.draw(ends)
    exact = next(poly._inside_spans(a, b), None) is not None
    assert poly.crossed_by(a, b) == exact


@BOUNDED
@given(pieces, table_point)
def test_the_interior_lies_within_the_closed_polygon(poly, p):
    if poly.contains_strictly(p):
        assert poly.contains(p)


# --- truncation and hazards -------------------------------------------------------------------

paths = st.lists(table_point, min_size=1, max_size=8)
limits = st.floats(min_value=0.0, max_value=60.0, allow_nan=False)


def _is_prefix(cut: list[Point], path: list[Point]) -> bool:
    """cut is path[:k] plus, perhaps, one point on the segment path[k-1]-path[k]."""
    k = len(cut) - 1
    if cut[:k] != path[:k]:
        return False
    if k < len(path) and cut[k] == path[k]:
        return True
    a, b = path[k - 1], path[k]
    return abs(distance(a, cut[k]) + distance(cut[k], b) - distance(a, b)) <= 1e-9


@BOUNDED
@given(paths, limits)
def test_truncate_path_never_exceeds_the_limit_and_is_a_prefix(path, limit):
    cut = truncate_path(path, limit)
    assert path_length(cut) <= limit
    assert path_length(cut) == pytest.approx(min(path_length(path), limit), abs=1e-9)
    assert _is_prefix(cut, path)


@BOUNDED
@given(paths, limits, st.lists(pieces, max_size=2))
def test_truncate_path_by_cost_never_exceeds_the_budget_and_is_a_prefix(path, budget, water):
    regions = [(poly, 0.5) for poly in water]
    cut = truncate_path_by_cost(path, budget, regions)
    assert path_cost(cut, regions) <= budget
    assert path_cost(cut, regions) == pytest.approx(min(path_cost(path, regions), budget), abs=1e-9)
    assert _is_prefix(cut, path)


@BOUNDED
@given(paths, pieces)
def test_first_entry_lies_on_the_boundary_at_the_distance_walked(path, poly):
    found = first_entry(path, poly)
    if found is None:
        assert not any(poly.crossed_by(a, b) for a, b in pairwise(path))
        return
    index, point, walked = found
    if poly.contains_strictly(path[0]):
        assert found == (0, path[0], 0.0)
        return
    assert poly.contains(point) and not poly.contains_strictly(point)
    assert walked == pytest.approx(path_length([*path[: index + 1], point]), abs=1e-9)
    assert not any(poly.crossed_by(a, b) for a, b in pairwise(path[: index + 1]))
