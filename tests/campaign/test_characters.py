"""Characters: the feats that lead units (chosen effects), joining a unit, wounds and death,
a Strategist's rally, and training tied to a real trainer."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from campaign.models import Character, HistoryEntry, Leader, Unit
from campaign.rules.characters import FEAT_TABLE, Feat, RallyError, feat_sum, rally
from campaign.rules.recovery import rest_day
from campaign.rules.state import Status
from campaign.services import leader_attach, leader_detach, unit_train
from campaign.services.characters import character_create, character_rally
from campaign.services.engagements import engagement_revert, engagement_run
from tests.campaign.helpers import unit_state

pytestmark = pytest.mark.django_db


def test_it_chose_what_each_feat_does_in_unit_contests():
    table = {f.value: (r.combat, r.skill, r.outnumbered_relief, r.surprise, r.trains, r.rallies,
                       r.order_hours_saved) for f, r in FEAT_TABLE.items()}  # fmt: skip
    assert table == {
        "leadership": (1, 1, 0, 0, False, False, 0),
        "squad_tactics": (1, 0, 2, 0, False, False, 0),
        "special_forces": (0, 1, 0, 2, True, False, 0),
        "strategist": (0, 0, 0, 0, True, True, 1),
    }
    assert feat_sum({Feat.LEADERSHIP, Feat.SQUAD_TACTICS}, "combat") == 2  # feats stack


def test_a_strategist_heals_morale_hits_never_casualty_hits_nor_the_last_under_stress():
    assert rally(unit_state(morale_hits=2, casualty_hits=1)).morale_hits == 1
    assert rally(unit_state(morale_hits=2, casualty_hits=1)).casualty_hits == 1
    # Said of the unit as "it": whoever shows it has named the unit already.
    with pytest.raises(RallyError) as refused:
        rally(unit_state(casualty_hits=1))
    assert str(refused.value) == "it has no Morale hits; Casualty hits are the medics' work"
    with pytest.raises(RallyError) as refused:
        rally(unit_state(morale_hits=1, in_combat_zone=True))
    # R&R in the combat zone keeps the last Morale hit too: the refusal says where it heals.
    assert str(refused.value) == (
        "it is in the combat zone: its last Morale hit heals only by R&R out of it"
    )
    assert rest_day(unit_state(morale_hits=1, in_combat_zone=True)).morale_hits == 1
    assert rally(unit_state(morale_hits=2, in_combat_zone=True)).morale_hits == 1


def test_a_strategist_rallies_no_destroyed_unit_and_says_so():
    """A unit reduced below Raw by a Casualty hit "is destroyed utterly" (bucs.md, "Damage,
    morale and casualties"): no Morale hit of it heals, out of the combat zone too, and the
    refusal says it is destroyed, not that it is in the combat zone."""
    destroyed = unit_state(morale_hits=2, status=Status.DESTROYED, in_combat_zone=False)
    with pytest.raises(RallyError) as refused:
        rally(destroyed)
    assert str(refused.value) == "it is destroyed"


def test_a_character_belongs_to_the_campaign_and_may_be_played_by_a_member(campaign, cast):
    holt = character_create(campaign=campaign, name="Capt. Holt", hit_points=14,
                            feats=["strategist", "leadership"], player=cast.player)  # fmt: skip
    assert holt.feats == ["leadership", "strategist"] and holt.player == cast.player
    with pytest.raises(ValidationError) as error:
        character_create(campaign=campaign, name="Capt. Holt", hit_points=0, feats=["luck"],
                         player=cast.outsider)  # fmt: skip
    assert set(error.value.message_dict) == {"name", "hit_points", "feats", "player"}
    assert Character.objects.count() == 1


def test_a_character_joins_a_unit_through_the_one_leader_service(campaign, make_unit):
    holt = character_create(campaign=campaign, name="Capt. Holt", hit_points=14)
    squad = make_unit()
    leader = leader_attach(unit=squad, character=holt)
    assert (leader.name, leader.hit_points, leader.character) == ("Capt. Holt", 14, holt)
    entry = squad.history.last()
    assert entry.kind == "leader"
    assert entry.details == {"character": holt.pk, "leader_most_hit_points": 14}
    with pytest.raises(ValidationError) as refused:
        leader_attach(unit=make_unit("2nd Squad"), character=holt)
    assert refused.value.message_dict["character"] == [
        f"Capt. Holt leads {squad.name} ({squad.force.name}) already: a character leads one "
        f"unit at a time; detach them on {squad.name}'s page first"
    ]
    leader_detach(unit=squad)
    assert not Leader.objects.exists()
    # The existing call still works: a leader who is no campaign character.
    assert leader_attach(unit=squad, name="Sgt. Kay", hit_points=9).character is None


def test_a_character_renamed_by_a_plain_save_is_its_leaders_name_everywhere_after(
    campaign, make_unit
):
    from campaign.services import outcome_revert

    holt = character_create(campaign=campaign, name="Capt. Holt", hit_points=14)
    squad = make_unit()
    leader_attach(unit=squad, character=holt)
    version = Unit.objects.get(pk=squad.pk).version
    holt.name = "Maj. Holt"
    holt.save()  # the shell's or the admin's save, not the site's form
    squad = Unit.objects.get(pk=squad.pk)
    assert squad.leader.name == squad.state.leader.name == "Maj. Holt"
    assert squad.version != version  # the cached pages that name the leader are drawn again
    detached = leader_detach(unit=squad)
    assert "Maj. Holt leaves the unit" in detached.text
    # A revert writes back the state from before the rename: the leader keeps the new name.
    holt.name = "Col. Holt"
    holt.save()
    outcome_revert(entries=[detached], reason="HQ changed its mind")
    assert Leader.objects.get(unit=squad).name == "Col. Holt"


def test_a_rename_is_no_change_to_undo_before_a_revert_of_what_befell_its_leader(
    campaign, make_unit
):
    from campaign.services import outcome_revert, unit_edit

    holt = character_create(campaign=campaign, name="Capt. Holt", hit_points=14)
    squad = make_unit()
    leader_attach(unit=squad, character=holt)
    shot = unit_edit(unit=squad, changes={"leader_hit_points": 4}, reason="shot")
    holt.name = "Maj. Holt"
    holt.save()
    outcome_revert(entries=[shot], reason="wrong squad")
    leader = Leader.objects.get(unit=squad)
    assert (leader.name, leader.hit_points) == ("Maj. Holt", 14)
    # A leader changed since by an entry of its own is a change to undo first.
    shot = unit_edit(unit=squad, changes={"leader_hit_points": 4}, reason="shot")
    healed = unit_edit(unit=squad, changes={"leader_hit_points": 9}, reason="patched up")
    with pytest.raises(ValidationError, match="has changed since: undo that first"):
        outcome_revert(entries=[shot], reason="wrong squad")
    outcome_revert(entries=[healed], reason="not yet")


def test_reverting_a_leader_detach_puts_the_same_character_back_at_the_head(campaign, make_unit):
    from campaign.services import outcome_revert

    holt = character_create(campaign=campaign, name="Capt. Holt", hit_points=14)
    squad = make_unit()
    leader_attach(unit=squad, character=holt)
    detached = leader_detach(unit=squad, reason="called to HQ")
    assert detached.details == {"character": holt.pk}
    outcome_revert(entries=[detached], reason="HQ changed its mind")
    leader = Leader.objects.get(unit=squad)
    assert (leader.name, leader.character) == ("Capt. Holt", holt)
    # A character who leads another unit meanwhile is not put back, and nothing is written.
    detached = leader_detach(unit=squad)
    leader_attach(unit=make_unit("2nd Squad"), character=holt)
    entries = HistoryEntry.objects.count()
    led = r"Capt\. Holt leads 2nd Squad \(Red Company\) now: detach them on 2nd Squad's page first"
    with pytest.raises(ValidationError, match=led):
        outcome_revert(entries=[detached], reason="again")
    assert HistoryEntry.objects.count() == entries and not Leader.objects.filter(unit=squad)


def test_a_character_who_survives_its_units_destruction_leads_another_and_is_never_at_two(
    campaign, make_unit
):
    from campaign.rules.damage import UnitOutcome
    from campaign.services import outcome_apply, outcome_revert
    from campaign.services.orders import clock_move

    holt = character_create(campaign=campaign, name="Sgt. Holt", hit_points=20)
    doomed = make_unit("Doomed", quality="raw", specialties=())
    leader_attach(unit=doomed, character=holt)
    # Taken out at the ford: Holt takes 16 damage, the unit 1 Casualty hit the medics never
    # reach; a Raw unit has no step to lose, so its dead destroy it.
    outcome_apply(campaign=campaign, outcomes={doomed.pk: UnitOutcome(1, 0, "destroyed")},
                  reason="Ford")  # fmt: skip
    passed = clock_move(campaign=campaign, hours=25, reason="no medics")[1]
    (destroyed,) = [e for e in passed if e.after.get("status") == "destroyed"]
    assert Unit.objects.get(pk=doomed.pk).status == "destroyed"
    assert Character.objects.get(pk=holt.pk).hit_points == 4
    fresh = make_unit("Fresh")
    leader_attach(unit=fresh, character=holt)
    led = Leader.objects.get(character=holt)
    assert (led.unit, led.hit_points) == (fresh, 4)
    # The destroyed unit's history keeps who led it; it has no one at its head now.
    left = HistoryEntry.objects.filter(unit=doomed).latest("pk")
    assert left.text == (
        "Sgt. Holt survived its destruction and leaves it to lead Fresh; "
        "leader Sgt. Holt (4 hit points) → none"
    )
    assert left.details == {"character": holt.pk}
    assert not Leader.objects.filter(unit=doomed).exists()
    # Undoing its leaving would put Holt at the head of two units: refused, nothing written.
    entries = HistoryEntry.objects.count()
    with pytest.raises(ValidationError) as refused:
        outcome_revert(entries=[left], reason="he stayed")
    assert refused.value.message_dict == {
        f"entries.{left.pk}": [
            "Sgt. Holt leads Fresh (Red Company) now: detach them on Fresh's page first"
        ]
    }
    assert HistoryEntry.objects.count() == entries
    # Undoing the destruction gives its Casualty hit back past its 24 hours, so it dies again
    # at once (docs/campaign.md §1.4); whatever the unit, he leads Fresh alone.
    (_, died) = outcome_revert(entries=[destroyed], reason="counted again")
    assert died.after["status"] == Unit.objects.get(pk=doomed.pk).status == "destroyed"
    assert list(Leader.objects.filter(character=holt).values_list("unit", flat=True)) == [fresh.pk]
    assert not Leader.objects.filter(unit=doomed).exists()
    # Once he leads no other unit, undoing his leaving puts him back at its head.
    leader_detach(unit=fresh)
    outcome_revert(entries=[left], reason="he stayed")
    back = Leader.objects.get(unit=doomed)
    assert (back.character, back.hit_points, back.alive) == (holt, 4, True)


def test_a_characters_wounds_in_a_fight_are_its_own_and_it_can_die(campaign, make_unit, enemy):
    holt = character_create(campaign=campaign, name="Capt. Holt", hit_points=3)
    squad = make_unit()
    leader_attach(unit=squad, character=holt)
    foe = make_unit("Foe", into=enemy, quality="legendary")
    record = engagement_run(
        campaign=campaign, sides={"attackers": [squad], "defenders": [foe]}, round_limit=10, seed=4
    )
    holt.refresh_from_db()
    assert not holt.alive and holt.hit_points <= -10
    died = [e for e in record.events if e["event"] == "leader_died"]
    assert died and died[0]["unit"] == str(squad.pk)
    squad.refresh_from_db()
    assert squad.leader.hit_points == holt.hit_points and not squad.leader.alive
    # Reverting the engagement brings the character back with the unit's leader.
    engagement_revert(engagement=record, reason="the GM rules it did not happen")
    holt.refresh_from_db()
    assert holt.alive and holt.hit_points == 3


def test_a_new_leader_in_place_of_a_dead_character_leaves_the_dead_dead_and_reverts_exactly(
    campaign, make_unit
):
    from campaign.rules.damage import UnitOutcome
    from campaign.selectors.entries import unit_history_explains
    from campaign.services import outcome_apply, outcome_revert

    hero = character_create(campaign=campaign, name="Capt. Hero", hit_points=3)
    second = character_create(campaign=campaign, name="Lt. Second", hit_points=15)
    mech = make_unit("Atlas", "Mech", quality="elite", specialties=("mechanized",))
    leader_attach(unit=mech, character=hero)
    # One Hit of the 4-Hit Mech lost: its d6 rolled 4, one BUCS hit; a 5 makes it Casualty;
    # the leader's 3d6 roll 5, 6 and 5: 3 − 16 = −13 hit points, dead.
    outcome_apply(campaign=campaign, outcomes={mech.pk: UnitOutcome(1, 0)}, reason="Ford", seed=5)

    def people():
        rows = Leader.objects.filter(unit=mech).values_list(
            "name", "hit_points", "alive", "character"
        )
        characters = Character.objects.order_by("name").values_list("name", "hit_points", "alive")
        return list(rows), list(characters)

    fallen = people()
    assert fallen == (
        [("Capt. Hero", -13, False, hero.pk)],
        [("Capt. Hero", -13, False), ("Lt. Second", 15, True)],
    )
    for new, row, details in (
        ({"name": "Sgt. New", "hit_points": 12}, ("Sgt. New", 12, True, None), {}),
        (
            {"character": second},
            ("Lt. Second", 15, True, second.pk),
            {"character": second.pk, "leader_most_hit_points": 15},
        ),
    ):
        leader_attach(unit=mech, **new)
        entry = mech.history.last()
        # The dead stays dead with the hit points he died with; the new leader has its own.
        assert people() == ([row], fallen[1])
        assert entry.details == {**details, "replaced": hero.pk}
        # The unit's history keeps who led it and fell.
        assert f"leader Capt. Hero (dead) → {row[0]} ({row[1]} hit points)" in entry.text
        assert "13 hit points" not in entry.text
        outcome_revert(entries=[entry], reason="the GM takes it back")
        assert people() == fallen  # the dead back at its head, the new leader as it was
        assert unit_history_explains(unit=Unit.objects.get(pk=mech.pk))


def test_training_is_given_by_a_special_forces_or_strategist_character(campaign, make_unit):
    squad = make_unit(quality="green")
    brute = character_create(campaign=campaign, name="Brute", hit_points=10, feats=["leadership"])
    with pytest.raises(ValidationError, match="neither Special Forces nor a Strategist"):
        unit_train(unit=squad, character=brute)
    vey = character_create(campaign=campaign, name="Lt. Vey", hit_points=10,
                           feats=["special_forces"])  # fmt: skip
    entry = unit_train(unit=squad, character=vey)
    squad.refresh_from_db()
    assert squad.quality == 2 and entry.details == {"trainer": "Lt. Vey", "character": vey.pk}
    assert "trained by Lt. Vey" in entry.text


def test_a_players_character_trains_no_other_players_unit(campaign, make_unit, enemy, cast):
    medics = make_unit("Medics", into=enemy, quality="green")  # the rival's
    kane = character_create(campaign=campaign, name="Sgt. Kane", hit_points=10,
                            feats=["special_forces"], player=cast.player)  # fmt: skip
    entries = HistoryEntry.objects.count()
    with pytest.raises(ValidationError) as error:
        unit_train(unit=medics, character=kane, actor=cast.gm)
    assert error.value.message_dict == {
        "character": ["Sgt. Kane is player's character: they train the units of player's "
                      "forces and the unit they lead, not Medics of Blue Battalion"]
    }  # fmt: skip
    medics.refresh_from_db()
    assert medics.quality == 1 and HistoryEntry.objects.count() == entries
    # The player's own units, and an NPC any unit, as before.
    assert unit_train(unit=make_unit(quality="green"), character=kane).kind == "training"
    vey = character_create(campaign=campaign, name="Lt. Vey", hit_points=10,
                           feats=["special_forces"])  # fmt: skip
    assert unit_train(unit=medics, character=vey).kind == "training"


def test_a_players_strategist_rallies_no_other_players_unit(campaign, make_unit, enemy, cast):
    from campaign.services import unit_edit

    theirs = make_unit("Pickets", into=enemy)  # the rival's
    unit_edit(unit=theirs, changes={"morale_hits": 2}, reason="shaken")
    sage = character_create(campaign=campaign, name="Col. Sage", hit_points=10,
                            feats=["strategist"], player=cast.player)  # fmt: skip
    entries = HistoryEntry.objects.count()
    with pytest.raises(ValidationError) as error:
        character_rally(character=sage, unit=theirs, actor=cast.gm)
    assert error.value.message_dict == {
        "character": ["Col. Sage is player's character: they heal the units of player's "
                      "forces and the unit they lead, not Pickets of Blue Battalion"]
    }  # fmt: skip
    theirs.refresh_from_db()
    assert theirs.morale_hits == 2 and HistoryEntry.objects.count() == entries
    # An NPC Strategist rallies any unit, as the GM's.
    vey = character_create(campaign=campaign, name="Gen. Vey", hit_points=10,
                           feats=["strategist"])  # fmt: skip
    assert character_rally(character=vey, unit=theirs).kind == HistoryEntry.Kind.RECOVERY


def test_the_rally_service_heals_one_morale_hit_a_day(campaign, make_unit):
    from campaign.services import unit_edit

    squad = make_unit()
    unit_edit(unit=squad, changes={"morale_hits": 2}, reason="shaken")
    sage = character_create(campaign=campaign, name="Col. Sage", hit_points=10,
                            feats=["strategist"])  # fmt: skip
    entry = character_rally(character=sage, unit=squad)
    squad.refresh_from_db()
    assert squad.morale_hits == 1 and entry.kind == HistoryEntry.Kind.RECOVERY
    assert entry.text.startswith("a Morale hit healed by Col. Sage (Strategist)")
    with pytest.raises(ValidationError, match="healed one of its Morale hits today already"):
        character_rally(character=sage, unit=squad)
    holt = character_create(campaign=campaign, name="Holt", hit_points=10)
    with pytest.raises(ValidationError, match="not a Strategist"):
        character_rally(character=holt, unit=squad)


@pytest.mark.django_db(transaction=True)
def test_a_rally_reads_the_days_rallies_and_writes_in_one_transaction(
    campaign, make_unit, monkeypatch
):
    """The unit is locked, the day's rallies read and the Morale hit healed in one transaction,
    so two rallies of one unit at once cannot both find it unrallied today."""
    from django.db import transaction

    from campaign.services import characters, unit_edit

    squad = make_unit()
    unit_edit(unit=squad, changes={"morale_hits": 2}, reason="shaken")
    sage = character_create(campaign=campaign, name="Col. Sage", hit_points=10,
                            feats=["strategist"])  # fmt: skip
    written = characters.unit_change
    inside = []

    def change(**kwargs):
        inside.append(transaction.get_connection().in_atomic_block)
        return written(**kwargs)

    monkeypatch.setattr(characters, "unit_change", change)
    character_rally(character=sage, unit=squad)
    squad.refresh_from_db()
    assert squad.morale_hits == 1 and inside == [True]


def test_a_rally_reverted_since_was_never_made_and_leaves_the_days_rally(campaign, make_unit):
    from campaign.services import outcome_revert, unit_edit

    squad = make_unit()
    unit_edit(unit=squad, changes={"morale_hits": 3}, reason="shelled")
    sun = character_create(campaign=campaign, name="Gen. Sun", hit_points=10,
                           feats=["strategist"])  # fmt: skip
    outcome_revert(entries=[character_rally(character=sun, unit=squad)], reason="wrong squad")
    squad.refresh_from_db()
    assert squad.morale_hits == 3
    entry = character_rally(character=sun, unit=squad)  # the reverted one was never made
    squad.refresh_from_db()
    assert squad.morale_hits == 2 and entry.details == {"rallied_by": sun.pk}
    before = HistoryEntry.objects.count()
    with pytest.raises(ValidationError) as refused:
        character_rally(character=sun, unit=squad)  # this one stands
    assert refused.value.message_dict == {
        "unit": [
            f"{squad.name} cannot have a Morale hit healed: a Strategist healed one of its "
            "Morale hits today already"
        ]
    }
    squad.refresh_from_db()
    assert squad.morale_hits == 2 and HistoryEntry.objects.count() == before


def test_a_rally_the_rule_refuses_names_the_unit_once(campaign, make_unit):
    """The service names the unit and the rule says why of it: "Squad cannot have a Morale hit
    healed: it has no Morale hits; …", not the unit's name twice."""
    squad = make_unit()
    sun = character_create(campaign=campaign, name="Gen. Sun", hit_points=10,
                           feats=["strategist"])  # fmt: skip
    with pytest.raises(ValidationError) as refused:
        character_rally(character=sun, unit=squad)
    assert refused.value.message_dict == {
        "unit": [
            f"{squad.name} cannot have a Morale hit healed: it has no Morale hits; Casualty hits "
            "are the medics' work"
        ]
    }


def test_the_gm_heals_a_character_by_an_amount_never_above_full_and_never_the_dead(
    campaign, make_unit
):
    from campaign.models import CharacterEntry
    from campaign.pages.history_words import entry_line
    from campaign.services.characters import character_heal

    holt = character_create(campaign=campaign, name="Capt. Holt", hit_points=14)
    squad = make_unit()
    leader_attach(unit=squad, character=holt)
    leader = Leader.objects.get(unit=squad)
    leader.hit_points = 3  # wounded in a fight
    leader.save()
    entry = character_heal(character=holt, hit_points=5, reason="rests a night")
    holt.refresh_from_db()
    assert holt.hit_points == 8 and Leader.objects.get(unit=squad).hit_points == 8
    assert entry.text == "Capt. Holt rests a night: hit points 3 → 8 of 14"
    unit_entry = squad.history.last()
    assert unit_entry.kind == "leader" and unit_entry.details["healed"] == 5
    entry = character_heal(character=holt, hit_points=20)
    holt.refresh_from_db()
    assert holt.hit_points == 14, "never above full hit points"
    # What went past full is said, not silently dropped.
    assert entry.text == (
        "Capt. Holt healed: hit points 8 → 14 of 14"
        " (full: it lacked 6, so 14 of the 20 healed were lost)"
    )
    # Its unit's history names the leader once, and says what went past full as well.
    full = squad.history.last()
    assert entry_line(full, full.after) == (
        "Capt. Holt healed: now at 14 of 14 hit points, up from 8"
        " (full: 14 of the 20 healed were lost)"
    )
    before = (CharacterEntry.objects.count(), HistoryEntry.objects.count())
    with pytest.raises(ValidationError, match="at full hit points already"):
        character_heal(character=holt, hit_points=1)
    with pytest.raises(ValidationError) as refused:
        character_heal(character=holt, hit_points=0)
    assert "hit_points" in refused.value.message_dict
    dead = character_create(campaign=campaign, name="Pvt. Lost", hit_points=5)
    Character.objects.filter(pk=dead.pk).update(hit_points=-10, alive=False)
    with pytest.raises(ValidationError, match="the dead are not healed"):
        character_heal(character=dead, hit_points=5)
    assert (CharacterEntry.objects.count(), HistoryEntry.objects.count()) == before
    dead.refresh_from_db()
    assert dead.hit_points == -10


def test_a_character_who_leads_no_unit_is_healed_in_its_own_record(campaign):
    from campaign.services.characters import character_heal

    ash = character_create(campaign=campaign, name="Lt. Ash", hit_points=10)
    Character.objects.filter(pk=ash.pk).update(hit_points=-4)  # dying, not dead
    entry = character_heal(character=ash, hit_points=6, reason="treated by the medic")
    ash.refresh_from_db()
    assert ash.hit_points == 2 and ash.alive
    assert list(ash.entries.all()) == [entry] and entry.after == {"hit_points": 2}


def test_a_leaders_heal_reads_in_its_units_history_against_full_hit_points_and_whence(
    campaign, make_unit
):
    """A character's heal says, in its unit's history, the hit points it reached out of its
    full ones and where it came from; a leader named with its unit, whose full hit points are
    never recorded, is told where its hit points came from instead."""
    from campaign.models import CharacterEntry
    from campaign.pages.history_words import entry_line
    from campaign.services.characters import character_heal
    from campaign.services.roster import unit_edit

    vance = character_create(campaign=campaign, name="Sgt Vance", hit_points=14)
    squad = make_unit("Squad 1")
    leader_attach(unit=squad, character=vance)
    joined = squad.history.last()
    assert entry_line(joined, joined.after) == "Sgt Vance takes command (14 of 14 hit points)"
    leader = Leader.objects.get(unit=squad)
    leader.hit_points = -3
    leader.save()
    entry = character_heal(character=vance, hit_points=2, reason="is stabilised by the medic")
    assert entry.text == "Sgt Vance is stabilised by the medic: hit points −3 → −1 of 14"
    assert CharacterEntry.objects.get(pk=entry.pk).text == entry.text
    healed = squad.history.last()
    assert entry_line(healed, healed.after) == (
        "Sgt Vance is stabilised by the medic: now at −1 of 14 hit points, dying, up from −3"
    )
    named = make_unit("Squad 2")
    leader_attach(unit=named, name="Capt. Holt", hit_points=3)
    corrected = unit_edit(unit=named, changes={"leader_hit_points": 9}, reason="patched up")
    assert entry_line(corrected, corrected.after) == (
        "GM correction: patched up: Capt. Holt is at 9 hit points, up from 3"
    )


def test_a_leader_is_named_in_the_story_by_what_the_entry_is_not_by_its_reasons_words(
    campaign, make_unit
):
    """A leader's heal names the leader in its reason, so its hit points are said without the
    name again; any other entry names the leader with them, whatever its reason begins with (a
    battle named for a place called as its leader is). A fight or a correction names in its
    reason the leader it killed, so its story says the death no more."""
    from campaign.pages.history_words import entry_line
    from campaign.rules.history import sentence
    from campaign.services.characters import character_heal
    from campaign.services.roster import unit_edit

    vance = {"name": "Vance", "hit_points": 12, "alive": True}
    before, after = {"leader": vance}, {"leader": {**vance, "hit_points": 5}}
    why = "Vance Ridge: 1 Casualty hit"
    ridge = HistoryEntry(
        kind=HistoryEntry.Kind.BATTLE, text=sentence(why, before, after), before=before,
        after=after,
    )  # fmt: skip
    assert entry_line(ridge, ridge.after) == f"{why}: Vance is at 5 hit points, down from 12"
    holt = character_create(campaign=campaign, name="Holt", hit_points=14)
    squad = make_unit()
    leader_attach(unit=squad, character=holt)
    unit_edit(unit=squad, changes={"leader_hit_points": 4}, reason="shot")
    character_heal(character=holt, hit_points=2, reason="is bandaged")
    healed = squad.history.last()
    assert entry_line(healed, healed.after) == (
        "Holt is bandaged: now at 6 of 14 hit points, up from 4"
    )
    killed = unit_edit(unit=squad, changes={"leader_hit_points": -10}, reason="sniper")
    said = entry_line(killed, killed.after)
    assert said.count("Holt died: 2 Morale hits at once") == 1 and "killed" not in said


def test_a_character_has_1_to_999_hit_points_and_is_played_by_a_player_or_co_gm(campaign, cast):
    from campaign.services import membership_set

    membership_set(campaign=campaign, user=cast.outsider, role="spectator")
    with pytest.raises(ValidationError) as refused:
        character_create(campaign=campaign, name="Watcher", hit_points=1000,
                         player=cast.outsider)  # fmt: skip
    assert refused.value.message_dict == {
        "hit_points": ["A new character has 1 to 999 hit points, not 1000."],
        "player": [f"{cast.outsider} is not a player of {campaign}"],
    }
    assert not Character.objects.exists()
    membership_set(campaign=campaign, user=cast.outsider, role="co_gm")
    deputy = character_create(campaign=campaign, name="Deputy", hit_points=999,
                              player=cast.outsider)  # fmt: skip
    assert (deputy.hit_points, deputy.player) == (999, cast.outsider)


def test_a_rally_is_refused_to_a_dead_strategist_and_to_one_of_another_campaign(
    campaign, make_unit, cast
):
    from campaign.services import campaign_create, unit_edit

    squad = make_unit()
    unit_edit(unit=squad, changes={"morale_hits": 2}, reason="shaken")
    elsewhere = campaign_create(name="Op. Elsewhere", gm=cast.gm, ruleset=campaign.ruleset)
    stray = character_create(campaign=elsewhere, name="Gen. Stray", hit_points=10,
                             feats=["strategist"])  # fmt: skip
    fallen = character_create(campaign=campaign, name="Col. Fell", hit_points=10,
                              feats=["strategist"])  # fmt: skip
    Character.objects.filter(pk=fallen.pk).update(hit_points=-10, alive=False)
    entries = HistoryEntry.objects.count()
    for character, why in ((stray, f"Gen. Stray is not of {campaign}"),
                           (fallen, "Col. Fell is dead")):  # fmt: skip
        with pytest.raises(ValidationError) as refused:
            character_rally(character=character, unit=squad)
        assert refused.value.message_dict == {"character": [why]}
    squad.refresh_from_db()
    assert squad.morale_hits == 2 and HistoryEntry.objects.count() == entries


def test_a_strategist_rallies_a_unit_again_the_next_day_and_only_for_those_running_it(
    campaign, make_unit, cast
):
    from django.core.exceptions import PermissionDenied

    from campaign.models import Campaign
    from campaign.services import unit_edit

    squad = make_unit()
    unit_edit(unit=squad, changes={"morale_hits": 3}, reason="shelled")
    sage = character_create(campaign=campaign, name="Col. Sage", hit_points=10,
                            feats=["strategist"])  # fmt: skip
    with pytest.raises(PermissionDenied):
        character_rally(character=sage, unit=squad, actor=cast.player)
    character_rally(character=sage, unit=squad)
    Campaign.objects.filter(pk=campaign.pk).update(day=campaign.day + 1)
    entry = character_rally(character=sage, unit=squad)
    squad.refresh_from_db()
    assert squad.morale_hits == 1 and entry.day == campaign.day + 1
