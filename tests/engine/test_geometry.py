"""Crafted cases for battles.engine.geometry: polygons, line of sight, arcs, paths, path finding."""

from __future__ import annotations

import math
import subprocess
import sys
from itertools import pairwise
from pathlib import Path

import pytest

from battles.engine.geometry import (
    EPSILON,
    Polygon,
    bearing,
    distance,
    in_arc,
    path_length,
    runs_along,
    seams,
    sight_blocked,
)
from battles.engine.pathfinding import PathFinder
from battles.engine.paths import (
    first_entry,
    path_cost,
    segment_cost,
    truncate_path,
    truncate_path_by_cost,
)

SQUARE = Polygon.of([(2, 2), (4, 2), (4, 4), (2, 4)])
# An L: a 4x4 square with its top-right 3x3 cut away. The reflex corner is at (1, 1).
ELL = Polygon.of([(0, 0), (4, 0), (4, 1), (1, 1), (1, 4), (0, 4)])


def approx(value: float) -> object:
    return pytest.approx(value, abs=1e-9)


def crosses_nothing(path: list[tuple[float, float]], obstacles: list[Polygon]) -> bool:
    return not any(o.crossed_by(a, b) for a, b in pairwise(path) for o in obstacles)


# --- distance, bearing, arcs ------------------------------------------------------------------


def test_it_measures_centre_to_centre():
    assert distance((1, 1), (4, 5)) == 5.0
    assert path_length([]) == 0.0
    assert path_length([(3, 3)]) == 0.0
    assert path_length([(0, 0), (3, 4), (3, 10)]) == 11.0


@pytest.mark.parametrize(
    ("target", "expected"),
    [((1, 0), 0.0), ((0, 1), 90.0), ((-1, 0), 180.0), ((0, -1), 270.0), ((1, 1), 45.0)],
)
def test_it_measures_bearing_counter_clockwise_from_plus_x(target, expected):
    assert bearing((0, 0), target) == approx(expected)


def test_it_keeps_bearing_below_360_for_a_hair_below_the_axis():
    assert 0.0 <= bearing((0, 0), (1, -1e-300)) < 360.0
    assert bearing((2, 2), (2, 2)) == 0.0


def test_it_includes_the_edges_of_a_fixed_mount_arc():
    origin = (10, 10)
    assert in_arc(origin, 0.0, (15, 10))
    assert in_arc(origin, 0.0, (15, 15))  # exactly 45° to the left
    assert in_arc(origin, 0.0, (15, 5))  # exactly 45° to the right
    edge = math.radians(135.0)
    assert in_arc(origin, 90.0, (10 + 3 * math.cos(edge), 10 + 3 * math.sin(edge)))
    assert not in_arc(origin, 0.0, (15, 15.01))
    assert not in_arc(origin, 0.0, (5, 10))


def test_it_wraps_arcs_around_north_of_360():
    assert in_arc((0, 0), 350.0, (10, 1))  # bearing ~5.7°, 15.7° off a facing of 350°
    assert in_arc((0, 0), -10.0, (10, -1))
    assert not in_arc((0, 0), 350.0, (0, 10))


def test_it_counts_a_target_at_the_origin_in_arc():
    assert in_arc((3, 3), 270.0, (3, 3))


def test_it_honours_a_custom_half_angle():
    assert in_arc((0, 0), 0.0, (0, 5), half_angle=90.0)
    assert not in_arc((0, 0), 0.0, (1, 5), half_angle=30.0)


# --- polygons: construction, points -----------------------------------------------------------


def test_it_builds_a_polygon_from_lists_and_drops_a_closing_repeat():
    poly = Polygon.of([[0, 0], [2, 0], [2, 2], [0, 2], [0, 0]])
    assert poly.points == ((0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0))
    assert poly.bbox == (0.0, 0.0, 2.0, 2.0)
    assert poly == Polygon.of([(0, 0), (2, 0), (2, 2), (0, 2)])
    assert hash(poly) == hash(Polygon.of([(0, 0), (2, 0), (2, 2), (0, 2)]))


def test_it_refuses_a_polygon_of_fewer_than_three_vertices():
    with pytest.raises(ValueError, match="3 distinct"):
        Polygon.of([(0, 0), (1, 1), (1, 1)])


