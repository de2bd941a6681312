"""Every keyword, under both rulesets: they grant or deny, they never adjust a number."""

from __future__ import annotations

import math

import pytest

from battles.engine import (
    CLOSE_COMBAT,
    AttackStep,
    IllegalActionError,
    MoveStep,
    RevealStep,
    geometry,
)
from battles.engine.events import TurnStart
from battles.engine.targeting import legal_attacks

from .helpers import act, battle, building, kinds, of, piece, scenario, square, unit

WOOD = piece("wood", "woods", square(5, 0, 7, 4))
LAKE = piece("lake", "water", square(4, 0, 8, 10))
AA = [{"name": "Flak", "power": 3, "range": 12, "aa": True}]


# --- Aerial ------------------------------------------------------------------------------------


def test_aerial_ignores_all_terrain_when_moving():
    sc = scenario(
        [unit("a", (2, 2), move=10, keywords=["aerial"])],
        [unit("b", (20, 20))],
        terrain=[LAKE, piece("r", "river", square(9, 0, 10, 10))],
    )
    ev = act(battle(sc), "a", MoveStep(((11, 2),)))
    assert not of(ev, "roll") and of(ev, "move")[0].path[-1] == (11, 2)


@pytest.mark.parametrize("ruleset", ["combined_arms", "one_year_war"])
def test_aerial_is_never_concealed_and_never_blocked(ruleset):
    sc = scenario(
        [unit("a", (2, 2), weapons=AA)],
        [unit("b", (10, 2), keywords=["aerial"])],
        terrain=[WOOD],
        ruleset=ruleset,
    )
    b = battle(sc, [1, 6, 1])
    assert not b.state.units["b"].concealed
    shot = of(act(b, "a", AttackStep("b", "Flak")), "attack")[0]
    assert (shot.target, shot.outcome) == ("b", "damage")


@pytest.mark.parametrize("ruleset", ["combined_arms", "one_year_war"])
def test_nothing_blocks_a_fliers_line_to_a_unit_behind_terrain(ruleset):
    # "Never blocked" both ways: g stands in the open behind the wood. From the ground a has no
    # line to it, and with no flier g starts concealed; an enemy flier's line to it is clear, so
    # g does not start concealed, the flier shoots it, and a still may not.
    blue = [unit("a", (2, 2)), unit("h", (2, 3), keywords=["aerial"])]
    red = [unit("g", (10, 2))]
    b = battle(scenario(blue[:1], red, terrain=[WOOD], ruleset=ruleset))
    assert b.state.units["g"].concealed
    b = battle(scenario(blue, red, terrain=[WOOD], ruleset=ruleset), [1, 6, 1])
    assert not b.state.units["g"].concealed
    with pytest.raises(IllegalActionError, match="no line of sight to g"):
        act(b, "a", AttackStep("g", "Gun"))
    shot = of(act(b, "h", AttackStep("g", "Gun")), "attack")[0]
    assert (shot.attacker, shot.target, shot.outcome) == ("h", "g", "damage")


def test_under_combined_arms_only_aa_weapons_can_attack_aerial():
    sc = scenario(
        [unit("a", (2, 2), weapons=[*AA, {"name": "Gun", "power": 3, "range": 12}])],
        [unit("b", (8, 2), keywords=["aerial"])],
    )
    b = battle(sc, [1, 6, 1])
    with pytest.raises(IllegalActionError, match="only weapons marked AA"):
        act(b, "a", AttackStep("b", "Gun"))
    shot = of(act(b, "a", AttackStep("b", "Flak")), "attack")[0]
    assert (shot.weapon, shot.target, shot.outcome) == ("Flak", "b", "damage")
    assert b.state.units["b"].hits == 1


def test_under_combined_arms_aerial_cannot_be_rammed_or_meleed():
    sc = scenario([unit("a", (2, 2), melee=3)], [unit("b", (2.5, 2), keywords=["aerial"])])
    with pytest.raises(IllegalActionError, match="AA"):
        act(battle(sc), "a", AttackStep("b", CLOSE_COMBAT))


def test_under_one_year_war_any_weapon_can_attack_aerial():
    # The same Gun without AA that Combined Arms refuses is an ordinary attack here.
    blue, red = [unit("a", (2, 2))], [unit("b", (8, 2), keywords=["aerial"])]
    with pytest.raises(IllegalActionError, match="only weapons marked AA"):
        act(battle(scenario(blue, red)), "a", AttackStep("b", "Gun"))
    b = battle(scenario(blue, red, ruleset="one_year_war"), [1, 6, 1])
    ev = act(b, "a", AttackStep("b", "Gun"))
    shot = of(ev, "attack")[0]
    assert (shot.weapon, shot.target, shot.outcome) == ("Gun", "b", "damage")
    assert b.state.units["b"].hits == 1


def test_aerial_over_a_building_is_not_inside_it():
    sc = scenario(
        [unit("a", (2, 2), weapons=AA)],
        [unit("b", (12, 2), keywords=["aerial"])],
        buildings=[building("h", square(10, 0, 14, 4))],
    )
    # Over the house b is not one of the people inside: it is attacked itself, not the house,
    # and it is among the attacks a commander is offered.
    b = battle(sc, [1, 6, 1])
    assert ("b", "Flak") in legal_attacks(b, b.state.units["a"], ["b"])
    shot = of(act(b, "a", AttackStep("b", "Flak")), "attack")[0]
    assert (shot.target, shot.outcome) == ("b", "damage")
    assert b.state.units["b"].hits == 1 and b.state.buildings["h"].hits == 2


def test_a_flier_over_a_building_does_not_roll_when_it_collapses():
    # The house falls with a trooper inside and a flier over it: only the trooper rolls (E15).
    sc = scenario(
        [unit("a", (2, 2))],
        [unit("c", (11, 2)), unit("f", (12, 2), keywords=["aerial"])],
        buildings=[building("h", square(10, 0, 14, 4), hits=1)],
    )
    b = battle(sc, [6, 1, 1])
    ev = act(b, "a", AttackStep("h", "Gun"))
    assert of(ev, "collapse")[0].occupants == ("c",)
    assert [(r.who, r.purpose) for r in of(ev, "roll")][2:] == [("c", "collapse")]
    assert b.state.units["f"].hits == 2


