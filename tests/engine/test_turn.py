"""The turn: initiative, alternating activations, the side that runs out lets the other finish,
move or fire but not both."""

from __future__ import annotations

import pytest

from battles.engine import (
    CLOSE_COMBAT,
    Activate,
    AttackStep,
    DiceExhaustedError,
    IllegalActionError,
    MoveStep,
    ScriptedCommander,
    replay,
    run_battle,
)
from battles.engine.battle import Battle
from battles.engine.dice import Dice
from battles.engine.loader import parse_scenario

from .helpers import act, battle, building, kinds, of, piece, scenario, square, unit


def _turn(sc, faces):
    b = Battle(
        parse_scenario(sc),
        Dice.fixed(faces),
        {"blue": ScriptedCommander(), "red": ScriptedCommander()},
    )
    b.start()
    b.play_turn(1)
    return b


def test_initiative_both_roll_1d6_high_goes_first():
    sc = scenario([unit("a", (2, 2))], [unit("b", (2, 20))])
    b = _turn(sc, [2, 5])
    init = of(b.log, "initiative")[0]
    assert init.first == "red"
    assert [e.unit for e in of(b.log, "activation")] == ["b", "a"]


def test_initiative_is_rolled_again_every_turn():
    # Blue rolls high in turn 1 and goes first; red rolls high in turn 2 and goes first then.
    sc = scenario([unit("a", (2, 2))], [unit("b", (2, 20))], turn_limit=2)
    rec = run_battle(
        sc,
        dice=Dice.fixed([5, 2, 1, 4]),
        commanders={"blue": ScriptedCommander(), "red": ScriptedCommander()},
    )
    rolls = [(r.who, r.value) for r in of(rec.events, "roll")]
    assert rolls == [("blue", 5), ("red", 2), ("blue", 1), ("red", 4)]
    assert [(i.turn, i.first) for i in of(rec.events, "initiative")] == [(1, "blue"), (2, "red")]
    assert [e.unit for e in of(rec.events, "activation")] == ["a", "b", "b", "a"]


def test_initiative_ties_are_rerolled():
    sc = scenario([unit("a", (2, 2))], [unit("b", (2, 20))])
    b = _turn(sc, [3, 3, 6, 1])
    rolls = [(r.who, r.value, r.outcome) for r in of(b.log, "roll")]
    assert rolls == [("blue", 3, "tie"), ("red", 3, "tie"), ("blue", 6, "win"), ("red", 1, "lose")]
    assert of(b.log, "initiative")[0].first == "blue"


def test_sides_alternate_one_unit_at_a_time():
    sc = scenario(
        [unit("a1", (2, 2)), unit("a2", (3, 2))], [unit("b1", (2, 20)), unit("b2", (3, 20))]
    )
    b = _turn(sc, [6, 1])
    assert [e.unit for e in of(b.log, "activation")] == ["a1", "b1", "a2", "b2"]


def test_when_one_side_runs_out_the_other_finishes():
    sc = scenario(
        [unit("a1", (2, 2))], [unit("b1", (2, 20)), unit("b2", (3, 20)), unit("b3", (4, 20))]
    )
    b = _turn(sc, [6, 1])
    assert [e.unit for e in of(b.log, "activation")] == ["a1", "b1", "b2", "b3"]


def test_a_side_whose_last_ready_unit_is_removed_has_run_out_and_the_other_finishes():
    # Blue's a2 is destroyed before it activates: blue has run out, so red's b2 acts next. In
    # the next turn blue has a1 alone, and after it red finishes again.
    sc = scenario(
        [unit("a1", (2, 2)), unit("a2", (2, 4), hits=1)],
        [unit("b1", (8, 4)), unit("b2", (8, 6))],
    )
    b = Battle(
        parse_scenario(sc),
        Dice.fixed([6, 1, 1, 6, 1, 6, 1]),
        {
            "blue": ScriptedCommander(),
            "red": ScriptedCommander([Activate("b1", (AttackStep("a2", "Gun"),))]),
        },
    )
    b.start()
    assert b.play_turn(1)
    assert [(r.unit, r.how) for r in of(b.log, "remove")] == [("a2", "destroyed")]
    assert [e.unit for e in of(b.log, "activation")] == ["a1", "b1", "b2"]
    assert b.play_turn(2)
    assert [e.unit for e in of(b.log, "activation")][3:] == ["a1", "b1", "b2"]


def test_each_unit_activates_once_per_turn():
    sc = scenario([unit("a", (2, 2))], [unit("b", (2, 20))])
    b = battle(sc)
    act(b, "a")
    with pytest.raises(IllegalActionError, match="already activated"):
        act(b, "a")


