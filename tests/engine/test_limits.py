"""Scenario limits: an oversized paste is refused on its size, before any costly check."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battles.engine import ScenarioError, parse_scenario, parse_scenario_json
from battles.engine.geometry import Polygon, _on_segment, _segments_touch
from battles.engine.validation import (
    MAX_BUILDINGS,
    MAX_CORNERS,
    MAX_DEPTH,
    MAX_DESCRIPTION,
    MAX_OBJECTIVES,
    MAX_SCENARIO_TEXT,
    MAX_TABLE,
    MAX_TERRAIN,
    MAX_TEXT,
    MAX_UNITS_PER_SIDE,
    MAX_WATER_CORNERS,
    MAX_WEAPONS,
)

from .helpers import building, piece, scenario, square, unit


def problems(data) -> list[tuple[str, str]]:
    with pytest.raises(ScenarioError) as exc:
        parse_scenario(data)
    return exc.value.problems


def ring(corners: int, centre=(12.0, 12.0), radius=3.0) -> list[list[float]]:
    return [
        [
            centre[0] + radius * math.cos(2 * math.pi * i / corners),
            centre[1] + radius * math.sin(2 * math.pi * i / corners),
        ]
        for i in range(corners)
    ]


def base() -> dict:
    return scenario([unit("a", (2, 2))], [unit("b", (20, 20))])


def test_a_polygon_at_the_corner_limit_parses_and_one_over_is_refused():
    sc = base()
    sc["terrain"] = [{"id": "wood", "kind": "woods", "polygon": ring(MAX_CORNERS)}]
    assert len(parse_scenario(sc).terrain[0].polygon.points) == MAX_CORNERS
    sc["terrain"][0]["polygon"] = ring(MAX_CORNERS + 1)
    assert problems(sc) == [
        ("terrain[0].polygon", f"at most {MAX_CORNERS} corners, got {MAX_CORNERS + 1}")
    ]


def test_the_issue_s_9000_corner_polygon_is_refused_on_its_count():
    sc = base()
    sc["buildings"] = [building("b", ring(9000), side=None)]
    assert problems(sc) == [("buildings[0].polygon", f"at most {MAX_CORNERS} corners, got 9000")]


def test_too_many_pieces_buildings_objectives_are_refused_before_any_polygon_is_checked():
    sc = base()
    # Every polygon is broken: only the counts are reported, so none was looked at.
    sc["terrain"] = [piece(f"t{i}", "woods", [[0, 0]]) for i in range(MAX_TERRAIN + 1)]
    sc["buildings"] = [building(f"b{i}", [[0, 0]]) for i in range(MAX_BUILDINGS + 1)]
    sc["objectives"] = sc["objectives"] * (MAX_OBJECTIVES + 1)
    assert sorted(problems(sc)) == [
        ("buildings", f"at most {MAX_BUILDINGS} buildings, got {MAX_BUILDINGS + 1}"),
        ("objectives", f"at most {MAX_OBJECTIVES} objectives, got {MAX_OBJECTIVES + 1}"),
        ("terrain", f"at most {MAX_TERRAIN} terrain pieces, got {MAX_TERRAIN + 1}"),
    ]


def test_the_issue_s_1800_woods_are_refused():
    sc = base()
    sc["terrain"] = [
        piece(f"w{i}", "woods", square(i % 24, 8, i % 24 + 0.2, 8.2)) for i in range(1800)
    ]
    assert problems(sc) == [("terrain", f"at most {MAX_TERRAIN} terrain pieces, got 1800")]


def test_units_per_side_are_capped():
    sc = base()
    sc["sides"][1]["units"] = [
        unit(f"r{i}", (1 + i % 20, 20 + i // 20 * 0.5)) for i in range(MAX_UNITS_PER_SIDE + 1)
    ]
    assert problems(sc) == [
        ("sides[1].units", f"at most {MAX_UNITS_PER_SIDE} units, got {MAX_UNITS_PER_SIDE + 1}")
    ]


def test_a_card_holds_at_most_twelve_weapon_lines():
    """The commander works out its odds for every weapon: a card of thousands is refused on its
    count, before any weapon is read; twelve, far past a rule-text card's three, still fight."""
    sc = base()
    card = sc["sides"][0]["units"][0]["card"]
    gun = {"power": 2, "range": 12}
    card["weapons"] = [{"name": f"gun {i}", **gun} for i in range(MAX_WEAPONS)]
    assert len(parse_scenario(sc).sides[0].units[0].card.weapons) == MAX_WEAPONS
    card["weapons"] = [{"name": f"gun {i}", **gun} for i in range(5000)]
    assert problems(sc) == [
        ("sides[0].units[0].card.weapons", "at most 12 weapons on a card, got 5000")
    ]


