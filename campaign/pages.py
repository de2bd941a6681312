"""Reads shaped for the campaign pages and JSON: roster lines, the dashboard, a unit's card.

Each roster line carries the card as it will be printed for the next battle (``battle_card``):
a unit out of action has none, and its line says so. Everything here works on rows already
loaded with their card and leader, so a roster costs the same few queries however long it is.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from itertools import pairwise
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from django.contrib import messages
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Sum
from django.db.models.fields.json import KT
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.text import capfirst

from battles.charts import line_chart
from campaign.charts import (
    UNIT_HITS,
    UNIT_SERIES,
    days_drawn,
    end_of_words,
    every_words,
    force_strength_series,
    points_drawn,
    unit_series,
)
from campaign.models import (
    Campaign,
    CampaignBattle,
    Engagement,
    Force,
    HistoryEntry,
    Membership,
    QuickResolve,
    StoryEntry,
    TableRoll,
    Unit,
)
from campaign.rules.bridge import (
    BridgeError,
    battle_card,
    card_needs,
    commander_unnamed,
    went_in_for_each,
    went_in_text,
    went_under_orders,
)
from campaign.rules.command import COMMAND_LABELS, Command, Commandable, column, command_of
from campaign.rules.damage import (
    LEADER_DEATH_MORALE_HITS,
    LEADER_DICE_PER_CASUALTY_HIT,
    LEFT_THE_TABLE,
    TableResult,
)
from campaign.rules.engagement import COMBAT_SPECIALTIES, SIDES, UNCOVERED
from campaign.rules.experience import earned_said, earned_standing, threshold
from campaign.rules.history import (
    TOOK,
    experience_has_text,
    experience_text,
    fight_lead,
    fight_named,
    hit_points_shown,
    hits_held_text,
    lost_past_full,
    minus_signs,
    plural,
    possessive,
    revert_text,
    story_text,
    taken_text,
    told_why,
    undone_name,
    undone_parts,
    undone_text,
    without_working,
)
from campaign.rules.orders import clock_hour, clock_text
from campaign.rules.recovery import (
    CASUALTIES,
    awaiting_until,
    casualties_die,
    days_to_rally,
    hits_to_survive,
    medical_capacity,
    medical_window_closes,
    medical_window_open,
    morale_hits_healable,
)
from campaign.rules.state import SNAPSHOT_FIELDS, CampaignUnitState, Status, ordered_specialties
from campaign.rules.window import withdrawn_text
from campaign.selectors import battle_setup
from campaign.selectors.access import campaign_role, campaigns_for_user
from campaign.selectors.entries import (
    StoryPage,
    entries_carrying,
    entries_undone,
    entry_battles,
    history_standing,
    with_standing,
)
from campaign.selectors.reviews import (
    RevertStep,
    entries_after_fight,
    entries_changes,
    fights_applied,
    revert_blockers,
    revert_chain,
    undo_blockers,
    undo_refused,
    undo_step,
    undone_by_revert,
)
from campaign.selectors.roster import (
    CharacterLine,
    campaign_now,
    campaign_units,
    engaged_battles,
    force_roster,
    forces_then,
    leader_most_hit_points,
    medics_worked,
    with_moved,
)
from campaign.selectors.timeline import (
    TimelineFocus,
    entries_since,
    notable_entries,
    timeline_day_counts,
    timeline_days,
    timeline_entries_on,
    timeline_focus,
    timeline_records,
)
from campaign.templatetags.sentences import as_sentence
from config.pagecache import kept_value
from units.bucs import (
    Equipment,
    Quality,
    Specialty,
    fielded,
    kept_beyond_limit,
    skill_shift,
    specials,
    validate_specialties,
    with_requirements,
)
from units.cardtext import (
    CardError,
    card_notes,
    render_card,
    stat_items,
    weapon_head,
    weapon_items,
)
from units.words import and_words, number_text, quoted

if TYPE_CHECKING:
    from campaign.services.going_in import GoingInto


def name_order(name: str) -> tuple[tuple[int, str | int], ...]:
    """A name's place in a list read by people: its numbers by their value, so "Squad 2" comes
    before "Squad 10" and "2nd Squad" before "10th Squad"; letters whatever their case."""
    return tuple(
        (0, int(part)) if part.isdecimal() else (1, part)
        for part in re.split(r"(\d+)", name.casefold())
        if part
    )


SORTS = {
    "name": lambda line: name_order(line.unit.name),
    "type": lambda line: line.unit.unit_type.name.lower(),
    "quality": lambda line: line.unit.quality,
    "skill": lambda line: line.card["skill"] if line.card else -1,
    "morale": lambda line: line.unit.morale_hits,
    "casualty": lambda line: line.unit.casualty_hits,
    "status": lambda line: line.unit.status,
    "experience": lambda line: line.unit.experience,
}
"""Roster columns a player may sort by (``?sort=quality``, ``?sort=-quality`` for descending)."""


@dataclass(frozen=True)
class RosterLine:
    """One unit on a roster, with its next battle card (None when it cannot fight)."""

    unit: Unit
    card: dict[str, Any] | None
    needs_medics: bool
    now: int = 0
    """The clock hour it was read at (`campaign_now`)."""
    order: str = ""
    """The Order it is under, in words (`order_words`), or ""."""
    engine_card: dict[str, Any] | None = None
    """Where ``card`` is the printed one (`printed_lines`): the card a battle fought by the
    engine gives it, under the set-up's standing Order."""
    destroyed: str = ""
    """Where and when it was destroyed, after its status (`destroyed_where`), or "": a unit
    destroyed utterly has no hits left to heal, so its page says this in their place."""
    battle: CampaignBattle | None = None
    """The battle whose outcome is not applied yet that it is in (`roster.engaged_battles`),
    or None: until the outcome is applied, its line and its page show it as it went in, and
    say so beside its status."""
    skill_working: str = ""
    """Where ``card`` is the printed one (`printed_lines`): how its Skill comes from the
    library card's, in a sentence (`bridge.GoingIn.skill_working`); else ""."""

    @property
    def engine_changes(self) -> str:
        """What the engine's card changes from the printed one ("Skill 3, not 2"), or ""."""
        return card_changes(self.card, self.engine_card)

    @property
    def medics_until(self) -> str:
        """How long the medics have to save its Casualty hits, in words, or "": each battle's
        by its own 24 hours when the hits of several await ("the medics have until day 2,
        00:00 for 1 and until day 2, 20:00 for 1")."""
        until = awaiting_until(self.unit.state) if self.needs_medics else []
        if len(until) == 1:
            closes, hits = until[0]
            return medics_deadline(closes, self.now, hits)
        pieces = [
            f"{'this hour only' if closes <= self.now else until_when(closes, self.now)} "
            f"for {hits:,}"
            for closes, hits in until
        ]
        return f"the medics have {and_words(pieces)}" if pieces else ""

    @property
    def rally(self) -> str:
        """When it rallies, in words, if it retreated in poor order (`rally_when`), else "":
        until then it fights in no battle."""
        state = self.unit.state
        if state.status != Status.RETREATED:
            return ""
        return rally_when(state, self.now, days_to_rally(state, self.now))

    @property
    def stats(self) -> list[str]:
        """Its next card's stat line, item by item (`cardtext.stat_items`)."""
        return stat_items(self.card) if self.card else []

    @property
    def weapons(self) -> list[tuple[str, list[str]]]:
        """Each weapon of its next card as the card prints it: its name and dash
        (`cardtext.weapon_head`), then its items, restrictions included
        (`cardtext.weapon_items`)."""
        if not self.card:
            return []
        return [(weapon_head(w), weapon_items(w)) for w in self.card["weapons"]]

    @property
    def notes(self) -> list[str]:
        """What its next card prints after its weapons: its Melee, Keywords and the terrain it
        enters (`cardtext.card_notes`)."""
        return card_notes(self.card) if self.card else []

    @property
    def specialties(self) -> str:
        """The unit's specialties by their names in the rules, in the table's order."""
        return ", ".join(s.label for s in ordered_specialties(self.unit.specialties))

    @property
    def beyond_limit(self) -> str:
        """It holds more specialties than its quality may, in a sentence (`kept_beyond_limit`):
        it keeps them, but gains no new one; "" within its limit, or destroyed."""
        unit = self.unit
        if unit.status == Status.DESTROYED:
            return ""
        return kept_beyond_limit(unit.quality, unit.specialties)

    @property
    def beyond_limit_short(self) -> str:
        """`beyond_limit` in a few words, for the roster and the print sheet (`kept_beyond_limit`,
        ``short``): "2 specialties, more than a Raw unit may hold: kept, no new one until
        Average"."""
        unit = self.unit
        if unit.status == Status.DESTROYED:
            return ""
        return kept_beyond_limit(unit.quality, unit.specialties, short=True)

    @property
    def lacks_card(self) -> str:
        """Its card needs a specialty it lacks, and so it fights as Raw with Poor kit, in a
        sentence (`card_lacks_text`); "" when its specialties cover its card, or it is
        destroyed and fights no more."""
        unit = self.unit
        needed = card_needs(unit.unit_type)
        specialties = ordered_specialties(unit.specialties)
        kit = fielded(Quality(unit.quality), Equipment(unit.equipment), specialties, needed)
        return "" if kit.covered or unit.status == Status.DESTROYED else card_lacks_text(needed)

    @property
    def pips(self) -> list[str]:
        """The hits its quality sustains, as boxes (BUCS: seven for a Legendary unit, one for
        a Raw one; the last breaks it): ``morale`` and ``casualty`` for the hits it carries,
        ``free`` for the rest."""
        unit = self.unit
        boxes = ["morale"] * unit.morale_hits + ["casualty"] * unit.casualty_hits
        return boxes + ["free"] * max(0, Quality(unit.quality).hits_survived - len(boxes))

    @property
    def next_step(self) -> int | None:
        """Experience points its quality needs for the next step (None at Legendary, and for
        a destroyed unit, which takes no step more)."""
        return None if self.unit.status == Status.DESTROYED else threshold(self.unit.quality)


@dataclass(frozen=True)
class TableColumn:
    """One column of the quality table for a unit, as its card prints it."""

    command: Command
    modifier: int
    cannot_act_alone: bool
    """Raw or Green without Orders: it rolls with the table's worst value."""
    now: bool
    """The column it rolls with as it stands: led, under an Order, or neither."""

    @property
    def label(self) -> str:
        return COMMAND_LABELS[self.command]


@dataclass(frozen=True)
class AtTheTable:
    """A unit's BUCS numbers for a GM's unit-against-unit rolls, as it stands now: the quality
    and kit it fights with in unit combat (its hits taken off; Raw with Poor kit without a
    combat specialty, `engagement.COMBAT_SPECIALTIES`), each column of the quality table for
    it, the Order it is under and the specials its specialties and kit give."""

    quality: Quality
    equipment: Equipment
    covered: bool
    columns: list[TableColumn]
    order: str
    """The Order under way, in words (`views.pages._order_words`), or ""."""
    specials: list[str]
    leader: str = ""
    """What the character at its head gives it and risks for it (`leader_gives_text`), or ""
    when nobody leads it."""
    fought: bool = False
    """Whether it is as the unit went into a battle (a battle's print sheet), not as it stands
    now."""

    @property
    def uncovered(self) -> str:
        return "" if self.covered else UNCOVERED


def at_the_table(unit: Unit, order: str, went_in: Mapping[str, Any] | None = None) -> AtTheTable:
    """The unit's "BUCS at the table" block; ``order``: its Order under way in words, or "".
    Given ``went_in`` (`BattleOrder.to_json`), as the unit went into that battle: at the
    quality and with the kit it fought with, under Orders or not (its sheet says how it went
    in beside the block)."""
    held = ordered_specialties(unit.specialties)
    if went_in is None:
        quality, equipment, ordered = unit.effective_quality, Equipment(unit.equipment), bool(order)
    else:
        quality = Quality.of_word(went_in["quality"])
        equipment = Equipment(went_in["equipment"])
        ordered = went_under_orders(went_in)
    kit = fielded(quality, equipment, held, COMBAT_SPECIALTIES)
    leader = getattr(unit, "leader", None)
    led = leader is not None and leader.leads
    if went_in is None:
        now = command_of(Commandable(str(unit.pk), led, ordered, kit.quality))
    else:
        # The column its battle Skill came from (`GoingIn.skill_working`): a battle reads the
        # alone column, under Orders or not, also of a unit a character leads.
        now = Command.UNDER_ORDERS if ordered else Command.WITHOUT_ORDERS
    columns = []
    for command in (Command.UNDER_ORDERS, Command.WITHOUT_ORDERS, Command.ASSISTING):
        alone = command != Command.WITHOUT_ORDERS or kit.quality.can_act_alone
        modifier, _ = column(kit.quality, command)
        columns.append(TableColumn(command, modifier, not alone, command == now))
    # A terrain's bonus is its specialty's, whatever the kit; the kit's own specials and a
    # vehicle's mobility go by the kit it fights with.
    assisting = next(c.modifier for c in columns if c.command == Command.ASSISTING)
    return AtTheTable(
        quality=kit.quality,
        equipment=kit.equipment,
        covered=kit.covered,
        columns=columns,
        order=order,
        specials=specials(held, kit.equipment),
        leader=leader_gives_text(leader.name, assisting, kit.quality) if led else "",
        fought=went_in is not None,
    )


def leader_gives_text(name: str, assisting: int, quality: Quality) -> str:
    """What a character at a unit's head gives it at the table and what the character risks,
    in a sentence for its printed card: the assisting column, the 3d6 a Casualty hit costs the
    character, the 2 Morale hits its death costs the unit; and a Raw unit's Order repeated."""
    sign = "+" if assisting > 0 else ""
    said = (
        f"Led by {name}: it assists {possessive(name)} checks "
        f"({sign}{number_text(assisting)}, the assisting column)"
    )
    if quality == Quality.RAW:
        said += f", and {name} repeats its Order every round, as a Raw unit needs"
    return (
        f"{said}. {name} takes {LEADER_DICE_PER_CASUALTY_HIT}d6 for each Casualty hit it "
        f"suffers, none for Morale hits; should {name} die, it takes "
        f"{LEADER_DEATH_MORALE_HITS} Morale hits at once."
    )


def trained_text(trainer: str, unit: str, entry: HistoryEntry) -> str:
    """What a training did, in words (`unit_train`'s history entry): "Col. Vance trained
    Sappers, which rose from Green to Inexperienced."."""
    before = Quality.of_word(entry.before["quality"]).label
    after = Quality.of_word(entry.after["quality"]).label
    return f"{trainer} trained {unit}, which rose from {before} to {after}."


def hours_hence(at: int, now: int) -> str:
    """How far clock hour ``at`` lies ahead of ``now``, in words: "24 hours from now". A page
    that gives a deadline gives this beside it, so a player need not work it out from a clock
    the page may not show (a roster gives the day alone)."""
    return f"{plural(at - now, 'hour')} from now"


def medics_deadline(closes: int, now: int, hits: int) -> str:
    """How long the medics have, at clock hour ``now``, for ``hits`` Casualty hits whose window
    closes at ``closes`` (`medical_window_closes`): the window is open through that hour, so
    at it the medics still may, for that hour only ("unsaved, it dies" of one hit)."""
    if closes > now:
        return f"the medics have {until_when(closes, now)}"
    dies = "it dies" if hits == 1 else "they die"
    return f"the medics' last hour: unsaved, {dies} when the clock moves on"


def until_when(closes: int, now: int) -> str:
    """ "until day 3, 00:00 (14 hours from now)": the last hour the medics may save Casualty
    hits whose window closes at ``closes``, a later hour than ``now``."""
    return f"until {clock_text(closes)} ({hours_hence(closes, now)})"


def dies_when(closes: int, now: int) -> str:
    """When Casualty hits the medics leave unsaved die, at clock hour ``now``, their window
    closing at ``closes`` (`medical_window_closes`): "after day 3, 14:00 (24 hours from now)",
    or, in the medics' last hour, "when the clock moves on"."""
    if closes > now:
        return f"after {clock_text(closes)} ({hours_hence(closes, now)})"
    return "when the clock moves on"


