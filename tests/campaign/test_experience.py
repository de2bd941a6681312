"""Experience and training: the project's table, and how quality rises (and only so far)."""

from __future__ import annotations

import itertools
from itertools import permutations

import pytest
from django.core.exceptions import ValidationError

from campaign.models import HistoryEntry
from campaign.pages.history_words import entry_line
from campaign.rules.damage import UnitOutcome
from campaign.rules.experience import (
    EXPERIENCE_TABLE,
    HELD_BACK_BROKEN,
    HELD_BACK_QUALITY_LOST,
    POINTS_SURVIVED,
    POINTS_WON,
    TrainingError,
    earned_text,
    experience_earn,
    threshold,
    training_apply,
    with_quality,
)
from campaign.rules.history import changes_text, story_text, told_why
from campaign.rules.recovery import casualties_die, casualties_found_too_late, medical_treat
from campaign.rules.state import Status, WindowFight
from campaign.rules.window import withdrawn_text
from campaign.services import calendar_advance, outcome_apply, unit_edit, unit_train
from campaign.services.characters import character_create
from campaign.services.reverts import outcome_revert
from tests.campaign.helpers import unit_state
from units.bucs import Quality

Q = Quality


def test_it_chose_the_experience_table():
    assert (POINTS_SURVIVED, POINTS_WON) == (1, 1)
    assert EXPERIENCE_TABLE == {
        Q.RAW: 1,
        Q.GREEN: 2,
        Q.INEXPERIENCED: 3,
        Q.AVERAGE: 4,
        Q.EXPERIENCED: 5,
        Q.ELITE: 6,
    }
    assert threshold(Q.LEGENDARY) is None


def test_a_survivor_earns_one_point_and_a_winner_one_more():
    assert experience_earn(unit_state(), won=False)[0].experience == 1
    assert experience_earn(unit_state(), won=True)[0].experience == 2


def test_a_unit_that_retreated_in_poor_order_survived_and_earns_experience():
    state, earned = experience_earn(unit_state(status=Status.RETREATED), won=True)
    assert earned.points == 2 and state.experience == 2 and not earned.held_back
    state, earned = experience_earn(unit_state(status=Status.RETREATED), won=False)
    assert earned.points == 1 and state.experience == 1


def test_a_unit_that_lost_quality_for_good_earns_but_is_held_just_below_its_next_step():
    # Average needs 4: 3 + 2 would promote it, but not in the battle that cost it quality.
    state, earned = experience_earn(unit_state(experience=3), won=True, quality_lost=True)
    assert (earned.points, earned.raised, state.quality, state.experience) == (
        2,
        False,
        Q.AVERAGE,
        3,
    )
    assert earned.held_back == HELD_BACK_QUALITY_LOST
    assert earned_text("Ford", earned) == (
        "Ford: 2 points of experience, held just short of the next step, for there is "
        "no step back up in the battle that cost it quality for good"
    )
    # Short of the threshold, its points count in full.
    state, earned = experience_earn(unit_state(experience=0), won=True, quality_lost=True)
    assert state.experience == 2 and not earned.held_back


def test_a_destroyed_unit_earns_nothing():
    destroyed = unit_state(status=Status.DESTROYED)
    state, earned = experience_earn(destroyed, won=True)
    assert state == destroyed and earned.points == 0


def test_it_raises_quality_one_step_at_the_threshold_and_carries_the_rest():
    state, earned = experience_earn(unit_state(quality=Q.AVERAGE, experience=3), won=True)
    assert earned.raised
    assert state.quality == Q.EXPERIENCED and state.experience == 1


def test_a_raw_unit_that_survives_a_battle_becomes_green():
    state, earned = experience_earn(unit_state(quality=Q.RAW), won=False)
    assert earned.raised and state.quality == Q.GREEN and state.experience == 0


def test_it_raises_at_most_one_step_per_battle():
    # Progress left over from a higher quality never counts toward two steps at once.
    state, _ = experience_earn(unit_state(quality=Q.GREEN, experience=1), won=True)
    assert state.quality == Q.INEXPERIENCED and state.experience == 1
    # Points enough for several steps (a GM's correction gave them) still make one step, and
    # what is left stops just short of the next: Raw with 5, +2 for a win, is Green with 1.
    state, earned = experience_earn(unit_state(quality=Q.RAW, experience=5), won=True)
    assert (state.quality, state.experience, earned.raised) == (Q.GREEN, 1, True)


