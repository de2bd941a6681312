"""A GM's correction from a unit's page: written with its reason in the history, undoing nothing
from a form opened before the unit changed, refused in the campaign's words writing nothing, telling
a unit that keeps specialties beyond its quality so on its page, roster and cards; and a leader's
hit points set in the same entry, bounded, and costing the unit 2 Morale hits when the leader
dies."""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import ValidationError

from campaign.models import HistoryEntry, Unit
from campaign.services import leader_attach, unit_create, unit_edit
from campaign.services.characters import character_create
from tests.web.campaign_world import login
from tests.web.pages import as_drawn
from tests.web.test_campaign_actions_calendar import _field_errors, _ready, _url

pytestmark = pytest.mark.django_db


def test_it_corrects_a_unit_with_its_reason_in_the_history(client, world):
    login(client, world, "gm")
    url = _url("unit-edit", world, world.unit.pk)
    unit = Unit.objects.get(pk=world.unit.pk)
    data = {"name": unit.name, "quality": "elite", "equipment": unit.equipment,
            "specialties": unit.specialties, "morale_hits": unit.morale_hits,
            "casualty_hits": unit.casualty_hits, "status": unit.status,
            "experience": unit.experience}  # fmt: skip
    missing = client.post(url, data)
    assert missing.status_code == 400 and _field_errors(missing, "reason")
    response = client.post(url, {**data, "reason": "misfiled roster"})
    assert response.status_code == 302
    entry = Unit.objects.get(pk=unit.pk).history.last()
    assert entry.kind == HistoryEntry.Kind.GM_EDIT and "misfiled roster" in entry.text
    nothing = client.post(url, {**data, "quality": "elite", "reason": "again"})
    assert nothing.status_code == 400 and "Nothing was changed." in nothing.text


def test_a_correction_from_a_form_opened_before_the_unit_changed_undoes_nothing(client, world):
    # A rename sent from a page opened before a battle's hits were written took them away.
    login(client, world, "gm")
    unit = _ready(world, world.unit)
    url = _url("unit-edit", world, unit.pk)
    form = {"name": unit.name, "quality": "average", "equipment": unit.equipment,
            "specialties": unit.specialties, "morale_hits": "0", "casualty_hits": "0",
            "status": unit.status, "experience": unit.experience,
            "drawn": as_drawn(client.get(_url("unit", world, unit.pk)).text)}  # fmt: skip
    # Another tab (a battle, the medics, a co-GM) gives it hits while the form stays open.
    unit_edit(unit=unit, changes={"quality": "average", "morale_hits": 1, "casualty_hits": 1},
              reason="shelled", actor=world.users["gm"])  # fmt: skip
    renamed = client.post(url, {**form, "name": "Red Lions", "reason": "spelling"})
    assert renamed.status_code == 302
    after = Unit.objects.get(pk=unit.pk)
    assert (after.name, after.morale_hits, after.casualty_hits) == ("Red Lions", 1, 1)
    assert "hits" not in after.history.last().text
    # A field changed on both sides is refused beside it, writing nothing, and the form drawn
    # again carries the unit as it stands, so sending it again sets what the GM asked.
    entries = after.history.count()
    clash = client.post(url, {**form, "name": "Red Lions", "morale_hits": "2", "reason": "typo"})
    assert clash.status_code == 400
    assert _field_errors(clash, "morale_hits") == [
        "Since this form was opened, this has become 1: save again to make it 2 all the same."
    ]
    assert Unit.objects.get(pk=unit.pk).morale_hits == 1 and after.history.count() == entries
    again = {**form, "name": "Red Lions", "morale_hits": "2", "reason": "typo"}
    assert client.post(url, {**again, "drawn": as_drawn(clash.text)}).status_code == 302
    assert Unit.objects.get(pk=unit.pk).morale_hits == 2


