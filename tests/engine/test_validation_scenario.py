"""A scenario's shape is checked whole: a good one parses, tuples are held to the checks lists are,
and each problem names its field's path and the reason — no objective, or one that names a side
twice or scores a side for razing its own building, not two sides, ids repeated or unknown, text
that is not text, unknown fields, a key given twice, no turn limit, malformed JSON or something that
is no scenario at all, refused rather than crashed, and in linear time; a unit without an order
holds; and a scenario file is read only as a regular file within its limit."""

from __future__ import annotations

import json

import pytest

from battles.engine import ScenarioError, UnitCard, parse_scenario, parse_scenario_json, run_battle
from battles.engine.loader import load_scenario
from battles.engine.validation import card_problems

from .helpers import building, card, piece, scenario, square, unit


def problems(data) -> list[tuple[str, str]]:
    with pytest.raises(ScenarioError) as exc:
        parse_scenario(data)
    return exc.value.problems


def paths(data) -> list[str]:
    return [p for p, _ in problems(data)]


def test_a_good_scenario_parses():
    sc = parse_scenario(scenario([unit("a", (2, 2))], [unit("b", (20, 20))]))
    assert [s.id for s in sc.sides] == ["blue", "red"]
    assert sc.units()[0].card.skill == 4


def tuples(data):
    """``data`` as a Python caller may write it: every list a tuple."""
    if isinstance(data, dict):
        return {k: tuples(v) for k, v in data.items()}
    if isinstance(data, list):
        return tuple(tuples(v) for v in data)
    return data


def test_a_python_caller_may_write_tuples_where_json_has_lists():
    # A position (2, 2), polygon corners, a tuple of sides, keywords or weapons: read as the
    # lists JSON has, to the same scenario and the same battle.
    sc = scenario(
        [unit("a", (2, 2), order="attack", keywords=["fixed_mount"], enters=["woods"])],
        [unit("b", (20, 20), order="attack")],
        terrain=[piece("w", "woods", square(5, 5, 8, 8))],
        buildings=[building("h", square(10, 10, 12, 12))],
        turn_limit=2,
    )
    sc["sides"][0]["zone"] = square(0, 0, 6, 6)
    assert parse_scenario(tuples(sc)) == parse_scenario(sc)
    assert run_battle(tuples(sc), seed=1).log_json() == run_battle(sc, seed=1).log_json()
    got = UnitCard.from_dict(tuples(card(keywords=["sure_footed"])), "combined_arms")
    assert got == UnitCard.from_dict(card(keywords=["sure_footed"]), "combined_arms")


def test_tuples_are_held_to_every_check_lists_are():
    sc = tuples(scenario([unit("a", (2, 2))], [unit("b", (20, 20))]))
    sc["sides"][0]["units"][0]["position"] = (2, 2, 2)
    sc["sides"][1]["units"][0]["card"]["keywords"] = ("flying",)
    sc["terrain"] = ({"id": "w", "kind": "woods", "polygon": ((1, 1), (3, 1))},)
    sc["objectives"][0]["sides"] = ()
    assert problems(sc) == [
        ("terrain[0].polygon", "needs at least 3 points, got 2"),
        ("sides[0].units[0].position", "must be a pair [x, y]"),
        ("sides[1].units[0].card.keywords[0]", "unknown keyword 'flying'"),
        ("objectives[0].sides", "must name at least one side"),
    ]
    sc = tuples(scenario([unit("a", (2, 2))], [unit("b", (20, 20))]))
    sc["sides"] = sc["sides"] * 2
    assert problems(sc) == [("sides", "must list exactly 2 sides, got 4")]
    sc["sides"] = ({"id": "blue", "units": ()}, sc["sides"][1])
    assert problems(sc) == [("sides[0].units", "a side needs at least one unit")]
    sc["description"] = ("words",)
    assert ("description", "must be a string, got a list") in problems(sc)


def test_message_names_path_and_reason():
    with pytest.raises(ScenarioError) as exc:
        parse_scenario(
            scenario(
                [unit("a", (2, 2)), unit("c", (3, 3)), unit("d", (4, 4), skill=7)],
                [unit("b", (20, 20))],
            )
        )
    assert "sides[0].units[2].card.skill: must be 2..5, got 7" in str(exc.value)
    assert isinstance(exc.value, ValueError)