def test_elite_and_legendary_come_from_battle():
    elite, _ = experience_earn(unit_state(quality=Q.EXPERIENCED, experience=4), won=False)
    assert elite.quality == Q.ELITE
    legendary, _ = experience_earn(unit_state(quality=Q.ELITE, experience=5), won=False)
    assert legendary.quality == Q.LEGENDARY


def test_a_legendary_unit_keeps_counting_its_experience():
    state, earned = experience_earn(unit_state(quality=Q.LEGENDARY, experience=40), won=True)
    assert state.quality == Q.LEGENDARY and state.experience == 42 and not earned.raised


def test_losing_quality_caps_progress_below_the_new_threshold():
    assert with_quality(unit_state(experience=3), Q.RAW).experience == 0
    assert with_quality(unit_state(experience=3), Q.ELITE).experience == 3


@pytest.mark.parametrize(
    ("before", "after"),
    [(Q.GREEN, Q.INEXPERIENCED), (Q.INEXPERIENCED, Q.AVERAGE), (Q.AVERAGE, Q.EXPERIENCED)],
)
def test_training_raises_one_step(before, after):
    assert training_apply(unit_state(quality=before)).quality == after


@pytest.mark.parametrize("quality", [Q.RAW, Q.EXPERIENCED, Q.ELITE, Q.LEGENDARY])
def test_training_reaches_experienced_at_most_and_cannot_lift_raw(quality):
    with pytest.raises(TrainingError):
        training_apply(unit_state(quality=quality))


@pytest.mark.parametrize(
    "changes",
    [{"status": Status.RETREATED}, {"status": Status.DESTROYED}, {"in_combat_zone": True}],
)
def test_training_needs_a_ready_unit_out_of_the_combat_zone(changes):
    with pytest.raises(TrainingError):
        training_apply(unit_state(quality=Q.GREEN, **changes))


def test_the_training_service_names_the_trainer_in_history(campaign, make_unit):
    rook = character_create(campaign=campaign, name="Sgt. Rook", hit_points=10,
                            feats=["special_forces"])  # fmt: skip
    unit = make_unit(quality="green")
    entry = unit_train(unit=unit, character=rook)
    unit.refresh_from_db()
    assert unit.quality == Q.INEXPERIENCED
    assert entry.kind == HistoryEntry.Kind.TRAINING
    assert entry.text == "trained by Sgt. Rook; quality Green → Inexperienced"
    assert entry.details == {"trainer": "Sgt. Rook", "character": rook.pk}


def test_the_training_service_refuses_without_a_trainer_or_past_experienced(campaign, make_unit):
    rook = character_create(campaign=campaign, name="Sgt. Rook", hit_points=10,
                            feats=["strategist"])  # fmt: skip
    unit = make_unit(quality="experienced")
    with pytest.raises(ValidationError, match="given by a character of the campaign"):
        unit_train(unit=unit, character=None)
    with pytest.raises(ValidationError, match="Elite and Legendary come only from battle"):
        unit_train(unit=unit, character=rook)
    assert unit.history.filter(kind=HistoryEntry.Kind.TRAINING).count() == 0


def test_a_battle_writes_experience_as_its_own_entry(campaign, make_unit):
    unit = make_unit(quality="average")
    unit.experience = 2
    unit.save()
    entries = outcome_apply(
        campaign=campaign, outcomes={unit.pk: UnitOutcome(0, 0)}, winners=[unit.pk], reason="Ford"
    )
    assert [e.kind for e in entries] == [HistoryEntry.Kind.BATTLE, HistoryEntry.Kind.EXPERIENCE]
    assert entries[1].text == (
        "Ford: 2 points of experience, a step up; quality Average → Experienced, experience 2 → 0"
    )


