"""Scenario validation: bad input is refused with the field's path and the reason."""

from __future__ import annotations

import json

import pytest

from battles.engine import (
    CHARGES,
    CLOSE_COMBAT,
    COMBINED_ARMS,
    ONE_YEAR_WAR,
    AttackStep,
    Keyword,
    MoveStep,
    ScenarioError,
    UnitCard,
    parse_scenario,
    parse_scenario_json,
    run_battle,
)
from battles.engine.loader import load_scenario
from battles.engine.scenarios import HERE as BUNDLED
from battles.engine.terrain import KIND_DEFAULTS
from battles.engine.validation import card_problems

from .helpers import act, battle, building, card, of, piece, scenario, square, unit


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


def test_a_card_is_read_under_a_ruleset_or_its_name_and_nothing_else():
    # A wrong type is the caller's mistake, told at once, not an AttributeError later on.
    for wrong in (None, 3, ["combined_arms"]):
        with pytest.raises(TypeError, match="ruleset must be a Ruleset or a ruleset's name"):
            UnitCard.from_dict(card(keywords=["aerial"]), wrong)


@pytest.mark.parametrize("skill", [1, 6, 7, 0])
def test_skill_must_be_2_to_5(skill):
    p = problems(scenario([unit("a", (2, 2), skill=skill)], [unit("b", (20, 20))]))
    assert p == [("sides[0].units[0].card.skill", f"must be 2..5, got {skill}")]


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


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("move", -1, "must be at least 0, got -1"),
        ("resistance", -1, "must be at least 0, got -1"),
        ("hits", 0, "must be at least 1, got 0"),
        ("hits", -2, "must be at least 1, got -2"),
        ("size", 6, "must be 1..5, got 6"),
        ("size", 0, "must be 1..5, got 0"),
        ("melee", -1, "must be at least 0, got -1"),
        ("skill", "4", "must be an integer, got a string"),
        ("skill", True, "must be an integer, got a boolean"),
        ("name", "", "must be a non-empty string, got a string"),
    ],
)
def test_card_numbers_are_checked(field, value, reason):
    p = problems(scenario([unit("a", (2, 2), **{field: value})], [unit("b", (20, 20))]))
    assert p == [(f"sides[0].units[0].card.{field}", reason)]


@pytest.mark.parametrize(
    ("field", "value"),
    [("skill", 2), ("skill", 5), ("size", 1), ("size", 5), ("resistance", 0), ("hits", 1)],
)
def test_card_numbers_at_the_ends_of_their_ranges_are_accepted(field, value):
    # "Skill (2-5) ... Resistance (0+), Hits, Size (1-5)": the ends are on the card.
    sc = parse_scenario(scenario([unit("a", (2, 2), **{field: value})], [unit("b", (20, 20))]))
    assert getattr(sc.units()[0].card, field) == value


def test_five_numbers_are_required():
    c = card()
    del c["hits"]
    u = unit("a", (2, 2))
    u["card"] = c
    assert problems(scenario([u], [unit("b", (20, 20))])) == [
        ("sides[0].units[0].card.hits", "required")
    ]


def test_a_weapon_needs_a_positive_range():
    bad = [{"name": "Gun", "power": 3}]
    assert problems(scenario([unit("a", (2, 2), weapons=bad)], [unit("b", (20, 20))])) == [
        ("sides[0].units[0].card.weapons[0].range", "required")
    ]
    zero = [{"name": "Gun", "power": 3, "range": 0}]
    assert paths(scenario([unit("a", (2, 2), weapons=zero)], [unit("b", (20, 20))])) == [
        "sides[0].units[0].card.weapons[0].range"
    ]


def test_weapon_restrictions_are_checked():
    bad = [
        {"name": "A", "power": -1, "range": 3},
        {"name": "B", "power": 1, "range": 3, "min_size": 3, "max_size": 2},
        {"name": "C", "power": 1, "range": 3, "uses": 0},
        {"name": "C", "power": 1, "range": 3, "aa": "yes"},
        {"name": "E", "power": 1, "range": 3, "flavour": "x"},
    ]
    got = paths(scenario([unit("a", (2, 2), weapons=bad)], [unit("b", (20, 20))]))
    w = "sides[0].units[0].card.weapons"
    assert got == [
        f"{w}[0].power",
        f"{w}[1].max_size",
        f"{w}[2].uses",
        f"{w}[3].aa",
        f"{w}[4].flavour",
    ]


def test_a_buildings_only_weapon_needs_the_power_to_damage_a_structure():
    # "Only weapons of Power 3+ can damage a structure": buildings only at Power 2 could never
    # do anything, so the card is refused, in a scenario as in the card library.
    weak = {"name": "Pick", "power": 2, "range": 1, "buildings_only": True}
    reason = (
        "must be at least 3 on a buildings-only weapon (only weapons of Power 3+ can damage a "
        "structure), got 2"
    )
    got = problems(scenario([unit("a", (2, 2), weapons=[weak])], [unit("b", (20, 20))]))
    assert got == [("sides[0].units[0].card.weapons[0].power", reason)]
    assert card_problems(card(weapons=[weak]), building=False) == [("weapons[0].power", reason)]
    for fine in ({**weak, "power": 3}, {**weak, "buildings_only": False}):
        parse_scenario(scenario([unit("a", (2, 2), weapons=[fine])], [unit("b", (20, 20))]))