@pytest.mark.parametrize("field", ["morale_hits", "casualty_hits"])
def test_a_correction_of_more_hits_than_any_unit_carries_is_refused_in_words(client, world, field):
    # It read "Must be 0..99, got 100", beside fields that say "At least 0 Morale hits.".
    login(client, world, "gm")
    unit = Unit.objects.get(pk=world.unit.pk)
    data = {"name": unit.name, "quality": unit.quality, "equipment": unit.equipment,
            "specialties": unit.specialties, "morale_hits": unit.morale_hits,
            "casualty_hits": unit.casualty_hits, "status": unit.status,
            "experience": unit.experience, "reason": "typo"}  # fmt: skip
    for too_many in ("100", str(10**20)):
        refused = client.post(_url("unit-edit", world, unit.pk), {**data, field: too_many})
        assert refused.status_code == 400
        noun = "Morale hits" if field == "morale_hits" else "Casualty hits"
        assert _field_errors(refused, field) == [f"At most 99 {noun}."]
    assert Unit.objects.get(pk=unit.pk).state == unit.state


def test_a_correction_is_refused_in_the_campaigns_words_and_writes_nothing(client, world):
    sappers = unit_create(force=world.force, unit_type=world.unit.unit_type, name="Sappers",
                          quality="inexperienced", specialties=["infantry"])  # fmt: skip
    login(client, world, "gm")
    url = _url("unit-edit", world, sappers.pk)
    data = {"name": "Sappers", "quality": "inexperienced", "equipment": "adequate",
            "specialties": ["infantry"], "morale_hits": "50", "casualty_hits": "99",
            "status": "ready", "experience": "0", "reason": "table report"}  # fmt: skip
    hits = client.post(url, data)
    assert hits.status_code == 400
    assert _field_errors(hits, "casualty_hits") == [
        "Sappers is Inexperienced: it can carry at most 3 hits, Morale and Casualty together "
        "(the last breaks it), and was given 149."
    ]
    data.update(morale_hits="0", casualty_hits="0", quality="raw",
                specialties=["infantry", "medical", "aviation"])  # fmt: skip
    specialties = client.post(url, data)
    assert _field_errors(specialties, "specialties") == [
        "A Raw unit holds no specialties; Sappers may keep the Infantry it holds, but not gain "
        "Aviation and Medical."
    ]
    negative = client.post(url, {**data, "quality": "inexperienced", "morale_hits": "-1"})
    assert _field_errors(negative, "morale_hits") == ["At least 0 Morale hits."]
    # A field left empty is named by its label, not Django's "This field is required."
    blank = client.post(url, {**data, "quality": "inexperienced", "name": " ", "reason": ""})
    assert _field_errors(blank, "name") == ["Fill in “Name”."]
    assert _field_errors(blank, "reason") == ["Fill in “Reason”."]
    added = client.post(_url("unit-add", world, world.force.pk), {"name": ""})
    assert _field_errors(added, "unit_type") == ["Choose one for “Card”."]
    assert _field_errors(added, "name") == ["Fill in “Name”."]
    assert sappers.history.count() == 1  # its creation only
    # Hits that break it retreat it in poor order, as a fight that breaks it does.
    broken = {**data, "quality": "inexperienced", "specialties": ["infantry"], "morale_hits": "3"}
    assert client.post(url, broken).status_code == 302
    assert Unit.objects.get(pk=sappers.pk).status == "retreated"


