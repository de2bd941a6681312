"""An invitation's mail through a real broker and worker: its link goes to the address once the
invitation commits (the console backend, the default, prints it to the worker's log), never for
one rolled back."""

from __future__ import annotations

import pytest
from django.db import transaction

from campaign.models import InvitationMail
from campaign.services import invitation_send
from tests.workers import wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


SITE = "https://bridgehead.example"


def test_the_worker_mails_a_committed_invitations_link_and_nothing_rolled_back(
    campaign, cast, redis_worker, tmp_path
):
    with pytest.raises(RuntimeError), transaction.atomic():
        invitation_send(campaign=campaign, invitee="typo@example.org", role="player",
                        actor=cast.gm, site=SITE)  # fmt: skip
        raise RuntimeError("rolled back")
    invitation_send(
        campaign=campaign, invitee="dana@example.org", role="spectator", actor=cast.gm, site=SITE
    )
    key = campaign.invitations.get(invitee="dana@example.org").link_key
    log = tmp_path / "worker.log"
    wait_for(lambda: "To: dana@example.org" in log.read_text(), timeout=60,
             what="the worker to print the invitation mail")  # fmt: skip
    text = log.read_text()
    # The key is in the mail, and nowhere else in the worker's log: no queue carried it.
    assert text.count(key) == 1 and f"\n{SITE}/campaigns/join/{key}/\n" in text
    assert f"Subject: Bridgehead: gm invites you to {campaign.name}" in text
    assert "as a spectator." in text and "typo@example.org" not in text
    wait_for(lambda: InvitationMail.objects.get().mailed_at is not None,
             what="the mail to be recorded as sent")  # fmt: skip