def test_a_buildings_only_weapon_has_no_size_restriction():
    # Buildings have no Size (E14), so a buildings-only weapon limited by Size could attack
    # nothing: refused by its Size field, in a scenario as in the card library.
    reason = (
        "a buildings-only weapon may have no Size restriction: it attacks only buildings, which "
        "have no Size, so with one it could attack nothing"
    )
    charge = {"name": "Satchel", "power": 4, "range": 1, "buildings_only": True}
    for sizes, field in (
        ({"min_size": 1, "max_size": 2}, "min_size"),
        ({"min_size": 3}, "min_size"),
        ({"max_size": 5}, "max_size"),
    ):
        weak = {**charge, **sizes}
        got = problems(scenario([unit("a", (2, 2), weapons=[weak])], [unit("b", (20, 20))]))
        assert got == [(f"sides[0].units[0].card.weapons[0].{field}", reason)]
        assert card_problems(card(weapons=[weak]), building=False) == [
            (f"weapons[0].{field}", reason)
        ]
    for fine in (charge, {**charge, "min_size": None, "max_size": None}):
        parse_scenario(scenario([unit("a", (2, 2), weapons=[fine])], [unit("b", (20, 20))]))
    sized = {**charge, "buildings_only": False, "min_size": 1, "max_size": 2}
    parse_scenario(scenario([unit("a", (2, 2), weapons=[sized])], [unit("b", (20, 20))]))


def test_duplicate_weapon_names_are_refused():
    ws = [{"name": "Gun", "power": 1, "range": 3}, {"name": "Gun", "power": 2, "range": 3}]
    assert paths(scenario([unit("a", (2, 2), weapons=ws)], [unit("b", (20, 20))])) == [
        "sides[0].units[0].card.weapons[1].name"
    ]


def test_a_number_of_hundreds_of_digits_is_refused_not_a_crash():
    # JSON reads any integer literal; past a float's range it must still be a clear refusal.
    huge = 10**400
    text = json.dumps(
        scenario([unit("a", (2, 2), skill=huge, resistance=-huge)], [unit("b", (20, 20))])
    )
    with pytest.raises(ScenarioError) as exc:
        parse_scenario_json(text)
    assert exc.value.problems == [
        ("sides[0].units[0].card.skill", "must be 2..5, got a number of 401 digits"),
        (
            "sides[0].units[0].card.resistance",
            "must be at least 0, got a negative number of 401 digits",
        ),
    ]
    far = scenario([unit("a", (2, 2), facing=huge)], [unit("b", (20, 20))])
    assert problems(far) == [
        ("sides[0].units[0].facing", "is too large, got a number of 401 digits")
    ]


def test_card_numbers_and_points_have_an_upper_bound():
    # A Hits or Resistance of 400 digits fits no float: refused by field, never an overflow once
    # units engage.
    huge = 10**400
    gun = [{"name": "Gun", "power": huge, "range": 12, "uses": huge}]
    a = unit("a", (2, 2), hits=huge, resistance=huge, melee=huge, move=1e300, weapons=gun)
    objective = {"id": "o", "point": [12, 12], "radius": 2, "sides": ["blue"]}
    objective |= {"points_per_turn": huge, "points_at_end": 10**5}
    got = problems(
        scenario(
            [a],
            [unit("b", (20, 20))],
            objectives=[objective],
            buildings=[building("h", square(10, 0, 14, 4), resistance=huge, hits=100)],
        )
    )
    card_at = "sides[0].units[0].card"
    assert sorted(got) == sorted(
        [
            (f"{card_at}.move", "must be 0..1000 inches, got 1e+300"),
            (f"{card_at}.resistance", "must be 0..99, got a number of 401 digits"),
            (f"{card_at}.hits", "must be 1..99, got a number of 401 digits"),
            (f"{card_at}.melee", "must be 0..99, got a number of 401 digits"),
            (f"{card_at}.weapons[0].power", "must be 0..99, got a number of 401 digits"),
            (f"{card_at}.weapons[0].uses", "must be 1..99, got a number of 401 digits"),
            ("buildings[0].card.resistance", "must be 0..99, got a number of 401 digits"),
            ("buildings[0].card.hits", "must be 1..99, got 100"),
            ("objectives[0].points_per_turn", "must be 0..9999, got a number of 401 digits"),
            ("objectives[0].points_at_end", "must be 0..9999, got 100000"),
        ]
    )


