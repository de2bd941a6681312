"""Cover, line of sight and concealment."""

from __future__ import annotations

import pytest

from battles.engine import AttackStep, IllegalActionError, MoveStep
from battles.engine.events import TurnStart

from .helpers import act, battle, building, of, piece, scenario, square, unit

WOOD = piece("wood", "woods", square(5, 0, 7, 4))


def test_blocking_terrain_between_shooter_and_target_prevents_the_attack():
    sc = scenario([unit("a", (2, 2))], [unit("b", (10, 2))], terrain=[WOOD])
    b = battle(sc)
    b.state.units["b"].concealed = False  # seen or not, the wood is in the way
    with pytest.raises(IllegalActionError, match="no line of sight"):
        act(b, "a", AttackStep("b", "Gun"))


def test_terrain_that_does_not_block_sight_is_no_cover():
    # The river lies between a and b, as the wood does in the test above, but blocks no sight:
    # the shot is made and lands.
    river = piece("river", "river", square(5, 0, 7, 4))
    sc = scenario([unit("a", (2, 2))], [unit("b", (10, 2))], terrain=[river])
    b = battle(sc, [1, 6, 1])
    shot = of(act(b, "a", AttackStep("b", "Gun")), "attack")[0]
    assert (shot.target, shot.outcome) == ("b", "damage")
    assert b.state.units["b"].hits == 1


def test_you_need_only_be_behind_it_not_in_it():
    # b stands in the open behind the wood, in no piece and not concealed (c sees it): a,
    # also in the open, still may not attack it; d, with the wood off its line, may.
    sc = scenario(
        [unit("a", (2, 2)), unit("d", (2, 9))],
        [unit("b", (10, 2))],
        terrain=[WOOD],
    )
    b = battle(sc, [1, 6, 1])
    assert not b.state.units["b"].concealed and not b.sight.pieces_at((10, 2))
    with pytest.raises(IllegalActionError, match="no line of sight to b"):
        act(b, "a", AttackStep("b", "Gun"))
    shot = of(act(b, "d", AttackStep("b", "Gun")), "attack")[0]
    assert (shot.attacker, shot.target, shot.outcome) == ("d", "b", "damage")


def test_a_line_along_the_edge_of_a_piece_is_not_blocked():
    b = battle(scenario([unit("a", (2, 4))], [unit("b", (10, 4))], terrain=[WOOD]))
    assert b.sight.line_clear((2, 4), (10, 4))


def test_a_line_along_the_joint_of_two_pieces_laid_edge_to_edge_is_blocked():
    # Two woods side by side are one wood: the string along their joint runs through it.
    halves = [piece("w1", "woods", square(4, 0, 6, 2)), piece("w2", "hill", square(4, 2, 6, 4))]
    b = battle(scenario([unit("a", (2, 2))], [unit("b", (8, 2))], terrain=halves))
    assert not b.sight.line_clear((2, 2), (8, 2))
    assert b.state.units["b"].concealed
    with pytest.raises(IllegalActionError, match="b is concealed"):
        act(b, "a", AttackStep("b", "Gun"))
    # Along the outer edge of either it still only grazes.
    assert b.sight.line_clear((2, 4), (8, 4)) and b.sight.line_clear((2, 0), (8, 0))


def test_pieces_that_only_touch_at_a_joint_from_one_side_do_not_block_along_it():
    # A hill on top of one half of a wood: both lie north of the line, nothing south of it.
    over = [piece("w", "woods", square(4, 2, 6, 4)), piece("h", "hill", square(3, 2, 7, 3))]
    b = battle(scenario([unit("a", (2, 2))], [unit("b", (8, 2))], terrain=over))
    assert b.sight.line_clear((2, 2), (8, 2))


def test_model_eye_view_a_string_through_a_corner_of_the_piece_is_blocked():
    b = battle(scenario([unit("a", (2, 2))], [unit("b", (20, 20))], terrain=[WOOD]))
    assert not b.sight.line_clear((4, 0.5), (8, 3.5))


def test_a_piece_holding_the_target_does_not_block_but_conceals_it():
    sc = scenario([unit("a", (2, 2))], [unit("b", (6, 2), enters=["woods"])], terrain=[WOOD])
    b = battle(sc)
    assert b.sight.line_clear((2, 2), (6, 2))
    assert b.state.units["b"].concealed
    with pytest.raises(IllegalActionError, match="concealed"):
        act(b, "a", AttackStep("b", "Gun"))


