"""Buildings: units with cards and terrain footprints."""

from __future__ import annotations

import pytest

from battles.engine import CLOSE_COMBAT, AttackStep, IllegalActionError, MoveStep
from battles.engine.events import TurnStart
from battles.engine.targeting import legal_attacks

from .helpers import act, battle, building, of, piece, scenario, square, unit

HOUSE = square(10, 0, 14, 4)


def _sc(blue, red, **kw):
    return scenario(blue, red, buildings=[building("h", HOUSE, **kw)])


def test_a_building_admits_units_of_its_sizes():
    b = battle(_sc([unit("a", (8, 2), size=2)], [unit("b", (20, 20))]))
    act(b, "a", MoveStep(((12, 2),)))
    assert b.state.units["a"].position == (12, 2)


def test_a_building_blocks_movement_for_whoever_it_does_not_admit():
    b = battle(_sc([unit("a", (8, 2), size=4)], [unit("b", (20, 20))]))
    with pytest.raises(IllegalActionError, match="may not enter"):
        act(b, "a", MoveStep(((12, 2),)))


def test_a_building_that_admits_nobody():
    b = battle(_sc([unit("a", (8, 2), size=1)], [unit("b", (20, 20))], admits=None))
    with pytest.raises(IllegalActionError):
        act(b, "a", MoveStep(((12, 2),)))


def test_a_building_blocks_sight():
    b = battle(_sc([unit("a", (8, 2))], [unit("b", (16, 2))]))
    assert not b.sight.line_clear((8, 2), (16, 2))


def test_occupants_cannot_be_attacked_attack_the_building():
    b = battle(_sc([unit("a", (4, 2))], [unit("b", (12, 2))]))
    b.state.units["b"].concealed = False  # even when revealed, the walls are what you shoot
    with pytest.raises(IllegalActionError, match="attack the building"):
        act(b, "a", AttackStep("b", "Gun"))


@pytest.mark.parametrize("ground", ["hill", "rubble"])
def test_sharing_the_ground_a_building_stands_on_does_not_get_past_its_walls(ground):
    # The house stands on a hill (or in a rubble field): the attacker shares that piece with the
    # occupant, but only a unit inside the house itself may attack the people in it.
    under = piece("under", ground, square(8, 0, 16, 4))
    sc = scenario(
        [unit("a", (9, 2)), unit("c", (11, 3))],
        [unit("b", (11, 2))],
        terrain=[under],
        buildings=[building("h", HOUSE)],
    )
    b = battle(sc, [1, 6, 1])
    b.state.units["b"].concealed = False  # even when revealed, the walls are what you shoot
    a = b.state.units["a"]
    assert legal_attacks(b, a, ["b", "h"]) == [("h", "Gun")]
    with pytest.raises(IllegalActionError, match="attack the building"):
        act(b, "a", AttackStep("b", "Gun"))
    ev = act(b, "c", AttackStep("b", "Gun"))  # inside the same house
    assert of(ev, "attack")[0].outcome == "damage"


def test_occupants_may_attack_out():
    b = battle(_sc([unit("a", (4, 2))], [unit("b", (12, 2))]), [1, 6, 1])
    ev = act(b, "b", AttackStep("a", "Gun"))
    assert of(ev, "attack")[0].outcome == "damage"


def test_an_occupant_may_not_attack_the_people_inside_another_building():
    # Only a unit inside the same building gets past its walls: from inside one house the people
    # in the house next door are attacked through their own walls, like anyone's.
    sc = scenario(
        [unit("a", (7, 2))],
        [unit("b", (11, 2))],
        buildings=[building("g", square(4, 0, 8, 4)), building("h", HOUSE)],
    )
    b = battle(sc, [1, 6, 1])
    b.state.units["b"].concealed = False  # even when revealed, the walls are what you shoot
    with pytest.raises(IllegalActionError, match="attack the building"):
        act(b, "a", AttackStep("b", "Gun"))