def test_a_unit_holding_more_specialties_than_its_quality_may_is_corrected_and_told_so(
    client, world
):
    """Aid Post fell to Raw holding Infantry and Medical. Its page says it keeps them but
    gains no new one, and so does its form beside the specialties; renamed from that form, or
    giving one up, it is corrected; given a new one, it is refused beside the field."""
    gm = world.users["gm"]
    unit = unit_create(force=world.force, unit_type=world.unit.unit_type, name="Aid Post",
                       quality="average", specialties=["infantry", "medical"])  # fmt: skip
    unit_edit(unit=unit, changes={"quality": "raw"}, reason="its dead", actor=gm)
    login(client, world, "gm")
    said = (
        "Holds 2 specialties, more than a Raw unit may: it keeps them, but gains no new one "
        "until it is Average."
    )
    page = re.sub(r"\s+", " ", client.get(_url("unit", world, unit.pk)).text)
    assert page.count(said) == 2  # its Specialties line, and its form's specialties
    assert f"{said} Untick one to give it up." in page
    url = _url("unit-edit", world, unit.pk)
    form = {"name": "Aid Post", "quality": "raw", "equipment": "adequate",
            "specialties": ["infantry", "medical"], "morale_hits": "0", "casualty_hits": "0",
            "status": "ready", "experience": "0"}  # fmt: skip
    renamed = client.post(url, {**form, "name": "Aid Station", "reason": "renamed"})
    assert renamed.status_code == 302
    taught = client.post(url, {**form, "specialties": ["infantry", "medical", "aviation"],
                               "name": "Aid Station", "reason": "taught"})  # fmt: skip
    assert _field_errors(taught, "specialties") == [
        "A Raw unit holds no specialties; Aid Station may keep the Infantry and Medical it "
        "holds, but not gain Aviation."
    ]
    gave_up = client.post(url, {**form, "specialties": ["medical"], "name": "Aid Station",
                                "reason": "rifles handed in"})  # fmt: skip
    assert gave_up.status_code == 302
    after = Unit.objects.get(pk=unit.pk)
    assert (after.name, after.specialties) == ("Aid Station", ["medical"])
    page = re.sub(r"\s+", " ", client.get(_url("unit", world, unit.pk)).text)
    assert "Holds 1 specialty, more than a Raw unit may: it keeps it, but gains no new one " \
        "until it is Green." in page  # fmt: skip


def test_the_roster_and_the_cards_say_a_unit_keeps_specialties_beyond_its_quality(client, world):
    """Aid Post fell to Raw holding Infantry and Medical. Its player reads it on the roster, in
    a few words under the specialties, on its printed card, in the sentence its page says, and
    on the force's print sheet, in the roster's words: one rule (`kept_beyond_limit`)."""
    unit = unit_create(force=world.force, unit_type=world.unit.unit_type, name="Aid Post",
                       quality="average", specialties=["infantry", "medical"])  # fmt: skip
    unit_edit(unit=unit, changes={"quality": "raw"}, reason="its dead", actor=world.users["gm"])
    login(client, world, "player")
    short = "2 specialties, more than a Raw unit may hold: kept, no new one until Average"
    roster = re.sub(r"\s+", " ", client.get(_url("force", world, world.force.pk)).text)
    assert roster.count(short) == 1
    card = re.sub(r"\s+", " ", client.get(_url("unit-card", world, unit.pk)).text)
    assert (
        "Infantry, Medical. Holds 2 specialties, more than a Raw unit may: it keeps them, but "
        "gains no new one until it is Average.</td>" in card
    )
    sheet = re.sub(r"\s+", " ", client.get(_url("force-cards", world, world.force.pk)).text)
    assert sheet.count(f"{short}.") == 1


def _led_unit(world, unit_name, **leader):
    """A fresh Average unit of the world's force, with ``leader`` (`leader_attach`'s)."""
    unit = unit_create(force=world.force, unit_type=world.unit.unit_type, name=unit_name,
                       quality="average", specialties=["infantry"])  # fmt: skip
    leader_attach(unit=unit, actor=world.users["gm"], **leader)
    return Unit.objects.get(pk=unit.pk)


def _correction(unit, **changed):
    data = {"name": unit.name, "quality": "average", "equipment": unit.equipment,
            "specialties": unit.specialties, "morale_hits": unit.morale_hits,
            "casualty_hits": unit.casualty_hits, "status": unit.status,
            "experience": unit.experience, "leader_hit_points": unit.leader.hit_points,
            "reason": "shelled at the ford"}  # fmt: skip
    return {**data, **changed}


