"""The timeline's lines: a history entry as an event, and what befell a member's units since
their last visit."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.urls import reverse

from campaign.models import Campaign, HistoryEntry, StoryEntry
from campaign.pages.history_words import (
    entry_sentence,
    entry_why,
    entry_words,
    history_sentence,
    revert_words,
    step_why,
    told_together,
    unit_event,
    without_repeats,
)
from campaign.pages.names import unit_label
from campaign.rules.history import fight_named, minus_signs, story_text, without_working
from campaign.rules.state import Status
from campaign.selectors.entries import entries_carrying, entries_undone, entry_battles
from campaign.selectors.timeline import entries_since
from units.bucs import Quality


@dataclass(frozen=True)
class Event:
    """One line of the campaign's timeline."""

    day: int
    kind: str
    """battle, engagement, destroyed, promoted, reduced, killed (a leader), story (what a
    crowded day leaves out of it), a history entry's kind or a story line's (`StoryEntry.Kind`)."""
    text: str
    url: str
    """Where its line links to; "" for none (a page the reader may not open)."""
    undone: bool = False
    """A history entry reverted since: its line stays, struck through, as on the unit's page."""
    note: int | None = None
    """A GM's note (`StoryEntry`): its id, for the GMs to take it out of the story."""

    @property
    def label(self) -> str:
        """The kind in words: a history entry's kind by its own label (`HistoryEntry.Kind`)."""
        if self.kind in EVENT_LABELS:
            return EVENT_LABELS[self.kind]
        if self.kind in HistoryEntry.Kind.values:
            return HistoryEntry.Kind(self.kind).label
        if self.kind in StoryEntry.Kind.values:
            return StoryEntry.Kind(self.kind).label
        return self.kind.replace("_", " ").capitalize()


EVENT_LABELS = {
    "battle": "Battle",
    "engagement": "Engagement",
    "destroyed": "Destroyed",
    "promoted": "Promoted",
    "reduced": "Reduced",
    "killed": "Leader killed",
    "story": "Story",
}
"""The timeline's own kinds of line, besides the history's ("story": the campaign's own story
left out of a crowded day)."""


def _value_label(quality: str) -> str:
    return Quality.of_word(quality).label


def leader_killed(entry: HistoryEntry) -> bool:
    """The entry is the one in which the unit's leader died (`timeline.notable_entries`)."""
    was, now = entry.before.get("leader"), entry.after.get("leader")
    return bool(was and now and was.get("alive") and not now.get("alive"))


