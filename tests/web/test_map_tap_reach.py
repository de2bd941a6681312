"""Which unit a tap on a map names: ``nearestUnit`` in ``battles/static/battles/map-tap.js``
(shared by the replay and the set-up's deployment map), run under Node with fixed circles (in
the map's inches, as the replay gives it the frame shown and its reach of 12 CSS px in inches)."""

from __future__ import annotations

import pytest

from tests.web.node import ROOT, needs_node, node_call

MAP_TAP_JS = ROOT / "battles/static/battles/map-tap.js"


@pytest.fixture(autouse=True)
def _node() -> None:
    needs_node("the maps' tap script")


def _tapped(x, y, units, reach=1.0):
    return node_call(MAP_TAP_JS, "nearestUnit", {"x": x, "y": y}, units, reach)


def _unit(id_, x, y, r=0.4):
    return {"id": id_, "x": x, "y": y, "r": r}


def test_a_tap_beside_a_small_circle_within_reach_of_its_centre_names_it():
    squad = [_unit("squad", 5, 5)]
    assert _tapped(5.7, 5, squad) == "squad"  # off the circle, within reach
    assert _tapped(5, 6.0, squad) == "squad"  # at the reach's edge
    assert _tapped(6.1, 5, squad) is None  # beyond it: as a tap on the empty map


def test_of_two_units_in_reach_the_nearer_circle_wins():
    pair = [_unit("a", 5, 5), _unit("b", 6.6, 5)]
    assert _tapped(5.7, 5, pair) == "a"
    assert _tapped(5.9, 5, pair) == "b"
    # Measured to the circle drawn, not its centre: 0.2 beyond the big one's edge (1.1 from its
    # centre) is nearer than 0.5 beyond the small one's (0.9 from its centre).
    near_big = [_unit("small", 5, 5), _unit("big", 7, 5, r=0.9)]
    assert _tapped(5.6, 5, near_big, reach=1.5) == "small"
    assert _tapped(5.9, 5, near_big, reach=1.5) == "big"


def test_a_big_circle_is_reached_anywhere_on_it():
    big = [_unit("big", 5, 5, r=1.5)]
    assert _tapped(6.4, 5, big) == "big"  # on it, beyond the reach from its centre
    assert _tapped(6.6, 5, big) is None


def test_on_two_circles_drawn_over_each_other_the_one_on_top_wins():
    stacked = [_unit("under", 5, 5, r=0.8), _unit("over", 5.5, 5, r=0.4)]
    assert _tapped(5.3, 5, stacked) == "over"
    assert _tapped(4.5, 5, stacked) == "under"
