"""Invariants of the campaign rules, over any unit and any run of battles and days between them.

Quality stays between Raw and Legendary, hits never go negative, nothing heals a destroyed unit,
and the same inputs (dice included) always give the same result.
"""

from __future__ import annotations

import contextlib
import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.rules.damage import UnitOutcome, outcome_damage
from campaign.rules.dice import Dice
from campaign.rules.experience import TrainingError, experience_earn, threshold, training_apply
from campaign.rules.quick import Stance, quick_resolve
from campaign.rules.recovery import casualties_die, medical_treat, rest_day
from campaign.rules.state import CampaignUnitState, LeaderState, Status, ordered_specialties
from units.bucs import Equipment, Quality, Specialty

qualities = st.sampled_from(list(Quality))
equipment = st.sampled_from(list(Equipment))
specialties = st.sets(st.sampled_from(list(Specialty)), max_size=4).map(ordered_specialties)
leaders = st.none() | st.builds(
    LeaderState, st.just("Sgt. Kay"), st.integers(-9, 40), st.just(True)
)


@st.composite
def unit_states(draw) -> CampaignUnitState:
    quality = draw(qualities)
    needed = threshold(quality)
    return CampaignUnitState(
        name="Unit",
        quality=quality,
        equipment=draw(equipment),
        specialties=draw(specialties),
        morale_hits=draw(st.integers(0, 8)),
        casualty_hits=draw(st.integers(0, 8)),
        skill_lost=draw(st.integers(0, 4)),
        status=draw(st.sampled_from(list(Status))),
        experience=draw(st.integers(0, (needed or 50) - 1)),
        in_combat_zone=draw(st.booleans()),
        last_battle_day=draw(st.none() | st.integers(1, 3)),
        leader=draw(leaders),
    )


outcomes = st.builds(
    UnitOutcome,
    st.integers(0, 8),
    st.integers(0, 4),
    st.sampled_from(["none", "destroyed", "demoralised"]),
)
steps = st.one_of(
    st.tuples(
        st.just("battle"), outcomes, equipment, st.booleans(), st.booleans(), st.integers(1, 8)
    ),
    st.tuples(st.just("rest")),
    st.tuples(st.just("casualties")),
    st.tuples(st.just("medics"), st.integers(0, 8)),
    st.tuples(st.just("train")),
)


def run(state: CampaignUnitState, script: list[tuple], seed: int) -> list[CampaignUnitState]:
    """Every state a unit passes through under this script of battles and days."""
    rng = random.Random(seed)
    states = [state]
    for step in script:
        if step[0] == "battle" and state.status == Status.READY:
            _, outcome, enemy, restored, won, card_hits = step
            state, _ = outcome_damage(
                state,
                outcome,
                card_hits=card_hits,
                skill_restored=restored,
                opposing_equipment=enemy,
                day=1,
                d6=lambda: rng.randint(1, 6),
            )
            state, _ = experience_earn(state, won=won)
        elif step[0] == "rest":
            state = rest_day(state)
        elif step[0] == "casualties":
            state, _ = casualties_die(state)
        elif step[0] == "medics" and state.status != Status.DESTROYED:
            state = medical_treat(state, min(step[1], state.casualty_hits))
        elif step[0] == "train":
            with contextlib.suppress(TrainingError):
                state = training_apply(state)
        states.append(state)
    return states


@settings(max_examples=300)
@given(unit_states(), st.lists(steps, max_size=12), st.integers(0, 2**32))
def test_quality_stays_between_raw_and_legendary_and_hits_never_go_negative(state, script, seed):
    for reached in run(state, script, seed):
        assert Quality.RAW <= reached.quality <= Quality.LEGENDARY
        assert reached.morale_hits >= 0 and reached.casualty_hits >= 0
        assert reached.skill_lost >= 0 and reached.experience >= 0


@settings(max_examples=300)
@given(unit_states(), st.lists(steps, max_size=12), st.integers(0, 2**32))
def test_recovery_never_heals_a_destroyed_unit(state, script, seed):
    states = run(state, script, seed)
    for before, after in itertools.pairwise(states):
        if before.status == Status.DESTROYED:
            assert after == before


@settings(max_examples=200)
@given(unit_states(), st.lists(steps, max_size=12), st.integers(0, 2**32))
def test_the_same_inputs_give_the_same_result(state, script, seed):
    assert run(state, script, seed) == run(state, script, seed)


@settings(max_examples=200)
@given(unit_states(), unit_states(), st.integers(1, 10), st.integers(0, 2**32), st.booleans())
def test_a_quick_resolve_is_the_same_from_the_same_seed(attacker, defender, rounds, seed, dug_in):
    def fight():
        dice = Dice(seed)
        return quick_resolve(
            attacker.but(status=Status.READY),
            defender.but(status=Status.READY),
            defender_stance=Stance(dug_in=dug_in),
            round_limit=rounds,
            d20=dice.d20,
            d6=dice.d6,
        )

    first = fight()
    assert first == fight()
    for side in first.damage.values():
        assert side.morale_hits >= 0 and side.casualty_hits >= 0
