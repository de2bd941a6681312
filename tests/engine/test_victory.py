"""Victory: removed units scored by Size, demoralised counts, objectives, turn limit, winner."""

from __future__ import annotations

import json

import pytest

from battles.engine import (
    CLOSE_COMBAT,
    Activate,
    AttackStep,
    BattleResult,
    MoveStep,
    ScriptedCommander,
    run_battle,
)
from battles.engine.dice import Dice
from battles.engine.events import Removal

from .helpers import act, battle, building, of, piece, scenario, square, unit


def test_removed_units_score_their_size_for_the_enemy():
    sc = scenario([unit("a", (2, 2))], [unit("b", (8, 2), hits=1, size=3), unit("c", (20, 20))])
    b = battle(sc, [1, 6, 1])
    ev = act(b, "a", AttackStep("b", "Gun"))
    assert [(s.side, s.points, s.reason) for s in of(ev, "score")] == [("blue", 3, "removed:b")]


def test_a_unit_removed_with_no_enemy_attack_still_scores_its_size_for_the_enemy():
    # "Score removed units by Size", however removed: red's b, in the house blue brings down,
    # fails its roll and takes its last Hit; red's d takes its last Hit breaching the house.
    house = [building("h", square(10, 0, 14, 4), hits=1)]
    red = [unit("b", (12, 2), hits=1, size=2), unit("c", (20, 20))]
    b = battle(scenario([unit("a", (4, 2))], red, buildings=house), [6, 1, 5])
    ev = act(b, "a", AttackStep("h", "Gun"))
    assert [(d.unit, d.by) for d in of(ev, "damage")] == [("h", "a"), ("b", None)]
    assert [(s.side, s.points, s.reason) for s in of(ev, "score")] == [("blue", 2, "removed:b")]
    red = [unit("d", (8, 2), hits=1, size=4, keywords=["breaching"]), unit("c", (20, 20))]
    b = battle(scenario([unit("a", (2, 22))], red, buildings=house), [6])
    ev = act(b, "d", MoveStep(((12, 2),)))
    assert [(d.unit, d.by) for d in of(ev, "damage")] == [("d", None)]
    assert [(s.side, s.points, s.reason) for s in of(ev, "score")] == [("blue", 4, "removed:d")]


def test_demoralised_counts_as_removed():
    sc = scenario([unit("a", (2, 2))], [unit("b", (8, 2), skill=2, size=2), unit("c", (20, 20))])
    b = battle(sc, [1, 1, 6])
    ev = act(b, "a", AttackStep("b", "Gun"))
    assert [(s.side, s.points) for s in of(ev, "score")] == [("blue", 2)]


def _obj(**kw):
    return [{"id": "hill", "point": [12, 12], "radius": 3, "sides": ["blue"], **kw}]


def test_objective_points_per_turn_held():
    sc = scenario(
        [unit("a", (12, 12))],
        [unit("b", (2, 22))],
        objectives=_obj(points_per_turn=2),
        turn_limit=3,
    )
    rec = run_battle(
        sc, seed=1, commanders={"blue": ScriptedCommander(), "red": ScriptedCommander()}
    )
    assert rec.result.side("blue").score == 6
    assert rec.result.side("blue").objectives_held == ("hill",)


def test_objective_points_at_end():
    sc = scenario([unit("a", (12, 12))], [unit("b", (2, 22))], objectives=_obj(points_at_end=5))
    rec = run_battle(
        sc, seed=1, commanders={"blue": ScriptedCommander(), "red": ScriptedCommander()}
    )
    assert rec.result.side("blue").score == 5
    assert rec.result.winner == "blue"


def test_an_objective_is_not_held_while_the_enemy_is_within_it():
    sc = scenario([unit("a", (12, 12))], [unit("b", (13, 13))], objectives=_obj(points_at_end=5))
    rec = run_battle(
        sc, seed=1, commanders={"blue": ScriptedCommander(), "red": ScriptedCommander()}
    )
    assert rec.result.side("blue").score == 0 and rec.result.winner is None


