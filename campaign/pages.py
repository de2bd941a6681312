"""Reads shaped for the campaign pages and JSON: roster lines, the dashboard, a unit's card.

Each roster line carries the card as it will be printed for the next battle (``battle_card``):
a unit out of action has none, and its line says so. Everything here works on rows already
loaded with their card and leader, so a roster costs the same few queries however long it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q

from campaign.bridge import BridgeError, battle_card
from campaign.models import Campaign, CampaignBattle, Force, QuickResolve, Unit
from campaign.recovery import medical_capacity, medical_window_open
from campaign.selectors import campaign_units, force_roster, medics_used_today
from campaign.state import Status, ordered_specialties
from units.cardtext import CardError, render_card

SORTS = {
    "name": lambda line: line.unit.name.lower(),
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

    @property
    def specialties(self) -> str:
        """The unit's specialties by their names in the rules, in the table's order."""
        return ", ".join(s.label for s in ordered_specialties(self.unit.specialties))


def roster_line(unit: Unit, day: int) -> RosterLine:
    try:
        card = battle_card(unit)
    except BridgeError:
        card = None
    return RosterLine(unit=unit, card=card, needs_medics=medical_window_open(unit.state, day))


def clean_sort(value: str) -> str:
    """The sort asked for if it is one we offer, else the roster's own order."""
    return value if value.lstrip("-") in SORTS else "name"


def roster_lines(force: Force, *, sort: str = "name") -> list[RosterLine]:
    """The force's units as roster lines, sorted by a column of ``SORTS``."""
    day = force.campaign.day
    lines = [roster_line(unit, day) for unit in force_roster(force=force)]
    sort = clean_sort(sort)
    key = SORTS[sort.lstrip("-")]
    # Ties keep roster order, so a sorted roster reads the same on every load.
    return sorted(lines, key=lambda line: (key(line), line.unit.pk), reverse=sort.startswith("-"))


@dataclass(frozen=True)
class MedicsToday:
    """What a force's Medical crews can still do today, and for whom."""

    capacity: int
    """Casualty hits its ready Medical crews save in a day."""
    left: int
    wounded: list[Unit]
    """Units whose Casualty hits await the medics today, in roster order."""

    @property
    def unavailable(self) -> str:
        """Why the medics cannot be sent in now ("" when they can)."""
        if not self.wounded:
            return "No unit has Casualty hits awaiting the medics today."
        if self.capacity == 0:
            return "This force has no ready Medical crew."
        if self.left <= 0:
            return "The Medical crews have saved all they can today."
        return ""


def medics_today(force: Force, lines: list[RosterLine]) -> MedicsToday:
    """The force's medics today, from its roster lines (one more query: what they saved)."""
    capacity = sum(medical_capacity(line.unit.state) for line in lines)
    used = medics_used_today(force=force) if capacity else 0
    wounded = sorted((line.unit for line in lines if line.needs_medics), key=lambda u: u.pk)
    return MedicsToday(capacity=capacity, left=max(0, capacity - used), wounded=wounded)


@dataclass(frozen=True)
class ForceSummary:
    force: Force
    units: int
    ready: int


def force_summaries(campaign: Campaign) -> list[ForceSummary]:
    """Each force with its unit counts: what a player may always see of another force."""
    counts = {
        row["force_id"]: (row["units"], row["ready"])
        for row in Unit.objects.filter(force__campaign=campaign)
        .values("force_id")
        .annotate(units=Count("id"), ready=Count("id", filter=Q(status=Status.READY)))
        .order_by()
    }
    forces = campaign.forces.select_related("owner").order_by("name")
    return [ForceSummary(f, *counts.get(f.pk, (0, 0))) for f in forces]


@dataclass(frozen=True)
class Attention:
    unit: Unit
    reason: str


def units_needing_attention(campaign: Campaign, visible: set[int]) -> list[Attention]:
    """Retreated units and units whose Casualty hits await the medics today (forces the
    viewer sees in full only)."""
    found = []
    # Only the units that may need attention are read (a campaign may hold thousands);
    # ``medical_window_open`` still decides.
    maybe = Q(status=Status.RETREATED) | Q(casualty_hits__gt=0, last_battle_day__gte=campaign.day)
    for unit in campaign_units(campaign=campaign).filter(maybe, force_id__in=visible):
        if unit.status == Status.RETREATED:
            found.append(Attention(unit, "retreated in poor order: rallies after a day of R&R"))
        elif medical_window_open(unit.state, campaign.day):
            found.append(
                Attention(unit, f"{unit.casualty_hits} Casualty hits awaiting the medics today")
            )
    return found


def recent_battles(campaign: Campaign, limit: int = 10) -> list[CampaignBattle]:
    return list(campaign.battles.select_related("battle").defer("battle__scenario")[:limit])


def recent_quick_resolves(campaign: Campaign, limit: int = 5) -> list[QuickResolve]:
    return list(campaign.quick_resolves.select_related("attacker", "defender")[:limit])


def card_text(card: dict[str, Any] | None) -> str:
    """The card in the rule text's layout, or "" when it cannot be printed."""
    if card is None:
        return ""
    try:
        return render_card(card)
    except CardError:
        return ""


def battle_winner(campaign_battle: CampaignBattle) -> str | None:
    """The winning side's id, from the table result or the engine's; None for a draw or
    while the battle is still being fought."""
    if campaign_battle.table_result is not None:
        return campaign_battle.table_result.get("winner")
    battle = campaign_battle.battle
    if battle is None or not battle.result:
        return None
    return battle.result.get("winner")


def winner_name(campaign_battle: CampaignBattle) -> str | None:
    """The winning side as players call it: the engine result's side name, or the table's."""
    winner = battle_winner(campaign_battle)
    battle = campaign_battle.battle
    if winner is None or battle is None or not battle.result:
        return winner
    names = {s.get("side"): s.get("name") for s in battle.result.get("sides", [])}
    return names.get(winner) or winner
