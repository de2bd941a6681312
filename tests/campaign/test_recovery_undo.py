"""Medical saves undone and battles reverted: a save undone gives back the hits it saved to their
own battle's 24 hours, for the medics while those are open, to die with them once closed; and a
revert that would give hits back in another window, to a fight that never met them, or leave a unit
where no rule could, is refused."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from battles.engine.events import Removal
from campaign.models import HistoryEntry
from campaign.rules.damage import UnitOutcome
from campaign.rules.orders import clock_hour
from campaign.rules.recovery import MEDICAL_WINDOW_HOURS, awaiting_until
from campaign.rules.state import Status
from campaign.selectors.entries import unit_history_explains
from campaign.services import medical_apply, outcome_apply, outcome_revert, unit_edit
from campaign.services.orders import clock_advance
from units.bucs import Quality

Q = Quality


def test_a_closing_window_counts_no_save_reverted_since(wounded, campaign, force):
    mech, _ = wounded  # 2 Casualty hits counted after Hill 12, day 1, 00:00; the crew saves 2 a day
    outcome_revert(entries=medical_apply(force=force, allocation={mech.pk: 1}), reason="mistake")
    medical_apply(force=force, allocation={mech.pk: 1})
    clock_advance(campaign=campaign, hours=25)
    mech.refresh_from_db()
    assert (mech.quality, mech.casualty_hits) == (Q.ELITE, 0)
    died = mech.history.get(kind=HistoryEntry.Kind.CASUALTIES)
    assert died.text.startswith(
        "GM correction: Hill 12 count; 2 Morale hits and 2 Casualty hits; medics saved 1; 1 "
        "Casualty hit not saved within 24 hours died"
    )


def _saved_at_ford(campaign, make_unit):
    """An Average Mech whose 1 Casualty hit from Ford (day 1, 00:00; seed 1: its d6 a 1, its
    split a 6) an Elite crew saves at once; the save's entry."""
    make_unit("Aid Post", quality="elite", specialties=("infantry", "medical"))
    mech = make_unit("Atlas", "Mech", specialties=("mechanized",))
    outcome_apply(campaign=campaign, outcomes={mech.pk: UnitOutcome(1, 0)}, reason="Ford", seed=1)
    (save,) = medical_apply(force=mech.force)
    mech.refresh_from_db()
    assert (mech.casualty_hits, mech.window_from) == (0, 0)
    return mech, save


def test_a_save_undone_after_its_window_closed_gives_back_hits_that_die_with_it(
    campaign, make_unit
):
    from campaign.rules.recovery import state_problems
    from campaign.selectors.entries import unit_history_explains
    from campaign.selectors.roster import campaign_now

    mech, save = _saved_at_ford(campaign, make_unit)
    clock_advance(campaign=campaign, hours=30)  # day 2, 06:00: Ford's 24 hours are long over
    reverted = outcome_revert(entries=[save], reason="the medics never came")
    # Not saved within 24 hours, the hit died: at once, as the clock would have had it die.
    mech.refresh_from_db()
    assert (mech.quality, mech.casualty_hits, mech.experience) == (Q.INEXPERIENCED, 0, 1)
    campaign.refresh_from_db()
    assert state_problems(mech.state, campaign_now(campaign)) == {}
    died = reverted[-1]
    assert (died.kind, died.day) == (HistoryEntry.Kind.CASUALTIES, 2)
    assert died.text.startswith(
        "at Ford; 1 Casualty hit; medics saved 0; 1 Casualty hit not saved within 24 hours "
        "died (given back by a revert after their medical window closed at day 2, 00:00); "
        "quality Average → Inexperienced"
    )
    assert unit_history_explains(unit=mech)
    # Nothing is left that every later correction would be refused for.
    assert unit_edit(unit=mech, changes={"equipment": "good"}, reason="new rifles")


def _fought_twice(campaign, make_unit):
    """An Average Mech with an Elite Medical crew beside it: battle A at day 1, 00:00 leaves it
    1 Casualty hit, battle B at day 1, 20:00 another (seed 1: a d6 of 1, a split of 6)."""
    make_unit("Aid Post", quality="elite", specialties=("infantry", "medical"))
    mech = make_unit("Atlas", "Mech", specialties=("mechanized",))
    outcome_apply(campaign=campaign, outcomes={mech.pk: UnitOutcome(1, 0)}, reason="A", seed=1)
    clock_advance(campaign=campaign, hours=20)
    outcome_apply(campaign=campaign, outcomes={mech.pk: UnitOutcome(1, 0)}, reason="B", seed=1)
    mech.refresh_from_db()
    assert (mech.casualty_hits, mech.quality) == (2, Q.AVERAGE)
    return mech


