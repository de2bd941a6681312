"""The campaign's fights, battles and engagements, as the dashboard and their lists give them."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import Exists, F, OuterRef, Q, QuerySet
from django.urls import reverse

from campaign.models import Campaign, CampaignBattle, Engagement, QuickResolve
from campaign.pages.sides import battle_winner, battles_side_names, engagement_sides
from campaign.rules.engagement import SIDES
from campaign.selectors.access import campaigns_for_user
from units.words import plural


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
