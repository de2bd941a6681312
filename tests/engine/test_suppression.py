"""Suppression and demoralisation, under both rulesets."""

from __future__ import annotations

import pytest

from battles.engine import (
    CLOSE_COMBAT,
    Activate,
    AttackStep,
    IllegalActionError,
    MoveStep,
    ScriptedCommander,
    run_battle,
)
from battles.engine.battle import Battle
from battles.engine.dice import Dice
from battles.engine.loader import parse_scenario
from battles.engine.result import BattleResult
from battles.engine.rulesets import COMBINED_ARMS, ONE_YEAR_WAR
from battles.engine.targeting import attack_problem, legal_attacks

from .helpers import act, battle, building, of, piece, scenario, square, unit


def _shot(faces, ruleset="combined_arms", power=3, **target):
    weapons = [{"name": "Gun", "power": power, "range": 12}]
    sc = scenario(
        [unit("a", (2, 2), weapons=weapons)], [unit("b", (8, 2), **target)], ruleset=ruleset
    )
    b = battle(sc, faces)
    return b, act(b, "a", AttackStep("b", "Gun"))


def test_a_hit_that_fails_to_damage_costs_one_skill():
    b, ev = _shot([1, 1, 6], resistance=2)
    assert [(s.unit, s.skill) for s in of(ev, "suppress")] == [("b", 3)]
    assert b.state.units["b"].skill == 3


def test_suppression_needs_power_at_least_resistance():
    b, ev = _shot([1, 1, 6], power=3, resistance=3)
    assert of(ev, "suppress"), "Power equal to Resistance suppresses"
    b, ev = _shot([1, 1, 6], power=2, resistance=3)
    assert not of(ev, "suppress"), "rifles do not rattle tanks"
    assert b.state.units["b"].skill == 4


def test_a_miss_does_not_suppress():
    _b, ev = _shot([6])
    assert not of(ev, "suppress")


def test_damage_does_not_also_suppress():
    b, ev = _shot([1, 6, 1])
    assert not of(ev, "suppress")
    assert b.state.units["b"].skill == 4


def test_combined_arms_demoralises_at_skill_1():
    b, ev = _shot([1, 1, 6], skill=2)
    assert of(ev, "suppress")[0].skill == 1
    assert of(ev, "remove")[0].how == "demoralised"
    assert b.state.units["b"].removed.value == "demoralised"
    # At Skill 1 and not before: b, printed Skill 3, fights on at 2 and is removed at 1.
    sc = scenario([unit("a", (2, 2)), unit("c", (2, 3))], [unit("b", (8, 2), skill=3, size=3)])
    b = battle(sc, [1, 1, 6, 1, 1, 6])
    ev = act(b, "a", AttackStep("b", "Gun"))
    assert [s.skill for s in of(ev, "suppress")] == [2] and not of(ev, "remove")
    assert b.state.units["b"].active
    ev = act(b, "c", AttackStep("b", "Gun"))
    assert [s.skill for s in of(ev, "suppress")] == [1]
    assert [(r.unit, r.how) for r in of(ev, "remove")] == [("b", "demoralised")]
    assert [(s.side, s.points) for s in of(ev, "score")] == [("blue", 3)]


def test_one_year_war_demoralises_at_skill_0():
    b, ev = _shot([1, 1, 6], ruleset="one_year_war", skill=2)
    assert of(ev, "suppress")[0].skill == 1
    assert not of(ev, "remove")
    assert b.state.units["b"].active


def test_one_year_war_skill_0_removes():
    # Demoralised at Skill 0 is removed, and "demoralised counts as removed": blue scores b's
    # Size 3.
    sc = scenario(
        [unit("a", (2, 2)), unit("c", (2, 3))],
        [unit("b", (8, 2), skill=2, size=3)],
        ruleset="one_year_war",
    )
    b = battle(sc, [1, 1, 6, 1, 1, 6])
    act(b, "a", AttackStep("b", "Gun"))
    ev = act(b, "c", AttackStep("b", "Gun"))
    assert of(ev, "suppress")[0].skill == 0
    assert of(ev, "remove")[0].how == "demoralised"
    assert not b.state.units["b"].active
    assert [(s.side, s.points) for s in of(ev, "score")] == [("blue", 3)]


