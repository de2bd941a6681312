"""Who may open which campaign object: one lookup per object kind, used by every campaign view.

Each lookup answers 404 for anything the user may not see, so an outsider cannot even learn
that a campaign, force or unit exists; a member who may see a thing but not change it gets a
403 from ``require_manage``. Anonymous users never get here: the views are ``login_required``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404

from campaign.models import Campaign, CampaignBattle, Force, Order, Unit
from campaign.selectors.access import MANAGING_ROLES, campaign_role, may_call_off, may_give_orders

FULL = "full"
SUMMARY = "summary"


@dataclass(frozen=True)
class Viewer:
    """The user looking at a campaign, and what their role lets them do there."""

    user: Any
    campaign: Campaign
    role: str
    """gm, co_gm, player or spectator (a superuser who is none of these counts as gm)."""

    @property
    def manages(self) -> bool:
        return self.role in MANAGING_ROLES

    def owns(self, force: Force) -> bool:
        return force.owner_id == self.user.pk

    def sight(self, force: Force) -> str:
        """How much of the force this viewer sees: ``full`` or ``summary``."""
        return FULL if self.owns(force) else self.others_sight

    @property
    def others_sight(self) -> str:
        """How much the viewer sees of what is not theirs: everything for the GMs; else what
        the campaign's "Other players' forces" allows (a spectator owns nothing, so sees every
        force so)."""
        if self.manages or self.campaign.other_forces_visible == Campaign.Visibility.FULL:
            return FULL
        return SUMMARY

    def forces_in_full(self) -> set[int]:
        """The pks of the campaign's forces this viewer sees in full (`sight`): whatever
        belongs to a force's units — their Orders, checks, leaders — is shown for these only."""
        return {f.pk for f in self.campaign.forces.all() if self.sight(f) == FULL}

    def sees_every_die(self, forces: Iterable[int], *, fogged: bool = False) -> bool:
        """Whether the viewer may have the seed of a fight between units of ``forces`` (their
        pks): an engine battle's or an engagement's. With the seed and what went in, anyone can
        roll every die of the fight again, the hidden ones too, so it is for the GMs, and for a
        member who sees each of those forces in full (`forces_in_full`) and from whom no fog
        of war hides any of the fight (``fogged``: they see it through one side's eyes, or see
        its outcome only)."""
        return self.manages or (not fogged and self.sees_in_full(forces))

    def sees_in_full(self, forces: Iterable[int]) -> bool:
        """Whether the viewer sees each of ``forces`` (their pks) in full (`forces_in_full`)."""
        return self.manages or set(forces) <= self.forces_in_full()

    def character_sight(self, *, player_id: int | None, unit: Unit | None) -> str:
        """How much of a d20 character (or a leader named with its unit) the viewer sees: their
        own character in full; one at the head of a unit as much as the unit's force
        (`sight`); any other as much as anything not theirs."""
        if player_id is not None and player_id == self.user.pk:
            return FULL
        if unit is not None:
            return self.sight(unit.force)
        return self.others_sight

    def may_direct(self, force: Force) -> bool:
        """A force's owner directs its medics; the GM and co-GMs may direct any force's."""
        return self.manages or self.owns(force)

    def gives_orders_to(self, force: Force) -> bool:
        """Whether the viewer may give the force's units Orders (`access.may_give_orders`)."""
        return may_give_orders(role=self.role, owns=self.owns(force))

    def calls_off(self, order: Order) -> bool:
        """Whether the viewer may call the Order off (`access.may_call_off`)."""
        gave = order.giver.player_id == self.user.pk
        return may_call_off(role=self.role, owns=self.owns(order.unit.force), gave=gave)


def campaign_for_viewer(user: Any, pk: int) -> Viewer:
    """The campaign if ``user`` takes part in it (or runs the site), else ``Http404``."""
    campaign = Campaign.objects.select_related("gm").filter(pk=pk).first()
    if campaign is None or not user.is_authenticated:
        raise Http404("no such campaign")
    role = campaign_role(campaign=campaign, user=user)
    if role is None:
        raise Http404("no such campaign")
    return Viewer(user=user, campaign=campaign, role=role)


def require_manage(viewer: Viewer) -> None:
    """Only the GM and co-GMs run the campaign: anyone else who can see it gets a 403."""
    if not viewer.manages:
        raise PermissionDenied("only the campaign's GM may do that")


def force_for_viewer(viewer: Viewer, pk: int) -> Force:
    """A force of the viewer's campaign (any member may see at least its summary), else 404."""
    force = Force.objects.select_related("owner").filter(pk=pk, campaign=viewer.campaign).first()
    if force is None:
        raise Http404("no such force")
    force.campaign = viewer.campaign
    return force


def force_roster_for_viewer(viewer: Viewer, pk: int) -> Force:
    """A force whose roster the viewer sees in full (its print sheet, its CSV), else 404."""
    force = force_for_viewer(viewer, pk)
    if viewer.sight(force) != FULL:
        raise Http404("no such force")
    return force


class UnitInSummary(Http404):
    """A unit of the campaign whose force the viewer sees in summary only: a 404 like any other
    to every caller but the unit's own page, which tells a member why (`views.pages.unit_detail`)
    and nothing of the unit."""


def unit_for_viewer(viewer: Viewer, pk: int) -> Unit:
    """A unit the viewer may see in full, else 404 (a summary shows no units; `UnitInSummary`
    for one of a force the viewer sees in summary)."""
    unit = (
        Unit.objects.select_related("force__owner", "unit_type", "leader")
        .filter(pk=pk, force__campaign=viewer.campaign)
        .first()
    )
    if unit is None:
        raise Http404("no such unit")
    if viewer.sight(unit.force) != FULL:
        raise UnitInSummary("no such unit")
    unit.force.campaign = viewer.campaign
    return unit


def campaign_battle_for_viewer(viewer: Viewer, pk: int) -> CampaignBattle:
    """A battle of the viewer's campaign; every member may read its outcome and report. Its
    log's row comes along without the events (a big battle's run to megabytes): read when a
    page draws the log, never for the outcome, the cards, an Apply or a Revert."""
    found = (
        CampaignBattle.objects.select_related("battle__log")
        .defer("battle__log__events")
        .filter(pk=pk, campaign=viewer.campaign)
        .first()
    )
    if found is None:
        raise Http404("no such battle")
    found.campaign = viewer.campaign
    return found
