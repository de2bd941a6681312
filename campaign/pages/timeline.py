"""The campaign's timeline page: its days, its lines, and the units or forces it follows."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet
from django.urls import reverse
from django.utils.text import capfirst

from campaign.models import Campaign, Force, StoryEntry, Unit
from campaign.pages.events import Event, entry_event
from campaign.pages.fights import (
    ENGAGEMENT_READ,
    battles_listed,
    engagement_outcome,
    quick_resolve_outcome,
)
from campaign.pages.finder import SEARCH_LONGEST
from campaign.pages.names import name_order, unit_label
from campaign.pages.sides import engagement_sides, winner_names
from campaign.selectors import battle_setup
from campaign.selectors.entries import (
    entries_carrying,
    entries_undone,
    entry_battles,
    with_standing,
)
from campaign.selectors.timeline import (
    TimelineFocus,
    notable_entries,
    timeline_day_counts,
    timeline_days,
    timeline_entries_on,
    timeline_focus,
    timeline_records,
)
from units.words import and_words, plural, quoted

TIMELINE_DAYS = 14
"""Days with something on them that one page of the timeline shows at most."""
TIMELINE_LINES = 300
"""Lines one page of the timeline holds at most: fewer days when they are full; a day with
more notable entries than this is split over pages, its newest first."""


@dataclass(frozen=True)
class TimelinePage:
    """A window of the campaign's timeline: some of its days, newest first, and the links to
    the days before and after them."""

    days: list[tuple[int, list[Event]]]
    shown: str
    """Which days it shows, in words: "Days 31 to 44 of 44"."""
    earlier: str | None
    """The query of the page before (older), if any: "?before=31"."""
    earlier_label: str
    later: str | None
    """The query of the page after (newer), if any; "" for the first page."""


def clean_cursor(value: str | None) -> int | None:
    """A day or an entry id a page's query asks for, if it is one (a whole number from 1);
    anything else is None, and the page shows its first window, as `clean_sort` its own
    order."""
    if value is None or not value.isascii() or not value.isdigit() or len(value) > 9:
        return None
    return int(value) or None


def timeline(
    campaign: Campaign,
    force_ids: set[int],
    before: int | None = None,
    split: tuple[int, int] | None = None,
    focus: TimelineFocus | None = None,
) -> TimelinePage:
    """The campaign day by day, the latest first: on each, its battles, its engagements, then
    what befell the units of ``force_ids`` (deaths, promotions, GM corrections...), each newest
    first and with a link, then the campaign's own story in the order it happened. One
    window of it: the latest `TIMELINE_DAYS` days with something on them before day
    ``before`` (all, when None), or, with ``split`` (a day, an entry id), that day from its
    entries older than that entry on (the rest of a day split over pages), and the days before
    it; of a ``focus`` (`timeline_focus`), only its units' fights and what befell them. Every
    query reads that window only."""
    below = split
    upto = split[0] if split else (before - 1 if before is not None else None)
    found = timeline_days(campaign=campaign, force_ids=force_ids, upto=upto,
                          limit=TIMELINE_DAYS + 1, focus=focus)  # fmt: skip
    counts = timeline_day_counts(campaign=campaign, force_ids=force_ids,
                                 days=found[:TIMELINE_DAYS], below=below, focus=focus)  # fmt: skip
    chosen: list[int] = []
    lines = 0
    for day in found[:TIMELINE_DAYS]:
        if not counts.get(day):
            continue  # a split day whose entries were all on the pages before
        if chosen and lines + counts[day] > TIMELINE_LINES:
            break
        chosen.append(day)
        lines += counts[day]
    crowded = bool(chosen) and counts[chosen[0]] > TIMELINE_LINES  # then it is alone
    if below is not None and below[0] not in chosen:
        below = None
    whole = [day for day in chosen if below is None or day != below[0]]
    fought, engaged, quick, story = timeline_records(campaign, focus)
    # Each kind of record the latest `TIMELINE_LINES` of the window: only a day crowded past a
    # page (then alone in it) holds more, whose lines say how many more and where they are.
    battles, battles_left = _latest_of(battles_listed(fought.filter(day__in=whole)))
    names = {cb.pk: cb.name for cb in battles}
    winners = winner_names(battles)
    # A battle's own line is its record's: named as the record is now, as the battle's page it
    # links to heads itself. The lines of what it did to the units name it as their entries
    # kept it (`entry_event`), as each unit's history does.
    events = [
        Event(cb.day, "battle",
              f"{cb.name}: " + (f"{winners[cb.pk]} won" if winners[cb.pk] else "no winner")
              + f" ({cb.get_state_display().lower()})",
              reverse("campaign:battle", args=[campaign.pk, cb.pk]))
        for cb in battles
    ]  # fmt: skip
    if battles_left:
        events.append(
            Event(whole[0], "battle",
                  f"{plural(battles_left, 'earlier battle')} of day {whole[0]} "
                  f"{_are(battles_left)} on the list of every battle.",
                  reverse("campaign:battles", args=[campaign.pk]))
        )  # fmt: skip
    engagements, engagements_left = _latest_of(engaged.filter(day__in=whole).only(*ENGAGEMENT_READ))
    sides = engagement_sides(engagements)
    for record in engagements:
        events.append(
            Event(record.day, "engagement",
                  f"{capfirst(record.name)}: {engagement_outcome(record, sides[record.pk])} "
                  f"({record.get_state_display().lower()})",
                  reverse("campaign:engagement", args=[campaign.pk, record.pk]))
        )  # fmt: skip
    if engagements_left:
        events.append(
            Event(whole[0], "engagement",
                  f"{plural(engagements_left, 'earlier engagement')} of day {whole[0]} "
                  f"{_are(engagements_left)} on the list of every engagement.",
                  reverse("campaign:engagements", args=[campaign.pk]))
        )  # fmt: skip
    quick, quick_left = _latest_of(
        quick.filter(day__in=whole).select_related("attacker__force", "defender__force")
    )
    for qr in quick:
        # Its link is to a unit of the two whose page the reader may open, if either.
        seen = [u for u in (qr.attacker, qr.defender) if u.force_id in force_ids]
        events.append(
            Event(qr.day, "engagement",
                  f"{unit_label(qr.attacker)} engaged {unit_label(qr.defender)}: "
                  f"{quick_resolve_outcome(qr)}",
                  reverse("campaign:unit", args=[campaign.pk, seen[0].pk]) if seen else "")
        )  # fmt: skip
    if quick_left:
        events.append(
            Event(whole[0], "engagement",
                  f"{plural(quick_left, 'earlier quick resolve')} of day {whole[0]} "
                  f"{_are(quick_left)} told in the histories of their units.", "")
        )  # fmt: skip
    notable = notable_entries(campaign=campaign, force_ids=force_ids, focus=focus)
    notable = with_standing(notable.filter(timeline_entries_on(whole, below)))
    notable = list(notable[: TIMELINE_LINES + 1])
    more_of_day = crowded and len(notable) > TIMELINE_LINES
    notable = notable[:TIMELINE_LINES]
    # A revert's line names the battle it undid, which may lie outside the window.
    homes, battle_names = entry_battles(entries=notable, known=battles)
    names.update(battle_names)
    carrying = entries_carrying(entries=notable)
    undone = entries_undone(entries=notable)
    for entry_ in notable:
        events.append(entry_event(entry_, campaign.pk, homes, names, carrying, undone))
    # The campaign's own story (its people's changes, the GM's notes) closes the day, after the
    # fights and what they did to the units.
    told, told_left = _latest_of(story.filter(day__in=whole).order_by("-id"))
    if told_left:
        events.append(
            Event(whole[0], "story",
                  f"{plural(told_left, 'earlier line')} of the campaign's story on day "
                  f"{whole[0]} {_are(told_left)} left out.", "")
        )  # fmt: skip
    for line in reversed(told):
        note = line.pk if line.kind == StoryEntry.Kind.NOTE else None
        events.append(Event(line.day, line.kind, line.text, "", note=note))
    days: dict[int, list[Event]] = {}
    for event in events:
        days.setdefault(event.day, []).append(event)
    if more_of_day:
        earlier, earlier_label = f"?day={chosen[0]}&entry={notable[-1].pk}", "Earlier on day"
        earlier_label += f" {chosen[0]}"
    elif chosen and len(found) > len(chosen):
        earlier, earlier_label = f"?before={chosen[-1]}", "Earlier days"
    else:
        earlier, earlier_label = None, "Earlier days"
    later = None
    if (before is not None or split is not None) and chosen:
        # The window after this one: the next days with something, oldest first (a split
        # day from its newest entries, alone if it is crowded).
        newer = timeline_days(campaign=campaign, force_ids=force_ids, above=chosen[0],
                              limit=TIMELINE_DAYS + 1, focus=focus)  # fmt: skip
        if below is not None:
            later = f"?before={below[0] + 1}" if newer else ""
        elif newer:
            later = f"?before={newer[TIMELINE_DAYS - 1] + 1}" if len(newer) > TIMELINE_DAYS else ""
    if not chosen:
        shown = ""
    elif len(chosen) == 1:
        shown = f"Day {chosen[0]} of {campaign.day}"
    else:
        shown = f"Days {chosen[-1]} to {chosen[0]} of {campaign.day}"
    return TimelinePage(
        days=sorted(days.items(), reverse=True),
        shown=shown,
        earlier=earlier,
        earlier_label=earlier_label,
        later=later,
    )


def _latest_of(records: QuerySet) -> tuple[list, int]:
    """The first `TIMELINE_LINES` of ``records`` (the latest, as they are ordered), and how
    many more there are (counted only when there are any)."""
    shown = list(records[: TIMELINE_LINES + 1])
    if len(shown) <= TIMELINE_LINES:
        return shown, 0
    return shown[:TIMELINE_LINES], records.count() - TIMELINE_LINES


def _are(count: int) -> str:
    return "is" if count == 1 else "are"


@dataclass(frozen=True)
class TimelineChoice:
    """Whose story the timeline may be narrowed to: a force seen in full and its units."""

    force: Force
    units: list[tuple[int, str]]
    """Its units, (pk, name), in roster name order."""

    @property
    def value(self) -> str:
        return f"force-{self.force.pk}"

    @property
    def options(self) -> list[tuple[str, str]]:
        """Its units as the timeline's choice offers them: ("unit-12", "2nd Platoon")."""
        return [(f"unit-{pk}", name) for pk, name in self.units]


