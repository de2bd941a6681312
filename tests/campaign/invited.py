"""An imported campaign's people join by accepting their invitations: the round-trip tests'
step between the import and the export that must give the same file."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from campaign.models import Campaign
from campaign.services import invitation_accept


def accept_every_invitation(campaign: Campaign) -> None:
    """Each invitee of ``campaign`` (an account by that username) accepts their invitation."""
    users = get_user_model().objects
    for invitation in list(campaign.invitations.order_by("pk")):
        user = users.get(username=invitation.invitee)
        invitation_accept(invitation_pk=invitation.pk, user=user)
