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


def link(key: str) -> str:
    return f"https://bridgehead.example/accounts/email/{key}/"


def test_the_worker_mails_the_link_of_a_committed_ask_and_nothing_rolled_back(
    cast, redis_worker, tmp_path
):
    with pytest.raises(RuntimeError), transaction.atomic():
        email_ask(user=cast.rival, address="typo@example.org", link=link)
        raise RuntimeError("rolled back")
    change = email_ask(user=cast.player, address="ada@example.org", link=link)
    log = tmp_path / "worker.log"
    wait_for(lambda: link(change.key) in log.read_text(), timeout=60,
             what="the worker to print the confirmation mail")  # fmt: skip
    text = log.read_text()
    assert "To: ada@example.org" in text
    assert "Subject: Bridgehead: confirm your e-mail address" in text
    assert "typo@example.org" not in text
    wait_for(lambda: EmailChange.objects.get(pk=change.pk).mailed_at is not None,
             what="the mail to be recorded as sent")  # fmt: skip
    assert not EmailChange.objects.filter(address="typo@example.org").exists()
