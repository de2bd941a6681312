"""Recovery between battles: R&R, rallying, the medics' 24 hours, the dead — rules and services."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from battles.engine.events import Removal
from campaign.models import HistoryEntry, Unit
from campaign.pages.medics import medics_left
from campaign.rules.damage import UnitOutcome, damage_apply, outcome_damage
from campaign.rules.experience import experience_earn
from campaign.rules.orders import clock_hour
from campaign.rules.recovery import (
    CASUALTIES,
    MEDICAL_CAPACITY_BY_EQUIPMENT,
    MEDICAL_CAPACITY_BY_QUALITY,
    MEDICAL_WINDOW_HOURS,
    REST,
    Treatment,
    awaiting_until,
    casualties_die,
    casualties_found_too_late,
    crews_left,
    crews_share,
    days_to_rally,
    hits_to_survive,
    medical_capacity,
    medical_plan,
    medical_treat,
    medical_window_closes,
    medical_window_open,
    rest_day,
    time_passes,
)
from campaign.rules.state import Status, WindowFight
from campaign.rules.window import Spared, spared_text, window_settled, withdrawn_text
from campaign.selectors.entries import unit_history_explains
from campaign.services import (
    calendar_advance,
    entry_undo,
    medical_apply,
    outcome_apply,
    outcome_revert,
    quick_resolve_run,
    unit_edit,
    unit_move,
)
from campaign.services.engagements import engagement_run
from campaign.services.orders import clock_advance
from campaign.services.outcomes import battle_time, battle_time_problems, joined_later
from tests.campaign.helpers import dice, unit_state
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


def test_the_medical_window_is_open_up_to_and_including_24_hours_after_the_battle():
    # A battle on day 1 at 23:00: midnight does not close its window; 24 hours on (day 2,
    # 23:00) it is still open; an hour later it is closed.
    battle = clock_hour(1, 23)
    wounded = unit_state(casualty_hits=1, last_battle_day=1, window_from=battle)
    assert MEDICAL_WINDOW_HOURS == 24
    assert medical_window_open(wounded, battle)
    assert medical_window_open(wounded, clock_hour(2, 0))
    assert medical_window_open(wounded, clock_hour(2, 23))
    assert not medical_window_open(wounded, clock_hour(3, 0))
    assert medical_window_closes(wounded) == clock_hour(2, 23)
    assert not medical_window_open(wounded.but(casualty_hits=0), battle)


def test_a_battle_recorded_without_its_hour_opens_the_window_at_midnight():
    # Units and battles from before the campaign kept the battle's hour: their window runs from
    # 00:00 of the battle's day, as long as it always did (to that day's end), and its hour.
    old = unit_state(casualty_hits=1, last_battle_day=4)
    assert medical_window_open(old, clock_hour(4, 23))
    assert medical_window_open(old, clock_hour(5, 0))
    assert not medical_window_open(old, clock_hour(5, 1))


def _two_battles():
    """An Average unit: battle A at day 1, 00:00 left 1 Casualty hit; battle B at day 1, 20:00,
    before the medics came, 1 more."""
    first, _ = damage_apply(unit_state(), morale_hits=0, casualty_hits=1, removed=Removal.NONE,
                            day=1, hour=0, d6=dice(), fight="A")  # fmt: skip
    second, _ = damage_apply(first, morale_hits=0, casualty_hits=1, removed=Removal.NONE,
                             day=1, hour=20, d6=dice(), fight="B")  # fmt: skip
    return first, second


def test_each_battles_casualty_hits_get_their_own_24_hours_from_that_battle():
    # A's hit may be saved through day 2, 00:00 and is dead an hour later; B's, fought while
    # A's awaited the medics, through day 2, 20:00, dead at 21:00. The window still runs from
    # A, the oldest hits awaiting; a unit with none awaiting opens a new one at its next battle.
    first, second = _two_battles()
    assert first.window_from == second.window_from == clock_hour(1, 0)
    assert (second.casualty_hits, second.last_battle_day) == (2, 1)
    assert [f.at for f in second.window_fights] == [clock_hour(1, 0), clock_hour(1, 20)]
    assert awaiting_until(second) == [(clock_hour(2, 0), 1), (clock_hour(2, 20), 1)]
    assert medical_window_closes(second) == clock_hour(2, 0)

    def after(hour):
        state = second
        for passing in time_passes(second, clock_hour(1, 20), hour):
            state = passing.state
        return state.casualty_hits, state.quality

    assert after(clock_hour(2, 0)) == (2, Q.AVERAGE)  # exactly A's 24 hours: both saveable
    assert after(clock_hour(2, 1)) == (1, Q.INEXPERIENCED)  # 24 h + 1: A's dead, B's awaits
    assert after(clock_hour(2, 20)) == (1, Q.INEXPERIENCED)  # exactly B's 24 hours
    assert after(clock_hour(2, 21)) == (0, Q.GREEN)  # 24 h + 1 from B: dead
    dead = [(p.at, p.dead) for p in time_passes(second, clock_hour(1, 20), clock_hour(3, 0))
            if p.kind == CASUALTIES]  # fmt: skip
    assert dead == [(clock_hour(2, 0), 1), (clock_hour(2, 20), 1)]
    # Once A's hit has died, B's alone await: the window runs from B.
    closed, _ = casualties_die(second, clock_hour(2, 0))
    assert (closed.window_from, medical_window_closes(closed)) == (clock_hour(1, 20),
                                                                    clock_hour(2, 20))  # fmt: skip
    healed, _ = damage_apply(first.but(casualty_hits=0), morale_hits=0, casualty_hits=1,
                             removed=Removal.NONE, day=1, hour=20, d6=dice())  # fmt: skip
    assert healed.window_from == clock_hour(1, 20)


def test_the_medics_save_the_casualty_hits_closest_to_dying_first():
    # One of the two saved, on day 1, 21:00: A's, which would die first. B's awaits until
    # day 2, 20:00, and nothing dies at day 2, 01:00.
    _, second = _two_battles()
    saved = medical_treat(second, 1)
    assert awaiting_until(saved) == [(clock_hour(2, 20), 1)]
    passed = time_passes(saved, clock_hour(1, 21), clock_hour(2, 21))
    assert [(p.kind, p.at) for p in passed] == [(REST, clock_hour(2, 0)),
                                                 (CASUALTIES, clock_hour(2, 20))]  # fmt: skip
    assert (passed[-1].state.casualty_hits, passed[-1].state.quality) == (0, Q.INEXPERIENCED)


def test_a_fight_that_leaves_no_casualty_hits_awaiting_opens_no_medical_window(
    campaign, make_unit, enemy
):
    """The medics' 24 hours are for Casualty hits: a fight that deals none, to a unit with none
    awaiting, opens no window (its entry does not say "the medics' 24 hours from none → day 1,
    00:00"). Nothing is lost by it: hits of a later fight open their own 24 hours, and only
    hits awaiting the medics keep a window open for the next fight's to join."""
    unhurt, _ = damage_apply(unit_state(), morale_hits=0, casualty_hits=0, removed=Removal.NONE,
                             day=1, hour=10, d6=dice())  # fmt: skip
    shaken, _ = damage_apply(unit_state(), morale_hits=2, casualty_hits=0, removed=Removal.NONE,
                             day=1, hour=10, d6=dice())  # fmt: skip
    assert unhurt.window_from is None and shaken.window_from is None
    wounded, _ = damage_apply(shaken, morale_hits=0, casualty_hits=1, removed=Removal.NONE,
                              day=1, hour=20, d6=dice())  # fmt: skip
    assert medical_window_closes(wounded) == clock_hour(2, 20)
    # Nor does it touch what a window its hits left (all saved since) kept: only the next
    # Casualty hits open a window, afresh.
    saved = wounded.but(casualty_hits=0)
    again, _ = damage_apply(saved, morale_hits=1, casualty_hits=0, removed=Removal.NONE,
                            day=1, hour=22, d6=dice())  # fmt: skip
    window = ("window_from", "window_quality_lost", "window_quality_gained",
              "window_experience", "window_fights")  # fmt: skip
    assert [getattr(again, f) for f in window] == [getattr(saved, f) for f in window]
    assert saved.window_fights and saved.window_experience is not None
    # Through the services: a battle and an engagement, each leaving the unit no Casualty hits.
    squad = make_unit("Squad")
    outcome_apply(campaign=campaign, outcomes={squad.pk: UnitOutcome(0, 0)}, reason="Ford")
    entry = squad.history.get(kind=HistoryEntry.Kind.BATTLE)
    assert "the medics' 24 hours" not in entry.text and "window_from" not in entry.after
    blue = make_unit("Blue 1", into=enemy, quality="elite")
    engagement_run(campaign=campaign, sides={"attackers": [make_unit("Red 1")],
                   "defenders": [blue]}, seed=0, round_limit=1, name="Mill ford")  # fmt: skip
    entry = blue.history.get(kind=HistoryEntry.Kind.ENGAGEMENT)
    assert entry.text.startswith("Mill ford: came through unhurt; ")
    assert "the medics' 24 hours" not in entry.text and "window_from" not in entry.after
    for unit in (squad, blue):
        unit.refresh_from_db()
        assert unit.window_from is None and unit_history_explains(unit=unit)


def test_time_passing_rests_at_each_midnight_and_closes_the_window_after_its_24th_hour():
    # Battle at day 1, 23:00: R&R at midnight, the dead after day 2, 23:00, R&R at day 3.
    late = unit_state(
        quality=Q.ELITE, morale_hits=2, casualty_hits=1, window_from=clock_hour(1, 23)
    )
    passed = time_passes(late, clock_hour(1, 23), clock_hour(3, 0))
    assert [(p.kind, p.at) for p in passed] == [
        (REST, clock_hour(2, 0)), (CASUALTIES, clock_hour(2, 23)), (REST, clock_hour(3, 0))
    ]  # fmt: skip
    assert (passed[1].dead, passed[1].state.quality, passed[-1].state.morale_hits) == (
        1, Q.EXPERIENCED, 0
    )  # fmt: skip
    # Battle at day 1, 00:00: at midnight, its 24th hour, the window is still open: R&R first,
    # and the dead once the clock is past it.
    early = late.but(window_from=clock_hour(1, 0))
    passed = time_passes(early, clock_hour(1, 0), clock_hour(2, 0))
    assert [p.kind for p in passed] == [REST]
    passed = time_passes(early, clock_hour(1, 0), clock_hour(2, 1))
    assert [(p.kind, p.at) for p in passed] == [
        (REST, clock_hour(2, 0)),
        (CASUALTIES, clock_hour(2, 0)),
    ]


def test_unsaved_casualties_die_and_lower_quality_for_good():
    state, dead = casualties_die(unit_state(quality=Q.ELITE, casualty_hits=2, morale_hits=1))
    assert dead == 2
    assert state.quality == Q.AVERAGE and state.casualty_hits == 0
    assert state.morale_hits == 1  # shock is not death
    assert state.effective_quality == Q.INEXPERIENCED  # as before, but now for good


def test_more_dead_than_quality_steps_leaves_nothing_of_the_unit():
    state, dead = casualties_die(unit_state(quality=Q.GREEN, casualty_hits=2))
    assert dead == 2 and state.status == Status.DESTROYED


def test_a_window_that_kept_no_fights_still_counts_the_steps_suppression_took_before_its_dead():
    # An older campaign file's window keeps the steps lost to suppression (Combined Arms) but
    # not the fights: a Legendary unit suppressed 2 (now Experienced) with 6 Casualty hits had
    # 6 steps before the battle, so 6 dead leave it Raw; 7 leave nothing.
    legend = unit_state(quality=Q.EXPERIENCED, window_quality_lost=2, window_from=0)
    state, dead = casualties_die(legend.but(casualty_hits=6))
    assert (dead, state.status, state.quality) == (6, Status.READY, Q.RAW)
    state, dead = casualties_die(legend.but(casualty_hits=7))
    assert (dead, state.status) == (7, Status.DESTROYED)


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


def test_the_medics_keep_a_unit_its_dead_would_destroy_before_a_better_units_step():
    wounded = {
        1: unit_state(quality=Q.ELITE, casualty_hits=2),
        # Green with 2 dead: one step to Raw, the next below the ladder, destroyed utterly.
        2: unit_state(quality=Q.GREEN, casualty_hits=2),
        # Raw with 3 dead: 3 to save, more than the day has once unit 2 is kept.
        3: unit_state(quality=Q.RAW, casualty_hits=3),
    }
    assert [hits_to_survive(wounded[key]) for key in (1, 2, 3)] == [0, 1, 3]
    # One hit keeps unit 2 on the ladder; the rest by quality, Elite first.
    plan = medical_plan(wounded, 3)
    assert [(t.unit, t.hits) for t in plan] == [(2, 1), (1, 2)]
    assert casualties_die(medical_treat(wounded[2], 1))[0].quality == Q.RAW
    # The fewest needed first, so the most units live: with 4, Raw's 3 as well, and the
    # Elite's 2 wait; with 6, everyone's.
    plan = medical_plan(wounded, 4)
    assert [(t.unit, t.hits) for t in plan] == [(2, 1), (3, 3)]
    plan = medical_plan(wounded, 6)
    assert [(t.unit, t.hits) for t in plan] == [(2, 1), (3, 3), (1, 2)]


def test_the_medics_keep_the_units_needing_fewest_first_whatever_their_quality():
    """Whole units first, "the units needing fewest first, so the most units live", the best
    of those needing as many first (docs/campaign.md §1.4)."""
    wounded = {
        # Legendary with 8 Casualty hits: 7 dead destroy it, 6 leave it Raw: 2 to save.
        1: unit_state(quality=Q.LEGENDARY, casualty_hits=8),
        2: unit_state(quality=Q.GREEN, casualty_hits=2),
        3: unit_state(quality=Q.INEXPERIENCED, casualty_hits=3),
    }
    assert [hits_to_survive(wounded[key]) for key in (1, 2, 3)] == [2, 1, 1]
    # Two hits keep two units, not the one Legendary: the Inexperienced, then the Green.
    assert [(t.unit, t.hits) for t in medical_plan(wounded, 2)] == [(3, 1), (2, 1)]
    # One hit keeps the better of the two needing one.
    assert [(t.unit, t.hits) for t in medical_plan(wounded, 1)] == [(3, 1)]


def test_the_medics_save_no_more_casualty_hits_than_a_unit_has():
    with pytest.raises(ValueError, match="cannot save 2 of 1 Casualty hits"):
        medical_treat(unit_state(casualty_hits=1), 2)


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
    assert mech.morale_hits == 2  # the crew's 2 went to the Casualty hits, which die first
    (entry,) = entries
    assert entry.kind == HistoryEntry.Kind.MEDICAL and entry.unit == mech
    assert entry.before == {"casualty_hits": 2} and entry.after == {"casualty_hits": 0}
    assert entry.text.startswith("Medical crews saved 2 Casualty hits (field hospital)")


@pytest.fixture
def shaken(campaign, make_unit):
    """Day 1: a Legendary mech that fought (in the combat zone) with 2 Morale and 2 Casualty
    hits, an Average squad out of the combat zone with 2 Morale hits, and an Experienced crew
    with Excellent kit (it heals 2 + 2 = 4 hits a day)."""
    mech = make_unit("Atlas", "Mech", quality="legendary", specialties=("mechanized",))
    squad = make_unit("1st Squad")
    make_unit("Aid Post", quality="experienced", equipment="excellent",
              specialties=("infantry", "medical"))  # fmt: skip
    outcome_apply(campaign=campaign, outcomes={mech.pk: UnitOutcome(0, 0)}, reason="Hill 12")
    unit_edit(unit=mech, changes={"morale_hits": 2, "casualty_hits": 2}, reason="Hill 12 count")
    unit_edit(unit=squad, changes={"morale_hits": 2}, reason="shelled in reserve")
    mech.refresh_from_db()
    squad.refresh_from_db()
    assert mech.in_combat_zone and not squad.in_combat_zone
    return mech, squad


def test_the_medics_triage_heals_casualty_hits_first_then_morale_hits_never_the_last_in_zone():
    wounded = {1: unit_state(quality=Q.LEGENDARY, casualty_hits=2, morale_hits=2,
                             in_combat_zone=True)}  # fmt: skip
    shaken = {**wounded, 2: unit_state(morale_hits=2)}
    plan = medical_plan(wounded, 4, shaken)
    # 2 Casualty hits first; then Morale hits, the best unit first, but the mech (still in the
    # combat zone) keeps its last: 1 of its 2, and the last point of capacity to the squad.
    assert plan == [Treatment(1, 2, 1), Treatment(2, 0, 1)]
    assert medical_plan(wounded, 2, shaken) == [Treatment(1, 2, 0)]  # nothing left for Morale
    assert medical_treat(shaken[1], 0, 1).morale_hits == 1
    with pytest.raises(ValueError, match="1 may heal now"):
        medical_treat(shaken[1], 0, 2)


def test_the_medics_heal_morale_hits_with_what_capacity_is_left(shaken, force):
    mech, squad = shaken
    entries = medical_apply(force=force, reason="field hospital")
    mech.refresh_from_db()
    squad.refresh_from_db()
    assert (mech.casualty_hits, mech.morale_hits, squad.morale_hits) == (0, 1, 1)
    assert [(e.unit, e.text) for e in entries] == [
        (mech, "Medical crews saved 2 Casualty hits and 1 Morale hit (field hospital); "
               "Morale hits 2 → 1, Casualty hits 2 → 0"),
        (squad, "Medical crews saved 1 Morale hit (field hospital); Morale hits 2 → 1"),
    ]  # fmt: skip
    assert [(e.details["saved"], e.details["morale_saved"]) for e in entries] == [(2, 1), (0, 1)]
    # All 4 of the day are used, Casualty and Morale alike.
    with pytest.raises(ValidationError, match="can heal 0 more hits today: their day's work is"):
        medical_apply(force=force, morale={squad.pk: 1})


def test_the_medics_heal_the_morale_hits_chosen_never_a_units_last_in_the_combat_zone(
    shaken, force
):
    mech, squad = shaken
    before = HistoryEntry.objects.count()
    with pytest.raises(ValidationError) as refused:
        medical_apply(force=force, morale={mech.pk: 2, squad.pk: 3})
    assert refused.value.message_dict == {
        f"morale.{mech.pk}": [
            "only 1 Morale hit the medics may heal (its last heals only by R&R out of the "
            "combat zone)"
        ],
        f"morale.{squad.pk}": ["only 2 Morale hits the medics may heal"],
    }
    assert HistoryEntry.objects.count() == before
    # The GM's choice is what is healed, and no more: the mech's Casualty hits wait.
    (entry,) = medical_apply(force=force, morale={squad.pk: 2})
    squad.refresh_from_db()
    mech.refresh_from_db()
    assert squad.morale_hits == 0 and mech.casualty_hits == 2
    assert entry.text == "Medical crews saved 2 Morale hits; Morale hits 2 → 0"


def test_the_medics_capacity_lasts_the_whole_day(wounded, force):
    mech, _ = wounded
    medical_apply(force=force, allocation={mech.pk: 1})
    medical_apply(force=force, allocation={mech.pk: 1})
    with pytest.raises(ValidationError, match="no Casualty hits awaiting"):
        medical_apply(force=force, allocation={mech.pk: 1})


def test_medical_work_reverted_since_does_not_use_up_the_days_capacity(campaign, force, make_unit):
    make_unit("Aid Post", specialties=MEDIC)  # Average, Adequate: 2 hits a day
    squad = make_unit("1st Squad", quality="elite")
    unit_edit(unit=squad, changes={"morale_hits": 2}, reason="shelled in reserve")
    healed = medical_apply(force=force, morale={squad.pk: 2})
    assert medics_left({force.pk}) == {force.pk: 0}
    outcome_revert(entries=healed, reason="the wrong squad")
    squad.refresh_from_db()
    assert squad.morale_hits == 2 and medics_left({force.pk}) == {force.pk: 2}
    medical_apply(force=force, morale={squad.pk: 2})  # the crews never did that work
    squad.refresh_from_db()
    assert squad.morale_hits == 0 and medics_left({force.pk}) == {force.pk: 0}


def test_the_days_work_is_shared_among_the_crews_in_the_order_they_were_raised():
    # Each crew in turn gives all it has left; a crew with none is passed by.
    assert crews_share({3: 2, 1: 1, 2: 0}, 2) == {1: 1, 3: 1}
    assert crews_share({1: 1}, 3) == {1: 1}
    # A crew's work of the day counts against it, never against another crew.
    assert crews_left({1: 2, 2: 1}, {1: 3, 5: 2}) == {1: 0, 2: 1}
    # Work no entry says the crews of is taken off the force's crews in that same order.
    assert crews_left({1: 2, 2: 1}, {}, unnamed=2) == {1: 0, 2: 1}


def test_a_crew_moved_to_another_force_brings_only_what_it_has_left_today(
    wounded, force, enemy, make_unit
):
    mech, medic = wounded  # the Aid Post heals 2 a day
    (save,) = medical_apply(force=force, allocation={mech.pk: 1})
    station = make_unit("Field Station", quality="green", specialties=("medical",), into=enemy)
    reserve = make_unit("Reserve", into=enemy)
    unit_edit(unit=reserve, changes={"morale_hits": 3}, reason="shelled in reserve")
    moved = unit_move(unit=medic, force=enemy, reason="attached to Blue")
    # Blue's crews: the Field Station's 1 and the 1 the Aid Post has left of its 2.
    assert medics_left({force.pk, enemy.pk}) == {enemy.pk: 2}
    with pytest.raises(ValidationError, match="heal 2 more hits today, and 3 are chosen: choose 1"):
        medical_apply(force=enemy, morale={reserve.pk: 3})
    (healed,) = medical_apply(force=enemy, morale={reserve.pk: 2})
    # Each entry names the crews who did its work, in the order they were raised.
    assert save.details["crews"] == {str(medic.pk): 1}
    assert healed.details["crews"] == {str(medic.pk): 1, str(station.pk): 1}
    # Moved back by an Undo, the Aid Post brings its day's work back with it.
    entry_undo(entry=moved, reason="it stays with Red")
    assert medics_left({force.pk, enemy.pk}) == {force.pk: 0, enemy.pk: 0}
    with pytest.raises(ValidationError, match="can heal 0 more hits today"):
        medical_apply(force=force, allocation={mech.pk: 1})


def test_a_call_for_several_units_takes_each_crews_work_from_what_that_crew_has_left(
    wounded, force, make_unit
):
    """Two crews, two units in one call: the second unit is treated with what the crews have
    left after the first, the Aid Post's 2 spent on Atlas, the Field Station's 1 on the next."""
    mech, medic = wounded  # the Aid Post, raised first, heals 2 a day
    station = make_unit("Field Station", quality="green", specialties=("medical",))  # 1 a day
    walker = make_unit("Walker", "Mech", quality="legendary", specialties=("mechanized",))
    unit_edit(unit=walker, changes={"casualty_hits": 2}, reason="Hill 12 count")
    first, second = medical_apply(force=force, allocation={mech.pk: 2, walker.pk: 1})
    assert (first.unit, second.unit) == (mech, walker)
    assert first.details["crews"] == {str(medic.pk): 2}
    assert second.details["crews"] == {str(station.pk): 1}
    assert medics_left({force.pk}) == {force.pk: 0}


def test_a_unit_moved_out_after_the_medics_treated_it_leaves_their_day_used(
    wounded, campaign, force, enemy, make_unit
):
    mech, _ = wounded
    squad = make_unit("Reserve")
    unit_edit(unit=squad, changes={"morale_hits": 2}, reason="shelled in reserve")
    medical_apply(force=force, allocation={mech.pk: 2})
    moved = unit_move(unit=mech, force=enemy, reason="handed to Blue")
    assert medics_left({force.pk}) == {force.pk: 0}
    with pytest.raises(ValidationError, match="can heal 0 more hits today"):
        medical_apply(force=force, morale={squad.pk: 1})
    entry_undo(entry=moved, reason="it stays with Red")
    assert medics_left({force.pk}) == {force.pk: 0}
    # The next day the crew heals its whole capacity again.
    calendar_advance(campaign=campaign, days=1)
    assert medics_left({force.pk}) == {force.pk: 2}


def test_work_reverted_gives_its_crew_the_capacity_back_in_whichever_force_it_is(
    wounded, force, enemy
):
    mech, medic = wounded
    work = medical_apply(force=force, allocation={mech.pk: 2})
    unit_move(unit=medic, force=enemy, reason="attached to Blue")
    assert medics_left({force.pk, enemy.pk}) == {enemy.pk: 0}
    outcome_revert(entries=work, reason="no crew went")
    assert medics_left({force.pk, enemy.pk}) == {enemy.pk: 2}


def test_work_written_before_entries_named_their_crews_counts_by_the_unit_treated(
    wounded, force, enemy
):
    mech, _ = wounded
    (save,) = medical_apply(force=force, allocation={mech.pk: 2})
    del save.details["crews"]
    save.save()
    assert medics_left({force.pk}) == {force.pk: 0}
    unit_move(unit=mech, force=enemy, reason="handed to Blue")
    assert medics_left({force.pk}) == {force.pk: 2}


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


def test_a_closing_window_names_the_engagement_that_dealt_its_casualty_hits(
    campaign, make_unit, enemy
):
    # A quick resolve (an engagement) leaves Atlas 1 Casualty hit; a battle the same day deals
    # none. The window's entry names both, each with what it dealt, in the order fought.
    atlas = make_unit("Atlas", quality="legendary", specialties=("infantry",))
    wolf = make_unit("Iron Wolf", quality="legendary", specialties=("infantry",), into=enemy)
    quick_resolve_run(campaign=campaign, attacker=atlas, defender=wolf, seed=1, round_limit=1,
                      reason="Mill ambush")  # fmt: skip
    atlas.refresh_from_db()
    assert (atlas.status, atlas.morale_hits, atlas.casualty_hits) == (Status.READY, 1, 1)
    outcome_apply(campaign=campaign, outcomes={atlas.pk: UnitOutcome(0, 0)},
                  reason="Second Crossing")  # fmt: skip
    calendar_advance(campaign=campaign, days=2)
    died = Unit.objects.get(pk=atlas.pk).history.get(kind=HistoryEntry.Kind.CASUALTIES)
    assert died.text.startswith(
        "at Mill ambush; 1 Morale hit and 1 Casualty hit; Second Crossing: came through unhurt; "
        "medics saved 0; 1 Casualty hit not saved within 24 hours died; quality Legendary → Elite"
    )


def test_a_closing_window_tells_a_fight_that_did_nothing_by_its_entrys_data_not_its_words(
    campaign, make_unit, enemy, monkeypatch
):
    """Whether a fight did nothing to the unit is kept with its entry (``unhurt``): the closing
    window says so in today's words however the entry's sentence was worded, for a battle and
    for an engagement."""
    atlas = make_unit("Atlas", quality="legendary", specialties=("infantry",))
    wolf = make_unit("Iron Wolf", quality="legendary", specialties=("infantry",), into=enemy)
    quick_resolve_run(campaign=campaign, attacker=atlas, defender=wolf, seed=1, round_limit=1,
                      reason="Mill ambush")  # fmt: skip
    outcome_apply(campaign=campaign, outcomes={atlas.pk: UnitOutcome(0, 0)},
                  reason="Second Crossing")  # fmt: skip
    calm = make_unit("Calm", quality="legendary", specialties=("infantry",), into=enemy)
    engagement_run(campaign=campaign, sides={"attackers": [atlas], "defenders": [calm]},
                   seed=4, round_limit=1, name="Night raid")  # fmt: skip
    raid = atlas.history.filter(kind="engagement").last()
    assert raid.text.startswith("Night raid: came through unhurt")
    monkeypatch.setattr("campaign.rules.history.UNHURT", ": was untouched")
    calendar_advance(campaign=campaign, days=2)
    died = Unit.objects.get(pk=atlas.pk).history.get(kind=HistoryEntry.Kind.CASUALTIES)
    assert died.text.startswith(
        "at Mill ambush; 1 Morale hit and 1 Casualty hit; Second Crossing: was untouched; "
        "Night raid: was untouched; medics saved 0; "
    )


def test_a_closing_window_names_the_correction_that_dealt_its_hits_and_no_fight_before_it(
    campaign, make_unit
):
    # Tiger One fights twice with no Casualty hits; then a GM's correction gives it 2, which
    # open its window; a fight in that window deals none. When the window closes its entry names
    # the correction by its reason and the fight in the window, and not the fights before it.
    tiger = make_unit("Tiger One", quality="experienced", specialties=("infantry",))
    for fight in ("Battle of the Millrace", "Ford Assault"):
        outcome_apply(campaign=campaign, outcomes={tiger.pk: UnitOutcome(0, 0)}, reason=fight)
    unit_edit(unit=tiger, changes={"casualty_hits": 2}, reason="shelled at the ford")
    outcome_apply(campaign=campaign, outcomes={tiger.pk: UnitOutcome(0, 0)}, reason="Night raid")
    calendar_advance(campaign=campaign, days=2)
    died = Unit.objects.get(pk=tiger.pk).history.get(kind=HistoryEntry.Kind.CASUALTIES)
    assert died.text.startswith(
        "GM correction: shelled at the ford; 2 Casualty hits; Night raid: came through "
        "unhurt; medics saved 0; 2 Casualty hits not saved within 24 hours died; "
    )
    assert "Millrace" not in died.text and "Ford Assault" not in died.text


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


def _wounded_at_23_00(campaign, make_unit):
    """A Legendary mech with 2 Casualty hits from a battle at 23:00 on day 1, and a Medical
    crew in its force."""
    mech = make_unit("Atlas", "Mech", quality="legendary", specialties=("mechanized",))
    make_unit("Aid Post", specialties=("infantry", "medical"))
    clock_advance(campaign=campaign, hours=23)
    campaign.refresh_from_db()
    outcome_apply(campaign=campaign, outcomes={mech.pk: UnitOutcome(0, 0)}, reason="Hill 12")
    unit_edit(unit=mech, changes={"casualty_hits": 2}, reason="Hill 12 count")
    return mech


def test_the_medics_may_save_casualty_hits_24_hours_after_a_battle_at_23_00(
    campaign, force, make_unit
):
    mech = _wounded_at_23_00(campaign, make_unit)
    mech.refresh_from_db()
    assert mech.window_from == clock_hour(1, 23)
    # Past midnight and on to day 2, 23:00: 24 hours after the battle, the window still open.
    clock_advance(campaign=campaign, hours=24)
    mech.refresh_from_db()
    assert (mech.quality, mech.casualty_hits) == (Q.LEGENDARY, 2)
    (entry,) = medical_apply(force=force, reason="field hospital")
    mech.refresh_from_db()
    assert (mech.quality, mech.casualty_hits, entry.day) == (Q.LEGENDARY, 0, 2)


def test_an_hour_past_the_24_hours_the_medics_are_too_late(campaign, force, make_unit):
    mech = _wounded_at_23_00(campaign, make_unit)
    clock_advance(campaign=campaign, hours=25)  # day 3, 00:00
    mech.refresh_from_db()
    assert (mech.quality, mech.casualty_hits) == (Q.EXPERIENCED, 0)
    assert mech.history.get(kind=HistoryEntry.Kind.CASUALTIES).day == 2  # after day 2, 23:00
    assert medical_apply(force=force) == []


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


def _fought(state, *, skill: int, casualties: int, restored: bool = False, name: str = ""):
    """``state`` after a battle on a 1-Hit card that cost it ``skill`` Skill to suppression and
    left it ``casualties`` Casualty hits (the blow's d6, then a 6 for each hit's split); the
    battle kept as ``name`` (none: as a window kept before fights kept their names)."""
    after, _ = outcome_damage(
        state.but(status=Status.READY), UnitOutcome(1, skill), card_hits=1,
        skill_restored=restored, opposing_equipment=Equipment.ADEQUATE, day=1,
        d6=dice(casualties, *[6] * casualties), fight=name,
    )  # fmt: skip
    return after


SPARED = "{} no further step: {} lost to suppression in {} already counted those men"
IN_IT, IN_THEM = "the battle that dealt it", "the battle that dealt them"
IN_THEMS = "the battles that dealt them"


@pytest.mark.parametrize(
    ("quality", "skill", "casualties", "after", "said"),
    [
        # As many dead as the steps suppression took there: Raw, and no step more.
        (Q.GREEN, 1, 1, Q.RAW, ("it costs", "the step", IN_IT)),
        # Fewer.
        (Q.INEXPERIENCED, 2, 1, Q.RAW, ("it costs", "the steps", IN_IT)),
        (Q.ELITE, 5, 3, Q.RAW, ("they cost", "the steps", IN_THEM)),
        # More: two of the three cost the steps suppression left, the third none.
        (Q.AVERAGE, 1, 3, Q.RAW, ("1 of them costs", "the step", IN_IT)),
        # Steps enough for every dead hit: nothing to explain.
        (Q.AVERAGE, 1, 2, Q.RAW, None),
        # More than the steps before the battle: nothing left of it, and nothing to explain.
        (Q.GREEN, 1, 2, None, None),
    ],
)
def test_the_dead_a_step_lost_to_suppression_already_counted_are_said_to_cost_no_step(
    quality, skill, casualties, after, said
):
    wounded = _fought(unit_state(quality=quality), skill=skill, casualties=casualties)
    settled, dead = casualties_die(wounded)
    assert dead == casualties
    if after is None:
        assert settled.status == Status.DESTROYED
    else:
        assert settled.status != Status.DESTROYED and settled.quality == after
    assert withdrawn_text(wounded) == (SPARED.format(*said) if said else "")


def test_dead_a_later_battles_suppression_counted_are_said_to_cost_no_step():
    # Average; the first battle costs a step to suppression and deals 1 Casualty hit
    # (Inexperienced), the second two steps and 1 more (Raw). Measured against the steps it had
    # before each, the first's dead leave the second's suppression only one step to take, and
    # the second's dead the step it lost there: the unit stays at Raw, both dead spared.
    first = _fought(unit_state(quality=Q.AVERAGE), skill=1, casualties=1)
    wounded = _fought(first, skill=2, casualties=1)
    assert (wounded.quality, wounded.casualty_hits) == (Q.RAW, 2)
    settled, _ = casualties_die(wounded)
    assert settled.status != Status.DESTROYED and settled.quality == Q.RAW
    assert withdrawn_text(wounded) == SPARED.format("they cost", "the steps", "those battles")


def test_dead_past_raw_after_hits_found_too_late_are_each_said_to_cost_no_step():
    """BUCS: "Each hit degrades quality one step", and Casualty hits not restored "within 24
    hours are dead: the unit is permanently reduced". A fight kept with hits found too late
    beside hits still awaiting the medics (a GM may set its window so): those found too late
    died first, so the steps left after the suppression are theirs, and every awaiting hit that
    dies past Raw is one the suppression counted."""
    # Average into Crossroads, 2 steps lost to suppression (Green); 1 hit found too late took
    # the last step (Raw); the 2 still awaiting die with no step left to cost.
    crossroads = WindowFight(
        quality=Q.AVERAGE, experience=0, casualty_hits=2, skill_lost=2, found_too_late=1,
        name="Crossroads", at=10,
    )  # fmt: skip
    wounded = unit_state(
        quality=Q.RAW, casualty_hits=2, status=Status.RETREATED, last_battle_day=1,
        window_from=10, window_fights=(crossroads,),
    )  # fmt: skip
    settled = window_settled(wounded)
    assert settled.dead == 2 and settled.state.quality == Q.RAW
    assert not settled.state.destroyed
    assert settled.spared == (Spared(2, 2, fight="Crossroads"),)
    assert withdrawn_text(wounded) == (
        "they cost no further step: the steps lost to suppression at Crossroads already counted "
        "those men"
    )


def test_no_more_dead_are_said_to_cost_no_step_than_died():
    """BUCS: Casualty hits not restored "within 24 hours are dead: the unit is permanently
    reduced", each hit a step. The step up the dead withdraw may be what a later battle's
    suppression took: that battle counts the steps it took in their stead, more than the dead,
    yet no more dead than died are said to cost no step."""
    # Green, 1 point: Mill Raid, won, deals 1 Casualty hit and raises it (Inexperienced); Dawn
    # Push takes 2 steps to suppression (Raw, broken by the hit awaiting). Dead, the hit
    # withdraws Mill Raid's step and leaves Dawn Push's suppression 2 steps fewer to take.
    state = unit_state(quality=Q.GREEN, experience=1)
    for skill, casualties, won, name in ((0, 1, True, "Mill Raid"), (2, 0, False, "Dawn Push")):
        state, damage = outcome_damage(
            state.but(status=Status.READY), UnitOutcome(1, skill), card_hits=1,
            skill_restored=False, opposing_equipment=Equipment.ADEQUATE, day=1,
            d6=dice(casualties, *[6] * casualties), fight=name, won=won,
        )  # fmt: skip
        state, _ = experience_earn(state, won=won, quality_lost=damage.quality_lost > 0)
    assert (state.quality, state.casualty_hits, state.status) == (Q.RAW, 1, Status.RETREATED)
    settled = window_settled(state)
    assert settled.dead == 1 and sum(each.count for each in settled.spared) == 2
    assert withdrawn_text(state) == (
        "it costs no further step: the steps lost to suppression at Dawn Push already counted "
        "those men; the step up to Inexperienced from that battle is withdrawn, for there is no "
        "step back up in the battle that cost it quality for good"
    )


def test_the_dead_a_step_lost_to_suppression_already_counted_name_the_battles_that_took_it():
    # As above, each battle kept with its name: the step is said lost at it, by name.
    one = _fought(unit_state(quality=Q.GREEN), skill=1, casualties=1, name="Crossroads")
    assert withdrawn_text(one) == (
        "it costs no further step: the step lost to suppression at Crossroads already counted "
        "those men"
    )
    # Mill Raid's dead left Dawn Push's suppression less to take than it took: its steps
    # counted both, and it is the battle named.
    first = _fought(unit_state(quality=Q.AVERAGE), skill=1, casualties=1, name="Mill Raid")
    both = _fought(first, skill=2, casualties=1, name="Dawn Push")
    assert withdrawn_text(both) == (
        "they cost no further step: the steps lost to suppression at Dawn Push already counted "
        "those men"
    )
    # Several battles whose suppression counted dead are named in the order fought.
    battles = (Spared(1, 1, fight="Mill Raid"), Spared(1, 1, fight="Dawn Push"))
    assert spared_text(2, 2, battles) == (
        "they cost no further step: the steps lost to suppression at Mill Raid and Dawn Push "
        "already counted those men"
    )
    # One of them kept no name (hits no fight kept, a window kept before fights kept their
    # names): none is named.
    battles = (Spared(1, 1, fight="Mill Raid"), Spared(1, 1))
    assert spared_text(2, 2, battles) == SPARED.format("they cost", "the steps", IN_THEMS)


def test_under_one_year_war_no_dead_is_said_to_cost_no_step():
    # The Skill comes back: no step was lost to suppression, and each dead hit costs its own.
    wounded = _fought(unit_state(quality=Q.GREEN), skill=1, casualties=1, restored=True)
    assert (wounded.quality, wounded.window_quality_lost) == (Q.GREEN, 0)
    settled, _ = casualties_die(wounded)
    assert settled.quality == Q.RAW and withdrawn_text(wounded) == ""
    raw = _fought(unit_state(quality=Q.RAW), skill=1, casualties=1, restored=True)
    assert casualties_die(raw)[0].status == Status.DESTROYED and withdrawn_text(raw) == ""


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


# ---------------------------------------------------------------------------------------------
# Casualty hits a GM enters by hand
# ---------------------------------------------------------------------------------------------


def test_casualty_hits_a_gm_enters_on_a_unit_that_never_fought_get_24_hours_then_die(
    campaign, make_unit
):
    squad = make_unit("1st Squad", quality="average")
    clock_advance(campaign=campaign, hours=5)  # day 1, 05:00
    entry = unit_edit(unit=squad, changes={"casualty_hits": 1}, reason="ambushed off-table")
    squad.refresh_from_db()
    assert squad.window_from == clock_hour(1, 5) and squad.last_battle_day is None
    assert entry.text.startswith(
        "GM correction: ambushed off-table; its Casualty hits await the medics until day 2, "
        "05:00; Casualty hits 0 → 1"
    )
    clock_advance(campaign=campaign, hours=24)  # its 24th hour: still awaiting the medics
    squad.refresh_from_db()
    assert (squad.casualty_hits, squad.quality) == (1, Q.AVERAGE)
    clock_advance(campaign=campaign, hours=1)  # past it: dead, a step lost for good
    squad.refresh_from_db()
    assert (squad.casualty_hits, squad.quality) == (0, Q.INEXPERIENCED)
    assert squad.history.filter(kind=HistoryEntry.Kind.CASUALTIES).count() == 1


def test_casualty_hits_a_gm_enters_long_after_a_units_last_battle_get_a_fresh_24_hours(
    campaign, force, make_unit
):
    make_unit("Aid Post", quality="legendary", specialties=MEDIC)
    squad = make_unit("1st Squad", quality="elite")
    outcome_apply(campaign=campaign, outcomes={squad.pk: UnitOutcome(0, 0)}, reason="Hill 12")
    calendar_advance(campaign=campaign, days=4)  # day 5: the battle's 24 hours long over
    unit_edit(unit=squad, changes={"casualty_hits": 1}, reason="ambushed on the road")
    squad.refresh_from_db()
    assert squad.window_from == clock_hour(5, 0)
    (saved,) = medical_apply(force=force, allocation={squad.pk: 1})
    squad.refresh_from_db()
    assert (saved.details["saved"], squad.casualty_hits, squad.quality) == (1, 0, Q.ELITE)


def test_casualty_hits_a_gm_adds_while_the_window_is_open_join_that_window(campaign, make_unit):
    mech = _wounded_at_23_00(campaign, make_unit)  # 2 Casualty hits, window from day 1, 23:00
    clock_advance(campaign=campaign, hours=10)
    entry = unit_edit(unit=mech, changes={"casualty_hits": 3}, reason="a recount")
    mech.refresh_from_db()
    assert mech.window_from == clock_hour(1, 23)  # one count of hits, one window
    assert "await the medics until day 2, 23:00" in entry.text
    # The GM may still set the window by hand: the correction's own value stands.
    unit_edit(unit=mech, changes={"casualty_hits": 4, "window_from": 30}, reason="by hand")
    mech.refresh_from_db()
    assert mech.window_from == 30


def test_casualty_hits_a_gm_adds_join_the_oldest_still_awaiting_the_medics(campaign, make_unit):
    # A's and B's hits await until day 2, 00:00 and 20:00: a hit added at day 1, 22:00 dies
    # with A's; one added at day 2, 02:00, A's dead, with B's (the window now runs from B).
    mech = _fought_twice(campaign, make_unit)
    clock_advance(campaign=campaign, hours=2)
    entry = unit_edit(unit=mech, changes={"casualty_hits": 3}, reason="a recount")
    assert "await the medics until day 2, 00:00" in entry.text
    mech.refresh_from_db()
    assert awaiting_until(mech.state) == [(clock_hour(2, 0), 2), (clock_hour(2, 20), 1)]
    clock_advance(campaign=campaign, hours=4)  # day 2, 02:00
    mech.refresh_from_db()
    assert (mech.casualty_hits, mech.window_from) == (1, clock_hour(1, 20))
    died = mech.history.get(kind=HistoryEntry.Kind.CASUALTIES)
    assert died.text.startswith(
        "at A; 1 Casualty hit; GM correction: a recount; 1 "
        "Casualty hit; medics saved 0; 2 Casualty hits not saved within 24 hours died"
    )
    entry = unit_edit(unit=mech, changes={"casualty_hits": 2}, reason="a second recount")
    assert "await the medics until day 2, 20:00" in entry.text
    mech.refresh_from_db()
    assert awaiting_until(mech.state) == [(clock_hour(2, 20), 2)]


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


def test_a_closing_window_names_each_battle_as_its_entry_keeps_it(campaign, make_unit):
    """The medics' 24 hours closing name each battle whose hits they held by the name its entry
    keeps (`history.fight_named`), the one the unit's history links: whole, ": " and all, never
    read from the entry's sentence, which opens with how the unit left it ("Taken out at Ridge: the
    second day: …"); a battle's entry that kept no name (an old import's) says "the battle"."""
    atlas = make_unit("Atlas", "Mech", specialties=("mechanized",))
    titan = make_unit("Titan", "Mech", specialties=("mechanized",))
    outcome_apply(campaign=campaign, outcomes={atlas.pk: UnitOutcome(1, 0)}, reason="Raid: Dawn",
                  seed=1)  # fmt: skip
    outcome_apply(campaign=campaign, outcomes={atlas.pk: UnitOutcome(4, 0, "destroyed")},
                  reason="Ridge: the second day", seed=1)  # fmt: skip
    outcome_apply(campaign=campaign, outcomes={titan.pk: UnitOutcome(1, 0)}, reason="Ford", seed=1)
    fought = titan.history.get(kind=HistoryEntry.Kind.BATTLE)
    details = {k: v for k, v in fought.details.items() if k != "reason"}
    HistoryEntry.objects.filter(pk=fought.pk).update(details=details)
    clock_advance(campaign=campaign, hours=30)
    died = {
        entry.unit_id: entry.text
        for entry in HistoryEntry.objects.filter(kind=HistoryEntry.Kind.CASUALTIES)
    }
    assert died[atlas.pk].startswith(
        "at Raid: Dawn; 1 Casualty hit; taken out at Ridge: the second day; "
    )
    assert died[titan.pk].startswith("at the battle; 1 Casualty hit; medics saved 0; ")


def test_the_medics_refuse_a_choice_of_no_hits_and_write_nothing(wounded, force):
    """The medics heal whole hits, 1 or more a unit: a choice of none, or of 0 hits for a unit,
    is refused, saying so, and nothing is written."""
    mech, _ = wounded
    before = HistoryEntry.objects.count()
    with pytest.raises(ValidationError) as refused:
        medical_apply(force=force, allocation={})
    assert refused.value.message_dict == {"allocation": ["choose at least one hit to heal"]}
    with pytest.raises(ValidationError) as refused:
        medical_apply(force=force, allocation={mech.pk: 0})
    assert refused.value.message_dict == {
        f"allocation.{mech.pk}": ["must be a whole number of hits, 1 or more, got 0"]
    }
    assert HistoryEntry.objects.count() == before


def test_only_the_forces_owner_or_the_gm_directs_its_medics(wounded, force, cast):
    """A force's Medical crews work for its player and the GM: another player is refused, and
    nothing is written."""
    mech, _ = wounded
    before = HistoryEntry.objects.count()
    with pytest.raises(PermissionDenied, match="may direct the medics of Red Company"):
        medical_apply(force=force, actor=cast.rival)
    assert HistoryEntry.objects.count() == before
    (entry,) = medical_apply(force=force, actor=cast.player)
    assert entry.unit == mech and entry.details["saved"] == 2


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