def test_a_lone_surrogate_is_not_text():
    # JSON's "\ud800" parses to a string no log could be written in: refused by the field.
    got = problems(scenario([unit("a\ud800", (2, 2))], [unit("b", (20, 20))]))
    assert got == [("sides[0].units[0].id", "must be text (a lone surrogate is not)")]


def test_an_objective_names_each_side_once():
    # A raze objective scores each side it names: named twice, a side would score twice.
    sc = scenario(
        [unit("a", (2, 2))],
        [unit("b", (20, 20))],
        buildings=[building("h", square(10, 10, 12, 12), side="red")],
        objectives=[
            {
                "id": "raze",
                "kind": "raze",
                "building": "h",
                "sides": ["blue", "blue"],
                "points_at_end": 4,
            }
        ],
    )
    assert problems(sc) == [("objectives[0].sides[1]", "names side 'blue' twice")]


def test_a_side_does_not_score_for_razing_its_own_building():
    # A side never attacks its own building (E14): a raze objective of its own on it would pay
    # only if the enemy razed the building for it. The enemy may score for razing it.
    raze = {"id": "raze", "kind": "raze", "building": "depot", "points_at_end": 4}
    depot = building("depot", square(10, 10, 12, 12), side="red")
    for sides, at in ((["red"], 0), (["blue", "red"], 1)):
        sc = scenario(
            [unit("a", (2, 2))],
            [unit("b", (20, 20))],
            buildings=[depot],
            objectives=[raze | {"sides": sides}],
        )
        assert problems(sc) == [
            (
                f"objectives[0].sides[{at}]",
                "side 'red' owns building 'depot' and never attacks it: a side does not score for "
                "razing its own building",
            )
        ]
    sc = scenario(
        [unit("a", (2, 2))],
        [unit("b", (20, 20))],
        buildings=[depot],
        objectives=[raze | {"sides": ["blue"]}],
    )
    assert parse_scenario(sc).objectives[0].sides == ("blue",)


def test_malformed_json_is_refused():
    with pytest.raises(ScenarioError) as exc:
        parse_scenario_json("{not json")
    assert exc.value.problems[0][1].startswith("malformed JSON")


def test_load_scenario_reads_a_file(tmp_path):
    f = tmp_path / "s.json"
    f.write_text(json.dumps(scenario([unit("a", (2, 2))], [unit("b", (20, 20))])))
    assert load_scenario(f).name == "Test"
    with pytest.raises(ScenarioError):
        load_scenario(tmp_path / "missing.json")


def test_a_scenario_with_no_objective_is_rejected():
    p = problems(scenario([unit("a", (2, 2))], [unit("b", (20, 20))], objectives=[]))
    assert p[0][0] == "objectives"
    assert "refuse to move" in p[0][1]


def test_an_objective_must_award_points_and_name_known_sides():
    objs = [{"id": "o", "point": [5, 5], "sides": ["green"], "points_per_turn": 0}]
    got = paths(scenario([unit("a", (2, 2))], [unit("b", (20, 20))], objectives=objs))
    assert got == ["objectives[0]"]
    objs = [{"id": "o", "point": [5, 5], "sides": ["green"], "points_at_end": 1}]
    assert paths(scenario([unit("a", (2, 2))], [unit("b", (20, 20))], objectives=objs)) == [
        "objectives[0].sides[0]"
    ]


def test_exactly_two_sides_and_each_needs_a_unit():
    s = scenario([unit("a", (2, 2))], [])
    assert paths(s) == ["sides[1].units"]
    s = scenario([unit("a", (2, 2))], [unit("b", (20, 20))])
    s["sides"].append({"id": "green", "units": [unit("c", (1, 1))]})
    assert "sides" in paths(s)


def test_ids_must_be_unique_and_references_known():
    s = scenario([unit("a", (2, 2)), unit("a", (3, 3))], [unit("b", (20, 20))])
    assert paths(s) == ["sides[0].units[1].id"]
    s = scenario([unit("a", (2, 2))], [unit("b", (20, 20))])
    s["sides"][0]["units"][0]["order"] = {"kind": "advance", "objective": "nowhere"}
    assert paths(s) == ["sides[0].units[0].order.objective"]