def entry_event(
    entry: HistoryEntry,
    campaign_pk: int,
    homes: dict[int, int],
    names: dict[int, str],
    carrying: dict[int, dict[str, int]],
    undone: set[int],
) -> Event:
    """A history entry as a line of the timeline; ``homes`` maps entries to the campaign
    battles they came from (`entry_battles`), ``names`` campaign battles to their names,
    ``carrying`` entries to the hits their unit carried after them (`entries_carrying`),
    ``undone`` holds the entries reverted since."""
    before, after = entry.before, entry.after
    kind = entry.kind
    if kind == HistoryEntry.Kind.REVERT:
        pass  # a revert gives back what an entry did: never a promotion, a loss or a death
    elif after.get("status") == Status.DESTROYED:
        kind = "destroyed"
    elif "quality" in after and before.get("quality"):
        rose = Quality.of_word(after["quality"]) > Quality.of_word(before["quality"])
        kind = "promoted" if rose else "reduced"
    elif leader_killed(entry):
        kind = "killed"
    home = homes.get(entry.pk)
    # The battle a unit's line names, as its entry keeps the name (`history.fight_named`), as
    # the unit's history and page name it: a battle renamed since reads as its entries said it
    # there too. An entry that kept no name (a found-too-late death) by its battle's record.
    # The battle's own line (`timeline`) is its record's, and says the record's name, as the
    # battle's page it links to heads itself.
    battle = (fight_named(entry.kind, entry.details, "") or names.get(home)) if home else None
    label = unit_label(entry.unit)
    if kind == HistoryEntry.Kind.REVERT:
        text = unit_event(label, history_sentence(*revert_words(entry, carrying.get(entry.pk, {}))))
    elif kind == "killed":
        # The leader's death alone: what else the fight did to the unit is on its page.
        text = f"{after['leader']['name']}, leading {label}, was killed"
        text += step_why(entry, battle)
    elif kind in ("destroyed", "promoted", "reduced"):
        # The one thing that matters, said first, and why in a few words; then what else it did
        # to the unit (the hits it carries, its leader's fate), without the working, which is on
        # the unit's page.
        if kind == "destroyed":
            text = f"{label} was destroyed"
        else:
            verb = "rose" if kind == "promoted" else "fell"
            text = f"{label} {verb} from {_value_label(before['quality'])} to "
            text += _value_label(after["quality"])
        rest = story_text(before, after, carrying.get(entry.pk, {}), headlines=False)
        if entry.kind == HistoryEntry.Kind.CASUALTIES:
            # The dead as the unit's page tells them (`entry_why`): how many, the fights whose
            # hits they were and what the medics saved, and what they cost beyond a step each
            # or short of it; "not saved within 24 hours" says the medics' time.
            why, rest = without_repeats(entry_why(entry), rest)
            text += f": {why}" + (f"; {rest}" if rest else "")
        else:
            # What else it did follows as a fight's line says it, not after a colon, which
            # would read as why the step came: "fell … at Ford; is in the combat zone".
            text += step_why(entry, battle) + (f"; {rest}" if rest else "")
    else:
        # Told as the unit's history tells it (`unit_story_lines`), a fight's working left
        # for its page: a line here says what happened.
        why, what = without_repeats(*entry_words(entry, carrying.get(entry.pk, {})))
        why, what = told_together(entry, why, what)
        # A check's summary starts with the unit that made it: once named, not twice.
        why = without_maker(entry, without_working(entry.kind, entry.details, why))
        text = unit_event(label, entry_sentence(entry, why, what))
    url = (
        reverse("campaign:battle", args=[campaign_pk, home])
        if home
        else reverse("campaign:unit", args=[campaign_pk, entry.unit_id])
    )
    return Event(entry.day, kind, text, url, undone=entry.pk in undone)


def without_maker(entry: HistoryEntry, why: str) -> str:
    """A check's reason (``why``) without the name of the unit that made it, for a line that
    names the unit first: "Reconnaissance check, 14 against DC 12: succeeds". The check's entry
    keeps that name as it opens its summary (``maker``, "" for a unit that lent Strength in
    numbers), so a unit renamed since loses its old name too; a check saved before it did
    loses the unit's name now. Another entry's reason is kept whole, whatever it opens with."""
    if entry.kind != HistoryEntry.Kind.SKILL_CHECK:
        return why
    maker = entry.details.get("maker")
    if not isinstance(maker, str):
        maker = entry.unit.name
    return why.removeprefix(f"{minus_signs(maker)}: ") if maker else why


FIRST_VISIT_LINES = 10
"""Lines a member's first visit shows of what lately befell their units."""


def since_last_visit(
    campaign: Campaign, force_ids: set[int], after: datetime | None
) -> list[Event]:
    """What changed for the units of ``force_ids`` since ``after`` (the member's last visit),
    or, on their first (None), the latest `FIRST_VISIT_LINES` things that befell them."""
    if after is None:
        entries = entries_since(
            campaign=campaign, force_ids=force_ids, after=None, limit=FIRST_VISIT_LINES
        )
    else:
        entries = entries_since(campaign=campaign, force_ids=force_ids, after=after)
    return entry_events(campaign, entries)


def entry_events(campaign: Campaign, entries: list[HistoryEntry]) -> list[Event]:
    """History entries as timeline lines, each battle named and linked by its campaign page."""
    homes, names = entry_battles(entries=entries)
    carrying = entries_carrying(entries=entries)
    undone = entries_undone(entries=entries)
    return [entry_event(entry, campaign.pk, homes, names, carrying, undone) for entry in entries]