def test_a_weapons_range_has_an_upper_bound_as_move_has():
    # The card library's bound, 1000 inches; an integer of hundreds of digits is refused by it,
    # not read as a float first.
    at = "sides[0].units[0].card.weapons[0].range"
    for far, shown in ((1000.5, "1000.5"), (1e300, "1e+300"), (10**400, "a number of 401 digits")):
        gun = [{"name": "Gun", "power": 3, "range": far}]
        text = json.dumps(scenario([unit("a", (2, 2), weapons=gun)], [unit("b", (20, 20))]))
        with pytest.raises(ScenarioError) as exc:
            parse_scenario_json(text)
        assert exc.value.problems == [
            (at, f"must be more than 0 and at most 1000 inches, got {shown}")
        ]
    gun = [{"name": "Gun", "power": 3, "range": 1000}]
    sc = parse_scenario(scenario([unit("a", (2, 2), weapons=gun)], [unit("b", (20, 20))]))
    assert sc.units()[0].card.weapons[0].range == 1000


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


def test_buildings_may_meet_edge_to_edge_but_not_overlap():
    # A unit standing where two footprints overlap would be inside both buildings (E37).
    house = building("h", square(8, 8, 12, 12))
    for poly in (
        square(10, 10, 14, 14),  # across a corner
        square(9, 9, 11, 11),  # inside it
        square(8, 8, 12, 12),  # the same footprint
        square(8, 6, 12, 10),  # over half of it
        [[8, 8], [12, 8], [12, 12]],  # a triangle on its corners
    ):
        sc = scenario([unit("a", (2, 2))], [unit("b", (20, 20))], buildings=[house])
        sc["buildings"].append(building("g", poly))
        assert problems(sc) == [
            (
                "buildings[1].polygon",
                "overlaps building 'h': a unit there would be inside both (buildings may meet "
                "edge to edge, not overlap)",
            )
        ]
    # A shared wall, part of a wall, a corner, or the notch of an L: no overlap.
    ell = [[0, 0], [6, 0], [6, 2], [2, 2], [2, 6], [0, 6]]
    for first, second in (
        (house, building("g", square(12, 8, 16, 12))),
        (house, building("g", square(12, 9, 14, 10))),
        (house, building("g", square(12, 12, 14, 14))),
        (building("l", ell), building("g", square(2, 2, 6, 6))),
    ):
        sc = scenario([unit("a", (20, 2))], [unit("b", (20, 20))], buildings=[first, second])
        assert len(parse_scenario(sc).buildings) == 2


def test_no_weapon_line_may_take_the_name_of_close_combat():
    # A commander names close combat by it: a weapon so named could never fire at its Range.
    ws = [{"name": CLOSE_COMBAT, "power": 5, "range": 12}]
    p = problems(scenario([unit("a", (2, 2), weapons=ws)], [unit("b", (20, 20))]))
    assert p == [
        (
            "sides[0].units[0].card.weapons[0].name",
            "'close_combat' names close combat (Melee or Ramming): rename it",
        )
    ]


def test_unknown_keyword_is_refused():
    p = problems(scenario([unit("a", (2, 2), keywords=["jump_jets"])], [unit("b", (20, 20))]))
    assert p == [("sides[0].units[0].card.keywords[0]", "unknown keyword 'jump_jets'")]


def test_combined_arms_has_the_seven_keywords_it_names():
    # "KEYWORDS. Seven.": Aerial, Split Movement, Fixed Mount, Breaching, Move and Fire,
    # Sure-Footed, Demolition, and no other. A card may carry all seven at once.
    seven = [
        "aerial",
        "split_movement",
        "fixed_mount",
        "breaching",
        "move_and_fire",
        "sure_footed",
        "demolition",
    ]
    assert sorted(k.value for k in COMBINED_ARMS.keywords) == sorted(seven)
    sc = parse_scenario(scenario([unit("a", (2, 2), keywords=seven)], [unit("b", (20, 20))]))
    assert {k.value for k in sc.units()[0].card.keywords} == set(seven)


def test_one_year_war_has_the_nine_keywords_it_names():
    # One Year War names no count: it lists Combined Arms' seven, then Sensor and Amphibious,
    # and no other. A card may carry all nine at once under it.
    nine = [
        "aerial",
        "split_movement",
        "fixed_mount",
        "breaching",
        "move_and_fire",
        "sure_footed",
        "demolition",
        "sensor",
        "amphibious",
    ]
    assert sorted(k.value for k in ONE_YEAR_WAR.keywords) == sorted(nine)
    assert ONE_YEAR_WAR.keywords - COMBINED_ARMS.keywords == {Keyword.SENSOR, Keyword.AMPHIBIOUS}
    sc = scenario([unit("a", (2, 2), keywords=nine)], [unit("b", (20, 20))], ruleset="one_year_war")
    assert {k.value for k in parse_scenario(sc).units()[0].card.keywords} == set(nine)


@pytest.mark.parametrize("kw", ["sensor", "amphibious"])
def test_sensor_and_amphibious_only_under_one_year_war(kw):
    ca = scenario([unit("a", (2, 2), keywords=[kw])], [unit("b", (20, 20))])
    assert problems(ca) == [
        ("sides[0].units[0].card.keywords[0]", f"keyword {kw!r} is not allowed under combined_arms")
    ]
    oyw = scenario(
        [unit("a", (2, 2), keywords=[kw])], [unit("b", (20, 20))], ruleset="one_year_war"
    )
    assert Keyword(kw) in parse_scenario(oyw).units()[0].card.keywords


