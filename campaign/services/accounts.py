"""Writes for a person's own account: the e-mail address their notices go to.

An address becomes an account's only once its owner proves they read it: asking for one
(`email_ask`, or giving one when joining by an invitation's link) mails a link to it, and the
address is the account's when they open the link, logged in, and confirm (`email_confirm`).
Until then it is not used, nor counted as taken: nobody can give someone else's address and
have notices sent to it, nor keep its owner from using it. Asking is bounded
(``ASKS_PER_DAY``), so the form cannot be used to flood an inbox.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from campaign.models import EmailChange, Membership
from config.site import full_link

CONFIRM_DAYS = 3
"""How long a confirmation link works."""

MAX_ADDRESS = EmailChange._meta.get_field("address").max_length
"""The longest address kept (the standard's 254 characters)."""

ASKS_PER_DAY = 5
"""Confirmation mails one account may ask for in any 24 hours."""


def confirm_link(site: str, key: str) -> str:
    """The confirmation page of an ask, in full at ``site`` (``config.site.site_address``). The
    key itself travels only in the mail, never through the task queue or its logs."""
    return full_link(site, reverse("account-email-confirm", args=[key]))


def email_normal(address: str) -> str:
    """An address as accounts keep it: trimmed, in lower case (as invitations name people)."""
    return address.strip().lower()


def email_taken(address: str, user: Any) -> bool:
    """Whether another account has this address (confirmed, or set by the site's
    administrator): an address only asked for is nobody's yet."""
    return get_user_model().objects.filter(email__iexact=address).exclude(pk=user.pk).exists()


def email_pending(user: Any) -> EmailChange | None:
    """The address the account last asked for, while its link still works and it is not
    confirmed: the one the account page says is waiting."""
    latest = EmailChange.objects.filter(user=user).first()
    if latest is None or latest.confirmed_at is not None or _expired(latest):
        return None
    return latest


@transaction.atomic
def email_ask(*, user: Any, address: str, site: str) -> EmailChange:
    """The account asks for ``address``: a link to confirm it is mailed there once this
    transaction commits. Refused, writing nothing, for an address that is not one, that is the
    account's already or another account's, or once ``ASKS_PER_DAY`` mails went in a day."""
    user = get_user_model().objects.select_for_update().get(pk=user.pk)
    address = email_normal(address)
    errors: dict[str, list[str]] = {}
    try:
        validate_email(address)
        if len(address) > MAX_ADDRESS:
            raise ValidationError("too long")
    except ValidationError:
        errors["address"] = [
            f"Enter an e-mail address of at most {MAX_ADDRESS} characters, as name@example.org."
        ]
    else:
        if address == email_normal(user.email):
            errors["address"] = [f"{address} is your e-mail address already."]
        elif email_taken(address, user):
            errors["address"] = ["Another account has this e-mail address."]
    since = timezone.now() - timedelta(days=1)
    if EmailChange.objects.filter(user=user, asked_at__gt=since).count() >= ASKS_PER_DAY:
        errors["address"] = [
            f"{ASKS_PER_DAY} confirmation e-mails went out for your account in the last 24 "
            "hours: use the link in one of them, or ask again tomorrow."
        ]
    if errors:
        raise ValidationError(errors)
    return email_ask_unchecked(user, address, site)


def email_ask_unchecked(user: Any, address: str, site: str) -> EmailChange:
    """Record the ask, its checks done by the caller, and mail its link after commit; asks
    whose links no longer work go."""
    EmailChange.objects.filter(user=user, asked_at__lt=expired_before()).delete()
    change = EmailChange.objects.create(user=user, address=address)
    from campaign.tasks import email_confirm_send  # the tasks import the services

    transaction.on_commit(partial(email_confirm_send.delay, change.pk, site))
    return change


def email_confirm_mail(*, change_id: int, site: str) -> bool:
    """Mail the confirmation link of an ask; whether it went (not for an ask gone, confirmed,
    or mailed already: a task run twice sends it once)."""
    with transaction.atomic():
        change = (
            EmailChange.objects.select_for_update()
            .select_related("user")
            .filter(pk=change_id, mailed_at__isnull=True, confirmed_at__isnull=True)
            .first()
        )
        if change is None:
            return False
        change.mailed_at = timezone.now()
        change.save(update_fields=["mailed_at"])
        # Sent with the row locked and marked: should the mail fail, the task's retry finds
        # it unmarked again, as the transaction rolls back.
        send_mail(
            subject="Bridgehead: confirm your e-mail address",
            message=_mail_text(change, confirm_link(site, change.key)),
            from_email=settings.DEFAULT_FROM_EMAIL,
            recipient_list=[change.address],
        )
    return True


def _mail_text(change: EmailChange, link: str) -> str:
    return "\n".join(
        [
            f"The Bridgehead account {change.user.get_username()} asked for this address, "
            f"{change.address}, for its notices.",
            "",
            f"To confirm it, open this link within {CONFIRM_DAYS} days, logged in as "
            f"{change.user.get_username()}, and press Confirm:",
            "",
            link,
            "",
            "If you did not ask for it, do nothing: the address is not used unless it is "
            "confirmed.",
        ]
    )


def expired_before(now: datetime | None = None) -> datetime:
    """Asks made before this moment have links that no longer work (``CONFIRM_DAYS``)."""
    return (timezone.now() if now is None else now) - timedelta(days=CONFIRM_DAYS)


def _expired(change: EmailChange) -> bool:
    return change.asked_at < expired_before()


def email_check(*, user: Any, key: str) -> EmailChange:
    """The ask a confirmation link names, if ``user`` may confirm it now; else a
    `ValidationError` saying why, in words (the confirmation page shows it before any button)."""
    change = EmailChange.objects.filter(key=key).select_related("user").first()
    if change is None:
        raise ValidationError(
            "This link leads nowhere: ask for the address again on your account page."
        )
    if change.user_id != user.pk:
        raise ValidationError(
            f"This link was sent for the account {change.user.get_username()}: log in as "
            "that account to confirm it."
        )
    if change.confirmed_at is not None:
        if email_normal(user.email) == change.address:
            return change  # Confirmed already (a second click): nothing more to do.
        raise ValidationError(
            f"This link confirmed {change.address} once, and your account's address has "
            "changed since: ask for it again on your account page."
        )
    newer = EmailChange.objects.filter(user=user).first()
    if newer is not None and newer.pk != change.pk:
        raise ValidationError(
            f"A newer link was sent, to {newer.address}: this one no longer works."
        )
    if _expired(change):
        raise ValidationError(
            f"This link worked for {CONFIRM_DAYS} days and has expired: ask for the address "
            "again on your account page."
        )
    if email_taken(change.address, user):
        raise ValidationError(f"Another account has {change.address} now.")
    return change


@transaction.atomic
def email_confirm(*, user: Any, key: str) -> EmailChange:
    """The account confirms the address its link was mailed to: it is the account's now.
    Confirming again is no error and changes nothing."""
    user = get_user_model().objects.select_for_update().get(pk=user.pk)
    change = email_check(user=user, key=key)
    if change.confirmed_at is None:
        change.confirmed_at = timezone.now()
        change.save(update_fields=["confirmed_at"])
        user.email = change.address
        user.save(update_fields=["email"])
    return change


@transaction.atomic
def email_remove(*, user: Any) -> int:
    """The account drops its address: no mail goes to it any more, so its notices are turned
    off in every campaign. How many campaigns' notices were on."""
    user = get_user_model().objects.select_for_update().get(pk=user.pk)
    if not user.email:
        raise ValidationError("Your account has no e-mail address to remove.")
    user.email = ""
    user.save(update_fields=["email"])
    return Membership.objects.filter(user=user, email_notices=True).update(email_notices=False)
