"""Recovery between battles: R&R, rallying, the medics' 24 hours, the dead — rules and services."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from campaign.models import HistoryEntry, Unit
from campaign.rules.bridge import UnitOutcome
from campaign.rules.recovery import (
    MEDICAL_CAPACITY_BY_EQUIPMENT,
    MEDICAL_CAPACITY_BY_QUALITY,
    casualties_die,
    medical_capacity,
    medical_plan,
    medical_window_open,
    rest_day,
)
from campaign.rules.state import Status
from campaign.services import calendar_advance, medical_apply, outcome_apply, unit_edit
from tests.campaign.helpers import unit_state
from units.bucs import Equipment, Quality, Specialty

Q = Quality
MEDIC = (Specialty.INFANTRY, Specialty.MEDICAL)

# ---------------------------------------------------------------------------------------------
# R&R and rallying
# ---------------------------------------------------------------------------------------------


def test_it_heals_one_morale_hit_per_day_of_rr():
    assert rest_day(unit_state(morale_hits=3)).morale_hits == 2
    assert rest_day(unit_state(morale_hits=1)).morale_hits == 0


def test_it_keeps_the_last_morale_hit_of_a_unit_still_in_the_combat_zone():
    assert rest_day(unit_state(morale_hits=2, in_combat_zone=True)).morale_hits == 1
    assert rest_day(unit_state(morale_hits=1, in_combat_zone=True)).morale_hits == 1


def test_rr_leaves_casualty_hits_to_the_medics():
    assert rest_day(unit_state(casualty_hits=2)).casualty_hits == 2


def test_it_rallies_a_unit_retreated_in_poor_order_after_a_day_of_rr_keeping_its_hits():
    rallied = rest_day(unit_state(status=Status.RETREATED, morale_hits=2, casualty_hits=1))
    assert rallied.status == Status.READY
    assert (rallied.morale_hits, rallied.casualty_hits) == (1, 1)


def test_it_never_heals_a_destroyed_unit():
    destroyed = unit_state(status=Status.DESTROYED, morale_hits=2, casualty_hits=1)
    assert rest_day(destroyed) == destroyed
    assert casualties_die(destroyed) == (destroyed, 0)
    assert medical_capacity(destroyed.but(specialties=MEDIC)) == 0


# ---------------------------------------------------------------------------------------------
# The medical window and the dead
# ---------------------------------------------------------------------------------------------


def test_it_keeps_the_medical_window_open_on_the_battle_day_only():
    wounded = unit_state(casualty_hits=1, last_battle_day=4)
    assert medical_window_open(wounded, 4)
    assert not medical_window_open(wounded, 5)
    assert not medical_window_open(wounded.but(casualty_hits=0), 4)


def test_unsaved_casualties_die_and_lower_quality_for_good():
    state, dead = casualties_die(unit_state(quality=Q.ELITE, casualty_hits=2, morale_hits=1))
    assert dead == 2
    assert state.quality == Q.AVERAGE and state.casualty_hits == 0
    assert state.morale_hits == 1  # shock is not death
    assert state.effective_quality == Q.INEXPERIENCED  # as before, but now for good


def test_more_dead_than_quality_steps_leaves_nothing_of_the_unit():
    state, dead = casualties_die(unit_state(quality=Q.GREEN, casualty_hits=2))
    assert dead == 2 and state.status == Status.DESTROYED


def test_the_dead_cap_experience_below_the_new_threshold():
    state, _ = casualties_die(unit_state(quality=Q.AVERAGE, experience=3, casualty_hits=2))
    assert state.quality == Q.GREEN and state.experience == 1  # Green needs 2 for its next step


# ---------------------------------------------------------------------------------------------
# Medical capacity (a project choice)
# ---------------------------------------------------------------------------------------------


def test_it_chose_medical_capacity_by_quality():
    assert MEDICAL_CAPACITY_BY_QUALITY == {
        Q.RAW: 0,
        Q.GREEN: 1,
        Q.INEXPERIENCED: 1,
        Q.AVERAGE: 2,
        Q.EXPERIENCED: 2,
        Q.ELITE: 3,
        Q.LEGENDARY: 4,
    }


def test_it_chose_medical_capacity_by_equipment():
    assert MEDICAL_CAPACITY_BY_EQUIPMENT == {
        Equipment.POOR: -2,
        Equipment.BARELY_ADEQUATE: -1,
        Equipment.ADEQUATE: 0,
        Equipment.GOOD: 1,
        Equipment.EXCELLENT: 2,
    }


@pytest.mark.parametrize(
    ("quality", "equipment", "capacity"),
    [
        (Q.AVERAGE, Equipment.ADEQUATE, 2),
        (Q.ELITE, Equipment.EXCELLENT, 5),
        (Q.GREEN, Equipment.POOR, 0),  # never below nothing
        (Q.LEGENDARY, Equipment.GOOD, 5),
    ],
)
def test_a_medical_crew_saves_by_its_quality_and_equipment(quality, equipment, capacity):
    medic = unit_state(quality=quality, equipment=equipment, specialties=MEDIC)
    assert medical_capacity(medic) == capacity


def test_a_medical_crew_works_at_its_effective_quality():
    shaken = unit_state(quality=Q.ELITE, morale_hits=3, specialties=MEDIC)
    assert medical_capacity(shaken) == MEDICAL_CAPACITY_BY_QUALITY[Q.INEXPERIENCED]


def test_only_a_ready_medical_crew_saves_anyone():
    assert medical_capacity(unit_state()) == 0
    assert medical_capacity(unit_state(specialties=MEDIC, status=Status.RETREATED)) == 0


def test_the_medics_save_the_highest_quality_first():
    wounded = {
        1: unit_state(quality=Q.GREEN, casualty_hits=1),
        2: unit_state(quality=Q.ELITE, casualty_hits=2),
        3: unit_state(quality=Q.ELITE, casualty_hits=1),
    }
    plan = medical_plan(wounded, 3)
    assert [(t.unit, t.hits) for t in plan] == [(2, 2), (3, 1)]


# ---------------------------------------------------------------------------------------------
# The services
# ---------------------------------------------------------------------------------------------


@pytest.fixture
def wounded(campaign, make_unit):
    """Day 1: a Mech that fought and carries 2 Morale and 2 Casualty hits, and an Average medic
    crew."""
    mech = make_unit("Atlas", "Mech", quality="legendary", specialties=("mechanized",))
    medic = make_unit("Aid Post", specialties=("infantry", "medical"))
    outcome_apply(campaign=campaign, outcomes={mech.pk: UnitOutcome(0, 0)}, reason="Hill 12")
    unit_edit(unit=mech, changes={"morale_hits": 2, "casualty_hits": 2}, reason="Hill 12 count")
    mech.refresh_from_db()
    return mech, medic


def test_the_medics_save_casualty_hits_and_write_them_in_history(wounded, force):
    mech, _ = wounded
    entries = medical_apply(force=force, reason="field hospital")
    mech.refresh_from_db()
    assert mech.casualty_hits == 0
    assert mech.morale_hits == 2  # Morale is for R&R, not the medics
    (entry,) = entries
    assert entry.kind == HistoryEntry.Kind.MEDICAL and entry.unit == mech
    assert entry.before == {"casualty_hits": 2} and entry.after == {"casualty_hits": 0}
    assert entry.text.startswith("Medical crews saved 2 Casualty hits (field hospital)")


def test_the_medics_capacity_lasts_the_whole_day(wounded, force):
    mech, _ = wounded
    medical_apply(force=force, allocation={mech.pk: 1})
    medical_apply(force=force, allocation={mech.pk: 1})
    with pytest.raises(ValidationError, match="no Casualty hits awaiting"):
        medical_apply(force=force, allocation={mech.pk: 1})


def test_the_medics_refuse_more_than_their_capacity_and_write_nothing(wounded, force, make_unit):
    mech, _ = wounded
    before = HistoryEntry.objects.count()
    with pytest.raises(ValidationError) as refused:
        medical_apply(force=force, allocation={mech.pk: 2, 999: 1})
    assert set(refused.value.message_dict) == {"allocation.999"}
    with pytest.raises(ValidationError, match="only 2 Casualty hits"):
        medical_apply(force=force, allocation={mech.pk: 3})
    assert HistoryEntry.objects.count() == before


def test_a_force_without_medics_saves_no_one(campaign, enemy, make_unit):
    mech = make_unit("Brute", "Mech", quality="legendary", specialties=("mechanized",), into=enemy)
    outcome_apply(campaign=campaign, outcomes={mech.pk: UnitOutcome(2, 0)}, reason="Hill 12")
    with pytest.raises(ValidationError, match="no ready Medical crew"):
        medical_apply(force=enemy)


def test_advancing_the_calendar_closes_the_window_then_rests(wounded, campaign):
    mech, _ = wounded
    entries = calendar_advance(campaign=campaign, days=1)
    mech.refresh_from_db()
    campaign.refresh_from_db()
    assert campaign.day == 2
    # 4 hits: 2 Morale, 2 Casualty. The Casualty hits die (Legendary → Experienced); the mech
    # is in the combat zone, so a day of R&R heals one Morale hit and it keeps the last.
    assert mech.quality == Q.EXPERIENCED and mech.casualty_hits == 0 and mech.morale_hits == 1
    kinds = [e.kind for e in entries if e.unit_id == mech.pk]
    assert kinds == [HistoryEntry.Kind.CASUALTIES, HistoryEntry.Kind.RECOVERY]
    assert entries[0].day == 1 and entries[1].day == 2
    assert "not saved within 24 hours died" in entries[0].text


def test_advancing_several_days_rests_a_day_at_a_time(campaign, make_unit):
    unit = make_unit(quality="legendary")
    unit.morale_hits = 3
    unit.save()
    entries = calendar_advance(campaign=campaign, days=2)
    unit.refresh_from_db()
    assert unit.morale_hits == 1 and [e.day for e in entries] == [2, 3]


def test_advancing_the_calendar_rallies_the_retreated(campaign, make_unit):
    unit = make_unit()
    outcome_apply(
        campaign=campaign, outcomes={unit.pk: UnitOutcome(0, 2, "demoralised")}, reason="Ford"
    )
    # Combined Arms: Average → Green for good, and 2 Morale hits of shock: below Raw.
    assert Unit.objects.get(pk=unit.pk).status == Status.RETREATED
    calendar_advance(campaign=campaign)
    unit.refresh_from_db()
    assert unit.status == Status.READY and unit.morale_hits == 1


def test_advancing_the_calendar_leaves_the_destroyed_alone(campaign, make_unit):
    unit = make_unit()
    Unit.objects.filter(pk=unit.pk).update(status=Status.DESTROYED, morale_hits=1)
    entries = calendar_advance(campaign=campaign, days=3)
    unit.refresh_from_db()
    assert entries == [] and unit.status == Status.DESTROYED and unit.morale_hits == 1


@pytest.mark.parametrize("days", [0, -1, 366, "2", True])
def test_advancing_the_calendar_needs_a_sensible_number_of_days(campaign, days):
    with pytest.raises(ValidationError, match="days"):
        calendar_advance(campaign=campaign, days=days)


def test_a_battle_entered_for_a_past_day_finds_its_medical_window_closed(campaign, make_unit):
    mech = make_unit("Atlas", "Mech", quality="legendary", specialties=("mechanized",))
    calendar_advance(campaign=campaign, days=2)
    campaign.refresh_from_db()
    entries = outcome_apply(
        campaign=campaign,
        outcomes={mech.pk: UnitOutcome(2, 0)},
        day=1,
        reason="Late report",
        seed=0,  # blows 6 and 5 of a 4-Hit card: 4 BUCS hits, split 3, 2, 4, 3: one Casualty hit
    )
    mech.refresh_from_db()
    assert mech.casualty_hits == 0 and mech.quality == Q.ELITE
    assert [e.kind for e in entries][:2] == [HistoryEntry.Kind.BATTLE, HistoryEntry.Kind.CASUALTIES]


def test_a_unit_still_below_raw_after_rr_stays_retreated_until_it_rallies():
    # Green survives 2 hits; 3 Morale hits leave it below Raw: a day of R&R heals one, and it
    # is still broken, so it stays out of action; the next day it rallies.
    broken = unit_state(quality=Q.GREEN, status=Status.RETREATED, morale_hits=3)
    day_one = rest_day(broken)
    assert (day_one.morale_hits, day_one.status) == (2, Status.RETREATED)
    day_two = rest_day(day_one)
    assert (day_two.morale_hits, day_two.status) == (1, Status.READY)


def test_the_roster_keeps_a_unit_below_raw_retreated_and_a_rallied_unit_ready(campaign, make_unit):
    unit = make_unit(quality="green")
    unit.morale_hits, unit.status = 3, Status.RETREATED
    unit.save()
    calendar_advance(campaign=campaign)
    unit.refresh_from_db()
    assert unit.status == Status.RETREATED and unit.state.below_raw
    calendar_advance(campaign=campaign)
    unit.refresh_from_db()
    assert unit.status == Status.READY
    campaign.refresh_from_db()
    # Rallied, it fights a battle and wins without loss: it stays ready.
    outcome_apply(
        campaign=campaign, outcomes={unit.pk: UnitOutcome(0, 0)}, winners=[unit.pk], reason="Mill"
    )
    unit.refresh_from_db()
    assert unit.status == Status.READY
