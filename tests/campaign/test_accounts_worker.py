"""The confirmation mail of an e-mail address through a real broker and worker: mailed once
the ask commits (the console backend, the default, prints it to the worker's log), never for
an ask rolled back."""

from __future__ import annotations

import pytest
from django.db import transaction

from campaign.models import EmailChange
from campaign.services.accounts import email_ask
from tests.workers import wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


SITE = "https://bridgehead.example"


def test_the_worker_mails_the_link_of_a_committed_ask_and_nothing_rolled_back(
    cast, redis_worker, tmp_path
):
    with pytest.raises(RuntimeError), transaction.atomic():
        email_ask(user=cast.rival, address="typo@example.org", site=SITE)
        raise RuntimeError("rolled back")
    change = email_ask(user=cast.player, address="ada@example.org", site=SITE)
    log = tmp_path / "worker.log"
    wait_for(lambda: "To: ada@example.org" in log.read_text(), timeout=60,
             what="the worker to print the confirmation mail")  # fmt: skip
    text = log.read_text()
    link = f"{SITE}/accounts/email/{change.key}/"
    # The key is in the mail, and nowhere else in the worker's log: no queue carried it.
    assert text.count(change.key) == 1 and f"\n{link}\n" in text
    assert "Subject: Bridgehead: confirm your e-mail address" in text
    assert "typo@example.org" not in text
    wait_for(lambda: EmailChange.objects.get(pk=change.pk).mailed_at is not None,
             what="the mail to be recorded as sent")  # fmt: skip
    assert not EmailChange.objects.filter(address="typo@example.org").exists()