def test_a_unit_moves_or_fires_not_both():
    sc = scenario([unit("a", (2, 2))], [unit("b", (8, 2))])
    b = battle(sc)
    with pytest.raises(IllegalActionError, match="moves or fires, not both"):
        act(b, "a", MoveStep(((3, 2),)), AttackStep("b", "Gun"))
    with pytest.raises(IllegalActionError, match="moves or fires, not both"):
        act(b, "a", AttackStep("b", "Gun"), MoveStep(((3, 2),)))
    assert not b.state.units["a"].activated and b.state.units["a"].position == (2, 2)


def test_attacks_resolve_immediately_within_the_activation():
    # "Resolve immediately": the dice, the damage, the removal and its score all land inside the
    # attacker's activation, before its next step and before anyone else acts. a fires, then
    # (Move and Fire) drives off; b has one Hit.
    sc = scenario([unit("a", (2, 2), keywords=["move_and_fire"])], [unit("b", (8, 2), hits=1)])
    b = battle(sc, [1, 6, 1])
    events = act(b, "a", AttackStep("b", "Gun"), MoveStep(((2, 6),)))
    assert kinds(events) == [
        "activation",
        "reveal",
        "roll",
        "roll",
        "roll",
        "attack",
        "damage",
        "remove",
        "score",
        "move",
    ]
    assert [(r.purpose, r.value) for r in of(events, "roll")] == [
        ("to_hit", 1),
        ("penetration", 6),
        ("armour", 1),
    ]
    assert of(events, "remove")[0].unit == "b" and of(events, "score")[0].total == 2
    assert not b.state.units["b"].active and b.state.scores["blue"] == 2
    with pytest.raises(IllegalActionError, match="b has been removed"):
        b.perform("red", Activate("b"))


def test_the_commander_is_never_trusted():
    sc = scenario([unit("a", (2, 2))], [unit("b", (8, 2))])
    b = battle(sc)
    for bad in [
        Activate("b"),
        Activate("ghost"),
        "pass",
        Activate("a", ("shoot",)),
        Activate("a", 5),
    ]:
        with pytest.raises(IllegalActionError):
            b.perform("blue", bad)  # type: ignore[arg-type]


def test_a_waypoint_or_facing_of_hundreds_of_digits_is_refused_not_a_crash():
    # An int too big for a float is no place on the table and no direction: refused like inf.
    b = battle(scenario([unit("a", (2, 2))], [unit("b", (8, 2))]))
    for step in (MoveStep(((10**400, 2),)), MoveStep(((3, 2),), facing=10**400)):
        with pytest.raises(IllegalActionError):
            b.perform("blue", Activate("a", (step,)))
    assert not b.state.units["a"].activated


def test_an_attack_that_no_end_of_the_move_allows_is_refused_before_the_move():
    # Bad input gets a clear error and nothing half-done: a Move and Fire unit whose attack is
    # out of range from where its move ends is refused with nothing logged, moved or rolled.
    sc = scenario([unit("a", (2, 2), keywords=["move_and_fire"])], [unit("b", (18, 2))])
    b = battle(sc, [1, 6, 1])
    n = len(b.log)
    with pytest.raises(IllegalActionError, match="out of range"):
        b.perform("blue", Activate("a", (MoveStep(((4, 2),)), AttackStep("b", "Gun"))))
    a = b.state.units["a"]
    assert len(b.log) == n and a.position == (2, 2) and not a.activated
    ev = act(b, "a", MoveStep(((7, 2),)), AttackStep("b", "Gun"))
    assert kinds(ev)[:2] == ["activation", "move"] and of(ev, "attack")


def test_an_attack_after_a_move_on_a_concealed_target_is_refused_at_once_for_all_but_concealment():
    # The target hides in a wood 20" away; the gun reaches 12". The move could spot it, but no
    # end of the move brings it into range: refused before the move's terrain roll (E23).
    hazard = piece("rough", "hazard", square(2.5, 0, 3.5, 4))
    wood = piece("w", "woods", square(18, 18, 22, 22), blocks_movement=False)
    sc = scenario(
        [unit("a", (2, 2), keywords=["move_and_fire"])],
        [unit("r", (20, 20))],
        terrain=[hazard, wood],
    )
    b = battle(sc, [1, 1])
    b.state.units["r"].concealed = True
    logged = len(b.log)
    with pytest.raises(IllegalActionError, match="out of range"):
        b.perform("blue", Activate("a", (MoveStep(((4, 2),)), AttackStep("r", "Gun"))))
    assert len(b.log) == logged and b.state.units["a"].position == (2, 2)


def test_an_illegal_commander_action_aborts_the_battle():
    class Cheat:
        def choose(self, view):
            return Activate(view.ready_units()[0].id, (MoveStep(((23, 23),)),))

    sc = scenario([unit("a", (2, 2))], [unit("b", (20, 2))])
    with pytest.raises(IllegalActionError, match="more than the 6"):
        run_battle(sc, seed=1, commanders={"blue": Cheat()})