@dataclass(frozen=True)
class TimelineFollow:
    """The timeline narrowed to one force or one unit (``?focus=force-3``, ``?focus=unit-12``),
    and how the page says so."""

    value: str
    """The address's ``focus``: "force-3" or "unit-12"; "" for the whole campaign."""
    focus: TimelineFocus | None
    whose: str
    """The force or unit followed as pages name it: "Red Company", "2nd Platoon (Red Company)";
    "" for the whole campaign. The page's title and heading name it."""
    refused: bool = False
    """A focus was asked for that the reader may not follow (or that is not there): the whole
    campaign is shown, and the page says so without saying which."""
    named: str = ""
    """The unit followed as pages name it ("2nd Platoon (Red Company)"): where the timeline's
    choice lists no unit (`timeline_lists_units`), the field its name is typed in starts on it."""
    problem: str = ""
    """Why the unit whose name was typed is not followed, in words: none or several are so
    named. The whole campaign is shown."""

    @property
    def shown(self) -> str:
        """Whose story it shows, in words: "the story of 2nd Platoon (Red Company) only"."""
        return f"the story of {self.whose} only" if self.whose else ""

    @property
    def of_force(self) -> bool:
        """It follows a whole force (its units are "they"), not one unit ("it")."""
        return self.value.startswith("force-")

    @property
    def query(self) -> str:
        """What every link of the narrowed timeline carries: "&focus=unit-12"."""
        return f"&focus={self.value}" if self.value else ""