def test_each_battles_casualty_hits_die_as_their_own_24_hours_end_each_told_apart(
    campaign, make_unit
):
    mech = _fought_twice(campaign, make_unit)
    for hours, left in ((4, 2), (1, 1), (19, 1), (1, 0)):  # day 2, 00:00; 01:00; 20:00; 21:00
        clock_advance(campaign=campaign, hours=hours)
        mech.refresh_from_db()
        assert mech.casualty_hits == left
    first, second = mech.history.filter(kind=HistoryEntry.Kind.CASUALTIES).order_by("pk")
    assert (first.day, second.day) == (2, 2)
    assert first.text.startswith(
        "at A; 1 Casualty hit; medics saved 0; 1 Casualty hit not saved within 24 hours died"
    )
    assert second.text.startswith(
        "at B; 1 Casualty hit; medics saved 0; 1 Casualty hit not saved within 24 hours died"
    )
    assert mech.quality == Q.GREEN and unit_history_explains(unit=mech)


def test_a_save_undone_gives_back_the_hit_closest_to_dying_in_its_own_24_hours(campaign, make_unit):
    from campaign.rules.recovery import state_problems
    from campaign.selectors.roster import campaign_now
    from campaign.services import entry_undo

    mech = _fought_twice(campaign, make_unit)
    clock_advance(campaign=campaign, hours=1)  # day 1, 21:00
    (save,) = medical_apply(force=mech.force, allocation={mech.pk: 1})
    mech.refresh_from_db()
    assert awaiting_until(mech.state) == [(clock_hour(2, 20), 1)]  # A's was saved
    # Undone within A's 24 hours: A's hit awaits the medics again, until day 2, 00:00.
    entry_undo(entry=save, reason="wrong unit")
    mech.refresh_from_db()
    assert awaiting_until(mech.state) == [(clock_hour(2, 0), 1), (clock_hour(2, 20), 1)]
    # Saved again, then undone after A's 24 hours: A's hit is dead at once, B's keeps its own.
    (save,) = medical_apply(force=mech.force, allocation={mech.pk: 1})
    clock_advance(campaign=campaign, hours=6)  # day 2, 03:00
    undone = entry_undo(entry=save, reason="the medics never came")
    mech.refresh_from_db()
    assert (mech.casualty_hits, mech.quality) == (1, Q.INEXPERIENCED)
    assert awaiting_until(mech.state) == [(clock_hour(2, 20), 1)]
    died = mech.history.filter(kind=HistoryEntry.Kind.CASUALTIES).get()
    assert died.pk > undone.pk and died.day == 2
    assert died.text.startswith(
        "at A; 1 Casualty hit; medics saved 0; 1 Casualty hit not saved within 24 hours "
        "died (given back by a revert after their medical window closed at day 2, 00:00)"
    )
    campaign.refresh_from_db()
    assert state_problems(mech.state, campaign_now(campaign)) == {}
    clock_advance(campaign=campaign, hours=18)  # day 2, 21:00: B's hit is dead too
    mech.refresh_from_db()
    assert (mech.casualty_hits, mech.quality) == (0, Q.GREEN)
    assert unit_history_explains(unit=mech)


def test_reverting_the_later_battle_leaves_the_earlier_ones_hits_their_own_24_hours(
    campaign, make_unit
):
    mech = _fought_twice(campaign, make_unit)
    fought = list(mech.history.filter(kind=HistoryEntry.Kind.BATTLE).order_by("pk"))[-1:]
    outcome_revert(entries=fought + list(mech.history.filter(pk__gt=fought[0].pk)),
                   reason="B was not fought")  # fmt: skip
    mech.refresh_from_db()
    assert awaiting_until(mech.state) == [(clock_hour(2, 0), 1)]
    assert [f.name for f in mech.state.window_fights] == ["A"]


def test_a_save_undone_within_its_window_gives_back_hits_for_the_medics(campaign, make_unit):
    mech, save = _saved_at_ford(campaign, make_unit)
    clock_advance(campaign=campaign, hours=10)
    (reverted,) = outcome_revert(entries=[save], reason="wrong unit")
    mech.refresh_from_db()
    assert (mech.quality, mech.casualty_hits, mech.window_from) == (Q.AVERAGE, 1, 0)
    assert reverted.kind == HistoryEntry.Kind.REVERT