def test_experience_never_gives_back_quality_lost_for_good_in_the_same_battle(campaign, make_unit):
    # Combined Arms: a Green unit suppressed once is Raw for good; the battle's experience must
    # not lift it straight back to Green. (On an ace squad's card, Skill 4 for a Green unit, one
    # Skill lost leaves it above the demoralisation Skill: still in the field.)
    unit = make_unit(card="Ace Squad", quality="green")
    outcome_apply(campaign=campaign, outcomes={unit.pk: UnitOutcome(0, 1)}, reason="Ford")
    unit.refresh_from_db()
    assert unit.quality == Q.RAW
    gains = unit.history.filter(kind=HistoryEntry.Kind.EXPERIENCE)
    assert not gains.filter(text__contains="experience, a step up")
    # It survived and learns (a point), but Raw needs only 1: held at 0 for this battle. A
    # rallied Raw unit's next battle promotes it as any Raw unit's: Green again.
    assert unit.experience == 0
    calendar_advance(campaign=campaign, days=1)
    campaign.refresh_from_db()
    won = outcome_apply(
        campaign=campaign, outcomes={unit.pk: UnitOutcome(0, 0)}, winners=[unit.pk], reason="Mill"
    )
    assert won[-1].text == (
        "Mill: 2 points of experience, a step up; quality Raw → Green, experience 0 → 1"
    )


def test_a_unit_that_retreated_in_poor_order_is_not_promoted():
    state, earned = experience_earn(
        unit_state(quality=Q.GREEN, experience=1, status=Status.RETREATED), won=True
    )
    assert not earned.raised and state.quality == Q.GREEN and earned.points == 2
    assert state.experience == 1 and earned.held_back == HELD_BACK_BROKEN  # Green needs 2
    # Rallied, its next battle promotes it like any unit's.
    rallied, earned = experience_earn(state.but(status=Status.READY), won=False)
    assert earned.raised and rallied.quality == Q.INEXPERIENCED and rallied.experience == 0


def test_a_broken_survivor_has_its_points_in_history_and_no_step_up(campaign, make_unit):
    # Two Green squads (Green needs 2) taken out on the winning side: each retreats in poor
    # order and earns 2 points, held at 1 while it is broken.
    fresh = make_unit("1st Squad", quality="green")
    seasoned = make_unit("2nd Squad", quality="green")
    seasoned.experience = 1
    seasoned.save()
    taken_out = UnitOutcome(1, 0, "destroyed")
    entries = outcome_apply(
        campaign=campaign,
        outcomes={fresh.pk: taken_out, seasoned.pk: taken_out},
        winners=[fresh.pk, seasoned.pk],
        reason="Mill",
        seed=1,
    )
    for unit in (fresh, seasoned):
        unit.refresh_from_db()
        assert (unit.status, unit.experience) == (Status.RETREATED, 1)
    gains = {e.unit: e for e in entries if e.kind == HistoryEntry.Kind.EXPERIENCE}
    assert gains[fresh].text == (
        "Mill: 2 points of experience, held just short of the next step, for there is no step "
        "up while it is broken (retreated in poor order); experience 0 → 1"
    )
    # The seasoned squad stood just short already: its points change nothing, and its
    # history still says it learnt and why it did not rise.
    assert gains[seasoned].after == {}
    assert gains[seasoned].text.startswith(
        "Mill: 2 points of experience, held just short of the next step, for there is no step "
        "up while it is broken (retreated in poor order)"
    )
    # Each says what the unit has after, whether the points changed it or not.
    for unit in (fresh, seasoned):
        line = entry_line(gains[unit], unit.state.to_json())
        # What the fight gave and where the unit stands toward its next step, plainly, in
        # one sentence a GM would write, not "…(retreated in poor order): has 1 of the 2 …".
        assert line == (
            "Mill: earned 2 experience points, but is held at 1 of the 2 experience points it "
            "needs to rise to Inexperienced, as there is no step up while it is broken "
            "(retreated in poor order)"
        ), line
    # Reverted, each says what the unit has after too: given back, or kept where it stood.
    reverted = outcome_revert(entries=[gains[fresh], gains[seasoned]], reason="wrong report")
    said = {e.unit: entry_line(e, e.unit.state.to_json()) for e in reverted}
    assert said[fresh] == (
        "Wrong report: the experience of day 1 is undone: back to 0 experience points"
    ), said[fresh]
    assert said[seasoned] == (
        "Wrong report: the experience of day 1 is undone: still 1 experience point"
    ), said[seasoned]