def test_it_tells_inside_boundary_and_outside_of_a_square():
    assert SQUARE.contains((3, 3)) and SQUARE.contains_strictly((3, 3))
    assert SQUARE.contains((2, 3)) and not SQUARE.contains_strictly((2, 3))
    assert SQUARE.contains((4, 4)) and not SQUARE.contains_strictly((4, 4))
    assert SQUARE.contains((2, 3 + EPSILON / 10))
    assert not SQUARE.contains((1.99, 3))
    assert not SQUARE.contains((30, 30))


def test_it_leaves_the_pocket_of_an_l_outside():
    assert not ELL.contains((2, 2))
    assert ELL.contains_strictly((0.5, 3))
    assert ELL.contains_strictly((3, 0.5))
    assert ELL.contains((1, 2)) and not ELL.contains_strictly((1, 2))
    assert ELL.contains((1, 1)) and not ELL.contains_strictly((1, 1))


def test_it_computes_area_and_centroid_either_winding():
    assert SQUARE.area == 4.0 and SQUARE.centroid == approx_point((3, 3))
    clockwise = Polygon.of(reversed(ELL.points))
    assert ELL.area == 7.0 and clockwise.area == 7.0
    # Centroid of the L: the 1x4 bar at x=0.5 and the 3x1 foot at (2.5, 0.5), by area.
    expected = ((4 * 0.5 + 3 * 2.5) / 7, (4 * 2 + 3 * 0.5) / 7)
    assert ELL.centroid == approx_point(expected)
    assert clockwise.centroid == approx_point(expected)


def approx_point(p: tuple[float, float]) -> object:
    return pytest.approx(p, abs=1e-9)


@pytest.mark.parametrize(
    ("points", "simple"),
    [
        ([(0, 0), (2, 0), (2, 2), (0, 2)], True),
        (ELL.points, True),
        ([(0, 0), (2, 2), (2, 0), (0, 2)], False),  # bow tie
        ([(0, 0), (4, 0), (4, 4), (2, 0.0), (0, 4)], False),  # a vertex touching an edge
        ([(0, 0), (4, 0), (2, 0), (2, 3)], False),  # an edge folding back along the last
        ([(0, 0), (1, 0), (2, 0)], False),  # no area
    ],
)
def test_it_tells_simple_polygons(points, simple):
    assert Polygon.of(points).is_simple() is simple


# --- polygons: segments -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "crossed"),
    [
        ((0, 3), (6, 3), True),  # straight through
        ((3, 3), (3, 3.5), True),  # wholly inside
        ((3, 3), (8, 3), True),  # from inside out
        ((2, 3), (3, 3), True),  # from the boundary inwards
        ((2, 3), (0, 3), False),  # from the boundary outwards
        ((0, 2), (6, 2), False),  # along an edge and beyond
        ((2, 2), (4, 2), False),  # exactly an edge
        ((2.5, 2), (3.5, 2), False),  # part of an edge
        ((0, 4), (4, 0), False),  # grazing the corner (2, 2)
        ((1, 3), (3, 5), False),  # through the corner (2, 4) only
        ((10, 10), (12, 12), False),  # far away
        ((3, 3), (3, 3), False),  # no length
    ],
)
def test_it_tells_whether_a_segment_crosses_the_interior_of_a_square(a, b, crossed):
    assert SQUARE.crossed_by(a, b) is crossed
    assert SQUARE.crossed_by(b, a) is crossed


@pytest.mark.parametrize(
    ("a", "b", "crossed"),
    [
        ((1, 3), (3, 1), False),  # across the pocket, inner edge to inner edge
        ((3, 3), (1, 1), False),  # into the reflex corner from the pocket
        ((3, 3), (0.5, 0.5), True),  # on through the reflex corner
        ((0.5, 5), (0.5, -1), True),  # down the upright
        ((2, 2), (3, 0), True),  # pocket into the foot
        ((2, 2), (5, 0.5), False),  # grazing the tip of the foot at (4, 1)
        ((1, 1), (1, 4), False),  # along an inner edge
    ],
)
def test_it_tells_whether_a_segment_crosses_the_interior_of_an_l(a, b, crossed):
    assert ELL.crossed_by(a, b) is crossed


