"""An invitation to an e-mail address mails its link there: once it commits, once however often
the task runs, again each time it is sent, never for a username, never once the invitation is
gone, and at most a day's worth for any one inviter."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from campaign import tasks
from campaign.models import Invitation, InvitationMail
from campaign.services import (
    invitation_accept,
    invitation_send,
    invitation_withdraw,
    membership_set,
)
from campaign.services.housekeeping import stale_records_delete
from campaign.services.invitation_mail import MAILS_PER_DAY, invitation_mail_send
from campaign.services.transfer import campaign_import
from campaign.transfer.export import campaign_export, export_text

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("locmem")]

SITE = "https://bridgehead.example"


@pytest.fixture
def queued(monkeypatch) -> list[tuple[int, str]]:
    """The invitation mails queued for the worker: (mail, site), once their invitation commits."""
    sent: list[tuple[int, str]] = []
    monkeypatch.setattr(tasks.invitation_mail_send, "delay", lambda *args: sent.append(args))
    return sent


@pytest.fixture
def invite(campaign, cast, django_capture_on_commit_callbacks):
    def invite(invitee: str, role: str = "player", actor=None, site: str = SITE) -> str:
        with django_capture_on_commit_callbacks(execute=True):
            return invitation_send(
                campaign=campaign, invitee=invitee, role=role, actor=actor or cast.gm, site=site
            )

    return invite


def _mailed(queued) -> list:
    """Run the worker's task for each mail queued (twice: it sends once), and what went."""
    for mail_id, site in queued:
        invitation_mail_send(mail_id=mail_id, site=site)
        assert invitation_mail_send(mail_id=mail_id, site=site) is False
    queued.clear()
    return list(mail.outbox)


def test_an_invitation_to_an_address_mails_its_link_there_once(campaign, cast, invite, queued):
    assert invite("  Dana@Example.ORG ") == ""
    invitation = Invitation.objects.get(invitee="dana@example.org")
    (sent,) = _mailed(queued)
    assert sent.to == ["dana@example.org"]
    assert sent.subject == f"Bridgehead: gm invites you to {campaign.name}"
    link = f"{SITE}/campaigns/join/{invitation.link_key}/"
    assert f"\n{link}\n" in sent.body
    assert sent.body.startswith(
        f"gm invites you to {campaign.name}, a Combined Arms campaign on Bridgehead, as a player."
    )
    assert "you make one there" in sent.body and "keep it to yourself" in sent.body
    # The link's key went by no queue: the task was given the mail's id and the site alone.
    (record,) = invitation.mails.all()
    assert record.mailed_at is not None and record.asked_by == cast.gm


def test_a_username_or_an_unknown_site_mails_nothing(invite, queued):
    invite("outsider")
    invite("erin@example.org", site="")  # no address to link to: the GM copies the link
    assert queued == [] and not InvitationMail.objects.exists()
    assert Invitation.objects.count() == 2


def test_inviting_an_address_again_mails_its_link_again_in_its_role_then(invite, queued):
    invite("dana@example.org")
    assert len(_mailed(queued)) == 1
    invite("dana@example.org")  # she lost it
    assert len(_mailed(queued)) == 2
    invite("dana@example.org", role="spectator")
    (first, again, spectator) = _mailed(queued)
    assert first.body == again.body and "as a player." in again.body
    assert "as a spectator." in spectator.body
    assert InvitationMail.objects.filter(mailed_at__isnull=False).count() == 3


def test_a_mail_on_its_way_reads_the_invitation_as_it_is_when_it_goes(invite, queued):
    invite("dana@example.org")
    invite("dana@example.org", role="co_gm")  # before the worker sent the first
    assert len(queued) == 1
    (sent,) = _mailed(queued)
    assert "as a co-GM." in sent.body


def test_an_invitation_answered_or_withdrawn_before_its_mail_goes_mails_nothing(
    campaign, cast, invite, queued
):
    cast.outsider.email = "out@example.org"
    cast.outsider.save()
    invite("out@example.org")
    invite("gone@example.org")
    invitation_accept(
        invitation_pk=Invitation.objects.get(invitee="out@example.org").pk, user=cast.outsider
    )
    invitation_withdraw(
        campaign=campaign, invitation_pk=Invitation.objects.get(invitee="gone@example.org").pk,
        actor=cast.gm,
    )  # fmt: skip
    assert _mailed(queued) == []
    assert InvitationMail.objects.filter(invitation__isnull=True).count() == 2


def test_an_inviter_mails_at_most_a_days_worth_and_the_invitation_is_made_all_the_same(
    campaign, cast, invite, queued
):
    earlier = timezone.now() - timedelta(hours=23)
    InvitationMail.objects.bulk_create(
        InvitationMail(asked_by=cast.gm, address=f"{n}@example.org", asked_at=earlier)
        for n in range(MAILS_PER_DAY - 1)
    )  # withdrawn since: they count all the same
    assert invite("last@example.org") == ""
    said = invite("one-more@example.org")
    assert said.startswith(
        f"Its link was not mailed: {MAILS_PER_DAY} invitation e-mails went from your account "
        "in the last 24 hours"
    )
    assert Invitation.objects.filter(invitee="one-more@example.org").exists()
    assert len(queued) == 1
    # A member's address is told the same: the answer betrays no account.
    cast.player.email = "player@example.org"
    cast.player.save()
    assert invite("player@example.org") == said
    # A co-GM has a day of their own; and a day on, pressing Invite again mails it.
    membership_set(campaign=campaign, user=cast.rival, role="co_gm")
    assert invite("co@example.org", actor=cast.rival) == ""
    InvitationMail.objects.filter(asked_by=cast.gm).update(asked_at=earlier - timedelta(hours=2))
    assert invite("one-more@example.org") == ""
    assert len(queued) == 3


def test_mails_are_kept_while_they_count_or_their_invitation_waits(campaign, cast, invite, queued):
    invite("dana@example.org")
    invite("gone@example.org")
    invitation_withdraw(
        campaign=campaign, invitation_pk=Invitation.objects.get(invitee="gone@example.org").pk,
        actor=cast.gm,
    )  # fmt: skip
    InvitationMail.objects.update(asked_at=timezone.now() - timedelta(hours=25))
    assert stale_records_delete()["invitation mails"] == 1
    assert list(InvitationMail.objects.values_list("address", flat=True)) == ["dana@example.org"]


def test_an_imported_invitation_to_an_address_mails_its_new_link_there(
    campaign, cast, invite, queued, django_capture_on_commit_callbacks
):
    invite("zed@example.org", site="")  # made where no link could be mailed
    data = json.loads(export_text(campaign_export(campaign=campaign)))
    with django_capture_on_commit_callbacks(execute=True):
        moved = campaign_import(data=data, gm=cast.outsider, site=SITE)
    (sent,) = _mailed(queued)  # the members are invited by username: only the address is mailed
    key = moved.invitations.get(invitee="zed@example.org").link_key
    assert sent.to == ["zed@example.org"] and f"{SITE}/campaigns/join/{key}/" in sent.body
    assert sent.subject == f"Bridgehead: outsider invites you to {moved.name}"
    assert sorted(moved.invitations.values_list("invitee", flat=True)) == [
        "gm", "player", "rival", "zed@example.org",
    ]  # fmt: skip