def test_demolition_adds_the_charges_line():
    sc = parse_scenario(
        scenario([unit("a", (2, 2), keywords=["demolition"])], [unit("b", (20, 20))])
    )
    charges = sc.units()[0].card.weapon("Charges")
    assert charges == CHARGES
    assert (charges.power, charges.range, charges.buildings_only, charges.uses) == (4, 1, True, 2)


def test_demolition_keeps_a_printed_charges_line():
    ws = [{"name": "Charges", "power": 4, "range": 1, "buildings_only": True, "uses": 2}]
    sc = parse_scenario(
        scenario([unit("a", (2, 2), keywords=["demolition"], weapons=ws)], [unit("b", (20, 20))])
    )
    assert [w.name for w in sc.units()[0].card.weapons] == ["Charges"]


@pytest.mark.parametrize(
    "change",
    [{"power": 9}, {"range": 12}, {"buildings_only": False}, {"uses": 3}, {"aa": True}],
)
def test_a_demolition_card_may_print_its_charges_only_as_the_text_has_them(change):
    ws = [{"name": "Charges", "power": 4, "range": 1, "buildings_only": True, "uses": 2, **change}]
    p = problems(
        scenario([unit("a", (2, 2), keywords=["demolition"], weapons=ws)], [unit("b", (20, 20))])
    )
    assert p == [
        (
            "sides[0].units[0].card.weapons[0]",
            "a Demolition card's Charges are Power 4, Range 1, buildings only, two uses",
        )
    ]


def test_unit_off_the_table_is_refused():
    p = problems(scenario([unit("a", (25, 2))], [unit("b", (20, 20))]))
    assert p == [("sides[0].units[0].position", "(25, 2) is off the 24″ × 24″ table")]


@pytest.mark.parametrize(
    ("on", "off"), [((0, 0), (-0.001, 0)), ((24, 24), (24, 24.001)), ((24, 2), (24.001, 2))]
)
def test_a_unit_on_the_edge_of_the_table_is_on_it_and_a_hair_past_is_not(on, off):
    # "A 24" x 24" table": its edges and corners are on it, a thousandth of an inch past is not.
    sc = parse_scenario(scenario([unit("a", on)], [unit("b", (20, 20))]))
    assert sc.units()[0].position == on
    p = problems(scenario([unit("a", off)], [unit("b", (20, 20))]))
    assert p == [
        ("sides[0].units[0].position", f"({off[0]:g}, {off[1]:g}) is off the 24″ × 24″ table")
    ]


def test_a_bigger_table_is_allowed():
    s = scenario([unit("a", (30, 2))], [unit("b", (20, 20))])
    s["table"] = {"width": 36, "height": 24}
    assert parse_scenario(s).width == 36


def test_a_side_deploys_inside_its_deployment_zone_edges_included():
    s = scenario([unit("a", (4, 2)), unit("a2", (2, 6))], [unit("b", (20, 20))])
    s["sides"][0]["zone"] = square(0, 0, 6, 6)
    sc = parse_scenario(s)
    assert sc.sides[0].zone is not None and sc.sides[0].zone.contains((6, 6))
    assert sc.sides[1].zone is None


def test_a_unit_outside_its_sides_deployment_zone_is_refused():
    s = scenario([unit("a", (4, 2)), unit("a2", (8, 2))], [unit("b", (20, 20))])
    s["sides"][0]["name"] = "Blue Force"
    s["sides"][0]["zone"] = square(0, 0, 6, 6)
    assert problems(s) == [
        ("sides[0].units[1].position", "outside the deployment zone of Blue Force")
    ]


def test_a_deployment_zone_is_checked_as_a_polygon_on_the_table():
    s = scenario([unit("a", (4, 2))], [unit("b", (20, 20))])
    s["sides"][0]["zone"] = [[0, 0], [30, 0], [0, 6]]
    assert problems(s) == [("sides[0].zone[1]", "(30, 0) is off the 24″ × 24″ table")]
    s["sides"][0]["zone"] = [[0, 0], [6, 6], [6, 0], [0, 3]]
    assert problems(s) == [("sides[0].zone", "must be a simple polygon (edges may not cross)")]
    s["sides"][0]["zone"] = [[0, 0]] * 65
    assert problems(s) == [("sides[0].zone", "at most 64 corners, got 65")]


def test_deployment_inside_impassable_terrain_is_refused():
    s = scenario(
        [unit("a", (5, 5))],
        [unit("b", (20, 20))],
        terrain=[piece("lake", "water", square(4, 4, 6, 6))],
    )
    assert problems(s) == [
        ("sides[0].units[0].position", "deployed inside impassable water 'lake'")
    ]