def test_it_tells_a_step_held_back_saved_in_the_old_words_with_one_colon(campaign, make_unit):
    # An entry saved when a colon stood before why the step was held back reads as one
    # written now: the fight's name is the only colon.
    squad = make_unit("1st Squad", quality="green")
    [entry] = outcome_apply(
        campaign=campaign, outcomes={squad.pk: UnitOutcome(0, 0)}, reason="Mill"
    )[-1:]
    entry.text = (
        "Mill: 2 points of experience, held just short of the next step: no step up while it "
        "is broken (retreated in poor order); " + changes_text(entry.before, entry.after)
    )
    entry.save()
    line = entry_line(entry, {"experience": 1})
    assert line == (
        "Mill: earned 2 experience points, but is held at 1 experience point, as there is no "
        "step up while it is broken (retreated in poor order)"
    ), line
    assert told_why(
        "Ford; the step up to Experienced from that battle is withdrawn: no step back up in the "
        "battle that cost it quality for good",
        {},
        {},
    ).endswith(
        "is withdrawn, for there is no step back up in the battle that cost it quality for good"
    )


def test_a_unit_reduced_by_dead_casualty_hits_then_gains_experience_normally(campaign, make_unit):
    # BUCS: a unit whose Casualty hits die is permanently reduced, "and then gains experience
    # normally (fresh recruits)".
    squad = make_unit("1st Squad", quality="average")
    outcome_apply(campaign=campaign, outcomes={squad.pk: UnitOutcome(0, 0)}, reason="Ford")
    unit_edit(unit=squad, changes={"casualty_hits": 2}, reason="Ford: two sections down")
    calendar_advance(campaign=campaign, days=2)  # no medics: both die, Average → Green for good
    squad.refresh_from_db()
    assert (squad.quality, squad.casualty_hits, squad.experience) == (Q.GREEN, 0, 1)
    campaign.refresh_from_db()
    entries = outcome_apply(
        campaign=campaign, outcomes={squad.pk: UnitOutcome(0, 0)}, winners=[squad.pk], reason="Mill"
    )
    # 1 + 2 points reach Green's 2: a step up, 1 point carried.
    assert (
        entries[-1].text == "Mill: 2 points of experience, a step up; quality Green → Inexperienced"
    )
    squad.refresh_from_db()
    assert (squad.quality, squad.experience) == (Q.INEXPERIENCED, 1)


def test_a_step_up_is_withdrawn_when_the_casualty_hits_of_its_battle_die():
    # An Average unit with 3 points wins a battle that leaves it 2 Casualty hits awaiting the
    # medics: a step up to Experienced, the battle kept in the window (`damage_apply`).
    ford = WindowFight(quality=Q.AVERAGE, experience=3, casualty_hits=2, won=True)
    wounded = unit_state(
        experience=3, casualty_hits=2, window_from=0, window_experience=3, window_fights=(ford,)
    )
    promoted, earned = experience_earn(wounded, won=True)
    assert earned.raised
    assert (promoted.quality, promoted.experience) == (Q.EXPERIENCED, 1)
    assert withdrawn_text(promoted) == (
        "the step up to Experienced from that battle is withdrawn, for there is "
        f"{HELD_BACK_QUALITY_LOST}"
    )
    # The medics save neither: the step up goes first, then the dead reduce the unit, to where
    # the same hits found too late at once leave it (the cap), experience included.
    died, dead = casualties_die(promoted)
    assert dead == 2 and (died.quality, died.experience) == (Q.GREEN, 1)
    found_late, _ = casualties_found_too_late(wounded, 2)
    found_late, earned = experience_earn(found_late, won=True, quality_lost=True)
    assert earned.held_back == HELD_BACK_QUALITY_LOST and found_late == died
    # Saved by the medics, the step up stands. A window from before fights were kept counted
    # its steps up alone (`window_quality_gained`): two from two battles read as two.
    assert medical_treat(promoted, 2).quality == Q.EXPERIENCED
    before_kept = promoted.but(quality=Q.ELITE, window_quality_gained=2, window_fights=())
    assert withdrawn_text(before_kept) == (
        "the steps up to Experienced and Elite from those battles are withdrawn, for there is "
        f"{HELD_BACK_QUALITY_LOST}"
    )
    # When their hits die, both steps go first, progress just short of the lower one (Average,
    # 3 of its 4), whatever it had: then the two dead leave it Green, held at 1 of its 2.
    died, dead = casualties_die(before_kept.but(experience=0))
    assert dead == 2 and (died.quality, died.experience) == (Q.GREEN, 1)


