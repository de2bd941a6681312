"""Terrain and movement: real paths, never longer than Move, terrain rolls and their failure."""

from __future__ import annotations

import pytest

from battles.engine import AttackStep, IllegalActionError, MoveStep, geometry, parse_scenario
from battles.engine.events import RollPurpose, Suppress, TurnStart
from battles.engine.geometry import path_length
from battles.engine.movement import plan_path

from .helpers import act, battle, building, kinds, of, piece, scenario, square, unit

WALL_OF_WOOD = piece("wood", "woods", square(5, 0, 7, 10))


def test_movement_blocking_terrain_cannot_be_crossed():
    sc = scenario([unit("a", (2, 2), move=8)], [unit("b", (20, 20))], terrain=[WALL_OF_WOOD])
    with pytest.raises(IllegalActionError, match="may not enter"):
        act(battle(sc), "a", MoveStep(((9, 2),)))


@pytest.mark.parametrize("what", ["woods", "house"])
def test_waypoints_a_hair_apart_do_not_walk_through_what_blocks_movement(what):
    # Each leg runs under the thousandth of an inch a path may graze an obstacle; together they
    # cross half an inch of it. The graze is the whole path's, so the move is refused.
    block = square(10, 10, 10.5, 14)
    sc = scenario(
        [unit("a", (9, 12), move=6, size=4)],
        [unit("b", (20, 2))],
        terrain=[piece("w", "woods", block)] if what == "woods" else [],
        buildings=[building("h", block, admits=(1, 2))] if what == "house" else [],
    )
    waypoints = tuple((round(9.999 + k * 0.001, 3), 12.0) for k in range(1000))  # the most
    b = battle(sc)
    logged = len(b.log)
    with pytest.raises(IllegalActionError, match="may not enter"):
        act(b, "a", MoveStep(waypoints))
    assert b.state.units["a"].position == (9, 12)
    assert len(b.log) == logged


@pytest.mark.parametrize("what", ["woods", "house"])
def test_a_move_may_not_end_a_hair_inside_what_blocks_movement(what):
    # A thousandth of an inch inside the wood (or the house) is less than a path may graze, but
    # the unit would stand in it: the move is refused, and one ending on the edge is not.
    block = square(10, 10, 12, 14)
    sc = scenario(
        [unit("a", (8, 12), move=6, size=4)],
        [unit("b", (20, 2))],
        terrain=[piece("w", "woods", block)] if what == "woods" else [],
        buildings=[building("h", block, admits=(1, 2))] if what == "house" else [],
    )
    b = battle(sc)
    with pytest.raises(IllegalActionError, match="ends inside terrain a may not enter"):
        act(b, "a", MoveStep(((10.001, 12),)))
    act(b, "a", MoveStep(((10, 12),)))
    assert b.state.units["a"].position == (10, 12)


def test_a_unit_may_enter_what_its_card_lists():
    sc = scenario(
        [unit("a", (2, 2), move=8, enters=["woods"])], [unit("b", (20, 20))], terrain=[WALL_OF_WOOD]
    )
    act(battle(sc), "a", MoveStep(((9, 2),)))


def test_a_card_that_enters_a_lake_enters_water():
    # "lake" is the kind water, on a card as on the table: whatever name either gives it.
    sea = piece("sea", "sea", square(4, 0, 8, 24))
    for enters in (["lake"], ["Deep water"], ["water"]):
        sc = scenario(
            [unit("a", (2, 2), move=8, enters=enters)], [unit("b", (20, 20))], terrain=[sea]
        )
        assert parse_scenario(sc).sides[0].units[0].card.enters == {"water"}
        act(battle(sc), "a", MoveStep(((9, 2),)))
    sc = scenario([unit("a", (2, 2), move=8)], [unit("b", (20, 20))], terrain=[sea])
    with pytest.raises(IllegalActionError, match="may not enter"):
        act(battle(sc), "a", MoveStep(((9, 2),)))


def test_paths_go_around_blocking_terrain():
    sc = scenario([unit("a", (4, 8), move=24)], [unit("b", (20, 20))], terrain=[WALL_OF_WOOD])
    b = battle(sc)
    path = plan_path(b, b.state.units["a"], (8, 8), 24)
    assert path[-1] == (8, 8)
    assert path_length(path) > 4.5
    act(b, "a", MoveStep(tuple(path[1:])))
    assert b.state.units["a"].position == (8, 8)


