"""Reads: who may do what in a campaign, rosters, and a unit's history explained."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.db.models import Q, QuerySet

from campaign.models import Campaign, CampaignBattle, Force, HistoryEntry, Membership, Unit
from campaign.state import snapshot_replay
from units.models import UnitType

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


def engaged_units(*, campaign: Campaign) -> dict[int, str]:
    """Units in a battle whose outcome is not applied yet (being fought, or awaiting the GM's
    review), each with that battle's name: until it is, the unit's card for another battle
    would be the one from before this battle."""
    unsettled = CampaignBattle.objects.filter(
        campaign=campaign,
        state__in=[CampaignBattle.State.FIGHTING, CampaignBattle.State.AWAITING],
    ).values_list("name", "sides")
    return {pk: name for name, sides in unsettled for pks in sides.values() for pk in pks}


def medics_used_today(*, force: Force) -> int:
    """Casualty hits the force's Medical crews have already saved today (their capacity is for
    the whole day: ``campaign.services.recovery.medical_apply``)."""
    return sum(
        entry.details.get("saved", 0)
        for entry in HistoryEntry.objects.filter(
            kind=HistoryEntry.Kind.MEDICAL, unit__force=force, day=force.campaign.day
        ).only("details")
    )


def campaign_battle_units(*, campaign_battle: CampaignBattle) -> dict[int, Unit]:
    """The persistent units that fought in the battle, by pk, with their forces and owners."""
    pks = [pk for side in campaign_battle.sides.values() for pk in side]
    return {u.pk: u for u in Unit.objects.filter(pk__in=pks).select_related("force__owner")}


def campaign_battle_of(*, battle_id: int) -> CampaignBattle | None:
    """The campaign battle an engine battle was fought for, if any."""
    return CampaignBattle.objects.select_related("campaign").filter(battle_id=battle_id).first()


def campaign_battle_ids() -> QuerySet:
    """The ids of every engine battle fought for a campaign (a subquery, not a list)."""
    return CampaignBattle.objects.filter(battle__isnull=False).values("battle_id")


def roster_version(force: Force) -> tuple:
    """What the force's roster page is drawn from beyond the campaign and force rows: the sums
    of the version tokens of its units (a leader's change moves its unit's), of their cards,
    and of the library cards of the campaign's ruleset (a GM's add-unit form offers them).

    Every save gives a row a new random token (``units.models.Versioned``), so the sums change
    with any saved change, a unit or card added or removed, or a card reloaded. One fixed SQL
    statement: the roster is the page read most, and the ORM takes longer to build this
    aggregate than the database takes to answer it.
    """
    with connection.cursor() as cursor:
        cursor.execute(_ROSTER_VERSION_SQL, [force.campaign.ruleset, force.pk])
        return tuple(cursor.fetchone())


_ROSTER_VERSION_SQL = f"""
    SELECT COUNT(u.id), SUM(u.version), SUM(t.version),
           (SELECT SUM(version) FROM {UnitType._meta.db_table} WHERE ruleset = %s)
    FROM {Unit._meta.db_table} u JOIN {UnitType._meta.db_table} t ON t.id = u.unit_type_id
    WHERE u.force_id = %s
"""