def test_a_correction_between_two_fights_lowers_the_unit_no_further_than_raw_when_its_dead_die():
    """A GM's correction between two kept fights befalls the unit again as the difference it
    made, within the ladder (docs/campaign.md §1.5): an Average squad leaves its first fight
    with 2 Casualty hits, the GM then lowers it three steps to Raw, and a second fight follows.
    Both hits die: Green after the first fight, and the correction's three steps stop at Raw."""
    first = WindowFight(quality=Quality.AVERAGE, experience=0, casualty_hits=2, at=0)
    second = WindowFight(quality=Quality.RAW, experience=0, at=5)
    wounded = unit_state(
        quality=Quality.RAW, casualty_hits=2, window_from=0, window_experience=0,
        window_fights=(first, second),
    )  # fmt: skip
    died, dead = casualties_die(wounded)
    assert dead == 2 and (died.quality, died.experience, died.status) == (
        Quality.RAW, 0, Status.READY
    )  # fmt: skip


def test_a_step_the_dead_cost_and_the_fights_since_won_back_is_told():
    # An Average squad broken in a fight that leaves it a Casualty hit, then winning another
    # (1 + 2 points: 3 of Average's 4). The hit dies: a step down to Inexperienced at the first
    # fight, whose point is held there; the win's 2 points count again from Inexperienced and
    # reach its 3: Average again, with none left. The quality alone says nothing happened.
    first = WindowFight(quality=Q.AVERAGE, experience=0, casualty_hits=1, broken=True)
    second = WindowFight(quality=Q.AVERAGE, experience=1, won=True)
    wounded = unit_state(
        experience=3, casualty_hits=1, window_from=0, window_experience=0,
        window_fights=(first, second),
    )  # fmt: skip
    died, dead = casualties_die(wounded)
    assert dead == 1 and (died.quality, died.experience) == (Q.AVERAGE, 0)
    assert withdrawn_text(wounded) == (
        "the dead cost it 1 step; the experience of the fights since counts again from the "
        "quality left: 1 step won back"
    )


def test_the_clocks_words_tell_the_step_the_dead_cost_and_the_fights_since_won_back(
    campaign, make_unit
):
    from campaign.pages.time_lines import time_lines_ahead, time_lines_done
    from campaign.selectors.reviews import advance_passings
    from campaign.services.orders import clock_advance

    mech = make_unit("Holt", "Mech", quality="average", specialties=("mechanized",))
    # "A" costs one Hit of the 4-Hit Mech (seed 1: a Casualty hit), "B" is won and costs none.
    for hour, (name, outcome, won) in enumerate(
        [("A", UnitOutcome(1, 0), False), ("B", UnitOutcome(0, 0), True)]
    ):
        outcome_apply(campaign=campaign, outcomes={mech.pk: outcome}, day=1, hour=hour,
                      winners=[mech.pk] if won else [], reason=name, seed=1)  # fmt: skip
        clock_advance(campaign=campaign, hours=1)
    mech.refresh_from_db()
    assert (mech.quality, mech.experience, mech.casualty_hits) == (Q.AVERAGE, 3, 1)
    # The review says it ahead as the summary says it after, in a sentence of its own.
    campaign.refresh_from_db()
    [ahead] = time_lines_ahead(advance_passings(campaign=campaign, hours=24))
    assert ahead.endswith(
        "carries no hits now. It has 0 (3 before) of the 4 experience points it needs to rise "
        "to Experienced."
    )
    clock_advance(campaign=campaign, hours=24)  # day 2, 02:00: the window closed
    mech.refresh_from_db()
    assert (mech.quality, mech.experience) == (Q.AVERAGE, 0)
    died = list(mech.history.filter(kind=HistoryEntry.Kind.CASUALTIES))
    [line] = time_lines_done(died)
    # The dead and the fights whose hits they were, then what that cost and what came back.
    assert (
        "1 Casualty hit not saved within 24 hours died (at A; 1 Casualty hit; B: came "
        "through unhurt; medics saved 0)"
    ) in line
    # Its experience in a sentence of its own, not lost at the end of the long one.
    assert line.endswith(
        "medics saved 0); the dead cost it 1 step; the experience of the fights since counts "
        "again from the quality left: 1 step won back; carries no hits now. It has 0 (3 "
        "before) of the 4 experience points it needs to rise to Experienced."
    )