def test_movement_never_exceeds_move():
    sc = scenario([unit("a", (2, 2), move=4)], [unit("b", (20, 20))])
    b = battle(sc)
    with pytest.raises(IllegalActionError, match="more than the 4"):
        act(b, "a", MoveStep(((2, 4), (4.5, 4))))
    ev = act(b, "a", MoveStep(((2, 4), (4, 4))))
    assert of(ev, "move")[0].cost == 4


def test_a_move_may_not_leave_the_table():
    sc = scenario([unit("a", (1, 1))], [unit("b", (20, 20))])
    with pytest.raises(IllegalActionError, match="off the table"):
        act(battle(sc), "a", MoveStep(((-1, 1),)))


@pytest.mark.parametrize(
    ("start", "edge", "past"),
    [
        ((20, 2), (24, 2), (24.001, 2)),
        ((20, 2), (20, 0), (20, -0.001)),
        ((2, 2), (0, 2), (-0.001, 2)),
        ((2, 20), (2, 24), (2, 24.001)),
    ],
)
def test_a_move_may_end_on_the_table_edge_and_not_a_hair_past(start, edge, past):
    sc = scenario([unit("a", start)], [unit("b", (12, 12))])
    with pytest.raises(IllegalActionError, match="off the table"):
        act(battle(sc), "a", MoveStep((past,)))
    b = battle(sc)
    act(b, "a", MoveStep((edge,)))
    assert b.state.units["a"].position == edge


def test_entering_a_hazard_needs_a_terrain_roll():
    sc = scenario(
        [unit("a", (2, 2))],
        [unit("b", (20, 20))],
        terrain=[piece("river", "river", square(4, 0, 5, 10))],
    )
    b = battle(sc, [4])
    ev = act(b, "a", MoveStep(((7, 2),)))
    roll = of(ev, "roll")[0]
    assert (roll.purpose, roll.against, roll.outcome) == ("terrain", 4, "success")
    assert b.state.units["a"].position == (7, 2)


def test_a_failed_terrain_roll_stops_the_unit_at_the_edge():
    sc = scenario(
        [unit("a", (2, 2))],
        [unit("b", (20, 20))],
        terrain=[piece("river", "river", square(4, 0, 5, 10))],
    )
    b = battle(sc, [5])
    ev = act(b, "a", MoveStep(((7, 2),)))
    move = of(ev, "move")[0]
    assert move.halted
    x, y = b.state.units["a"].position
    assert 3.98 <= x < 4 and y == 2


def test_a_unit_stopped_at_the_edge_makes_no_turn_it_planned_for_the_end():
    # "Failed terrain roll: stop at the edge, activation spent", and for a Fixed Mount "turning
    # is movement": the turn named for the end of the move never comes. It faces the way it went.
    sc = scenario(
        [unit("a", (2, 2), facing=0, keywords=["fixed_mount"])],
        [unit("b", (20, 20))],
        terrain=[piece("river", "river", square(4, 0, 5, 10))],
    )
    b = battle(sc, [5])
    move = of(act(b, "a", MoveStep(((7, 2),), facing=45.0)), "move")[0]
    assert move.halted and move.facing == b.state.units["a"].facing
    assert move.facing == geometry.bearing((2, 2), (7, 2))
    b = battle(sc, [1])
    move = of(act(b, "a", MoveStep(((7, 2),), facing=45.0)), "move")[0]
    assert not move.halted and move.facing == 45.0


def test_a_unit_stopped_at_a_slanting_edge_stands_outside_the_piece():
    # A rubble edge met at a shallow angle: 0.01" short along the path is under a thousandth of
    # an inch from the edge, and rounding the stop to the log's thousandths once put the unit
    # inside, concealed, owing no roll to go on. It stands outside, and going on costs a roll.
    rubble = piece("rubble", "rubble", [[4, 0], [22, 0], [22, 6.66]])
    sc = scenario([unit("a", (6.015, 0.775), move=8)], [unit("b", (1, 23))], terrain=[rubble])
    b = battle(sc, [6, 6])
    move = of(act(b, "a", MoveStep(((11.015, 2.565),))), "move")[0]
    assert move.halted
    a = b.state.units["a"]
    assert not b.state.terrain[0].polygon.contains_strictly(a.position)
    assert not a.concealed
    assert geometry.distance(a.position, (8.46, 1.65)) < 0.002  # at the edge, not back off it
    b.emit(TurnStart(2))
    ev = act(b, "a", MoveStep(((a.position[0] + 1, a.position[1] - 1),)))
    assert [e.purpose for e in of(ev, "roll")] == [RollPurpose.TERRAIN]


