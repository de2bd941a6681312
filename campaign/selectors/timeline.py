"""Reads for the campaign's timeline and its notices: the entries worth telling, day by day,
since a member's last visit or last notice.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count, Q, QuerySet, Subquery

from campaign.models import Campaign, HistoryEntry, StoryEntry
from campaign.selectors.entries import with_standing


@dataclass(frozen=True)
class TimelineFocus:
    """One force's or one unit's part of the campaign's timeline: the fights its units were in
    and what befell them; the campaign's own story (its people, its calendar, the GM's notes)
    is no unit's."""

    units: frozenset[int]
    """The pks of the units it follows: the unit, or each unit of the force."""
    battles: frozenset[int]
    """The pks of the campaign battles one of them fought in (`timeline_focus`)."""
    engagements: frozenset[int]


def timeline_focus(*, campaign: Campaign, units: Collection[int]) -> TimelineFocus:
    """The timeline of ``units`` (pks): the battles and engagements any of them was put on a
    side of, found from each one's sides (two queries of one short row a fight: which units
    fought is kept in the fight's set-up, not in a table of its own)."""
    units = frozenset(units)

    def fought(sides: Any) -> bool:
        return isinstance(sides, dict) and any(
            units.intersection(pks) for pks in sides.values() if isinstance(pks, list)
        )

    battles = campaign.battles.order_by().values_list("pk", "sides")
    engagements = campaign.engagements.order_by().values_list("pk", "setup__sides")
    return TimelineFocus(
        units=units,
        battles=frozenset(pk for pk, sides in battles if fought(sides)),
        engagements=frozenset(pk for pk, sides in engagements if fought(sides)),
    )


def notable_entries(
    *,
    campaign: Campaign,
    force_ids: set[int],
    after_id: int = 0,
    focus: TimelineFocus | None = None,
):
    """History entries of the campaign worth a line on its timeline: deaths (a unit's, or its
    leader's), promotions and losses of quality for good, training, GM corrections and reverts,
    a character taking command of a unit, and a unit raised once the campaign's fighting has
    begun (units of ``force_ids`` only, newer than ``after_id``; of the ``focus``'s units
    only). The units raised before its first fight are the rosters the campaign starts with, a
    line each of which would bury its first day: the force pages list them."""
    Kind = HistoryEntry.Kind
    first_fight = (
        HistoryEntry.objects.filter(unit__force__campaign=campaign, kind__in=HistoryEntry.FIGHTS)
        .order_by("pk")
        .values("pk")[:1]
    )
    takes_command = Q(kind=Kind.LEADER, after__leader__name__isnull=False) & ~Q(
        details__has_key="healed"  # a leader's heal (`HistoryEntry.leader_named`)
    )
    notable = (
        Q(after__status="destroyed")
        | Q(before__leader__alive=True, after__leader__alive=False)
        | (Q(after__has_key="quality") & ~Q(kind=Kind.CREATED))
        | Q(kind__in=[Kind.GM_EDIT, Kind.TRAINING, Kind.REVERT, Kind.CASUALTIES])
        | takes_command
        | Q(kind=Kind.CREATED, pk__gt=Subquery(first_fight))
    )
    entries = HistoryEntry.objects.filter(notable, unit__force_id__in=force_ids, pk__gt=after_id)
    if focus is not None:
        entries = entries.filter(unit_id__in=focus.units)
    return entries.select_related("unit__force").order_by("-id")


def timeline_records(
    campaign: Campaign, focus: TimelineFocus | None = None
) -> tuple[QuerySet, ...]:
    """The campaign's records each of which is a line of the timeline on its day, besides the
    units' notable entries: its battles, engagements and quick resolves, and its own story
    (`StoryEntry`); of a ``focus``, the fights of its units and no story. A day split over
    pages shows them on its first."""
    if focus is None:
        return (
            campaign.battles.all(),
            campaign.engagements.all(),
            campaign.quick_resolves.all(),
            campaign.story.all(),
        )
    units = list(focus.units)
    return (
        campaign.battles.filter(pk__in=list(focus.battles)),
        campaign.engagements.filter(pk__in=list(focus.engagements)),
        campaign.quick_resolves.filter(Q(attacker_id__in=units) | Q(defender_id__in=units)),
        campaign.story.none(),
    )


def timeline_days(
    *,
    campaign: Campaign,
    force_ids: set[int],
    upto: int | None = None,
    above: int | None = None,
    limit: int,
    focus: TimelineFocus | None = None,
) -> list[int]:
    """Up to ``limit`` campaign days on which the timeline has something (a battle, an
    engagement, a quick resolve, a notable entry of the units of ``force_ids``): the latest
    up to day ``upto``, newest first, or the earliest after day ``above``, oldest first.
    The database finds them; ``limit`` rows at most come back."""  # fmt: skip
    sources = [
        *timeline_records(campaign, focus),
        notable_entries(campaign=campaign, force_ids=force_ids, focus=focus),
    ]
    days = []
    for source in sources:
        if upto is not None:
            source = source.filter(day__lte=upto)
        if above is not None:
            source = source.filter(day__gt=above)
        days.append(source.order_by().values_list("day", flat=True).distinct())
    found = days[0].union(*days[1:]).order_by("day" if above is not None else "-day")
    return list(found[:limit])