def test_experience_is_said_held_short_of_a_step_only_where_it_stands():
    # Inexperienced needs 3: 2 is just short of it, 1 is not (fights counted again, say).
    held = story_text({"quality": "average", "experience": 3},
                      {"quality": "inexperienced", "experience": 2}, {})  # fmt: skip
    assert held.endswith("has 2 (3 before) of the 3 experience points it needs to rise to Average")
    fewer = story_text({"quality": "average", "experience": 2},
                       {"quality": "inexperienced", "experience": 1}, {})  # fmt: skip
    assert fewer.endswith("has 1 (2 before) of the 3 experience points it needs to rise to Average")


@pytest.mark.parametrize(
    ("quality", "experience", "ends"),
    [
        ("average", 3, (Q.GREEN, 1, Status.READY)),  # a step up to Experienced, then two dead
        ("green", 0, (Q.GREEN, 0, Status.DESTROYED)),  # broken (points held), then destroyed
    ],
)
def test_the_same_battle_ends_the_unit_the_same_whether_entered_on_time_or_late(
    campaign, make_unit, quality, experience, ends
):
    from campaign.models import Unit
    from campaign.services.orders import clock_advance

    on_time, late = (
        make_unit(name, "Mech", quality=quality, specialties=("mechanized",))
        for name in ("On Time", "Late")
    )
    for unit in (on_time, late):
        unit_edit(unit=unit, changes={"experience": experience}, reason="earlier skirmishes")

    def ford(unit):
        # Won at day 1, 00:00, with the same dice (seed 34): two Hits of the 4-Hit Mech lost,
        # their d6 both 4, a BUCS hit each; splits 6 and 6: two Casualty hits.
        outcome_apply(campaign=campaign, outcomes={unit.pk: UnitOutcome(2, 0)}, day=1, hour=0,
                      winners=[unit.pk], reason="Ford", seed=34)  # fmt: skip

    ford(on_time)  # entered on time, and left to the medics, who never come
    clock_advance(campaign=campaign, hours=25)
    campaign.refresh_from_db()
    ford(late)  # entered after its 24 hours: found too late
    on_time, late = (Unit.objects.get(pk=unit.pk) for unit in (on_time, late))
    assert (on_time.quality, on_time.experience, on_time.status) == ends
    assert on_time.state.but(name="") == late.state.but(name="")
    died = on_time.history.get(kind=HistoryEntry.Kind.CASUALTIES)
    withdrawn = "the step up to Experienced from that battle is withdrawn"
    assert (withdrawn in died.text) == (quality == "average")