# --- Split Movement ----------------------------------------------------------------------------


def test_split_movement_move_fire_move():
    sc = scenario([unit("a", (2, 2), keywords=["split_movement"])], [unit("b", (12, 2))])
    b = battle(sc, [6])
    ev = act(b, "a", MoveStep(((4, 2),)), AttackStep("b", "Gun"), MoveStep(((4, 6),)))
    assert kinds(ev).count("move") == 2 and of(ev, "attack")
    assert b.state.units["a"].position == (4, 6)


def test_split_movement_total_may_not_exceed_move():
    sc = scenario([unit("a", (2, 2), keywords=["split_movement"])], [unit("b", (12, 2))])
    with pytest.raises(IllegalActionError, match="more than the 2"):
        act(battle(sc), "a", MoveStep(((6, 2),)), AttackStep("b", "Gun"), MoveStep(((6, 5),)))


def test_without_split_movement_move_fire_move_is_refused():
    sc = scenario([unit("a", (2, 2), keywords=["move_and_fire"])], [unit("b", (12, 2))])
    with pytest.raises(IllegalActionError):
        act(battle(sc), "a", MoveStep(((3, 2),)), AttackStep("b", "Gun"), MoveStep(((3, 3),)))


# --- Fixed Mount -------------------------------------------------------------------------------


def test_fixed_mount_fires_only_forward():
    sc = scenario([unit("a", (2, 2), facing=90, keywords=["fixed_mount"])], [unit("b", (10, 2))])
    with pytest.raises(IllegalActionError, match="front arc"):
        act(battle(sc), "a", AttackStep("b", "Gun"))
    sc = scenario([unit("a", (2, 2), facing=40, keywords=["fixed_mount"])], [unit("b", (10, 2))])
    shot = of(act(battle(sc, [1, 6, 1]), "a", AttackStep("b", "Gun")), "attack")[0]
    assert (shot.target, shot.outcome) == ("b", "damage")


def test_without_fixed_mount_facing_does_not_matter():
    sc = scenario([unit("a", (2, 2), facing=180)], [unit("b", (10, 2))])
    shot = of(act(battle(sc, [1, 6, 1]), "a", AttackStep("b", "Gun")), "attack")[0]
    assert (shot.target, shot.outcome) == ("b", "damage")


def test_fixed_mount_turning_is_movement_and_costs_the_activation():
    sc = scenario([unit("a", (2, 2), facing=90, keywords=["fixed_mount"])], [unit("b", (10, 2))])
    b = battle(sc)
    with pytest.raises(IllegalActionError, match="moves or fires"):
        act(b, "a", MoveStep((), 0), AttackStep("b", "Gun"))
    ev = act(b, "a", MoveStep((), 0))
    assert of(ev, "move")[0].facing == 0 and of(ev, "move")[0].cost == 0
    assert b.state.units["a"].activated


def test_fixed_mount_faces_the_way_it_drove():
    sc = scenario([unit("a", (2, 2), facing=0, keywords=["fixed_mount"])], [unit("b", (20, 20))])
    b = battle(sc)
    act(b, "a", MoveStep(((2, 6),)))
    assert b.state.units["a"].facing == 90


def test_fixed_mount_faces_the_way_of_its_last_leg_with_length():
    # The last waypoint repeated is a leg of no length, and no direction: it faces north still.
    sc = scenario([unit("t", (5, 2), facing=0, keywords=["fixed_mount"])], [unit("r", (5, 14))])
    b = battle(sc)
    move = of(act(b, "t", MoveStep(((5, 8), (5, 8)))), "move")[0]
    assert move.facing == 90 and b.state.units["t"].facing == 90


def test_fixed_mount_with_move_and_fire_may_turn_then_fire():
    # Turning is movement (E40): Move and Fire lets it turn to face the target, then fire.
    sc = scenario(
        [unit("a", (2, 2), facing=90, keywords=["fixed_mount", "move_and_fire"])],
        [unit("b", (10, 2))],
    )
    b = battle(sc, [6])
    ev = act(b, "a", MoveStep((), 0), AttackStep("b", "Gun"))
    assert kinds(ev).index("move") < kinds(ev).index("attack")
    assert b.state.units["a"].facing == 0


def test_fixed_mount_with_split_movement_may_turn_fire_and_move_on():
    # Turning is movement (E40), and Split Movement is "move, fire, move": the turn is its first
    # move (0", E16), so the whole Move is left for the second.
    sc = scenario(
        [unit("a", (2, 2), facing=90, move=6, keywords=["fixed_mount", "split_movement"])],
        [unit("b", (10, 2))],
    )
    b = battle(sc, [6])
    ev = act(b, "a", MoveStep((), 0), AttackStep("b", "Gun"), MoveStep(((2, 8),)))
    assert kinds(ev).index("move") < kinds(ev).index("attack")
    assert [m.cost for m in of(ev, "move")] == [0, 6]
    assert b.state.units["a"].position == (2, 8)


# --- Breaching: see test_buildings.py ----------------------------------------------------------


def test_without_breaching_a_building_that_does_not_admit_is_impassable():
    sc = scenario(
        [unit("a", (8, 2), size=4)],
        [unit("b", (20, 20))],
        buildings=[building("h", square(10, 0, 14, 4))],
    )
    with pytest.raises(IllegalActionError, match="crosses terrain a may not enter"):
        act(battle(sc), "a", MoveStep(((12, 2),)))


# --- Move and Fire -----------------------------------------------------------------------------


def test_move_and_fire_may_move_then_fire():
    sc = scenario([unit("a", (2, 2), keywords=["move_and_fire"])], [unit("b", (16, 2))])
    b = battle(sc, [6])
    ev = act(b, "a", MoveStep(((5, 2),)), AttackStep("b", "Gun"))
    assert kinds(ev)[1:3] == ["move", "reveal"] and of(ev, "attack")


