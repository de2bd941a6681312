"""Reads of a unit's history: its story a page at a time, the fight each entry came from, the
hits and experience each entry carried and held, and whether the history explains the unit.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Case, Count, Max, OuterRef, Q, QuerySet, Subquery, Value, When
from django.db.models.fields.json import KT

from campaign.models import CampaignBattle, Engagement, HistoryEntry, Unit
from campaign.rules.history import HITS_FIELDS
from campaign.rules.state import snapshot_replay
from units.bucs import Quality


def unit_history(*, unit: Unit) -> QuerySet[HistoryEntry]:
    """The unit's history, oldest first."""
    return unit.history.select_related("battle", "actor").order_by("id")


UNIT_STORY_PAGE = 100
"""History entries on one page of a unit's history (`unit_story`)."""


@dataclass(frozen=True)
class StoryPage:
    """One page of a unit's history: entries oldest first, and where the others are."""

    entries: list[HistoryEntry]
    reverted: set[int]
    """The ids of its entries undone since."""
    homes: dict[int, int]
    """The campaign battle each of its entries came from, by entry id (`entry_battles`)."""
    names: dict[int, str]
    """The names of those campaign battles."""
    was: dict[str, Any]
    """The unit's status and hits before the page's first entry (what its sentences read)."""
    first: int
    """The number of its first entry in the whole history (1 for the unit's raising)."""
    total: int
    """Entries in the whole history."""
    earlier: int | None
    """The ``before`` of the page of entries before these, if any."""
    later: int | None
    """The ``before`` of the page of entries after these: 0 for the latest page, None if this
    is the latest."""
    engagements: dict[int, int]
    """The engagement each of its entries came from, by entry id (`entry_engagements`)."""

    @property
    def last(self) -> int:
        """The number of its last entry in the whole history."""
        return self.first + len(self.entries) - 1


def entry_battles(
    *, entries: list[HistoryEntry], known: Iterable[CampaignBattle] = ()
) -> tuple[dict[int, int], dict[int, str]]:
    """The campaign battle each of ``entries`` came from, by entry id, and those battles' names
    by their id. An engine battle's entries name it; a table battle has no engine battle, so
    its entries are known by its record (`CampaignBattle.table_entries`, every application's).
    ``known``: battles already read, asked for no more."""
    homes: dict[int, int] = {}
    names: dict[int, str] = {}
    by_battle: dict[int, list[int]] = {}
    for entry in entries:
        if entry.battle_id is not None:
            by_battle.setdefault(entry.battle_id, []).append(entry.pk)
    at_table = {entry.pk for entry in entries if entry.battle_id is None}

    def found(battles: Iterable[CampaignBattle]) -> None:
        for cb in battles:
            if cb.battle_id is not None:
                came = by_battle.get(cb.battle_id, [])
            else:
                came = [entry_pk for entry_pk in cb.table_entries if entry_pk in at_table]
            for entry_pk in came:
                homes[entry_pk], names[cb.pk] = cb.pk, cb.name

    found(known)
    rest = [e for e in entries if e.pk not in homes]
    battle_ids = {e.battle_id for e in rest if e.battle_id is not None}
    if battle_ids:
        engine = CampaignBattle.objects.filter(battle_id__in=battle_ids)
        found(engine.only("pk", "name", "battle_id"))
    unlinked = [e for e in rest if e.battle_id is None and e.kind in TABLE_BATTLE_KINDS]
    if unlinked:
        campaigns = Unit.objects.filter(history__in=unlinked).values("force__campaign_id")
        tables = CampaignBattle.objects.filter(
            battle__isnull=True, campaign__in=campaigns, day__in={e.day for e in unlinked}
        )
        found(tables.only("pk", "name", "battle_id", "applied_entries", "earlier_entries"))
    return homes, names


TABLE_BATTLE_KINDS = (HistoryEntry.Kind.BATTLE, HistoryEntry.Kind.EXPERIENCE)
"""The kinds of entry a battle's outcome writes (`outcome_apply`)."""