def test_it_measures_the_length_inside():
    assert SQUARE.length_inside((0, 3), (6, 3)) == approx(2.0)
    assert SQUARE.length_inside((0, 2), (6, 2)) == 0.0
    assert ELL.length_inside((0.5, 5), (0.5, -1)) == approx(4.0)
    assert ELL.length_inside((-1, 2), (5, 2)) == approx(1.0)  # only the upright; the pocket is out
    assert ELL.length_inside((-1, 0.5), (5, 0.5)) == approx(4.0)


def test_it_finds_where_a_segment_enters():
    assert SQUARE.entry((0, 3), (6, 3)) == approx(1 / 3)
    assert SQUARE.entry((3, 3), (6, 3)) == 0.0  # already inside
    assert SQUARE.entry((2, 3), (6, 3)) == 0.0  # on the boundary, going in
    assert SQUARE.entry((0, 2), (6, 2)) is None  # along the edge
    assert SQUARE.entry((0, 0), (1, 1)) is None
    # Into the L's pocket first, then into the foot at y = 1.
    assert ELL.entry((2, 3), (2, -1)) == approx(0.5)


# --- line of sight ----------------------------------------------------------------------------


def test_it_blocks_sight_through_a_piece_between_shooter_and_target():
    assert sight_blocked((0, 3), (6, 3), [SQUARE])


def test_it_lets_the_piece_holding_the_shooter_or_target_not_block():
    assert not sight_blocked((3, 3), (8, 3), [SQUARE])
    assert not sight_blocked((8, 3), (3, 3), [SQUARE])
    assert not sight_blocked((2, 3), (8, 3), [SQUARE])  # at the edge of the wood counts as in it


def test_it_does_not_block_sight_along_an_edge_or_past_a_corner():
    assert not sight_blocked((0, 2), (6, 2), [SQUARE])
    assert not sight_blocked((0, 4), (4, 0), [SQUARE])


def test_it_blocks_sight_with_a_second_piece_even_when_the_first_holds_the_shooter():
    far_wood = Polygon.of([(6, 2), (8, 2), (8, 4), (6, 4)])
    assert sight_blocked((3, 3), (10, 3), [SQUARE, far_wood])
    assert not sight_blocked((3, 3), (10, 3), [])


# --- truncation, cost, hazards ----------------------------------------------------------------


def test_it_keeps_a_path_that_fits():
    path = [(0, 0), (3, 4), (3, 10)]
    assert truncate_path(path, 11.0) == path
    assert truncate_path(path, 20.0) == path


def test_it_cuts_a_path_at_an_interpolated_point():
    assert truncate_path([(0, 0), (3, 4), (3, 10)], 8.0) == [(0, 0), (3, 4), (3, 7)]
    assert truncate_path([(0, 0), (10, 0)], 2.5) == [(0, 0), (2.5, 0)]


def test_it_cuts_a_path_to_nothing_for_no_movement():
    assert truncate_path([(1, 1), (5, 1)], 0.0) == [(1, 1)]
    assert truncate_path([], 3.0) == []


def test_it_never_lets_rounding_take_a_truncated_path_past_its_limit():
    path = [(0.1 * i, 0.3 * i * i % 1.7) for i in range(40)]
    for limit in (0.1, 0.7, 1.1, 2.3, 3.3, 6.0, 6.000000000000001):
        cut = truncate_path(path, limit)
        assert path_length(cut) <= limit
        assert path_length(cut) == pytest.approx(limit, abs=1e-9)


def test_it_skips_zero_length_steps_when_truncating():
    assert truncate_path([(0, 0), (0, 0), (4, 0)], 1.0) == [(0, 0), (0, 0), (1, 0)]


WATER = Polygon.of([(2, -1), (6, -1), (6, 1), (2, 1)])


def test_it_charges_half_per_inch_in_water_for_amphibious_units():
    regions = [(WATER, 0.5)]
    assert segment_cost((0, 0), (10, 0), regions) == approx(2 + 2 + 4)
    assert path_cost([(0, 0), (4, 0), (10, 0)], regions) == approx(8.0)
    assert segment_cost((0, 5), (10, 5), regions) == 10.0
    assert segment_cost((0, 0), (10, 0)) == 10.0


def test_it_charges_the_lowest_multiplier_where_regions_overlap():
    deep = Polygon.of([(4, -1), (8, -1), (8, 1), (4, 1)])
    regions = [(WATER, 0.5), (deep, 0.75)]
    # x in [0,2] at 1, [2,6] at 0.5 (overlap [4,6] takes the lower), [6,8] at 0.75, [8,10] at 1.
    assert segment_cost((0, 0), (10, 0), regions) == approx(2 + 2 + 1.5 + 2)