def timeline_choices(campaign: Campaign, force_ids: set[int]) -> list[TimelineChoice]:
    """The forces of ``force_ids`` (those the reader sees in full) that have units, and their
    units, to narrow the timeline to: one query whatever their number."""
    units = Unit.objects.filter(force_id__in=force_ids, force__campaign=campaign)
    forces: dict[int, Force] = {}
    names: dict[int, list[tuple[int, str]]] = {}
    for unit in units.select_related("force").only("pk", "name", "force__name"):
        forces.setdefault(unit.force_id, unit.force)
        names.setdefault(unit.force_id, []).append((unit.pk, unit.name))
    order = sorted(forces.values(), key=lambda f: (name_order(f.name), f.pk))
    return [
        TimelineChoice(force, sorted(names[force.pk], key=lambda u: name_order(u[1])))
        for force in order
    ]


def timeline_lists_units(choices: list[TimelineChoice]) -> bool:
    """Whether the timeline's choice lists every unit it may follow: up to
    `battle_setup.LIST_EVERY_UNIT` of them, as a battle's forms list them. Past that it lists the
    forces only, and a unit is followed by its name, typed (`timeline_follow`): a list of
    hundreds of names is no use on a phone."""
    return sum(len(choice.units) for choice in choices) <= battle_setup.LIST_EVERY_UNIT