def test_move_and_fire_may_fire_then_move():
    sc = scenario([unit("a", (2, 2), keywords=["move_and_fire"])], [unit("b", (12, 2))])
    ev = act(battle(sc, [6]), "a", AttackStep("b", "Gun"), MoveStep(((2, 6),)))
    assert kinds(ev).index("attack") < kinds(ev).index("move")


CANNON = [{"name": "Cannon", "power": 4, "range": 12}]


@pytest.mark.parametrize("ruleset", ["combined_arms", "one_year_war"])
def test_a_move_after_an_attack_crosses_the_table_the_attack_left(ruleset):
    # Attacks resolve at once: a house too small for the tank falls to open ground, and the tank
    # drives on through where it stood. Before the shot that move was not legal.
    house = building("h", square(4, 3, 8, 7), resistance=0, hits=1, rubble={"kind": "open"})
    tank = unit("t", (2, 5), size=4, weapons=CANNON, keywords=["move_and_fire"])
    sc = scenario([tank], [unit("r", (22, 22))], buildings=[house], ruleset=ruleset)
    b = battle(sc, [6, 1])  # Skill roll needs none against a building: 6 + 4 > 1 + 0, one Hit
    ev = act(b, "t", AttackStep("h", "Cannon"), MoveStep(((7.9, 5),)))
    assert kinds(ev).index("collapse") < kinds(ev).index("move")
    assert b.state.units["t"].position == (7.9, 5)


@pytest.mark.parametrize("steps", ["fire-move", "move-fire-move"])
def test_a_move_after_an_attack_rolls_to_enter_the_rubble_it_made(steps):
    # The house the squad could walk into falls into rubble, which never blocks movement (E38):
    # the move planned through it before the shot now takes a terrain roll, and a failed one
    # stops the squad at the rubble's edge.
    house = building("h", square(4, 3, 8, 7), resistance=0, hits=1)
    keyword = "move_and_fire" if steps == "fire-move" else "split_movement"
    squad = unit("s", (2, 5), weapons=CANNON, keywords=[keyword])
    sc = scenario([squad], [unit("r", (22, 22))], buildings=[house])
    b = battle(sc, [6, 1, 5])  # 6 + 4 > 1 + 0, one Hit; then 5 over Skill 4 for the rubble
    first = (MoveStep(((1.5, 5),)),) if steps == "move-fire-move" else ()
    ev = act(b, "s", *first, AttackStep("h", "Cannon"), MoveStep(((6, 5),)))
    fell = kinds(ev).index("collapse")
    assert [(r.purpose, r.outcome) for r in of(ev[fell:], "roll")] == [("terrain", "failure")]
    assert of(ev, "move")[-1].halted
    x, y = b.state.units["s"].position
    assert 3.98 <= x < 4 and y == 5


def test_a_move_after_an_attack_through_a_house_left_standing_is_refused():
    # The move through the house too small for the tank waits on the shot, which may bring it
    # down: the shot fails, the house stands, and the move is refused when it comes.
    house = building("h", square(4, 3, 8, 7), resistance=0, hits=1)
    tank = unit("t", (2, 5), size=4, move=8, weapons=CANNON, keywords=["move_and_fire"])
    b = battle(scenario([tank], [unit("r", (22, 22))], buildings=[house]), [1, 6])
    logged = len(b.log)
    with pytest.raises(IllegalActionError, match="may not move"):
        act(b, "t", AttackStep("h", "Cannon"), MoveStep(((10, 5),)))
    assert of(b.log[logged:], "attack") and not b.state.buildings["h"].collapsed
    assert b.state.units["t"].position == (2, 5)


def test_a_move_after_an_attack_that_no_fall_could_open_is_refused_before_anything_happens():
    # Over the Move left, or clear of the house fired at: the shot cannot make it legal, so the
    # activation is refused at once, the house untouched.
    house = building("h", square(4, 3, 8, 7), resistance=0, hits=1, rubble={"kind": "open"})
    squad = unit("s", (1, 5), weapons=CANNON, keywords=["split_movement"])
    wood = piece("w", "woods", square(0, 0, 3, 2))
    sc = scenario([squad], [unit("r", (22, 22))], terrain=[wood], buildings=[house])
    b = battle(sc, [6, 1])
    logged = len(b.log)
    for second in ((2, 11),), ((2, 1),):  # 6" of the 5" left; into the wood
        with pytest.raises(IllegalActionError, match="may not move"):
            act(b, "s", MoveStep(((2, 5),)), AttackStep("h", "Cannon"), MoveStep(second))
    assert len(b.log) == logged and not b.state.buildings["h"].collapsed


def test_a_move_after_an_attack_over_the_move_left_and_through_the_house_is_refused_at_once():
    # Through the house fired at, but 9" of Move 6 (or 7" of the 5" left): no fall makes it
    # legal, so nothing happens, the house untouched.
    house = building("h", square(4, 3, 8, 7), resistance=0, hits=1, rubble={"kind": "open"})
    for keywords, steps in (
        (["move_and_fire"], (AttackStep("h", "Cannon"), MoveStep(((10, 5),)))),
        (
            ["split_movement"],
            (MoveStep(((2, 5),)), AttackStep("h", "Cannon"), MoveStep(((9, 5),))),
        ),
    ):
        tank = unit("t", (1, 5), size=4, move=6, weapons=CANNON, keywords=keywords)
        b = battle(scenario([tank], [unit("r", (22, 22))], buildings=[house]), [6, 1])
        logged = len(b.log)
        with pytest.raises(IllegalActionError, match="may not move"):
            act(b, "t", *steps)
        assert len(b.log) == logged and not b.state.buildings["h"].collapsed


