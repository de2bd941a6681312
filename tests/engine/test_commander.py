"""Commanders: the view hides concealed enemies; SimpleCommander is deterministic and obvious."""

from __future__ import annotations

import pytest

from battles.engine import (
    CLOSE_COMBAT,
    Activate,
    AttackStep,
    Dice,
    MoveStep,
    ScriptedCommander,
    SimpleCommander,
    run_battle,
)
from battles.engine.commander import BattleView
from battles.engine.victory import holders

from .helpers import battle, building, piece, scenario, square, unit

WOOD = piece("wood", "woods", square(5, 0, 7, 4))


def test_the_view_shows_no_concealed_enemy():
    sc = scenario([unit("a", (2, 2))], [unit("b", (10, 2)), unit("c", (10, 10))], terrain=[WOOD])
    view = BattleView(battle(sc), "blue")
    assert [e.id for e in view.enemies()] == ["c"]
    assert view.attack_problem("a", "b", "Gun") == "no visible unit 'b'"


def test_the_sensor_is_asked_only_from_where_the_unit_stands():
    # Asked of any spot on the table, "what could the Sensor reveal from here?" would map every
    # concealed enemy (E24): the view answers from where the unit stands, within 6".
    sc = scenario(
        [unit("a", (4, 4), keywords=["sensor"])],
        [unit("c", (16, 16)), unit("d", (8, 4))],
        terrain=[
            piece("w1", "rubble", square(14, 14, 18, 18)),
            piece("w2", "rubble", square(7, 3, 9, 5)),
        ],
        ruleset="one_year_war",
    )
    view = BattleView(battle(sc), "blue")
    assert view.sensor_targets("a") == ["d"]
    with pytest.raises(TypeError):
        view.sensor_targets("a", (16, 16))  # type: ignore[call-arg]


def test_who_holds_an_objective_does_not_give_away_a_concealed_enemy():
    hill = {"id": "hill", "point": [12, 12], "radius": 3, "sides": ["blue"], "points_per_turn": 1}
    wood = piece("wood", "woods", square(11, 13, 13, 15), blocks_movement=False)
    sc = scenario([unit("a", (12, 10))], [unit("r", (12, 14))], terrain=[wood], objectives=[hill])
    b = battle(sc)
    assert b.state.units["r"].concealed
    # Blue sees itself alone on the hill; the battle knows the hill is contested.
    assert BattleView(b, "blue").holders(b.scenario.objectives[0]) == ["blue"]
    assert holders(b.state, b.scenario.objectives[0]) == []


def test_the_view_shows_a_concealed_enemy_in_the_same_piece():
    rubble = piece("r", "rubble", square(4, 0, 8, 4))
    sc = scenario([unit("a", (5, 2))], [unit("b", (7, 2))], terrain=[rubble])
    assert [e.id for e in BattleView(battle(sc), "blue").enemies()] == ["b"]


def test_the_view_lists_legal_attacks_including_close_combat():
    sc = scenario([unit("a", (2, 2), melee=3)], [unit("b", (2.8, 2))])
    view = BattleView(battle(sc), "blue")
    assert view.legal_attacks("a") == [("b", "Gun"), ("b", CLOSE_COMBAT)]


def test_simple_commander_activates_in_unit_order_and_attacks_the_nearest_with_its_best_weapon():
    weapons = [
        {"name": "Rifle", "power": 1, "range": 12},
        {"name": "Cannon", "power": 5, "range": 12},
    ]
    sc = scenario(
        [unit("a", (2, 2), weapons=weapons), unit("z", (2, 3))],
        [unit("far", (12, 2)), unit("near", (8, 2))],
    )
    act = SimpleCommander().choose(BattleView(battle(sc), "blue"))
    assert act.unit == "a"
    assert act.steps == (AttackStep("near", "Cannon"),)


def test_simple_commander_prefers_an_unlimited_weapon_of_equal_power():
    weapons = [
        {"name": "Missile", "power": 4, "range": 12, "uses": 1},
        {"name": "Gun", "power": 4, "range": 12},
    ]
    sc = scenario([unit("a", (2, 2), weapons=weapons)], [unit("b", (8, 2))])
    act = SimpleCommander().choose(BattleView(battle(sc), "blue"))
    assert act.steps == (AttackStep("b", "Gun"),)


def test_simple_commander_advances_toward_its_objective():
    objs = [{"id": "hill", "point": [12, 12], "radius": 2, "sides": ["blue"], "points_at_end": 1}]
    sc = scenario([unit("a", (2, 2), order="advance")], [unit("b", (22, 22))], objectives=objs)
    act = SimpleCommander().choose(BattleView(battle(sc), "blue"))
    (step,) = act.steps
    assert isinstance(step, MoveStep)
    end = step.to[-1]
    assert abs(((end[0] - 2) ** 2 + (end[1] - 2) ** 2) ** 0.5 - 6) < 0.05