def test_cover_is_all_or_nothing_and_adds_nothing_to_a_roll():
    # Terrain means a unit "cannot be attacked at all", or it can: no number changes. a, in the
    # wood, fires and is revealed; b shoots back, rolling against its own Skill 4 and a's
    # printed Resistance 2, and a 4 + 3 against 3 + 2 damages a, as it would in the open.
    sc = scenario([unit("a", (6, 2), enters=["woods"])], [unit("b", (12, 2))], terrain=[WOOD])
    b = battle(sc, [6, 4, 4, 3])
    act(b, "a", AttackStep("b", "Gun"))
    assert b.sight.pieces_at((6, 2)) == {"wood"} and not b.state.units["a"].concealed
    ev = act(b, "b", AttackStep("a", "Gun"))
    assert [(r.purpose, r.value, r.modifier, r.against) for r in of(ev, "roll")] == [
        ("to_hit", 4, 0, 4),
        ("penetration", 4, 3, 5),
        ("armour", 3, 2, 7),
    ]
    assert of(ev, "attack")[0].outcome == "damage" and b.state.units["a"].hits == 1


def test_everything_behind_blocking_terrain_starts_concealed():
    sc = scenario([unit("a", (2, 2))], [unit("b", (10, 2)), unit("c", (10, 10))], terrain=[WOOD])
    b = battle(sc)
    assert b.state.units["b"].concealed
    assert not b.state.units["c"].concealed
    assert [e.unit for e in of(b.log, "conceal")] == ["b"]


def test_firing_reveals_a_unit_through_the_end_of_its_own_next_activation():
    # Its own next activation: not the next activation on the table, nor the end of the one it
    # fires in. Other units of both sides act, the turn turns, and a stays seen until its own
    # next activation ends.
    sc = scenario(
        [unit("a", (6, 2), enters=["woods"]), unit("c", (2, 20))],
        [unit("b", (12, 2)), unit("d", (12, 3))],
        terrain=[WOOD],
    )
    b = battle(sc, [6, 6, 6])
    assert b.state.units["a"].concealed
    act(b, "a", AttackStep("b", "Gun"))  # activation 1: fires
    assert not b.state.units["a"].concealed
    for other in ("b", "c", "d"):
        act(b, other)
        assert not b.state.units["a"].concealed, other
    b.emit(TurnStart(2))
    act(b, "b", AttackStep("a", "Gun"))  # b may now shoot back
    act(b, "c")
    assert not b.state.units["a"].concealed
    act(b, "a")  # activation 2: the reveal runs out at its end
    assert b.state.units["a"].concealed
    with pytest.raises(IllegalActionError, match="concealed"):
        act(b, "d", AttackStep("a", "Gun"))
    b.emit(TurnStart(3))
    with pytest.raises(IllegalActionError, match="concealed"):
        act(b, "b", AttackStep("a", "Gun"))


def test_firing_again_extends_the_reveal():
    sc = scenario(
        [unit("a", (6, 2), enters=["woods"])], [unit("b", (12, 2), hits=9)], terrain=[WOOD]
    )
    b = battle(sc, [6, 6])
    act(b, "a", AttackStep("b", "Gun"))
    b.emit(TurnStart(2))
    act(b, "a", AttackStep("b", "Gun"))
    assert not b.state.units["a"].concealed
    assert b.state.units["a"].revealed_until == 3


def test_units_in_the_same_building_see_each_other():
    house = building("h", square(4, 0, 8, 4), admits=(1, 2))
    sc = scenario([unit("a", (5, 2))], [unit("b", (7, 2))], buildings=[house])
    b = battle(sc, [6])
    assert b.state.units["b"].concealed
    act(b, "a", AttackStep("b", "Gun"))


def test_units_in_the_same_building_see_each_other_past_a_wood_within_it():
    # The wood inside the house holds neither occupant and lies between them: in one building
    # they see each other all the same, as in one rubble field.
    house = building("h", square(4, 0, 10, 4), admits=(1, 2))
    wood = piece("wood", "woods", square(6.5, 0, 7.5, 4))
    sc = scenario([unit("a", (5, 2))], [unit("b", (9, 2))], terrain=[wood], buildings=[house])
    b = battle(sc, [6])
    assert b.state.units["b"].concealed
    assert b.sight.line_clear((5, 2), (9, 2))
    act(b, "a", AttackStep("b", "Gun"))