def test_move_and_fire_is_a_permission_not_a_general_rule():
    # The same activation, legal for a card with Move and Fire, is refused for one without
    # (either order), and nothing happens: the unit has not moved.
    sc = scenario([unit("a", (2, 2))], [unit("b", (12, 2))])
    b = battle(sc)
    for steps in (
        (MoveStep(((3, 2),)), AttackStep("b", "Gun")),
        (AttackStep("b", "Gun"), MoveStep(((3, 2),))),
    ):
        with pytest.raises(
            IllegalActionError, match=r"may not (M-A|A-M): each unit moves or fires"
        ):
            act(b, "a", *steps)
    assert b.state.units["a"].position == (2, 2) and not of(b.log, "activation")
    sc = scenario([unit("a", (2, 2), keywords=["move_and_fire"])], [unit("b", (12, 2))])
    ev = act(battle(sc, [6]), "a", MoveStep(((3, 2),)), AttackStep("b", "Gun"))
    assert kinds(ev)[1:] == ["move", "reveal", "roll", "attack"]


def test_move_and_fire_still_fires_once():
    sc = scenario([unit("a", (2, 2), keywords=["move_and_fire"])], [unit("b", (12, 2))])
    with pytest.raises(IllegalActionError, match="may not A-A: each unit moves or fires"):
        act(battle(sc), "a", AttackStep("b", "Gun"), AttackStep("b", "Gun"))


# --- Sure-Footed -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kind", ["rubble", "rubble field", "river", "rivers", "hazard", "hazardous ground"]
)
def test_sure_footed_needs_no_roll_for_rubble_rivers_hazardous_ground(kind):
    # The same straight move across the piece: without Sure-Footed it asks for a terrain roll,
    # and a 6 stops the unit at the edge; with it, no die is rolled and the unit crosses.
    for keywords, rolls, end in (([], ["terrain"], (3.99, 2)), (["sure_footed"], [], (7, 2))):
        sc = scenario(
            [unit("a", (2, 2), keywords=keywords)],
            [unit("b", (20, 20))],
            terrain=[piece("t", kind, square(4, 0, 5, 10))],
        )
        b = battle(sc, [6])
        ev = act(b, "a", MoveStep(((7, 2),)))
        assert [r.purpose for r in of(ev, "roll")] == rolls, keywords
        assert b.state.units["a"].position == end, keywords


@pytest.mark.parametrize("kind", ["wall", "walls"])
def test_sure_footed_still_rolls_for_walls(kind):
    # "Not walls": a Sure-Footed unit rolls for a wall as anyone does, and a failed roll stops
    # it at the edge.
    for face, end in ((4, (7, 2)), (5, (3.99, 2))):
        sc = scenario(
            [unit("a", (2, 2), keywords=["sure_footed"])],
            [unit("b", (20, 20))],
            terrain=[piece("t", kind, square(4, 0, 4.3, 10))],
        )
        b = battle(sc, [face])
        ev = act(b, "a", MoveStep(((7, 2),)))
        roll = of(ev, "roll")[0]
        assert [r.purpose for r in of(ev, "roll")] == ["terrain"]
        assert (roll.value, roll.against) == (face, 4)
        assert b.state.units["a"].position == end


# --- Demolition --------------------------------------------------------------------------------


def test_demolition_charges_attack_buildings_twice():
    sc = scenario(
        [unit("a", (9.5, 2), keywords=["demolition"])],
        [unit("b", (20, 20))],
        buildings=[building("h", square(10, 0, 14, 4), hits=5)],
    )
    b = battle(sc, [6, 1, 6, 1])
    ev = act(b, "a", AttackStep("h", "Charges"))
    assert (of(ev, "attack")[0].power, of(ev, "attack")[0].weapon) == (4, "Charges")
    b.emit(TurnStart(2))
    act(b, "a", AttackStep("h", "Charges"))
    b.emit(TurnStart(3))
    with pytest.raises(IllegalActionError, match="no uses left"):
        act(b, "a", AttackStep("h", "Charges"))


def test_demolition_charges_are_buildings_only_and_range_1():
    sc = scenario(
        [unit("a", (2, 2), keywords=["demolition"])],
        [unit("b", (2.5, 2))],
        buildings=[building("h", square(10, 0, 14, 4))],
    )
    b = battle(sc)
    with pytest.raises(IllegalActionError, match="buildings only"):
        act(b, "a", AttackStep("b", "Charges"))
    with pytest.raises(IllegalActionError, match="out of range"):
        act(b, "a", AttackStep("h", "Charges"))


def test_demolition_charges_reach_exactly_1_inch_to_the_wall():
    # Range 1, measured to the nearest wall: 1" away the charge is placed, a hair more is not.
    for x, ok in ((9, True), (8.998, False)):
        sc = scenario(
            [unit("a", (x, 2), keywords=["demolition"])],
            [unit("b", (20, 20))],
            buildings=[building("h", square(10, 0, 14, 4), hits=5)],
        )
        b = battle(sc, [6, 1])
        if not ok:
            with pytest.raises(IllegalActionError, match="out of range"):
                act(b, "a", AttackStep("h", "Charges"))
            continue
        attack = of(act(b, "a", AttackStep("h", "Charges")), "attack")[0]
        assert (attack.weapon, attack.power, attack.distance, attack.outcome) == (
            "Charges",
            4,
            1,
            "damage",
        )
        assert b.state.buildings["h"].hits == 4


# --- Sensor (One Year War) ---------------------------------------------------------------------


def _sensor_sc(dist):
    return scenario(
        [unit("a", (2, 2), keywords=["sensor"])],
        [unit("b", (2 + dist, 2), enters=["woods"])],
        terrain=[piece("w", "woods", square(2 + dist - 1, 0, 2 + dist + 1, 4))],
        ruleset="one_year_war",
    )


def test_sensor_reveals_one_concealed_unit_within_6_instead_of_firing():
    b = battle(_sensor_sc(6), [6])
    assert b.state.units["b"].concealed
    ev = act(b, "a", RevealStep("b"))
    assert [(r.unit, r.cause, r.until) for r in of(ev, "reveal")] == [("b", "sensor", 1)]
    assert not of(ev, "attack") and b.state.units["a"].shots == 0
    b.emit(TurnStart(2))
    act(b, "a", AttackStep("b", "Gun"))  # now it can be attacked