def test_the_table_is_at_most_eight_feet_a_side():
    sc = base()
    sc["table"] = {"width": MAX_TABLE + 1, "height": 24}
    assert problems(sc) == [("table.width", f"must be at most 96, got {MAX_TABLE + 1}")]


def test_a_description_is_a_string_of_bounded_size():
    sc = base()
    nested: object = "deep"
    for _ in range(600):
        nested = {"d": nested}
    sc["description"] = nested
    assert problems(sc) == [("", f"nested more than {MAX_DEPTH} levels deep")]
    sc["description"] = {"d": "shallow"}
    assert problems(sc) == [("description", "must be a string, got an object")]
    sc["description"] = "x" * (MAX_DESCRIPTION + 1)
    assert problems(sc) == [
        ("description", f"must be at most {MAX_DESCRIPTION} characters, got {MAX_DESCRIPTION + 1}")
    ]
    sc["description"] = "x" * MAX_DESCRIPTION
    parse_scenario(sc)


def test_other_strings_are_bounded_too():
    sc = base()
    sc["name"] = "n" * (MAX_TEXT + 1)
    assert problems(sc) == [("name", f"must be at most {MAX_TEXT} characters, got {MAX_TEXT + 1}")]


def test_a_scenario_as_json_text_is_at_most_200000_characters():
    # Counted before the text is read, as text or as bytes: the one limit the site holds a
    # pasted map to as well (battles.services.scenario_from_text).
    text = json.dumps(base())
    padded = text + " " * (MAX_SCENARIO_TEXT - len(text))
    assert parse_scenario_json(padded).name == "Test"
    for over in (padded + " ", (padded + " ").encode()):
        with pytest.raises(ScenarioError) as refused:
            parse_scenario_json(over)
        reason = f"must be at most {MAX_SCENARIO_TEXT} characters of JSON, got 200001"
        assert refused.value.problems == [("", reason)]


def test_no_nul_character_typed_or_escaped():
    # "\u0000" in JSON is the same NUL as one typed: neither is text, and the site's database
    # stores none. Refused in a value or a key, the description included, with the limits.
    sc = base()
    sc["name"] = "a\x00b"
    sc["description"] = "\x00"
    sc["sides"][0]["units"][0]["card"]["weapons"][0]["name\x00"] = 1
    expected = [
        ("description", "must not contain a NUL character"),
        ("name", "must not contain a NUL character"),
        ("sides[0].units[0].card.weapons[0].name\x00", "must not contain a NUL character"),
    ]
    assert sorted(problems(sc)) == expected
    text = json.dumps(sc)
    assert "\\u0000" in text
    with pytest.raises(ScenarioError) as refused:
        parse_scenario_json(text)
    assert sorted(refused.value.problems) == expected


def test_json_nested_ten_thousand_deep_is_refused_not_crashed_on():
    text = "[" * 10_000 + "]" * 10_000
    with pytest.raises(ScenarioError):
        parse_scenario_json(text)
    deep: list = []
    for _ in range(10_000):
        deep = [deep]
    assert problems({"sides": deep}) == [("", f"nested more than {MAX_DEPTH} levels deep")]


def test_tuples_count_against_the_limits_as_lists_do():
    # A Python caller's tuples are a scenario's lists: nested, counted and measured alike.
    deep: tuple = ()
    for _ in range(10_000):
        deep = (deep,)
    assert problems({"sides": deep}) == [("", f"nested more than {MAX_DEPTH} levels deep")]
    sc = base()
    sc["sides"][1]["units"] = tuple(
        unit(f"r{i}", (1 + i % 20, 20 + i // 20 * 0.5)) for i in range(MAX_UNITS_PER_SIDE + 1)
    )
    sc["terrain"] = ({"id": "wood", "kind": "woods", "polygon": tuple(ring(MAX_CORNERS + 1))},)
    sc["objectives"] = tuple(sc["objectives"] * (MAX_OBJECTIVES + 1))
    sc["buildings"] = (building("b", square(1, 1, 2, 2)) | {"id": ("x" * (MAX_TEXT + 1),)},)
    assert sorted(problems(sc)) == [
        ("buildings[0].id[0]", f"must be at most {MAX_TEXT} characters, got {MAX_TEXT + 1}"),
        ("objectives", f"at most {MAX_OBJECTIVES} objectives, got {MAX_OBJECTIVES + 1}"),
        ("sides[1].units", f"at most {MAX_UNITS_PER_SIDE} units, got {MAX_UNITS_PER_SIDE + 1}"),
        ("terrain[0].polygon", f"at most {MAX_CORNERS} corners, got {MAX_CORNERS + 1}"),
    ]


def _simple_by_every_pair(poly: Polygon) -> bool:
    """The plain O(n²) test, every edge against every other: what the sweep must agree with."""
    points = poly.points
    n = len(points)
    if poly.area <= 1e-9:
        return False
    edges = [(points[i], points[(i + 1) % n]) for i in range(n)]
    for i in range(n):
        a, b = edges[i]
        c = edges[(i + 1) % n][1]
        if _on_segment(c, a, b) or _on_segment(a, b, c):
            return False
        for j in range(i + 2, n):
            if i == 0 and j == n - 1:
                continue
            if _segments_touch(a, b, *edges[j]):
                return False
    return True


coord = st.integers(min_value=0, max_value=12).map(float)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(coord, coord), min_size=3, max_size=12))
def test_the_sweep_agrees_with_every_pair_on_random_rings(points):
    try:
        poly = Polygon.of(points)
    except ValueError:
        return
    assert poly.is_simple() == _simple_by_every_pair(poly)


