"""The medics: a Medical crew's capacity by its quality and equipment, who it saves first (whole
units, those needing fewest, the best), its triage of Casualty then Morale hits, a day's capacity
shared among a force's crews and given back by work reverted, and who may direct the crews and what
they refuse."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from campaign.models import HistoryEntry
from campaign.pages.medics import medics_left
from campaign.rules.damage import UnitOutcome
from campaign.rules.recovery import (
    MEDICAL_CAPACITY_BY_EQUIPMENT,
    MEDICAL_CAPACITY_BY_QUALITY,
    Treatment,
    casualties_die,
    crews_left,
    crews_share,
    hits_to_survive,
    medical_capacity,
    medical_plan,
    medical_treat,
)
from campaign.rules.state import Status
from campaign.services import (
    calendar_advance,
    entry_undo,
    medical_apply,
    outcome_apply,
    outcome_revert,
    unit_edit,
    unit_move,
)
from tests.campaign.helpers import unit_state
from units.bucs import Equipment, Quality, Specialty

Q = Quality


MEDIC = (Specialty.INFANTRY, Specialty.MEDICAL)


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
