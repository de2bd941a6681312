"""The GM's notes in the campaign's story: what the evening's play left that no unit's history
says ("The bridge at Elm Ford is down; the column waits for the engineers."), written on the
campaign's day beside its battles and the changes to its people, for everyone in it to read.

Each service validates its input first (a ``ValidationError`` naming the field) and writes in
one transaction.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.db import transaction

from campaign.models import STORY_TEXT, Campaign, StoryEntry
from campaign.services._record import require_manager, story_told, text_given


@transaction.atomic
def story_note_add(*, campaign: Campaign, text: Any, actor: Any = None) -> StoryEntry:
    """The GM (or a co-GM) writes a note in the campaign's story, on its day."""
    require_manager(campaign, actor)
    errors: dict[str, list[str]] = {}
    text = text_given(errors, "text", text, needed="Write the note first.")
    if len(text) > STORY_TEXT:
        errors.setdefault("text", []).append(
            f"A note takes at most {STORY_TEXT:,} characters, not {len(text):,}."
        )
    if errors:
        raise ValidationError(errors)
    return story_told(campaign, StoryEntry.Kind.NOTE, text, actor)


@transaction.atomic
def story_note_remove(*, campaign: Campaign, note_pk: int, actor: Any = None) -> str:
    """The GM (or a co-GM) takes a note out of the story (written by mistake, or in the wrong
    campaign); its text, for the page that says so. Only a note: the changes to the campaign's
    people are what happened, and stay."""
    require_manager(campaign, actor)
    note = campaign.story.filter(pk=note_pk, kind=StoryEntry.Kind.NOTE).first()
    if note is None:
        raise ObjectDoesNotExist("no such note in this campaign")
    note.delete()
    return note.text