@pytest.mark.parametrize(("x", "weapon", "kw"), [(4, "Gun", {}), (9.5, CLOSE_COMBAT, {"melee": 4})])
def test_buildings_do_not_dodge_no_skill_roll(x, weapon, kw):
    # Shooting and Melee alike: a 6 would miss against Skill 2, but no Skill roll is made.
    b = battle(_sc([unit("a", (x, 2), skill=2, **kw)], [unit("b", (20, 20))]), [6, 1])
    ev = act(b, "a", AttackStep("h", weapon))
    assert [r.purpose for r in of(ev, "roll")] == ["penetration", "armour"]
    assert of(ev, "attack")[0].outcome == "damage"
    assert b.state.buildings["h"].hits == 1


def test_distance_to_a_building_is_to_its_nearest_wall():
    b = battle(_sc([unit("a", (9.5, 2), melee=4)], [unit("b", (20, 20))]), [6, 1])
    ev = act(b, "a", AttackStep("h", CLOSE_COMBAT))
    assert of(ev, "attack")[0].distance == 0.5


def test_a_building_partly_behind_a_wood_is_attacked_where_a_string_reaches_its_walls():
    # The wood hides the nearest wall (8" off), not the whole house: "model's eye view — use a
    # string" finds the nearest part of the walls in sight, and the shot goes there. The wood's
    # shadow on the wall x = 10 runs from y 0.4 to 3.6 (the strings past its corners (6, 1.2)
    # and (6, 2.8)): its edge, a thousandth of an inch beyond, is 8.159" off.
    house = building("h", square(10, 0, 20, 10), resistance=0, hits=3)
    wood = piece("w", "woods", square(6, 1.2, 7, 2.8))
    sc = scenario([unit("a", (2, 2))], [unit("b", (22, 22))], terrain=[wood], buildings=[house])
    b = battle(sc, [6, 1])
    assert not b.sight.line_clear((2, 2), (10, 2))
    ev = act(b, "a", AttackStep("h", "Gun"))
    assert [(e.target, e.distance, e.outcome) for e in of(ev, "attack")] == [("h", 8.159, "damage")]
    # Behind a wood as wide as the house, no string reaches it.
    wall = piece("w", "woods", square(6, 0, 7, 11))
    sc = scenario([unit("a", (2, 2))], [unit("b", (22, 22))], terrain=[wall], buildings=[house])
    with pytest.raises(IllegalActionError, match="no line of sight to h"):
        act(battle(sc), "a", AttackStep("h", "Gun"))


def test_a_string_goes_to_the_nearest_point_seen_of_another_wall_of_the_building():
    # An L-shaped house; a stands in the notch, 3" from the wall x = 14 and 4" from the wall
    # y = 4. The wood hides all of the wall x = 14 but y 4 to 5 (4.243" off at best); the
    # string goes to the nearest point of the wall y = 4, right below a at (11, 4), 4" off, and
    # so a gun of Range 4 reaches the house.
    house = building(
        "h", [[10, 0], [20, 0], [20, 10], [14, 10], [14, 4], [10, 4]], resistance=0, hits=3
    )
    wood = piece("w", "woods", square(12, 7, 13, 9))
    gun = [{"name": "Gun", "power": 3, "range": 4}]
    sc = scenario(
        [unit("a", (11, 8), weapons=gun)], [unit("b", (22, 22))], terrain=[wood], buildings=[house]
    )
    b = battle(sc, [6, 1])
    assert not b.sight.line_clear((11, 8), (14, 8))
    ev = act(b, "a", AttackStep("h", "Gun"))
    assert [(e.target, e.distance, e.outcome) for e in of(ev, "attack")] == [("h", 4.0, "damage")]