def test_units_in_the_same_rubble_field_see_each_other():
    rubble = piece("rubble", "rubble", square(4, 0, 8, 4))
    sc = scenario([unit("a", (5, 2))], [unit("b", (7, 2))], terrain=[rubble])
    b = battle(sc, [6])
    assert b.state.units["b"].concealed
    assert b.sight.line_clear((5, 2), (7, 2))
    act(b, "a", AttackStep("b", "Gun"))


@pytest.mark.parametrize("home", ["rubble", "building"])
def test_a_unit_in_a_rubble_field_or_building_does_not_see_past_a_wood_to_a_unit_outside(home):
    # The exception is for two units in the same field or building: a unit in one sees out past
    # other terrain no better than anyone, so the wood between still blocks the line.
    field = square(4, 0, 8, 4)
    terrain = [piece("wood", "woods", square(10, 0, 12, 4))]
    if home == "rubble":
        terrain.append(piece("rubble", "rubble", field))
    houses = [building("h", field)] if home == "building" else []
    sc = scenario([unit("a", (6, 2))], [unit("b", (14, 2))], terrain=terrain, buildings=houses)
    b = battle(sc)
    b.state.units["b"].concealed = False
    assert not b.sight.line_clear((6, 2), (14, 2))
    assert not b.sight.line_clear((14, 2), (6, 2))
    with pytest.raises(IllegalActionError):
        act(b, "a", AttackStep("b", "Gun"))


def test_ending_a_move_in_the_open_in_sight_of_an_enemy_reveals():
    sc = scenario([unit("a", (6, 2), enters=["woods"])], [unit("b", (12, 8))], terrain=[WOOD])
    b = battle(sc)
    assert b.state.units["a"].concealed
    ev = act(b, "a", MoveStep(((6, 6),)))
    assert [(r.unit, r.cause) for r in of(ev, "reveal")] == [("a", "spotted")]


def test_a_concealed_unit_in_the_open_is_spotted_when_an_enemy_gets_a_line():
    sc = scenario([unit("a", (2, 2))], [unit("b", (10, 2))], terrain=[WOOD])
    b = battle(sc)
    assert b.state.units["b"].concealed
    assert b.state.units["a"].concealed, "each is behind the wood from the other"
    ev = act(b, "a", MoveStep(((2, 8),)))
    assert [(r.unit, r.cause) for r in of(ev, "reveal")] == [("a", "spotted"), ("b", "spotted")]


def test_a_unit_that_walks_out_of_sight_is_concealed_at_the_end_of_its_activation():
    sc = scenario([unit("a", (2, 6))], [unit("b", (10, 6))], terrain=[WOOD])
    b = battle(sc)
    assert not b.state.units["b"].concealed
    ev = act(b, "b", MoveStep(((10, 2),)))
    assert [e.unit for e in of(ev, "conceal")] == ["b"]


def test_units_block_neither_sight_nor_movement():
    sc = scenario([unit("a", (2, 2)), unit("c", (5, 2))], [unit("b", (10, 2))])
    b = battle(sc, [6])
    act(b, "a", AttackStep("b", "Gun"))
    act(b, "c", MoveStep(((10, 2),)))
    assert b.state.units["c"].position == b.state.units["b"].position


def test_any_attack_reveals_close_combat_too():
    sc = scenario(
        [unit("a", (6, 2), melee=3, enters=["woods"])],
        [unit("b", (6.5, 2), enters=["woods"])],
        terrain=[WOOD],
    )
    b = battle(sc, [6])
    assert b.state.units["a"].concealed
    ev = act(b, "a", AttackStep("b", "close_combat"))
    assert [(r.unit, r.cause) for r in of(ev, "reveal")] == [("a", "fired")]


def test_a_flier_that_fires_is_not_revealed_for_it_is_never_concealed():
    # "Aerial — never concealed": there is nothing for its fire to reveal, so a flier's shot
    # logs no reveal, where a unit on the ground beside it is revealed by its own.
    sc = scenario(
        [unit("heli", (2, 2), keywords=["aerial"]), unit("a", (2, 3))],
        [unit("b", (8, 2))],
    )
    b = battle(sc, [6, 6])
    assert of(act(b, "heli", AttackStep("b", "Gun")), "reveal") == []
    assert not b.state.units["heli"].concealed
    ev = act(b, "a", AttackStep("b", "Gun"))
    assert [(r.unit, r.cause) for r in of(ev, "reveal")] == [("a", "fired")]