def test_a_removed_unit_on_an_objective_neither_holds_nor_contests_it():
    # "Held" counts unremoved units only. Red's b, on blue's hill, is destroyed by a: blue holds
    # the hill at the end of the turn though b's model lay there. Then blue's own a, alone on
    # the hill, is destroyed by red's c: the hill is blue's no more.
    sc = scenario(
        [unit("a", (12, 12))],
        [unit("b", (13, 12), hits=1), unit("c", (20, 12))],
        objectives=_obj(points_per_turn=2),
        turn_limit=1,
    )
    rec = run_battle(
        sc,
        dice=Dice.fixed([6, 1, 1, 6, 1]),  # blue first; a hits and damages b
        commanders={
            "blue": ScriptedCommander([Activate("a", (AttackStep("b", "Gun"),))]),
            "red": ScriptedCommander(),
        },
    )
    scores = [(e.side, e.reason, e.points) for e in rec.events if e.KIND == "score"]
    assert scores == [("blue", "removed:b", 2), ("blue", "objective:hill", 2)]
    sc = scenario(
        [unit("a", (12, 12), hits=1), unit("d", (2, 22))],
        [unit("c", (20, 12))],
        objectives=_obj(points_per_turn=2),
        turn_limit=1,
    )
    rec = run_battle(
        sc,
        dice=Dice.fixed([1, 6, 1, 6, 1]),  # red first; c hits and damages a
        commanders={
            "blue": ScriptedCommander(),
            "red": ScriptedCommander([Activate("c", (AttackStep("a", "Gun"),))]),
        },
    )
    scores = [(e.side, e.reason, e.points) for e in rec.events if e.KIND == "score"]
    assert scores == [("red", "removed:a", 2)]
    assert rec.result.side("blue").objectives_held == ()


def test_an_objective_is_held_and_contested_from_exactly_its_radius():
    # "Within R" is at most R: blue 3" from the point holds it (radius 3); red exactly 3" away on
    # the other side denies it; red 3.002" away does not.
    for red_at, held in (((15.002, 12), True), ((15, 12), False)):
        sc = scenario([unit("a", (9, 12))], [unit("b", red_at)], objectives=_obj(points_per_turn=2))
        rec = run_battle(
            sc,
            dice=Dice.fixed([6, 1, 6, 1, 6, 1]),
            commanders={"blue": ScriptedCommander(), "red": ScriptedCommander()},
        )
        assert rec.result.side("blue").score == (6 if held else 0), red_at


@pytest.mark.parametrize(
    ("point", "at"), [((14.0, 17.9), (15.8, 20.3)), ((15.3, 0.7), (17.1, 3.1))]
)
def test_an_objective_radius_is_measured_between_decimal_positions_as_a_tape_would(point, at):
    # 1.8" by 2.4" is 3" on the tape, a hair over in binary: a unit exactly at the radius, in
    # tenths of an inch, holds the ground.
    objective = [
        {"id": "x", "point": list(point), "radius": 3, "sides": ["blue"], "points_at_end": 5}
    ]
    sc = scenario([unit("a", at)], [unit("b", (1, 23))], objectives=objective, turn_limit=1)
    rec = run_battle(
        sc,
        dice=Dice.fixed([6, 1]),
        commanders={"blue": ScriptedCommander(), "red": ScriptedCommander()},
    )
    assert rec.result.side("blue").score == 5


def test_an_objective_only_scores_for_its_sides():
    sc = scenario([unit("a", (2, 2))], [unit("b", (12, 12))], objectives=_obj(points_at_end=5))
    rec = run_battle(
        sc, seed=1, commanders={"blue": ScriptedCommander(), "red": ScriptedCommander()}
    )
    assert rec.result.side("red").score == 0


def test_the_battle_ends_at_the_turn_limit():
    sc = scenario([unit("a", (2, 2))], [unit("b", (2, 22))], turn_limit=4)
    rec = run_battle(
        sc, seed=3, commanders={"blue": ScriptedCommander(), "red": ScriptedCommander()}
    )
    assert rec.result.end_reason == "turn_limit" and rec.result.turns == 4
    assert rec.events[-1].KIND == "end"


def test_a_side_with_no_units_ends_the_battle():
    sc = scenario([unit("a", (2, 2))], [unit("b", (8, 2), hits=1)], turn_limit=5)
    actions = [Activate("a", (AttackStep("b", "Gun"),))]
    rec = run_battle(
        sc,
        dice=Dice.fixed([6, 1, 1, 6, 1]),
        commanders={"blue": ScriptedCommander(actions), "red": ScriptedCommander()},
    )
    assert rec.result.end_reason == "side_eliminated" and rec.result.turns == 1
    assert rec.result.winner == "blue"


def test_equal_scores_are_a_draw():
    sc = scenario([unit("a", (2, 2))], [unit("b", (2, 22))])
    rec = run_battle(
        sc, seed=3, commanders={"blue": ScriptedCommander(), "red": ScriptedCommander()}
    )
    assert rec.result.winner is None


def _raze(sides, dice):
    """Blue's unit shoots house "h" (1 Hit) in turn 1, the last, under a raze objective worth 4
    at the end to ``sides``."""
    from .helpers import building, square

    objs = [{"id": "raze", "kind": "raze", "building": "h", "sides": sides, "points_at_end": 4}]
    sc = scenario(
        [unit("a", (4, 2))],
        [unit("b", (20, 20))],
        objectives=objs,
        buildings=[building("h", square(6, 0, 8, 4), hits=1)],
        turn_limit=1,
    )
    actions = [Activate("a", (AttackStep("h", "Gun"),))]
    return run_battle(
        sc,
        dice=Dice.fixed(dice),
        commanders={"blue": ScriptedCommander(actions), "red": ScriptedCommander()},
    )