def _suppressed_then_fights_on(ruleset: str):
    """b is suppressed in turn 1 (Skill 4 to 3) and shoots back in turn 3, after turn 2 passes.

    Blue wins every initiative; turn 3's last die is b's Skill roll."""
    sc = scenario([unit("a", (2, 2))], [unit("b", (8, 2))], ruleset=ruleset, turn_limit=3)
    blue = ScriptedCommander([Activate("a", (AttackStep("b", "Gun"),))])
    red = ScriptedCommander(
        [Activate("b"), Activate("b"), Activate("b", (AttackStep("a", "Gun"),))]
    )
    faces = [6, 1, 1, 1, 6, 6, 1, 6, 1, 4]
    b = Battle(parse_scenario(sc), Dice.fixed(faces), {"blue": blue, "red": red})
    b.run()
    return b


def test_lost_skill_never_returns_during_the_battle():
    # Two turns after it was suppressed, b still rolls against Skill 3 (a 4 misses), and it
    # ends the battle with the Skill it lost: nothing in the battle gives it back.
    for ruleset in ("combined_arms", "one_year_war"):
        b = _suppressed_then_fights_on(ruleset)
        assert [s.skill for s in of(b.log, "suppress")] == [3]
        b_rolls = [r for r in of(b.log, "roll") if r.who == "b" and r.purpose != "armour"]
        assert [(r.purpose, r.value, r.against, r.outcome) for r in b_rolls] == [
            ("to_hit", 4, 3, "failure")
        ]
        assert [a.outcome for a in of(b.log, "attack") if a.attacker == "b"] == ["miss"]
        assert b.state.turn == 3 and b.state.units["b"].skill == 3
        assert BattleResult.from_state(b.state).unit("b").skill_lost == 1


def test_rulesets_say_whether_skill_is_restored_after_the_battle():
    # The battle reports the Skill lost; the ruleset tells the campaign what becomes of it:
    # never returns (Combined Arms), restored for the next scenario (One Year War), which
    # tests/campaign/test_bridge.py proves of the campaign.
    for ruleset, restored in (("combined_arms", False), ("one_year_war", True)):
        b = _suppressed_then_fights_on(ruleset)
        assert b.ruleset.skill_restored_after is restored
        assert BattleResult.from_state(b.state).unit("b").skill_lost == 1
    assert COMBINED_ARMS.skill_restored_after is False
    assert ONE_YEAR_WAR.skill_restored_after is True


def test_the_suppressed_skill_is_used_for_later_rolls():
    sc = scenario([unit("a", (2, 2))], [unit("b", (8, 2))])
    b = battle(sc, [1, 1, 6, 4])
    act(b, "a", AttackStep("b", "Gun"))
    ev = act(b, "b", AttackStep("a", "Gun"))
    roll = of(ev, "roll")[0]
    assert (roll.against, roll.outcome) == (3, "failure")


def test_skill_never_drops_below_zero():
    # Suppressed from 2 to 0 under One Year War, b is demoralised and removed, and a removed unit
    # cannot be attacked: no third suppression can take it below 0.
    sc = scenario([unit("a", (2, 2))], [unit("b", (8, 2), skill=2)], ruleset="one_year_war")
    b = battle(sc, [1, 1, 6] * 3)
    from battles.engine.combat import suppress

    target = b.state.units["b"]
    suppress(b, target, "a")
    suppress(b, target, "a")
    assert target.skill == 0 and not target.active
    with pytest.raises(IllegalActionError, match="removed"):
        act(b, "a", AttackStep("b", "Gun"))
    assert target.skill == 0


def test_a_demoralised_unit_attacks_no_more():
    # Demoralised and removed, b is asked about no attack: none is legal, none is offered, and
    # its side may not activate it to shoot.
    b, _ev = _shot([1, 1, 6], skill=2)
    removed = b.state.units["b"]
    assert not removed.active
    assert attack_problem(b, removed, "a", "Gun") == "the attacker has been removed"
    assert legal_attacks(b, removed, ["a"]) == []
    with pytest.raises(IllegalActionError):
        act(b, "b", AttackStep("a", "Gun"))


