"""An imported campaign's people join by accepting their invitations: the round-trip tests'
step between the import and the export that must give the same file."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from campaign.models import Campaign, StoryEntry
from campaign.services import invitation_accept


def accept_every_invitation(campaign: Campaign) -> None:
    """Each invitee of ``campaign`` (an account by that username) accepts their invitation.

    Their joining happens here, on this site, and the campaign's story tells it, a line each
    (checked here); those lines are then set aside, so that the export that follows is
    compared with the story the imported file carried."""
    users = get_user_model().objects
    told = set(campaign.story.values_list("pk", flat=True))
    invitees = []
    for invitation in list(campaign.invitations.order_by("pk")):
        user = users.get(username=invitation.invitee)
        invitation_accept(invitation_pk=invitation.pk, user=user)
        invitees.append(invitation.invitee)
    joined = campaign.story.exclude(pk__in=told).order_by("pk")
    assert [(g.kind, g.text.split(" joined as ")[0]) for g in joined] == [
        (StoryEntry.Kind.JOINED, name) for name in invitees
    ]
    joined.delete()
