""" "My campaigns": each campaign a member belongs to, and what waits for them there."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from campaign.models import Campaign, CampaignBattle, Force, HistoryEntry, Membership, Unit
from campaign.pages.attention import Attention, units_held_in_battles, units_needing_attention
from campaign.rules.recovery import awaiting_until
from campaign.selectors.access import campaign_role, campaigns_for_user
from units.words import plural


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
