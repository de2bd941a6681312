"""Dice: one seeded source per battle, fixed faces for tests, every die recorded."""

from __future__ import annotations

import pytest

from battles.engine import Dice, DiceExhaustedError, run_battle
from battles.engine.events import RollPurpose

from .helpers import scenario, unit


def test_fixed_dice_roll_the_given_faces_in_order():
    d = Dice.fixed([6, 1, 3])
    seen = []
    d.emit = seen.append
    assert d.check("u", RollPurpose.TO_HIT, 4) is False
    assert d.check("u", RollPurpose.TO_HIT, 4) is True
    assert d.remaining == [3]
    assert [r.value for r in seen] == [6, 1]


def test_fixed_dice_fail_loudly_when_they_run_out():
    d = Dice.fixed([2])
    d.check("u", RollPurpose.TO_HIT, 4)
    with pytest.raises(DiceExhaustedError):
        d.check("u", RollPurpose.TO_HIT, 4)


def test_fixed_dice_refuse_impossible_faces():
    with pytest.raises(ValueError):
        Dice.fixed([7])


def test_seeded_dice_are_reproducible_and_six_sided():
    a = Dice.seeded(42)
    b = Dice.seeded(42)
    fa = [a._draw() for _ in range(600)]
    assert fa == [b._draw() for _ in range(600)]
    assert set(fa) == {1, 2, 3, 4, 5, 6}


def test_every_die_is_recorded_as_a_roll_event():
    sc = scenario([unit("a", (2, 2), order="attack")], [unit("b", (12, 2), order="attack")])
    rec = run_battle(sc, seed=5)
    rolls = [e for e in rec.events if e.KIND == "roll"]
    d = Dice.seeded(5)
    # Replaying the same seed produces exactly the recorded faces, one draw per roll event.
    assert [r.value for r in rolls] == [d._draw() for _ in rolls]


def test_a_roll_records_who_purpose_value_against_and_outcome():
    d = Dice.fixed([3])
    seen = []
    d.emit = seen.append
    d.check("rifles", RollPurpose.TERRAIN, 2)
    r = seen[0].to_dict()
    assert r == {
        "kind": "roll",
        "who": "rifles",
        "purpose": "terrain",
        "value": 3,
        "modifier": 0,
        "against": 2,
        "outcome": "failure",
    }