def test_a_string_to_a_wall_under_a_wood_goes_to_where_the_wood_begins():
    # The wood hides the wall x = 10 from a, save where the wood lies over the wall itself (y 4
    # to 6): a string to a point there ends in the wood, which hides nothing from within it. The
    # nearest part seen is where the wood's edge crosses the wall: (10, 4.001), 8.062" off.
    house = building("h", square(10, 0, 20, 10), resistance=0, hits=3)
    wood = piece("w", "woods", [[6, 1], [7, 1], [7, 4], [11, 4], [11, 6], [6, 6]])
    sc = scenario([unit("a", (2, 3))], [unit("b", (22, 22))], terrain=[wood], buildings=[house])
    b = battle(sc, [6, 1])
    assert not b.sight.line_clear((2, 3), (10, 3))
    ev = act(b, "a", AttackStep("h", "Gun"))
    assert [(e.target, e.distance, e.outcome) for e in of(ev, "attack")] == [("h", 8.062, "damage")]


def test_a_fixed_mount_fires_at_the_part_of_a_building_in_front_of_it():
    # Facing 60°, its nearest wall point (6, 2) lies 60° off: but the wall runs on into its
    # front arc, and the nearest point of it there, where the arc's edge at 15° meets it,
    # (6, 2 + 4 tan 15°), is 4.141" off.
    house = building("h", square(6, 0, 24, 14), resistance=0, hits=3)
    tank = unit("a", (2, 2), facing=60, keywords=["fixed_mount"])
    b = battle(scenario([tank], [unit("b", (1, 23))], buildings=[house]), [6, 1])
    ev = act(b, "a", AttackStep("h", "Gun"))
    assert [(e.distance, e.outcome) for e in of(ev, "attack")] == [(4.141, "damage")]
    # A flier with a Fixed Mount strings over the wood that would hide that part from the tank.
    wood = piece("w", "woods", square(4, 2.5, 5, 5))
    flier = unit("a", (2, 2), facing=60, keywords=["fixed_mount", "aerial"])
    sc = scenario([flier], [unit("b", (1, 23))], terrain=[wood], buildings=[house])
    b = battle(sc, [6, 1])
    assert not b.sight.line_clear((2, 2), (6, 3.072))
    ev = act(b, "a", AttackStep("h", "Gun"))
    assert [(e.distance, e.outcome) for e in of(ev, "attack")] == [(4.141, "damage")]
    # Facing away, no part of the house is in front of it.
    away = unit("a", (2, 2), facing=180, keywords=["fixed_mount"])
    b = battle(scenario([away], [unit("b", (1, 23))], buildings=[house]))
    with pytest.raises(IllegalActionError, match="outside the front arc"):
        act(b, "a", AttackStep("h", "Gun"))


def test_only_power_3_or_more_can_damage_a_structure():
    # Power 2 may not even try, whatever the dice; Power 3 is enough, and damages the house.
    guns = [
        {"name": "Rifles", "power": 2, "range": 12},
        {"name": "Cannon", "power": 3, "range": 12},
    ]
    b = battle(_sc([unit("a", (4, 2), weapons=guns)], [unit("b", (20, 20))]), [6, 1])
    with pytest.raises(IllegalActionError, match="Power 3"):
        act(b, "a", AttackStep("h", "Rifles"))
    ev = act(b, "a", AttackStep("h", "Cannon"))
    shot = of(ev, "attack")[0]
    assert (shot.weapon, shot.power, shot.outcome) == ("Cannon", 3, "damage")
    assert b.state.buildings["h"].hits == 1


def test_close_combat_below_power_3_cannot_damage_a_structure():
    # Melee 2, and a Size 2 ram (Power = Size), are too weak for a structure; Size 3 is enough.
    b = battle(
        _sc([unit("a", (9.5, 2), melee=2), unit("c", (9.5, 3), size=2)], [unit("b", (20, 20))])
    )
    with pytest.raises(IllegalActionError, match="Power 3"):
        act(b, "a", AttackStep("h", CLOSE_COMBAT))
    with pytest.raises(IllegalActionError, match="Power 3"):
        act(b, "c", AttackStep("h", CLOSE_COMBAT))
    b = battle(_sc([unit("c", (9.5, 3), size=3)], [unit("b", (20, 20))]), [6, 1])
    ev = act(b, "c", AttackStep("h", CLOSE_COMBAT))
    assert of(ev, "attack")[0].power == 3 and b.state.buildings["h"].hits == 1