@pytest.mark.parametrize(
    ("script", "ends", "said"),
    [
        # Inexperienced with 2 points: A's Casualty hit dies, so A's step up to Average is
        # withdrawn; B and C count again from Green, and C's step goes to Average, not beyond.
        ("ABC", (Q.AVERAGE, 0), "the step up to Average from that battle is withdrawn"),
        # The hit is the last fight's: B's step up to Average stands, A's up to Experienced
        # is withdrawn with its dead, which then take it down to Inexperienced.
        ("BCA", (Q.INEXPERIENCED, 2), "at A; 1 Casualty hit; medics saved 0; 1 Casualty"),
        # B's step up to Average stands; C's, from Average to Experienced, counts again from
        # Inexperienced, where A's dead leave it: to Average.
        ("BAC", (Q.AVERAGE, 1), "the fights since counts again from the quality left"),
    ],
)
def test_several_fights_in_one_window_end_the_unit_as_the_same_fights_entered_late(
    campaign, make_unit, script, ends, said
):
    from campaign.models import Unit
    from campaign.services.orders import clock_advance

    on_time, late = (
        make_unit(name, "Mech", quality="inexperienced", specialties=("mechanized",))
        for name in ("On Time", "Late")
    )
    for unit in (on_time, late):
        unit_edit(unit=unit, changes={"experience": 2}, reason="earlier skirmishes")
    # Three battles won an hour apart on day 1; "A" costs one Hit of the 4-Hit Mech (seed 1:
    # its d6 a 1, one BUCS hit; its split a 6, a Casualty hit), the others nothing.
    fights = [(name, UnitOutcome(1 if name == "A" else 0, 0)) for name in script]

    def fight(unit, hour, name, outcome):
        outcome_apply(campaign=campaign, outcomes={unit.pk: outcome}, day=1, hour=hour,
                      winners=[unit.pk], reason=name, seed=1)  # fmt: skip

    for hour, (name, outcome) in enumerate(fights):
        fight(on_time, hour, name, outcome)  # entered on time, and the medics never come
        clock_advance(campaign=campaign, hours=1)
    clock_advance(campaign=campaign, hours=24)  # day 2, 03:00: every window closed
    campaign.refresh_from_db()
    for hour, (name, outcome) in enumerate(fights):
        fight(late, hour, name, outcome)  # entered after their 24 hours: found too late
    on_time, late = (Unit.objects.get(pk=unit.pk) for unit in (on_time, late))
    assert (on_time.quality, on_time.experience) == (late.quality, late.experience) == ends
    assert said in on_time.history.get(kind=HistoryEntry.Kind.CASUALTIES).text


def test_any_order_of_fights_in_one_window_ends_the_unit_as_the_same_fights_entered_late():
    # Every order of four of these fights, from several rungs of the ladder, with the dice
    # scripted: on time, the hits await the medics, who never come; late, each fight's hits
    # die as it is entered (`casualties_found_too_late`). Quality and experience agree.
    from campaign.rules.damage import outcome_damage
    from campaign.rules.state import Status
    from tests.campaign.helpers import dice
    from units.bucs import Equipment

    fights = {
        "W": (UnitOutcome(1, 0), (1, 6), True),  # won, 1 Casualty hit
        "V": (UnitOutcome(2, 0), (4, 4, 6, 6), True),  # won, 2 Casualty hits
        "C": (UnitOutcome(0, 0), (), True),  # won, untouched
        "L": (UnitOutcome(0, 0), (), False),  # lost, untouched
        "S": (UnitOutcome(0, 1), (), True),  # won, 1 Skill lost for good (Combined Arms)
    }

    def fight(state, name, late):
        outcome, rolls, won = fights[name]
        state, damage = outcome_damage(state, outcome, card_hits=4, skill_restored=False,
                                       opposing_equipment=Equipment.ADEQUATE, day=1,
                                       d6=dice(*rolls), won=won)  # fmt: skip
        dead = 0
        if late and damage.casualty_hits:
            state, dead = casualties_found_too_late(
                state, damage.casualty_hits, damage.quality_lost
            )
        lost = damage.quality_lost > 0 or dead > 0
        return experience_earn(state, won=won, quality_lost=lost)[0]

    compared = 0
    starts = [(Q.GREEN, 1), (Q.INEXPERIENCED, 2), (Q.AVERAGE, 3), (Q.EXPERIENCED, 4), (Q.ELITE, 5)]
    for (quality, experience), order in itertools.product(starts, permutations("WVCLS", 4)):
        on_time = late = unit_state(quality=quality, experience=experience)
        for name in order:
            if on_time.status != Status.READY or late.status == Status.RETREATED:
                break  # it could not fight on, on time or late: nothing to compare
            on_time = fight(on_time, name, late=False)
            late = late if late.destroyed else fight(late, name, late=True)
        else:
            on_time, _ = casualties_die(on_time)
            assert (on_time.quality, on_time.experience, on_time.destroyed) == (
                late.quality, late.experience, late.destroyed
            ), (quality, experience, order)  # fmt: skip
            compared += 1
    assert compared > 400


