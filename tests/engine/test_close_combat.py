"""Close combat at range 1: Melee with a Skill roll, or Ramming both ways without one."""

from __future__ import annotations

import pytest

from battles.engine import CLOSE_COMBAT, AttackStep, IllegalActionError

from .helpers import act, battle, building, of, piece, scenario, square, unit


@pytest.mark.parametrize(("at", "beyond"), [((3, 2), (3.002, 2)), ((2.6, 2.8), (2.601, 2.802))])
def test_close_combat_is_range_1(at, beyond):
    # Exactly 1" away, straight or slanting (0.6" by 0.8"), is contact, for Melee and a ram
    # alike; a hair further is out of range.
    for kw, first in (({"melee": 4}, "melee"), ({"size": 3}, "ram")):
        sc = scenario([unit("a", (2, 2), **kw)], [unit("b", beyond)])
        with pytest.raises(IllegalActionError, match="out of range"):
            act(battle(sc), "a", AttackStep("b", CLOSE_COMBAT))
        sc = scenario([unit("a", (2, 2), **kw)], [unit("b", at)])
        ev = act(battle(sc, [6, 1, 1, 6]), "a", AttackStep("b", CLOSE_COMBAT))
        attack = of(ev, "attack")[0]
        assert (attack.attack, attack.target, attack.distance) == (first, "b", 1)


@pytest.mark.parametrize(("at", "to"), [((9.7, 5.3), (10.3, 6.1)), ((2.6, 8.1), (3.2, 8.9))])
def test_close_combat_reaches_1_inch_between_decimal_positions(at, to):
    # 0.6" by 0.8" is 1" on the tape, though in binary these positions come to a hair over.
    sc = scenario([unit("a", at, melee=4)], [unit("b", to)])
    attack = of(act(battle(sc, [1, 6, 1]), "a", AttackStep("b", CLOSE_COMBAT)), "attack")[0]
    assert (attack.attack, attack.distance, attack.outcome) == ("melee", 1, "damage")


def test_close_combat_is_ordered_by_close_combat_whatever_the_log_calls_it():
    # The log names close combat "Melee" or "Ram"; neither is a weapon line, and the refusal
    # says how close combat is ordered.
    sc = scenario([unit("a", (2, 2), size=3)], [unit("b", (2.5, 2))])
    for name in ("Ram", "Melee"):
        with pytest.raises(IllegalActionError) as refused:
            act(battle(sc), "a", AttackStep("b", name))
        assert str(refused.value) == (
            f"a: a has no weapon {name!r} (its weapons: 'Gun'); close combat, "
            "logged as Melee or Ram, is ordered with CLOSE_COMBAT ('close_combat')"
        )
    sc = scenario([unit("a", (2, 2), weapons=[])], [unit("b", (2.5, 2))])
    with pytest.raises(IllegalActionError, match=r"no weapon 'Gun' \(it prints no weapon\)"):
        act(battle(sc), "a", AttackStep("b", "Gun"))
    ev = act(battle(sc, [6, 1, 1, 6]), "a", AttackStep("b", CLOSE_COMBAT))
    assert [a.weapon for a in of(ev, "attack")] == ["Ram", "Ram"]


def test_melee_makes_a_skill_roll_then_penetrates_with_printed_melee():
    sc = scenario([unit("a", (2, 2), melee=5)], [unit("b", (2.5, 2), resistance=3)])
    ev = act(battle(sc, [2, 3, 4]), "a", AttackStep("b", CLOSE_COMBAT))
    hit, pen, arm = of(ev, "roll")
    assert (hit.purpose, hit.against) == ("to_hit", 4)
    assert (pen.modifier, arm.modifier) == (5, 3)
    att = of(ev, "attack")[0]
    assert (att.attack, att.weapon, att.power, att.outcome) == ("melee", "Melee", 5, "damage")


def test_melee_misses_on_a_failed_skill_roll():
    sc = scenario([unit("a", (2, 2), melee=5)], [unit("b", (2.5, 2))])
    ev = act(battle(sc, [5]), "a", AttackStep("b", CLOSE_COMBAT))
    assert of(ev, "attack")[0].outcome == "miss"


def test_melee_that_fails_to_damage_suppresses():
    sc = scenario([unit("a", (2, 2), melee=3)], [unit("b", (2.5, 2), resistance=3)])
    ev = act(battle(sc, [1, 1, 6]), "a", AttackStep("b", CLOSE_COMBAT))
    assert of(ev, "suppress")[0].skill == 3