def test_razing_a_building_scores_at_the_end():
    rec = _raze(["blue"], [6, 1, 6, 1])
    assert rec.result.side("blue").score == 4
    assert rec.result.buildings[0].collapsed


def test_a_raze_objective_scores_nothing_while_its_building_stands():
    # The same battle as above with the shot failing to damage: the house stands, nobody scores.
    rec = _raze(["blue"], [1, 6, 1, 6])
    assert not rec.result.buildings[0].collapsed
    assert rec.result.side("blue").score == 0


def test_a_raze_objective_for_both_sides_scores_for_each_once_its_building_falls():
    rec = _raze(["blue", "red"], [6, 1, 6, 1])
    assert rec.result.buildings[0].collapsed
    assert (rec.result.side("blue").score, rec.result.side("red").score) == (4, 4)


def test_holding_a_building_scores_as_a_hold_objective_on_its_ground():
    # The house is the objective's ground: blue's squad inside it holds it each turn, though it
    # is hidden and only the building can be attacked; red, outside the radius, contests nothing.
    from .helpers import building, square

    house = building("h", square(10, 10, 14, 14))
    objs = [{"id": "house", "point": [12, 12], "radius": 2, "sides": ["blue", "red"],
             "points_per_turn": 1}]  # fmt: skip
    sc = scenario(
        [unit("a", (12, 12))],
        [unit("b", (20, 20))],
        objectives=objs,
        buildings=[house],
        turn_limit=2,
    )
    rec = run_battle(
        sc,
        dice=Dice.fixed([6, 1, 6, 1]),
        commanders={"blue": ScriptedCommander(), "red": ScriptedCommander()},
    )
    held = [e for e in rec.events if e.KIND == "score" and e.reason == "objective:house"]
    assert [(e.side, e.points) for e in held] == [("blue", 1), ("blue", 1)]


def test_result_reports_each_unit():
    sc = scenario(
        [unit("a", (2, 2))], [unit("b", (8, 2), hits=3), unit("c", (20, 20))], turn_limit=1
    )
    actions = [Activate("a", (AttackStep("b", "Gun"),))]
    rec = run_battle(
        sc,
        dice=Dice.fixed([6, 1, 1, 6, 1, 1]),
        commanders={"blue": ScriptedCommander(actions), "red": ScriptedCommander()},
    )
    a, b = rec.result.unit("a"), rec.result.unit("b")
    assert (a.shots, a.damage_dealt, b.hits_lost, b.skill_lost, b.removed) == (1, 1, 1, 0, "none")
    d = rec.result.to_dict()
    assert set(d) == {"winner", "end_reason", "turns", "sides", "units", "buildings"}


def test_the_record_tells_each_unit_and_building_as_the_battle_left_it():
    # Read off the final state, not the stored result (whose JSON stays as it is): a moves and
    # turns, c spends a Rocket bringing the house down, b ends hidden in its wood.
    rocket = [{"name": "Rocket", "power": 5, "range": 12, "uses": 2}]
    sc = scenario(
        [unit("a", (2, 2)), unit("c", (2, 10), weapons=rocket)],
        [unit("b", (20, 20), enters=["woods"])],
        terrain=[piece("w", "woods", square(19, 19, 21, 21))],
        buildings=[building("h", square(10, 2, 12, 4), hits=1)],
        turn_limit=1,
    )
    blue = ScriptedCommander(
        [Activate("a", (MoveStep(((3, 5),), 90),)), Activate("c", (AttackStep("h", "Rocket"),))]
    )
    rec = run_battle(
        sc, dice=Dice.fixed([6, 1, 6, 1]), commanders={"blue": blue, "red": ScriptedCommander()}
    )
    a, b, c = (rec.final_unit(u) for u in "abc")
    assert (a.position, a.facing, a.hits, a.skill, a.removed, a.concealed) == (
        (3, 5),
        90,
        2,
        4,
        "none",
        False,
    )
    assert (c.uses, c.side, c.card.name) == ({"Rocket": 1}, "blue", "Trooper")
    assert b.concealed and b.position == (20, 20)
    h = rec.final_building("h")
    assert (h.hits, h.collapsed, h.side, h.card.rubble.kind) == (0, True, None, "rubble")
    assert rec.result.building("h").collapsed
    # `removed` is the word, and false for a unit still in the field: `if removed` reads true.
    assert not a.removed and not rec.result.unit("a").removed
    assert Removal.DESTROYED and Removal.DEMORALISED