def test_an_attack_on_a_building_is_its_power_against_the_buildings_resistance():
    # The card's Resistance is the building's armour: the Gun's 4 + 3 ties the house's 4 + 3
    # and armour wins; a 5 + 3 beats it and costs the house a Hit.
    for faces, outcome, hits in (([4, 4], "no_damage", 2), ([5, 4], "damage", 1)):
        b = battle(_sc([unit("a", (4, 2))], [unit("b", (20, 20))], resistance=3), faces)
        ev = act(b, "a", AttackStep("h", "Gun"))
        assert [(r.who, r.purpose, r.modifier) for r in of(ev, "roll")] == [
            ("a", "penetration", 3),
            ("h", "armour", 3),
        ]
        assert of(ev, "attack")[0].outcome == outcome and b.state.buildings["h"].hits == hits


def test_buildings_cannot_be_suppressed():
    b = battle(_sc([unit("a", (4, 2))], [unit("b", (20, 20))]), [1, 6])
    ev = act(b, "a", AttackStep("h", "Gun"))
    assert of(ev, "attack")[0].outcome == "no_damage"
    assert not of(ev, "suppress")


def test_at_zero_hits_a_building_collapses_into_its_rubble():
    b = battle(_sc([unit("a", (4, 2))], [unit("b", (20, 20))], hits=1), [6, 1])
    ev = act(b, "a", AttackStep("h", "Gun"))
    assert of(ev, "collapse")[0].building == "h"
    assert b.state.buildings["h"].collapsed
    rubble = next(t for t in b.state.terrain if t.id == "h")
    assert rubble.kind == "rubble" and rubble.props.hazard and rubble.props.blocks_sight


def test_a_building_with_a_hit_left_stands_and_collapses_at_0_hits():
    # "At 0 Hits it collapses": a 2-Hit house damaged once stands, and still blocks and admits
    # as a building; damaged again, it falls.
    b = battle(_sc([unit("a", (4, 2))], [unit("b", (20, 20))], hits=2), [6, 1, 6, 1])
    ev = act(b, "a", AttackStep("h", "Gun"))
    assert [(d.unit, d.hits) for d in of(ev, "damage")] == [("h", 1)]
    assert not of(ev, "collapse") and not b.state.buildings["h"].collapsed
    assert not b.sight.line_clear((8, 2), (16, 2))
    b.emit(TurnStart(2))
    ev = act(b, "a", AttackStep("h", "Gun"))
    assert [c.building for c in of(ev, "collapse")] == ["h"]
    assert b.state.buildings["h"].collapsed and b.state.buildings["h"].hits == 0


def test_a_fallen_building_is_attacked_no_more():
    # At 0 Hits it collapses to its rubble state: what is left is rubble, no building with Hits
    # to lose, so no one may attack it again, nor is it among the attacks a commander is offered.
    sc = _sc([unit("a", (4, 2)), unit("c", (4, 3))], [unit("b", (20, 20))], hits=1)
    b = battle(sc, [6, 1, 6, 1])
    act(b, "a", AttackStep("h", "Gun"))
    assert b.state.buildings["h"].collapsed
    with pytest.raises(IllegalActionError, match="already collapsed"):
        act(b, "c", AttackStep("h", "Gun"))
    assert legal_attacks(b, b.state.units["c"], ["h"]) == []
    assert b.state.buildings["h"].hits == 0


def test_a_building_becomes_the_rubble_its_card_names():
    b = battle(
        _sc(
            [unit("a", (4, 2))],
            [unit("b", (20, 20))],
            hits=1,
            rubble={"kind": "crater", "hazard": True},
        ),
        [6, 1],
    )
    act(b, "a", AttackStep("h", "Gun"))
    rubble = next(t for t in b.state.terrain if t.id == "h")
    assert rubble.kind == "crater" and not rubble.props.blocks_sight