@pytest.mark.parametrize(("melee", "suppressed"), [(3, True), (2, False)])
def test_melee_suppresses_only_when_the_melee_value_is_at_least_the_resistance(melee, suppressed):
    # The printed Melee value is the attack's Power: 3 against Resistance 3 rattles the target,
    # 2 against it does not, though both hit and both fail to damage.
    sc = scenario([unit("a", (2, 2), melee=melee)], [unit("b", (2.5, 2), resistance=3)])
    b = battle(sc, [1, 1, 6])
    ev = act(b, "a", AttackStep("b", CLOSE_COMBAT))
    assert [(x.attack, x.power, x.outcome) for x in of(ev, "attack")] == [
        ("melee", melee, "no_damage")
    ]
    assert [(s.unit, s.skill) for s in of(ev, "suppress")] == ([("b", 3)] if suppressed else [])
    assert b.state.units["b"].skill == (3 if suppressed else 4)


@pytest.mark.parametrize(("size", "suppressed"), [(3, True), (2, False)])
def test_a_ram_suppresses_only_when_the_rammers_size_is_at_least_the_resistance(size, suppressed):
    # Ramming's Power is the rammer's Size: Size 3 against Resistance 3 rattles the target,
    # Size 2 does not. The blow back (Size 1 against Resistance 6) rattles nobody.
    sc = scenario(
        [unit("a", (2, 2), size=size, resistance=6)], [unit("b", (2.5, 2), size=1, resistance=3)]
    )
    b = battle(sc, [1, 6, 1, 6])
    ev = act(b, "a", AttackStep("b", CLOSE_COMBAT))
    assert [(x.attack, x.power, x.outcome) for x in of(ev, "attack")] == [
        ("ram", size, "no_damage"),
        ("ram_back", 1, "no_damage"),
    ]
    assert [(s.unit, s.skill) for s in of(ev, "suppress")] == ([("b", 3)] if suppressed else [])


@pytest.mark.parametrize("fighter", [{"melee": 4}, {"size": 3}], ids=["melee", "ram"])
def test_close_combat_obeys_cover_concealment_and_the_fixed_mount_arc(fighter):
    # Close combat is an attack like any other (E9). "Terrain that blocks sight, lying between
    # shooter and target, means the target cannot be attacked at all": a hill's crest between
    # two units 0.8" apart bars Melee and a ram as it bars a shot. A unit hidden in a wood
    # cannot be struck from outside it. A Fixed Mount "fires only forward": not behind it.
    def fight(red, *, terrain=(), **kw):
        sc = scenario(
            [unit("a", (2, 2), **fighter, **kw), unit("c", (2.8, 8))],
            [red, unit("r", (22, 22))],
            terrain=list(terrain),
            ruleset="one_year_war",
        )
        # Melee: a Skill roll of 1, then 6 against 1; a ram: 6 against 1, and a blow back of 1
        # against 6.
        b = battle(sc, [1, 6, 1] if "melee" in fighter else [6, 1, 1, 6])
        return b, act(b, "a", AttackStep("b", CLOSE_COMBAT))

    crest = piece("crest", "hill", square(2.3, 0, 2.5, 4))
    with pytest.raises(IllegalActionError, match="no line of sight to b"):
        fight(unit("b", (2.8, 2)), terrain=[crest])
    wood = piece("wood", "woods", square(2.5, 0, 4, 4))
    with pytest.raises(IllegalActionError, match="b is concealed"):
        fight(unit("b", (2.8, 2), enters=["woods"]), terrain=[wood])
    with pytest.raises(IllegalActionError, match="outside the front arc"):
        fight(unit("b", (1.2, 2)), keywords=["fixed_mount"])
    # Nothing between, nothing hidden, in front: the same blow lands. (c sees b, so b stands
    # in the open unconcealed, crest or no crest.)
    first = "melee" if "melee" in fighter else "ram"
    for kw in ({}, {"keywords": ["fixed_mount"]}):
        b, ev = fight(unit("b", (2.8, 2)), **kw)
        assert of(ev, "attack")[0].attack == first and b.state.units["b"].hits == 1


def test_without_printed_melee_close_combat_is_ramming():
    sc = scenario([unit("a", (2, 2), size=3)], [unit("b", (2.5, 2))])
    ev = act(battle(sc, [6, 1, 1, 6]), "a", AttackStep("b", CLOSE_COMBAT))
    assert [a.attack for a in of(ev, "attack")] == ["ram", "ram_back"]


def test_a_printed_melee_equal_to_its_size_is_melee_not_ramming():
    # "A unit without a printed Melee value resolves Range 1 contact as Ramming": a card that
    # prints Melee 4 at Size 4 has a value, so it makes a Skill roll, which a ram never does, and
    # strikes as Melee.
    sc = scenario([unit("a", (2, 2), melee=4, size=4)], [unit("b", (3, 2), resistance=0)])
    ev = act(battle(sc, [1, 6, 1]), "a", AttackStep("b", CLOSE_COMBAT))
    assert [r.purpose for r in of(ev, "roll")] == ["to_hit", "penetration", "armour"]
    attack = of(ev, "attack")[0]
    assert (attack.attack, attack.power, attack.outcome) == ("melee", 4, "damage")


