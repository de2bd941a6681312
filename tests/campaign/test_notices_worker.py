"""Email notices through a real broker and worker: committed changes are mailed by the worker
(the console backend, the default, prints them to its log); a rolled-back change mails no one."""

from __future__ import annotations

import pytest
from django.db import transaction

from campaign.models import Membership
from campaign.services import unit_edit
from campaign.services.notices import notices_set
from tests.workers import wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_the_worker_mails_a_committed_loss_and_nothing_rolled_back(
    campaign, cast, make_unit, redis_worker, tmp_path
):
    cast.player.email = "player@example.org"
    cast.player.save()
    notices_set(campaign=campaign, user=cast.player, on=True)
    doomed, spared = make_unit("Iron Wolf"), make_unit("2nd Squad")
    with pytest.raises(RuntimeError), transaction.atomic():
        unit_edit(unit=spared, changes={"status": "destroyed"}, reason="typo", actor=cast.gm)
        raise RuntimeError("rolled back")
    unit_edit(unit=doomed, changes={"status": "destroyed"}, reason="shelled", actor=cast.gm)
    log = tmp_path / "worker.log"
    wait_for(
        lambda: "Iron Wolf (Red Company) was destroyed" in log.read_text(),
        timeout=60,
        what="the worker to print the notice",
    )
    text = log.read_text()
    assert "To: player@example.org" in text and "Subject: Op. Test: news of your units" in text
    assert "2nd Squad" not in text
    last = doomed.history.order_by("-id").first().pk
    wait_for(
        lambda: Membership.objects.get(user=cast.player, campaign=campaign).notified_upto == last,
        what="the notice to be recorded as sent",
    )