def test_deployment_inside_a_building_is_allowed_to_whoever_could_go_in():
    # A building that does not admit Size 3 refuses the unit at deployment, as it would bar its
    # way in; a Breaching unit could go in, so it may start there.
    house = building("h", square(4, 4, 6, 6), admits=(1, 2))
    refused = scenario([unit("a", (5, 5), size=3)], [unit("b", (20, 20))], buildings=[house])
    assert problems(refused) == [
        ("sides[0].units[0].position", "deployed inside building 'h', which does not admit it")
    ]
    breaching = unit("a", (5, 5), size=3, keywords=["breaching"])
    sc = parse_scenario(scenario([breaching], [unit("b", (20, 20))], buildings=[house]))
    assert sc.sides[0].units[0].position == (5, 5)


def test_deployment_inside_terrain_the_card_enters_is_allowed():
    s = scenario(
        [unit("a", (5, 5), enters=["woods"])],
        [unit("b", (20, 20))],
        terrain=[piece("w", "woods", square(4, 4, 6, 6))],
    )
    parse_scenario(s)


def test_deployment_inside_a_building_that_does_not_admit_it_is_refused():
    s = scenario(
        [unit("a", (5, 5), size=4)],
        [unit("b", (20, 20))],
        buildings=[building("h", square(4, 4, 6, 6), admits=(1, 2))],
    )
    assert paths(s) == ["sides[0].units[0].position"]


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


def test_polygons_are_checked():
    bad = [
        piece("t1", "woods", [[1, 1], [2, 2]]),
        piece("t2", "woods", [[1, 1], [3, 3], [1, 3], [3, 1]]),
        piece("t3", "woods", [[1, 1], [30, 1], [1, 3]]),
    ]
    got = paths(scenario([unit("a", (20, 2))], [unit("b", (20, 20))], terrain=bad))
    assert got == ["terrain[0].polygon", "terrain[1].polygon", "terrain[2].polygon[1]"]


def test_a_polygon_of_repeated_points_is_refused_not_crashed():
    dupes = [[0, 0], [0, 0], [1, 1]]
    s = scenario(
        [unit("a", (20, 2))],
        [unit("b", (20, 20))],
        terrain=[piece("t1", "woods", dupes)],
        buildings=[building("h", [[5, 5], [6, 6], [6, 6]])],
    )
    assert problems(s) == [
        ("terrain[0].polygon", "needs at least 3 distinct points"),
        ("buildings[0].polygon", "needs at least 3 distinct points"),
    ]


def test_terrain_kind_defaults_and_explicit_flags():
    s = scenario(
        [unit("a", (20, 2))],
        [unit("b", (20, 20))],
        terrain=[
            piece("w", "woods", square(1, 1, 3, 3)),
            piece("w2", "woods", square(5, 5, 7, 7), blocks_movement=False),
            piece("wall", "lowwall", square(8, 8, 9, 9), wall=True),
        ],
    )
    t = {p.id: p.props for p in parse_scenario(s).terrain}
    assert t["w"].blocks_movement and t["w"].blocks_sight
    assert not t["w2"].blocks_movement and t["w2"].blocks_sight
    assert t["wall"].hazard, "a wall is a hazard"


def test_terrain_kinds_by_the_rule_texts_own_words():
    # One Year War's Amphibious: "Lakes, sea, and deep water"; Combined Arms' Sure-Footed:
    # "rubble, rivers, hazardous ground. Not walls." Each name is its kind, with the kind's
    # defaults, read without regard to case or spacing.
    names = {
        "lake": "water",
        "Lakes": "water",
        "sea": "water",
        "Deep  water": "water",
        "rivers": "river",
        "hazardous ground": "hazard",
        "walls": "wall",
        "hills": "hill",
        "wood": "woods",
        "Forest": "woods",
        "rubble field": "rubble",
        "Woods": "woods",
    }
    pieces = [piece(f"t{i}", name, square(i, 10, i + 0.5, 11)) for i, name in enumerate(names)]
    sc = parse_scenario(scenario([unit("a", (2, 2))], [unit("b", (20, 20))], terrain=pieces))
    got = {name: t.props for name, t in zip(names, sc.terrain, strict=True)}
    for name, kind in names.items():
        assert got[name] == KIND_DEFAULTS[kind], name
    assert got["lake"].blocks_movement and got["lake"].water


def test_a_kind_with_no_defaults_needs_its_flags():
    # A kind the engine does not know, given no flag, would be open ground whatever it was
    # meant to be: refused, as a typo is (E41). Given any flag, it is free text.
    sc = scenario(
        [unit("a", (2, 2))],
        [unit("b", (20, 20))],
        terrain=[
            piece("m", "marsh", square(4, 4, 6, 6)),
            piece("m2", "Marsh", square(8, 4, 10, 6), hazard=True),
            piece("o", "open", square(12, 4, 14, 6)),
        ],
        buildings=[building("h", square(4, 12, 6, 14), rubble={"kind": "crater"})],
    )
    got = problems(sc)
    assert [p for p, _ in got] == ["terrain[0].kind", "buildings[0].card.rubble.kind"]
    assert got[0][1].startswith("unknown terrain kind 'marsh': use one of [")
    assert "'deep water'" in got[0][1] and "give its flags" in got[0][1]
    del sc["terrain"][0]
    sc["buildings"][0]["card"]["rubble"]["blocks_sight"] = False
    parsed = parse_scenario(sc)
    assert [t.kind for t in parsed.terrain] == ["marsh", "open"]
    assert parsed.terrain[0].props.hazard and not parsed.terrain[0].props.blocks_movement


