"""The table a scenario lays out is checked: its size, 24 by 24 unless it says otherwise; units on
the table, edges included, and deployed inside their side's zone, never inside impassable terrain
nor a building that does not admit them; polygons checked, buildings meeting edge to edge but never
overlapping; terrain kinds by the rule text's own words, rubble never blocking movement; building
cards and their rubble; real-number positions; and facings a hair off 0 or 360 read as 0."""

from __future__ import annotations

import pytest

from battles.engine import MoveStep, parse_scenario
from battles.engine.terrain import KIND_DEFAULTS
from battles.engine.validation import card_problems

from .helpers import act, battle, building, of, piece, scenario, square, unit
from .test_validation_scenario import paths, problems


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


def test_a_unit_that_paradrops_deploys_outside_its_sides_zone_but_still_on_the_table():
    # A campaign's Airborne unit "may be placed anywhere" (BUCS): the zone does not hold it.
    s = scenario([unit("a", (4, 2)), unit("a2", (18, 12))], [unit("b", (20, 20))])
    s["sides"][0]["name"] = "Blue Force"
    s["sides"][0]["zone"] = square(0, 0, 6, 6)
    s["sides"][0]["units"][1]["paradrop"] = True
    sc = parse_scenario(s)
    assert [u.paradrop for u in sc.sides[0].units] == [False, True]
    assert not sc.sides[0].zone.contains(sc.sides[0].units[1].position)
    # Anywhere is still on the table, and never inside ground its card may not enter.
    s["sides"][0]["units"][1]["position"] = [25, 12]
    assert problems(s) == [("sides[0].units[1].position", "(25, 12) is off the 24″ × 24″ table")]
    s["sides"][0]["units"][1]["position"] = [18, 12]
    s["terrain"] = [piece("lake", "water", square(16, 10, 20, 14))]
    assert problems(s) == [
        ("sides[0].units[1].position", "deployed inside impassable water 'lake'")
    ]
    # Said false, or not said, the zone holds it.
    s["terrain"] = []
    s["sides"][0]["units"][1]["paradrop"] = False
    assert problems(s) == [
        ("sides[0].units[1].position", "outside the deployment zone of Blue Force")
    ]
    s["sides"][0]["units"][1]["paradrop"] = "yes"
    assert problems(s) == [("sides[0].units[1].paradrop", "must be true or false, got a string")]


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


def test_a_scenario_facing_a_hair_under_zero_or_360_is_facing_0():
    # -1e-20 % 360 is exactly 360.0, outside the log's [0, 360): facings are kept as the log
    # keeps every direction (``geometry.rnd_facing``).
    for facing in (-1e-20, 359.99999):
        sc = parse_scenario(scenario([unit("a", (2, 2), facing=facing)], [unit("b", (20, 20))]))
        assert sc.sides[0].units[0].facing == 0.0
