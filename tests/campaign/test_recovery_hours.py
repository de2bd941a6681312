"""The medics' 24 hours and the dead: each battle's Casualty hits wait 24 hours from that battle,
the window a GM's hand-entered hits open or join, what a closing window names, the unsaved dying and
lowering quality for good, and the dead a step lost to suppression already counted said to cost no
further step."""

from __future__ import annotations

import pytest

from battles.engine.events import Removal
from campaign.models import HistoryEntry, Unit
from campaign.rules.damage import UnitOutcome, damage_apply, outcome_damage
from campaign.rules.experience import experience_earn
from campaign.rules.orders import clock_hour
from campaign.rules.recovery import (
    CASUALTIES,
    MEDICAL_WINDOW_HOURS,
    REST,
    awaiting_until,
    casualties_die,
    medical_treat,
    medical_window_closes,
    medical_window_open,
    time_passes,
)
from campaign.rules.state import Status, WindowFight
from campaign.rules.window import Spared, spared_text, window_settled, withdrawn_text
from campaign.selectors.entries import unit_history_explains
from campaign.services import (
    calendar_advance,
    medical_apply,
    outcome_apply,
    quick_resolve_run,
    unit_edit,
)
from campaign.services.engagements import engagement_run
from campaign.services.orders import clock_advance
from tests.campaign.helpers import dice, unit_state
from tests.campaign.test_recovery_medics import MEDIC
from tests.campaign.test_recovery_undo import _fought_twice
from units.bucs import Equipment, Quality

Q = Quality


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