def test_it_truncates_by_cost():
    regions = [(WATER, 0.5)]
    cut = truncate_path_by_cost([(0, 0), (10, 0)], 3.0, regions)
    assert cut == [(0, 0), pytest.approx((4.0, 0.0), abs=1e-9)]
    assert path_cost(cut, regions) <= 3.0
    assert truncate_path_by_cost([(0, 0), (10, 0)], 8.0, regions) == [(0, 0), (10, 0)]
    assert truncate_path_by_cost([(0, 0), (10, 0)], 0.0, regions) == [(0, 0)]
    assert truncate_path_by_cost([(0, 0), (10, 0)], 9.0, ()) == [(0, 0), (9.0, 0.0)]


def test_it_finds_where_a_path_first_enters_a_hazard():
    path = [(0, 0), (0, 3), (10, 3)]
    assert first_entry(path, SQUARE) == (1, (2.0, 3.0), approx(5.0))
    assert first_entry([(0, 0), (10, 0)], SQUARE) is None
    assert first_entry([], SQUARE) is None


def test_it_enters_a_hazard_at_a_corner_after_sliding_along_its_edge():
    index, point, walked = first_entry([(0, 2), (3, 2), (3, 10)], SQUARE)
    assert (index, point, walked) == (1, (3.0, 2.0), approx(3.0))


def test_it_reports_a_path_starting_inside_as_entering_at_once_unless_asked_from_outside():
    path = [(3, 3), (8, 3), (8, 3.5), (0, 3.5)]
    assert first_entry(path, SQUARE) == (0, (3, 3), 0.0)
    assert first_entry(path, SQUARE, from_outside=True) == (2, (4.0, 3.5), approx(5 + 0.5 + 4))
    assert first_entry([(3, 3), (8, 3)], SQUARE, from_outside=True) is None


# --- path finding -----------------------------------------------------------------------------


def test_it_goes_straight_when_nothing_is_in_the_way():
    finder = PathFinder([SQUARE])
    assert finder.shortest_path((0, 10), (20, 10)) == [(0, 10), (20, 10)]
    assert finder.shortest_cost((0, 10), (20, 10)) == 20.0


def test_it_slides_along_an_edge_rather_than_detour():
    finder = PathFinder([SQUARE])
    assert finder.shortest_path((0, 2), (6, 2)) == [(0, 2), (6, 2)]


def test_it_goes_round_a_square_by_its_corners():
    finder = PathFinder([SQUARE])
    path = finder.shortest_path((0, 3), (6, 3))
    assert path in ([(0, 3), (2, 2), (4, 2), (6, 3)], [(0, 3), (2, 4), (4, 4), (6, 3)])
    assert finder.shortest_cost((0, 3), (6, 3)) == approx(2 * math.sqrt(5) + 2)


def test_it_walks_into_the_pocket_of_an_l_and_round_its_outside():
    finder = PathFinder([Polygon.of([(x + 10, y + 10) for x, y in ELL.points])])
    assert finder.shortest_path((12, 12), (20, 20)) == [(12, 12), (20, 20)]
    # From inside the pocket to below the foot: round the foot's tip at (14, 11), (14, 10).
    path = finder.shortest_path((12, 12), (12, 8))
    assert path == [(12, 12), (14, 11), (14, 10), (12, 8)]


def test_it_refuses_a_goal_inside_an_obstacle_but_accepts_one_on_its_edge():
    finder = PathFinder([SQUARE])
    assert finder.shortest_path((0, 0), (3, 3)) is None
    assert finder.shortest_path((0, 3), (2, 3)) == [(0, 3), (2, 3)]
    assert finder.shortest_path((6, 3), (2, 3)) is not None
    assert not finder.reachable_within((0, 0), (3, 3), 100.0)


def test_it_lets_a_unit_inside_an_obstacle_walk_out():
    wall = Polygon.of([(6, 0), (7, 0), (7, 5), (6, 5)])
    finder = PathFinder([SQUARE, wall])
    path = finder.shortest_path((3, 3), (10, 3))
    assert path[0] == (3, 3) and path[-1] == (10, 3)
    assert crosses_nothing(path, [wall])
    assert path == [(3, 3), (6, 5), (7, 5), (10, 3)]


