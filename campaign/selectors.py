"""Reads: who may do what in a campaign, rosters, and a unit's history explained."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from campaign.models import Campaign, Force, HistoryEntry, Membership, Unit
from campaign.state import snapshot_replay

GM = "gm"
"""The role of the campaign's own GM (not a membership: it is `Campaign.gm`)."""
MANAGING_ROLES = frozenset({GM, Membership.Role.CO_GM})


def campaign_role(*, campaign: Campaign, user: Any) -> str | None:
    """The user's role in the campaign: gm, co_gm, player, spectator, or None."""
    if user is None or not user.is_authenticated:
        return None
    if campaign.gm_id == user.pk:
        return GM
    membership = Membership.objects.filter(campaign=campaign, user=user).first()
    return None if membership is None else membership.role


def campaign_can_manage(*, campaign: Campaign, user: Any) -> bool:
    """The GM and co-GMs run the campaign: calendar, battles, corrections (and the site's
    superusers, who run the site)."""
    if getattr(user, "is_superuser", False) and user.is_active:
        return True
    return campaign_role(campaign=campaign, user=user) in MANAGING_ROLES


def campaign_can_view(*, campaign: Campaign, user: Any) -> bool:
    return campaign_role(campaign=campaign, user=user) is not None


def campaigns_for_user(*, user: Any) -> QuerySet[Campaign]:
    """Every campaign the user runs or belongs to."""
    if user is None or not user.is_authenticated:
        return Campaign.objects.none()
    return Campaign.objects.filter(Q(gm=user) | Q(memberships__user=user)).distinct()


def force_can_edit(*, force: Force, user: Any) -> bool:
    """A force's owner looks after it; the GM and co-GMs may touch any force."""
    if user is not None and user.is_authenticated and force.owner_id == user.pk:
        return True
    return campaign_can_manage(campaign=force.campaign, user=user)


def force_roster(*, force: Force) -> QuerySet[Unit]:
    """The force's units with what a roster line shows, in roster order."""
    return force.units.select_related("unit_type", "leader").order_by("id")


def campaign_units(*, campaign: Campaign) -> QuerySet[Unit]:
    return (
        Unit.objects.filter(force__campaign=campaign)
        .select_related("force", "unit_type", "leader")
        .order_by("force__name", "id")
    )


def unit_history(*, unit: Unit) -> QuerySet[HistoryEntry]:
    """The unit's history, oldest first."""
    return unit.history.select_related("battle", "actor").order_by("id")


def unit_snapshot(*, unit: Unit) -> dict[str, Any]:
    """The unit's recorded fields as its history stores them."""
    return unit.state.to_json()


def unit_history_replay(*, unit: Unit) -> dict[str, Any]:
    """The snapshot its history arrives at: every entry's `after`, in order."""
    return snapshot_replay(unit_history(unit=unit).values_list("after", flat=True))


def unit_history_explains(*, unit: Unit) -> bool:
    """Whether replaying the unit's history arrives exactly at its current state."""
    return unit_history_replay(unit=unit) == unit_snapshot(unit=unit)
