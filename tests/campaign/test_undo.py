"""A unit's Undo: the GM takes back its latest change that came from no fight (a correction,
the medics' work, a training, a Strategist's rally, a move to another force, a change of
combat zone, a change of leader), exactly, as one revert entry."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from campaign.models import Campaign, HistoryEntry, Leader
from campaign.pages.medics import medics_left
from campaign.rules.damage import UnitOutcome
from campaign.selectors.entries import entries_undone
from campaign.selectors.reviews import undo_offered
from campaign.services import (
    calendar_advance,
    campaign_update,
    entry_undo,
    leader_attach,
    leader_detach,
    medical_apply,
    outcome_apply,
    unit_combat_zone_set,
    unit_edit,
    unit_move,
    unit_train,
)
from campaign.services.battles import campaign_battle_record
from campaign.services.characters import (
    character_create,
    character_heal,
    character_rally,
    rallied_today,
)
from campaign.services.reverts import revert_plan
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
    assert medics_left({force.pk}) == {force.pk: 0}
    undo = entry_undo(entry=save, reason="no crew went", actor=cast.gm)
    mech.refresh_from_db()
    assert mech.state.to_json() == was and mech.casualty_hits == 2
    assert undo.text.startswith("no crew went: the medics' work of day 1 is undone")
    assert medics_left({force.pk}) == {force.pk: 2}  # the crews may save them again today


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


def test_a_fight_the_clock_a_raising_a_heal_and_an_old_move_have_no_undo_of_their_own(
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
        Kind.CREATED: [
            "a unit raised by mistake is struck off its force's roster instead, while it has "
            "done nothing in the story"
        ],
        Kind.BATTLE: ["a fight is undone by reverting it, on its own page"],
    }
    other = force_create(campaign=campaign, owner=cast.rival, name="Blue Battalion")
    moved = unit_move(unit=unit, force=other, reason="detached", actor=cast.gm)
    # A move saved before it kept the forces it left and joined: nothing says where back is.
    HistoryEntry.objects.filter(pk=moved.pk).update(details={})
    moved.refresh_from_db()
    with pytest.raises(ValidationError, match="undone by moving the unit back"):
        entry_undo(entry=moved, reason="r", actor=cast.gm)
    unit.refresh_from_db()
    unit_edit(unit=unit, changes={"morale_hits": 2, "status": "ready"}, reason="r", actor=cast.gm)
    calendar_advance(campaign=campaign, actor=cast.gm)
    rested = unit.history.order_by("pk").last()
    assert rested.kind == Kind.RECOVERY
    with pytest.raises(ValidationError, match="came with the clock, which does not go back"):
        entry_undo(entry=rested, reason="r", actor=cast.gm)
    unit.refresh_from_db()
    assert undo_offered(unit=unit) is None
    holt = character_create(campaign=campaign, name="Capt. Holt", hit_points=14)
    leader_attach(unit=unit, character=holt, actor=cast.gm)
    holt.refresh_from_db()
    holt.hit_points = 5
    holt.save()
    character_heal(character=holt, hit_points=4, actor=cast.gm)
    healed = unit.history.order_by("pk").last()
    with pytest.raises(ValidationError) as refused:
        entry_undo(entry=healed, reason="r", actor=cast.gm)
    assert refused.value.message_dict["entry"] == [
        "a heal of its leader is the character's own, in their history too: correct the unit "
        "instead"
    ]


def test_an_undone_change_of_combat_zone_puts_the_unit_back_where_it_was(make_unit, cast):
    unit = make_unit("Sappers")
    was = unit.state.to_json()
    sent = unit_combat_zone_set(unit=unit, in_combat_zone=True, actor=cast.player)
    assert undo_offered(unit=unit) == sent
    undo = entry_undo(entry=sent, reason="sent by mistake", actor=cast.gm)
    unit.refresh_from_db()
    assert unit.state.to_json() == was and not unit.in_combat_zone
    assert undo.text.startswith("sent by mistake: the deployment of day 1 is undone")
    # Something after it was built on it: undo that first.
    sent = unit_combat_zone_set(unit=unit, in_combat_zone=True, actor=cast.player)
    unit_edit(unit=unit, changes={"morale_hits": 1}, reason="shelled", actor=cast.gm)
    with pytest.raises(ValidationError) as refused:
        entry_undo(entry=sent, reason="r", actor=cast.gm)
    assert refused.value.message_dict["entry"] == [
        "Sappers has changed since (GM correction on day 1): undo that first"
    ]
    unit.refresh_from_db()
    assert unit.in_combat_zone and unit.morale_hits == 1


def test_a_change_of_combat_zone_is_not_undone_while_the_unit_awaits_a_battles_outcome(
    campaign, make_unit, enemy, cast
):
    # Withdrawn by the Undo, the battle's outcome would put it back without a word, as a
    # withdrawal then would: it stays where it went in, and nothing is written.
    campaign_update(campaign=campaign, apply_mode=Campaign.ApplyMode.REVIEW)
    unit = make_unit("Sappers")
    foe = make_unit("Foe", into=enemy)
    sent = unit_combat_zone_set(unit=unit, in_combat_zone=True, actor=cast.gm)
    untouched = {"hits_lost": 0, "skill_lost": 0, "removed": "none"}
    campaign_battle_record(
        campaign=campaign, name="Pending", sides={"x": [unit], "y": [foe]}, winner="y",
        outcomes={unit.pk: untouched, foe.pk: untouched},
    )  # fmt: skip
    entries = HistoryEntry.objects.count()
    with pytest.raises(ValidationError) as refused:
        entry_undo(entry=sent, reason="r", actor=cast.gm)
    assert refused.value.message_dict[f"entries.{sent.pk}"] == [
        "Sappers is still in Pending, whose outcome is not applied yet"
    ]
    assert HistoryEntry.objects.count() == entries
    unit.refresh_from_db()
    assert unit.in_combat_zone


def test_an_undone_new_leader_leaves_the_unit_as_it_was_and_the_character_free(
    campaign, make_unit, cast
):
    squad = make_unit("Sappers")
    was = squad.state.to_json()
    holt = character_create(campaign=campaign, name="Capt. Holt", hit_points=14)
    took = leader_attach(unit=squad, character=holt, actor=cast.gm)
    attached = squad.history.order_by("pk").last()
    assert took.character == holt and undo_offered(unit=squad) == attached
    undo = entry_undo(entry=attached, reason="the wrong squad", actor=cast.gm)
    squad.refresh_from_db()
    assert squad.state.to_json() == was and not Leader.objects.filter(unit=squad).exists()
    assert undo.text.startswith("the wrong squad: the change of leader of day 1 is undone")
    # Free to lead another unit, as if the wrong squad had never had them.
    assert leader_attach(unit=make_unit("Miners"), character=holt).character == holt


def test_an_undone_leaving_puts_the_same_character_back_unless_they_lead_another_unit(
    campaign, make_unit, cast
):
    squad = make_unit("Sappers")
    holt = character_create(campaign=campaign, name="Capt. Holt", hit_points=14)
    leader_attach(unit=squad, character=holt, actor=cast.gm)
    squad.refresh_from_db()
    was = squad.state.to_json()
    left = leader_detach(unit=squad, reason="called to HQ", actor=cast.gm)
    entry_undo(entry=left, reason="HQ changed its mind", actor=cast.gm)
    squad.refresh_from_db()
    assert squad.state.to_json() == was and squad.leader.character == holt
    # Leading another unit since, the character is not put back: nothing is written.
    left = leader_detach(unit=squad, reason="called to HQ", actor=cast.gm)
    leader_attach(unit=make_unit("Miners"), character=holt, actor=cast.gm)
    entries = HistoryEntry.objects.count()
    with pytest.raises(ValidationError) as refused:
        entry_undo(entry=left, reason="again", actor=cast.gm)
    assert refused.value.message_dict[f"entries.{left.pk}"] == [
        "Capt. Holt leads Miners (Red Company) now: detach them on Miners' page first"
    ]
    assert HistoryEntry.objects.count() == entries and not Leader.objects.filter(unit=squad)


def test_an_undone_move_takes_the_unit_back_to_the_force_it_left(
    campaign, force, enemy, make_unit, cast
):
    unit = make_unit("Sappers")
    was = unit.state.to_json()
    moved = unit_move(unit=unit, force=enemy, reason="detached", actor=cast.gm)
    assert moved.details == {"moved": {"from": force.pk, "to": enemy.pk}}
    assert undo_offered(unit=unit) == moved
    undo = entry_undo(entry=moved, reason="the wrong squad", actor=cast.gm)
    unit.refresh_from_db()
    assert unit.force == force and unit.state.to_json() == was
    assert undo.text.startswith("the wrong squad: the move between forces of day 1 is undone")
    assert entries_undone(entries=[moved]) == {moved.pk}
    # Something after it was built on it (Blue's medics, a correction): undo that first.
    moved = unit_move(unit=unit, force=enemy, reason="detached", actor=cast.gm)
    unit_edit(unit=unit, changes={"morale_hits": 1}, reason="shelled", actor=cast.gm)
    with pytest.raises(ValidationError, match=r"has changed since \(GM correction on day 1\)"):
        entry_undo(entry=moved, reason="r", actor=cast.gm)


def test_a_move_is_not_undone_into_a_force_holding_a_unit_of_its_name(
    campaign, force, enemy, make_unit, cast
):
    unit = make_unit("Sappers")
    moved = unit_move(unit=unit, force=enemy, reason="detached", actor=cast.gm)
    make_unit("Sappers")  # raised in Red Company since
    entries = HistoryEntry.objects.count()
    with pytest.raises(ValidationError) as refused:
        entry_undo(entry=moved, reason="r", actor=cast.gm)
    said = "Red Company already has a unit called “Sappers”: rename one of them first"
    assert refused.value.message_dict[f"entries.{moved.pk}"] == [said]
    assert HistoryEntry.objects.count() == entries
    unit.refresh_from_db()
    assert unit.force == enemy
    # A move there is refused the same way, in words, not by the database.
    with pytest.raises(ValidationError) as refused:
        unit_move(unit=unit, force=force, reason="back", actor=cast.gm)
    assert refused.value.message_dict["force"] == [said]


def test_the_undo_is_judged_before_it_writes_by_the_plan_a_page_reads(
    campaign, force, enemy, make_unit, cast
):
    unit = make_unit("Sappers")
    moved = unit_move(unit=unit, force=enemy, reason="detached", actor=cast.gm)
    plan = revert_plan(entries=[moved])
    assert plan.problems == {} and plan.moved_back == {moved.pk: force}
    make_unit("Sappers")  # raised in Red Company since
    entries = HistoryEntry.objects.count()
    said = "Red Company already has a unit called “Sappers”: rename one of them first"
    assert revert_plan(entries=[moved]).problems == {f"entries.{moved.pk}": [said]}
    assert HistoryEntry.objects.count() == entries
    with pytest.raises(ValidationError) as refused:
        entry_undo(entry=moved, reason="r", actor=cast.gm)
    assert refused.value.message_dict == {f"entries.{moved.pk}": [said]}
    assert HistoryEntry.objects.count() == entries


def test_an_entry_without_an_undo_says_why_in_words_and_the_rest_have_one():
    from campaign.selectors.reviews import undo_refused

    def said(kind: str, details: dict | None = None, after: dict | None = None) -> str:
        entry = HistoryEntry(kind=kind, details=details or {}, after={"morale_hits": 0})
        if after is not None:
            entry.after = after
        return undo_refused(entry)

    kind = HistoryEntry.Kind
    assert {k: said(k) for k in (kind.BATTLE, kind.ENGAGEMENT, kind.EXPERIENCE)} == dict.fromkeys(
        (kind.BATTLE, kind.ENGAGEMENT, kind.EXPERIENCE),
        "a fight is undone by reverting it, on its own page",
    )
    assert said(kind.RECOVERY) == (
        "a day of R&R came with the clock, which does not go back: correct the unit instead"
    )
    assert said(kind.RECOVERY, {"rallied_by": 3}) == ""  # a Strategist's rally is undone
    assert said(kind.LEADER, {"healed": 4}) == (
        "a heal of its leader is the character's own, in their history too: correct the unit "
        "instead"
    )
    assert said(kind.SKILL_CHECK) == "a Skill check entry has no Undo: correct the unit instead"
    assert (
        said(kind.GM_EDIT, after={}) == "a move to another force is undone by moving the unit back"
    )
    assert said(kind.GM_EDIT, {"moved": {"from": 1, "to": 2}}, after={}) == ""
    assert [said(k) for k in (kind.MEDICAL, kind.TRAINING, kind.DEPLOYMENT, kind.LEADER)] == [
        ""
    ] * 4