def test_each_occupant_rolls_skill_or_takes_a_hit_when_it_collapses():
    sc = _sc([unit("a", (4, 2))], [unit("b", (11, 2)), unit("c", (13, 2))], hits=1)
    b = battle(sc, [6, 1, 4, 5])
    ev = act(b, "a", AttackStep("h", "Gun"))
    assert [(r.who, r.purpose, r.outcome) for r in of(ev, "roll")][2:] == [
        ("b", "collapse", "success"),
        ("c", "collapse", "failure"),
    ]
    assert [(d.unit, d.hits, d.by) for d in of(ev, "damage")][1:] == [("c", 1, None)]


def test_an_occupant_the_fall_takes_to_0_hits_is_destroyed_and_scored_by_its_enemy():
    # "Each occupant rolls Skill or takes 1 Hit", and a unit at 0 Hits is destroyed: the fall
    # removes a one-Hit occupant of either side, and each removal scores its Size for that
    # unit's enemy ("score removed units by Size"), the attacker's own unit included. The
    # occupant with Hits to spare takes its Hit and fights on; the flier over the roof rolls
    # nothing.
    sc = scenario(
        [
            unit("a", (4, 2)),
            unit("c", (11, 1), hits=1, size=1),
            unit("f", (12, 3), keywords=["aerial"]),
        ],
        [unit("b", (12, 2), hits=1, size=2), unit("d", (13, 1), hits=2), unit("r", (22, 22))],
        buildings=[building("h", HOUSE, hits=1)],
        ruleset="one_year_war",
    )
    b = battle(sc, [6, 1, 6, 6, 6])  # the house falls; c, b and d all roll over their Skill
    ev = act(b, "a", AttackStep("h", "Gun"))
    assert of(ev, "collapse")[0].occupants == ("c", "b", "d")
    assert [(d.unit, d.hits, d.by) for d in of(ev, "damage")][1:] == [
        ("c", 0, None),
        ("b", 0, None),
        ("d", 1, None),
    ]
    assert [(r.unit, r.how) for r in of(ev, "remove")] == [("c", "destroyed"), ("b", "destroyed")]
    assert [(s.side, s.points) for s in of(ev, "score")] == [("red", 1), ("blue", 2)]
    assert b.state.scores == {"blue": 2, "red": 1}
    assert b.state.units["d"].active and b.state.units["f"].active
    assert (b.state.units["f"].hits, b.state.units["a"].hits) == (2, 2)


def test_a_unit_removed_inside_a_building_is_no_occupant_when_it_collapses():
    # c, inside with b, destroys b; then the house falls. Only c is in it to roll: b, removed,
    # is in the collapse's occupants no more, rolls nothing and takes no Hit.
    sc = _sc([unit("a", (4, 2)), unit("c", (13, 2))], [unit("b", (11, 2), hits=1)], hits=1)
    b = battle(sc, [1, 6, 1, 6, 1, 6, 6])
    act(b, "c", AttackStep("b", "Gun"))
    assert b.state.units["b"].removed.value == "destroyed"
    ev = act(b, "a", AttackStep("h", "Gun"))
    assert of(ev, "collapse")[0].occupants == ("c",)
    assert [(r.who, r.outcome) for r in of(ev, "roll") if r.purpose == "collapse"] == [
        ("c", "failure")
    ]
    assert [(d.unit, d.hits) for d in of(ev, "damage")] == [("h", 0), ("c", 1)]


