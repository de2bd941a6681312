"""Writes that keep the site's own records bounded: what no page needs any more goes.

The forms' one-time keys (`FormSent`) are kept long enough for any second sending a person
makes — a double click, a phone retrying, a page sent again from the browser's history days
later — and then deleted; so are the e-mail asks (`EmailChange`) whose links no longer work, and
the invitation mails (`InvitationMail`) whose invitations are gone, a day on. The beat runs it
every hour (``CELERY_BEAT_SCHEDULE``), so no such table grows with the years.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from campaign.models import EmailChange, FormSent
from campaign.services.accounts import expired_before
from campaign.services.invitation_mail import stale_mails_delete

FORM_KEY_DAYS = 30
"""How long a form's one-time key is kept: sent again within that, it does nothing twice."""


def stale_records_delete(*, now: datetime | None = None) -> dict[str, int]:
    """Delete the one-time form keys older than ``FORM_KEY_DAYS``, the e-mail asks older than
    ``accounts.CONFIRM_DAYS`` and the invitation mails no longer needed; how many of each went."""
    now = timezone.now() if now is None else now
    forms, _ = FormSent.objects.filter(created_at__lt=now - timedelta(days=FORM_KEY_DAYS)).delete()
    asks, _ = EmailChange.objects.filter(asked_at__lt=expired_before(now)).delete()
    return {"form keys": forms, "e-mail asks": asks, "invitation mails": stale_mails_delete(now)}
