"""Rulings from E26 on (`docs/rules.md` §4): where the texts leave a choice open, what the engine
chose, played out with fixed dice."""

from __future__ import annotations

import dataclasses
import math
import re
from pathlib import Path

import pytest

import battles.engine
from battles.engine import (
    CLOSE_COMBAT,
    AttackStep,
    IllegalActionError,
    MoveStep,
    ScriptedCommander,
    geometry,
    run_battle,
)
from battles.engine.events import TurnStart
from battles.engine.probability import attack_options
from battles.engine.rulesets import RULESETS
from battles.engine.targeting import legal_attacks

from .helpers import act, battle, building, of, piece, scenario, square, unit

HILL = [{"id": "hill", "point": [12, 12], "radius": 3, "sides": ["blue"], "points_per_turn": 2}]
LAKE = piece("lake", "water", square(4, 0, 8, 10))


def _scores(blue, red):
    sc = scenario(blue, red, objectives=HILL, turn_limit=2)
    rec = run_battle(
        sc, seed=1, commanders={"blue": ScriptedCommander(), "red": ScriptedCommander()}
    )
    return [(e.side, e.reason, e.total) for e in rec.events if e.KIND == "score"]


def test_e26_a_flier_holds_an_objective():
    assert _scores([unit("heli", (12, 12), keywords=["aerial"])], [unit("b", (2, 22))]) == [
        ("blue", "objective:hill", 2),
        ("blue", "objective:hill", 4),
    ]


def test_e26_an_enemy_flier_contests_an_objective():
    blue = [unit("a", (12, 12))]
    assert _scores(blue, [unit("b", (2, 22))]) == [
        ("blue", "objective:hill", 2),
        ("blue", "objective:hill", 4),
    ]
    assert _scores(blue, [unit("heli", (13, 13), keywords=["aerial"])]) == []


def test_e27_a_unit_without_melee_may_shoot_an_enemy_in_contact_instead_of_ramming():
    sc = scenario([unit("a", (2, 2), melee=None)], [unit("b", (2.5, 2))])
    b = battle(sc, [1, 6, 1])
    ev = act(b, "a", AttackStep("b", "Gun"))
    assert [(r.who, r.purpose) for r in of(ev, "roll")] == [
        ("a", "to_hit"),
        ("a", "penetration"),
        ("b", "armour"),
    ]
    assert [(a.attacker, a.attack, a.weapon, a.outcome) for a in of(ev, "attack")] == [
        ("a", "shoot", "Gun", "damage")
    ]
    assert b.state.units["b"].hits == 1 and b.state.units["a"].hits == 2  # no ram back


@pytest.mark.parametrize(("target", "legal"), [((7, 7), True), ((7, 6.8), True), ((7, 7.2), False)])
def test_e28_a_fixed_mounts_45_degree_edge_is_inside_its_arc(target, legal):
    # Facing 0° (east): the target at (7, 7) lies exactly 45° off, on the arc's edge.
    sc = scenario([unit("a", (2, 2), facing=0, keywords=["fixed_mount"])], [unit("b", target)])
    b = battle(sc, [1, 6, 1])
    if legal:
        assert of(act(b, "a", AttackStep("b", "Gun")), "attack")[0].outcome == "damage"
    else:
        with pytest.raises(IllegalActionError, match="outside the front arc of a Fixed Mount"):
            act(b, "a", AttackStep("b", "Gun"))


def test_e29_close_combat_reaches_a_flier_under_one_year_war():
    flier = unit("heli", (2.5, 2), keywords=["aerial"], size=2, resistance=1)
    sc = scenario([unit("a", (2, 2), size=3, melee=None)], [flier], ruleset="one_year_war")
    b = battle(sc, [6, 1, 1, 6])
    ev = act(b, "a", AttackStep("heli", CLOSE_COMBAT))
    assert [(a.attacker, a.attack, a.power, a.outcome) for a in of(ev, "attack")] == [
        ("a", "ram", 3, "damage"),
        ("heli", "ram_back", 2, "no_damage"),
    ]
    assert b.state.units["heli"].hits == 1
    sc = scenario([unit("a", (2, 2), melee=4)], [flier], ruleset="one_year_war")
    b = battle(sc, [1, 6, 1])
    melee = of(act(b, "a", AttackStep("heli", CLOSE_COMBAT)), "attack")
    assert [(a.attack, a.power, a.outcome) for a in melee] == [("melee", 4, "damage")]
    # Under Combined Arms close combat has no AA: the same blow is refused.
    sc = scenario([unit("a", (2, 2), melee=4)], [flier])
    with pytest.raises(IllegalActionError, match="only weapons marked AA"):
        act(battle(sc), "a", AttackStep("heli", CLOSE_COMBAT))


