"""R&R and rallying between battles: a day's rest heals a Morale hit, never a unit's last in the
combat zone nor a Casualty hit; a unit retreated in poor order rallies after a day of it, and one
still below Raw stays retreated until it does; advancing the calendar rests a day at a time and
rallies the retreated, leaving the destroyed alone; and the days to rally are the days the calendar
takes."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from campaign.models import HistoryEntry, Unit
from campaign.rules.damage import UnitOutcome
from campaign.rules.orders import clock_hour
from campaign.rules.recovery import (
    REST,
    casualties_die,
    days_to_rally,
    medical_capacity,
    rest_day,
    time_passes,
)
from campaign.rules.state import Status
from campaign.services import calendar_advance, outcome_apply
from campaign.services.orders import clock_advance
from tests.campaign.helpers import unit_state
from tests.campaign.test_recovery_medics import MEDIC
from units.bucs import Quality

Q = Quality


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


def test_advancing_the_calendar_rests_then_closes_the_window_after_its_24th_hour(wounded, campaign):
    mech, _ = wounded
    # The battle was on day 1 at 00:00; a day later is its 24th hour: the window is still open.
    entries = calendar_advance(campaign=campaign, days=1)
    mech.refresh_from_db()
    campaign.refresh_from_db()
    assert (campaign.day, campaign.hour) == (2, 0)
    # 4 hits: 2 Morale, 2 Casualty. The mech is in the combat zone, so a day of R&R heals one
    # Morale hit and it keeps the last; its Casualty hits still await the medics.
    assert mech.quality == Q.LEGENDARY and (mech.morale_hits, mech.casualty_hits) == (1, 2)
    assert [e.kind for e in entries if e.unit_id == mech.pk] == [HistoryEntry.Kind.RECOVERY]
    # An hour later the window is closed: they die (Legendary → Experienced).
    clock_advance(campaign=campaign, hours=1)
    mech.refresh_from_db()
    assert mech.quality == Q.EXPERIENCED and mech.casualty_hits == 0
    died = mech.history.get(kind=HistoryEntry.Kind.CASUALTIES)
    assert died.day == 2
    assert died.text.startswith(
        "GM correction: Hill 12 count; 2 Morale hits and 2 Casualty hits; medics saved 0; 2 "
        "Casualty hits not saved within 24 hours died; quality Legendary → Experienced, "
        "Casualty hits 2 → 0"
    )


def test_advancing_several_days_rests_a_day_at_a_time(campaign, make_unit):
    unit = make_unit(quality="legendary")
    unit.morale_hits = 3
    unit.save()
    entries = calendar_advance(campaign=campaign, days=2)
    unit.refresh_from_db()
    assert unit.morale_hits == 1 and [e.day for e in entries] == [2, 3]


def test_advancing_the_calendar_rallies_the_retreated(campaign, make_unit):
    unit = make_unit(quality="experienced")  # with no Order, Skill 3 on its card
    outcome_apply(
        campaign=campaign, outcomes={unit.pk: UnitOutcome(0, 2, "demoralised")}, reason="Ford"
    )
    # Combined Arms: Experienced → Inexperienced for good, and 2 Morale hits of shock.
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


@pytest.mark.parametrize(
    "state",
    [
        unit_state(status=Status.RETREATED, quality=Q.GREEN, morale_hits=1),
        unit_state(status=Status.RETREATED, quality=Q.GREEN, morale_hits=4),
        unit_state(status=Status.RETREATED, quality=Q.RAW, morale_hits=1, in_combat_zone=True),
        unit_state(
            status=Status.RETREATED,
            quality=Q.AVERAGE,
            morale_hits=3,
            casualty_hits=2,
            last_battle_day=1,
        ),
        unit_state(
            status=Status.RETREATED,
            quality=Q.GREEN,
            morale_hits=1,
            casualty_hits=3,
            last_battle_day=1,
        ),
    ],
)
def test_the_days_to_rally_are_the_days_the_calendar_takes(state):
    now = clock_hour(1, 5)
    days = days_to_rally(state, now)
    # What the clock does, day by day: the first midnight the unit stands ready again.
    passed = [p for p in time_passes(state, now, now + 10 * 24) if p.kind == REST]
    ready = next((i + 1 for i, p in enumerate(passed) if p.state.status == Status.READY), None)
    assert days == ready