def _unit_typed(choices: list[TimelineChoice], typed: str) -> tuple[str, str]:
    """The unit of ``choices`` named ``typed`` ("Squad 7", or "Squad 7 (Red Company)" as pages
    name it), whatever the case of its letters, as ("unit-12", ""); else ("", why not)."""
    said = " ".join(typed.split())[: SEARCH_LONGEST * 3]
    wanted = said.casefold()
    named = [(pk, f"{name} ({choice.force.name})") for choice in choices
             for pk, name in choice.units if wanted == name.casefold()]  # fmt: skip
    labelled = [(pk, f"{name} ({choice.force.name})") for choice in choices
                for pk, name in choice.units
                if wanted == f"{name} ({choice.force.name})".casefold()]  # fmt: skip
    found = labelled or named
    if len(found) == 1:
        return f"unit-{found[0][0]}", ""
    if not found:
        return "", f"No unit whose story you can follow is named {quoted(said)}."
    labels = and_words([label for _, label in found[:5]])
    return "", (
        f"More than one unit is named {quoted(said)}: {labels}. Name its force too, as "
        f"{quoted(found[0][1])}."
    )


def timeline_follow(
    campaign: Campaign, choices: list[TimelineChoice], asked: str | None, typed: str = ""
) -> TimelineFollow:
    """The force or unit the address asks the timeline to follow, if it is one of ``choices``
    (`timeline_choices`: what the reader sees in full); anything else, the whole campaign.
    With no ``focus`` asked, a unit named ``typed`` (``?unit=``, where the choice lists no
    unit), or why none is followed."""
    whole = TimelineFollow("", None, "")
    if not asked and typed.strip():
        asked, problem = _unit_typed(choices, typed)
        if problem:
            return TimelineFollow("", None, "", problem=problem)
    if not asked:
        return whole
    kind, _, pk = asked.partition("-")
    number = clean_cursor(pk)
    for choice in choices:
        if kind == "force" and number == choice.force.pk:
            units = [pk for pk, _ in choice.units]
            focus = timeline_focus(campaign=campaign, units=units)
            return TimelineFollow(asked, focus, choice.force.name)
        for unit_pk, name in choice.units:
            if kind == "unit" and number == unit_pk:
                focus = timeline_focus(campaign=campaign, units=[unit_pk])
                label = f"{name} ({choice.force.name})"
                return TimelineFollow(asked, focus, label, named=label)
    return TimelineFollow("", None, "", refused=True)