def test_a_rubble_field_is_rubble():
    # The rule text's own name for it, as a building card's "Becomes:" line also writes it.
    s = scenario(
        [unit("a", (20, 2))],
        [unit("b", (20, 20))],
        terrain=[piece("r", "rubble field", square(1, 1, 3, 3))],
    )
    (rubble,) = parse_scenario(s).terrain
    assert rubble.props == KIND_DEFAULTS["rubble"]


def test_rubble_never_blocks_movement():
    # Units roll to cross rubble (Sure-Footed needs none) and units in the same rubble field see
    # each other: rubble no unit may enter, a field or what a building falls into, is refused.
    reason = (
        "rubble does not block movement: units roll to cross it (Sure-Footed needs no roll) and "
        "units in the same rubble field see each other"
    )
    fallen = {"kind": "rubble field", "blocks_movement": True}
    sc = scenario(
        [unit("a", (20, 2))],
        [unit("b", (20, 20))],
        terrain=[
            piece("r", "rubble", square(1, 1, 3, 3), blocks_movement=True),
            piece("f", "rubble field", square(5, 5, 7, 7), blocks_movement=True),
        ],
        buildings=[building("h", square(10, 10, 12, 12), rubble=fallen)],
    )
    assert problems(sc) == [
        ("terrain[0].blocks_movement", reason),
        ("terrain[1].blocks_movement", reason),
        ("buildings[0].card.rubble.blocks_movement", reason),
    ]


def test_what_a_building_becomes_never_blocks_movement():
    # Each occupant rolls Skill or takes 1 Hit and stands in what the building became: a house
    # become a wood or a lake would hold them there for the rest of the battle. Refused by the
    # flag if the card gives it, else by the kind (or the kind's name) that blocks movement.
    def reason(kind):
        return (
            f"what a building becomes may not block movement, and {kind!r} does: its occupants "
            "stand in it after the fall (each rolls Skill or takes 1 Hit) and fight on"
        )

    fallen = [
        {"kind": "woods"},
        {"kind": "hill", "blocks_movement": True},
        "woods",
        "water",
        {"kind": "crater", "blocks_movement": True, "hazard": True},
    ]
    houses = [
        building(f"h{i}", square(2 + 3 * i, 8, 4 + 3 * i, 10), rubble=r)
        for i, r in enumerate(fallen)
    ]
    sc = scenario([unit("a", (20, 2))], [unit("b", (20, 20))], buildings=houses)
    assert problems(sc) == [
        ("buildings[0].card.rubble", reason("woods")),
        ("buildings[1].card.rubble.blocks_movement", reason("hill")),
        ("buildings[2].card.rubble", reason("woods")),
        ("buildings[3].card.rubble", reason("water")),
        ("buildings[4].card.rubble.blocks_movement", reason("crater")),
    ]
    house = card_problems(
        {"name": "House", "resistance": 3, "hits": 4, "rubble": "woods"}, building=True
    )
    assert house == [("rubble", reason("woods"))]
    # A wood it lets its occupants walk out of is still a wood; so is ground of any other kind.
    for r in (
        {"kind": "woods", "blocks_movement": False},
        "hill",
        {"kind": "crater", "hazard": True},
    ):
        sc = scenario(
            [unit("a", (20, 2))],
            [unit("b", (20, 20))],
            buildings=[building("h", square(10, 10, 12, 12), rubble=r)],
        )
        assert not parse_scenario(sc).buildings[0].card.rubble.blocks_movement


def test_building_cards_are_checked():
    b = building("h", square(4, 4, 6, 6), hits=0, admits=(3, 1))
    got = paths(scenario([unit("a", (2, 2))], [unit("b", (20, 20))], buildings=[b]))
    assert got == ["buildings[0].card.hits", "buildings[0].card.admits.max_size"]


def test_a_building_card_may_name_its_rubble_by_kind():
    # As the card library writes it ("Becomes: rubble field"), or by the kind's own name.
    houses = [
        building(f"h{i}", square(2 + 3 * i, 8, 4 + 3 * i, 10), rubble=r)
        for i, r in enumerate(["rubble field", "rubble", "hill", {"kind": "rubble"}])
    ]
    sc = parse_scenario(scenario([unit("a", (2, 2))], [unit("b", (20, 20))], buildings=houses))
    rubble = {b.id: b.card.rubble for b in sc.buildings}
    assert rubble["h0"] == rubble["h1"] == rubble["h3"] == KIND_DEFAULTS["rubble"]
    assert rubble["h0"].kind == "rubble" and rubble["h0"].blocks_sight and rubble["h0"].hazard
    assert rubble["h2"] == KIND_DEFAULTS["hill"]