def test_e31_a_flier_cannot_ram_a_unit_under_combined_arms():
    # A ram is resolved in both directions, and under Combined Arms only AA can attack a flier:
    # the blow back could not strike it, so the flier may not ram. Its guns still fire, it may
    # ram a building (which never strikes back), and under One Year War it rams as anyone does.
    flier = unit("heli", (2, 2), keywords=["aerial"], size=2, resistance=1)
    tank = unit("t", (2.5, 2), size=4, resistance=3)
    b = battle(scenario([flier], [tank]))
    heli = b.state.units["heli"]
    with pytest.raises(IllegalActionError, match="a flier cannot ram under Combined Arms"):
        act(b, "heli", AttackStep("t", CLOSE_COMBAT))
    assert legal_attacks(b, heli, ["t"]) == [("t", "Gun")]
    assert [o.weapon for o in attack_options(heli.card, b.state.units["t"].card, b.ruleset)] == [
        "Gun"
    ]
    sc = scenario(
        [unit("heli", (9.5, 2), keywords=["aerial"], size=3)],
        [tank],
        buildings=[building("h", square(10, 0, 14, 4))],
    )
    ev = act(battle(sc, [6, 1]), "heli", AttackStep("h", CLOSE_COMBAT))
    assert [(a.attack, a.target, a.outcome) for a in of(ev, "attack")] == [("ram", "h", "damage")]
    b = battle(scenario([flier], [tank], ruleset="one_year_war"), [1, 6, 6, 1])
    ev = act(b, "heli", AttackStep("t", CLOSE_COMBAT))
    assert [(a.attack, a.outcome) for a in of(ev, "attack")] == [
        ("ram", "no_damage"),
        ("ram_back", "damage"),
    ]
    assert b.state.units["heli"].hits == 1


def test_e30_an_aerial_amphibious_unit_flies_over_water_at_full_cost():
    # 2" of land, then 4" over the lake: Aerial ignores all terrain, the lake's benefit too.
    both = ["aerial", "amphibious"]
    sc = scenario(
        [unit("a", (2, 2), move=6, keywords=both)],
        [unit("b", (20, 20))],
        terrain=[LAKE],
        ruleset="one_year_war",
    )
    b = battle(sc)
    move = of(act(b, "a", MoveStep(((4, 2), (8, 2)))), "move")[0]
    assert move.cost == 6 and not of(b.log, "roll")
    with pytest.raises(IllegalActionError, match='more than the 6" left'):
        act(battle(sc), "a", MoveStep(((4, 2), (8, 2), (8, 2.5))))
    amph = scenario(
        [unit("a", (2, 2), move=6, keywords=["amphibious"])],
        [unit("b", (20, 20))],
        terrain=[LAKE],
        ruleset="one_year_war",
    )
    assert of(act(battle(amph), "a", MoveStep(((4, 2), (8, 2)))), "move")[0].cost == 4


def test_rulesets_are_data_not_scattered_ifs():
    # Every difference between the rulesets is a field of its Ruleset (rulesets.py): no other
    # module of the engine names a ruleset, or asks which one is in force by its name.
    engine = Path(battles.engine.__file__).parent
    named = re.compile(r"""["'](combined_arms|one_year_war)["']|ruleset\.name\s*[!=]=""")
    for path in sorted(engine.rglob("*.py")):
        if path.name != "rulesets.py":
            assert not named.search(path.read_text()), path
    assert all(dataclasses.is_dataclass(r) for r in RULESETS.values())
    with pytest.raises(dataclasses.FrozenInstanceError):
        RULESETS["one_year_war"].demoralise_at_skill = 1  # type: ignore[misc]