def test_under_one_year_war_a_unit_at_skill_1_fights_on_and_hits_only_on_a_1():
    # Suppressed from 2 to 1, b is not demoralised under One Year War (that is Skill 0): it
    # shoots back, and "equal to or under Skill" is a 1 and nothing else.
    for face, outcome in ((1, "success"), (2, "failure")):
        sc = scenario([unit("a", (2, 2))], [unit("b", (8, 2), skill=2)], ruleset="one_year_war")
        b = battle(sc, [1, 1, 6, face, 1, 6])
        act(b, "a", AttackStep("b", "Gun"))
        assert b.state.units["b"].skill == 1 and b.state.units["b"].active
        roll = of(act(b, "b", AttackStep("a", "Gun")), "roll")[0]
        assert (roll.who, roll.value, roll.against, roll.outcome) == ("b", face, 1, outcome)


HOUSE = square(10, 6, 14, 10)

# Red's b (printed Skill 2) is suppressed to Skill 1 by blue's first shot, then makes a roll of
# each kind against its Skill: it walks into a hazard, breaches a house it is too big for, or
# walks into a house that blue's second shot brings down on it.
SKILL_ROLLS = {
    "terrain": {
        "b": {},
        "terrain": [piece("hz", "hazard", square(9, 6, 10, 10))],
        "houses": [],
    },
    "breaching": {
        "b": {"size": 4, "keywords": ["breaching"]},
        "terrain": [],
        "houses": [building("h", HOUSE)],
    },
    "collapse": {
        "b": {},
        "terrain": [],
        "houses": [building("h", HOUSE, hits=1)],
    },
}


def _suppressed_to_1_then_rolls(kind: str, ruleset: str, face: int):
    setup = SKILL_ROLLS[kind]
    sc = scenario(
        [unit("a", (2, 8))],
        [unit("b", (8, 8), skill=2, **setup["b"])],
        terrain=setup["terrain"],
        buildings=setup["houses"],
        ruleset=ruleset,
        turn_limit=2 if kind == "collapse" else 1,
    )
    blue = [Activate("a", (AttackStep("b", "Gun"),))]
    if kind == "collapse":
        blue.append(Activate("a", (AttackStep("h", "Gun"),)))
    red = ScriptedCommander([Activate("b", (MoveStep(((12, 8),)),))])
    # Turn 1: blue first; to-hit 1, 1+3 against 6+2 fails to damage and suppresses. Then b's
    # roll (terrain, breaching), or in turn 2 blue first again: 6+3 against 1+3 brings the house
    # down, and b rolls for the fall.
    faces = [6, 1, 1, 1, 6] + ([6, 1, 6, 1] if kind == "collapse" else []) + [face]
    record = run_battle(
        sc,
        dice=Dice.fixed(faces),
        commanders={"blue": ScriptedCommander(blue), "red": red},
    )
    return record, red


@pytest.mark.parametrize("kind", SKILL_ROLLS)
def test_a_unit_suppressed_to_skill_1_is_removed_under_combined_arms_before_it_rolls(kind):
    # "At Skill 1 a unit is demoralised and removed": b never gets to move, let alone roll.
    record, red = _suppressed_to_1_then_rolls(kind, "combined_arms", 1)
    b = record.final_unit("b")
    assert (b.skill, b.removed.value) == (1, "demoralised")
    assert record.result.end_reason == "side_eliminated"
    assert [(s.side, s.points) for s in of(record.events, "score")] == [("blue", b.card.size)]
    assert [r.purpose for r in of(record.events, "roll") if r.who == "b"] == ["armour"]
    assert len(red.remaining) == 1


@pytest.mark.parametrize("kind", SKILL_ROLLS)
@pytest.mark.parametrize(("face", "passed"), [(1, True), (2, False)])
def test_a_unit_suppressed_to_skill_1_fights_on_under_one_year_war_and_rolls_against_1(
    kind, face, passed
):
    # "At Skill 0 a unit is demoralised": at 1, b moves on, and every roll it makes against its
    # Skill passes on a 1 and fails on a 2, with that roll's own cost.
    record, red = _suppressed_to_1_then_rolls(kind, "one_year_war", face)
    b = record.final_unit("b")
    assert (b.skill, b.removed.value) == (1, "none")
    assert not red.remaining
    rolls = [(r.purpose, r.value, r.against, r.outcome) for r in of(record.events, "roll")]
    assert rolls[-1] == (kind, face, 1, "success" if passed else "failure")
    if kind == "terrain":
        assert b.position == ((12, 8) if passed else (8.99, 8)), "a failed roll stops at the edge"
    else:
        assert (b.position, b.hits) == ((12, 8), 2 if passed else 1)
    if kind == "collapse":
        assert record.final_building("h").collapsed