def test_the_result_as_a_dict_is_json_as_stored():
    """`to_dict` is what the site stores: JSON's own types, equal to the JSON read back."""
    sc = scenario([unit("a", (2, 2))], [unit("b", (8, 2), hits=1)])
    actions = [Activate("a", (AttackStep("b", "Gun"),))]
    rec = run_battle(
        sc,
        dice=Dice.fixed([6, 1, 1, 6, 1]),
        commanders={"blue": ScriptedCommander(actions), "red": ScriptedCommander()},
    )
    data = rec.result.to_dict()
    assert data == json.loads(json.dumps(data))
    assert type(data["sides"]) is list and type(data["units"][0]["removed"]) is str
    assert [u["removed"] for u in data["units"]] == ["none", "destroyed"]
    assert BattleResult.from_dict(data) == rec.result
    for lookup in (rec.final_unit, rec.final_building, rec.result.unit, rec.result.building):
        with pytest.raises(KeyError, match=r"no .* 'x' in the"):
            lookup("x")
    with pytest.raises(KeyError, match=r"its sides are \['blue', 'red'\]"):
        rec.result.side("x")


HILL = {
    "id": "hill",
    "point": [2, 2],
    "radius": 3,
    "sides": ["blue"],
    "points_per_turn": 1,
    "points_at_end": 2,
}
"""Blue's hill: 1 point a turn, 2 at the end."""


def test_a_battle_ended_early_scores_at_end_points_but_not_the_unfinished_turn():
    # Blue's second unit is still to act when its first removes red's only unit: the turn is
    # unfinished.
    blue = [unit("a", (2, 2)), unit("a2", (2, 4))]
    sc = scenario(blue, [unit("b", (8, 2), hits=1)], objectives=[HILL])
    actions = [Activate("a", (AttackStep("b", "Gun"),))]
    rec = run_battle(
        sc,
        dice=Dice.fixed([6, 1, 1, 6, 1]),
        commanders={"blue": ScriptedCommander(actions), "red": ScriptedCommander()},
    )
    assert [e.KIND for e in rec.events].count("activation") == 1
    reasons = [(e.reason, e.points) for e in rec.events if e.KIND == "score"]
    assert reasons == [("removed:b", 2), ("objective:hill", 2)]


def test_a_battle_ended_by_the_turns_last_activation_scores_that_completed_turn():
    """Red acts first (it passes); blue's unit is the last of the turn to act and removes red's
    last unit. Nobody was left to act: the turn was complete, and scores its points per turn
    before the battle's end points (E19)."""
    sc = scenario([unit("a", (2, 2))], [unit("b", (8, 2), hits=1)], objectives=[HILL])
    actions = [Activate("a", (AttackStep("b", "Gun"),))]
    rec = run_battle(
        sc,
        dice=Dice.fixed([1, 6, 1, 6, 1]),  # red wins the initiative; blue hits and damages
        commanders={"blue": ScriptedCommander(actions), "red": ScriptedCommander()},
    )
    kinds = [e.KIND for e in rec.events if e.KIND in ("initiative", "activation", "end")]
    assert kinds == ["initiative", "activation", "activation", "end"]
    reasons = [(e.reason, e.points) for e in rec.events if e.KIND == "score"]
    assert reasons == [("removed:b", 2), ("objective:hill", 1), ("objective:hill", 2)]
    assert rec.result.side("blue").score == 5 and rec.result.end_reason == "side_eliminated"


def test_a_ram_that_removes_both_sides_last_units_ends_the_battle_on_the_scores():
    # Rams land together (E8): a and b destroy each other, the last unit of each side. The
    # battle ends there, each side scores the other's Size, and the scores decide: blue's hill
    # (end points) is held by nobody, so 3 against 3 is a draw; against a Size 2 rammer, red
    # takes 3 and gives 2, and wins.
    for red_size, winner, scores in ((3, None, (3, 3)), (2, "red", (2, 3))):
        sc = scenario(
            [unit("a", (2, 2), hits=1, size=3, resistance=0)],
            [unit("b", (2.5, 2), hits=1, size=red_size, resistance=0)],
            objectives=[HILL | {"point": [20, 20]}],
            turn_limit=3,
        )
        rec = run_battle(
            sc,
            dice=Dice.fixed([6, 1, 6, 1, 6, 1]),  # blue first; both rams damage
            commanders={
                "blue": ScriptedCommander([Activate("a", (AttackStep("b", CLOSE_COMBAT),))]),
                "red": ScriptedCommander(),
            },
        )
        assert [(e.unit, e.how) for e in rec.events if e.KIND == "remove"] == [
            ("b", "destroyed"),
            ("a", "destroyed"),
        ]
        assert (rec.result.end_reason, rec.result.turns) == ("side_eliminated", 1)
        assert (rec.result.side("blue").score, rec.result.side("red").score) == scores
        assert rec.result.winner == winner
