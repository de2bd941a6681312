"""A unit's Undo: the GM takes back its latest change that came from no fight (a correction,
the medics' work, a training, a Strategist's rally), exactly, as one revert entry."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from campaign.models import HistoryEntry
from campaign.rules.bridge import UnitOutcome
from campaign.selectors import entries_undone, medics_used_today, undo_offered
from campaign.services import (
    calendar_advance,
    entry_undo,
    medical_apply,
    outcome_apply,
    unit_edit,
    unit_move,
    unit_train,
)
from campaign.services.characters import character_create, character_rally, rallied_today
from campaign.services.roster import force_create
from units.bucs import Quality

Kind = HistoryEntry.Kind


def test_the_gm_undoes_a_correction_giving_back_every_field_it_touched(make_unit, cast):
    unit = make_unit("Sappers", leader={"name": "Sgt. Kay", "hit_points": 12})
    was = unit.state.to_json()
    edit = unit_edit(
        unit=unit,
        changes={"quality": "green", "morale_hits": 1, "casualty_hits": 1, "name": "Miners",
                 "equipment": "poor", "leader_hit_points": 4},
        reason="the wrong unit's report", actor=cast.gm,
    )  # fmt: skip
    assert {"quality", "casualty_hits", "window_from", "name", "leader"} <= set(edit.after)
    undo = entry_undo(entry=edit, reason="entered on the wrong unit", actor=cast.gm)
    unit.refresh_from_db()
    assert unit.state.to_json() == was and unit.leader.hit_points == 12
    assert undo.kind == Kind.REVERT and undo.reverts == edit and undo.actor == cast.gm
    assert undo.before == edit.after and undo.after == edit.before
    assert undo.text.startswith(
        "entered on the wrong unit: the GM's correction of day 1 is undone; "
    )
    assert entries_undone(entries=[edit]) == {edit.pk}
    assert undo_offered(unit=unit) is None  # an Undo is not itself undone: correct the unit


def test_only_the_units_latest_change_that_stands_can_be_undone(make_unit, cast):
    unit = make_unit("Sappers")
    first = unit_edit(unit=unit, changes={"morale_hits": 1}, reason="shelled", actor=cast.gm)
    second = unit_edit(unit=unit, changes={"experience": 2}, reason="drill", actor=cast.gm)
    entries = HistoryEntry.objects.count()
    with pytest.raises(ValidationError) as refused:
        entry_undo(entry=first, reason="wrong", actor=cast.gm)
    assert refused.value.message_dict["entry"] == [
        "Sappers has changed since (GM correction on day 1): undo that first"
    ]
    assert HistoryEntry.objects.count() == entries
    assert undo_offered(unit=unit) == second
    entry_undo(entry=second, reason="no drill", actor=cast.gm)
    # The undone entry and its Undo cancel out: the correction before them is the latest now.
    assert undo_offered(unit=unit) == first
    entry_undo(entry=first, reason="no shelling", actor=cast.gm)
    unit.refresh_from_db()
    assert (unit.morale_hits, unit.experience) == (0, 0)


def test_an_undo_sent_twice_changes_nothing_the_second_time(make_unit, cast):
    unit = make_unit("Sappers")
    edit = unit_edit(unit=unit, changes={"morale_hits": 2}, reason="shelled", actor=cast.gm)
    assert entry_undo(entry=edit, reason="wrong", actor=cast.gm) is not None
    entries = HistoryEntry.objects.count()
    assert entry_undo(entry=edit, reason="wrong", actor=cast.gm) is None
    assert HistoryEntry.objects.count() == entries
    unit.refresh_from_db()
    assert unit.morale_hits == 0


def test_only_the_gm_may_undo(make_unit, cast):
    unit = make_unit("Sappers")
    edit = unit_edit(unit=unit, changes={"morale_hits": 2}, reason="shelled", actor=cast.gm)
    with pytest.raises(PermissionDenied, match=r"only the GM or a co-GM of Op\. Test may do this"):
        entry_undo(entry=edit, reason="mine", actor=cast.player)
    unit.refresh_from_db()
    assert unit.morale_hits == 2 and not entries_undone(entries=[edit])


def test_an_undone_save_gives_back_the_hits_and_the_medics_day(campaign, make_unit, force, cast):
    mech = make_unit("Atlas", "Mech", quality="legendary", specialties=("mechanized",))
    make_unit("Aid Post", specialties=("infantry", "medical"))
    outcome_apply(campaign=campaign, outcomes={mech.pk: UnitOutcome(0, 0)}, reason="Hill 12")
    unit_edit(unit=mech, changes={"casualty_hits": 2}, reason="Hill 12 count")
    mech.refresh_from_db()
    was = mech.state.to_json()
    (save,) = medical_apply(force=force, reason="field hospital")
    assert medics_used_today(force=force) == 2
    undo = entry_undo(entry=save, reason="no crew went", actor=cast.gm)
    mech.refresh_from_db()
    assert mech.state.to_json() == was and mech.casualty_hits == 2
    assert undo.text.startswith("no crew went: the medics' work of day 1 is undone")
    assert medics_used_today(force=force) == 0  # the crews may save them again today


def test_an_undone_training_and_rally_give_back_the_step_and_the_days_rally(
    campaign, make_unit, cast
):
    squad = make_unit("Sappers", quality="inexperienced")
    sage = character_create(campaign=campaign, name="Col. Sage", hit_points=10,
                            feats=["strategist"])  # fmt: skip
    trained = unit_train(unit=squad, character=sage, actor=cast.gm)
    entry_undo(entry=trained, reason="no time for it", actor=cast.gm)
    squad.refresh_from_db()
    assert squad.quality == Quality.INEXPERIENCED
    unit_edit(unit=squad, changes={"morale_hits": 2}, reason="shaken", actor=cast.gm)
    rally = character_rally(character=sage, unit=squad, actor=cast.gm)
    assert squad.pk in rallied_today(campaign)
    entry_undo(entry=rally, reason="Sage was elsewhere", actor=cast.gm)
    squad.refresh_from_db()
    assert squad.morale_hits == 2 and squad.pk not in rallied_today(campaign)


def test_a_fight_the_clock_a_move_and_a_raising_have_no_undo_of_their_own(
    campaign, make_unit, cast
):
    unit = make_unit("Sappers")
    created = unit.history.get()
    outcome_apply(campaign=campaign, outcomes={unit.pk: UnitOutcome(0, 0)}, reason="Hill 12")
    fought = unit.history.get(kind=Kind.BATTLE)
    refusals = {}
    for entry in (created, fought):
        with pytest.raises(ValidationError) as refused:
            entry_undo(entry=entry, reason="r", actor=cast.gm)
        refusals[entry.kind] = refused.value.message_dict["entry"]
    assert refusals == {
        Kind.CREATED: ["a Raised entry has no Undo: correct the unit instead"],
        Kind.BATTLE: ["a fight is undone by reverting it, on its own page"],
    }
    other = force_create(campaign=campaign, owner=cast.rival, name="Blue Battalion")
    moved = unit_move(unit=unit, force=other, reason="detached", actor=cast.gm)
    with pytest.raises(ValidationError, match="undone by moving the unit back"):
        entry_undo(entry=moved, reason="r", actor=cast.gm)
    unit_edit(unit=unit, changes={"morale_hits": 2, "status": "ready"}, reason="r", actor=cast.gm)
    calendar_advance(campaign=campaign, actor=cast.gm)
    rested = unit.history.order_by("pk").last()
    assert rested.kind == Kind.RECOVERY
    with pytest.raises(ValidationError, match="came with the clock, which does not go back"):
        entry_undo(entry=rested, reason="r", actor=cast.gm)
    unit.refresh_from_db()
    assert undo_offered(unit=unit) is None