def test_the_sensor_needs_no_line_of_sight():
    # b stands in the open behind a wood, out of every enemy's sight: concealed, and the Sensor
    # reveals it through the wood (E7).
    sc = scenario(
        [unit("a", (2, 2), keywords=["sensor"])],
        [unit("b", (8, 2))],
        terrain=[piece("w", "woods", square(4, 0, 6, 4))],
        ruleset="one_year_war",
    )
    b = battle(sc)
    assert b.state.units["b"].concealed and not b.sight.line_clear((2, 2), (8, 2))
    ev = act(b, "a", RevealStep("b"))
    assert [(r.unit, r.cause) for r in of(ev, "reveal")] == [("b", "sensor")]


def test_sensor_reveal_lasts_until_the_end_of_the_revealed_units_next_activation():
    b = battle(_sensor_sc(6))
    act(b, "a", RevealStep("b"))
    act(b, "b")
    assert b.state.units["b"].concealed


def test_a_sensor_reveal_of_a_unit_that_has_already_acted_lasts_into_the_next_turn():
    # b has had its activation this turn: its next one is next turn's, and the reveal lasts
    # through it. A friend of the Sensor may shoot b next turn, before b acts; after, b hides.
    sc = scenario(
        [unit("a", (2, 2), keywords=["sensor"]), unit("c", (2, 3))],
        [unit("b", (8, 2), enters=["woods"], hits=5)],
        terrain=[piece("w", "woods", square(7, 0, 9, 4))],
        ruleset="one_year_war",
    )
    b = battle(sc, [6])
    act(b, "b")
    ev = act(b, "a", RevealStep("b"))
    assert [(r.unit, r.cause, r.until) for r in of(ev, "reveal")] == [("b", "sensor", 2)]
    b.emit(TurnStart(2))
    shot = of(act(b, "c", AttackStep("b", "Gun")), "attack")[0]
    assert (shot.attacker, shot.target, shot.outcome) == ("c", "b", "miss")
    act(b, "b")
    assert b.state.units["b"].concealed


def test_sensor_reach_is_6_inches():
    with pytest.raises(IllegalActionError, match="within 6"):
        act(battle(_sensor_sc(6.5)), "a", RevealStep("b"))


@pytest.mark.parametrize(("at", "beyond"), [((8, 2), (8.002, 2)), ((5.6, 6.8), (5.602, 6.802))])
def test_sensor_reaches_exactly_6_inches_straight_or_slanting_and_not_a_hair_more(at, beyond):
    # "Within 6 inches" is 6" included, measured centre to centre at any angle (3.6" by 4.8"
    # is 6"); a few thousandths of an inch further the concealed unit is out of reach.
    def sc(pos):
        x, y = pos
        return scenario(
            [unit("a", (2, 2), keywords=["sensor"])],
            [unit("b", pos, enters=["woods"])],
            terrain=[piece("w", "woods", square(x - 0.5, y - 0.5, x + 0.5, y + 0.5))],
            ruleset="one_year_war",
        )

    with pytest.raises(IllegalActionError, match="within 6"):
        act(battle(sc(beyond)), "a", RevealStep("b"))
    b = battle(sc(at))
    assert b.state.units["b"].concealed
    ev = act(b, "a", RevealStep("b"))
    assert [(r.unit, r.cause) for r in of(ev, "reveal")] == [("b", "sensor")]
    assert not b.state.units["b"].concealed


@pytest.mark.parametrize(("at", "to"), [((0.8, 12.2), (4.4, 17.0)), ((15.7, 15.1), (15.7, 21.1))])
def test_sensor_reaches_6_inches_between_decimal_positions(at, to):
    # 3.6" by 4.8", or 6" straight, in tenths of an inch: 6" on the tape, a hair over in binary.
    x, y = to
    sc = scenario(
        [unit("a", at, keywords=["sensor"])],
        [unit("b", to, enters=["woods"])],
        terrain=[piece("w", "woods", square(x - 0.5, y - 0.5, x + 0.5, y + 0.5))],
        ruleset="one_year_war",
    )
    ev = act(battle(sc), "a", RevealStep("b"))
    assert [(r.unit, r.cause) for r in of(ev, "reveal")] == [("b", "sensor")]


def test_sensor_is_instead_of_firing_not_as_well():
    with pytest.raises(IllegalActionError):
        act(battle(_sensor_sc(6)), "a", RevealStep("b"), AttackStep("b", "Gun"))


def test_the_sensor_reveals_one_unit_and_only_a_concealed_one():
    # "reveal one concealed unit": two in the wood, one reveal; a unit already seen is no
    # Sensor's business, and the refusal leaves the activation unspent.
    sc = scenario(
        [unit("a", (2, 2), keywords=["sensor"])],
        [unit("b", (7, 2), enters=["woods"]), unit("c", (7, 3), enters=["woods"])],
        terrain=[piece("w", "woods", square(6, 0, 8, 4))],
        ruleset="one_year_war",
    )
    b = battle(sc)
    assert b.state.units["b"].concealed and b.state.units["c"].concealed
    with pytest.raises(IllegalActionError):
        act(b, "a", RevealStep("b"), RevealStep("c"))
    assert not of(b.log, "activation")
    ev = act(b, "a", RevealStep("b"))
    assert [r.unit for r in of(ev, "reveal")] == ["b"]
    assert not b.state.units["b"].concealed and b.state.units["c"].concealed
    b.emit(TurnStart(2))
    with pytest.raises(IllegalActionError, match="not concealed"):
        act(b, "a", RevealStep("b"))