def test_unknown_fields_are_refused():
    s = scenario([unit("a", (2, 2))], [unit("b", (20, 20))])
    s["weather"] = "rain"
    assert problems(s) == [("weather", "unknown field")]


@pytest.mark.parametrize("junk", [None, 3, "x", [], [1, 2], {"sides": 3}, {"ruleset": 5}])
def test_non_scenarios_are_refused_not_crashed(junk):
    with pytest.raises(ScenarioError):
        parse_scenario(junk)


def test_a_turn_limit_is_required():
    s = scenario([unit("a", (2, 2))], [unit("b", (20, 20))])
    del s["turn_limit"]
    assert problems(s) == [("turn_limit", "required")]


def test_a_unit_without_an_order_holds():
    u = unit("a", (2, 2))
    del u["order"]
    sc = parse_scenario(scenario([u], [unit("b", (20, 20))]))
    assert sc.units()[0].order.kind.value == "hold"


class _Counted(str):
    """A name that counts how often it is compared for equality."""

    compared = 0

    def __eq__(self, other: object) -> bool:
        _Counted.compared += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


def test_an_objective_s_long_list_of_sides_is_checked_for_repeats_in_linear_time():
    # The map editor's live check met 110,000 sides on one objective: each was compared with
    # every one before it. The repeats are named as before, in order, each time one recurs.
    sides = ["blue", "red", "blue", "red", "blue"]
    sc = scenario([unit("a", (2, 2))], [unit("b", (20, 20))])
    sc["objectives"][0]["sides"] = sides
    assert problems(sc) == [
        ("objectives[0].sides[2]", "names side 'blue' twice"),
        ("objectives[0].sides[3]", "names side 'red' twice"),
        ("objectives[0].sides[4]", "names side 'blue' twice"),
    ]
    n = 3000
    sc["objectives"][0]["sides"] = [_Counted(f"s{i}") for i in range(n)] + [_Counted("s7")]
    _Counted.compared = 0
    assert problems(sc) == [(f"objectives[0].sides[{n}]", "names side 's7' twice")]
    assert _Counted.compared < 10 * n  # not n * n / 2


def test_a_card_s_long_list_of_weapons_is_refused_on_its_count_before_any_name_is_compared():
    names = ["Gun", "Axe", "Gun", "Gun"]
    weapons = [{"name": name, "power": 1, "range": 1} for name in names]
    assert card_problems(card(weapons=weapons), building=False) == [
        ("weapons[2].name", "duplicate weapon name 'Gun'"),
        ("weapons[3].name", "duplicate weapon name 'Gun'"),
    ]
    n = 3000
    many = [{"name": _Counted(f"w{i}"), "power": 1, "range": 1} for i in range(n)]
    many.append({"name": _Counted("w7"), "power": 1, "range": 1})
    _Counted.compared = 0
    assert card_problems(card(weapons=many), building=False) == [
        ("weapons", f"at most 12 weapons on a card, got {n + 1}")
    ]
    assert _Counted.compared == 0


def test_a_key_given_twice_in_one_object_is_refused():
    # The last value would win without a word: "turn_limit": 500 then 6 played 6 turns.
    text = json.dumps(scenario([unit("a", (2, 2))], [unit("b", (20, 20))]))
    twice = text.replace('"turn_limit": ', '"turn_limit": 500, "turn_limit": ', 1)
    with pytest.raises(ScenarioError) as exc:
        parse_scenario_json(twice)
    assert exc.value.problems == [
        ("", 'malformed JSON: the key "turn_limit" is given twice in one object')
    ]


def test_load_scenario_reads_only_a_regular_file_and_no_more_than_its_limit(tmp_path):
    # A pipe or a device may never end: refused before a byte is read. A file far over the
    # limit is read no further than the limit allows, and refused by its length.
    import os

    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    for path in (fifo, "/dev/zero", tmp_path):
        with pytest.raises(ScenarioError, match="cannot read"):
            load_scenario(path)
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (4 * 200_000 + 100))
    with pytest.raises(
        ScenarioError, match=r"must be at most 200000 characters of JSON, got 800001"
    ):
        load_scenario(big)
    with pytest.raises(ScenarioError, match="embedded null byte"):
        load_scenario(str(tmp_path / "a\x00b.json"))
    with pytest.raises(ScenarioError, match="named by a path, got null"):
        load_scenario(None)  # type: ignore[arg-type]