def test_each_occupant_rolls_against_the_skill_it_has_now_when_it_collapses():
    # c, inside with b, suppresses b from Skill 4 to 3; then the house falls. c rolls a 4 against
    # its own 4 and passes; b rolls the same 4 against the 3 it has now, fails, and takes the Hit.
    sc = _sc([unit("a", (4, 2)), unit("c", (13, 2))], [unit("b", (11, 2))], hits=1)
    b = battle(sc, [1, 1, 6, 6, 1, 4, 4])
    act(b, "c", AttackStep("b", "Gun"))
    assert b.state.units["b"].skill == 3
    ev = act(b, "a", AttackStep("h", "Gun"))
    rolls = [
        (r.who, r.value, r.against, r.outcome) for r in of(ev, "roll") if r.purpose == "collapse"
    ]
    assert rolls == [("c", 4, 4, "success"), ("b", 4, 3, "failure")]
    assert [(d.unit, d.hits) for d in of(ev, "damage")][1:] == [("b", 1)]


def test_a_collapse_that_opens_the_lines_spots_whoever_it_no_longer_hides():
    # The house falls into a crater that blocks no sight: its occupant b now stands in the open,
    # and d, behind the house, is no longer behind anything. Both are seen at once (E5), and a
    # unit that has not yet acted may shoot b.
    sc = _sc(
        [unit("a", (4, 2)), unit("c", (4, 3))],
        [unit("b", (11, 2)), unit("d", (17, 2)), unit("r", (22, 22))],
        hits=1,
        rubble={"kind": "crater", "hazard": True},
    )
    b = battle(sc, [6, 1, 1, 1, 6, 1])  # the house falls; b passes its roll; c damages b
    assert b.state.units["b"].concealed and b.state.units["d"].concealed
    ev = act(b, "a", AttackStep("h", "Gun"))
    spotted = [r.unit for r in of(ev, "reveal") if r.cause == "spotted"]
    assert spotted == ["b", "d"]
    assert not b.state.units["r"].concealed
    ev = act(b, "c", AttackStep("b", "Gun"))
    assert of(ev, "attack")[0].outcome == "damage"


def test_a_collapse_into_rubble_that_blocks_sight_keeps_its_occupants_concealed():
    sc = _sc([unit("a", (4, 2))], [unit("b", (11, 2)), unit("d", (17, 2))], hits=1)
    b = battle(sc, [6, 1, 1])  # the house falls into rubble; b passes its roll
    ev = act(b, "a", AttackStep("h", "Gun"))
    assert not [r for r in of(ev, "reveal") if r.cause == "spotted"]
    assert b.state.units["b"].concealed and b.state.units["d"].concealed


def test_occupants_of_rubble_can_then_be_attacked_by_units_in_the_same_rubble():
    sc = _sc([unit("a", (4, 2)), unit("d", (10.5, 1))], [unit("b", (11, 2))], hits=1)
    b = battle(sc, [6, 1, 1, 1, 1, 6, 1])  # both occupants pass their collapse rolls
    act(b, "a", AttackStep("h", "Gun"))
    ev = act(b, "d", AttackStep("b", "Gun"))
    assert of(ev, "attack")[0].outcome == "damage"


def test_breaching_enters_a_building_it_otherwise_could_not_skill_roll_passed():
    sc = _sc([unit("a", (8, 2), size=4, keywords=["breaching"])], [unit("b", (20, 20))])
    b = battle(sc, [3])
    ev = act(b, "a", MoveStep(((12, 2),)))
    assert of(ev, "roll")[0].purpose == "breaching"
    assert b.state.units["a"].position == (12, 2) and b.state.units["a"].hits == 2


def test_breaching_skill_roll_failed_takes_one_hit_and_goes_in():
    sc = _sc([unit("a", (8, 2), size=4, keywords=["breaching"])], [unit("b", (20, 20))])
    b = battle(sc, [6])
    ev = act(b, "a", MoveStep(((12, 2),)))
    assert [(d.unit, d.hits) for d in of(ev, "damage")] == [("a", 1)]
    assert b.state.units["a"].position == (12, 2)


