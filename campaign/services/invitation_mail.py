"""An invitation to an e-mail address mails its link there.

The GM who invites dana@example.org means her to get it: the link goes to that address once
the invitation commits, through the worker, and the GM's list of waiting invitations says when
it went. Inviting the address again mails it again (she lost it; its role changed), unless a
mail to it is still on its way, which reads the invitation as it is when it goes. An inviter
sends at most `MAILS_PER_DAY` in any 24 hours, so a GM's account cannot flood inboxes; past that,
the invitation is made all the same, unmailed, and the GM copies its link. Invitations to a
username mail nothing: that account finds them on its "My campaigns" page.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from campaign.models import Invitation, InvitationMail, role_phrase
from campaign.rules.values import MAX_PENDING_INVITATIONS
from config.site import full_link

MAILS_PER_DAY = MAX_PENDING_INVITATIONS
"""Invitation mails one account may send in any 24 hours: a whole campaign's waiting list."""


def day_before(now: datetime | None = None) -> datetime:
    """The start of the 24 hours an inviter's mails are counted in."""
    return (timezone.now() if now is None else now) - timedelta(days=1)


def mailed(invitee: str, site: str) -> bool:
    """Whether an invitation to ``invitee`` is mailed: to an e-mail address, where the site's
    address is known (the link is made with it)."""
    return "@" in invitee and bool(site)


def over_the_day(asked_by: Any) -> str:
    """Why no more invitations of ``asked_by`` are mailed today, in a sentence; "" while they
    may be."""
    sent = InvitationMail.objects.filter(asked_by=asked_by, asked_at__gt=day_before()).count()
    if sent < MAILS_PER_DAY:
        return ""
    return (
        f"Its link was not mailed: {MAILS_PER_DAY} invitation e-mails went from your account in "
        "the last 24 hours, the most a day. Copy its link below to send it, or press Invite "
        "again tomorrow to mail it."
    )


def invitation_mail_ask(invitation: Invitation, *, asked_by: Any, site: str) -> str:
    """Within the invitation's transaction: mail its link to the address it names once it
    commits, unless it is to a username, the site's address is unknown (no link can be made),
    a mail to it is on its way already, or ``asked_by`` is at the day's most. What the GM should
    be told, in a sentence: "" when nothing needs saying."""
    if not mailed(invitation.invitee, site):
        return ""
    if invitation.mails.filter(mailed_at__isnull=True).exists():
        return ""  # one on its way reads the invitation as it is when it goes
    if refusal := over_the_day(asked_by):
        return refusal
    mail = InvitationMail.objects.create(
        invitation=invitation, asked_by=asked_by, address=invitation.invitee
    )
    from campaign.tasks import invitation_mail_send  # the tasks import the services

    transaction.on_commit(partial(invitation_mail_send.delay, mail.pk, site))
    return ""


def invitation_mail_send(*, mail_id: int, site: str) -> bool:
    """Mail the link of a waiting invitation; whether it went (not once the invitation is
    answered or withdrawn, nor twice: a task run twice sends it once)."""
    with transaction.atomic():
        mail = (
            InvitationMail.objects.select_for_update(of=("self",))  # the mail alone is marked
            .select_related("invitation__campaign__gm", "invitation__invited_by")
            .filter(pk=mail_id, mailed_at__isnull=True, invitation__isnull=False)
            .first()
        )
        if mail is None:
            return False
        mail.mailed_at = timezone.now()
        mail.save(update_fields=["mailed_at"])
        invitation = mail.invitation
        inviter = (invitation.invited_by or invitation.campaign.gm).get_username()
        # Sent with the row locked and marked: should the mail fail, the task's retry finds
        # it unmarked again, as the transaction rolls back.
        send_mail(
            subject=" ".join(f"Bridgehead: {inviter} invites you to {invitation.campaign}".split()),
            message=mail_text(invitation, inviter, site),
            from_email=settings.DEFAULT_FROM_EMAIL,
            recipient_list=[mail.address],
        )
    return True


def mail_text(invitation: Invitation, inviter: str, site: str) -> str:
    """The invitation mail: who invites whom to what, and the link to join by."""
    campaign = invitation.campaign
    return "\n".join(
        [
            f"{inviter} invites you to {campaign}, a {campaign.get_ruleset_display()} campaign "
            f"on Bridgehead, as {role_phrase(invitation.role)}.",
            "",
            "To join, open this link: with no account on the site yet, you make one there; with "
            "one, you log in and join.",
            "",
            full_link(site, reverse("campaign:join", args=[invitation.link_key])),
            "",
            "Whoever opens the link may join by it, so keep it to yourself. Not for you, or not "
            "wanted? Do nothing: no account is made, and the invitation waits until the GM "
            "withdraws it.",
        ]
    )


def stale_mails_delete(now: datetime) -> int:
    """Delete the mails whose invitations are gone (answered or withdrawn) and that no longer
    count toward their inviter's day; how many went."""
    deleted, _ = InvitationMail.objects.filter(
        invitation__isnull=True, asked_at__lt=day_before(now)
    ).delete()
    return deleted