def unit_story(*, unit: Unit, before: int | None = None, size: int = UNIT_STORY_PAGE) -> StoryPage:
    """The page of the unit's history ending just before entry ``before`` (the latest page
    when None): at most ``size`` entries, oldest first, without the battles' scenarios. Its
    queries read the page's entries and a row or two besides, however long the history."""
    history = unit.history.all()
    newest = history.order_by("-id")
    if before is not None:
        newest = newest.filter(pk__lt=before)
    entries = list(newest.select_related("actor")[: size + 1])[::-1]
    earlier = None
    if len(entries) > size:
        entries = entries[1:]
        earlier = entries[0].pk
    later = None
    if before is not None:
        after = list(history.filter(pk__gte=before).order_by("id").values_list("id", flat=True)[
            size : size + 1
        ])  # fmt: skip
        later = after[0] if after else 0
    first_pk = entries[0].pk if entries else 0
    counts = history.aggregate(total=Count("id"), ahead=Count("id", filter=Q(pk__lt=first_pk)))
    reverted = entries_undone(entries=entries)
    homes, names = entry_battles(entries=entries)
    engagements = entry_engagements(unit=unit, entries=entries)
    was = {}
    if earlier is not None:
        was = units_state_before(before={unit.pk: first_pk}, fields=STORY_FIELDS)
        was = was.get(unit.pk, {})
    return StoryPage(
        entries=entries,
        reverted=reverted,
        homes=homes,
        names=names,
        was=was,
        first=counts["ahead"] + 1,
        total=counts["total"],
        earlier=earlier,
        later=later,
        engagements=engagements,
    )


def entry_engagements(*, unit: Unit, entries: list[HistoryEntry]) -> dict[int, int]:
    """The engagement of the unit's campaign each of ``entries`` came from, by entry id: its
    entries name it in their working. A force brought in from another campaign left the link
    behind, and one that names no engagement of this campaign leads nowhere."""
    named = {
        entry.pk: fight
        for entry in entries
        if entry.kind in (HistoryEntry.Kind.ENGAGEMENT, HistoryEntry.Kind.EXPERIENCE)
        and isinstance(fight := entry.details.get("engagement"), int)
    }
    if not named:
        return {}
    held = set(
        Engagement.objects.filter(
            pk__in=set(named.values()), campaign__forces__pk=unit.force_id
        ).values_list("pk", flat=True)
    )
    return {pk: fight for pk, fight in named.items() if fight in held}


def unit_chart_entries(*, unit: Unit, fields: tuple[str, ...]) -> list[tuple[int, dict]]:
    """The unit's history as its charts need it, ``(day, after)`` oldest first, reduced in the
    database to the entries that end a day for one of ``fields`` (the last of each day to set
    it), and its first entry (the day it was raised): at most a few rows a campaign day,
    however many entries a day holds. Charted at the end of each day, they draw the same."""
    history = HistoryEntry.objects.filter(unit=unit)
    last_of_day = Q()
    for field in fields:
        last_of_day |= Q(
            pk__in=history.filter(after__has_key=field)
            .order_by()
            .values("day")
            .annotate(last=Max("id"))
            .values("last")
        )
    first = history.order_by("id").values("id")[:1]
    return list(
        history.filter(last_of_day | Q(pk__in=first)).order_by("id").values_list("day", "after")
    )


STORY_FIELDS = ("status", *HITS_FIELDS)
"""What a history sentence reads of the unit beyond its entry (`story_text`, `revert_text`)."""


