"""Roster lines: each unit with the card it will be printed for the next battle (``battle_card``);
a unit out of action has none, and its line says so. Everything here works on rows already
loaded with their card and leader, so a roster costs the same few queries however long it is."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from campaign.models import CampaignBattle, Force, Unit
from campaign.pages.cards import card_changes, card_lacks_text
from campaign.pages.deadlines import medics_deadline, rally_when, until_when
from campaign.pages.names import name_order
from campaign.rules.bridge import BridgeError, battle_card, card_needs
from campaign.rules.experience import threshold
from campaign.rules.recovery import awaiting_until, days_to_rally, medical_window_open
from campaign.rules.state import Status, ordered_specialties
from campaign.selectors.roster import campaign_now, force_roster
from units.bucs import Equipment, Quality, Specialty, fielded, kept_beyond_limit
from units.cardtext import card_notes, stat_items, weapon_head, weapon_items
from units.words import and_words

if TYPE_CHECKING:
    from campaign.services.going_in import GoingInto


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
    def held(self) -> tuple[Specialty, ...]:
        """The unit's specialties, in the table's order."""
        return ordered_specialties(self.unit.specialties)

    @property
    def specialties(self) -> str:
        """The unit's specialties by their names in the rules, in the table's order."""
        return ", ".join(s.label for s in self.held)

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


def roster_line(unit: Unit, now: int) -> RosterLine:
    """The unit's roster line at clock hour ``now`` (`campaign_now`)."""
    try:
        card = battle_card(unit)
    except BridgeError:
        card = None
    needs_medics = medical_window_open(unit.state, now)
    return RosterLine(unit=unit, card=card, needs_medics=needs_medics, now=now)


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