def test_a_rubble_kind_nobody_knows_is_refused():
    b = building("h", square(4, 4, 6, 6), rubble="lava")
    p = problems(scenario([unit("a", (2, 2))], [unit("b", (20, 20))], buildings=[b]))
    assert [path for path, _ in p] == ["buildings[0].card.rubble"]
    assert "unknown terrain kind 'lava'" in p[0][1]


def test_a_unit_card_is_read_from_its_dict_as_a_scenario_reads_it():
    d = card(keywords=["sure_footed", "demolition"], enters=["woods"])
    got = UnitCard.from_dict(d, "combined_arms")
    parsed = parse_scenario(scenario([unit("a", (2, 2), **d)], [unit("b", (20, 20))]))
    assert got == parsed.units()[0].card and got.weapon("Charges") == CHARGES
    assert UnitCard.from_dict(got.to_dict(), COMBINED_ARMS) == got


def test_a_bad_card_dict_is_a_scenario_error_naming_the_field():
    with pytest.raises(ScenarioError) as exc:
        UnitCard.from_dict(card(skill=9, keywords=["sensor"]), "combined_arms")
    assert [p for p, _ in exc.value.problems] == ["card.skill", "card.keywords[0]"]
    for junk in (None, [], "Rifle Squad", {"name": "x"}):
        with pytest.raises(ScenarioError):
            UnitCard.from_dict(junk, "one_year_war")
    with pytest.raises(ScenarioError):
        UnitCard.from_dict(card(), "warhammer")


def test_a_card_dict_lists_keywords_in_the_rule_texts_order():
    # The card text lists them in that order (units/carddata.py checks it), not alphabetically.
    d = card(keywords=["sure_footed", "demolition", "aerial", "breaching"])
    got = UnitCard.from_dict(d, "combined_arms").to_dict()["keywords"]
    assert got == ["aerial", "breaching", "sure_footed", "demolition"]
    assert got == [k.value for k in Keyword if k.value in got]


def test_unknown_fields_are_refused():
    s = scenario([unit("a", (2, 2))], [unit("b", (20, 20))])
    s["weather"] = "rain"
    assert problems(s) == [("weather", "unknown field")]


@pytest.mark.parametrize("junk", [None, 3, "x", [], [1, 2], {"sides": 3}, {"ruleset": 5}])
def test_non_scenarios_are_refused_not_crashed(junk):
    with pytest.raises(ScenarioError):
        parse_scenario(junk)


def test_the_table_is_24_by_24_unless_the_scenario_says_otherwise():
    sc = parse_scenario(scenario([unit("a", (2, 2))], [unit("b", (20, 20))]))
    assert (sc.width, sc.height) == (24, 24)


def test_positions_are_real_numbers():
    # Not a grid: a unit stands, moves and measures at any point, kept to a thousandth of an inch.
    sc = scenario([unit("a", (2.25, 3.5))], [unit("b", (20.125, 19.75))])
    assert parse_scenario(sc).sides[0].units[0].position == (2.25, 3.5)
    b = battle(sc)
    ev = act(b, "a", MoveStep(((5.8765, 3.5),)))
    assert b.state.units["a"].position == (5.877, 3.5)
    assert of(ev, "move")[0].cost == 3.627


def test_a_turn_limit_is_required():
    s = scenario([unit("a", (2, 2))], [unit("b", (20, 20))])
    del s["turn_limit"]
    assert problems(s) == [("turn_limit", "required")]


def test_melee_is_printed_as_a_single_number():
    p = problems(scenario([unit("a", (2, 2), melee=[4, 2])], [unit("b", (20, 20))]))
    assert p == [("sides[0].units[0].card.melee", "must be an integer, got a list")]


@pytest.mark.parametrize("above", [0, 3])
def test_a_printed_melee_may_be_its_size_plus_0_to_3(above):
    # "printed as a single number: Size + 0 to 3 for what it's swinging": both ends are taken.
    sc = parse_scenario(
        scenario([unit("a", (2, 2), size=4, melee=4 + above)], [unit("b", (20, 20))])
    )
    assert sc.sides[0].units[0].card.melee == 4 + above
    assert card_problems(card(size=4, melee=4 + above), building=False) == []


@pytest.mark.parametrize("melee", [3, 8], ids=["size-1", "size+4"])
def test_a_printed_melee_below_its_size_or_past_size_plus_3_is_refused(melee):
    reason = f"Melee is Size + 0 to 3: 'Trooper' is Size 4, so its Melee must be 4..7, got {melee}"
    sc = scenario([unit("a", (2, 2), size=4, melee=melee)], [unit("b", (20, 20))])
    assert problems(sc) == [("sides[0].units[0].card.melee", reason)]
    assert card_problems(card(size=4, melee=melee), building=False) == [("melee", reason)]