def test_fights_whose_hits_die_each_in_their_own_24_hours_end_the_unit_as_entered_late():
    # Every order of four of these fights, from several rungs of the ladder, fought at day 1,
    # 00:00 and 20:00, day 2, 06:00 and day 3, 02:00, the clock moving on between them: each
    # fight's Casualty hits die as its own 24 hours end, some before the next fight, some
    # while a later fight's still await the medics (who never come). Late, each fight's hits
    # die as it is entered. Quality and experience agree, however the closings fall.
    from campaign.rules.damage import outcome_damage
    from campaign.rules.orders import clock_hour
    from campaign.rules.recovery import CASUALTIES, time_passes
    from tests.campaign.helpers import dice
    from units.bucs import Equipment

    fights = {
        "W": (UnitOutcome(1, 0), (1, 6), True),  # won, 1 Casualty hit
        "V": (UnitOutcome(2, 0), (4, 4, 6, 6), True),  # won, 2 Casualty hits
        "C": (UnitOutcome(0, 0), (), True),  # won, untouched
        "L": (UnitOutcome(0, 0), (), False),  # lost, untouched
        "S": (UnitOutcome(0, 1), (), True),  # won, 1 Skill lost for good (Combined Arms)
    }
    hours = [clock_hour(1, 0), clock_hour(1, 20), clock_hour(2, 6), clock_hour(3, 2)]
    partly = 0  # closings that left a later fight's hits awaiting the medics

    def fight(state, name, at, late):
        outcome, rolls, won = fights[name]
        day, hour = divmod(at, 24)
        state, damage = outcome_damage(state, outcome, card_hits=4, skill_restored=False,
                                       opposing_equipment=Equipment.ADEQUATE, day=day + 1,
                                       hour=hour, d6=dice(*rolls), won=won)  # fmt: skip
        dead = 0
        if late and damage.casualty_hits:
            state, dead = casualties_found_too_late(
                state, damage.casualty_hits, damage.quality_lost
            )
        lost = damage.quality_lost > 0 or dead > 0
        return experience_earn(state, won=won, quality_lost=lost)[0]

    def passed(state, start, end):
        nonlocal partly
        for passing in time_passes(state, start, end):
            state = passing.state
            partly += passing.kind == CASUALTIES and state.casualty_hits > 0
        return state

    compared = 0
    starts = [(Q.GREEN, 1), (Q.INEXPERIENCED, 2), (Q.AVERAGE, 3), (Q.EXPERIENCED, 4), (Q.ELITE, 5)]
    for (quality, experience), order in itertools.product(starts, permutations("WVCLS", 4)):
        on_time = late = unit_state(quality=quality, experience=experience)
        for index, name in enumerate(order):
            if index:
                on_time = passed(on_time, hours[index - 1], hours[index])
            if on_time.status != Status.READY or late.status == Status.RETREATED:
                break  # it could not fight on, on time or late: nothing to compare
            on_time = fight(on_time, name, hours[index], late=False)
            late = late if late.destroyed else fight(late, name, hours[index], late=True)
        else:
            on_time = passed(on_time, hours[-1], hours[-1] + 48)
            assert on_time.destroyed or not on_time.casualty_hits
            assert (on_time.quality, on_time.experience, on_time.destroyed) == (
                late.quality, late.experience, late.destroyed
            ), (quality, experience, order)  # fmt: skip
            compared += 1
    assert compared > 400 and partly > 100


def test_it_tells_what_a_fight_earned_and_what_the_unit_now_has_in_one_sentence(
    campaign, make_unit
):
    # "Mill: earned 1 experience point: has 1 of the 2 …" read as two notes; a GM writes it
    # as one sentence, the numbers kept.
    squad = make_unit("1st Squad", quality="green")
    [entry] = outcome_apply(
        campaign=campaign, outcomes={squad.pk: UnitOutcome(0, 0)}, reason="Mill"
    )[-1:]
    squad.refresh_from_db()
    assert entry.kind == HistoryEntry.Kind.EXPERIENCE
    assert entry_line(entry, squad.state.to_json()) == (
        "Mill: earned 1 experience point, and now has 1 of the 2 experience points it needs to "
        "rise to Inexperienced"
    )