def test_the_sweep_finds_a_crossing_between_far_apart_edges_of_a_large_ring():
    points = [tuple(p) for p in ring(MAX_CORNERS)]
    assert Polygon.of(points).is_simple()
    crossed = list(points)
    crossed[10], crossed[40] = crossed[40], crossed[10]
    assert not Polygon.of(crossed).is_simple()
    assert _simple_by_every_pair(Polygon.of(crossed)) is False


def test_a_scenario_at_every_limit_parses():
    sc = base()
    sc["terrain"] = [
        {
            "id": f"w{i}",
            "kind": "woods",
            "polygon": ring(MAX_CORNERS, (4 + (i % 8) * 2, 6 + i // 8 * 2), 0.8),
        }
        for i in range(MAX_TERRAIN)
    ]
    json.dumps(sc)
    assert len(parse_scenario(sc).terrain) == MAX_TERRAIN


def _lakes(count: int, corners: int) -> list[dict]:
    """``count`` lakes of ``corners`` corners across the middle of the table."""
    return [
        piece(f"lake{i}", "lake", ring(corners, (4 + (i % 8) * 2.2, 8 + i // 8 * 2.2), 0.9))
        for i in range(count)
    ]


def test_water_is_at_most_128_corners_in_all():
    # An Amphibious unit's paths are searched over every corner of water, unpruned: the probe's
    # map of 40 lakes of 64 corners, each piece within its own limit, is refused on the count.
    sc = base()
    sc["terrain"] = _lakes(40, MAX_CORNERS)
    assert problems(sc) == [
        (
            "terrain",
            f"at most {MAX_WATER_CORNERS} corners of water in all, got {40 * MAX_CORNERS}: an "
            "Amphibious unit's paths are searched over every corner of water",
        )
    ]
    sc["terrain"] = _lakes(2, MAX_CORNERS)  # 128: at the limit
    assert MAX_WATER_CORNERS == 2 * MAX_CORNERS and len(parse_scenario(sc).terrain) == 2
    # Woods are no water, however many their corners; a river is, and so is a piece flagged so.
    sc["terrain"] += [piece("wood", "woods", square(1, 20, 3, 22))]
    assert len(parse_scenario(sc).terrain) == 3
    for extra in (
        piece("ford", "river", square(1, 20, 3, 22)),
        piece("pond", "marsh", square(1, 20, 3, 22), water=True),
    ):
        sc["terrain"] = [*_lakes(2, MAX_CORNERS), extra]
        assert problems(sc)[0][1].startswith(f"at most {MAX_WATER_CORNERS} corners of water")
    # A lake flagged dry is no water; a building that falls to water is.
    dry = piece("dry", "lake", square(1, 20, 3, 22), water=False)
    sc["terrain"] = [*_lakes(2, MAX_CORNERS), dry]
    assert len(parse_scenario(sc).terrain) == 3
    sc["terrain"] = _lakes(2, MAX_CORNERS)
    flooded = {"kind": "water", "blocks_movement": False}
    sc["buildings"] = [building("mill", square(1, 20, 3, 22), rubble=flooded)]
    assert problems(sc)[0] == (
        "terrain",
        f"at most {MAX_WATER_CORNERS} corners of water in all, got {2 * MAX_CORNERS + 4}: an "
        "Amphibious unit's paths are searched over every corner of water",
    )