def test_ramming_has_no_skill_roll_and_power_is_size():
    sc = scenario([unit("a", (2, 2), size=3, skill=2)], [unit("b", (2.5, 2), size=1, resistance=1)])
    ev = act(battle(sc, [6, 1, 1, 6]), "a", AttackStep("b", CLOSE_COMBAT))
    assert "to_hit" not in [r.purpose for r in of(ev, "roll")]
    ram = of(ev, "attack")[0]
    assert (ram.power, ram.outcome) == (3, "damage")


def test_ramming_is_resolved_in_both_directions():
    # a's Size 3 against b's Resistance 1, then b's Size 2 against a's Resistance 0: the blow
    # back's 3 + 2 = 5 beats a's 4 + 0 (against b's own Resistance it would only tie).
    sc = scenario(
        [unit("a", (2, 2), size=3, resistance=0)], [unit("b", (2.5, 2), size=2, resistance=1)]
    )
    b = battle(sc, [6, 1, 3, 4])
    ev = act(b, "a", AttackStep("b", CLOSE_COMBAT))
    assert [(r.who, r.purpose, r.value, r.modifier, r.against) for r in of(ev, "roll")] == [
        ("a", "penetration", 6, 3, 2),
        ("b", "armour", 1, 1, 9),
        ("b", "penetration", 3, 2, 4),
        ("a", "armour", 4, 0, 5),
    ]
    back = of(ev, "attack")[1]
    assert (back.attacker, back.target, back.power, back.outcome) == ("b", "a", 2, "damage")
    assert b.state.units["a"].hits == 1 and b.state.units["b"].hits == 1


def test_a_rammed_unit_rams_back_with_its_size_even_when_it_prints_a_melee_value():
    # The contact is resolved as Ramming, "Power = Size, resolved in both directions": b's
    # Melee 5 is not its blow back, its Size 2 is, and the blow back has no Skill roll either.
    sc = scenario([unit("a", (2, 2), size=3)], [unit("b", (2.5, 2), size=2, melee=5, skill=2)])
    ev = act(battle(sc, [6, 1, 1, 6]), "a", AttackStep("b", CLOSE_COMBAT))
    assert [(x.attacker, x.attack, x.power) for x in of(ev, "attack")] == [
        ("a", "ram", 3),
        ("b", "ram_back", 2),
    ]
    assert [r.purpose for r in of(ev, "roll")] == ["penetration", "armour"] * 2


def test_melee_is_one_way_no_blow_back():
    # Only Ramming is "resolved in both directions": Melee against a unit with no Melee value
    # of its own is one attack, and the target does not ram back.
    sc = scenario([unit("a", (2, 2), melee=5)], [unit("b", (2.5, 2), size=4)])
    b = battle(sc, [1, 1, 6])
    ev = act(b, "a", AttackStep("b", CLOSE_COMBAT))
    assert [(x.attacker, x.attack) for x in of(ev, "attack")] == [("a", "melee")]
    assert b.state.units["a"].hits == 2 and b.state.units["a"].skill == 4


def test_the_rammed_unit_strikes_back_even_if_destroyed():
    sc = scenario(
        [unit("a", (2, 2), size=3, resistance=0)],
        [unit("b", (2.5, 2), size=2, resistance=1, hits=1)],
    )
    b = battle(sc, [6, 1, 6, 1])
    act(b, "a", AttackStep("b", CLOSE_COMBAT))
    assert not b.state.units["b"].active
    assert b.state.units["a"].hits == 1


def test_a_ram_that_fails_to_damage_counts_as_a_hit_for_suppression():
    sc = scenario(
        [unit("a", (2, 2), size=3, resistance=5)], [unit("b", (2.5, 2), size=1, resistance=3)]
    )
    ev = act(battle(sc, [1, 6, 1, 6]), "a", AttackStep("b", CLOSE_COMBAT))
    sup = of(ev, "suppress")
    assert [(s.unit, s.by) for s in sup] == [("b", "a")], "Size 1 < Resistance 5: no suppression"


def test_ram_back_is_not_an_attack_of_its_own():
    sc = scenario([unit("a", (2, 2))], [unit("b", (2.5, 2))])
    b = battle(sc, [1, 6, 1, 6])
    act(b, "a", AttackStep("b", CLOSE_COMBAT))
    assert (b.state.units["a"].shots, b.state.units["b"].shots) == (1, 0)


def test_ramming_a_building_uses_size_and_gets_no_ram_back():
    sc = scenario(
        [unit("a", (2, 2), size=3)],
        [unit("b", (20, 20))],
        buildings=[building("h", square(2.5, 1, 4, 3))],
    )
    ev = act(battle(sc, [6, 1]), "a", AttackStep("h", CLOSE_COMBAT))
    assert [(a.attack, a.power) for a in of(ev, "attack")] == [("ram", 3)]
