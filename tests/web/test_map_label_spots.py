"""Where the replay writes a unit's name: clear of place names, markers and other units' names.

The placement is ``placeUnitLabels`` in ``battles/static/battles/replay.js``; these run it under
Node with fixed boxes (in the map's inches, y down), as the replay gives it measured ones.
"""

from __future__ import annotations

import pytest

from tests.web.node import ROOT, needs_node, node_call

REPLAY_JS = ROOT / "battles/static/battles/replay.js"
MAP_MARKERS_JS = ROOT / "battles/static/battles/map-markers.js"


@pytest.fixture(autouse=True)
def _node() -> None:
    needs_node("the replay's script")


def _place(labels, markers, places):
    return node_call(REPLAY_JS, "placeUnitLabels", labels, markers, places)


def _box(x1, y1, x2, y2, **more):
    return {"x1": x1, "y1": y1, "x2": x2, "y2": y2, **more}


def _meets(a, b):
    return a["x1"] < b["x2"] and b["x1"] < a["x2"] and a["y1"] < b["y2"] and b["y1"] < a["y2"]


def _spots(x, y, r=0.6, w=3.6, h=0.9):
    """A unit's name tried below its marker, above, right, left, then a line further out (as
    the replay's declutter gives them)."""
    below = r + 0.45
    return [
        _box(x - w / 2, y + below - 0.8 * h, x + w / 2, y + below + 0.2 * h),
        _box(x - w / 2, y - r - 0.15 - 0.8 * h, x + w / 2, y - r - 0.15 + 0.2 * h),
        _box(x + r + 0.15, y - 0.3 * h, x + r + 0.15 + w, y + 0.7 * h),
        _box(x - r - 0.15 - w, y - 0.3 * h, x - r - 0.15, y + 0.7 * h),
        _box(x - w / 2, y + below + 0.2 * h, x + w / 2, y + below + 1.2 * h),
        _box(x - w / 2, y - r - 0.15 - 1.8 * h, x + w / 2, y - r - 0.15 - 0.8 * h),
    ]


def _marker(x, y, r=0.6, **more):
    return _box(x - r, y - r, x + r, y + r, **more)


def test_a_units_name_moves_off_the_place_names_under_it():
    """On a phone "Scout Car" was written over "chapel" and "south wall B": a unit's name now
    takes the first spot round its marker that no place name is in."""
    scout = _spots(16, 10)
    chapel = _box(15.3, 10.6, 17.7, 11.5)  # just under the marker, where the name went
    wall = _box(14.8, 11.6, 18.4, 12.5)
    got = _place([{"marker": 0, "spots": scout}], [_marker(16, 10)], [chapel, wall])
    assert got["spots"] == [1]  # above its marker
    assert not _meets(scout[1], chapel) and not _meets(scout[1], wall)
    assert got["faded"] == [False, False]


def test_units_names_keep_clear_of_each_other_and_of_other_markers():
    # Two units side by side and a third just below the first: every name finds a free spot.
    at = [(10, 10), (12.5, 10), (10, 12)]
    labels = [{"marker": i, "spots": _spots(x, y)} for i, (x, y) in enumerate(at)]
    markers = [_marker(x, y) for x, y in at]
    got = _place(labels, markers, [])
    chosen = [label["spots"][i] for label, i in zip(labels, got["spots"], strict=True)]
    for i, a in enumerate(chosen):
        assert not any(_meets(a, m) for j, m in enumerate(markers) if j != i), i
        assert not any(_meets(a, b) for b in chosen[i + 1 :]), i


def test_a_place_name_a_unit_stands_on_or_is_named_over_is_faded():
    """Where no spot is clear of place names the unit's name still goes clear of markers and
    names, and the place names it covers fade; so does one a marker stands on, but not for a
    unit already out of the battle (drawn faint itself)."""
    spots = _spots(5, 5)
    # A place name inside every spot (a little smaller, so only the first meets the marker).
    everywhere = [_box(s["x1"] + 0.1, s["y1"] + 0.1, s["x2"] - 0.1, s["y2"] - 0.1) for s in spots]
    got = _place([{"marker": 0, "spots": spots}], [_marker(5, 5)], everywhere)
    assert got["spots"] == [0]
    # Faded: the names the one below meets (the right and left ones reach under it too).
    assert got["faded"] == [True, False, True, True, False, False]
    assert got["faded"] == [_meets(p, spots[0]) for p in everywhere]
    mill = _box(19, 19.6, 21, 20.4)
    standing = _place([], [_marker(20, 20)], [mill])
    gone = _place([], [_marker(20, 20, faint=True)], [mill])
    assert standing["faded"] == [True] and gone["faded"] == [False]


def _spread(markers):
    return node_call(MAP_MARKERS_JS, "spreadMarkers", markers)


def test_a_marker_drawn_on_another_is_moved_off_it_until_both_are_seen():
    """A unit standing on the spot of one drawn before it is drawn to its right, their centres
    three quarters of their radii apart; one beside it, past that, or out of the battle stays
    where it stands, and a faded one moves nobody."""
    big = {"x": 10, "y": 10, "r": 0.7, "faint": False}
    on_it = {"x": 10, "y": 10, "r": 0.6, "faint": False}
    assert _spread([big, on_it]) == [[10, 10], [10.975, 10]]
    # Half an inch above its centre: moved straight up, off it.
    above = {**on_it, "y": 9.5}
    assert _spread([big, above]) == [[10, 10], [10, 9.025]]
    beside = {**on_it, "x": 11}
    assert _spread([big, beside]) == [[10, 10], [11, 10]]
    faded = {**big, "faint": True}
    assert _spread([faded, on_it]) == [[10, 10], [10, 10]]
    assert _spread([big, {**on_it, "faint": True}]) == [[10, 10], [10, 10]]
