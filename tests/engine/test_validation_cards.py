"""A unit card is checked: read under a ruleset or its name; its numbers within their ranges and
bounds, a number of hundreds of digits refused rather than crashed; its weapons' ranges,
restrictions and names; its keywords those its ruleset names, Demolition adding its Charges line;
its melee as printed; a card read from its dict as a scenario reads it, and numbered by what it
says; and no card ever modified, nor a number adjusted, by anything."""

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
    ScenarioError,
    UnitCard,
    parse_scenario,
    parse_scenario_json,
)
from battles.engine.scenarios import HERE as BUNDLED
from battles.engine.validation import card_problems

from .helpers import act, battle, building, card, of, scenario, square, unit
from .test_validation_scenario import paths, problems


def test_a_card_is_read_under_a_ruleset_or_its_name_and_nothing_else():
    # A wrong type is the caller's mistake, told at once, not an AttributeError later on.
    for wrong in (None, 3, ["combined_arms"]):
        with pytest.raises(TypeError, match="ruleset must be a Ruleset or a ruleset's name"):
            UnitCard.from_dict(card(keywords=["aerial"]), wrong)


@pytest.mark.parametrize("skill", [1, 6, 7, 0])
def test_skill_must_be_2_to_5(skill):
    p = problems(scenario([unit("a", (2, 2), skill=skill)], [unit("b", (20, 20))]))
    assert p == [("sides[0].units[0].card.skill", f"must be 2..5, got {skill}")]


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