def test_a_battle_stopped_by_a_refusal_or_by_dice_run_out_keeps_its_events():
    # What happened up to the stop, every die included. An activation refused before it begins
    # (as every one is that no turn of events could make legal, E23) leaves no event.
    sc = scenario([unit("a", (2, 2))], [unit("b", (20, 2))], turn_limit=2)
    blue = ScriptedCommander([Activate("a"), Activate("a", (MoveStep(((23, 23),)),))])
    with pytest.raises(IllegalActionError) as refused:
        run_battle(
            sc, dice=Dice.fixed([6, 1, 6, 1]), commanders={"blue": blue, "red": ScriptedCommander()}
        )
    events = refused.value.events
    assert [e.unit for e in of(events, "activation")] == ["a", "b"]
    assert kinds(events)[-4:] == ["turn_start", "roll", "roll", "initiative"]
    assert events[-1].turn == 2
    sc = scenario([unit("a", (2, 2))], [unit("b", (8, 2))])
    blue = ScriptedCommander([Activate("a", (AttackStep("b", "Gun"),))])
    with pytest.raises(DiceExhaustedError) as ran_out:
        run_battle(
            sc, dice=Dice.fixed([6, 1, 2]), commanders={"blue": blue, "red": ScriptedCommander()}
        )
    events = ran_out.value.events
    assert [(r.purpose, r.value) for r in of(events, "roll")] == [
        ("initiative", 6),
        ("initiative", 1),
        ("to_hit", 2),
    ]
    assert kinds(events)[-3:] == ["activation", "reveal", "roll"]  # the hit; no penetration die
    # The stopped battle replays like any other, up to where it stopped.
    assert replay(parse_scenario(sc), events).units["a"].revealed_until == 2


def test_a_move_of_more_waypoints_than_any_path_needs_is_refused():
    # A million copies of one waypoint took seconds to check and a megabyte to log.
    b = battle(scenario([unit("a", (2, 2))], [unit("b", (8, 2))]))
    logged = len(b.log)
    with pytest.raises(IllegalActionError, match="at most 1,000 waypoints, got 1,001"):
        b.perform("blue", Activate("a", (MoveStep(((2, 2),) * 1001),)))
    assert not b.state.units["a"].activated and len(b.log) == logged
    b.perform("blue", Activate("a", (MoveStep(((2, 3),) * 1000),)))
    assert b.state.units["a"].position == (2, 3)


@pytest.mark.parametrize("how", ["demoralised by the blow back", "destroyed by the blow back"])
def test_a_unit_removed_by_its_own_ram_does_nothing_more_in_its_activation(how):
    # Removed "at once": a rammer with Move and Fire that the blow back demoralises (Skill 2 to
    # 1, Combined Arms) or destroys is gone, and the move it asked for after the ram never comes.
    demoralised = how.startswith("demoralised")
    a = unit(
        "a",
        (2, 2),
        skill=2 if demoralised else 4,
        hits=2 if demoralised else 1,
        size=3,
        resistance=2 if demoralised else 0,
        keywords=["move_and_fire"],
    )
    sc = scenario([a], [unit("b", (2.5, 2), size=2, resistance=5)])
    b = battle(sc, [1, 6, 1, 6] if demoralised else [1, 6, 6, 1])
    ev = act(b, "a", AttackStep("b", CLOSE_COMBAT), MoveStep(((2, 5),)))
    assert [(r.unit, r.how) for r in of(ev, "remove")] == [
        ("a", "demoralised" if demoralised else "destroyed")
    ]
    assert not of(ev, "move") and b.state.units["a"].position == (2, 2)


def test_a_unit_removed_by_its_breaching_roll_does_nothing_more_in_its_activation():
    # The failed Breaching roll's Hit removes it at the wall; the shot it meant to take from
    # inside is never fired. With a Hit to spare, it goes in and fires.
    def sc(hits):
        return scenario(
            [unit("a", (8, 2), size=4, hits=hits, keywords=["breaching", "move_and_fire"])],
            [unit("b", (16, 2))],
            buildings=[building("h", square(10, 0, 14, 4))],
        )

    b = battle(sc(1), [6])
    ev = act(b, "a", MoveStep(((12, 2),)), AttackStep("b", "Gun"))
    assert [(r.unit, r.how) for r in of(ev, "remove")] == [("a", "destroyed")]
    assert not of(ev, "attack") and b.state.units["a"].position == (10, 2)
    b = battle(sc(2), [6, 6])
    ev = act(b, "a", MoveStep(((12, 2),)), AttackStep("b", "Gun"))
    assert [(x.attacker, x.target) for x in of(ev, "attack")] == [("a", "b")]
