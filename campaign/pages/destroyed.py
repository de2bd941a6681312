"""Where and when a destroyed unit fell, linked to the fight it fell at."""

from __future__ import annotations

from collections.abc import Iterable

from django.urls import reverse

from campaign.models import Engagement, HistoryEntry, Unit
from campaign.pages.history_words import entry_why, step_why
from campaign.rules.history import fight_named
from campaign.rules.state import Status
from campaign.selectors.entries import entry_battles, history_standing

FOUND_TOO_LATE = "when its Casualty hits were found too late"
"""How a unit destroyed by a battle entered after its medics' 24 hours fell (`destroyed_where`)."""


class FellAt(str):
    """Where a unit fell, as `destroyed_where` says it ("at Patrol clash at the ford, day 2"),
    with the fight it names and that fight's page, so a page links the name: ``lead``, ``name``
    and ``tail`` make the whole; ``url`` is "" where no page is known, and the words stand
    alone."""

    lead = name = url = tail = ""

    def __new__(cls, text: str, *, name: str = "", url: str = "") -> FellAt:
        fell = super().__new__(cls, text)
        at = text.find(name) if name and url else -1
        if at >= 0:
            fell.lead, fell.name, fell.url = text[:at], name, url
            fell.tail = text[at + len(name) :]
        return fell


def fight_pages(entries: Iterable[HistoryEntry], campaign_pk: int) -> dict[int, str]:
    """The page of the fight each of ``entries`` came from, by entry id: a battle's campaign
    page (`entry_battles`), an engagement's, of this campaign, by the record its entry names;
    an entry whose fight is not known is left out. Two queries at most, none for no entry."""
    entries = list(entries)
    battles = [e for e in entries if e.kind == HistoryEntry.Kind.BATTLE]
    homes = entry_battles(entries=battles)[0] if battles else {}
    pages = {pk: reverse("campaign:battle", args=[campaign_pk, home]) for pk, home in homes.items()}
    named = {
        e.pk: fight
        for e in entries
        if e.kind != HistoryEntry.Kind.BATTLE
        and isinstance(fight := e.details.get("engagement"), int)
    }
    if named:
        held = set(
            Engagement.objects.filter(
                pk__in=set(named.values()), campaign_id=campaign_pk
            ).values_list("pk", flat=True)
        )
        pages |= {
            pk: reverse("campaign:engagement", args=[campaign_pk, fight])
            for pk, fight in named.items()
            if fight in held
        }
    return pages


def destroyed_where(units: Iterable[Unit], campaign_pk: int | None = None) -> dict[int, str]:
    """Where and when each destroyed unit of ``units`` was destroyed, by its pk, as its status
    goes on: "at Patrol clash at the ford, day 2", "on day 5: 1 Casualty hit not saved within
    24 hours died (taken out at Crossroads; 3 Morale, 2 Casualty; medics saved 1)" (the dead
    as its history tells them, `entry_why`), "at Late report, day 1, when its Casualty hits
    were found too late", "on day 3 (GM correction: shelled at the ford)" (`step_why`); by
    the latest standing entry that destroyed it (one query), the battle by the name its entry
    keeps as data (`history.fight_named`), an entry saved before it kept one by its sentence.
    A unit destroyed by no entry standing (an old import) is left out: its status says
    enough. With ``campaign_pk``, a fight it fell at is a `FellAt` whose name links to the
    fight's page (`fight_pages`)."""
    gone = [unit.pk for unit in units if unit.status == Status.DESTROYED]
    if not gone:
        return {}
    found: dict[int, str] = {}
    fell_at: dict[int, tuple[HistoryEntry, str]] = {}
    entries = history_standing().filter(unit_id__in=gone, after__status=Status.DESTROYED)
    for entry in entries.exclude(before__status=Status.DESTROYED).order_by("pk"):
        battle = None
        fell_at.pop(entry.unit_id, None)  # the latest entry says where it fell
        if entry.kind == HistoryEntry.Kind.BATTLE:
            battle = fight_named(entry.kind, entry.details, entry.text)
        # A battle's Casualty hits found too late as it was entered: named as data alone, the
        # medics' window closing on a day of the calendar names no fight.
        elif entry.kind == HistoryEntry.Kind.CASUALTIES and (
            late := fight_named(entry.kind, entry.details, "")
        ):
            found[entry.unit_id] = f"at {late}, day {entry.day}, {FOUND_TOO_LATE}"
            continue
        elif entry.kind == HistoryEntry.Kind.CASUALTIES:
            # The dead as its history and the timeline tell them (`entry_why`): how many, the
            # fights whose hits they were and what the medics saved.
            found[entry.unit_id] = f"on day {entry.day}: {entry_why(entry)}"
            continue
        why = step_why(entry, battle)
        if why.startswith(" at "):
            found[entry.unit_id] = f"{why.strip()}, day {entry.day}"
            fell_at[entry.unit_id] = (entry, why.removeprefix(" at "))
        else:
            found[entry.unit_id] = f"on day {entry.day}{why}"
    if campaign_pk is not None:
        pages = fight_pages((entry for entry, _ in fell_at.values()), campaign_pk)
        for pk, (entry, name) in fell_at.items():
            found[pk] = FellAt(found[pk], name=name, url=pages.get(entry.pk, ""))
    return found
