"""Battles entered late: a battle's time is a time so far; one entered more than 24 hours after it
was fought finds its medical window closed and its dead died at its 24th hour, against the steps the
unit had then; one entered within them leaves its Casualty hits to the medics; and its Morale hits
rest from when it is entered."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from campaign.models import HistoryEntry, Unit
from campaign.rules.damage import UnitOutcome
from campaign.rules.orders import clock_hour
from campaign.rules.recovery import casualties_found_too_late
from campaign.rules.state import Status
from campaign.services import calendar_advance, outcome_apply
from campaign.services.orders import clock_advance
from campaign.services.outcomes import battle_time, battle_time_problems, joined_later
from tests.campaign.helpers import unit_state
from units.bucs import Quality

Q = Quality


def test_a_battle_entered_more_than_24_hours_late_finds_its_medical_window_closed(
    campaign, make_unit
):
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
    assert entries[1].text.startswith("at Late report; 1 Casualty hit found too late died")


def test_the_dead_found_too_late_die_at_their_battles_24th_hour(campaign, make_unit):
    """Fought on day 1 at 12:00, entered on day 3: its dead died at day 2, 12:00, not when it
    was entered."""
    from campaign.services.outcomes import outcome_steps

    mech = make_unit("Atlas", "Mech", quality="legendary", specialties=("mechanized",))
    calendar_advance(campaign=campaign, days=2)
    campaign.refresh_from_db()
    steps = outcome_steps(
        campaign=campaign, outcomes={mech.pk: UnitOutcome(2, 0)}, day=1, hour=12,
        reason="Late report", seed=0,  # one Casualty hit, as above
    )  # fmt: skip
    assert [(s.kind, s.at) for s in steps[:2]] == [
        (HistoryEntry.Kind.BATTLE, None),  # at the battle's hour
        (HistoryEntry.Kind.CASUALTIES, clock_hour(2, 12)),
    ]


def test_a_unit_its_battles_dead_found_too_late_destroyed_is_said_to_have_fallen_there(
    campaign, make_unit
):
    """A Raw unit whose battle is entered two days late: its one Casualty hit dies as it is
    entered, and it is destroyed. Where it fell names the battle, as that entry keeps its name
    as data (`pages.destroyed.destroyed_where`); an entry saved before it kept one reads as its
    history tells it."""
    from campaign.pages.destroyed import destroyed_where

    raw = make_unit("Atlas", "Mech", quality="raw", specialties=())
    calendar_advance(campaign=campaign, days=2)
    campaign.refresh_from_db()
    entries = outcome_apply(
        campaign=campaign,
        outcomes={raw.pk: UnitOutcome(2, 0)},
        day=1,
        reason="Late report",
        seed=0,  # as above: one Casualty hit, which dies found too late
    )
    raw.refresh_from_db()
    died = entries[1]
    assert died.kind == HistoryEntry.Kind.CASUALTIES and raw.status == Status.DESTROYED
    assert died.details == {"name": "Late report"}
    assert destroyed_where([raw]) == {
        raw.pk: "at Late report, day 1, when its Casualty hits were found too late"
    }
    HistoryEntry.objects.filter(pk=died.pk).update(details={})
    assert destroyed_where([raw]) == {
        raw.pk: "on day 1: at Late report; 1 Casualty hit found too late died"
    }


def test_a_battle_entered_late_rests_its_morale_hits_from_when_it_is_entered(campaign, make_unit):
    # Chosen: the days since it was fought rested the unit as it then stood. The same battle
    # entered on time and entered two days late leaves the same Morale hits at once, and the
    # late one's heal from the next midnight, a day of R&R each.
    on_time = make_unit("On Time", "Mech", quality="legendary", specialties=("mechanized",))
    late = make_unit("Late", "Mech", quality="legendary", specialties=("mechanized",))
    fight = {"reason": "Ford", "seed": 0}
    outcome_apply(campaign=campaign, outcomes={on_time.pk: UnitOutcome(2, 0)}, **fight)
    on_time.refresh_from_db()
    taken = on_time.morale_hits
    assert taken >= 2
    calendar_advance(campaign=campaign, days=2)
    campaign.refresh_from_db()
    outcome_apply(campaign=campaign, outcomes={late.pk: UnitOutcome(2, 0)}, day=1, **fight)
    on_time.refresh_from_db()
    late.refresh_from_db()
    assert on_time.morale_hits == taken - 2  # two days of R&R
    assert late.morale_hits == taken  # none yet
    calendar_advance(campaign=campaign, days=1)
    late.refresh_from_db()
    assert late.morale_hits == taken - 1


def test_a_battle_entered_late_within_its_24_hours_leaves_its_casualty_hits_to_the_medics(
    campaign, make_unit
):
    mech = make_unit("Atlas", "Mech", quality="legendary", specialties=("mechanized",))
    calendar_advance(campaign=campaign, days=2)  # day 3, 00:00
    campaign.refresh_from_db()
    # Fought on day 2 at 10:00 (14 hours ago): the same dice as above, one Casualty hit, which
    # may still be saved until day 3, 10:00.
    outcome_apply(
        campaign=campaign, outcomes={mech.pk: UnitOutcome(2, 0)}, day=2, hour=10,
        reason="Late report", seed=0,
    )  # fmt: skip
    mech.refresh_from_db()
    assert (mech.casualty_hits, mech.quality, mech.window_from) == (1, Q.LEGENDARY, 34)
    with pytest.raises(ValidationError) as refused:  # a battle is fought on a day reached
        outcome_apply(campaign=campaign, outcomes={mech.pk: UnitOutcome(0, 0)}, day=9,
                      reason="Next week")  # fmt: skip
    assert refused.value.message_dict == {
        "day": [
            "The battle's day must be a day the campaign has reached: day 1 to day 3, not day 9."
        ]
    }
    with pytest.raises(ValidationError) as refused:  # and not after now
        outcome_apply(campaign=campaign, outcomes={mech.pk: UnitOutcome(0, 0)}, day=3, hour=5,
                      reason="Tomorrow")  # fmt: skip
    assert refused.value.message_dict == {
        "hour": [
            "The battle cannot have been fought after now (day 3, 00:00): day 3, 05:00 is still "
            "to come."
        ]
    }


def test_a_battle_entered_late_from_before_the_open_window_settles_only_its_own_casualty_hits(
    campaign, make_unit
):
    from campaign.rules.recovery import state_problems
    from campaign.selectors.roster import campaign_now

    mech = make_unit("Atlas", "Mech", quality="elite", specialties=("mechanized",))
    # Every battle below: seed 5, one Hit of the 4-Hit card lost, its d6 a 4 (one BUCS hit),
    # a 5 for the split: one Casualty hit.
    clock_advance(campaign=campaign, hours=2 * 24 + 10)  # day 3, 10:00
    outcome_apply(campaign=campaign, outcomes={mech.pk: UnitOutcome(1, 0)}, reason="Bridge",
                  seed=5)  # fmt: skip
    clock_advance(campaign=campaign, hours=1)  # day 3, 11:00: Bridge's hit has 23 hours left
    campaign.refresh_from_db()

    def atlas():
        unit = Unit.objects.get(pk=mech.pk)
        assert state_problems(unit.state, campaign_now(campaign)) == {}
        return (unit.quality, unit.casualty_hits, unit.window_from, unit.last_battle_day)

    # Fought on day 1 at 12:00, entered now: its own hit died long ago, and only that one.
    entries = outcome_apply(campaign=campaign, outcomes={mech.pk: UnitOutcome(1, 0)}, day=1,
                            hour=12, reason="Old Ford", seed=5)  # fmt: skip
    assert atlas() == (Q.EXPERIENCED, 1, clock_hour(3, 10), 3)
    assert entries[1].text.startswith("at Old Ford; 1 Casualty hit found too late died")
    # Fought today at 05:00, before Bridge, entered now: within its own 24 hours its hit awaits
    # the medics until then, and the window still runs from Bridge.
    outcome_apply(campaign=campaign, outcomes={mech.pk: UnitOutcome(1, 0)}, day=3, hour=5,
                  reason="Dawn Patrol", seed=5)  # fmt: skip
    assert atlas() == (Q.EXPERIENCED, 2, clock_hour(3, 10), 3)
    clock_advance(campaign=campaign, hours=18)  # day 4, 05:00: Dawn Patrol's 24th hour
    assert atlas() == (Q.EXPERIENCED, 2, clock_hour(3, 10), 3)
    clock_advance(campaign=campaign, hours=1)  # its hit died; Bridge's has 4 hours left
    assert atlas() == (Q.AVERAGE, 1, clock_hour(3, 10), 3)
    clock_advance(campaign=campaign, hours=4)  # day 4, 10:00: Bridge's 24th hour
    assert atlas() == (Q.AVERAGE, 1, clock_hour(3, 10), 3)
    clock_advance(campaign=campaign, hours=1)
    assert atlas() == (Q.INEXPERIENCED, 0, clock_hour(3, 10), 3)
    # Each closing names the fight whose hits died then: not Old Ford, dead already.
    first, second = (
        Unit.objects.get(pk=mech.pk)
        .history.filter(kind=HistoryEntry.Kind.CASUALTIES)
        .order_by("pk")[1:]
    )
    assert first.text.startswith(
        "at Dawn Patrol; 1 Casualty hit; medics saved 0; 1 Casualty hit not saved within 24 "
        "hours died"
    )
    assert second.text.startswith(
        "at Bridge; 1 Casualty hit; medics saved 0; 1 Casualty hit not saved within 24 hours died"
    )


def test_casualty_hits_found_too_late_die_alone_against_the_steps_before_their_battle():
    # An Average unit with 1 Casualty hit awaiting the medics; a battle entered late added 2
    # more and cost it a step to suppression there (it was Experienced before it).
    state = unit_state(casualty_hits=3, window_from=clock_hour(3, 10), window_quality_lost=1)
    settled, dead = casualties_found_too_late(state, 2, quality_lost=1)
    assert dead == 2 and settled.quality == Q.GREEN
    assert (settled.casualty_hits, settled.window_from, settled.window_quality_lost) == (
        1, clock_hour(3, 10), 0
    )  # fmt: skip
    # Five dead: more than the four steps it had before that battle.
    settled, dead = casualties_found_too_late(state.but(casualty_hits=6), 5, quality_lost=1)
    assert (dead, settled.status, settled.casualty_hits) == (5, Status.DESTROYED, 0)
    settled, _ = casualties_found_too_late(state.but(casualty_hits=5), 4, quality_lost=1)
    assert settled.status == Status.READY and settled.quality == Q.RAW


def test_a_battles_time_is_a_time_so_far_its_hour_now_today_else_midnight(campaign, make_unit):
    """A battle is fought at a time so far: day 1 to today, any hour up to now; entered for an
    earlier day without its hour it counts from 00:00 of that day, for today from now. A unit
    that joined on a later day cannot have fought on it."""
    clock_advance(campaign=campaign, hours=29)  # day 2, 05:00
    campaign.refresh_from_db()
    assert battle_time(campaign, None, None) == (2, 5)
    assert battle_time(campaign, 2, None) == (2, 5)
    assert battle_time(campaign, 1, None) == (1, 0)
    assert battle_time_problems(campaign, 2, 5) == battle_time_problems(campaign, 1, 23) == {}
    assert battle_time_problems(campaign, 0, 5) == {
        "day": [
            "The battle's day must be a day the campaign has reached: day 1 or day 2, not day 0."
        ]
    }
    assert battle_time_problems(campaign, 2, 6) == {
        "hour": [
            "The battle cannot have been fought after now (day 2, 05:00): day 2, 06:00 is still "
            "to come."
        ]
    }
    squad = make_unit()
    assert joined_later(squad, {squad.pk: 2}, 2) == ""
    assert joined_later(squad, {squad.pk: 2}, 1) == (
        "1st Squad joined the campaign on day 2: it cannot have fought on day 1"
    )