def test_a_sensor_reveal_takes_the_place_of_firing_in_the_activation():
    # "Instead of firing" (E44): the reveal stands where the unit's fire would. Alone it may
    # move or reveal; with Move and Fire it may move and reveal, either way round; with Split
    # Movement move, reveal, move on the one Move; never reveal and fire as well.
    def sc(*keywords):
        return scenario(
            [unit("a", (2, 2), move=6, keywords=["sensor", *keywords])],
            [unit("b", (7, 2), enters=["woods"])],
            terrain=[piece("w", "woods", square(6, 0, 8, 4))],
            ruleset="one_year_war",
        )

    with pytest.raises(IllegalActionError, match="moves or fires, not both"):
        act(battle(sc()), "a", MoveStep(((3, 2),)), RevealStep("b"))
    for steps in (
        (MoveStep(((3, 2),)), RevealStep("b")),
        (RevealStep("b"), MoveStep(((3, 2),))),
    ):
        ev = act(battle(sc("move_and_fire")), "a", *steps)
        assert [e.KIND for e in ev if e.KIND in ("move", "reveal")] == [
            "move" if isinstance(step, MoveStep) else "reveal" for step in steps
        ]
    with pytest.raises(IllegalActionError, match="moves or fires, not both"):
        act(battle(sc("move_and_fire")), "a", RevealStep("b"), AttackStep("b", "Gun"))
    b = battle(sc("split_movement"))
    ev = act(b, "a", MoveStep(((3, 2),)), RevealStep("b"), MoveStep(((3, 7),)))
    assert [m.cost for m in of(ev, "move")] == [1, 5] and b.state.units["a"].position == (3, 7)
    assert [(r.unit, r.cause) for r in of(ev, "reveal")] == [("b", "sensor")]
    with pytest.raises(IllegalActionError, match='more than the 5" left'):
        act(
            battle(sc("split_movement")),
            "a",
            MoveStep(((3, 2),)),
            RevealStep("b"),
            MoveStep(((3, 8),)),
        )


def test_a_sensor_that_moves_first_reaches_6_inches_from_where_the_move_ends():
    # With Move and Fire, a Sensor 8" from b moves 3" toward it, then reveals b 5" away: the 6"
    # are measured from where it stands when it reveals, not from where it started.
    sc = scenario(
        [unit("a", (2, 2), move=6, keywords=["sensor", "move_and_fire"])],
        [unit("b", (10, 2), enters=["woods"])],
        terrain=[piece("w", "woods", square(9, 0, 11, 4))],
        ruleset="one_year_war",
    )
    b = battle(sc)
    assert b.state.units["b"].concealed
    ev = act(b, "a", MoveStep(((5, 2),)), RevealStep("b"))
    assert [(r.unit, r.cause) for r in of(ev, "reveal")] == [("b", "sensor")]
    assert not b.state.units["b"].concealed


def test_without_sensor_no_reveal():
    sc = scenario(
        [unit("a", (2, 2))],
        [unit("b", (8, 2), enters=["woods"])],
        terrain=[piece("w", "woods", square(7, 0, 9, 4))],
        ruleset="one_year_war",
    )
    with pytest.raises(IllegalActionError, match="no Sensor"):
        act(battle(sc), "a", RevealStep("b"))


def test_a_sensor_reveal_is_not_firing_so_the_sensor_stays_concealed():
    # "Firing reveals a unit"; the Sensor reveals "instead of firing". a, hidden in its wood,
    # reveals b in the next one: b is seen, a is not, and b may not shoot back at it.
    sc = scenario(
        [unit("a", (2, 2), keywords=["sensor"], enters=["woods"])],
        [unit("b", (7, 2), enters=["woods"])],
        terrain=[
            piece("w1", "woods", square(1, 1, 3, 3)),
            piece("w2", "woods", square(6, 1, 8, 3)),
        ],
        ruleset="one_year_war",
    )
    b = battle(sc)
    assert b.state.units["a"].concealed and b.state.units["b"].concealed
    ev = act(b, "a", RevealStep("b"))
    assert [(r.unit, r.cause) for r in of(ev, "reveal")] == [("b", "sensor")]
    assert b.state.units["a"].concealed and not b.state.units["b"].concealed
    assert (b.state.units["a"].shots, b.state.units["a"].revealed_until) == (0, None)
    with pytest.raises(IllegalActionError, match="a is concealed"):
        act(b, "b", AttackStep("a", "Gun"))


def test_a_sensor_reveals_only_an_enemy_never_a_friend_it_hides_with():
    # Concealed is hidden from the enemy: a friend in the wood is no Sensor's to give away. The
    # refusal spends nothing, and the same reveal of the enemy beside it is made.
    sc = scenario(
        [unit("a", (2, 2), keywords=["sensor"]), unit("c", (6, 2), enters=["woods"])],
        [unit("b", (6, 3), enters=["woods"])],
        terrain=[piece("w", "woods", square(5, 0, 7, 4))],
        ruleset="one_year_war",
    )
    b = battle(sc)
    assert b.state.units["c"].concealed and b.state.units["b"].concealed
    with pytest.raises(IllegalActionError, match="c is on the same side"):
        act(b, "a", RevealStep("c"))
    assert not of(b.log, "activation") and b.state.units["c"].concealed
    ev = act(b, "a", RevealStep("b"))
    assert [(r.unit, r.cause) for r in of(ev, "reveal")] == [("b", "sensor")]
    assert b.state.units["c"].concealed


@pytest.mark.parametrize("keyword", ["move_and_fire", "split_movement"])
def test_a_sensor_reveal_after_a_move_that_spots_its_target_is_refused_before_the_move(keyword):
    # b stands in the open behind a wood, concealed. a's move to (4, 5) ends with a line past
    # the wood to b, which spots it: then it is not concealed, and "reveal one concealed unit"
    # has nothing to reveal, so the activation is refused before the move, nothing done. A move
    # that keeps the wood between them leaves b concealed for the Sensor to reveal.
    def sc():
        return scenario(
            [unit("a", (2, 2), keywords=["sensor", keyword])],
            [unit("b", (8, 2))],
            terrain=[piece("w", "woods", square(5, 1, 6, 3))],
            ruleset="one_year_war",
        )

    b = battle(sc())
    assert b.state.units["b"].concealed
    logged = len(b.log)
    with pytest.raises(IllegalActionError, match="b is seen from where the move ends"):
        act(b, "a", MoveStep(((4, 5),)), RevealStep("b"))
    assert len(b.log) == logged and b.state.units["a"].position == (2, 2)
    assert b.state.units["b"].concealed and not b.state.units["a"].activated
    b = battle(sc())
    ev = act(b, "a", MoveStep(((3, 3),)), RevealStep("b"))
    assert [(r.unit, r.cause) for r in of(ev, "reveal")] == [("b", "sensor")]
    assert b.state.units["a"].position == (3, 3)