def test_the_breaching_roll_is_against_the_skill_the_unit_has_now():
    # Suppressed from Skill 4 to 3 by r's shot, a rolls its Breaching against 3: a 4, which
    # its printed Skill would pass, costs it the Hit.
    sc = _sc(
        [unit("a", (8, 2), size=4, keywords=["breaching"])],
        [unit("r", (8, 10)), unit("q", (20, 20))],
    )
    b = battle(sc, [1, 1, 6, 4])
    act(b, "r", AttackStep("a", "Gun"))
    assert b.state.units["a"].skill == 3
    ev = act(b, "a", MoveStep(((12, 2),)))
    roll = of(ev, "roll")[0]
    assert (roll.purpose, roll.value, roll.against, roll.outcome) == ("breaching", 4, 3, "failure")
    assert [(d.unit, d.hits) for d in of(ev, "damage")] == [("a", 1)]
    assert b.state.units["a"].position == (12, 2)


@pytest.mark.parametrize("skill", [2, 5])
def test_breaching_roll_passes_on_skill_and_costs_a_hit_one_over(skill):
    # "Skill roll or take 1 Hit": a roll equal to the unit's Skill goes in unharmed, one over
    # goes in with a Hit.
    sc = _sc(
        [unit("a", (8, 2), size=4, skill=skill, keywords=["breaching"])], [unit("b", (20, 20))]
    )
    for face, outcome, hits in ((skill, "success", 2), (skill + 1, "failure", 1)):
        b = battle(sc, [face])
        roll = of(act(b, "a", MoveStep(((12, 2),))), "roll")[0]
        assert (roll.purpose, roll.value, roll.against, roll.outcome) == (
            "breaching",
            face,
            skill,
            outcome,
        )
        assert b.state.units["a"].position == (12, 2) and b.state.units["a"].hits == hits


def test_a_breach_that_destroys_the_unit_stops_it_at_the_wall():
    sc = _sc([unit("a", (8, 2), size=4, hits=1, keywords=["breaching"])], [unit("b", (20, 20))])
    b = battle(sc, [6])
    act(b, "a", MoveStep(((12, 2),)))
    assert b.state.units["a"].position == (10, 2)
    assert not b.state.units["a"].active


def test_a_building_admitting_the_unit_needs_no_breaching_roll():
    sc = _sc([unit("a", (8, 2), size=2, keywords=["breaching"])], [unit("b", (20, 20))])
    ev = act(battle(sc), "a", MoveStep(((12, 2),)))
    assert not of(ev, "roll")


def test_a_breaching_unit_leaves_a_building_that_does_not_admit_it_without_a_roll():
    # "Breaching — may enter buildings it otherwise couldn't. Skill roll or take 1 Hit": the
    # roll is for going in; walking out of one rolls nothing.
    sc = _sc([unit("a", (12, 2), size=4, keywords=["breaching"])], [unit("b", (20, 20))])
    b = battle(sc)
    ev = act(b, "a", MoveStep(((16, 2),)))
    assert not of(ev, "roll")
    assert b.state.units["a"].position == (16, 2) and b.state.units["a"].hits == 2


def test_a_breaching_unit_walks_into_a_fallen_building_without_a_roll():
    # "Breaching — may enter buildings it otherwise couldn't. Skill roll or take 1 Hit": once
    # fallen, the house is its rubble and no building, so the tank it never admitted walks in
    # with no Breaching roll (an open rubble asks no terrain roll either).
    sc = _sc(
        [unit("a", (8, 2), size=4, keywords=["breaching"])],
        [unit("r", (12, 8))],
        hits=1,
        rubble={"kind": "open"},
    )
    b = battle(sc, [6, 1])
    act(b, "r", AttackStep("h", "Gun"))
    assert b.state.buildings["h"].collapsed
    ev = act(b, "a", MoveStep(((12, 2),)))
    assert not of(ev, "roll")
    assert b.state.units["a"].position == (12, 2) and b.state.units["a"].hits == 2