def test_a_correction_sets_the_leaders_hit_points_in_the_same_entry(client, world):
    kane = character_create(campaign=world.campaign, name="Sgt. Kane", hit_points=18,
                            actor=world.users["gm"])  # fmt: skip
    tiger = _led_unit(world, "Tiger One", character=kane)
    login(client, world, "gm")
    page = client.get(_url("unit", world, tiger.pk)).text
    assert "Sgt. Kane&#x27;s hit points (now 18 of 18 hit points)" in page
    assert "Casualty hits added here do not wound the leader: set their hit points too." in page
    entries = tiger.history.count()
    url = _url("unit-edit", world, tiger.pk)
    done = client.post(url, _correction(tiger, casualty_hits="2", leader_hit_points="9"))
    assert done.status_code == 302
    assert tiger.history.count() == entries + 1  # the hits and the leader, one entry
    entry = tiger.history.last()
    assert entry.after["casualty_hits"] == 2 and entry.after["leader"]["hit_points"] == 9
    assert Unit.objects.get(pk=tiger.pk).leader.hit_points == 9
    kane.refresh_from_db()
    assert (kane.hit_points, kane.alive) == (9, True)
    history = client.get(_url("unit", world, tiger.pk)).text
    assert "GM correction: shelled at the ford" in history
    assert "Sgt. Kane is at 9 of 18 hit points" in history


def test_a_bad_value_for_the_leaders_hit_points_is_refused_with_nothing_changed(client, world):
    kane = character_create(campaign=world.campaign, name="Sgt. Kane", hit_points=18,
                            actor=world.users["gm"])  # fmt: skip
    tiger = _led_unit(world, "Tiger One", character=kane)
    login(client, world, "gm")
    url = _url("unit-edit", world, tiger.pk)
    entries = tiger.history.count()
    above = client.post(url, _correction(tiger, casualty_hits="1", leader_hit_points="19"))
    assert above.status_code == 400
    assert _field_errors(above, "leader_hit_points") == ["At most 18 hit points."]
    half = client.post(url, _correction(tiger, casualty_hits="1", leader_hit_points="4.5"))
    assert _field_errors(half, "leader_hit_points") == ["Enter a whole number."]
    with pytest.raises(ValidationError) as refused:
        unit_edit(unit=tiger, changes={"casualty_hits": 1, "leader_hit_points": 19},
                  reason="typo", actor=world.users["gm"])  # fmt: skip
    assert refused.value.message_dict["leader_hit_points"] == [
        "At most 18, Sgt. Kane's full hit points."
    ]
    after = Unit.objects.get(pk=tiger.pk)
    assert after.state == tiger.state and tiger.history.count() == entries
    kane.refresh_from_db()
    assert kane.hit_points == 18


def test_a_correction_that_kills_the_leader_costs_the_unit_2_morale_hits_at_once(client, world):
    atlas = _led_unit(world, "Atlas", name="Capt. Mara Holt", hit_points=3)
    login(client, world, "gm")
    page = client.get(_url("unit", world, atlas.pk)).text
    assert "Capt. Mara Holt&#x27;s hit points (now 3 hit points)" in page
    url = _url("unit-edit", world, atlas.pk)
    # Average carries 4 hits: 3 Morale hits and the death's 2 would be 5.
    entries = atlas.history.count()
    too_many = client.post(url, _correction(atlas, morale_hits="3", leader_hit_points="-10"))
    assert _field_errors(too_many, "leader_hit_points") == [
        "Capt. Mara Holt's death would cost Atlas 2 Morale hits at once: Atlas is Average: it "
        "can carry at most 4 hits, Morale and Casualty together (the last breaks it), and was "
        "given 5."
    ]
    assert atlas.history.count() == entries
    assert client.post(url, _correction(atlas, leader_hit_points="-10")).status_code == 302
    after = Unit.objects.get(pk=atlas.pk)
    assert (after.leader.hit_points, after.leader.alive, after.morale_hits) == (-10, False, 2)
    entry = after.history.last()
    assert "Capt. Mara Holt died: 2 Morale hits at once" in entry.text
    page = client.get(_url("unit", world, atlas.pk)).text
    assert "Capt. Mara Holt died: 2 Morale hits at once" in page
    assert "Capt. Mara Holt was killed" not in page
    # A dead leader's hit points are no more corrected: the form asks them no more.
    assert "leader_hit_points" not in client.get(_url("unit", world, atlas.pk)).text


def test_the_characters_page_says_where_a_named_leaders_hit_points_are_set(client, world):
    _led_unit(world, "Atlas", name="Capt. Mara Holt", hit_points=3)
    login(client, world, "gm")
    page = client.get(_url("characters", world)).text
    assert "its hit points are set by the GM's “Correct this unit” on the unit's page" in page