def units_state_before(
    *, before: dict[int, int], fields: tuple[str, ...]
) -> dict[int, dict[str, Any]]:
    """What each unit's snapshot held in ``fields`` just before an entry (``before`` maps
    units to entry ids): for each field, the value the last entry before it that set the field
    gave (an entry keeps only the fields it changed). Read in the database: one row per unit,
    however long its history."""
    if not before:
        return {}

    def last(field: str) -> Subquery:
        return Subquery(
            HistoryEntry.objects.filter(
                unit=OuterRef("pk"), pk__lt=OuterRef("before_id"), after__has_key=field
            )
            .order_by("-id")
            .annotate(value=KT(f"after__{field}"))
            .values("value")[:1]
        )

    rows = (
        Unit.objects.filter(pk__in=before)
        .annotate(before_id=Case(*(When(pk=unit, then=Value(pk)) for unit, pk in before.items())))
        .annotate(**{f"was_{field}": last(field) for field in fields})
        .values_list("pk", *(f"was_{field}" for field in fields))
    )
    state: dict[int, dict[str, Any]] = {}
    for pk, *values in rows:
        state[pk] = {
            field: int(value) if field in HITS_FIELDS else value
            for field, value in zip(fields, values, strict=True)
            if value is not None
        }
    return state


def entries_undone(*, entries: list[HistoryEntry]) -> set[int]:
    """The ids of ``entries`` that a revert has undone since (a revert entry names them)."""
    if not entries:
        return set()
    return set(
        HistoryEntry.objects.filter(reverts_id__in=[e.pk for e in entries]).values_list(
            "reverts_id", flat=True
        )
    )


def entries_carrying(*, entries: list[HistoryEntry]) -> dict[int, dict[str, Any]]:
    """What each unit carried after each of ``entries`` (by entry id): its Morale and Casualty
    hits then, since an entry keeps only the fields it changed. Only the units whose entries
    change hits are read, and only their hits: what each carried before its first of
    ``entries`` (a row a unit), then its entries from its first of ``entries`` to its last.
    An entry of experience carries the quality the unit stood at, so its points are said
    toward the next step, and one that changed nothing (points held just short of a step it
    stood at already) the experience the unit holds (`entries_experience_held`)."""
    found = _entries_hits(entries)
    for pk, held in entries_experience_held(entries=entries).items():
        found[pk] = {**found.get(pk, {}), **held}
    return found


def _last_set(field: str) -> Subquery:
    """The value of ``field`` the last entry of the outer entry's unit before it set."""
    return Subquery(
        HistoryEntry.objects.filter(
            unit=OuterRef("unit"), pk__lt=OuterRef("pk"), after__has_key=field
        )
        .order_by("-id")
        .annotate(value=KT(f"after__{field}"))
        .values("value")[:1]
    )


def with_standing(entries: QuerySet[HistoryEntry]) -> QuerySet[HistoryEntry]:
    """``entries`` each read with the quality its unit's history last set before it
    (``quality_before``, a word, None if none did) and the experience (``experience_before``),
    so a list of them says each experience line toward its next step with no query of its own
    (`entries_experience_held`)."""
    return entries.annotate(
        quality_before=_last_set("quality"), experience_before=_last_set("experience")
    )


def entries_experience_held(*, entries: list[HistoryEntry]) -> dict[int, dict[str, Any]]:
    """By entry id, for each entry among ``entries`` of experience, or that sets a unit's
    experience, and does not set its quality: the ``quality`` the unit stood at, the last its
    history set before it (the unit's own if none did); and for one that changed nothing
    (points held just short of a step it stood at already), the ``experience`` it leaves the
    unit holding, the last its history set before it; that ``experience`` alone for one that
    took it a step up and left its points as they were. Entries read `with_standing` need no
    query; one query for the others, and none when there is no such entry."""
    wanted = [
        e
        for e in entries
        if (e.kind == HistoryEntry.Kind.EXPERIENCE or "experience" in e.after)
        and ("quality" not in e.after or _rose_as_it_was(e))
    ]
    standing = {
        e.pk: (e.experience_before, e.quality_before, e.unit.quality)
        for e in wanted
        if hasattr(e, "quality_before")
    }
    unread = [e.pk for e in wanted if e.pk not in standing]
    if unread:
        rows = (
            HistoryEntry.objects.filter(pk__in=unread)
            .annotate(held=_last_set("experience"), stood=_last_set("quality"))
            .values_list("pk", "held", "stood", "unit__quality")
        )
        standing.update((pk, rest) for pk, *rest in rows)
    found: dict[int, dict[str, Any]] = {}
    for e in wanted:
        held, stood, own = standing[e.pk]
        if _rose_as_it_was(e):
            # Its quality is its own; the points it left as they were count toward the next.
            found[e.pk] = {"experience": int(held or 0)}
            continue
        found[e.pk] = {"quality": Quality.of_word(stood) if stood else Quality(own)}
        if e.kind == HistoryEntry.Kind.EXPERIENCE and not e.after:
            found[e.pk]["experience"] = int(held or 0)
    return found