def test_a_building_of_a_side_is_not_attacked_by_that_side():
    sc = scenario(
        [unit("a", (4, 2))], [unit("b", (20, 20))], buildings=[building("h", HOUSE, side="blue")]
    )
    with pytest.raises(IllegalActionError, match="same side"):
        act(battle(sc), "a", AttackStep("h", "Gun"))


def test_buildings_never_activate():
    from battles.engine import run_battle

    rec = run_battle(_sc([unit("a", (4, 2))], [unit("b", (20, 20))]), seed=2)
    assert "h" not in {e.unit for e in rec.events if e.KIND == "activation"}


def test_a_unit_cannot_attack_the_building_it_stands_in():
    b = battle(_sc([unit("a", (12, 2))], [unit("b", (20, 20))]))
    with pytest.raises(IllegalActionError, match="inside h"):
        act(b, "a", AttackStep("h", "Gun"))


@pytest.mark.parametrize(("edge", "stop"), [(10, 9.99), (10.005, 9.995)])
def test_a_breaching_unit_stopped_by_a_hazard_at_the_wall_pays_nothing_for_the_building(edge, stop):
    # The rubble begins at the house's wall (or a hair inside it, nearer than the gap a failed
    # roll leaves): the mech must pass the terrain roll to reach the wall at all. It fails, stops
    # at the edge outside, and never enters: no Breaching roll, no Hit. Its next move rolls again
    # for the same wall, once.
    sc = scenario(
        [unit("a", (8, 2), size=4, move=6, keywords=["breaching"])],
        [unit("b", (20, 20))],
        buildings=[building("h", HOUSE)],
        terrain=[piece("rb", "rubble", square(edge, 0, 11, 4))],
    )
    b = battle(sc, [6, 1, 1])
    ev = act(b, "a", MoveStep(((12, 2),)))
    assert [(r.purpose, r.outcome) for r in of(ev, "roll")] == [("terrain", "failure")]
    assert not of(ev, "damage")
    assert b.state.units["a"].position == (stop, 2) and b.state.units["a"].hits == 2
    b.emit(TurnStart(2))
    ev = act(b, "a", MoveStep(((12, 2),)))
    assert [r.purpose for r in of(ev, "roll")] == ["terrain", "breaching"]
    assert b.state.units["a"].position == (12, 2) and b.state.units["a"].hits == 2


def test_a_building_seen_through_a_gap_narrower_than_any_step_is_attacked_through_it():
    # Two woods leave a slit 0.03" wide between y 5.01 and 5.04 at x 6: a string through it
    # reaches the house's wall x = 10 between y 8.02 and 8.06 (E2: "out of sight only when no
    # part of its walls in Range is in it"), however narrow the part seen.
    house = building("h", square(10, 0, 14, 10), resistance=0, hits=3)
    low = piece("w1", "woods", square(6, 0, 6.01, 5.01))
    high = piece("w2", "woods", square(6, 5.04, 6.01, 11))
    sc = scenario([unit("a", (2, 2))], [unit("b", (22, 22))], terrain=[low, high],
                  buildings=[house])  # fmt: skip
    b = battle(sc, [6, 1])
    assert b.sight.line_clear((2, 2), (10, 8.04)) and not b.sight.line_clear((2, 2), (10, 8.25))
    ev = act(b, "a", AttackStep("h", "Gun"))
    # The nearest point seen: a thousandth of an inch past the edge at (10, 8.02), the string
    # past the wood's corner (6, 5.01): sqrt(8² + 6.021²) = 10.013".
    assert [(e.target, e.distance, e.outcome) for e in of(ev, "attack")] == [
        ("h", 10.013, "damage")
    ]
    # Closed, no string reaches it.
    shut = piece("w2", "woods", square(6, 5.01, 6.01, 11))
    sc = scenario([unit("a", (2, 2))], [unit("b", (22, 22))], terrain=[low, shut],
                  buildings=[house])  # fmt: skip
    with pytest.raises(IllegalActionError, match="no line of sight to h"):
        act(battle(sc), "a", AttackStep("h", "Gun"))