def test_e32_a_flier_over_a_building_rams_out_of_it_under_one_year_war():
    # A flier over the house is not inside it (E15): under One Year War it rams the unit outside
    # the walls as anyone does, and takes the blow back.
    house = building("h", square(6, 0, 10, 4))
    sc = scenario(
        [unit("heli", (9.6, 2), keywords=["aerial"], size=3)],
        [unit("out", (10.4, 2))],
        buildings=[house],
        ruleset="one_year_war",
    )
    b = battle(sc, [6, 1, 1, 6])
    assert legal_attacks(b, b.state.units["heli"], ["out"]) == [
        ("out", "Gun"),
        ("out", CLOSE_COMBAT),
    ]
    ev = act(b, "heli", AttackStep("out", CLOSE_COMBAT))
    assert [(a.attacker, a.attack, a.outcome) for a in of(ev, "attack")] == [
        ("heli", "ram", "damage"),
        ("out", "ram_back", "no_damage"),
    ]


def test_e32_a_unit_inside_a_building_may_not_ram_out_of_it():
    # "Attack the building, not the people inside", and a ram is resolved in both directions:
    # rammed from inside, the unit outside would strike the people inside, so there is no ram.
    # Its guns still fire out, a Melee value (no blow back) still strikes, and inside the same
    # building the two may ram each other.
    house = building("h", square(6, 0, 10, 4))
    b = battle(scenario([unit("in", (9.6, 2))], [unit("out", (10.4, 2))], buildings=[house]))
    inside = b.state.units["in"]
    with pytest.raises(IllegalActionError, match="inside h: a ram's blow back could not strike"):
        act(b, "in", AttackStep("out", CLOSE_COMBAT))
    assert not of(b.log, "attack") and not inside.activated
    assert legal_attacks(b, inside, ["out"]) == [("out", "Gun")]
    b = battle(
        scenario([unit("in", (9.6, 2), melee=3)], [unit("out", (10.4, 2))], buildings=[house]),
        [4, 6, 1],
    )
    ev = act(b, "in", AttackStep("out", CLOSE_COMBAT))
    assert [(a.attack, a.outcome) for a in of(ev, "attack")] == [("melee", "damage")]
    b = battle(
        scenario([unit("in", (9.6, 2))], [unit("too", (9.2, 2))], buildings=[house]), [1, 6, 6, 1]
    )
    ev = act(b, "in", AttackStep("too", CLOSE_COMBAT))
    assert [(a.attack, a.outcome) for a in of(ev, "attack")] == [
        ("ram", "no_damage"),
        ("ram_back", "damage"),
    ]
    # Under One Year War a flier over the roof is outside the building: no ram at it either.
    sc = scenario(
        [unit("in", (9.6, 2))],
        [unit("heli", (9.4, 2), keywords=["aerial"])],
        buildings=[house],
        ruleset="one_year_war",
    )
    b = battle(sc)
    with pytest.raises(IllegalActionError, match="a ram's blow back could not strike"):
        act(b, "in", AttackStep("heli", CLOSE_COMBAT))
    assert legal_attacks(b, b.state.units["in"], ["heli"]) == [("heli", "Gun")]


def test_e33_the_blow_back_obeys_what_guards_the_unit_it_strikes_not_the_strikers_aim():
    # A Fixed Mount "fires only forward", and rams only forward (E9); rammed from behind, it still
    # strikes back: a ram lands in both directions, and the rammer came to it. What guards the
    # unit struck still holds (AA under Combined Arms, E31; a building's walls, E32).
    sc = scenario(
        [unit("r", (1.4, 2), size=3)],
        [unit("fm", (2, 2), facing=0, size=4, keywords=["fixed_mount"])],
    )
    b = battle(sc, [1, 6, 6, 1])
    ev = act(b, "r", AttackStep("fm", CLOSE_COMBAT))
    assert [(a.attacker, a.attack, a.outcome) for a in of(ev, "attack")] == [
        ("r", "ram", "no_damage"),
        ("fm", "ram_back", "damage"),
    ]
    assert b.state.units["r"].hits == 1
    with pytest.raises(IllegalActionError, match="outside the front arc"):
        act(b, "fm", AttackStep("r", CLOSE_COMBAT))


