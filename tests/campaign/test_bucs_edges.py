"""The BUCS rules at their edges, read from shared/design/bucs.md and rulings.md, not the code:
exactly at a threshold, the medics' 24th hour, the bottom and the top of the ladder."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from campaign.models import Character, Unit
from campaign.rules.bridge import unit_going_in
from campaign.rules.damage import UnitOutcome
from campaign.rules.experience import experience_earn, threshold
from campaign.rules.orders import clock_hour
from campaign.rules.recovery import CASUALTIES, REST, casualties_die, rest_day, time_passes
from campaign.rules.state import LeaderState, Status
from campaign.services import outcome_apply, unit_train
from campaign.services.characters import character_create
from campaign.services.orders import clock_advance, order_give
from tests.campaign.helpers import come_out, unit_state
from units.bucs import Equipment, Quality, Specialty

Q = Quality


# ---------------------------------------------------------------------------------------------
# The dead: "permanently reduced to its new quality"; reduced below Raw by a Casualty hit,
# "destroyed utterly"
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("quality", "dead", "left"),
    [
        (Q.RAW, 1, None),  # a Raw unit survives no hit
        (Q.GREEN, 1, Q.RAW),
        (Q.AVERAGE, 3, Q.RAW),  # exactly its steps: Raw, still a unit
        (Q.AVERAGE, 4, None),  # one more: nothing left
        (Q.LEGENDARY, 6, Q.RAW),
        (Q.LEGENDARY, 7, None),  # "a Legendary unit takes 7 hits before dispersing"
    ],
)
def test_as_many_dead_as_quality_steps_leave_a_raw_unit_and_one_more_leaves_nothing(
    quality, dead, left
):
    state, died = casualties_die(
        unit_state(quality=quality, casualty_hits=dead, status=Status.RETREATED)
    )
    assert died == dead and state.casualty_hits == 0
    if left is None:
        assert state.status == Status.DESTROYED
    else:
        assert state.status != Status.DESTROYED and state.quality == left


# ---------------------------------------------------------------------------------------------
# The medics' 24 hours, from a battle at 10:00
# ---------------------------------------------------------------------------------------------


def test_casualty_hits_live_through_their_24th_hour_and_die_the_hour_after():
    fought = clock_hour(1, 10)
    wounded = unit_state(quality=Q.ELITE, casualty_hits=2, window_from=fought, last_battle_day=1)
    # Day 2, 10:00 is the 24th hour: a midnight's rest, nobody dead yet.
    passed = time_passes(wounded, fought, fought + 24)
    assert [p.kind for p in passed] == [REST]
    assert passed[-1].state.casualty_hits == 2 and passed[-1].state.quality == Q.ELITE
    # Day 2, 11:00: they died at the 24th hour, a step each.
    (passing,) = time_passes(passed[-1].state, fought + 24, fought + 25)
    assert (passing.kind, passing.at, passing.dead) == (CASUALTIES, fought + 24, 2)
    assert passing.state.quality == Q.AVERAGE and passing.state.casualty_hits == 0


@pytest.mark.django_db
def test_a_battle_entered_at_its_24th_hour_leaves_its_hits_to_the_medics_an_hour_later_they_die(
    campaign, make_unit
):
    # Seed 5: one Hit of the 4-Hit Mech card lost, one BUCS hit, a Casualty hit.
    on_time = make_unit("Atlas", "Mech", quality="elite", specialties=("mechanized",))
    late = make_unit("Titan", "Mech", quality="elite", specialties=("mechanized",))
    clock_advance(campaign=campaign, hours=24 + 10)  # day 2, 10:00
    campaign.refresh_from_db()
    fought = {"day": 1, "hour": 10, "seed": 5}
    outcome_apply(campaign=campaign, outcomes={on_time.pk: UnitOutcome(1, 0)}, reason="Ford",
                  **fought)  # fmt: skip
    on_time.refresh_from_db()
    assert (on_time.quality, on_time.casualty_hits) == (Q.ELITE, 1)  # the medics may still come
    clock_advance(campaign=campaign, hours=1)  # day 2, 11:00
    campaign.refresh_from_db()
    on_time.refresh_from_db()
    assert (on_time.quality, on_time.casualty_hits) == (Q.EXPERIENCED, 0)
    outcome_apply(campaign=campaign, outcomes={late.pk: UnitOutcome(1, 0)}, reason="Ford",
                  **fought)  # fmt: skip
    late.refresh_from_db()
    assert (late.quality, late.casualty_hits) == (Q.EXPERIENCED, 0)  # found too late: dead


# ---------------------------------------------------------------------------------------------
# Morale: "each day of R&R restores one"; "its last Morale hit can only be healed by R&R"
# ---------------------------------------------------------------------------------------------


def test_a_raw_unit_suppressed_once_under_combined_arms_breaks_and_rallies_after_a_days_rr():
    # Raw survives no hit: its one point of Skill lost is a Morale hit that breaks it, and no
    # step is left to lose for good (the tally keeps the point).
    state, damage = come_out(unit_state(quality=Q.RAW, specialties=()), skill=1)
    assert (damage.quality_lost, state.skill_lost, state.morale_hits) == (0, 1, 1)
    assert state.status == Status.RETREATED and not state.in_combat_zone
    rested = rest_day(state)
    assert (rested.status, rested.morale_hits, rested.quality) == (Status.READY, 0, Q.RAW)


# ---------------------------------------------------------------------------------------------
# The leader: "3d6 damage per Casualty hit the unit suffers"; "immune to Morale hits"
# ---------------------------------------------------------------------------------------------


def test_the_leader_takes_no_damage_for_the_casualty_hits_armor_ignores():
    tank = unit_state(
        quality=Q.LEGENDARY,
        specialties=(Specialty.MECHANIZED, Specialty.ARMOR),
        leader=LeaderState("Lt. Ward", 8),
    )
    # A blow of 3: three BUCS hits, all Casualty; Armor ignores two, the third wounds.
    state, damage = come_out(tank, hits=1, removed="destroyed", rolls=(3, 6, 6, 6, 1, 2, 3))
    assert (damage.armor_ignored, state.casualty_hits) == (2, 1)
    assert damage.leader_rolls == (1, 2, 3) and state.leader.hit_points == 8 - 6
    # Two Casualty hits, both ignored: the unit suffers none, nor does its leader.
    state, damage = come_out(tank, hits=1, removed="destroyed", rolls=(2, 6, 6))
    assert damage.leader_rolls == () and state.leader.hit_points == 8


def test_armor_ignores_its_two_casualty_hits_on_a_card_that_needs_no_armor(
    campaign, make_unit, cards
):
    # "Armor ignores the first two Casualty hits": the specialty is the unit's, so a tank crew
    # fielded on a rifle squad's card (which it lacks Infantry for: it fights as Raw with Poor
    # kit) still ignores them. Seed 2 turns its one Hit lost into 2 Morale, 4 Casualty hits.
    cards["Rifle Squad"].specialty = Specialty.INFANTRY.value
    cards["Rifle Squad"].save()
    crew = make_unit("Tank Crew", quality="legendary", specialties=("mechanized", "armor"))
    going = unit_going_in(crew)
    assert (going.quality, going.equipment, going.covered) == (Q.RAW, Equipment.POOR, False)
    (entry, *_) = outcome_apply(
        campaign=campaign,
        outcomes={crew.pk: UnitOutcome(1, 0, "destroyed")},
        reason="Ridge",
        seed=2,
    )
    assert entry.details["damage"]["split"] == [2, 4]
    assert entry.details["damage"]["armor_ignored"] == 2
    crew.refresh_from_db()
    assert (crew.morale_hits, crew.casualty_hits) == (2, 2)
    assert "Armor ignored 2 Casualty hits" in entry.text


def test_excellent_kit_ignores_no_morale_hit_of_its_leaders_death():
    # Its enemy dealt no Morale hit; the leader's death costs its 2, and Excellent kit's
    # special is against the enemy's first Morale hit only.
    led = unit_state(
        quality=Q.LEGENDARY, equipment=Equipment.EXCELLENT, leader=LeaderState("Lt. Ward", 1)
    )
    state, damage = come_out(led, hits=1, removed="destroyed", enemy="poor",
                             rolls=(1, 6, 6, 6, 6))  # fmt: skip
    assert damage.leader_died and damage.excellent_ignored == 0
    assert (state.morale_hits, state.casualty_hits) == (2, 1)


# ---------------------------------------------------------------------------------------------
# Orders: "a unit subtracts half its quality step from it, minimum 1 hour"
# ---------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_an_orders_hours_are_reckoned_from_the_quality_its_hits_leave(campaign, make_unit):
    # Each hit degrades quality one step: an Elite unit (half its step 5: 2) with two Morale
    # hits works as Average (half of 3: 1).
    holt = character_create(campaign=campaign, name="Holt", hit_points=10)
    fresh = make_unit("Fresh", quality="elite")
    shaken = make_unit("Shaken", quality="elite")
    Unit.objects.filter(pk=shaken.pk).update(morale_hits=2)
    shaken.refresh_from_db()
    assert order_give(giver=holt, unit=fresh, kind="use_skill", listed_hours=8).hours == 6
    assert order_give(giver=holt, unit=shaken, kind="use_skill", listed_hours=8).hours == 7


# ---------------------------------------------------------------------------------------------
# Experience: "thresholds raise quality one step" (the project's table, docs/campaign.md §1.5)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("quality", [q for q in Q if q != Q.LEGENDARY])
def test_the_point_that_reaches_the_threshold_is_a_step_and_one_short_is_none(quality):
    needed = threshold(quality)
    if needed > 1:
        short, earned = experience_earn(unit_state(quality=quality, experience=needed - 2),
                                        won=False)  # fmt: skip
        assert (short.quality, short.experience, earned.raised) == (quality, needed - 1, False)
    at, earned = experience_earn(unit_state(quality=quality, experience=needed - 1), won=False)
    assert (at.quality, at.experience, earned.raised) == (quality.raised(), 0, True)


# ---------------------------------------------------------------------------------------------
# Training: "by Special Forces or Strategist characters"
# ---------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_strategist_trains_as_special_forces_do_and_a_dead_trainer_trains_nobody(
    campaign, make_unit
):
    sage = character_create(campaign=campaign, name="Col. Sage", hit_points=10,
                            feats=["strategist"])  # fmt: skip
    squad = make_unit(quality="inexperienced")
    entry = unit_train(unit=squad, character=sage)
    squad.refresh_from_db()
    assert squad.quality == Q.AVERAGE and entry.text == (
        "trained by Col. Sage; quality Inexperienced → Average"
    )
    Character.objects.filter(pk=sage.pk).update(alive=False)
    sage.refresh_from_db()
    with pytest.raises(ValidationError):
        unit_train(unit=squad, character=sage)
    squad.refresh_from_db()
    assert squad.quality == Q.AVERAGE


# ---------------------------------------------------------------------------------------------
# Specialties: a unit "may hold" as many as its quality allows; one whose quality fell keeps
# those it holds (docs/campaign.md, "Specialties are kept when quality falls")
# ---------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_unit_fallen_below_its_specialties_works_by_them_everywhere(campaign, make_unit, cards):
    """Aid Post (Average, Good kit, Infantry and Medical) loses three Casualty hits to the
    medics' 24 hours and is Raw: on its Infantry card it fights as Raw with its own kit, not
    Poor; as a Medical crew it saves by its quality and kit; an Order, an engagement and the
    step its experience earns take it as it is, Infantry and Medical still."""
    from campaign.rules.engagement import Engaged, engagement_fight
    from campaign.rules.recovery import medical_capacity
    from tests.campaign.helpers import dice

    cards["Rifle Squad"].specialty = "infantry"
    cards["Rifle Squad"].save()
    unit = make_unit("Aid Post", quality="average", equipment="good",
                     specialties=("infantry", "medical"))  # fmt: skip
    Unit.objects.filter(pk=unit.pk).update(casualty_hits=3, window_from=clock_hour(1, 0))
    clock_advance(campaign=campaign, hours=25)
    unit.refresh_from_db()
    held = (Specialty.INFANTRY, Specialty.MEDICAL)
    assert (unit.quality, unit.state.specialties, unit.status) == (Q.RAW, held, "ready")
    going = unit_going_in(unit)
    assert (going.quality, going.equipment, going.covered) == (Q.RAW, Equipment.GOOD, True)
    assert medical_capacity(unit.state) == 1  # Raw saves none; Good kit adds one
    holt = character_create(campaign=campaign, name="Holt", hit_points=10,
                            feats=["special_forces"])  # fmt: skip
    assert order_give(giver=holt, unit=unit, kind="attack").unit_id == unit.pk
    result = engagement_fight(
        {"attackers": [Engaged("A", unit.state)], "defenders": [Engaged("B", unit.state)]},
        round_limit=1, d20=dice(10, 10), d6=dice(),
    )  # fmt: skip
    pairing = next(e for e in result.events if e["event"] == "pairing")
    assert dict(pairing["attackers"]["modifiers"])["equipment: Good"] == 2
    # Training lifts no Raw unit; its next battle's experience does, and it keeps them.
    with pytest.raises(ValidationError, match="training cannot raise a Raw unit"):
        unit_train(unit=unit, character=holt)
    raised, _ = experience_earn(unit.state.but(experience=threshold(Q.RAW) - 1), won=False)
    assert (raised.quality, raised.specialties) == (Q.GREEN, held)