@pytest.mark.parametrize("keyword", ["move_and_fire", "split_movement"])
def test_a_failed_terrain_roll_spends_the_activation_and_forbids_attacks(keyword):
    # With Split Movement, the fire and the second move it planned are dropped alike.
    sc = scenario(
        [unit("a", (2, 2), keywords=[keyword])],
        [unit("b", (9, 2))],
        terrain=[piece("river", "river", square(4, 0, 5, 10))],
    )
    b = battle(sc, [6])
    steps = [MoveStep(((6, 2),)), AttackStep("b", "Gun")]
    if keyword == "split_movement":
        steps.append(MoveStep(((6, 3),)))
    ev = act(b, "a", *steps)
    assert kinds(ev) == ["activation", "roll", "move"]
    assert b.state.units["a"].position == (3.99, 2) and b.state.units["a"].activated


def test_leaving_a_hazard_needs_no_roll():
    sc = scenario(
        [unit("a", (4.5, 2))],
        [unit("b", (20, 20))],
        terrain=[piece("river", "river", square(4, 0, 5, 10))],
    )
    ev = act(battle(sc), "a", MoveStep(((8, 2),)))
    assert not of(ev, "roll")


def test_one_roll_per_piece_entered_in_order():
    sc = scenario(
        [unit("a", (1, 2), move=8)],
        [unit("b", (20, 20))],
        terrain=[
            piece("r1", "river", square(2, 0, 3, 10)),
            piece("r2", "river", square(5, 0, 6, 10)),
        ],
    )
    ev = act(battle(sc, [1, 1]), "a", MoveStep(((8, 2),)))
    assert [r.purpose for r in of(ev, "roll")] == ["terrain", "terrain"]
    # In order: the first river entered passes, the second stops the unit at its edge.
    b = battle(sc, [1, 6])
    ev = act(b, "a", MoveStep(((8, 2),)))
    assert [r.outcome for r in of(ev, "roll")] == ["success", "failure"]
    assert b.state.units["a"].position == (4.99, 2)


def test_a_piece_entered_twice_in_one_move_is_rolled_for_once():
    sc = scenario(
        [unit("a", (1, 2), move=12)],
        [unit("b", (20, 20))],
        terrain=[piece("r", "river", square(2, 0, 3, 10))],
    )
    ev = act(battle(sc, [1]), "a", MoveStep(((4, 2), (4, 4), (1, 4))))
    assert [(r.purpose, r.outcome) for r in of(ev, "roll")] == [("terrain", "success")]


def test_terrain_rolls_use_current_skill():
    sc = scenario(
        [unit("a", (2, 2), skill=4)],
        [unit("b", (20, 20))],
        terrain=[piece("hz", "hazard", square(4, 0, 5, 10))],
    )
    # Printed Skill 4, suppressed to 3: a 4 fails against what the unit has now.
    b = battle(sc, [4])
    b.emit(Suppress("a", "b", 3))
    ev = act(b, "a", MoveStep(((7, 2),)))
    roll = of(ev, "roll")[0]
    assert (roll.value, roll.against, roll.outcome) == (4, 3, "failure")


def test_a_turn_in_place_sets_facing():
    sc = scenario([unit("a", (2, 2))], [unit("b", (20, 20))])
    b = battle(sc)
    act(b, "a", MoveStep((), 90))
    assert b.state.units["a"].facing == 90


def test_a_move_halted_by_a_failed_terrain_roll_still_ends_in_the_open_and_spots():
    # "A unit that ends a move in the open with a clear line to an enemy is no longer
    # concealed": a halted move is still a move. The wood hides a and b from each other; a
    # walks north out of its shadow, fails the roll for the hazard and stops at its edge, in
    # the open with a clear line to b. Both are seen, and b may shoot it at once.
    sc = scenario(
        [unit("a", (2, 5))],
        [unit("b", (12, 5))],
        terrain=[
            piece("wood", "woods", square(4, 3, 5, 7)),
            piece("hz", "hazard", square(0, 8, 4, 10)),
        ],
    )
    b = battle(sc, [6, 1, 6, 1])
    assert b.state.units["a"].concealed and b.state.units["b"].concealed
    ev = act(b, "a", MoveStep(((2, 9),)))
    assert of(ev, "move")[0].halted
    assert b.state.units["a"].position == (2, 7.99)
    assert [(r.unit, r.cause) for r in of(ev, "reveal")] == [("a", "spotted"), ("b", "spotted")]
    assert not b.state.units["a"].concealed and not b.state.units["b"].concealed
    shot = of(act(b, "b", AttackStep("a", "Gun")), "attack")[0]
    assert (shot.attacker, shot.target, shot.outcome) == ("b", "a", "damage")