@pytest.mark.parametrize(
    ("hours", "left"), [(MEDICAL_WINDOW_HOURS, 1), (MEDICAL_WINDOW_HOURS + 1, 0)]
)
def test_a_save_undone_at_its_windows_last_hour_gives_back_hits_the_hour_after_they_die(
    campaign, make_unit, hours, left
):
    from campaign.services.reverts import revert_plan

    mech, save = _saved_at_ford(campaign, make_unit)  # Ford: day 1, 00:00
    clock_advance(campaign=campaign, hours=hours)
    closing = {} if left else {mech.pk: hours}  # the units whose hits given back die at once
    assert revert_plan(entries=[save]).closing == closing
    reverted = outcome_revert(entries=[save], reason="the medics never came")
    mech.refresh_from_db()
    # Day 2, 00:00 is Ford's 24th hour: the medics may still save the hit; an hour later, dead.
    assert (mech.casualty_hits, mech.quality) == (left, Q.AVERAGE if left else Q.INEXPERIENCED)
    assert [e.kind for e in reverted][1:] == ([] if left else [HistoryEntry.Kind.CASUALTIES])


def test_a_save_undone_at_the_later_battles_last_hour_gives_back_its_hit_for_the_medics(
    campaign, make_unit
):
    mech = _fought_twice(campaign, make_unit)  # A at day 1, 00:00; B at day 1, 20:00
    clock_advance(campaign=campaign, hours=1)  # day 1, 21:00
    (save,) = medical_apply(force=mech.force, allocation={mech.pk: 2})
    clock_advance(campaign=campaign, hours=23)  # day 2, 20:00: B's 24th hour, A's long over
    outcome_revert(entries=[save], reason="the medics never came")
    mech.refresh_from_db()
    assert (mech.casualty_hits, mech.quality) == (1, Q.INEXPERIENCED)  # A's dead, B's awaits
    assert awaiting_until(mech.state) == [(clock_hour(2, 20), 1)]


def test_a_revert_that_would_give_hits_back_in_another_window_is_refused(campaign, make_unit):
    mech, save = _saved_at_ford(campaign, make_unit)
    clock_advance(campaign=campaign, hours=10)
    # Another fight, with no Casualty hits awaiting the medics: it was fought without them.
    outcome_apply(campaign=campaign, outcomes={mech.pk: UnitOutcome(0, 0)}, reason="Mill")
    written = HistoryEntry.objects.count()
    with pytest.raises(ValidationError) as refused:
        outcome_revert(entries=[save], reason="the medics never came")
    assert refused.value.message_dict == {
        f"entries.{save.pk}": [
            "Atlas' Casualty hits would come back in another medical window than theirs (a "
            "fight since, or a correction that opened a new one): undo that first"
        ]
    }
    assert HistoryEntry.objects.count() == written


def test_a_revert_that_would_give_back_hits_a_fight_since_never_met_is_refused(campaign, make_unit):
    """All the hits a correction entered saved, the unit fought again unhurt: that fight opened
    no window, yet it was fought without them, and a window given them back would leave it out
    of their fights. Undo the fight first, as after one that opened a window."""
    make_unit("Aid Post", quality="elite", specialties=("infantry", "medical"))
    mech = make_unit("Atlas", "Mech", specialties=("mechanized",))
    unit_edit(unit=mech, changes={"casualty_hits": 1}, reason="ambushed off-table")
    (save,) = medical_apply(force=mech.force)
    clock_advance(campaign=campaign, hours=2)
    outcome_apply(campaign=campaign, outcomes={mech.pk: UnitOutcome(0, 0)}, reason="Mill")
    mech.refresh_from_db()
    assert (mech.casualty_hits, mech.window_from) == (0, 0)
    with pytest.raises(ValidationError) as refused:
        outcome_revert(entries=[save], reason="the medics never came")
    assert "would come back in another medical window" in str(refused.value)


def test_a_revert_that_would_leave_a_unit_where_no_rule_could_is_refused(campaign, make_unit):
    from campaign.services import unit_combat_zone_set

    squad = make_unit("1st Squad")
    unit_combat_zone_set(unit=squad, in_combat_zone=True, reason="forward")
    withdrawn = unit_combat_zone_set(unit=squad, in_combat_zone=False, reason="to the rear")
    taken_out = UnitOutcome(1, 0, Removal.DESTROYED)
    outcome_apply(campaign=campaign, outcomes={squad.pk: taken_out}, reason="Ford", seed=1)
    squad.refresh_from_db()
    assert (squad.status, squad.in_combat_zone) == (Status.RETREATED, False)
    # Undoing the withdrawal would put a broken unit back in the combat zone.
    written = HistoryEntry.objects.count()
    with pytest.raises(ValidationError) as refused:
        outcome_revert(entries=[withdrawn], reason="never withdrawn")
    assert HistoryEntry.objects.count() == written
    assert refused.value.message_dict == {
        f"entries.{withdrawn.pk}": [
            "1st Squad retreated in poor order: it has left the combat zone, and goes back in "
            "once it has rallied; Casualty hits the medics do not save within their 24 hours "
            "die, each a step lost for good: none saved, it is reduced to Inexperienced"
        ]
    }