def test_units_in_the_same_wood_do_not_see_through_other_blocking_terrain_between_them():
    # "Terrain that blocks sight, lying between shooter and target, means the target cannot be
    # attacked at all"; the exception is the same rubble field or building only. A rubble
    # field lies across the wood between a and b.
    wood = piece("wood", "woods", square(0, 0, 20, 4))
    rubble = piece("rb", "rubble", square(6, 0, 8, 4))
    sc = scenario(
        [unit("a", (2, 2), enters=["woods"])],
        [unit("b", (12, 2), enters=["woods"])],
        terrain=[wood, rubble],
    )
    b = battle(sc, [1, 6, 1])
    assert not b.sight.line_clear((2, 2), (12, 2))
    with pytest.raises(IllegalActionError, match="no line of sight to b"):
        act(b, "a", AttackStep("b", "Gun"))
    assert not of(b.log, "attack") and not of(b.log, "roll")


def test_units_on_the_same_hill_do_not_see_through_a_wood_between_them():
    hill = piece("hill", "hill", square(0, 0, 20, 4))
    wood = piece("wood", "woods", square(6, 0, 8, 4))
    sc = scenario([unit("a", (2, 2))], [unit("b", (12, 2))], terrain=[hill, wood])
    b = battle(sc)
    with pytest.raises(IllegalActionError, match="no line of sight to b"):
        act(b, "a", AttackStep("b", "Gun"))


def test_units_in_the_same_wood_see_each_other_when_nothing_else_lies_between():
    wood = piece("wood", "woods", square(0, 0, 20, 4))
    sc = scenario(
        [unit("a", (2, 2), enters=["woods"])],
        [unit("b", (12, 2), enters=["woods"])],
        terrain=[wood],
    )
    b = battle(sc, [1, 6, 1])
    assert b.state.units["b"].concealed
    shot = of(act(b, "a", AttackStep("b", "Gun")), "attack")[0]
    assert (shot.target, shot.outcome) == ("b", "damage")


def test_units_in_the_same_rubble_field_see_each_other_even_when_it_blocks_no_sight():
    # The sentence is for every rubble field: one that blocks no sight still lets its occupants
    # see each other past a wood within it.
    rubble = piece("rb", "rubble", square(0, 0, 20, 4), blocks_sight=False)
    wood = piece("wood", "woods", square(8, 0, 10, 4))
    sc = scenario([unit("a", (2, 2))], [unit("b", (12, 2))], terrain=[rubble, wood])
    b = battle(sc, [1, 6, 1])
    assert b.sight.line_clear((2, 2), (12, 2)) and not b.sight.line_clear((2, 2), (12, 4.5))
    shot = of(act(b, "a", AttackStep("b", "Gun")), "attack")[0]
    assert (shot.target, shot.outcome) == ("b", "damage")


def test_units_in_a_fallen_building_see_each_other_past_a_wood_within_it_whatever_it_became():
    # A fallen building is a rubble field whatever its card calls what it becomes: a crater
    # blocking no sight still lets its occupants see each other past the wood within it.
    house = building("h", square(4, 0, 12, 4), hits=1, rubble={"kind": "crater", "hazard": True})
    wood = piece("wood", "woods", square(7.5, 0, 8.5, 4))
    sc = scenario(
        [unit("a", (5, 2)), unit("c", (20, 2))],
        [unit("b", (11, 2))],
        terrain=[wood],
        buildings=[house],
    )
    b = battle(sc, [6, 1, 6, 6])
    act(b, "c", AttackStep("h", "Gun"))
    assert b.state.buildings["h"].collapsed
    assert b.sight.line_clear((5, 2), (11, 2))


def test_units_in_the_same_rubble_field_see_each_other_past_a_wood_within_it():
    rubble = piece("rb", "rubble", square(0, 0, 20, 4))
    wood = piece("wood", "woods", square(8, 0, 10, 4))
    sc = scenario([unit("a", (2, 2))], [unit("b", (12, 2))], terrain=[rubble, wood])
    b = battle(sc, [1, 6, 1])
    shot = of(act(b, "a", AttackStep("b", "Gun")), "attack")[0]
    assert (shot.target, shot.outcome) == ("b", "damage")