def dying_when(state: CampaignUnitState, now: int) -> str:
    """When the unit's Casualty hits the medics leave unsaved die, at clock hour ``now``, each
    battle's as its own 24 hours end (`recovery.awaiting_until`), with the verb: "dies after
    day 3, 14:00", "die when the clock moves on", "1 dies after day 2, 00:00 and 1 after day
    2, 20:00" ("" when none await)."""
    until = awaiting_until(state)
    if len(until) == 1:
        return f"{'dies' if until[0][1] == 1 else 'die'} {dies_when(until[0][0], now)}"
    pieces = [f"{hits:,} {dies_when(closes, now)}" for closes, hits in until]
    if pieces:
        count, _, when = pieces[0].partition(" ")
        pieces[0] = f"{count} {'dies' if count == '1' else 'die'} {when}"
    return and_words(pieces)


def left_unsaved_text(lines: list[RosterLine]) -> str:
    """The Casualty hits still awaiting the medics once they have done their work, unit by
    unit, and when they die: "Left unsaved: 1 Casualty hit of Hurt, which dies after day 2,
    00:00." ("" when they saved every one); those of several battles each by their own 24
    hours: "2 Casualty hits of Hurt, of which 1 dies after day 2, 00:00 and 1 after day 2,
    20:00"."""
    left = []
    for line in lines:
        until = awaiting_until(line.unit.state) if line.needs_medics else []
        if not until:
            continue
        which = "which" if len(until) == 1 else "of which"
        left.append(
            f"{plural(line.unit.casualty_hits, 'Casualty hit')} of {line.unit.name}, {which} "
            f"{dying_when(line.unit.state, line.now)}"
        )
    return f"Left unsaved: {'; '.join(left)}." if left else ""


def roster_line(unit: Unit, now: int) -> RosterLine:
    """The unit's roster line at clock hour ``now`` (`campaign_now`)."""
    try:
        card = battle_card(unit)
    except BridgeError:
        card = None
    needs_medics = medical_window_open(unit.state, now)
    return RosterLine(unit=unit, card=card, needs_medics=needs_medics, now=now)


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
    were found too late", "on day 3 (GM correction: shelled at the ford)" (`_step_why`); by
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
        why = _step_why(entry, battle)
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


def printed_lines(lines: list[RosterLine], goings: Mapping[int, GoingInto]) -> list[RosterLine]:
    """``lines`` with the card a battle at a real table prints for each (``goings``,
    `going_in.table_going_into`, with no standing Order) and how its Skill came to be, as the
    unit page, its printable card and the print sheet show it; the card each line had, the
    engine's, kept as its ``engine_card``."""
    printed = []
    for line in lines:
        going = goings.get(line.unit.pk)
        if going is None:
            printed.append(replace(line, card=None, engine_card=line.card))
            continue
        working = going.going.skill_working(line.unit.unit_type.card["skill"])
        printed.append(replace(line, card=going.card, engine_card=line.card, skill_working=working))
    return printed


def clean_sort(value: str) -> str:
    """The sort asked for if it is one we offer, else the roster's own order."""
    return value if value.lstrip("-") in SORTS else "name"


def roster_lines(force: Force, *, sort: str = "name") -> list[RosterLine]:
    """The force's units as roster lines, sorted by a column of ``SORTS`` (`sorted_lines`)."""
    now = campaign_now(force.campaign)
    return sorted_lines([roster_line(unit, now) for unit in force_roster(force=force)], sort)


def sorted_lines(lines: list[RosterLine], sort: str) -> list[RosterLine]:
    """Roster lines sorted by a column of ``SORTS``, by the cards they carry; the destroyed,
    gone for good, after every unit still on its books, whatever the sort."""
    sort = clean_sort(sort)
    key = SORTS[sort.lstrip("-")]
    # Ties keep roster order, so a sorted roster reads the same on every load.
    lines.sort(key=lambda line: (key(line), line.unit.pk), reverse=sort.startswith("-"))
    return sorted(lines, key=lambda line: line.unit.status == Status.DESTROYED)


FOUND_A_PAGE = 50
"""Units one page of a unit search lists, or characters one page of the Characters page."""
SEARCH_LONGEST = 100
"""The longest name a unit search looks for (a unit's name is at most 200 characters)."""


def page_query(asked: Mapping[str, object], number: int) -> str:
    """The address's query for page ``number`` of a search asked with ``asked``: what was left
    empty, and the first page's number, left out."""
    asked = {**asked, "page": number if number > 1 else ""}
    return "?" + urlencode({key: value for key, value in asked.items() if value})


class PageLinks:
    """The queries of the pages either side of a paged search's (`page_query`)."""

    number: int

    def query(self, number: int) -> str:
        raise NotImplementedError

    @property
    def previous_query(self) -> str:
        return self.query(self.number - 1)

    @property
    def next_query(self) -> str:
        return self.query(self.number + 1)


@dataclass(frozen=True)
class UnitSearch(PageLinks):
    """The units a member looks for across the campaign, among the forces they see in full:
    one page of those found, by force, then by name as a roster orders them."""

    forces: list[Force]
    """The forces searched: those the viewer sees in full, in name order."""
    unsearched: list[str]
    """The names of the others, which the viewer sees in summary only."""
    search: str
    force: Force | None
    """The one force looked in, or None for every force searched."""
    status: str
    """The status the units found show (`finder_statuses`), or "" for any."""
    found: list[Unit]
    number: int
    pages: int
    count: int

    @property
    def asked(self) -> bool:
        return bool(self.search or self.force or self.status)

    @property
    def shown(self) -> str:
        """What was found, in words: "3 units with “plat” in their name or their leader's, in
        Red Company, destroyed"; then the page, when there are several (". Page 2 of 3: units
        51 to 100")."""
        what = plural(self.count, "unit") if self.count else "No unit"
        if self.search:
            whose = "their" if self.count > 1 else "its"
            what += f" with “{self.search}” in {whose} name or {whose} leader’s"
        if self.force is not None:
            what += f", in {self.force.name}"
        if self.status:
            what += f", {dict(finder_statuses())[self.status].lower()}"
        if self.pages > 1:
            first = (self.number - 1) * FOUND_A_PAGE + 1
            what += f". Page {self.number} of {self.pages}: units {first} to "
            what += f"{first + len(self.found) - 1}"
        return what

    def query(self, number: int) -> str:
        """The address's query for page ``number`` of the same search."""
        asked = {"q": self.search, "force": self.force.pk if self.force else "",
                 "status": self.status}  # fmt: skip
        return page_query(asked, number)


def finder_statuses() -> list[tuple[str, str]]:
    """The statuses a unit is found by, as its status shows them (`_unit_status.html`): a ready
    unit held by a battle not yet applied shows what it waits for (`CampaignBattle.holds_unit`)
    in place of "Ready"."""
    held = list(CampaignBattle.HOLDS_UNIT.items())
    return [(Status.READY.value, Status.READY.label), *held] + [
        (status.value, status.label) for status in Status if status != Status.READY
    ]