def _rose_as_it_was(entry: HistoryEntry) -> bool:
    """An entry of experience that took its unit a step up and left its points as they were
    (Green at 1 of 2 earns 2: Inexperienced, 1 left over): its sentence says the points it
    holds, which its fields do not (`history.story_text`)."""
    return (
        entry.kind == HistoryEntry.Kind.EXPERIENCE
        and "quality" in entry.after
        and "experience" not in entry.after
    )


def _entries_hits(entries: list[HistoryEntry]) -> dict[int, dict[str, int]]:
    """The hits of `entries_carrying`."""
    units = {e.unit_id for e in entries if any(f in e.after for f in HITS_FIELDS)}
    if not units:
        return {}
    wanted = {e.pk for e in entries}
    spans: dict[int, tuple[int, int]] = {}
    for e in entries:
        if e.unit_id in units:
            low, high = spans.get(e.unit_id, (e.pk, e.pk))
            spans[e.unit_id] = (min(low, e.pk), max(high, e.pk))
    was = units_state_before(
        before={unit: low for unit, (low, _) in spans.items()}, fields=HITS_FIELDS
    )
    # Each unit's entries from its first of ``entries`` to its last, not the whole campaign's
    # between them: an import writes a unit's history all at once.
    within = Q()
    for unit, (low, high) in spans.items():
        within |= Q(unit_id=unit, pk__gte=low, pk__lte=high)
    rows = (
        HistoryEntry.objects.filter(within)
        .order_by("id")
        .annotate(**{f: KT(f"after__{f}") for f in HITS_FIELDS})
        .values_list("pk", "unit_id", *HITS_FIELDS)
    )
    now: dict[int, dict[str, int]] = {
        unit: {**dict.fromkeys(HITS_FIELDS, 0), **was.get(unit, {})} for unit in units
    }
    found = {}
    for pk, unit_id, *hits in rows:
        carried = now[unit_id]
        carried.update({f: int(v) for f, v in zip(HITS_FIELDS, hits, strict=True) if v is not None})
        if pk in wanted:
            found[pk] = dict(carried)
    return found


def unit_snapshot(*, unit: Unit) -> dict[str, Any]:
    """The unit's recorded fields as its history stores them."""
    return unit.state.to_json()


def unit_history_replay(*, unit: Unit) -> dict[str, Any]:
    """The snapshot its history arrives at: every entry's `after`, in order."""
    return snapshot_replay(unit_history(unit=unit).values_list("after", flat=True))


def unit_history_explains(*, unit: Unit) -> bool:
    """Whether replaying the unit's history arrives exactly at its current state."""
    return unit_history_replay(unit=unit) == unit_snapshot(unit=unit)


def history_standing() -> QuerySet[HistoryEntry]:
    """History entries that still stand: neither undone since (a revert entry names them) nor
    set aside (`HistoryEntry.ASIDE`: reverts, which only cancel the entry they name, and
    Orders, which change nothing of the unit's). What the history counts — the medics' work
    of the day, what they saved — it counts of these: a reverted save was never made."""
    return HistoryEntry.objects.filter(reverted_by__isnull=True).exclude(
        kind__in=HistoryEntry.ASIDE
    )
