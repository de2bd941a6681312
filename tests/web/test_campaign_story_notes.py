"""The GM's notes in the campaign's story (campaign/services/story.py): written on the
timeline on the campaign's day, read there by everyone in the campaign and told to a returning
member on the dashboard, carried by an export; taken out again by the GMs only."""

from __future__ import annotations

import html
import json
import re
import uuid

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from campaign.models import STORY_TEXT, StoryEntry
from campaign.services import calendar_advance, campaign_import
from campaign.services.story import story_note_add, story_note_remove
from campaign.transfer.export import campaign_export
from tests.web.campaign_world import login

pytestmark = pytest.mark.django_db

BRIDGE = "The bridge at Elm Ford is down; the column waits for the engineers."


def _url(name: str, world, *args) -> str:
    return reverse(f"campaign:{name}", args=[world.campaign.pk, *args])


def _day_lines(page: str, day: int) -> list[str]:
    section = re.search(rf'<h2 id="day-{day}">Day {day}</h2>(.*?)</section>', page, re.S)[1]
    return [html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", li))).strip()
            for li in re.findall(r"<li .*?</li>", section, re.S)]  # fmt: skip


def _notes(world) -> list[tuple[int, str]]:
    notes = StoryEntry.objects.filter(campaign=world.campaign, kind="note").order_by("pk")
    return list(notes.values_list("day", "text"))


def test_the_gm_writes_a_note_that_everyone_reads_on_the_timeline(client, world):
    calendar_advance(campaign=world.campaign, days=2, actor=world.users["gm"])
    login(client, world, "co_gm")
    timeline = client.get(_url("timeline", world)).text
    assert "Write a note in the story" in timeline and "Write it on day 3" in timeline
    sent = {"text": f"  {BRIDGE}  ", "request_key": str(uuid.uuid4())}
    done = client.post(_url("story-note", world), sent, follow=True)
    assert done.redirect_chain == [(_url("timeline", world), 302)]
    assert "The note is in the story, on day 3." in done.text
    client.post(_url("story-note", world), sent)  # sent twice: written once
    assert _notes(world) == [(3, BRIDGE)]
    note = StoryEntry.objects.get(kind="note")
    assert note.actor == world.users["co_gm"]
    for role in ("gm", "player", "rival", "spectator"):
        page = login(client, world, role).get(_url("timeline", world)).text
        lines = _day_lines(page, 3)
        assert f"GM's note {BRIDGE}" in lines[-1], role
        remove = _url("story-note-remove", world, note.pk)
        assert (f'action="{remove}"' in page) == (role == "gm"), role
        assert ("Write a note in the story" in page) == (role == "gm"), role


def test_a_note_is_refused_empty_or_too_long_and_nothing_is_written(client, world):
    login(client, world, "gm")
    empty = client.post(_url("story-note", world), {"text": "   "})
    assert empty.status_code == 400
    assert 'id="id_story_note_text_error">Fill in “A note for the story”.<' in empty.text
    long = client.post(_url("story-note", world), {"text": "x" * (STORY_TEXT + 1)})
    assert long.status_code == 400
    with pytest.raises(ValidationError) as refused:
        story_note_add(campaign=world.campaign, text="x" * (STORY_TEXT + 1),
                       actor=world.users["gm"])  # fmt: skip
    assert refused.value.message_dict == {
        "text": [f"A note takes at most {STORY_TEXT:,} characters, not {STORY_TEXT + 1:,}."]
    }
    with pytest.raises(ValidationError):
        story_note_add(campaign=world.campaign, text=["not text"], actor=world.users["gm"])
    assert _notes(world) == []


def test_only_the_gms_write_or_take_out_a_note(client, world):
    for role in ("player", "spectator"):
        login(client, world, role)
        assert client.post(_url("story-note", world), {"text": BRIDGE}).status_code == 403
        with pytest.raises(PermissionDenied):
            story_note_add(campaign=world.campaign, text=BRIDGE, actor=world.users[role])
    note = story_note_add(campaign=world.campaign, text=BRIDGE, actor=world.users["gm"])
    login(client, world, "player")
    assert client.post(_url("story-note-remove", world, note.pk)).status_code == 403
    with pytest.raises(PermissionDenied):
        story_note_remove(campaign=world.campaign, note_pk=note.pk, actor=world.users["player"])
    assert _notes(world) == [(1, BRIDGE)]


def test_the_gm_takes_a_note_out_and_the_groups_changes_stay(client, world):
    note = story_note_add(campaign=world.campaign, text=BRIDGE, actor=world.users["gm"])
    login(client, world, "gm")
    remove = _url("story-note-remove", world, note.pk)
    done = client.post(remove, follow=True)
    assert done.redirect_chain == [(_url("timeline", world), 302)]
    assert "is out of the story." in done.text and BRIDGE[:40] in done.text
    assert _notes(world) == []
    again = client.post(remove, follow=True)
    assert "That note is out of the story already." in again.text
    # A change to the group is what happened: it is no note, and stays.
    joined = StoryEntry.objects.filter(campaign=world.campaign, kind="joined").first()
    assert client.post(_url("story-note-remove", world, joined.pk), follow=True).status_code == 200
    assert StoryEntry.objects.filter(pk=joined.pk).exists()


def test_a_returning_member_is_told_the_note_and_an_export_carries_it(client, world):
    login(client, world, "player")
    client.get(_url("dashboard", world))  # a first visit
    story_note_add(campaign=world.campaign, text=BRIDGE, actor=world.users["gm"])
    back = client.get(_url("dashboard", world)).text
    section = re.search(r'<h2 id="story-since-h">(.*?)</section>', back, re.S)[1]
    assert f"GM&#x27;s note Day 1: {BRIDGE}" in re.sub(
        r"\s+", " ", re.sub(r"<[^>]+>", " ", section)
    )
    exported = json.loads(json.dumps(campaign_export(campaign=world.campaign)))
    assert [s["text"] for s in exported["story"] if s["kind"] == "note"] == [BRIDGE]
    exported["campaign"]["name"] = "Op. Pages, restored"
    imported = campaign_import(data=exported, gm=world.users["gm"])
    assert list(imported.story.filter(kind="note").values_list("day", "text")) == [(1, BRIDGE)]