def unit_search(
    campaign: Campaign,
    force_ids: Collection[int],
    *,
    search: str = "",
    force: str = "",
    status: str = "",
    page: int | None = None,
) -> UnitSearch:
    """The units of ``force_ids`` (the forces the viewer sees in full) whose name or leader's
    name contains ``search``, in ``force`` (one of them, by pk; else every one) and of
    ``status`` (else any; one of `finder_statuses`, as the unit's status shows it: "ready" is
    not held by a battle not yet applied, "awaiting" is held by one awaiting review): a page
    of them. A force the viewer may not see in full is never
    searched, nor named back: asked for, it is every force. Four queries whatever the
    campaign's size: its forces, the names of the units found, the page's units and the
    battles not yet applied (`engaged_battles`), each found unit with the one holding it
    (``battle``, else None); and one more when a unit found is destroyed, each with where
    and when it fell (``destroyed``, `destroyed_where`), as its roster line says it."""
    every = list(campaign.forces.order_by("name", "pk"))
    forces = [f for f in every if f.pk in force_ids]
    chosen = next((f for f in forces if str(f.pk) == force), None)
    search = search.strip()[:SEARCH_LONGEST]
    status = status if status in dict(finder_statuses()) else ""
    units = Unit.objects.filter(force__in=[chosen] if chosen else forces)
    # A unit ready but held by a battle not yet applied goes into no other fight: its status
    # says what it waits for in place of "Ready" (`_unit_status.html`), and is found by that.
    held = engaged_battles(campaign=campaign)
    if status in CampaignBattle.HOLDS_UNIT:
        waiting = [pk for pk, battle in held.items() if battle.state == status]
        units = units.filter(status=Status.READY, pk__in=waiting)
    elif status:
        units = units.filter(status=status)
    if status == Status.READY:
        units = units.exclude(pk__in=list(held))
    names = {f.pk: f.name for f in forces}
    rows = units.values_list("pk", "name", "force_id", "leader__name")
    if search:
        # Matched here, not by the database: SQLite's LIKE ignores the case of A to Z only
        # ("émile" would miss "Émile"), and casefold reads every letter alike on any backend.
        wanted = search.casefold()
        rows = [
            (pk, name, force_id, leader)
            for pk, name, force_id, leader in rows
            if wanted in name.casefold() or wanted in (leader or "").casefold()
        ]
    # By force, then as a roster reads its names ("Squad 9" before "Squad 10"): sorted here,
    # from the names alone, and only the page's units read whole.
    order = sorted(
        rows, key=lambda row: (name_order(names[row[2]]), row[2], name_order(row[1]), row[0])
    )
    count = len(order)
    pages = max(1, -(-count // FOUND_A_PAGE))
    number = min(max(1, page or 1), pages)
    start = (number - 1) * FOUND_A_PAGE
    pks = [row[0] for row in order[start : start + FOUND_A_PAGE]]
    read = Unit.objects.select_related("unit_type", "leader").in_bulk(pks) if pks else {}
    by_pk = {f.pk: f for f in forces}
    gone = destroyed_where(read.values(), campaign.pk)
    found = []
    for pk in pks:
        unit = read[pk]
        unit.force = by_pk[unit.force_id]
        unit.battle = held.get(pk)
        unit.destroyed = gone.get(pk, "")
        # The hits it carries, only the kinds it carries ("5 Casualty hits"), as its history.
        hits = unit.morale_hits, unit.casualty_hits
        unit.hits_said = taken_text(*hits) if any(hits) else ""
        found.append(unit)
    unsearched = [f.name for f in every if f.pk not in force_ids]
    return UnitSearch(forces, unsearched, search, chosen, status, found, number, pages, count)


@dataclass(frozen=True)
class CharacterSearch(PageLinks):
    """A page of the characters the Characters page lists (`character_search`), those whose
    name or whose unit's holds what was looked for."""

    lines: list[CharacterLine]
    search: str
    number: int
    pages: int
    count: int
    every: int
    """How many the reader sees in all, whatever was looked for."""

    @property
    def finds(self) -> bool:
        """The page offers its find box: more than a page to look through, or a search."""
        return self.every > FOUND_A_PAGE or bool(self.search)

    @property
    def shown(self) -> str:
        """What the page lists, in words, when it is not every one: "3 characters with “ash”
        in their name or their unit's", "Characters 51 to 100 of 230"; else ""."""
        what = ""
        if self.search:
            whose = "their" if self.count > 1 else "its"
            what = plural(self.count, "character") if self.count else "No character"
            what += f" with “{self.search}” in {whose} name or {whose} unit’s"
        if self.pages > 1:
            first = (self.number - 1) * FOUND_A_PAGE + 1
            where = f"{first} to {first + len(self.lines) - 1} of {self.count}"
            what = f"{what}: {where}" if what else f"Characters {where}"
        return what

    def query(self, number: int) -> str:
        """The address's query for page ``number`` of the same search."""
        return page_query({"q": self.search}, number)


def character_search(
    lines: list[CharacterLine], *, search: str = "", page: int | None = None
) -> CharacterSearch:
    """Page ``page`` (`FOUND_A_PAGE` a page, as a unit search; the first when None, the last
    when past it) of ``lines`` (`roster.campaign_characters`, those the reader sees) whose
    name or whose unit's contains ``search``, whatever the case of its letters, as a unit
    search matches."""
    search = search.strip()[:SEARCH_LONGEST]
    found = lines
    if search:
        wanted = search.casefold()
        found = [
            line
            for line in lines
            if wanted in line.name.casefold()
            or (line.unit is not None and wanted in line.unit.name.casefold())
        ]
    count = len(found)
    pages = max(1, -(-count // FOUND_A_PAGE))
    number = min(max(1, page or 1), pages)
    start = (number - 1) * FOUND_A_PAGE
    shown = found[start : start + FOUND_A_PAGE]
    return CharacterSearch(shown, search, number, pages, count, len(lines))


@dataclass(frozen=True)
class MedicsToday:
    """What a force's Medical crews can still do today, and for whom."""

    capacity: int
    """Hits its ready Medical crews heal in a day, Casualty and Morale."""
    left: int
    wounded: list[Unit]
    """Units whose Casualty hits await the medics (within 24 hours), in roster order."""
    shaken: list[Unit]
    """Units with Morale hits the medics may heal (not a unit's last while it is still in the
    combat zone), in roster order."""
    idle: str = ""
    """Which of its Medical crews cannot work, why and till when (`crews_idle_text`), or ""."""
    kept: tuple[Unit, ...] = ()
    """Units in the combat zone whose one Morale hit is their last, which the medics may not
    heal (`morale_hits_healable`), in roster order."""

    @property
    def no_crew(self) -> str:
        """What a force without a ready Medical crew lacks, and how it gets one ("" when it has
        one): said before any battle too, since after it the 24 hours are short."""
        if self.capacity or self.idle:  # a crew it has but cannot work: `unavailable` says why
            return ""
        return (
            "A Medical crew is a unit holding the Medical specialty; ready, it saves hits each "
            "day, more the better its quality and kit. The GM raises one with Medical ticked, "
            "or gives a unit the specialty (Correct this unit, on its page)."
        )

    @property
    def unavailable(self) -> str:
        """Why the medics cannot be sent in now ("" when they can)."""
        if not self.wounded and not self.shaken:
            nothing = "No unit has Casualty or Morale hits the medics may heal."
            # A player who sees a Morale hit on the roster is told why the medics pass it by,
            # and what heals it.
            return f"{nothing} {kept_last_morale_text(self.kept)}".strip()
        if self.capacity == 0:
            return self.idle or "This force has no ready Medical crew."
        if self.left <= 0:
            return MEDICS_SPENT
        return ""


def medics_today(force: Force, lines: list[RosterLine]) -> MedicsToday:
    """The force's medics today, from its roster lines (one more query: what they saved)."""
    units = [line.unit for line in lines]
    capacity = sum(medical_capacity(unit.state) for unit in units)
    left = sum(medics_worked([force.pk]).left(force.pk, units).values()) if capacity else 0
    wounded = sorted((line.unit for line in lines if line.needs_medics), key=lambda u: u.pk)
    shaken = sorted(
        (line.unit for line in lines if morale_hits_healable(line.unit.state)), key=lambda u: u.pk
    )
    kept = tuple(
        sorted(
            (
                line.unit
                for line in lines
                if line.unit.status != Status.DESTROYED
                and line.unit.morale_hits
                and not morale_hits_healable(line.unit.state)
            ),
            key=lambda u: u.pk,
        )
    )
    # Its crews idle, and why, only when none works: read at the roster's clock hour.
    idle = "" if capacity or not lines else crews_idle_text([ln.unit for ln in lines], lines[0].now)
    return MedicsToday(
        capacity=capacity,
        left=left,
        wounded=wounded,
        shaken=shaken,
        idle=idle,
        kept=kept,
    )


def crew_idle_text(unit: Unit, now: int) -> str:
    """Why a Medical crew saves no hits today, and when it can again, in a clause: "Aid Post is
    retreated in poor order, and works again once it has rallied (rallies after the next day of
    R&R)" (`rally_when`); "" when it can work."""
    state = unit.state
    if Specialty.MEDICAL not in state.specialties or medical_capacity(state):
        return ""
    if state.status == Status.RETREATED:
        days = days_to_rally(state, now)
        when = rally_when(state, now, days)
        said = f"{unit.name} is {state.status.label.lower()}"
        if days is None:
            # Time alone never rallies it: "works again once it has rallied (unless the medics
            # save its Casualty hits, it is destroyed …)" promised a return it will not make.
            said = f"{said}, and R&R alone will not bring it back to work"
            destroyed = medical_window_open(state, now) and casualties_die(state)[0].destroyed
            return f"{said}: {when}" if destroyed else said
        return f"{said}, and works again once it has rallied ({when})"
    if state.status == Status.DESTROYED:
        return f"{unit.name} is destroyed, and works no more"
    return (
        f"{unit.name} saves no hits as {state.effective_quality.label} with "
        f"{state.equipment.label} kit, and works once its quality or kit is better"
    )


def crews_idle_text(units: Iterable[Unit], now: int, whose: str = "Its") -> str:
    """Why a force's Medical crews save no hits today, crew by crew (`crew_idle_text`), in
    sentences, ``whose`` the force's ("Its", or "Red Company's" where the force is not named
    just before); "" when it has none, or one can work."""
    said = [text for unit in units if (text := crew_idle_text(unit, now))]
    if not said:
        return ""
    crews = "Medical crew cannot" if len(said) == 1 else "Medical crews cannot"
    return f"{whose} {crews} work today: {'; '.join(said)}."


def forces_crews_idle(forces: Iterable[Force], now: int) -> dict[int, str]:
    """`crews_idle_text` of each of ``forces`` whose Medical crews cannot work today, by its pk,
    each named (one query, whatever the forces)."""
    by_pk = {force.pk: force for force in forces}
    units: dict[int, list[Unit]] = {}
    for unit in Unit.objects.filter(force_id__in=by_pk).select_related("leader").order_by("pk"):
        units.setdefault(unit.force_id, []).append(unit)
    said = {
        pk: crews_idle_text(units.get(pk, []), now, possessive(force.name))
        for pk, force in by_pk.items()
    }
    return {pk: text for pk, text in said.items() if text}


def medics_left(force_ids: set[int]) -> dict[int, int]:
    """The forces among ``force_ids`` with a ready Medical crew, and the hits their crews may
    still save today (0 once they have saved all they can). Two queries, whatever the forces."""
    if not force_ids:
        return {}
    ready = Unit.objects.filter(force_id__in=force_ids, status=Status.READY)
    crews: dict[int, list[Unit]] = {}
    for unit in ready.select_related("leader"):
        if medical_capacity(unit.state):
            crews.setdefault(unit.force_id, []).append(unit)
    if not crews:
        return {}
    worked = medics_worked(crews)
    return {pk: sum(worked.left(pk, units).values()) for pk, units in crews.items()}


def forces_with_medics(force_ids: set[int]) -> set[int]:
    """The forces among ``force_ids`` whose ready Medical crews may still save hits today: a
    link to send them in leads somewhere they can be sent."""
    return {pk for pk, left in medics_left(force_ids).items() if left}


MEDICS_SPENT = "The Medical crews have saved all they can today."


@dataclass(frozen=True)
class ForceSummary:
    force: Force
    units: int
    ready: int
    version: int
    """The sum of its units' version tokens (``units.models.Versioned``): it changes with any
    saved change to a unit, which is also when a unit's history gains an entry."""
    destroyed: int = 0
    """Of its ``units``, those destroyed: still on its roster and in its story, no longer
    fighting."""
    held: int = 0
    """Of its ``ready`` units, those still in a battle whose outcome is not applied
    (`roster.engaged_battles`): they go into no other fight until it is."""

    @property
    def colour(self) -> str:
        return force_colour(self.force)


def units_count_text(units: int, destroyed: int) -> str:
    """How many units a force has, destroyed ones said apart: they stay on its roster but no
    longer fight ("5 units (1 destroyed)", "2 units, all destroyed")."""
    text = plural(units, "unit")
    if destroyed and destroyed == units:
        return text + (", destroyed" if units == 1 else ", all destroyed")
    return text + (f" ({destroyed} destroyed)" if destroyed else "")


def force_summaries(campaign: Campaign) -> list[ForceSummary]:
    """Each force with its unit counts: what a player may always see of another force (of its
    ready units, how many a battle not yet applied holds is part of its roster)."""
    engaged = list(engaged_battles(campaign=campaign))
    counts = {
        row["force_id"]: (row["units"], row["ready"], row["version"], row["destroyed"], row["held"])
        for row in Unit.objects.filter(force__campaign=campaign)
        .values("force_id")
        .annotate(
            units=Count("id"),
            ready=Count("id", filter=Q(status=Status.READY)),
            version=Sum("version"),
            destroyed=Count("id", filter=Q(status=Status.DESTROYED)),
            held=Count("id", filter=Q(status=Status.READY, pk__in=engaged)),
        )
        .order_by()
    }
    forces = campaign.forces.select_related("owner").order_by("name")
    return [ForceSummary(f, *counts.get(f.pk, (0, 0, 0, 0, 0))) for f in forces]


@dataclass(frozen=True)
class Attention:
    unit: Unit
    reason: str
    """Why, in sentences: "1 Casualty hit awaits the medics. Unsaved, it dies after …", its
    dying leader's last (`leader_down`)."""
    medics: bool = False
    """Its Casualty hits await the medics (they die when its medical window closes)."""
    rally_days: int | None = None
    """Days of R&R until it rallies, if it retreated and time alone rallies it
    (`recovery.days_to_rally`)."""
    rally: str = ""
    """When it rallies, in words, if it retreated (`rally_when`)."""
    leader_down: str = ""
    """Why its leader leads it not, if it is dying (`Leader.leads_nobody`): a heal is due."""
    crews_idle: str = ""
    """Why its force's Medical crews cannot save its hits today, if they cannot
    (`forces_crews_idle`)."""
    unit_reason: str = ""
    """`reason` without its dying leader's sentence: where the leader has a line of its own
    (the GM's, with a way to heal them), the unit's says only what befalls the unit."""
    medics_reason: str = ""
    """`reason`'s sentences on its Casualty hits awaiting the medics, if they await them: how
    many, and when they die unsaved."""


@dataclass(frozen=True)
class HeldInBattle:
    """A battle whose outcome is not applied yet, and the viewer's units it holds."""

    battle: CampaignBattle
    units: list[Unit]

    @property
    def text(self) -> str:
        """What it means for them, after the battle's name: "the GM has yet to review and apply
        its outcome. Until then 1st Squad and Atlas are shown as they went in, and go into no
        other fight"."""
        one = len(self.units) == 1
        are, they = ("is", "it") if one else ("are", "they")
        goes = "goes" if one else "go"
        if self.battle.state == CampaignBattle.State.AWAITING:
            waits = "the GM has yet to review and apply its outcome. Until then"
        else:
            waits = "still being fought. Until its outcome is applied,"
        return (
            f"{waits} {_names(self.units)} {are} shown as {they} went in, and {goes} into no "
            "other fight"
        )


def battles_holding(campaign: Campaign, engaged: list[tuple[Unit, str]]) -> list[CampaignBattle]:
    """The battles whose outcome is not applied yet holding ``engaged`` (the units a form leaves
    out, each with its battle's name), the earliest first: their units fight again once it is
    applied, and the form leads the GM back to them. One query, whatever the roster."""
    if not engaged:
        return []
    battles = engaged_battles(campaign=campaign)
    held = {battles[u.pk].pk: battles[u.pk] for u, _ in engaged if u.pk in battles}
    return sorted(held.values(), key=lambda b: (b.day, b.pk))


def units_held_in_battles(campaign: Campaign, visible: set[int]) -> list[HeldInBattle]:
    """The battles whose outcome is not applied yet (`roster.engaged_battles`) that hold
    units of the forces ``visible``, each with those units, the earliest battle first: a player
    waits on the GM's review of them, and "Needs attention" says so."""
    engaged = engaged_battles(campaign=campaign)
    held: dict[int, HeldInBattle] = {}
    units = campaign_units(campaign=campaign).filter(pk__in=list(engaged), force_id__in=visible)
    for unit in units.order_by("name", "pk"):
        battle = engaged[unit.pk]
        held.setdefault(battle.pk, HeldInBattle(battle, [])).units.append(unit)
    return sorted(held.values(), key=lambda h: (h.battle.day, h.battle.pk))


def rally_when(state: CampaignUnitState, now: int, days: int | None) -> str:
    """When a unit retreated in poor order rallies, in words, by the rule the calendar follows:
    ``days`` is `recovery.days_to_rally` of ``state`` at ``now``."""
    if days == 1:
        return "rallies after the next day of R&R"
    if days is not None:
        return f"its hits keep it below {Quality.RAW.label}; it rallies after {days} days of R&R"
    if medical_window_open(state, now) and casualties_die(state)[0].destroyed:
        # How many must be saved, as the roster's zone note says it (`recovery.zone_problem`):
        # "its Casualty hits" read as all of them where fewer will do.
        need, hits = hits_to_survive(state), state.casualty_hits
        saved = (
            f"at least {need} of its {hits} Casualty hits"
            if need < hits
            else f"its {plural(hits, 'Casualty hit')}"
        )
        return f"unless the medics save {saved}, it is destroyed when their 24 hours are over"
    return "R&R alone will not rally it"


def rallied_text(strategist: str, unit: str, state: CampaignUnitState, now: int) -> str:
    """What a Strategist's rally did, in words, ``state`` the unit's after it: a Morale hit
    healed, and, of a unit retreated in poor order, that it still is and when R&R rallies it
    (`rally_when`): the rally itself brings no unit back into action. The Strategist's part is
    said in the copy's verb ("heal"), so "rallies" names only the unit's return to action."""
    said = f"{strategist} healed one Morale hit of {unit}"
    if state.status != Status.RETREATED:
        return f"{said}."
    when = rally_when(state, now, days_to_rally(state, now))
    return f"{said}; {unit} is still retreated in poor order: {when}."


def rallying_text(rallying: list[Attention]) -> str:
    """The GM's line for the retreated units: which the next day of R&R rallies, by name (the
    others are listed under it, each with its `rally_when`). "1 unit retreated in poor order:
    the next day of R&R rallies it" left the GM to find which."""
    next_day = [a.unit for a in rallying if a.rally_days == 1]
    named = and_words([unit_label(unit) for unit in next_day])
    if len(next_day) == len(rallying):
        return (
            f"{named} retreated in poor order: the next day of R&R rallies "
            f"{'it' if len(next_day) == 1 else 'them'}."
        )
    said = f"{plural(len(rallying), 'unit')} retreated in poor order"
    if not next_day:
        none = "does not rally it" if len(rallying) == 1 else "rallies none of them"
        return f"{said}; the next day of R&R {none}:"
    later = len(rallying) - len(next_day)
    # The units it does not rally are listed under the line: pointed at, not "this one".
    below = "the one below" if later == 1 else f"the {number_text(later)} below"
    return f"{said}; the next day of R&R rallies {named}, not {below}:"


@dataclass(frozen=True)
class WaitingLine:
    """One thing waiting for a member on "My campaigns", in a phrase: of a unit, named before
    it and linked to its page, as every list of units is ("Blue Rifles: 5 Casualty hits …")."""

    text: str
    unit: Unit | None = None


@dataclass(frozen=True)
class CampaignLine:
    """A campaign on its member's list: their part in it, and what waits for them there."""

    campaign: Campaign
    role: str
    """gm, co_gm, player or spectator (`campaign_role`)."""
    waiting: list[WaitingLine]
    """What the member can do there, a phrase each: for the GMs the battles awaiting their
    review; units needing attention, what changed."""
    told: tuple[str, ...] = ()
    """Sentences that ask nothing of the member: for a player, their units held in a battle
    awaiting the GM's review, the GM's to do."""

    @property
    def role_label(self) -> str:
        return "GM" if self.role == "gm" else Membership.Role(self.role).label


def my_campaigns(user: Any) -> list[CampaignLine]:
    """Each campaign ``user`` runs or belongs to, with what waits for them there: for the GMs,
    battles awaiting review; for the GMs and players, their units needing attention (every
    force for the GMs, their own for a player), for a player their units in a battle awaiting
    the GM's review, and what befell those units since their last visit to the campaign's
    page."""
    lines = []
    for campaign in campaigns_for_user(user=user).select_related("gm"):
        role = campaign_role(campaign=campaign, user=user) or "spectator"
        manages = role in ("gm", "co_gm")
        waiting = []
        if manages:
            awaiting = campaign.battles.filter(state=CampaignBattle.State.AWAITING).count()
            if awaiting:
                waiting.append(WaitingLine(f"{plural(awaiting, 'battle')} awaiting your review"))
        forces = Force.objects.filter(campaign=campaign)
        own = set((forces if manages else forces.filter(owner=user)).values_list("pk", flat=True))
        attention = units_needing_attention(campaign, own) if own else []
        if attention:
            whose = "" if manages else " of yours"
            needs = "needs" if len(attention) == 1 else "need"
            waiting.append(
                WaitingLine(f"{plural(len(attention), 'unit')}{whose} {needs} attention")
            )
            waiting += waiting_on_the_medics(attention)
        told = held_for_review_text(campaign, own) if own and not manages else ()
        seen = (
            campaign.gm_last_visit_at
            if role == "gm"
            else Membership.objects.filter(campaign=campaign, user=user)
            .values_list("last_visit_at", flat=True)
            .first()
        )
        if own and seen is not None:
            news = HistoryEntry.objects.filter(unit__force_id__in=own, created_at__gt=seen).count()
            if news:
                waiting.append(
                    WaitingLine(f"{plural(news, 'change')} to your units since your last visit")
                )
        lines.append(CampaignLine(campaign, role, waiting, told))
    return lines


def held_for_review_text(campaign: Campaign, own: set[int]) -> tuple[str, ...]:
    """A player's units held in battles awaiting the GM's review, in a sentence: the review
    is the GM's to do, but "Nothing" alone would leave them wondering why their units are
    shown as they went in ("2 units of yours are in a battle awaiting the GM's review.")."""
    held = [
        h
        for h in units_held_in_battles(campaign, own)
        if h.battle.state == CampaignBattle.State.AWAITING
    ]
    units = sum(len(h.units) for h in held)
    if not units:
        return ()
    are = "is" if units == 1 else "are"
    battles = "a battle" if len(held) == 1 else "battles"
    return (f"{plural(units, 'unit')} of yours {are} in {battles} awaiting the GM's review.",)


ON_THE_MEDICS_NAMED = 3
"""How many units whose Casualty hits await the medics a campaign's line on "My campaigns"
names, the soonest to die first; the dashboard names every one."""


def waiting_on_the_medics(attention: list[Attention]) -> list[WaitingLine]:
    """For a campaign's line on "My campaigns": the units whose Casualty hits await the medics,
    each with how many and when they die unsaved, the soonest first ("Blue Rifles: 5 Casualty
    hits await the medics in their last hour. Unsaved, they die when the clock moves on."), so
    the deadline is read before the dashboard is opened; past the first few, how many more."""
    waiting = [a for a in attention if a.medics_reason]
    waiting.sort(key=lambda a: (awaiting_until(a.unit.state)[0][0], a.unit.name))
    lines = [WaitingLine(a.medics_reason, a.unit) for a in waiting[:ON_THE_MEDICS_NAMED]]
    more = len(waiting) - ON_THE_MEDICS_NAMED
    if more > 0:
        units = plural(more, "more unit")
        lines.append(
            WaitingLine(f"{units} with Casualty hits awaiting the medics, on the dashboard")
        )
    return lines


def unit_joins_text(units: list[Unit], force: Force) -> str:
    """Units raised alike, in a sentence: where they join, with the specialty their card needs,
    or, lacking it, that they fight as Raw with Poor kit on that card. One unit whose quality
    may hold that specialty beside those ticked (a crew raised with Medical alone, on a card
    that needs Infantry) is offered the way to give it, its correction on its page."""
    first = units[0]
    who = first.name if len(units) == 1 else f"{first.name} to {units[-1].name}"
    said = who + unit_joins_rest(units, force)
    needed = card_needs(first.unit_type)
    held = set(ordered_specialties(first.specialties))
    if len(units) > 1 or needed <= held:
        return said
    wanted = with_requirements(held | needed)
    if validate_specialties(first.quality, wanted, held=held):
        return said  # its quality may not hold them all: nothing to offer
    url = reverse("campaign:unit", args=[force.campaign_id, first.pk]) + "#edit-form"
    names = and_words([s.label for s in ordered_specialties(needed)])
    return format_html(
        '{} <a href="{}">Correct {}</a> to give it the {} specialty.', said, url, first.name, names
    )


def unit_joins_rest(units: list[Unit], force: Force) -> str:
    """`unit_joins_text` after the units' names (" joins Red Company."), for a sentence that
    names them its own way (as a link)."""
    first = units[0]
    needed = card_needs(first.unit_type)
    held = set(ordered_specialties(first.specialties))
    text = f" {'joins' if len(units) == 1 else 'join'} {force.name}"
    if not needed:
        return text + "."
    names = and_words([s.label for s in ordered_specialties(needed)])
    its = "its" if len(units) == 1 else "their"
    if needed <= held:
        return f"{text}, with the {names} specialty {its} card needs."
    return f"{text}. {card_lacks_text(needed, one=len(units) == 1)}"


def card_lacks_text(needed: Collection[Specialty], *, one: bool = True) -> str:
    """A unit (``one``) or units whose specialties do not cover their card, in a sentence: on
    that card they fight as Raw, with Poor kit (`units.bucs.fielded`)."""
    names = and_words([s.label for s in ordered_specialties(needed)])
    its, lacks, fights = (
        ("Its", "it lacks", "it fights") if one else ("Their", "they lack", "they fight")
    )
    return (
        f"{its} card needs the {names} specialty, which {lacks}: on that card {fights} as Raw, "
        "with Poor kit."
    )


def units_needing_attention(campaign: Campaign, visible: set[int]) -> list[Attention]:
    """Retreated units, units whose Casualty hits await the medics and units whose leader is
    dying (forces the viewer sees in full only)."""
    found = []
    now = campaign_now(campaign)
    # Only the units that may need attention are read (a campaign may hold thousands);
    # ``medical_window_open`` still decides (Casualty hits never outlast their 24 hours).
    # A leader below 0 hit points may be dying (`Leader.leads_nobody` decides): a heal is due.
    knocked_out = Q(leader__alive=True, leader__hit_points__lt=0)
    maybe = Q(status=Status.RETREATED) | Q(casualty_hits__gt=0) | knocked_out
    for unit in campaign_units(campaign=campaign).filter(maybe, force_id__in=visible):
        # A unit may have retreated with Casualty hits still to save: the medics come first,
        # since those hits die 24 hours after the battle and a retreat rallies by itself.
        medics = medical_window_open(unit.state, now)
        reasons = []  # each a sentence
        if medics:
            hits = plural(unit.casualty_hits, "Casualty hit")
            one = unit.casualty_hits == 1
            await_, they = ("awaits", "it") if one else ("await", "they")
            until = awaiting_until(unit.state)
            closes = until[0][0]
            if len(until) > 1:
                # Several battles' hits, each by its own 24 hours: "1 dies after …, and 1 after …".
                last, they = "", ""
            else:
                last = "" if closes > now else " in their last hour"
            die = dying_when(unit.state, now)
            if they:
                die = f"{they} {'dies' if one else 'die'} {die.partition(' ')[2]}"
            reasons.append(f"{hits} {await_} the medics{last}. Unsaved, {die}.")
        rally_days, rally = None, ""
        if unit.status == Status.RETREATED:
            rally_days = days_to_rally(unit.state, now)
            rally = rally_when(unit.state, now, rally_days)
            reasons.append(f"Retreated in poor order: {rally}.")
        # A dying leader needs a heal even when the unit it led is destroyed: it outlives it.
        leader = getattr(unit, "leader", None)
        down = "" if leader is None else leader.leads_nobody
        own = " ".join(reasons)
        if down:
            reasons.append(f"{down}.")
        if reasons:
            found.append(
                Attention(
                    unit,
                    " ".join(reasons),
                    medics,
                    rally_days,
                    rally,
                    down,
                    unit_reason=own,
                    medics_reason=reasons[0] if medics else "",
                )
            )
    return found


def recent_battles(campaign: Campaign, limit: int = 10) -> list[CampaignBattle]:
    """The campaign's latest ``limit`` battles, newest first, then any older one whose outcome
    still awaits the GM's review: the dashboard lists the latest, and every one awaiting review
    is the GM's to do however many were fought since. One query."""
    latest = campaign.battles.values("pk")[:limit]
    return list(
        battles_listed(
            campaign.battles.filter(Q(pk__in=latest) | Q(state=CampaignBattle.State.AWAITING))
        )
    )


def battles_listed(battles: QuerySet[CampaignBattle]) -> QuerySet[CampaignBattle]:
    """``battles`` as a list of them reads each: with its engine battle but not the scenario it
    was fought from (a snapshot of every unit's card), save the id of the side the scenario
    lists first (``first_side``), which orders the battle's sides (`side_order`)."""
    return (
        battles.select_related("battle")
        .defer("battle__scenario")
        .annotate(first_side=F("battle__scenario__sides__0__id"))
    )


@dataclass(frozen=True)
class Fight:
    """A battle or an engagement as the dashboard lists them, together."""

    name: str
    day: int
    url: str
    outcome: str
    """How it went: "Red Company won", "Blue Battalion won after 4 rounds", "being fought"."""
    state: str
    """Its state's value (the badge's colour) and, below, its words."""
    state_label: str
    engagement: bool
    table: bool
    """A battle fought at a real table, its result entered by the GM."""
    sides: str = ""
    """Who fought whom, by their forces: "Red Company against Blue Battalion"."""


ENGAGEMENT_READ = ("pk", "campaign", "name", "day", "winner", "state", "rounds", "setup",
                   "created_at")  # fmt: skip
"""What a list of engagements reads of each: its campaign too, else the related manager reads
it once a row."""


def recent_fights(
    campaign: Campaign, battles: list[CampaignBattle], limit: int = 10
) -> list[Fight]:
    """The campaign's latest battles (``battles``, newest first, `recent_battles`) and
    engagements together, newest first: by day, then by when they were fought or entered."""
    engagements = list(
        campaign.engagements.only(*ENGAGEMENT_READ).order_by("-day", "-created_at", "-id")[:limit]
    )
    named = battles_side_names(battles)
    sides = engagement_sides(engagements)
    found = []
    for cb in battles:
        found.append(((cb.day, cb.created_at), _battle_fight(cb, named[cb.pk])))
    for e in engagements:
        found.append(((e.day, e.created_at), _engagement_fight(e, sides[e.pk])))
    found.sort(key=lambda when_fight: when_fight[0], reverse=True)
    return [fight for _, fight in found[:limit]]


FIGHTS_A_PAGE = 25
"""Battles, or engagements, one page of the campaign's list of them shows."""


@dataclass(frozen=True)
class FightsPage:
    """A page of the campaign's battles, or of its engagements, the latest first, as their
    lists show them: one shape for both lists."""

    lines: list[Fight]
    number: int
    pages: int
    count: int
    noun: str
    """What the list holds: "battle" or "engagement"."""

    @property
    def shown(self) -> str:
        """Which of them the page shows, in words: "Engagements 26 to 50 of 112"."""
        if self.count <= FIGHTS_A_PAGE:
            return plural(self.count, self.noun)
        first = (self.number - 1) * FIGHTS_A_PAGE + 1
        return f"{self.noun.capitalize()}s {first} to {first + len(self.lines) - 1} of {self.count}"


def _page_of(records: QuerySet, number: int | None) -> tuple[list[Any], int, int, int]:
    """Page ``number`` of ``records`` (the first when None, the last when past it): its
    records, its number, how many pages and how many records. Two queries."""
    count = records.count()
    pages = max(1, -(-count // FIGHTS_A_PAGE))
    number = min(max(1, number or 1), pages)
    start = (number - 1) * FIGHTS_A_PAGE
    return list(records[start : start + FIGHTS_A_PAGE]), number, pages, count


def engagements_page(campaign: Campaign, number: int | None = None) -> FightsPage:
    """Page ``number`` of the campaign's engagements (`_page_of`), the latest first as the
    dashboard orders them: by day, then by when they were fought. Three queries whatever the
    count: how many, the page, the forces of their sides."""
    records = campaign.engagements.order_by("-day", "-created_at", "-id").only(*ENGAGEMENT_READ)
    shown, number, pages, count = _page_of(records, number)
    sides = engagement_sides(shown)
    lines = [_engagement_fight(e, sides[e.pk]) for e in shown]
    return FightsPage(lines, number, pages, count, "engagement")


def battle_records_page(
    campaign: Campaign, number: int | None = None
) -> tuple[list[CampaignBattle], int, int, int]:
    """Page ``number`` of the campaign's battles, the engine's and those at the table
    (`_page_of`), the latest first as the dashboard orders them: by day, then by when they
    were fought or entered, then by id, so every battle has one place. The Every battle page
    and the battles' JSON page them alike. Two queries: how many, the page with its engine
    battles."""
    records = campaign.battles.order_by("-day", "-created_at", "-id")
    return _page_of(battles_listed(records), number)


def battles_page(campaign: Campaign, number: int | None = None) -> FightsPage:
    """Page ``number`` of the campaign's battles (`battle_records_page`), as their list shows
    them. Every member reads them, as the dashboard's latest. Three queries whatever the
    count: how many, the page with its engine battles, the forces of their sides."""
    shown, number, pages, count = battle_records_page(campaign, number)
    sides = battles_side_names(shown)
    lines = [_battle_fight(cb, sides[cb.pk]) for cb in shown]
    return FightsPage(lines, number, pages, count, "battle")


def _engagement_fight(e: Engagement, sides: Mapping[str, str]) -> Fight:
    """An engagement as its lists show it; ``sides`` as `engagement_sides` names them."""
    url = reverse("campaign:engagement", args=[e.campaign_id, e.pk])
    return Fight(e.name, e.day, url, engagement_outcome(e, sides), e.state,
                 e.get_state_display(), engagement=True, table=False,
                 sides=" against ".join(sides[side] for side in SIDES))  # fmt: skip


def _battle_fight(cb: CampaignBattle, sides: Mapping[str, str]) -> Fight:
    """A battle as its lists show it; ``sides`` as `battles_side_names` names them."""
    url = reverse("campaign:battle", args=[cb.campaign_id, cb.pk])
    won = battle_winner(cb)
    outcome = _battle_outcome(cb, sides.get(won) if won else None)
    return Fight(cb.name, cb.day, url, outcome, cb.state, cb.get_state_display(),
                 engagement=False, table=bool(cb.table_result),
                 sides=" against ".join(sides.values()))  # fmt: skip


def campaign_battles_of(user: Any, limit: int = 50) -> list[tuple[Campaign, Fight]]:
    """The latest battles of every campaign ``user`` runs or belongs to (`campaigns_for_user`),
    newest first, each with its campaign, as its campaign's dashboard lists it: every member
    may open a campaign's battles and read their outcomes (fog of war hides only what a side
    did not see, on the battle's page). A few queries whatever the number of campaigns."""
    battles = list(
        battles_listed(
            CampaignBattle.objects.filter(campaign__in=campaigns_for_user(user=user).values("pk"))
        )
        .select_related("campaign")
        .order_by("-created_at", "-id")[:limit]
    )
    sides = battles_side_names(battles)
    return [(cb.campaign, _battle_fight(cb, sides[cb.pk])) for cb in battles]


def campaigns_with_battles(user: Any) -> list[Campaign]:
    """Every campaign ``user`` runs or belongs to (`campaigns_for_user`) that has a battle, by
    name: where the Battles page leads past the latest it lists (`campaign_battles_of`), so a
    campaign whose battles are all older is reached too. One query."""
    fought = CampaignBattle.objects.filter(campaign=OuterRef("pk"))
    return list(
        Campaign.objects.filter(pk__in=campaigns_for_user(user=user).values("pk"))
        .filter(Exists(fought))
        .order_by("name", "pk")
    )


def _battle_outcome(cb: CampaignBattle, winner: str | None) -> str:
    """How a battle went, as the dashboard lists it: "Red Company won", "a draw"."""
    if cb.state == CampaignBattle.State.FIGHTING:
        return "being fought"
    if cb.state == CampaignBattle.State.FAILED:
        return "—"
    return f"{winner} won" if winner else "a draw"


def recent_quick_resolves(campaign: Campaign, limit: int = 5) -> list[QuickResolve]:
    return list(campaign.quick_resolves.select_related("attacker", "defender")[:limit])


def quick_resolve_outcome(record: QuickResolve) -> str:
    """How a quick resolve ended, by the winner's name: "Scout Car won after 4 rounds"."""
    rounds = plural(record.rounds, "round")
    if record.winner == QuickResolve.Winner.ATTACKER:
        return f"{record.attacker.name} won after {rounds}"
    if record.winner == QuickResolve.Winner.DEFENDER:
        return f"{record.defender.name} won after {rounds}"
    return f"no winner after {rounds} (the round limit)"


def quick_resolve_reason(record: QuickResolve, forces_in_full: Collection[int]) -> str:
    """The GM's reason for a quick resolve, for a reader who sees in full (``forces_in_full``,
    `Viewer.forces_in_full`) the force of either of its units, else "": a GM's note goes with
    what it is on, as an Order's does, and a fight between two units is both sides' to read,
    as a contest is."""
    forces = {record.attacker.force_id, record.defender.force_id}
    return record.reason if forces & set(forces_in_full) else ""


def engagement_outcome(record: Engagement, sides: Mapping[str, str]) -> str:
    """How an engagement ended, its winner named as ``sides`` (`engagement_sides`) names the
    sides: "Red Company won after 1 round", "no winner after 3 rounds"."""
    rounds = plural(record.rounds, "round")
    won = sides.get(record.winner) if record.winner else None
    return f"{won} won after {rounds}" if won else f"no winner after {rounds}"


def requisition_refused(roll: TableRoll) -> bool:
    """A Requisition rolled and failed: no unit raised."""
    return roll.kind == TableRoll.Kind.REQUISITION and not roll.result.get("success")


def roll_notice(roll: TableRoll) -> tuple[str, int]:
    """What the checks page says after a roll, and at what level: a refused Requisition is a
    roll made and kept, but no unit raised, so a warning that says so, never a "Done"; any other
    roll is done whatever it rolled; a unit raised is said as raising it on its force's page says
    it (where it joins, with its card's specialty or lacking it). The rules set no limit on
    asking again, so a refused one says that the form keeps what was asked
    (`views.table.checks_page`), and what asks for less."""
    summary = minus_signs(roll.summary)
    if requisition_refused(roll):
        said = (
            f"{summary}. No unit was raised; the roll is kept with the others. The form keeps "
            "what was asked: roll again, or ask for less (a lower quality or poorer equipment "
            "lowers the DC)."
        )
        return said, messages.WARNING
    raised = roll.kind == TableRoll.Kind.REQUISITION and roll.result.get("unit")
    unit = raised and Unit.objects.select_related("force", "unit_type").filter(pk=raised).first()
    if unit:
        # Where the unit joins, and whether its specialties cover its card, as raising it on its
        # force's page says (`unit_joins_text`); its name a link to its page, to go on to it.
        joins = unit_joins_rest([unit], unit.force)
        url = reverse("campaign:unit", args=[unit.force.campaign_id, unit.pk])
        said = format_html('{}. <a href="{}">{}</a>{}', summary, url, unit.name, joins)
        return said, messages.SUCCESS
    return f"{summary}.", messages.SUCCESS


def card_changes(printed: dict[str, Any] | None, other: dict[str, Any] | None) -> str:
    """What ``other`` card changes from the ``printed`` one, in the card's words: "Skill 4, not
    3"; "" when they agree (or either is missing)."""
    if printed is None or other is None:
        return ""
    changed = [
        f"{key.capitalize()} {other[key]}, not {printed.get(key)}"
        for key in other
        if other[key] != printed.get(key) and isinstance(other[key], int | str)
    ]
    return "; ".join(changed)


def card_text(card: dict[str, Any] | None) -> str:
    """The card in the rule text's layout, or "" when it cannot be printed."""
    if card is None:
        return ""
    try:
        return render_card(card)
    except CardError:
        return ""


def card_html(card: dict[str, Any] | None) -> str:
    """`card_text` for a printed card's ``<pre>``, each stat and each weapon item kept whole
    (``<span class="nowrap">``) as the roster keeps them: a narrow card breaks its lines between
    "Hits 1 ·" and "Size 1", never between "Hits" and its 1. Read without its tags it is
    `card_text` to the letter. A card that cannot be printed so (a building's) is its text."""
    text = card_text(card)
    if not text or card is None or "skill" not in card:
        return text

    def whole(items: list[str], sep: str) -> str:
        kept = [f"{item}{sep}" for item in items[:-1]] + items[-1:]
        return format_html_join(" ", '<span class="nowrap">{}</span>', ((k,) for k in kept))

    lines = [format_html("{}", card["name"]), whole(stat_items(card), " ·")]
    lines += [
        format_html("{} {}", weapon_head(w), whole(weapon_items(w), ",")) for w in card["weapons"]
    ]
    lines += [format_html("{}", note) for note in card_notes(card)]
    return format_html_join("\n", "{}", ((line,) for line in lines))


def battle_winner(campaign_battle: CampaignBattle) -> str | None:
    """The winning side's id, from the table result or the engine's; None for a draw or
    while the battle is still being fought."""
    if campaign_battle.table_result is not None:
        return TableResult.from_dict(campaign_battle.table_result).winner
    result = None if campaign_battle.battle is None else campaign_battle.battle.outcome
    return None if result is None else result.winner


def side_force_names(
    records: Iterable[tuple[int, Mapping[str, Iterable[int]], datetime]],
) -> dict[int, dict[str, str]]:
    """Each record's sides (unit pks by side id, as a battle or an engagement keeps them, and
    when it was set up) named by the forces their units fought for: "Blue Battalion", or "Red
    Company and Blue Battalion" where a side mixes forces; "" for a side none of whose units is
    left. A unit moved to another force since fought for the one it left (`forces_then`). By
    the record's key, from one query for all the records, and two more when a unit has moved."""
    sides = {key: ({side: list(pks) for side, pks in by_side.items()}, at)
             for key, by_side, at in records}  # fmt: skip
    pks = {pk for by_side, _ in sides.values() for side_pks in by_side.values() for pk in side_pks}
    found = list(
        with_moved(Unit.objects.filter(pk__in=pks)).values_list("pk", "force__name", "moved")
    )
    forces = {pk: name for pk, name, _ in found}
    movers = {pk for pk, _, moved in found if moved}
    then = forces_then(
        (pk, at) for by_side, at in sides.values() for side_pks in by_side.values()
        for pk in side_pks if pk in movers
    )  # fmt: skip

    def fought_for(pk: int, at: datetime) -> str:
        return then[pk, at].name if (pk, at) in then else forces[pk]

    return {
        key: {
            side: " and ".join(dict.fromkeys(fought_for(pk, at) for pk in pks if pk in forces))
            for side, pks in by_side.items()
        }
        for key, (by_side, at) in sides.items()
    }


def battles_side_names(battles: list[CampaignBattle]) -> dict[int, dict[str, str]]:
    """Each battle's sides as players call them, by campaign battle pk: the forces on each
    ("Blue Battalion"), or the side's own id when none of its units is left to name, in the
    order its page gives them (`side_order`; ``battles`` as `battles_listed` reads them). One
    query for all the battles."""
    named = side_force_names([(cb.pk, cb.sides, cb.created_at) for cb in battles])
    first = {cb.pk: cb.first_side for cb in battles}
    return {pk: {side: by_side[side] or side for side in side_order(by_side, first[pk])}
            for pk, by_side in named.items()}  # fmt: skip


def side_order(sides: Iterable[str], first: str | None = None) -> list[str]:
    """A battle's side ids in the order its page and every list of battles give them: the side
    its scenario lists first (``first``, an engine battle's; the report's colours follow the
    scenario's order, and a scenario has two sides), then the rest by id; a battle at the
    table's all by id. Not as stored: PostgreSQL's jsonb hands keys back shortest first,
    SQLite as written."""
    return sorted(sides, key=lambda side: (side != first, side))


def winner_names(battles: list[CampaignBattle]) -> dict[int, str | None]:
    """Each battle's winner as players call it (`battles_side_names`), by campaign battle pk:
    None for a draw or a battle still being fought. One query for all the battles."""
    sides = battles_side_names(battles)
    return {cb.pk: sides[cb.pk].get(won, won) if (won := battle_winner(cb)) else None
            for cb in battles}  # fmt: skip


def engagement_sides(engagements: Iterable[Engagement]) -> dict[int, dict[str, str]]:
    """Each engagement's two sides as the table calls them, by engagement pk: the forces of
    the side's units ("Red Company"), or "the attackers" / "the defenders" only when none of
    them is left to name. One query for all the engagements."""
    engagements = list(engagements)
    named = side_force_names([(e.pk, e.setup.get("sides", {}), e.created_at) for e in engagements])
    return {e.pk: {side: named[e.pk].get(side) or f"the {side}" for side in SIDES}
            for e in engagements}  # fmt: skip


FORCE_COLOURS = {
    "blue": "#1f5fa8",
    "red": "#b3261e",
    "green": "#2e7d32",
    "black": "#3a3a3a",
    "grey": "#6b6b6b",
    "gray": "#6b6b6b",
    "gold": "#9a7400",
    "yellow": "#9a7400",
    "orange": "#c0560f",
    "purple": "#6a3d9a",
    "brown": "#7b4a22",
    "white": "#7d8790",
}
"""A force whose name says a colour wears it (Blue Battalion is blue)."""
PALETTE = ("#1f5fa8", "#b3261e", "#2e7d32", "#6a3d9a", "#c0560f", "#7b4a22", "#3a3a3a")
"""The rest take one by their place in the campaign (the first two are the sides' own)."""


def name_colour(name: str) -> str | None:
    """The colour a name says ("Blue Battalion", "Red Force"), or None."""
    for word in name.lower().replace("-", " ").split():
        if word in FORCE_COLOURS:
            return FORCE_COLOURS[word]
    return None


def force_colour(force: Force) -> str:
    """The one colour a force keeps on every page, map and chart."""
    return name_colour(force.name) or PALETTE[force.pk % len(PALETTE)]


@dataclass(frozen=True)
class BattleSide:
    """One side of a campaign battle as its players know it: the forces that fought on it."""

    id: str
    name: str
    """Its forces' names ("Blue Battalion", or "Red Company and Blue Battalion")."""
    players: str
    colour: str
    units: list[Unit]


def battle_sides(
    campaign_battle: CampaignBattle,
    units: dict[int, Unit],
    scenario_sides: Iterable[Mapping[str, Any]] = (),
    fought_for: Mapping[int, Force] | None = None,
) -> list[BattleSide]:
    """Each side of the battle named by the forces its units fought for (`scenario_side_names`),
    in the order every list of battles gives them (`side_order`): ``scenario_sides`` are an
    engine battle's scenario's, in its order; ``fought_for`` the force each unit moved to
    another since fought for, by pk (`moved_since`)."""
    scenario = {s.get("id"): s for s in scenario_sides}
    ids = side_order(campaign_battle.sides, next(iter(scenario), None))
    fought = {s: [units[pk] for pk in campaign_battle.sides[s] if pk in units] for s in ids}
    then = fought_for or {}
    forces = {
        side: list({f.pk: f for f in (then.get(u.pk, u.force) for u in us)}.values())
        for side, us in fought.items()
    }
    names = scenario_side_names([scenario.get(s, {"id": s}) for s in ids], forces)
    sides = []
    for side in ids:
        sides.append(
            BattleSide(
                id=side,
                name=names[side],
                players=", ".join(sorted({f.owner.get_username() for f in forces[side]})),
                colour=force_colour(forces[side][0]) if forces[side] else "",
                units=fought[side],
            )
        )
    return sides


def moved_since(
    battles: Iterable[tuple[CampaignBattle, Iterable[Unit]]],
) -> dict[int, dict[int, Force]]:
    """The force each unit of each battle fought for, by battle pk then unit pk, for the units
    moved to another force since the battle was set up (`forces_then`; the units read
    `with_moved`, so that those never moved cost nothing)."""
    battles = [(cb, list(units)) for cb, units in battles]
    then = forces_then((u.pk, cb.created_at) for cb, units in battles for u in units if u.moved)
    return {
        cb.pk: {u.pk: then[u.pk, cb.created_at] for u in units if (u.pk, cb.created_at) in then}
        for cb, units in battles
    }


def side_name(forces: Iterable[Force]) -> str:
    """A battle's side as its pages call it: by the forces its units come from ("Blue
    Battalion", "Red Company and Green Platoon"), each once; "" when it has none."""
    return " and ".join({f.pk: f.name for f in forces}.values())


SIDE_PLACES = ("first", "second", "third", "fourth")


def side_place(index: int) -> str:
    """A side by its place in the scenario, for a side no force stands on: "the second side"."""
    place = SIDE_PLACES[index] if index < len(SIDE_PLACES) else f"number {index + 1}"
    return f"the {place} side"


def table_side_name(typed: str, forces: Iterable[Force], index: int) -> str:
    """A side of a table result as its form's choices name it (which side a unit is on, who
    won): the name the GM gave it (``typed``), else the force its units chosen so far come from
    when they come from one (`side_name`, as the battle's page will name it), else its place
    ("First side", `side_place`). The form's script names them alike as the GM types and
    chooses (campaign/static/campaign/table-sides.js)."""
    if typed := typed.strip():
        return typed
    one = {force.pk: force for force in forces}
    if len(one) == 1:
        return side_name(one.values())
    return capfirst(side_place(index).removeprefix("the "))


def scenario_side_names(
    sides: Iterable[Mapping[str, Any]], forces: Mapping[str, Iterable[Force]]
) -> dict[str, str]:
    """A scenario's sides (its ``sides``) as a campaign battle's pages call them, by side id:
    by the forces of the campaign's units on each (``forces``, by side id; `side_name`), and a
    side with none by its place ("the second side"): the scenario's own name for it ("Red
    Force") is no force's, and would read as one. Two sides the same forces would name keep the
    scenario's names beside them, so that each reads as a side of its own."""
    scenario = {side["id"]: str(side.get("name") or side["id"]) for side in sides}
    named = {
        side: side_name(forces.get(side, ())) or side_place(i) for i, side in enumerate(scenario)
    }
    twice = {name for name in named.values() if list(named.values()).count(name) > 1}
    return {
        side: f"{name} ({scenario[side]})" if name in twice and name != scenario[side] else name
        for side, name in named.items()
    }


def side_force_colours(firsts: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Each side's colour by its id, from (side, its first force's colour) in the sides' order:
    a side whose force's colour a side before it already wears keeps its default."""
    taken: set[str] = set()
    colours = {}
    for side, colour in firsts:
        if colour and colour not in taken:
            colours[side] = colour
            taken.add(colour)
    return colours


def side_colours(sides: list[BattleSide]) -> str:
    """The page's side colours as CSS custom properties (``--side-0``, ``--side-1``) for every
    swatch, map and chart on it."""
    shown = sides[:2]
    colours = side_force_colours((side.id, side.colour) for side in shown)
    return "; ".join(f"--side-{i}: {colours[s.id]}" for i, s in enumerate(shown) if s.id in colours)


def unit_label(unit: Unit) -> str:
    """A persistent unit as every page names it: "Iron Wolf (Blue Battalion)"."""
    return f"{unit.name} ({unit.force.name})"


def orders_going_in(
    units: Iterable[Unit], orders: Mapping[str, Mapping[str, Any]]
) -> list[tuple[str, str]]:
    """(who, how their Orders went in) for a campaign battle's page, a line per way in:
    ``units`` are the battle's units the reader sees, in side order, and ``orders`` the
    battle's (unit pk → how its Orders went in), read as a record of the launch
    (`bridge.went_in_text`). Units whose Orders went in alike share a line, said of each of them
    (`bridge.went_in_for_each`), which names them
    in as few words as say who, as the subject of the sentence the line reads as: the others by
    name with their force ("Atlas and Tiger One (Red Company)"), then all of a force's units by
    the force ("every unit of Blue Battalion and Red Company"), "Atlas (Red Company) and every
    unit of Blue Battalion" and, when a part names several itself, "Aid Post and Tiger One (Red
    Company), and every unit of Blue Battalion" (`units_said`). A Legendary unit in command of
    one of them is named only if it is one of ``units`` (`bridge.commander_unnamed`)."""
    units = list(units)
    in_force = Counter(u.force_id for u in units)
    seen = {u.name for u in units}
    alike: dict[str, list[Unit]] = {}
    for unit in units:
        if (going := orders.get(str(unit.pk))) is not None:
            text = going["text"] if going.get("giver") in seen else commander_unnamed(going)
            text = went_in_text(text, going.get("giver") or "")
            alike.setdefault(text, []).append(unit)
    lines = []
    for text, group in alike.items():
        by_force: dict[int, list[Unit]] = {}
        for unit in group:
            by_force.setdefault(unit.force_id, []).append(unit)
        whole = [us[0].force.name for f, us in by_force.items() if len(us) == in_force[f] > 1]
        parts = [
            f"{and_words([u.name for u in us])} ({us[0].force.name})"
            for f, us in by_force.items()
            if not len(us) == in_force[f] > 1
        ]
        parts += [f"every unit of {and_words(whole)}"] if whole else []
        lines.append((units_said(parts), went_in_for_each(text) if len(group) > 1 else text))
    return lines


def units_said(parts: list[str]) -> str:
    """The parts of a line's units (`orders_going_in`) as one subject: "Atlas (Red Company)
    and every unit of Blue Battalion"; a part that names several units itself is set off by a
    comma, so its "and" is not read as the list's: "Aid Post and Tiger One (Red Company), and
    Iron Wolf (Blue Battalion)". Its first letter a capital."""
    if len(parts) > 1 and any(" and " in part for part in parts):
        said = ", ".join(parts[:-1]) + f", and {parts[-1]}"
    else:
        said = and_words(parts)
    return capfirst(said)


def left_out(
    out_of_action: Iterable[Unit] = (),
    engaged: Iterable[tuple[Unit, str]] = (),
    blocked: Iterable[tuple[Unit, str]] = (),
) -> list[str]:
    """Why the campaign's units a form does not offer are left out of it: a sentence per
    reason, naming the units ("Destroyed: Tiger One (Red Company)."). A unit out of action
    says why by its status (`Status.out_of_action`); one held back while a battle's outcome is
    not applied (``engaged``: the unit and the battle's name) names the battle; one a form's
    rule keeps out (``blocked``: the unit and why, "Led by Sgt Holt already") says that. More
    than `LEFT_OUT_NAMED` units alike are counted by force rather than named."""
    reasons = _left_out_reasons(out_of_action, engaged, blocked)
    return [f"{why}: {_units_named(units)}." for why, units in reasons.items()]


def still_in_battle(unit: Unit, battle: str) -> str:
    """Why ``unit`` fights nothing else yet, nor moves: it is in ``battle`` (a name, from
    `roster.engaged_units`), whose outcome is not applied yet."""
    return f"{unit} is still in {battle}, whose outcome is not applied yet"


def no_unit_fit(
    force: Force, out_of_action: Iterable[Unit] = (), engaged: Iterable[tuple[Unit, str]] = ()
) -> str:
    """Why a force has no unit a battle's form can offer, for its units left out (`left_out`'s
    reasons, its units by name alone): "Blue Battalion has no unit fit to fight. Still in
    Battle of the Crossroads, whose outcome is not applied yet: Old Faithful and Sappers." """
    reasons = _left_out_reasons(out_of_action, engaged)
    said = [
        f"{why}: {_names(units) if len(units) <= LEFT_OUT_NAMED else plural(len(units), 'unit')}."
        for why, units in reasons.items()
    ]
    return " ".join([f"{force.name} has no unit fit to fight.", *said])


def _left_out_reasons(
    out_of_action: Iterable[Unit] = (),
    engaged: Iterable[tuple[Unit, str]] = (),
    blocked: Iterable[tuple[Unit, str]] = (),
) -> dict[str, list[Unit]]:
    """The units left out of a form by why (`left_out`), the reasons in the order it says them."""
    reasons: dict[str, list[Unit]] = {}
    for unit in sorted(out_of_action, key=lambda u: list(Status).index(Status(u.status))):
        reasons.setdefault(Status(unit.status).out_of_action, []).append(unit)
    for unit, battle in engaged:
        why = f"Still in {battle}, whose outcome is not applied yet"
        reasons.setdefault(why, []).append(unit)
    for unit, why in blocked:
        reasons.setdefault(why, []).append(unit)
    return {why: units for why, units in reasons.items() if why}


LEFT_OUT_NAMED = 12
"""Units alike a form's list of those it leaves out names; more are counted by force."""


def _names(units: list[Unit]) -> str:
    return and_words([unit.name for unit in units])


def _units_named(units: list[Unit]) -> str:
    if len(units) <= LEFT_OUT_NAMED:
        return and_words([unit_label(unit) for unit in units])
    by_force = Counter(unit.force.name for unit in units)
    counts = and_words([f"{n} of {force}" for force, n in by_force.items()])
    return f"{plural(len(units), 'unit')} ({counts})"


def units_seen_in_summary(units: Iterable[Unit], *, spectator: bool) -> str:
    """Why a battle's tables leave out the units of forces the reader sees only in summary,
    counted by force: "Blue Battalion's 5 units are left out: you see that force only in
    summary." ("" when there are none)."""
    counts = Counter(u.force.name for u in units)
    if not counts:
        return ""
    whose = and_words([f"{possessive(name)} {plural(n, 'unit')}" for name, n in counts.items()])
    verb = "is" if sum(counts.values()) == 1 else "are"
    if spectator:
        why = "the GM shows spectators every force in summary only"
    else:
        why = f"you see {'that force' if len(counts) == 1 else 'those forces'} only in summary"
    return f"{whose} {verb} left out: {why}."


def fog_notice(
    *, side_name: str | None, fog_of_war: bool, spectator: bool, in_summary: Iterable[str]
) -> str:
    """Why a battle's page shows the reader the battle through one side's eyes (``side_name``,
    the side's name) or its outcome only (``None``), as `fog.fog_side` decides: the
    campaign's fog of war, else the forces that fought it the reader sees only in summary
    (``in_summary``, their names)."""
    if fog_of_war:
        if side_name is None:
            return (
                "Fog of war: you had no units in this battle, so you see its outcome only; "
                "its log and replay are for the sides that fought."
            )
        return (
            f"Fog of war: you see this battle as {side_name} saw it — concealed enemy units "
            "and their dice stay hidden until revealed."
        )
    if spectator:
        why = "The GM shows spectators every force in summary"
    else:
        why = f"You see {and_words(sorted(set(in_summary)))} only in summary"
    if side_name is None:
        had = "" if spectator else " and had no units in this battle"
        return f"{why}{had}: you see this battle's outcome only."
    return (
        f"{why}: you see this battle as {side_name} saw it — concealed enemy units and their "
        "dice stay hidden until revealed."
    )


LEFT_WORDS = {removal: words.lower() for removal, words in LEFT_THE_TABLE.items()}
"""How a unit left a campaign battle, as its report, its story and its replay say it: "Iron
Wolf is taken out", "Sappers is broken and withdraws" (`battles.names.scenario_names`)."""


def battle_names(
    campaign_battle: CampaignBattle, units: dict[int, Unit], sides: list[BattleSide]
) -> tuple[dict[str, str], dict[str, str]]:
    """(side names, unit names) by engine id, for the report of a campaign battle."""
    side_names = {side.id: side.name for side in sides}
    unit_names = {
        engine_id: unit_label(units[pk])
        for engine_id, pk in campaign_battle.engine_units.items()
        if pk in units
    }
    return side_names, unit_names


@dataclass(frozen=True)
class Change:
    """One unit's before → after, as a review (before a GM's click) or a summary (after)."""

    unit: Unit
    before: CampaignUnitState
    after: CampaignUnitState
    lines: tuple[str, ...] = ()
    """What it did to the unit, a sentence per history entry, as the unit's history tells it
    (`entry_line`); none for a table of field values alone."""
    fought_for: Force | None = None
    """The force it fought for, when it has moved to another since (`changes_fought_for`):
    its row names both."""
    leader_most: Mapping[str, int] = field(default_factory=dict, hash=False)
    """The most hit points of each leader the entries telling it kept them for, by name
    (``leader_most_hit_points`` in an entry's details)."""

    @property
    def destroyed(self) -> bool:
        return self.after.destroyed and not self.before.destroyed

    @property
    def promoted(self) -> bool:
        return self.after.quality > self.before.quality

    @property
    def demoted(self) -> bool:
        return self.after.quality < self.before.quality and not self.destroyed

    @property
    def kind(self) -> str:
        """What the row is, for its colour and its word (never the colour alone)."""
        if self.destroyed:
            return "destroyed"
        if self.promoted:
            return "promoted"
        if self.demoted:
            return "reduced"
        return ""

    def cells(self) -> list[tuple[str, str, str, bool]]:
        """(what, before, after, changed) for hits, quality, status, Skill lost for good (what
        a step lost to suppression comes from, under Combined Arms), experience and leader."""
        b, a = self.before, self.after
        return [
            (
                "Hits",
                hits_held_text(b.morale_hits, b.casualty_hits),
                hits_held_text(a.morale_hits, a.casualty_hits),
                b.hits != a.hits or b.casualty_hits != a.casualty_hits,
            ),
            ("Quality", b.quality.label, a.quality.label, b.quality != a.quality),
            ("Status", b.status.label, a.status.label, b.status != a.status),
            (
                "Skill lost for good",
                str(b.skill_lost),
                str(a.skill_lost),
                b.skill_lost != a.skill_lost,
            ),
            (
                "Experience",
                _experience(b),
                _experience(a),
                not a.destroyed and _experience(b) != _experience(a),
            ),
            ("Leader", self._leader(b), self._leader(a), b.leader != a.leader),
        ]

    def _leader(self, state: CampaignUnitState) -> str:
        """Its leader and hit points as the unit's page says them: out of their full ones
        when its character records them ("14 of 14 hit points", `working.hit_points`), as the
        unit's leader now, or as the entries telling the row kept them (`leader_most`) of a
        leader since replaced."""
        leader = state.leader
        if leader is None:
            return "—"
        now = getattr(self.unit, "leader", None)
        if now is not None and now.name == leader.name:
            most = leader_most_hit_points(now)
        else:
            most = self.leader_most.get(leader.name)
        shown = hit_points_shown(leader.hit_points, alive=leader.alive, most=most)
        return f"{leader.name}, {shown}"


def _experience(state: CampaignUnitState) -> str:
    # A destroyed unit's experience counts towards nothing: a dash, as its page gives its
    # hits, and no change to read in the row that tells it destroyed.
    return "—" if state.destroyed else str(state.experience)


def changes(
    rows: list[tuple[Unit, CampaignUnitState, CampaignUnitState]],
    entries: Iterable[HistoryEntry] = (),
) -> list[Change]:
    """The rows as changes, each told by the history ``entries`` (in order) of its unit that
    made it: those an outcome wrote, or those Apply will write (`outcome_review`)."""
    told: dict[int, list[HistoryEntry]] = {}
    for entry in entries:
        told.setdefault(entry.unit_id, []).append(entry)
    found = []
    for unit, before, after in rows:
        now = before.to_json()
        lines = []
        most = {}
        for entry in told.get(unit.pk, ()):
            now.update(entry.after)  # the unit's snapshot after this entry
            lines.append(entry_line(entry, now))
            kept = entry.details.get("leader_most_hit_points")
            if kept is not None and isinstance(leader := now.get("leader"), dict):
                most[leader["name"]] = kept
        found.append(Change(unit, before, after, tuple(lines), leader_most=most))
    return found


def changes_fought_for(found: list[Change], fought_for: Mapping[int, Force]) -> list[Change]:
    """An outcome's changes (``found``), each unit moved to another force since with the force
    it fought for (``fought_for``, by unit pk, `moved_since`), as the battle's sides were when
    it was fought."""
    return [
        replace(change, fought_for=force)
        if (force := fought_for.get(change.unit.pk)) and force.pk != change.unit.force_id
        else change
        for change in found
    ]


@dataclass(frozen=True)
class TimeStep:
    """One thing the clock did (or will do) to a unit: when, why, and its whole snapshot just
    before and just after."""

    unit: Unit
    when: str
    why: str
    before: dict[str, Any]
    after: dict[str, Any]
    passing: bool = False
    """It happens as the clock passes ``when`` (`dead_when`: the dead), not at it."""

    def changed(self) -> tuple[dict[str, Any], dict[str, Any]]:
        was = {k: v for k, v in self.before.items() if self.after.get(k, v) != v}
        return was, {k: self.after[k] for k in SNAPSHOT_FIELDS if k in was}

    @property
    def told(self) -> bool:
        """Worth a sentence: Casualty hits dying, a unit destroyed, rallied, losing quality,
        Skill or experience; a day's R&R healing a Morale hit only is left to the table."""
        now = self.changed()[1]
        return any(f in now for f in ("casualty_hits", "status", "quality", "skill_lost",
                                      "experience"))  # fmt: skip


def _time_lines(steps: Iterable[TimeStep], *, ahead: bool = False) -> list[str]:
    """What the clock did (or will do), one sentence per unit, in the order each unit's first
    told step came: "Day 3, 00:00: Tiger One (Red Company): a day of R&R; rallied, then after
    day 3, 00:00, 1 Casualty hit not saved within 24 hours died; fell from Average to
    Inexperienced; ...". Each step's reason, in order (its time when it differs from the
    first's: the dead `dead_when`, as the clock passes it), with its rally or fall when there
    are several (`_headed`), then what else they did to the unit together, true as of the
    last told step. Steps after it that only heal Morale hits
    follow, with what the unit carries at the end, so the sentence ends where the table of
    changes does: "...; now carries 3 Morale hits; then on each of day 4,
    00:00 and day 5, 00:00, a day of R&R: now carries 1 Morale hit". What
    the steps did to its experience follows in a sentence of its own ("It has 0 experience
    points (3 before)."). The clock's review and its summary alike (`time_lines_ahead`,
    `time_lines_done`); ``ahead``: the review's, what is still to come in the present tense
    ("rallies", "falls from Average to Inexperienced", `history.story_text`)."""
    by_unit: dict[int, list[TimeStep]] = {}
    told: list[int] = []  # the units worth a sentence, in the order their first told step came
    for step in steps:
        if not (step.told or "morale_hits" in step.changed()[1]):
            continue  # a day of R&R that found nothing to heal
        by_unit.setdefault(step.unit.pk, []).append(step)
        if step.told and step.unit.pk not in told:
            told.append(step.unit.pk)
    lines = []
    for pk in told:
        unit_steps = by_unit[pk]
        marks = [i for i, step in enumerate(unit_steps) if step.told]
        done, after = unit_steps[marks[0] : marks[-1] + 1], unit_steps[marks[-1] + 1 :]
        first, last = done[0], done[-1]
        was, now = TimeStep(first.unit, "", "", first.before, last.after).changed()
        if len(done) > 1:
            # Each step's own fall or rally said with it: after them all, "…, then on day 4,
            # a day of R&R; rallied; fell from Average to Raw" reads as though rallying cost it.
            done = [replace(step, why=_headed(step, ahead=ahead)) for step in done]
            was = {k: v for k, v in was.items() if k not in HEADLINE_FIELDS}
            now = {k: v for k, v in now.items() if k not in HEADLINE_FIELDS}
            first = done[0]
        # Its experience in a sentence of its own: at the end of the long one, after the dead,
        # their fights and its hits, it is lost.
        quality = last.after.get("quality")
        # A destroyed unit rises to nothing: its points are no one's count.
        gone = last.after.get("status") == Status.DESTROYED
        experience = experience_text(was, now, quality) if "experience" in now and not gone else ""
        now = {k: v for k, v in now.items() if k != "experience"}
        why = first.why + _then(done[1:], first.when)
        line = f"{first.when}: {first.unit.name} ({first.unit.force.name}): {why}"
        if told := story_text(was, now, last.after, ahead=ahead):  # the clock kills no leader
            line += f"; {told}"
        if after:
            # The R&R after the last told step heals on: said, so the line ends as the table.
            was, now = TimeStep(first.unit, "", "", last.after, after[-1].after).changed()
            told = story_text(was, now, after[-1].after, ahead=ahead)
            line += f";{_then(after, first.when)[1:]}: {told}"
        lines.append(f"{line}." + (f" It {experience}." if experience else ""))
    return lines


HEADLINE_FIELDS = ("status", "quality")
"""What one step of the clock's did to a unit that a line of several says with that step: its
rally or its end, its step of quality."""


def _headed(step: TimeStep, *, ahead: bool = False) -> str:
    """``step``'s reason with what it did to the unit's status and quality, if anything: "a day
    of R&R; rallied", "3 Casualty hits not saved within 24 hours died; fell from Average to
    Raw"; ``ahead``, what it will do: "a day of R&R; rallies"."""
    was, now = step.changed()
    now = {k: v for k, v in now.items() if k in HEADLINE_FIELDS}
    if not now:
        return step.why
    return f"{step.why}; {story_text(was, now, step.after, ahead=ahead)}"


def _then(steps: list[TimeStep], first_when: str) -> str:
    """The steps after a unit's first, in order, each with its time when it differs from the
    first's: ", then on day 4, 00:00, a day of R&R"; a run of steps with one reason is said once,
    with each time: ", then on each of day 4, 00:00 and day 5, 00:00, a day of R&R"."""
    said = ""
    runs: list[list[TimeStep]] = []
    for step in steps:
        if runs and runs[-1][-1].why == step.why and not _after(step) and not _after(runs[-1][-1]):
            runs[-1].append(step)
        else:
            runs.append([step])
    for run in runs:
        whens = [f"{step.when[:1].lower()}{step.when[1:]}" for step in run]
        if len(run) > 1:
            at = f"on each of {and_words(whens)}, "
        elif run[0].when == first_when:
            at = ""
        else:
            at = f"{whens[0]}, " if _after(run[0]) else f"on {whens[0]}, "
        said += f", then {at}{run[0].why}"
    return said


def dead_when(at: int) -> str:
    """When Casualty hits the medics left unsaved die, their window's last hour at clock hour
    ``at`` (`Passing.at`): as the clock passes it, "After day 2, 00:00", as `dies_when` tells
    it ahead, the review and the summary of the clock alike."""
    return f"After {clock_text(at)}"


def _after(step: TimeStep) -> bool:
    """Whether ``step`` happens as the clock passes its time (`dead_when`), not at it."""
    return step.passing


def time_lines_ahead(passings: Iterable[tuple[Unit, CampaignUnitState, Any]]) -> list[str]:
    """What the clock moving on will do, unit by unit, in sentences (`advance_passings`):
    Casualty hits dying as a medical window closes, a unit destroyed, rallied, losing quality,
    in the present tense: "3 Casualty hits not saved within 24 hours die; is destroyed"."""
    steps = []
    for unit, before, passing in passings:
        if passing.kind == CASUALTIES:
            verb = "dies" if passing.dead == 1 else "die"
            why = f"{plural(passing.dead, 'Casualty hit')} not saved within 24 hours {verb}"
            if withdrawn := withdrawn_text(before):
                why = f"{why}; {withdrawn}"
        else:
            why = "a day of R&R"
        dead = passing.kind == CASUALTIES
        when = dead_when(passing.at) if dead else clock_text(passing.at)
        when = capfirst(when)
        steps.append(TimeStep(unit, when, why, before.to_json(), passing.state.to_json(), dead))
    return _time_lines(steps, ahead=True)


def kept_in_zone_text(passings: Iterable[tuple[Unit, CampaignUnitState, Any]]) -> str:
    """The units whose days of R&R in ``passings`` (`advance_passings`) leave them their last
    Morale hit, in a sentence: still in the combat zone, under stress, that one heals only by
    R&R out of it (`recovery.morale_hits_healable`), so the GM who wants it healed withdraws
    them first; "" when no day of R&R leaves any so."""
    kept: dict[int, Unit] = {}
    for unit, _, passing in passings:
        if passing.kind == CASUALTIES:
            continue
        state = passing.state
        if state.in_combat_zone and state.morale_hits and not morale_hits_healable(state):
            kept[unit.pk] = unit
        else:
            kept.pop(unit.pk, None)
    return kept_last_morale_text(sorted(kept.values(), key=lambda u: (u.force.name, u.name)))


def kept_last_morale_text(units: list[Unit] | tuple[Unit, ...]) -> str:
    """``units``, each in the combat zone with its one Morale hit its last, in a sentence: under
    stress that one heals only by R&R out of the zone (`recovery.morale_hits_healable`), so
    whoever wants it healed withdraws them first; "" for none. The review of the time says it
    of the days of R&R ahead (`kept_in_zone_text`), the medics' box of their work today."""
    if not units:
        return ""
    one = len(units) == 1
    return (
        f"Still in the combat zone, {and_words([unit_label(u) for u in units])} "
        f"{'keeps its' if one else 'keep their'} last Morale hit: under stress it heals only by "
        f"R&R out of the zone (withdraw {'it' if one else 'them'} to the rear on "
        f"{'its page' if one else 'their pages'} first)."
    )


def time_lines_done(entries: list[HistoryEntry], start: int = 0) -> list[str]:
    """What the clock moving on did, unit by unit, in sentences, from the history entries it
    wrote (oldest first), moving on from clock hour ``start``: the same sentences as
    `time_lines_ahead`, in the past tense, each at the time its review told."""
    snapshots = {unit.pk: before.to_json() for unit, before, _ in entries_changes(entries)}
    steps = []
    for entry in entries:
        snapshot = snapshots[entry.unit_id]
        before = dict(snapshot)
        snapshot.update(entry.after)
        why = dead_first(told_why(entry.text, entry.before, entry.after))
        at = _entry_at(entry, before, start)
        dead = at is not None and entry.kind == HistoryEntry.Kind.CASUALTIES
        if at is None:
            when = f"Day {entry.day}"
        elif dead:
            when = dead_when(at)
        else:
            when = clock_text(at).capitalize()
        steps.append(TimeStep(entry.unit, when, why, before, dict(snapshot), dead))
    return _time_lines(steps)


def _entry_at(entry: HistoryEntry, before: dict[str, Any], start: int) -> int | None:
    """The clock hour the clock's moving on from ``start`` wrote ``entry`` at (``before``: the
    unit's snapshot just before it), as `recovery.time_passes` dated it: a day of R&R at its
    midnight, the dead at their window's last hour (None: no window to tell it by)."""
    if entry.kind != HistoryEntry.Kind.CASUALTIES:
        return clock_hour(entry.day, 0)
    closes = medical_window_closes(CampaignUnitState.from_json(before))
    return None if closes is None else max(closes, start)


_DIED = re.compile(r"; (\d+ Casualty hits? not saved within 24 hours died.*)$")
"""Where a closing window's entry says who died, after the fights it tells of."""


def dead_first(why: str) -> str:
    """A closing window's reason (`recovery.casualties_died_text`: the fights, then the dead)
    as the pages say it: the dead first, then the fights whose hits they were in one
    parenthesis, then what the dead cost beyond a step each, or short of it
    (`window.withdrawn_text`): "1 Casualty hit not saved within 24 hours died (taken out at
    Mill; 6 Morale hits and 1 Casualty hit; medics saved 0)". Told fights first, a unit's
    history read as though it was taken out again the day its hits died. Any other reason is
    returned as it is."""
    if not ((died := _DIED.search(why)) and died.start()):
        return why
    dead, _, rest = died.group(1).partition("; ")
    cause = why[: died.start()]
    if dead.endswith(")") and (head := dead[:-1].rpartition(" ("))[1]:
        # Its own parenthesis ("(the clock moved on: patrols)") takes the fights in first, one
        # parenthesis, not two side by side.
        dead, cause = head[0], f"{cause}; {head[2]}"
    return f"{dead} ({cause})" + (f"; {rest}" if rest else "")


def entry_why(entry: HistoryEntry) -> str:
    """Why an entry happened, without the field changes its sentence ends with; a closing
    window's with the dead first (`dead_first`); a revert saved in the words of its first days
    ("wrong report: undoes day 1, Battle") in today's (`undone_text`: "wrong report: the battle
    of day 1 is undone")."""
    why = told_why(entry.text, entry.before, entry.after)
    if entry.kind == HistoryEntry.Kind.CASUALTIES:
        return dead_first(why)
    if entry.kind == HistoryEntry.Kind.EXPERIENCE:
        return earned_said(why)
    if entry.kind == HistoryEntry.Kind.REVERT and (old := UNDOES.fullmatch(why)):
        kind = KIND_OF_LABEL.get(old["label"])
        if kind is not None:
            return f"{old['reason']}: {undone_text(kind, int(old['day']))}"
    return why


UNDOES = re.compile(r"(?P<reason>.*): undoes day (?P<day>\d+), (?P<label>[^;:]+)", re.DOTALL)
"""How a revert named what it undid before it said it in words: the entry's day and kind."""

KIND_OF_LABEL = {
    "Created": "created", "Battle": "battle", "Quick resolve": "quick_resolve",
    "Medical": "medical", "Casualties died": "casualties", "R&R": "recovery",
    "Experience": "experience", "Training": "training", "Deployment": "deployment",
    "Leader": "leader", "Engagement": "engagement", "Skill check": "skill_check",
    "GM edit": "gm_edit", "Revert": "revert",
}  # fmt: skip
"""The kinds as those reverts named them (`UNDOES`), each by its label of the time: frozen, so
a label reworded since leaves the old sentences read as they were written."""


def revert_words(entry: HistoryEntry, unit: dict[str, Any]) -> tuple[str, str]:
    """A revert as every page tells it: what it undid (`entry_why`) and what it gave back
    (`revert_text`; ``unit``: the unit's snapshot after it). One that gave nothing back (the
    experience undone had changed nothing, saved before such a revert said what the unit
    keeps) says so, not a sentence that stops at "is undone"."""
    why = entry_why(entry)
    what = revert_text(entry.after, unit) if why != entry.text else ""
    if not what and not entry.after and nothing_kept_said(entry, why):
        what = NOTHING_GIVEN_BACK
    return why, what


def nothing_kept_said(entry: HistoryEntry, why: str) -> bool:
    """Whether a revert's sentence (``why``, `entry_why`) stops at what it undid, saying
    nothing of what the unit keeps: read from what it undid (its ``undid``, as
    `history.undone_parts` words it), or, of a revert saved before it kept that, from its
    sentence's end."""
    undid = entry.details.get("undid")
    if isinstance(undid, dict):
        return undid.get("kept") is None and undid.get("kind") != "casualties"
    return why.endswith(" is undone")


NOTHING_GIVEN_BACK = "nothing to give back"
"""What a revert of an entry that changed nothing gave back (`revert_words`)."""


def entry_words(entry: HistoryEntry, unit: dict[str, Any]) -> tuple[str, str]:
    """An entry as every page tells it: why it happened (`entry_why`), and what it did to the
    unit in plain words (`story_text`; "" for a sentence that ends with no field changes), the
    bookkeeping (battles fought, the day of the last battle, the medics' 24 hours) left out.
    ``unit`` is the unit's snapshot after the entry (its hits at least). Not for a revert,
    which says what it gave back (`revert_text`)."""
    why = entry_why(entry)
    most = entry.details.get("leader_most_hit_points")
    what = (
        story_text(
            entry.before,
            entry.after,
            unit,
            most,
            death_told=entry.death_told,
            leader_named=entry.leader_named,
        )
        if why != entry.text
        else ""
    )
    if what and (lost := entry.details.get("lost")):
        # A leader's heal past full: what was lost, as its character's record says it.
        what += f" (full: {lost_past_full(lost, entry.details.get('healed', 0) + lost)})"
    if entry.kind == HistoryEntry.Kind.EXPERIENCE and not what and "experience" in unit:
        # Points held just short of a step it stood at already change nothing: what it has is
        # said all the same, as of points that change it.
        what = experience_has_text(unit["experience"], unit.get("quality"))
    if entry.kind in (HistoryEntry.Kind.SKILL_CHECK, HistoryEntry.Kind.CONTEST):
        why = minus_signs(why)  # the roll's summary, kept as it was written
    return why, what


def entry_line(entry: HistoryEntry, unit: dict[str, Any]) -> str:
    """An entry in one sentence, as the unit's history tells it: why, then what it did
    (`entry_words`), or for a revert what it gave back (`revert_text`). ``unit``: the unit's
    snapshot after the entry."""
    if entry.kind == HistoryEntry.Kind.REVERT:
        why, what = revert_words(entry, unit)
    else:
        why, what = told_together(entry, *without_repeats(*entry_words(entry, unit)))
    return history_sentence(why, what)


def told_together(entry: HistoryEntry, why: str, what: str) -> tuple[str, str]:
    """An entry's reason and what it did, an experience entry's in one sentence
    (`earned_standing`): "earned 1 experience point, and now has 1 of the 2 …", not "earned 1
    experience point: has 1 of the 2 …". A notice lists what it did apart, and reads them
    as they are."""
    if entry.kind == HistoryEntry.Kind.EXPERIENCE:
        return earned_standing(why, what)
    return why, what


def history_sentence(why: str, what: str) -> str:
    """An entry's reason and what it did as the unit's history says them: one sentence, its
    first letter a capital ("A day of R&R: rallied; carries no hits now")."""
    return capfirst(why) + (f": {what}" if what else "")


def unit_event(label: str, sentence: str) -> str:
    """A line of the timeline (or the dashboard, or a notice) about one unit: the unit, then
    its history's sentence as it stands on its own ("Sappers (Blue Battalion) — A day of R&R:
    rallied"). A dash, not a colon: the sentence keeps its capital, and a reason that starts
    with a name keeps its own."""
    return f"{label} — {sentence}"


@dataclass(frozen=True)
class RevertBlocked:
    """Why a fight's outcome cannot be reverted, for one unit: the sentence, and the unit whose
    page the GM goes to, to undo or correct what changed it since."""

    unit: Unit
    text: str

    def __str__(self) -> str:
        return self.text


def revert_blocked(
    campaign: Campaign, applied_entries: Any, fight: str = "battle"
) -> list[RevertBlocked]:
    """Why a battle's (or an engagement's, ``fight``) applied outcome cannot be reverted as its
    units stand now, a sentence per unit (`revert_blocked_lines`); none when it can be."""
    blockers = revert_blockers(applied_entries=applied_entries)
    later = [entry for _, entries in blockers for entry in entries]
    fights = fights_applied(campaign) if later else []  # read once, for every step below
    undo = undone_by_revert(campaign=campaign, entries=later, fights=fights)
    for index, (unit, shown) in enumerate(blockers):
        if any(e.pk not in undo for e in shown):
            blockers[index] = (
                unit,
                _undone_in_turn(campaign, unit, shown, undo, applied_entries, fights),
            )
    chain = revert_chain(campaign=campaign, entries=later, fights=fights)
    lines = revert_blocked_lines(blockers, undo, fight, chain)
    return [RevertBlocked(unit, text) for (unit, _), text in zip(blockers, lines, strict=True)]


def _undone_in_turn(
    campaign: Campaign,
    unit: Unit,
    shown: list[HistoryEntry],
    undo: dict[int, str],
    applied_entries: Any,
    fights: list[CampaignBattle | Engagement],
) -> list[HistoryEntry]:
    """What changed a unit since a fight, when the unit's own Undo takes back everything after
    the fight that still stands, one at a time, newest first (`reviews.undo_refused`), but
    the entries of a later fight its Revert takes back (in ``undo`` already): every one of those
    entries, each other with the Undo's words in ``undo``. Else ``shown`` as it was."""
    since = entries_after_fight(unit=unit, applied_entries=applied_entries)
    # A later fight's entries among them go with its Revert (`reviews.revert_chain`).
    undo.update(undone_by_revert(campaign=campaign, entries=since, fights=fights))
    own = [e for e in since if e.pk not in undo]
    if not own or any(undo_refused(e) for e in own):
        return shown
    them = "it" if len(own) == 1 else "them"
    page = f"undo {them} on {possessive(unit.name)} page"
    if len(own) > 1:
        page += ", newest first,"
    undo.update(dict.fromkeys((e.pk for e in own), page))
    return since


def revert_blocked_lines(
    blockers: list[tuple[Unit, list[HistoryEntry]]],
    undo: Mapping[int, str],
    fight: str = "battle",
    chain: Mapping[int, list[RevertStep]] | None = None,
) -> list[str]:
    """Why a battle's outcome (or an engagement's, ``fight``) cannot be reverted, once per
    unit, in words: what changed it since (`reviews.revert_blockers`), and what the GM can do
    about it. ``undo``: what undoes each entry that can be undone (`reviews.undone_by_revert`,
    a fight's Revert; `_undone_in_turn`, the unit's own Undo); the rest, the clock's R&R among
    them, have no undo, so the unit is corrected instead. ``chain``: for an entry a fight's
    Revert undoes, every step that Revert takes in turn (`reviews.revert_chain`): when a
    fight to revert is held up itself, the line says the whole chain, newest first."""
    chain = chain or {}
    lines = []
    for unit, later in blockers:
        name = f"{unit.name} ({unit.force.name})"
        if not later:
            lines.append(f"{name} has been corrected since; correct it back first.")
            continue
        since = since_words(later)
        kept = [e for e in later if e.pk not in undo]
        if not kept:
            reverts = list(dict.fromkeys(undo[e.pk] for e in reversed(later)))
            what = and_words(reverts) + (", newest first," if len(reverts) > 1 else "")
            todo = f"{capfirst(what)} or correct the unit"
            todo += held_up_words(later, chain, unit)
        elif len(kept) == len(later):
            todo = f"{'That' if len(later) == 1 else 'Those'} cannot be undone: correct the unit"
        else:
            kinds = list(dict.fromkeys(HistoryEntry.Kind(e.kind).label for e in kept))
            noun = "entry" if len(kept) == 1 else "entries"
            todo = f"The {and_words(kinds)} {noun} cannot be undone: correct the unit"
        lines.append(f"{name} has changed since: {since}. {todo}, then revert this {fight}.")
    return lines


def held_up_words(
    later: Iterable[HistoryEntry], chain: Mapping[int, list[RevertStep]], unit: Unit
) -> str:
    """When a fight whose Revert undoes one of ``later`` (what changed ``unit`` since, every one
    undone by a fight's Revert or the unit's own Undo) is held up in turn
    (`reviews.revert_chain`), the whole way in order, the unit's own Undos among it, to be
    followed by what it clears the way for (", then revert this battle"): ". Night at the Ford
    cannot be reverted yet either: in order, newest first, undo the GM's correction of day 5
    on MG Nest's page, then revert Night at the Ford, of day 4"; else ""."""
    later = list(later)
    # A fight is held up when its chain holds more than its own Revert, which ends it.
    ended = {chain[e.pk][-1].text for e in later if len(chain.get(e.pk, [])) > 1}
    if not ended:
        return ""
    # The same step may come twice (the unit's own Undo, and in a fight's chain): once each.
    steps = {(step.text, step.newest): step for e in later for step in chain.get(e.pk, [])}
    for e in later:
        if e.pk not in chain:
            step = undo_step(e, unit)
            steps.setdefault((step.text, step.newest), step)
    order = sorted(steps.values(), key=lambda step: -step.newest)
    held = [step.fight for step in order if step.text in ended]
    what = ", then ".join(step.text for step in order)
    held_up = f"{capfirst(and_words(held))} cannot be reverted yet either"
    return f". {held_up}: in order, newest first, {what}"


def since_words(later: Iterable[HistoryEntry]) -> str:
    """What changed a unit since, entry by entry, by kind, day and reason: "GM correction on
    day 3 — a sniper; Medical on day 4 — Medical crews saved 1 Casualty hit"."""
    # A dash, not brackets: a reason may hold brackets of its own ("a day of R&R (a day)").
    return "; ".join(
        f"{HistoryEntry.Kind(e.kind).label} on day {e.day} — {entry_why(e)}" for e in later
    )


def undo_text(entry: HistoryEntry) -> str:
    """What the unit's Undo of ``entry`` gives back, as the revert's line will say it
    (`revert_text`): "back to Adequate equipment, no experience points"; a move to another
    force, "back to Red Company"."""
    if (moved := entry.moved) is not None:
        left = Force.objects.filter(pk=moved.get("from")).values_list("name", flat=True).first()
        return f"back to {left}" if left is not None else ""
    return revert_text(entry.before, {**entry.unit.state.to_json(), **entry.before})


def undo_blocked(campaign: Campaign, entry: HistoryEntry) -> list[str]:
    """Why the unit's Undo of ``entry`` is refused, as a battle's revert says it
    (`revert_blocked_lines`): what came after it that still stands (`reviews.undo_blockers`),
    and what the GM can do about it; none when it can be undone."""
    if refused := undo_refused(entry):
        return [f"{history_sentence(refused, '')}."]
    later = undo_blockers(entry=entry)
    if not later:
        return undo_problems(campaign, entry)
    unit = entry.unit
    name = f"{unit.name} ({unit.force.name})"
    fights = fights_applied(campaign)
    reverts = undone_by_revert(campaign=campaign, entries=later, fights=fights)
    # Newest first, each undone in turn: a fight by its Revert, anything else by its own Undo.
    steps = []
    for e in reversed(later):
        if e.pk in reverts:
            steps.append(reverts[e.pk])
        elif not undo_refused(e):
            steps.append(f"undo {undone_name(e.undo_kind, e.day)}")
        else:
            steps = []
            break
    # A fight's Revert undoes all its entries at once; each other entry takes an Undo of its
    # own, so two of the same day are said as two.
    counted = {step: steps.count(step) for step in steps}
    steps = [
        f"{step} ({n} of them)" if n > 1 and step.startswith("undo ") else step
        for step, n in counted.items()
    ]
    if steps:
        what = and_words(steps) + (", newest first" if len(steps) > 1 else "")
        todo = f"{capfirst(what)}, then undo this one"
        if held := held_up_words(
            later, revert_chain(campaign=campaign, entries=later, fights=fights), unit
        ):
            todo = f"{capfirst(what)}{held}, then undo this one"
    else:
        kept = [e for e in later if e.pk not in reverts and undo_refused(e)]
        kinds = list(dict.fromkeys(HistoryEntry.Kind(e.kind).label for e in kept))
        noun = "entry" if len(kept) == 1 else "entries"
        todo = f"The {and_words(kinds)} {noun} cannot be undone: correct the unit instead"
    return [f"{name} has changed since: {since_words(later)}. {todo}."]


def undo_blocked_lede(entry: HistoryEntry) -> str:
    """The lede of the page of a refused Undo (`undo_blocked`): what came after the change, or
    its kind, refuses it; or, for the unit's latest change, where the campaign stands now."""
    unit = entry.unit
    if undo_refused(entry) or undo_blockers(entry=entry):
        return (
            f"Only {possessive(unit.name)} latest change can be undone: what came after it "
            "was built on it."
        )
    return (
        f"It is {possessive(unit.name)} latest change, but as the campaign stands now its Undo "
        "would be refused. Put right what is said below, and it can be undone."
    )


def undo_problems(campaign: Campaign, entry: HistoryEntry) -> list[str]:
    """Why the unit's Undo of ``entry``, its latest change, would be refused as the campaign
    stands now, in sentences: what the Undo itself judges before it writes
    (`reverts.revert_plan`: a unit of its name in the force it left, a battle not applied yet,
    a leader who leads another unit now...); none when it would be undone."""
    # Imported here: the services import this module.
    from campaign.services.reverts import revert_plan

    problems = revert_plan(entries=[entry]).problems
    return list(dict.fromkeys(as_sentence(p, campaign) for ps in problems.values() for p in ps))


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


def without_repeats(why: str, what: str) -> tuple[str, str]:
    """An entry's reason and what it did, neither saying the other again: a part of ``what``
    the reason already says is left out ("retreated in poor order: retreated in poor order"),
    and a reason ``what`` says more fully gives way to it ("Cpl. Nox takes command: Cpl. Nox
    takes command (8 hit points)" is "Cpl. Nox takes command (8 hit points)"); "was destroyed"
    after a reason ending "; destroyed" is left out too, and so are the hits a unit "now
    carries" when they are just those a fight's reason opens with having taken ("Ford: took 1
    Morale hit", not "…: now carries 1 Morale hit")."""
    said = why.strip().lower()
    parts = [part for part in what.split("; ") if part] if what else []
    for index, part in enumerate(parts):
        if said and part.lower().startswith(said):
            why = part
            del parts[index]
            said = part.lower()
            break
    # An engagement's reason ends "…; destroyed", which "was destroyed" says again.
    clauses = said.split("; ")
    kept = [
        part
        for part in parts
        if part.lower() not in said
        and part.lower().removeprefix("was ") not in clauses
        and not _carried_as_taken(why, part)
    ]
    return why, "; ".join(kept)


def _carried_as_taken(why: str, part: str) -> bool:
    """Whether ``part`` of what an entry did ("now carries 1 Morale hit") says the hits its
    reason ``why`` says the fight dealt, all the unit carries ("Ford: took 1 Morale hit — …"; on
    the unit's page, the fight's name a link before it, "took 1 Morale hit — …")."""
    held = part.removeprefix("now carries ")
    took = re.escape(TOOK.removeprefix(": ") + held)
    return held != part and re.search(rf"(?:^|: ){took}(?: — |$)", why) is not None


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


@dataclass(frozen=True)
class LadderStep:
    """One step of the BUCS quality ladder, as the rules card shows it."""

    quality: Quality
    experience: int | None
    """Points it needs for the next step (None at the top)."""

    @property
    def trainable(self) -> bool:
        return self.quality.can_be_trained

    @property
    def skill_shift_alone(self) -> int:
        """The Skill shift of a unit going in without an Order, Adequate kit (`going_in`):
        Raw and Green, who cannot act alone, at the table's worst value."""
        return skill_shift(self.quality.alone(under_orders=False))


def quality_ladder() -> list[LadderStep]:
    """Raw to Legendary, with what each step means on the table and in the campaign."""
    return [LadderStep(q, threshold(q)) for q in Quality]


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


def _entry_event(
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
        text += _step_why(entry, battle)
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
            text += _step_why(entry, battle) + (f": {rest}" if rest else "")
    else:
        # Told as the unit's history tells it (`unit_story_lines`), a fight's working left
        # for its page: a line here says what happened.
        why, what = without_repeats(*entry_words(entry, carrying.get(entry.pk, {})))
        why, what = told_together(entry, why, what)
        # A check's summary starts with the unit that made it: once named, not twice.
        why = without_maker(entry, without_working(entry.kind, entry.details, why))
        text = unit_event(label, history_sentence(why, what))
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


def _step_why(entry: HistoryEntry, battle: str | None) -> str:
    """Why a unit was destroyed or rose or fell a step, as the end of its timeline line: the
    fight that did it (" at Battle of the Millrace"), the medics' 24 hours running out, or the
    entry's own reason (" (trained by Sgt. Kane)", " (GM correction: shelled at the ford)")."""
    if entry.kind in (HistoryEntry.Kind.ENGAGEMENT, HistoryEntry.Kind.QUICK_RESOLVE):
        battle = fight_named(entry.kind, entry.details, entry.text)  # as its entry names it
    elif entry.kind == HistoryEntry.Kind.EXPERIENCE and not battle:
        # A step earned in an engagement, named as its entry keeps the fight's name (one that
        # kept none is told by its reason, below).
        battle = entry.details.get("name") if isinstance(entry.details.get("name"), str) else None
    at = f" at {battle}" if battle else ""
    if entry.kind == HistoryEntry.Kind.CASUALTIES:
        return f"{at}, when the medics' 24 hours were over"
    if at or entry.kind == HistoryEntry.Kind.BATTLE:
        # A battle's entry whose battle is not known (a table battle's application reverted
        # before its record kept them all) tells its whole working: too much for the line.
        return at
    why = entry_why(entry)
    return f" ({why})" if why else ""


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
    # kept it (`_entry_event`), as each unit's history does.
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
        events.append(_entry_event(entry_, campaign.pk, homes, names, carrying, undone))
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
    return [_entry_event(entry, campaign.pk, homes, names, carrying, undone) for entry in entries]


UNIT_SERIES_NAMES = {
    "quality": "Quality",
    "experience": "Experience",
    "morale_hits": "Morale hits",
    "casualty_hits": "Casualty hits",
}
DESTROYED_HITS = "—"
"""A destroyed unit's hits in its chart's table, as its page and roster show them: it has none
left to heal (`charts.unit_series`)."""
ENDS_DESTROYED = "; its hits end the day before it was destroyed, when it had none left to heal"
"""What a unit's chart of its hits says of the days it ends with destroyed."""
BREAKS_DESTROYED = "; its hits break off over the days it was destroyed, when it had none to heal"
"""What a unit's chart of its hits says of days it was destroyed before a GM's correction
revived it: its lines break off there (`charts.points_drawn`)."""


def unit_charts(history: list[tuple[int, dict[str, Any]]], today: int) -> dict[str, Any]:
    """The unit page's two charts over campaign days, from its history as ``(day, after)``
    (`unit_chart_entries`): its quality, step by step (Raw at the foot, Legendary at the top),
    and its experience and hits; and their numbers as a table. A unit of a long campaign is
    drawn week by week (`days_drawn`), as the campaign page's strength chart is."""
    daily = unit_series(history, today)
    days = [day for day, _ in daily["quality"]]
    span = f"Day {days[0]} to day {days[-1]}" if days else "No days yet"
    step = 1
    drawn = days
    if days:
        drawn, step = days_drawn(days[0], days[-1])
    series = {name: points_drawn(points, drawn) for name, points in daily.items()}
    every = every_words(step)
    which = end_of_words(drawn, step)
    # A day without a point of its hits ended with it destroyed: "—", as its page says them.
    by_day = {name: {d: v for d, v in points if v is not None} for name, points in series.items()}
    lived = [day for day, _ in daily[UNIT_HITS[0]]]
    ended = len(lived) < len(days)
    broken = any(b - a > 1 for a, b in pairwise(lived))
    rows = [
        (day, [Quality(q).label, *(by_day[n].get(day, DESTROYED_HITS) for n in UNIT_SERIES[1:])])
        for day, q in series["quality"]
    ]
    quality = line_chart(
        [(UNIT_SERIES_NAMES["quality"], "", series["quality"])],
        y_title="Quality",
        y_max=max(Quality),
        y_names=tuple(q.label for q in Quality),
        every=every,
    )
    counts = line_chart(
        [(UNIT_SERIES_NAMES[n], "", series[n]) for n in UNIT_SERIES[1:]],
        y_title="Points and hits",
        every=every,
    )
    return {
        "quality": quality,
        "quality_desc": f"{span}: the unit's quality at the end of {which}.",
        "counts": counts,
        "counts_desc": f"{span}: experience points, Morale hits and Casualty hits at the end "
        f"of {which}{BREAKS_DESTROYED if broken else ENDS_DESTROYED if ended else ''}.",
        "table": numbers_by_day([UNIT_SERIES_NAMES[n] for n in UNIT_SERIES], rows),
        "every": every,
    }


def numbers_by_day(
    heads: list[str], rows: list[tuple[int, list[Any]]]
) -> tuple[list[str], list[tuple[int, list[tuple[str, Any]]]]]:
    """A chart's numbers for its table (``_line_chart.html``): the column heads, and each day's
    figures each with its column's head, which a phone shows beside it (``table.stack``)."""
    return heads, [(day, list(zip(heads, cells, strict=True))) for day, cells in rows]


def force_strength_chart(campaign: Campaign, summaries: list[ForceSummary]) -> str:
    """The campaign page's chart, drawn: each force's units fit to fight (neither retreated nor
    destroyed) at the end of each campaign day, in the force's colour, and its numbers."""
    # Drawn once per state of what it charts, not on every visit (45 forces of 100 units cost
    # 30-60 ms a visit). A history entry is written with a save of its unit
    # (``campaign.services._record``), and entries go only with their unit, so each force's
    # count of units and sum of their version tokens change with anything the chart shows; the
    # day and the forces' names and keys (their colours) name the rest.
    forces = [s.force for s in summaries]
    parts = (campaign.pk, campaign.day, [(s.force.pk, s.force.name, s.units, s.version)
                                         for s in summaries])  # fmt: skip

    def draw() -> str:
        chart = _strength_chart(campaign.day, forces)
        return render_to_string(
            "campaign/_line_chart.html",
            {
                **chart,
                "chart_id": "strength-chart",
                "chart_title": f"Units fit to fight, {chart['chart_every']}",
            },
        )

    return kept_value("strength-chart", parts, draw)


def _strength_chart(today: int, forces: list[Force]) -> dict[str, Any]:
    # Only the status counts here: the database reads it out of each snapshot, rather than
    # every whole snapshot of the campaign's history crossing over to be parsed (4x faster at
    # 4,500 entries).
    rows = (
        HistoryEntry.objects.filter(unit__force__in=forces)
        .order_by("id")
        .annotate(status=KT("after__status"))
        .values_list("unit_id", "unit__force_id", "day", "status")
    )
    per_force: dict[int, list[tuple[int, int, Any]]] = {f.pk: [] for f in forces}
    for unit_id, force_id, day, status in rows:
        per_force[force_id].append((unit_id, day, {} if status is None else {"status": status}))
    # A long campaign is drawn week by week (`days_drawn`), its table too: a year of days
    # would be hundreds of points a force, too many to read on a phone or to send.
    days, step = days_drawn(1, today)
    series = [
        (
            f.name,
            force_colour(f),
            points_drawn(force_strength_series(per_force[f.pk], today), days),
        )
        for f in forces
    ]
    every = every_words(step)
    return {
        "chart": line_chart(series, y_title="Units fit to fight", every=every),
        "chart_table": numbers_by_day(
            [f.name for f in forces],
            [(day, [points[i][1] for _, _, points in series]) for i, day in enumerate(days)],
        ),
        "chart_every": every,
        "chart_desc": f"Day 1 to day {today}: units fit to fight (neither retreated nor "
        f"destroyed) at the end of {end_of_words(days, step)}, for "
        + ", ".join(f.name for f in forces)
        + ".",
    }