@pytest.mark.parametrize(("melee", "refused"), [(3, True), (4, False), (7, False), (8, True)])
def test_one_year_war_cards_print_melee_as_combined_arms_writes_a_card(melee, refused):
    # One Year War has no WRITING A CARD of its own; everything not named as a difference is
    # shared (rulings), so its cards print Melee as Size + 0 to 3 as well, both ends taken.
    sc = scenario(
        [unit("a", (2, 2), size=4, melee=melee)], [unit("b", (20, 20))], ruleset="one_year_war"
    )
    if not refused:
        assert parse_scenario(sc).sides[0].units[0].card.melee == melee
        return
    reason = f"Melee is Size + 0 to 3: 'Trooper' is Size 4, so its Melee must be 4..7, got {melee}"
    assert problems(sc) == [("sides[0].units[0].card.melee", reason)]


def test_a_battle_already_fought_is_read_back_with_the_melee_it_was_fought_with():
    # An older engine took any Melee: its battles' reports still read their scenarios.
    sc = scenario([unit("a", (2, 2), size=4, melee=9)], [unit("b", (20, 20))])
    assert paths(sc) == ["sides[0].units[0].card.melee"]
    assert parse_scenario(sc, fought=True).sides[0].units[0].card.melee == 9


def test_cards_are_never_modified_by_anything():
    from battles.engine import AttackStep

    from .helpers import act, battle

    b = battle(scenario([unit("a", (2, 2))], [unit("b", (8, 2))]), [1, 1, 6])
    before = b.state.units["b"].card
    act(b, "a", AttackStep("b", "Gun"))
    assert b.state.units["b"].skill == 3
    assert b.state.units["b"].card is before and before.skill == 4
    with pytest.raises(AttributeError):
        before.skill = 1  # type: ignore[misc]


def test_keywords_never_adjust_a_number():
    plain = parse_scenario(scenario([unit("a", (2, 2))], [unit("b", (20, 20))])).units()[0].card
    every = (
        parse_scenario(
            scenario(
                [unit("a", (2, 2), keywords=[k.value for k in Keyword])],
                [unit("b", (20, 20))],
                ruleset="one_year_war",
            )
        )
        .units()[0]
        .card
    )
    numbers = ("skill", "move", "resistance", "hits", "size", "melee")
    assert [getattr(plain, n) for n in numbers] == [getattr(every, n) for n in numbers]
    # And in play: the same dice give the same rolls, against the printed numbers, whatever
    # keywords shooter and target carry (keywords that change what is allowed aside: these
    # grant nothing that bears on a plain shot across open ground).
    kws = ["split_movement", "breaching", "move_and_fire", "sure_footed", "demolition", "sensor"]
    seen = []
    for keywords in ([], kws):
        sc = scenario(
            [unit("a", (2, 2), keywords=keywords, skill=3)],
            [unit("b", (8, 2), keywords=keywords, resistance=1, hits=3)],
            ruleset="one_year_war",
        )
        b = battle(sc, [3, 4, 4, 2, 2, 1])
        a1 = act(b, "a", AttackStep("b", "Gun"))
        a2 = act(b, "b", AttackStep("a", "Gun"))
        seen.append(
            [
                (r.who, r.purpose, r.value, r.modifier, r.against, r.outcome)
                for r in of(a1 + a2, "roll")
            ]
        )
    assert (
        seen[0]
        == seen[1]
        == [
            ("a", "to_hit", 3, 0, 3, "success"),
            ("a", "penetration", 4, 3, 5, "win"),
            ("b", "armour", 4, 1, 7, "lose"),
            ("b", "to_hit", 2, 0, 4, "success"),
            ("b", "penetration", 2, 3, 3, "win"),
            ("a", "armour", 1, 2, 5, "lose"),
        ]
    )


def test_a_unit_without_an_order_holds():
    u = unit("a", (2, 2))
    del u["order"]
    sc = parse_scenario(scenario([u], [unit("b", (20, 20))]))
    assert sc.units()[0].order.kind.value == "hold"


def test_a_scenario_numbers_its_cards_by_what_they_say():
    """Units carrying the same card text share a card number in the scenario's tables, each
    parse has tables of its own, and a card that differs in one figure gets its own number."""
    data = json.loads((BUNDLED / "factory-hold.json").read_text())
    first, again = parse_scenario(data), parse_scenario(json.loads(json.dumps(data)))
    assert first.tables is not again.tables
    assert first.tables.card_no == again.tables.card_no
    assert first.tables.cards == again.tables.cards
    units = data["sides"][0]["units"]
    assert len(units) >= 2 and units[0]["card"] == units[1]["card"]
    assert first.tables.card_no[units[0]["id"]] == first.tables.card_no[units[1]["id"]]
    units[0]["card"]["move"] += 1
    changed = parse_scenario(data).tables
    assert changed.card_no[units[0]["id"]] != changed.card_no[units[1]["id"]]
    assert len(changed.cards) == len(first.tables.cards) + 1


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


def test_a_scenario_facing_a_hair_under_zero_or_360_is_facing_0():
    # -1e-20 % 360 is exactly 360.0, outside the log's [0, 360): facings are kept as the log
    # keeps every direction (``geometry.rnd_facing``).
    for facing in (-1e-20, 359.99999):
        sc = parse_scenario(scenario([unit("a", (2, 2), facing=facing)], [unit("b", (20, 20))]))
        assert sc.sides[0].units[0].facing == 0.0