def test_e34_a_joint_between_two_pieces_is_inside_both():
    # A path along the joint of two pieces laid edge to edge enters both: two abutting woods and
    # two houses sharing a wall that admit nobody refuse it, as a lake drawn in two halves does.
    woods = [piece("w1", "woods", square(2, 4, 4, 12)), piece("w2", "woods", square(4, 4, 6, 12))]
    houses = [
        building("h1", square(8, 4, 10, 12), admits=None),
        building("h2", square(10, 4, 12, 12), admits=None),
    ]
    lake = [piece("l1", "water", square(4, 8, 12, 16)), piece("l2", "water", square(12, 8, 20, 16))]
    for start, end, terrain, buildings in [
        ((4, 3), (4, 13), woods, []),
        ((10, 3), (10, 13), [], houses),
        ((12, 6), (12, 18), lake, []),
    ]:
        sc = scenario(
            [unit("a", start, move=12)], [unit("b", (22, 22))], terrain=terrain, buildings=buildings
        )
        with pytest.raises(IllegalActionError, match="crosses terrain a may not enter"):
            act(battle(sc), "a", MoveStep((end,)))
    # Along the joint of two rubble fields: a roll for each, in turn; a 6 stops it at the edge.
    rubble = [
        piece("r1", "rubble", square(2, 4, 4, 12)),
        piece("r2", "rubble", square(4, 4, 6, 12)),
    ]
    sc = scenario([unit("a", (4, 3), move=12)], [unit("b", (20, 20))], terrain=rubble)
    ev = act(battle(sc, [1, 1]), "a", MoveStep(((4, 13),)))
    assert [(r.purpose, r.outcome) for r in of(ev, "roll")] == [("terrain", "success")] * 2
    move = of(act(battle(sc, [6]), "a", MoveStep(((4, 13),))), "move")[0]
    assert move.halted and move.path == ((4, 3), (4, 3.99))
    # A wall laid in two segments is a wall at their joint too: Sure-Footed still rolls for it.
    walls = [
        piece("wa", "wall", square(0, 10, 10, 10.2)),
        piece("wb", "wall", square(10, 10, 20, 10.2)),
    ]
    sure = unit("a", (10, 5), move=12, keywords=["sure_footed"])
    ev = act(
        battle(scenario([sure], [unit("b", (22, 22))], terrain=walls), [6]),
        "a",
        MoveStep(((10, 15),)),
    )
    assert of(ev, "move")[0].halted and len(of(ev, "roll")) == 1
    # Walking along the outer edge of one wood still enters nothing.
    sc = scenario([unit("a", (2, 3), move=12)], [unit("b", (20, 20))], terrain=woods[:1])
    assert not of(act(battle(sc), "a", MoveStep(((2, 13),))), "roll")


def test_e34_the_planner_does_not_route_along_a_joint_it_may_not_walk():
    # In the bundled river crossing the deep water meets the ford edge to edge at x=16. A unit
    # that may not enter deep water is planned through the ford, and rolls for it.
    from battles.engine.movement import path_problem, plan_path
    from battles.engine.scenarios import load_reference

    terrain = [t for t in load_reference("river-crossing").terrain]
    pieces = [
        {"id": t.id, "kind": t.kind, "polygon": [list(q) for q in t.polygon.points]}
        for t in terrain
    ]
    sc = scenario(
        [unit("t", (16, 7), move=8)], [unit("r", (22, 22))], terrain=pieces, ruleset="one_year_war"
    )
    b = battle(sc, [6])
    t = b.state.units["t"]
    path = plan_path(b, t, (16, 15), 8)
    assert path is not None and len(path) > 1 and all(q[0] > 16 for q in path[1:])
    assert path_problem(b, t, path, 8)[0] is None
    move = of(act(b, "t", MoveStep(tuple(path[1:]))), "move")[0]
    assert move.halted and move.path[-1][1] < 9