def test_it_keeps_a_unit_at_the_edge_of_an_obstacle_out_of_it():
    finder = PathFinder([SQUARE])
    assert finder.shortest_path((2, 3), (6, 3)) in (
        [(2, 3), (2, 2), (4, 2), (6, 3)],
        [(2, 3), (2, 4), (4, 4), (6, 3)],
    )


def test_it_lets_a_unit_wedged_between_a_piece_and_the_table_edge_walk_out_through_it():
    # Standing on the outer wall of a building flush with the table edge, every way out is
    # through the building: it is ignored for this move, as if the unit stood inside it.
    building = Polygon.of([(0, 10), (4, 10), (4, 14), (0, 14)])
    finder = PathFinder([building])
    assert finder.shortest_path((0, 12), (8, 12)) == [(0, 12), (8, 12)]


def test_it_stays_within_the_table():
    # A wall from the table's bottom edge to near its top: the way round is over the top.
    wall = Polygon.of([(10, 0), (11, 0), (11, 20), (10, 20)])
    finder = PathFinder([wall])
    path = finder.shortest_path((5, 5), (15, 5))
    assert path == [(5, 5), (10, 20), (11, 20), (15, 5)]
    assert (
        PathFinder([Polygon.of([(10, 0), (11, 0), (11, 24), (10, 24)])]).shortest_path(
            (5, 5), (15, 5)
        )
        is None
    )


def test_it_does_not_slip_along_the_table_edge_past_a_piece_touching_it():
    wall = Polygon.of([(10, 0), (11, 0), (11, 20), (10, 20)])
    finder = PathFinder([wall])
    assert finder.shortest_path((5, 0), (15, 0)) == [(5, 0), (10, 20), (11, 20), (15, 0)]


def test_it_refuses_starts_and_goals_off_the_table():
    finder = PathFinder([])
    assert finder.shortest_path((-1, 5), (5, 5)) is None
    assert finder.shortest_path((5, 5), (5, 24.5)) is None
    assert finder.shortest_path((0, 0), (24, 24)) == [(0, 0), (24, 24)]


def test_it_does_not_squeeze_between_pieces_sharing_an_edge():
    left = Polygon.of([(5, 5), (10, 5), (10, 10), (5, 10)])
    right = Polygon.of([(10, 5), (15, 5), (15, 10), (10, 10)])
    finder = PathFinder([left, right])
    path = finder.shortest_path((10, 2), (10, 13))
    assert path is not None and len(path) == 4
    assert {path[1][0], path[2][0]} in ({5.0}, {15.0})
    assert finder.shortest_cost((10, 2), (10, 13)) == approx(2 * math.sqrt(25 + 9) + 5)


def test_it_does_not_squeeze_between_pieces_meeting_corner_to_corner():
    lower = Polygon.of([(5, 5), (10, 5), (10, 10), (5, 10)])
    upper = Polygon.of([(10, 10), (15, 10), (15, 15), (10, 15)])
    finder = PathFinder([lower, upper])
    path = finder.shortest_path((9, 11), (11, 9))
    assert path is not None
    assert len(path) > 2
    assert (10.0, 10.0) not in path
    # Round the outside of either square, by three of its corners.
    assert finder.shortest_cost((9, 11), (11, 9)) == approx(
        distance((9, 11), (5, 10)) + 5 + 5 + distance((10, 5), (11, 9))
    )


def test_it_may_touch_the_shared_corner_from_an_open_side():
    lower = Polygon.of([(5, 5), (10, 5), (10, 10), (5, 10)])
    upper = Polygon.of([(10, 10), (15, 10), (15, 15), (10, 15)])
    finder = PathFinder([lower, upper])
    assert finder.shortest_path((8, 12), (10, 10)) == [(8, 12), (10, 10)]
    assert finder.shortest_path((10, 10), (12, 8)) == [(10, 10), (12, 8)]


def test_it_handles_collinear_corners_of_separate_pieces():
    row = [Polygon.of([(x, 10), (x + 2, 10), (x + 2, 12), (x, 12)]) for x in (4, 8, 12)]
    finder = PathFinder(row)
    # Sliding along the shared line y = 10 under all three pieces is fine: they are apart.
    assert finder.shortest_path((2, 10), (16, 10)) == [(2, 10), (16, 10)]
    path = finder.shortest_path((5, 9), (13, 13))
    assert crosses_nothing(path, row)
    assert finder.shortest_cost((5, 9), (13, 13)) == approx(path_length(path))


