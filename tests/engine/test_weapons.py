"""Weapon restrictions are absolute: AA, buildings only, size ranges, limited uses."""

from __future__ import annotations

import pytest

from battles.engine import AttackStep, IllegalActionError

from .helpers import act, battle, building, of, scenario, square, unit


def _w(**kw):
    return [{"name": "W", "power": 3, "range": 12, **kw}]


def test_buildings_only_weapons_cannot_attack_units():
    sc = scenario([unit("a", (2, 2), weapons=_w(buildings_only=True))], [unit("b", (8, 2))])
    with pytest.raises(IllegalActionError, match="buildings only"):
        act(battle(sc), "a", AttackStep("b", "W"))


def test_buildings_only_weapons_attack_buildings():
    sc = scenario(
        [unit("a", (2, 2), weapons=_w(buildings_only=True))],
        [unit("b", (20, 20))],
        buildings=[building("h", square(6, 1, 8, 3))],
    )
    ev = act(battle(sc, [6, 1]), "a", AttackStep("h", "W"))
    assert of(ev, "attack")[0].outcome == "damage"


@pytest.mark.parametrize(("size", "ok"), [(1, True), (2, True), (3, False)])
def test_size_restricted_weapons(size, ok):
    sc = scenario(
        [unit("a", (2, 2), weapons=_w(min_size=1, max_size=2))], [unit("b", (8, 2), size=size)]
    )
    b = battle(sc, [1, 6, 1])
    if ok:
        shot = of(act(b, "a", AttackStep("b", "W")), "attack")[0]
        assert (shot.target, shot.outcome) == ("b", "damage")
    else:
        with pytest.raises(IllegalActionError, match="may not attack Size 3"):
            act(b, "a", AttackStep("b", "W"))


@pytest.mark.parametrize(("size", "ok"), [(3, True), (5, True), (2, False)])
def test_a_size_range_holds_at_its_lower_end_too(size, ok):
    # A weapon for Size 3-5 only: its lower end 3 may be attacked, Size 2 below it never.
    sc = scenario(
        [unit("a", (2, 2), weapons=_w(min_size=3, max_size=5))], [unit("b", (8, 2), size=size)]
    )
    b = battle(sc, [1, 6, 1])
    if ok:
        shot = of(act(b, "a", AttackStep("b", "W")), "attack")[0]
        assert (shot.target, shot.outcome) == ("b", "damage")
    else:
        with pytest.raises(IllegalActionError, match="may not attack Size 2"):
            act(b, "a", AttackStep("b", "W"))


def test_size_restricted_weapons_cannot_attack_buildings():
    sc = scenario(
        [unit("a", (2, 2), weapons=_w(max_size=5))],
        [unit("b", (20, 20))],
        buildings=[building("h", square(6, 1, 8, 3))],
    )
    with pytest.raises(IllegalActionError, match="Size"):
        act(battle(sc), "a", AttackStep("h", "W"))


def test_limited_uses_run_out():
    sc = scenario(
        [unit("a", (2, 2), weapons=_w(uses=1)), unit("c", (2, 3))], [unit("b", (8, 2), hits=5)]
    )
    b = battle(sc, [6])
    act(b, "a", AttackStep("b", "W"))
    assert b.state.units["a"].uses["W"] == 0
    from battles.engine.events import TurnStart

    b.emit(TurnStart(2))
    with pytest.raises(IllegalActionError, match="no uses left"):
        act(b, "a", AttackStep("b", "W"))


def test_a_miss_still_spends_a_use():
    sc = scenario([unit("a", (2, 2), weapons=_w(uses=2))], [unit("b", (8, 2))])
    b = battle(sc, [6])
    act(b, "a", AttackStep("b", "W"))
    assert b.state.units["a"].uses["W"] == 1


def test_weapon_power_is_a_stat_not_a_modifier():
    sc = scenario([unit("a", (2, 2), weapons=_w(power=5))], [unit("b", (8, 2), resistance=1)])
    ev = act(battle(sc, [1, 1, 5]), "a", AttackStep("b", "W"))
    pen = of(ev, "roll")[1]
    assert (pen.modifier, pen.value + pen.modifier) == (5, 6)