# --- Amphibious (One Year War) -----------------------------------------------------------------


def _amph(keywords):
    return scenario(
        [unit("a", (2, 2), move=4, keywords=keywords)],
        [unit("b", (20, 20))],
        terrain=[LAKE],
        ruleset="one_year_war",
    )


def test_amphibious_may_enter_deep_water():
    act(battle(_amph(["amphibious"])), "a", MoveStep(((5, 2),)))
    with pytest.raises(IllegalActionError, match="may not enter"):
        act(battle(_amph([])), "a", MoveStep(((5, 2),)))


def test_amphibious_movement_is_doubled_in_water():
    b = battle(_amph(["amphibious"]))
    ev = act(b, "a", MoveStep(((4, 2), (8, 2))))  # 2" of land, then 4" of water at half cost
    move = of(ev, "move")[0]
    assert move.cost == 4 and b.state.units["a"].position == (8, 2)


def test_a_river_is_water_so_amphibious_movement_is_doubled_in_it():
    # A river (no flags given) from x = 4 to 8: fordable by anyone, water to Amphibious units.
    river = piece("ford", "river", square(4, 0, 8, 6))
    for keywords, cost in ((["amphibious", "sure_footed"], 4), (["sure_footed"], 6)):
        s = scenario(
            [unit("a", (2, 2), move=6, keywords=keywords)],
            [unit("b", (20, 20))],
            terrain=[river],
            ruleset="one_year_war",
        )
        b = battle(s)
        move = of(act(b, "a", MoveStep(((8, 2),))), "move")[0]
        assert move.cost == cost, keywords  # 2" of bank, then 4" of river at half cost or full


@pytest.mark.parametrize("degrees", range(0, 91, 15))
def test_amphibious_crosses_exactly_twice_its_move_of_water_at_any_angle_and_not_a_hair_more(
    degrees,
):
    # "Movement doubled in water": Move 4 goes exactly 8" through a lake, straight or slanting;
    # 8.002" (past the log's thousandth of rounding) is more than its Move.
    lake = piece("lake", "lake", square(0, 0, 24, 12))
    a = math.radians(degrees)

    def move_to(reach: float) -> tuple[float, float]:
        return (2 + reach * math.cos(a), 2 + reach * math.sin(a))

    def amphibian():
        sc = scenario(
            [unit("a", (2, 2), move=4, keywords=["amphibious"])],
            [unit("b", (20, 20))],
            terrain=[lake],
            ruleset="one_year_war",
        )
        return battle(sc)

    with pytest.raises(IllegalActionError, match="more than the 4"):
        act(amphibian(), "a", MoveStep((move_to(8.002),)))
    b = amphibian()
    move = of(act(b, "a", MoveStep((move_to(8),))), "move")[0]
    assert move.cost <= 4
    assert b.state.units["a"].position == geometry.rnd_point(move_to(8))


@pytest.mark.parametrize(
    ("reach", "shown"), [(8.001, "4.001"), (8.002, "4.001"), (8.0034, "4.002"), (9, "4.5")]
)
def test_a_path_refused_for_a_hair_over_the_move_left_never_reads_as_costing_what_is_left(
    reach, shown
):
    # 8.001" of water costs an Amphibious Move 4 unit 4.0005": refused, and said to cost 4.001"
    # (rounded up at the log's thousandths), never "4.000", which reads as the 4" it has.
    lake = piece("lake", "lake", square(0, 0, 24, 12))
    sc = scenario(
        [unit("a", (2, 2), move=4, keywords=["amphibious"])],
        [unit("b", (20, 20))],
        terrain=[lake],
        ruleset="one_year_war",
    )
    with pytest.raises(IllegalActionError) as refused:
        act(battle(sc), "a", MoveStep(((2 + reach, 2),)))
    said = f'a may not move: the path costs {shown}", more than the 4" left'
    assert str(refused.value) == said


def test_amphibious_water_costs_half():
    from battles.engine.movement import path_problem

    b = battle(_amph(["amphibious"]))
    u = b.state.units["a"]
    problem, cost = path_problem(b, u, [(2, 2), (4, 2), (8, 2)], 4)
    assert problem is None and cost == pytest.approx(4.0)
    problem, _ = path_problem(b, u, [(2, 2), (4, 2), (8, 2), (9, 2)], 4)
    assert "more than" in problem


def test_the_move_left_is_said_rounded_down_when_a_path_costs_a_hair_more():
    # 4" of ground against 3.9996" left: "3.999", never "4", which the cost would read as too.
    from battles.engine.movement import path_problem

    b = battle(scenario([unit("a", (2, 2))], [unit("b", (20, 20))]))
    problem, _ = path_problem(b, b.state.units["a"], [(2, 2), (6, 2)], 3.9996)
    assert problem == 'the path costs 4", more than the 3.999" left'


@pytest.mark.parametrize("ruleset", ["combined_arms", "one_year_war"])
def test_a_flier_over_a_building_attacks_the_building_not_the_people_inside(ruleset):
    # "Attack the building, not the people inside": the flier is over the house, never in it.
    sc = scenario(
        [unit("heli", (11, 1), keywords=["aerial"], weapons=[dict(AA[0], power=4)])],
        [unit("sq", (12, 2))],
        buildings=[building("h", square(10, 0, 14, 4))],
        ruleset=ruleset,
    )
    b = battle(sc, [6, 1])
    assert b.state.units["sq"].concealed
    with pytest.raises(IllegalActionError, match="inside building h: attack the building"):
        act(b, "heli", AttackStep("sq", "Flak"))
    ev = act(b, "heli", AttackStep("h", "Flak"))
    shot = of(ev, "attack")[0]
    assert (shot.target, shot.distance, shot.outcome) == ("h", 0.0, "damage")
    assert b.state.buildings["h"].hits == 1