def timeline_day_counts(
    *,
    campaign: Campaign,
    force_ids: set[int],
    days: list[int],
    below: tuple[int, int] | None,
    focus: TimelineFocus | None = None,
) -> dict[int, int]:
    """How many lines the timeline has on each of ``days``, counted in the database; on day
    ``below[0]``, only its notable entries older than entry ``below[1]`` (the rest of a day
    split over pages: its fights were on the page before)."""
    fight_days = [day for day in days if below is None or day != below[0]]
    notable = notable_entries(campaign=campaign, force_ids=force_ids, focus=focus)
    notable = notable.filter(timeline_entries_on(fight_days, below))
    counted = [
        source.filter(day__in=fight_days).order_by().values("day").annotate(n=Count("id"))
        for source in timeline_records(campaign, focus)
    ]
    counted.append(notable.order_by().values("day").annotate(n=Count("id")))
    counts: dict[int, int] = {}
    for row in counted[0].union(*counted[1:], all=True):
        counts[row["day"]] = counts.get(row["day"], 0) + row["n"]
    return counts


def timeline_entries_on(days: list[int], below: tuple[int, int] | None) -> Q:
    """The entries of whole ``days``, and of day ``below[0]`` those older than entry
    ``below[1]``."""
    on = Q(day__in=days)
    if below is not None:
        on |= Q(day=below[0], pk__lt=below[1])
    return on


def entries_since(
    *, campaign: Campaign, force_ids: set[int], after: datetime | None, limit: int = 20
):
    """What happened to the units of ``force_ids`` after the moment ``after`` (None: the
    latest of all that happened to them), newest first."""
    entries = HistoryEntry.objects.filter(unit__force_id__in=force_ids)
    if after is not None:
        entries = entries.filter(created_at__gt=after)
    return list(with_standing(entries.select_related("unit__force").order_by("-id"))[:limit])


STORY_SINCE_LINES = 20
"""The most lines of the campaign's story a visit is told of (the timeline keeps them all)."""


def story_since(*, campaign: Campaign, after: datetime) -> list[StoryEntry]:
    """The lines of the campaign's own story (its people's changes, the GM's notes) after the
    moment ``after`` (a member's last visit), newest first, at most `STORY_SINCE_LINES`."""
    lines = campaign.story.filter(created_at__gt=after).order_by("-id")
    return list(lines[:STORY_SINCE_LINES])


def advance_entries(*, campaign: Campaign, after_id: int, upto_id: int) -> list[HistoryEntry]:
    """The entries an Advance of the calendar wrote: the deaths when a medical window closed
    and the days of R&R, after entry ``after_id`` up to ``upto_id`` (its first and last; the
    Advance locks every unit of the campaign, so no other change to them falls in between)."""
    Kind = HistoryEntry.Kind
    return list(
        HistoryEntry.objects.filter(
            unit__force__campaign=campaign,
            pk__gt=after_id,
            pk__lte=upto_id,
            kind__in=[Kind.CASUALTIES, Kind.RECOVERY],
        )
        .select_related("unit__force", "unit__leader__character")
        .order_by("id")
    )


def _notice_worthy(*, force_ids: set[int], after_id: int) -> QuerySet[HistoryEntry]:
    Kind = HistoryEntry.Kind
    worth = (
        Q(after__status="destroyed")
        | Q(after__has_key="quality")
        | Q(kind__in=[Kind.CASUALTIES, Kind.BATTLE])
    )
    return HistoryEntry.objects.filter(worth, unit__force_id__in=force_ids, pk__gt=after_id)


def notice_entries(
    *, force_ids: set[int], after_id: int, most: int | None = None
) -> list[HistoryEntry]:
    """The entries of the units of ``force_ids`` after ``after_id`` that an email notice may
    tell of: deaths, losses to the medical window, changes of quality, battles applied; oldest
    first, and given ``most``, only the latest ``most`` of them."""
    found = with_standing(
        _notice_worthy(force_ids=force_ids, after_id=after_id).select_related("unit__force")
    )
    if most is None:
        return list(found.order_by("id"))
    return list(found.order_by("-id")[:most])[::-1]


def notice_entries_before(*, force_ids: set[int], after_id: int, before_id: int) -> int:
    """How many of the entries `notice_entries` finds after ``after_id`` come before entry
    ``before_id``: those a notice of the latest leaves out. Counted in the database."""
    found = _notice_worthy(force_ids=force_ids, after_id=after_id)
    return found.filter(pk__lt=before_id).count()


def latest_entry_id(*, campaign: Campaign) -> int:
    last = (
        HistoryEntry.objects.filter(unit__force__campaign=campaign)
        .order_by("-id")
        .values_list("id", flat=True)
        .first()
    )
    return last or 0