def test_e34_a_joint_of_water_is_in_the_water_for_an_amphibious_unit():
    # "Movement doubled in water", and a joint is inside both pieces: along a lake drawn in two
    # halves, or its joint with a hill, an Amphibious unit pays half, as through the middles. The
    # lake's outer edge is outside it: full cost there. The checker and the planner agree.
    from battles.engine.movement import plan_path

    lake = [piece("l1", "water", square(4, 8, 12, 16)), piece("l2", "water", square(12, 8, 20, 16))]
    hill = piece("hill", "hill", square(12, 16, 20, 20))

    def amphibious(at):
        sc = scenario(
            [unit("a", at, move=6, keywords=["amphibious"])],
            [unit("b", (22, 2))],
            terrain=[*lake, hill],
            ruleset="one_year_war",
        )
        return battle(sc)

    # 2" of shore, then 8" along the joint of the two halves for 4": all of Move 6.
    move = of(act(amphibious((12, 6)), "a", MoveStep(((12, 8), (12, 16)))), "move")[0]
    assert move.cost == 6 and not move.halted
    # 8" along the joint of the lake with the hill, for 4.
    move = of(act(amphibious((12, 16)), "a", MoveStep(((20, 16),))), "move")[0]
    assert move.cost == 4
    # 5" along the lake's outer edge costs 5.
    move = of(act(amphibious((4, 8)), "a", MoveStep(((4, 13),))), "move")[0]
    assert move.cost == 5
    with pytest.raises(IllegalActionError, match='more than the 6" left'):
        act(amphibious((4, 8)), "a", MoveStep(((4, 15),)))
    # The planner takes the joint at the price the checker asks: 8" of it within 4.5" of Move.
    b = amphibious((12, 8))
    assert plan_path(b, b.state.units["a"], (12, 16), 4.5) == [(12, 8), (12, 16)]


def test_e34_pieces_touching_only_at_a_corner_leave_the_point_open():
    # A point has no width to be inside: a move and a string through the corner where two woods
    # touch are allowed (the planner, stricter, never routes through it).
    woods = [piece("w1", "woods", square(0, 4, 4, 8)), piece("w2", "woods", square(4, 8, 8, 12))]
    sc = scenario([unit("a", (0.5, 11.5), move=12)], [unit("b", (7.5, 4.5))], terrain=woods)
    b = battle(sc)
    assert b.sight.line_clear((0.5, 11.5), (7.5, 4.5))
    move = of(act(b, "a", MoveStep(((7.5, 4.5),))), "move")[0]
    assert move.path == ((0.5, 11.5), (7.5, 4.5))


def test_e34_a_unit_on_the_wall_two_buildings_share_is_an_occupant_of_both():
    # The joint is inside both houses: a unit standing on their shared wall rolls when either
    # falls, its walls guard it from outside, and an occupant of either house may attack it. The
    # end of the shared wall, on the houses' outer edge, is outside both (E1): no roll there.
    houses = [
        building("h1", square(8, 0, 12, 4), hits=1),
        building("h2", square(12, 0, 16, 4), hits=1),
    ]
    for shooter, house in [((4, 2), "h1"), ((20, 2), "h2")]:
        sc = scenario(
            [unit("a", shooter)],
            [unit("wall", (12, 2)), unit("corner", (12, 4)), unit("r", (22, 22))],
            buildings=houses,
        )
        b = battle(sc, [6, 1, 5])  # the house falls; the unit on the wall rolls a 5 over Skill 4
        ev = act(b, "a", AttackStep(house, "Gun"))
        assert of(ev, "collapse")[0].occupants == ("wall",)
        assert [(d.unit, d.hits) for d in of(ev, "damage")][1:] == [("wall", 1)]
        assert b.state.units["corner"].hits == 2
    sc = scenario(
        [unit("a", (4, 2)), unit("in", (14, 2))], [unit("wall", (12, 2))], buildings=houses
    )
    b = battle(sc, [1, 6, 1])
    b.state.units["wall"].concealed = False  # even when revealed, the walls are what you shoot
    with pytest.raises(IllegalActionError, match="inside building h1: attack the building"):
        act(b, "a", AttackStep("wall", "Gun"))
    ev = act(b, "in", AttackStep("wall", "Gun"))  # inside h2, which holds it too
    assert of(ev, "attack")[0].outcome == "damage"


