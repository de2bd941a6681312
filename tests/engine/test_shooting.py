"""Shooting: Skill roll, then 1d6 + Power against 1d6 + Resistance, armour wins ties."""

from __future__ import annotations

import pytest

from battles.engine import AttackStep, IllegalActionError
from battles.engine.targeting import legal_attacks

from .helpers import act, battle, of, scenario, unit


def _duel(faces, **target):
    sc = scenario([unit("a", (2, 2))], [unit("b", (8, 2), **target)])
    b = battle(sc, faces)
    return b, act(b, "a", AttackStep("b", "Gun"))


def test_skill_roll_equal_to_skill_is_a_hit():
    _b, ev = _duel([4, 1, 6])
    assert of(ev, "roll")[0].outcome == "success"
    assert of(ev, "attack")[0].outcome == "no_damage"


def test_skill_roll_over_skill_misses_and_rolls_nothing_more():
    b, ev = _duel([5])
    assert [r.purpose for r in of(ev, "roll")] == ["to_hit"]
    assert of(ev, "attack")[0].outcome == "miss"
    assert b.state.units["b"].hits == 2


def test_attacker_higher_deals_one_damage():
    b, ev = _duel([1, 4, 4])  # 4+3=7 against 4+2=6
    assert of(ev, "attack")[0].outcome == "damage"
    assert b.state.units["b"].hits == 1


def test_tie_goes_to_armour():
    b, ev = _duel([1, 3, 4])  # 3+3=6 against 4+2=6
    att = of(ev, "attack")[0]
    assert att.outcome == "no_damage"
    assert of(ev, "roll")[2].outcome == "win", "armour wins ties"
    assert b.state.units["b"].hits == 2


def test_lower_does_nothing():
    _b, ev = _duel([1, 1, 6], resistance=5)
    assert of(ev, "attack")[0].outcome == "no_damage"
    assert not of(ev, "damage") and not of(ev, "suppress")


def test_penetration_compares_die_plus_power_with_die_plus_resistance():
    _b, ev = _duel([1, 2, 1], resistance=4)  # 2+3=5 against 1+4=5: tie
    pen, arm = of(ev, "roll")[1:]
    assert (pen.value, pen.modifier, pen.against) == (2, 3, 5)
    assert (arm.value, arm.modifier, arm.against) == (1, 4, 5)


def test_one_damage_at_most_per_attack():
    _b, ev = _duel([1, 6, 1], resistance=0)
    assert [d.hits for d in of(ev, "damage")] == [1]


def test_units_at_zero_hits_are_destroyed_and_removed():
    b, ev = _duel([1, 6, 1], hits=1)
    assert of(ev, "remove")[0].how == "destroyed"
    assert not b.state.units["b"].active


def test_out_of_range_cannot_be_attacked():
    sc = scenario([unit("a", (2, 2))], [unit("b", (14.5, 2))])
    with pytest.raises(IllegalActionError, match="out of range"):
        act(battle(sc), "a", AttackStep("b", "Gun"))


@pytest.mark.parametrize("at", [(14, 2), (9.2, 11.6)])
def test_range_is_measured_centre_to_centre_and_within_is_inclusive(at):
    # The Gun's Range is 12: a target exactly 12" away, straight or slanting (7.2" by 9.6"),
    # is attacked; two thousandths of an inch further on the same line it is out of range.
    sc = scenario([unit("a", (2, 2))], [unit("b", at)])
    b = battle(sc, [6])
    # The attack search a commander chooses from offers it too.
    assert legal_attacks(b, b.state.units["a"], ["b"]) == [("b", "Gun")]
    shot = of(act(b, "a", AttackStep("b", "Gun")), "attack")[0]
    assert (shot.target, shot.distance, shot.outcome) == ("b", 12, "miss")
    dx, dy = (at[0] - 2) / 12, (at[1] - 2) / 12
    beyond = (round(at[0] + dx * 0.002, 3), round(at[1] + dy * 0.002, 3))
    sc = scenario([unit("a", (2, 2))], [unit("b", beyond)])
    with pytest.raises(IllegalActionError, match="out of range"):
        act(battle(sc), "a", AttackStep("b", "Gun"))


@pytest.mark.parametrize(
    ("at", "to", "reach"),
    [
        ((18.4, 5.8), (18.4, 11.8), 6),
        ((0.8, 12.2), (4.4, 17.0), 6),
        ((14.0, 17.9), (15.8, 20.3), 3),
    ],
)
def test_a_range_between_decimal_positions_is_measured_as_a_tape_would_measure_it(at, to, reach):
    # A tape measure reads 6" from (18.4, 5.8) to (18.4, 11.8) and 3" from (14.0, 17.9) to
    # (15.8, 20.3), though the sums in binary come to a hair over: a target exactly at the
    # weapon's Range, written in tenths of an inch, is still in range.
    sc = scenario(
        [unit("a", at, weapons=[{"name": "Gun", "power": 3, "range": reach}])], [unit("b", to)]
    )
    shot = of(act(battle(sc, [6]), "a", AttackStep("b", "Gun")), "attack")[0]
    assert (shot.target, shot.distance, shot.outcome) == ("b", reach, "miss")


@pytest.mark.parametrize("ruleset", ["combined_arms", "one_year_war"])
@pytest.mark.parametrize("skill", [2, 3, 4, 5])
def test_skill_roll_hits_on_skill_or_under_and_misses_one_over(skill, ruleset):
    # "Roll 1d6 — equal to or under Skill is a hit", for every printed Skill, in both rulesets.
    sc = scenario([unit("a", (2, 2), skill=skill)], [unit("b", (8, 2))], ruleset=ruleset)
    for face, outcome in ((1, "success"), (skill, "success"), (skill + 1, "failure")):
        ev = act(battle(sc, [face, 1, 6]), "a", AttackStep("b", "Gun"))
        roll = of(ev, "roll")[0]
        assert (roll.purpose, roll.value, roll.against, roll.outcome) == (
            "to_hit",
            face,
            skill,
            outcome,
        )
        assert of(ev, "attack")[0].outcome == ("no_damage" if outcome == "success" else "miss")


def test_own_side_and_removed_units_cannot_be_attacked():
    sc = scenario([unit("a", (2, 2)), unit("c", (4, 2))], [unit("b", (8, 2), hits=1)])
    b = battle(sc, [1, 6, 1])
    with pytest.raises(IllegalActionError, match="same side"):
        act(b, "a", AttackStep("c", "Gun"))
    act(b, "a", AttackStep("b", "Gun"))
    with pytest.raises(IllegalActionError, match="removed"):
        act(b, "c", AttackStep("b", "Gun"))


def test_a_removed_unit_cannot_activate():
    sc = scenario([unit("a", (2, 2)), unit("c", (3, 2))], [unit("b", (8, 2), hits=1)])
    b = battle(sc, [1, 6, 1])
    act(b, "a", AttackStep("b", "Gun"))
    with pytest.raises(IllegalActionError, match="removed"):
        act(b, "b")


def test_an_unknown_weapon_is_refused():
    with pytest.raises(IllegalActionError, match="no weapon"):
        act(
            battle(scenario([unit("a", (2, 2))], [unit("b", (8, 2))])),
            "a",
            AttackStep("b", "Laser"),
        )