def test_a_flier_over_a_wood_does_not_lift_the_concealment_of_the_units_in_it():
    sc = scenario(
        [unit("heli", (6, 2), keywords=["aerial"])],
        [unit("sq", (6, 3), enters=["woods"])],
        terrain=[WOOD],
        ruleset="one_year_war",
    )
    b = battle(sc)
    assert b.state.units["sq"].concealed
    with pytest.raises(IllegalActionError, match="sq is concealed"):
        act(b, "heli", AttackStep("sq", "Gun"))
    from battles.engine.commander import BattleView

    assert [e.id for e in BattleView(b, "blue").enemies()] == []
    # The attack search a commander chooses from refuses it too.
    assert legal_attacks(b, b.state.units["heli"], ["sq"]) == []


def test_a_move_through_a_house_the_shot_before_it_cannot_bring_down_is_refused_at_once():
    # The house has 3 Hits and an attack does 1 damage at most: no fall can open the way this
    # activation, so the tank's fire-and-move is refused before a die is rolled (E23).
    house = building("h", square(4, 3, 8, 7), resistance=0, hits=3, rubble={"kind": "open"})
    tank = unit("t", (1, 5), size=4, move=10, weapons=CANNON, keywords=["move_and_fire"])
    b = battle(scenario([tank], [unit("r", (22, 22))], buildings=[house]), [6, 1])
    logged = len(b.log)
    with pytest.raises(IllegalActionError, match="may not move"):
        act(b, "t", AttackStep("h", "Cannon"), MoveStep(((10, 5),)))
    assert len(b.log) == logged and b.state.buildings["h"].hits == 3
    # At its last Hit the shot may bring it down: the move waits on the shot, as before.
    b.state.buildings["h"].hits = 1
    ev = act(b, "t", AttackStep("h", "Cannon"), MoveStep(((10, 5),)))
    assert kinds(ev).index("collapse") < kinds(ev).index("move")


def test_a_move_through_a_house_that_may_fall_and_on_into_a_wood_is_refused_at_once():
    # The house is at its last Hit and may fall to the shot, but the move runs on into a wood
    # the tank may not enter: no fall opens that, so the fire-and-move is refused before a die
    # is rolled (E23).
    house = building("h", square(4, 3, 8, 7), resistance=0, hits=1, rubble={"kind": "open"})
    tank = unit("t", (1, 5), size=4, move=12, weapons=CANNON, keywords=["move_and_fire"])
    wood = piece("w", "woods", square(10, 3, 11, 7))
    b = battle(scenario([tank], [unit("r", (22, 22))], buildings=[house], terrain=[wood]), [6, 1])
    logged = len(b.log)
    with pytest.raises(IllegalActionError, match="crosses terrain t may not enter"):
        act(b, "t", AttackStep("h", "Cannon"), MoveStep(((12, 5),)))
    assert len(b.log) == logged and b.state.buildings["h"].hits == 1
    # With nothing else in the way, the move waits on the shot, as before.
    b = battle(scenario([tank], [unit("r", (22, 22))], buildings=[house]), [6, 1])
    ev = act(b, "t", AttackStep("h", "Cannon"), MoveStep(((12, 5),)))
    assert kinds(ev).index("collapse") < kinds(ev).index("move")


def test_only_amphibious_moves_doubled_in_water_a_card_that_enters_it_pays_full():
    # "Movement doubled in water" is the keyword's: a card that may enter water by its own line
    # goes in, inch for inch. 2" of land and 4" of lake cost it 6, an Amphibious unit 4.
    for keywords, enters, cost in (([], ["water"], 6), (["amphibious"], [], 4)):
        sc = scenario(
            [unit("a", (2, 2), move=6, keywords=keywords, enters=enters)],
            [unit("b", (20, 20))],
            terrain=[LAKE],
            ruleset="one_year_war",
        )
        b = battle(sc)
        move = of(act(b, "a", MoveStep(((4, 2), (8, 2)))), "move")[0]
        assert (move.cost, b.state.units["a"].position) == (cost, (8, 2)), keywords
    sc = scenario(
        [unit("a", (2, 2), move=4, enters=["water"])],
        [unit("b", (20, 20))],
        terrain=[LAKE],
        ruleset="one_year_war",
    )
    with pytest.raises(IllegalActionError, match='more than the 4" left'):
        act(battle(sc), "a", MoveStep(((4, 2), (8, 2))))


@pytest.mark.parametrize(("face", "end", "cost"), [(4, (9, 2), 5), (5, (3.99, 2), 1.99)])
def test_amphibious_is_not_sure_footed_it_rolls_to_enter_a_river(face, end, cost):
    # A river is water and a hazard: Amphibious halves its cost but excuses no roll ("no Skill
    # roll for rubble, rivers" is Sure-Footed's). Skill 4: on a 4 it crosses 2" of bank, 4" of
    # river at half and 1" beyond for 5; a 5 stops it at the edge, having paid for the bank.
    river = piece("ford", "river", square(4, 0, 8, 6))
    sc = scenario(
        [unit("a", (2, 2), move=6, keywords=["amphibious"])],
        [unit("b", (20, 20))],
        terrain=[river],
        ruleset="one_year_war",
    )
    b = battle(sc, [face])
    ev = act(b, "a", MoveStep(((9, 2),)))
    rolls = [(r.purpose, r.value, r.against, r.outcome) for r in of(ev, "roll")]
    assert rolls == [("terrain", face, 4, "success" if face == 4 else "failure")]
    assert b.state.units["a"].position == end
    assert of(ev, "move")[0].cost == pytest.approx(cost)