def test_e34_a_unit_on_the_joint_of_a_building_and_a_wood_is_in_both():
    # On the wall where a house meets a wood: in the wood, so concealed there (E1 would leave it
    # in the open on an outer edge), and in the house, so a unit in the wood sees it (the same
    # wood, nothing between) but must attack the house, not the people inside. The house falls on
    # it: it rolls.
    wood = piece("w", "woods", square(4, 0, 8, 4), blocks_movement=False)
    house = building("h", square(8, 0, 12, 4), hits=1)
    sc = scenario(
        [unit("a", (6, 2)), unit("far", (20, 2))],
        [unit("joint", (8, 2)), unit("edge", (4, 2))],
        terrain=[wood],
        buildings=[house],
    )
    b = battle(sc, [6, 1, 5])
    joint, a = b.state.units["joint"], b.state.units["a"]
    assert b.sight.pieces_of(joint) == {"w", "h"} and joint.concealed
    assert b.sight.in_one_piece(a, joint) and b.sight.sees(a, joint)
    assert legal_attacks(b, a, ["joint", "h"]) == [("h", "Gun")]
    with pytest.raises(IllegalActionError, match="inside building h: attack the building"):
        act(b, "a", AttackStep("joint", "Gun"))
    ev = act(b, "far", AttackStep("h", "Gun"))
    assert of(ev, "collapse")[0].occupants == ("joint",)
    assert [(d.unit, d.hits) for d in of(ev, "damage")][1:] == [("joint", 1)]
    # The outer edge of the wood alone is still outside it.
    assert not b.sight.pieces_of(b.state.units["edge"])


def test_e34_a_unit_may_not_stand_on_the_joint_of_a_piece_it_may_not_enter():
    # The joint of an impassable wood with a hill is inside the wood: no deployment there, and
    # no move across the hill that ends there.
    from battles.engine import ScenarioError, parse_scenario

    terrain = [
        piece("w", "woods", square(2, 4, 4, 12)),
        piece("hill", "hill", square(4, 4, 8, 12)),
    ]
    with pytest.raises(ScenarioError, match="deployed inside impassable woods 'w'"):
        parse_scenario(scenario([unit("a", (4, 8))], [unit("b", (22, 22))], terrain=terrain))
    b = battle(scenario([unit("a", (7, 8))], [unit("b", (22, 22))], terrain=terrain))
    with pytest.raises(IllegalActionError, match="ends inside terrain a may not enter"):
        act(b, "a", MoveStep(((4, 8),)))
    # The joint's end, on the wood's outer edge, is outside it.
    move = of(act(b, "a", MoveStep(((4, 12),))), "move")[0]
    assert move.path[-1] == (4, 12)


def test_e34_a_unit_on_the_joint_of_rubble_is_in_it_and_rolls_only_going_back_in():
    # Standing on the joint of a rubble field with a hill, the unit is in the rubble: going on
    # into it is no entry, and asks no terrain roll (a 6 would stop it). From the field's outer
    # edge it enters, and rolls (E1).
    terrain = [
        piece("hill", "hill", square(0, 4, 4, 12)),
        piece("r", "rubble", square(4, 4, 8, 12)),
    ]
    sc = scenario([unit("a", (4, 8)), unit("c", (8, 6))], [unit("b", (22, 22))], terrain=terrain)
    b = battle(sc, [6])
    ev = act(b, "a", MoveStep(((6, 8),)))
    assert not of(ev, "roll") and of(ev, "move")[0].path[-1] == (6, 8)
    ev = act(b, "c", MoveStep(((6, 6),)))
    assert [(r.purpose, r.outcome) for r in of(ev, "roll")] == [("terrain", "failure")]
    assert of(ev, "move")[0].halted


# --- E42: a move of exactly the Move left, at any angle ----------------------------------------


@pytest.mark.parametrize("degrees", range(0, 91, 5))
def test_e42_a_move_of_exactly_move_at_any_angle_is_within_move(degrees):
    # Waypoints are kept to thousandths of an inch, and rounding one may lengthen the path by a
    # hair: the Move limits the path as asked. Before E42, 7 of these 19 angles were refused.
    a = math.radians(degrees)
    to = (2 + 6 * math.cos(a), 2 + 6 * math.sin(a))
    assert math.dist((2, 2), to) == pytest.approx(6, abs=1e-12)
    b = battle(scenario([unit("a", (2, 2), move=6)], [unit("b", (20, 20))]))
    move = of(act(b, "a", MoveStep((to,))), "move")[0]
    assert move.cost <= 6
    assert b.state.units["a"].position == geometry.rnd_point(to)


