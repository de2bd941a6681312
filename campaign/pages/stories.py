"""A unit's story: its history entries as sentences, a battle's name the link to its page."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.text import capfirst

from campaign.models import HistoryEntry
from campaign.pages.history_words import (
    entry_sentence,
    entry_words,
    fight_told,
    revert_words,
    told_together,
    without_repeats,
)
from campaign.rules.history import FIGHT_KINDS, fight_lead, fight_named, tells_taken, undone_parts
from campaign.selectors.entries import StoryPage


@dataclass(frozen=True)
class StoryLine:
    """One history entry as the unit's story tells it."""

    entry: HistoryEntry
    why: str
    """Why it happened; for a battle, what the battle did ("lost 1 hit...")."""
    lead: str
    """The battle's name when it came from a battle (the link), else ""."""
    what: str
    """What it did to the unit, in plain words ("" when nothing changed)."""
    battle: int | None
    """The campaign battle it comes from, for a link."""
    reverted: bool
    within: str = ""
    """When the link is a name inside the reason (a revert naming the battle it undid): the
    reason's words after it; ``why`` holds those before."""
    engagement: int | None = None
    """The engagement it comes from, for a link (its name is ``lead``)."""


def revert_link(entry: HistoryEntry, why: str, name: str | None) -> tuple[str, str, str]:
    """A revert's reason (``why``, `revert_words`) around the name of the battle it undid, the
    link: the words before it, the name and the words after it (the name "" when it names
    none). A revert keeps what it undid as data (`outcomes.revert`'s ``undid``); one saved
    before it did has only its sentence, and the battle's name (``name``, as it is now) is
    looked for in it."""
    undid = entry.details.get("undid")
    if isinstance(undid, dict) and "reason" in entry.details:
        if undid.get("fight") != "battle" or not undid.get("name"):
            return why, "", ""
        before, lead, after = undone_parts(**undid)
        return f"{entry.details['reason']}: {before}", lead, after
    if name and f", {name}," in why:
        why, _, within = why.partition(f", {name},")
        return f"{why}, ", name, f",{within}"
    return why, "", ""


def unit_story_lines(page: StoryPage):
    """A page of the unit's history (`unit_story`) as sentences, newest first as the page shows
    them on every screen: why, then what it did, in plain words; a battle's name links to its
    campaign page, as does a revert's that names the battle it undid."""
    homes, names, reverted = page.homes, page.names, page.reverted
    lines = []
    now: dict[str, Any] = dict(page.was)
    for entry in page.entries:
        now.update(entry.after)  # the unit's snapshot after this entry
        battle = homes.get(entry.pk)
        lead = within = ""
        if entry.kind == HistoryEntry.Kind.REVERT:
            why, what = revert_words(entry, now)
            if battle is not None:
                # The revert names the battle it undid: the name is the link.
                why, lead, within = revert_link(entry, why, names.get(battle))
            lines.append(
                StoryLine(entry=entry, why=capfirst(why), lead=lead, what=what,
                          battle=battle, reverted=entry.pk in reverted, within=within)
            )  # fmt: skip
            continue
        why, what = entry_words(entry, now)
        # A battle's entries begin with its name, and so do an engagement's: that is the link.
        from_battle = entry.kind in (HistoryEntry.Kind.BATTLE, HistoryEntry.Kind.EXPERIENCE)
        engagement = page.engagements.get(entry.pk)
        if (battle is not None and from_battle) or engagement is not None:
            # Cut after the fight's name its entry keeps, whatever it holds (a ": " too).
            lead, why = fight_lead(why, fight_named(entry.kind, entry.details, why))
            # The name opens the line: an engagement named by its units ("engagement, Squad 1
            # against Iron Wolf") starts with a capital there, as its line on the timeline does.
            lead = capfirst(lead)
        why, what = told_together(entry, *without_repeats(why, what))
        if entry.kind in FIGHT_KINDS:
            # What the fight left the unit before the working, as every page says it.
            if lead and tells_taken(why):
                why, what = fight_told(why, what), ""
            elif not lead:
                why, what = entry_sentence(entry, why, what), ""
        lines.append(
            StoryLine(
                entry=entry,
                why=why if lead else capfirst(why),
                lead=lead,
                what=what,
                battle=battle,
                reverted=entry.pk in reverted,
                engagement=engagement,
            )
        )
    # Each sentence reads what came before it, so they are told oldest first, then shown
    # latest first: a player looks up what befell the unit last.
    return lines[::-1]