@pytest.mark.parametrize(("ruleset", "removed"), [("combined_arms", True), ("one_year_war", False)])
def test_a_ram_back_that_fails_to_damage_suppresses_the_rammer(ruleset, removed):
    # The blow back is a ram too: b's Size 2 against a's Resistance 2 fails to penetrate, and
    # Power (Size) 2 is at least Resistance 2, so a loses a Skill, 2 to 1: demoralised under
    # Combined Arms (red scores a's Size), still fighting under One Year War.
    sc = scenario(
        [unit("a", (2, 2), skill=2, size=3, resistance=2)],
        [unit("b", (2.5, 2), size=2, resistance=5)],
        ruleset=ruleset,
    )
    b = battle(sc, [1, 6, 1, 6])
    ev = act(b, "a", AttackStep("b", CLOSE_COMBAT))
    assert [(x.attack, x.outcome) for x in of(ev, "attack")] == [
        ("ram", "no_damage"),
        ("ram_back", "no_damage"),
    ]
    assert "to_hit" not in [r.purpose for r in of(ev, "roll")]
    assert [(s.unit, s.by, s.skill) for s in of(ev, "suppress")] == [("a", "b", 1)]
    assert [(r.unit, r.how) for r in of(ev, "remove")] == (
        [("a", "demoralised")] if removed else []
    )
    assert [(s.side, s.points) for s in of(ev, "score")] == ([("red", 3)] if removed else [])


@pytest.mark.parametrize(("ruleset", "removed"), [("combined_arms", True), ("one_year_war", False)])
def test_power_at_least_resistance_suppresses_under_both_rulesets_each_to_its_own_end(
    ruleset, removed
):
    # The same shot on the same dice under each text: to-hit 1, then 1 + Power against 6 + 3.
    # Power 3, at least Resistance 3, costs b (Skill 2) a Skill: at 1 it is demoralised under
    # Combined Arms (blue scores its Size 3) and fights on under One Year War. Power 2, one
    # below, costs nothing under either.
    b, ev = _shot([1, 1, 6], ruleset, power=3, skill=2, resistance=3, size=3)
    assert [(s.unit, s.by, s.skill) for s in of(ev, "suppress")] == [("b", "a", 1)]
    assert b.state.units["b"].skill == 1
    assert [(r.unit, r.how) for r in of(ev, "remove")] == (
        [("b", "demoralised")] if removed else []
    )
    assert [(s.side, s.points) for s in of(ev, "score")] == ([("blue", 3)] if removed else [])
    b, ev = _shot([1, 1, 6], ruleset, power=2, skill=2, resistance=3, size=3)
    assert [a.outcome for a in of(ev, "attack")] == ["no_damage"]
    assert not of(ev, "suppress") and not of(ev, "remove")
    assert (b.state.units["b"].skill, b.state.units["b"].active) == (2, True)


@pytest.mark.parametrize(("ruleset", "moved"), [("combined_arms", False), ("one_year_war", True)])
def test_a_rammer_the_blow_back_suppresses_to_skill_1_moves_on_only_under_one_year_war(
    ruleset, moved
):
    # a (Skill 2, Move and Fire) rams b and asks to move on. Neither blow penetrates, and b's
    # Size 2 is at least a's Resistance 2: a drops to Skill 1. Under Combined Arms it is removed
    # at once and the move never comes; under One Year War it fights on and makes it.
    a = unit("a", (2, 2), skill=2, size=3, resistance=2, keywords=["move_and_fire"])
    sc = scenario([a], [unit("b", (2.5, 2), size=2, resistance=5)], ruleset=ruleset)
    b = battle(sc, [1, 6, 1, 6])
    ev = act(b, "a", AttackStep("b", CLOSE_COMBAT), MoveStep(((2, 5),)))
    assert [(s.unit, s.skill) for s in of(ev, "suppress")] == [("a", 1)]
    assert [(r.unit, r.how) for r in of(ev, "remove")] == ([] if moved else [("a", "demoralised")])
    assert [m.unit for m in of(ev, "move")] == (["a"] if moved else [])
    assert b.state.units["a"].position == ((2, 5) if moved else (2, 2))
    assert b.state.units["a"].active is moved