def test_it_finds_no_way_out_of_a_ring_of_pieces():
    ring = [
        Polygon.of([(5, 5), (15, 5), (15, 6), (5, 6)]),
        Polygon.of([(5, 14), (15, 14), (15, 15), (5, 15)]),
        Polygon.of([(5, 6), (6, 6), (6, 14), (5, 14)]),
        Polygon.of([(14, 6), (15, 6), (15, 14), (14, 14)]),
    ]
    finder = PathFinder(ring)
    assert finder.shortest_path((10, 10), (20, 20)) is None
    assert finder.shortest_path((20, 20), (10, 10)) is None


def test_it_uses_water_to_move_an_amphibious_unit_further():
    river = Polygon.of([(0, 9), (24, 9), (24, 11), (0, 11)])
    finder = PathFinder([], cost_regions=[(river, 0.5)])
    path = finder.shortest_path((2, 10), (22, 10))
    assert path == [(2, 10), (22, 10)]
    assert finder.shortest_cost((2, 10), (22, 10)) == approx(10.0)
    # Just off the river, a detour through it beats the straight line on dry land.
    assert finder.shortest_cost((2, 12), (22, 12)) < 20.0
    path = finder.shortest_path((2, 12), (22, 12))
    assert finder.shortest_cost((2, 12), (22, 12)) == path_cost(path, [(river, 0.5)])


def test_it_reports_the_true_cost_of_the_path_it_returns():
    river = Polygon.of([(8, 0), (12, 0), (12, 24), (8, 24)])
    regions = [(river, 0.5)]
    finder = PathFinder([SQUARE, Polygon.of([(14, 10), (18, 10), (16, 16)])], cost_regions=regions)
    for start, goal in [
        ((1, 3), (20, 20)),
        ((5, 20), (23, 1)),
        ((0, 0), (16, 20)),
        ((1, 1), (23, 5)),
    ]:
        path = finder.shortest_path(start, goal)
        assert finder.shortest_cost(start, goal) == path_cost(path, regions)
        if not any(o.crossed_by(start, goal) for o in finder.obstacles):
            assert finder.shortest_cost(start, goal) <= segment_cost(start, goal, regions)


def test_it_tells_whether_a_goal_is_within_reach():
    finder = PathFinder([SQUARE])
    assert finder.reachable_within((0, 3), (6, 3), 2 * math.sqrt(5) + 2)
    assert not finder.reachable_within((0, 3), (6, 3), 6.4)


def test_it_hands_out_copies_of_cached_paths():
    finder = PathFinder([SQUARE])
    first = finder.shortest_path((0, 3), (6, 3))
    first.append((99, 99))
    assert finder.shortest_path((0, 3), (6, 3))[-1] == (6, 3)


def test_it_refuses_nonsense_bounds_and_multipliers():
    with pytest.raises(ValueError):
        PathFinder([], bounds=(0, 0, 0, 24))
    with pytest.raises(ValueError):
        PathFinder([], cost_regions=[(WATER, 0.0)])


def test_it_imports_only_the_standard_library():
    root = Path(__file__).resolve().parents[2]
    code = (
        "import sys; import battles.engine.geometry; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in {'django', 'celery'}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def test_seams_are_the_stretches_where_two_pieces_meet_edge_to_edge():
    # Slanted, and only part of each edge shared: the seam is the stretch they have in common.
    p = Polygon.of([(0, 0), (4, 4), (0, 4)])  # above the line y = x
    q = Polygon.of([(1, 1), (6, 6), (6, 1)])  # below it
    (found,) = seams([p, q])
    assert found[:2] == (0, 1)
    assert {tuple(round(v, 9) for v in pt) for pt in found[2:]} == {(1, 1), (4, 4)}
    assert runs_along((0, 0), (6, 6), *found[2:])
    assert not runs_along((0, 0.01), (6, 6.01), *found[2:])
    # Overlapping on the same side of a shared edge is no seam; nor is touching at a corner.
    assert seams([p, Polygon.of([(0, 0), (4, 4), (1, 4)])]) == []
    assert seams([p, Polygon.of([(4, 4), (8, 4), (8, 8)])]) == []
