"""The site's own records stay bounded: one-time form keys and e-mail asks go once no second
sending nor link can need them, by a task the beat runs every hour."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from campaign import tasks
from campaign.models import EmailChange, FormSent
from campaign.services.accounts import CONFIRM_DAYS
from campaign.services.housekeeping import FORM_KEY_DAYS, stale_records_delete

pytestmark = pytest.mark.django_db


def test_form_keys_and_email_asks_go_once_nothing_can_need_them(cast):
    now = timezone.now()
    for days in (0, FORM_KEY_DAYS - 1, FORM_KEY_DAYS + 1):
        sent = FormSent.objects.create(request_key=uuid.uuid4(), user=cast.player, url="/",
                                       message=f"{days} days ago", level=25)  # fmt: skip
        FormSent.objects.filter(pk=sent.pk).update(created_at=now - timedelta(days=days))
    for hours in (1, CONFIRM_DAYS * 24 - 1, CONFIRM_DAYS * 24 + 1):
        EmailChange.objects.create(user=cast.player, address=f"{hours}@example.org",
                                   asked_at=now - timedelta(hours=hours))  # fmt: skip
    assert stale_records_delete(now=now) == {
        "form keys": 1,
        "e-mail asks": 1,
        "invitation mails": 0,
    }
    assert sorted(FormSent.objects.values_list("message", flat=True)) == [
        "0 days ago",
        f"{FORM_KEY_DAYS - 1} days ago",
    ]
    assert sorted(EmailChange.objects.values_list("address", flat=True)) == [
        "1@example.org",
        f"{CONFIRM_DAYS * 24 - 1}@example.org",
    ]
    assert stale_records_delete(now=now) == {
        "form keys": 0,
        "e-mail asks": 0,
        "invitation mails": 0,
    }


def test_the_beat_runs_it_every_hour_on_the_housekeeping_queue():
    from celery import current_app

    (entry,) = [e for e in settings.CELERY_BEAT_SCHEDULE.values()
                if e["task"] == "campaign.tasks.delete_stale_records"]  # fmt: skip
    assert entry["schedule"] == 3600.0
    assert tasks.delete_stale_records.name == entry["task"]
    route = current_app.amqp.router.route({}, entry["task"], (), {})
    assert route["queue"].name == "housekeeping"
    assert tasks.delete_stale_records() == {"form keys": 0, "e-mail asks": 0, "invitation mails": 0}