def test_simple_commander_holds_in_place_on_a_hold_order():
    sc = scenario([unit("a", (2, 2), order="hold")], [unit("b", (22, 22))])
    assert SimpleCommander().choose(BattleView(battle(sc), "blue")).steps == ()


def test_simple_commander_attacks_the_building_an_enemy_is_in():
    sc = scenario(
        [unit("a", (2, 2))], [unit("b", (8, 2))], buildings=[building("h", square(7, 0, 9, 4))]
    )
    b = battle(sc)
    b.state.units["b"].concealed = False
    act = SimpleCommander().choose(BattleView(b, "blue"))
    assert act.steps == (AttackStep("h", "Gun"),)


def test_simple_commander_turns_a_fixed_mount_toward_a_target():
    sc = scenario([unit("a", (2, 2), facing=180, keywords=["fixed_mount"])], [unit("b", (8, 2))])
    act = SimpleCommander().choose(BattleView(battle(sc), "blue"))
    assert act.steps == (MoveStep((), 0.0),)


def test_simple_commander_battles_are_deterministic():
    sc = scenario([unit("a", (2, 2), order="attack")], [unit("b", (20, 20), order="attack")])
    assert run_battle(sc, seed=8).log_json() == run_battle(sc, seed=8).log_json()


def test_a_commander_for_a_side_the_scenario_does_not_have_is_refused():
    # A typo ("Blue") would leave blue to the default commander: refused, naming the sides,
    # before a die is rolled.
    sc = scenario([unit("a", (2, 2))], [unit("b", (20, 20))])
    with pytest.raises(ValueError) as refused:
        run_battle(sc, seed=1, commanders={"Blue": SimpleCommander(), "red": SimpleCommander()})
    assert str(refused.value) == (
        "commanders: 'Blue' is no side of the scenario (the sides are 'blue' and 'red')"
    )
    with pytest.raises(ValueError, match=r"'red' is not a commander .*: str"):
        run_battle(sc, seed=1, commanders={"red": "simple"})
    run_battle(sc, seed=1, commanders={"red": SimpleCommander()})


def test_a_scripted_commander_plays_its_activations_in_order_then_passes():
    sc = scenario([unit("a1", (2, 2)), unit("a2", (3, 2))], [unit("b", (20, 20))], turn_limit=2)
    script = [Activate("a2", (MoveStep(((3, 4),)),)), Activate("a1")]
    blue = ScriptedCommander([*script, Activate("a1", (MoveStep(((2, 4),)),))])
    rec = run_battle(
        sc, dice=Dice.fixed([6, 1, 1, 6]), commanders={"blue": blue, "red": ScriptedCommander()}
    )
    # Turn 1 plays the first two; turn 2 (red first) the third, then a2 passes.
    activations = [(e.unit, e.number) for e in rec.events if e.KIND == "activation"]
    assert activations == [("a2", 1), ("b", 1), ("a1", 1), ("b", 2), ("a1", 2), ("a2", 2)]
    assert rec.final_unit("a1").position == (2, 4) and rec.final_unit("a2").position == (3, 4)
    assert blue.remaining == ()
    # What a battle that ended first never asked for is left to see; a script that is not a list
    # of Activates is refused where it is written.
    left = ScriptedCommander([*script, *script, *script])
    run_battle(sc, dice=Dice.fixed([6, 1, 6, 1]), commanders={"blue": left})
    assert left.remaining == tuple(script)
    with pytest.raises(TypeError, match=r"plays Activates, got tuple at \[1\]"):
        ScriptedCommander([Activate("a1"), ("a1",)])


def test_a_commanders_class_or_a_seed_that_is_no_whole_number_is_refused_before_a_die():
    # A class has a choose too, but it would fail mid-battle, dice rolled; a seed of "1", 1.5,
    # True or NaN would be written into the log as no whole number (NaN fights a new battle
    # each time).
    sc = scenario([unit("a", (2, 2))], [unit("b", (20, 20))])
    with pytest.raises(ValueError, match=r"'red' is the class SimpleCommander, not a commander"):
        run_battle(sc, seed=1, commanders={"red": SimpleCommander})  # type: ignore[dict-item]
    for seed in ("1", 1.5, True, float("nan"), b"x", [1]):
        with pytest.raises(ValueError, match="a seed is a whole number"):
            run_battle(sc, seed=seed)  # type: ignore[arg-type]
    assert run_battle(sc, seed=2**70).seed == 2**70