def test_e42_split_movement_may_spend_exactly_its_move_in_two_slanting_moves():
    a = math.radians(10)
    half = (3 * math.cos(a), 3 * math.sin(a))
    first = (2 + half[0], 2 + half[1])
    second = (first[0] + half[0], first[1] + half[1])
    sc = scenario([unit("a", (2, 2), move=6, keywords=["split_movement"])], [unit("b", (12, 2))])
    b = battle(sc, [6, 6, 1])
    ev = act(b, "a", MoveStep((first,)), AttackStep("b", "Gun"), MoveStep((second,)))
    assert sum(m.cost for m in of(ev, "move")) <= 6
    assert b.state.units["a"].position == geometry.rnd_point(second)


def test_e42_a_move_over_move_as_asked_is_refused_however_it_rounds():
    # A hundredth over, slanting: still refused. And many waypoints gain nothing, for the
    # path as asked is what counts: a straight line of 60 waypoints of exactly 6" passes,
    # one a hundredth longer does not.
    a = math.radians(10)
    b = battle(scenario([unit("a", (2, 2), move=6)], [unit("b", (20, 20))]))
    over = (2 + 6.01 * math.cos(a), 2 + 6.01 * math.sin(a))
    with pytest.raises(IllegalActionError, match="more than the 6"):
        act(b, "a", MoveStep((over,)))
    for length, legal in ((6.0, True), (6.01, False)):
        b = battle(scenario([unit("a", (2, 2), move=6)], [unit("b", (20, 20))]))
        steps = tuple(
            (2 + length * k / 60 * math.cos(a), 2 + length * k / 60 * math.sin(a))
            for k in range(1, 61)
        )
        if legal:
            act(b, "a", MoveStep(steps))
            assert math.dist((2, 2), b.state.units["a"].position) <= 6 + 1e-3
        else:
            with pytest.raises(IllegalActionError, match="more than the 6"):
                act(b, "a", MoveStep(steps))


def test_e43_a_building_in_a_wood_is_attacked_through_the_wood_that_holds_it():
    # A cabin deep in a wood, 4" of wood between it and the shooter outside. The wood holds the
    # wall aimed at, so it does not block (as for a unit in it), and a building is never
    # concealed: the cabin is attacked. A trooper beside its wall in the same wood is concealed.
    wood = piece("wood", "woods", square(6, 0, 20, 10), blocks_movement=False)
    cabin = building("cabin", square(12, 4, 14, 6), resistance=2, hits=2)
    gun = [{"name": "Gun", "power": 4, "range": 12}]
    sc = scenario([unit("b", (2, 5), weapons=gun)], [unit("r", (12, 9), hits=5)],
                  terrain=[wood], buildings=[cabin])  # fmt: skip
    b = battle(sc, [6, 1])
    assert b.state.units["r"].concealed
    with pytest.raises(IllegalActionError, match="r is concealed"):
        act(b, "b", AttackStep("r", "Gun"))
    (shot,) = of(act(b, "b", AttackStep("cabin", "Gun")), "attack")
    assert shot.target == "cabin" and shot.distance == 10.0 and shot.outcome == "damage"
    # A second wood between, holding neither the shooter nor the wall, blocks as any does.
    screen = piece("screen", "woods", square(3, 0, 4, 10), blocks_movement=False)
    sc["terrain"].append(screen)
    with pytest.raises(IllegalActionError, match="no line of sight to cabin"):
        act(battle(sc, [6, 1]), "b", AttackStep("cabin", "Gun"))


@pytest.mark.parametrize("ruleset", ["combined_arms", "one_year_war"])
def test_e45_an_aa_weapon_attacks_ground_units_and_fliers_alike(ruleset):
    # "AA" lets a weapon reach a flier; it takes nothing away: the Recon Vehicle's one weapon,
    # an AA Heavy Machine Gun, shoots a squad on the ground and a chopper overhead alike.
    hmg = [{"name": "Heavy Machine Gun", "power": 3, "range": 12, "aa": True}]
    sc = scenario(
        [unit("recon", (2, 2), weapons=hmg)],
        [unit("squad", (8, 2)), unit("chopper", (2, 8), keywords=["aerial"])],
        ruleset=ruleset,
    )
    b = battle(sc, [1, 6, 1, 1, 6, 1])
    for turn, target in enumerate(("squad", "chopper"), start=1):
        b.emit(TurnStart(turn))
        (shot,) = of(act(b, "recon", AttackStep(target, "Heavy Machine Gun")), "attack")
        assert (shot.target, shot.outcome) == (target, "damage")
