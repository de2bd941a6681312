"""A person's own e-mail address: asked for, mailed a link, and the account's only once the
link is opened and confirmed; bounded, so the form floods no inbox; and removed at will."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.utils import timezone

from campaign import tasks
from campaign.models import EmailChange, Membership
from campaign.services import account_join, invitation_send
from campaign.services.accounts import (
    ASKS_PER_DAY,
    CONFIRM_DAYS,
    email_ask,
    email_confirm,
    email_confirm_mail,
    email_pending,
    email_remove,
)
from campaign.services.notices import notices_set

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("locmem")]


@pytest.fixture
def queued(monkeypatch) -> list[tuple[int, str]]:
    """The confirmation mails queued for the worker: (ask, link), once their change commits."""
    sent: list[tuple[int, str]] = []
    monkeypatch.setattr(tasks.email_confirm_send, "delay", lambda *args: sent.append(args))
    return sent


SITE = "https://bridgehead.example/"


def link(key: str) -> str:
    """The confirmation link the mail should carry."""
    return f"https://bridgehead.example/accounts/email/{key}/"


def _ask(user, address, capture):
    with capture(execute=True):
        return email_ask(user=user, address=address, site=SITE)


def test_an_address_asked_for_is_mailed_a_link_and_is_the_accounts_once_confirmed(
    cast, queued, django_capture_on_commit_callbacks
):
    player = cast.player
    with django_capture_on_commit_callbacks(execute=True):
        change = email_ask(user=player, address="  Ada@Example.ORG ", site=SITE)
        assert queued == []  # only once the ask is committed
    assert queued == [(change.pk, SITE)]  # the key goes by no queue: it is in the mail alone
    player.refresh_from_db()
    assert player.email == "" and change.address == "ada@example.org"
    assert email_pending(player) == change
    # The worker's task mails it, once however often it runs.
    assert email_confirm_mail(change_id=change.pk, site=SITE) is True
    assert email_confirm_mail(change_id=change.pk, site=SITE) is False
    (sent,) = mail.outbox
    assert sent.to == ["ada@example.org"]
    assert sent.subject == "Bridgehead: confirm your e-mail address"
    assert link(change.key) in sent.body and "logged in as player" in sent.body
    assert f"within {CONFIRM_DAYS} days" in sent.body
    email_confirm(user=player, key=change.key)
    player.refresh_from_db()
    assert player.email == "ada@example.org" and email_pending(player) is None
    email_confirm(user=player, key=change.key)  # a second click: no error, nothing new
    assert EmailChange.objects.get(pk=change.pk).confirmed_at is not None
    # Once the address is gone, the old link does not bring it back.
    email_remove(user=player)
    with pytest.raises(ValidationError, match="changed since: ask for it again"):
        email_confirm(user=player, key=change.key)
    player.refresh_from_db()
    assert player.email == ""


@pytest.mark.parametrize(
    ("address", "refused"),
    [
        (
            "not an address",
            "Enter an e-mail address of at most 254 characters, as name@example.org.",
        ),
        (
            "a" * 64 + "@" + ".".join(["b" * 60] * 3) + ".example.org",  # valid, but 259 long
            "Enter an e-mail address of at most 254 characters, as name@example.org.",
        ),
        ("PLAYER@example.org", "player@example.org is your e-mail address already."),
        ("rival@example.org", "Another account has this e-mail address."),
    ],
)
def test_a_refused_address_says_why_and_writes_nothing(cast, queued, address, refused):
    cast.player.email = "player@example.org"
    cast.player.save()
    cast.rival.email = "Rival@example.org"
    cast.rival.save()
    with pytest.raises(ValidationError) as error:
        email_ask(user=cast.player, address=address, site=SITE)
    assert error.value.message_dict == {"address": [refused]}
    assert not EmailChange.objects.exists() and queued == []


def test_an_account_asks_for_at_most_five_mails_a_day(
    cast, queued, django_capture_on_commit_callbacks
):
    for i in range(ASKS_PER_DAY):
        _ask(cast.player, f"p{i}@example.org", django_capture_on_commit_callbacks)
    with pytest.raises(ValidationError, match="5 confirmation e-mails went out"):
        email_ask(user=cast.player, address="victim@example.org", site=SITE)
    assert len(queued) == ASKS_PER_DAY
    assert not EmailChange.objects.filter(address="victim@example.org").exists()
    # A day later the account may ask again; the asks whose links expired are gone.
    EmailChange.objects.update(asked_at=timezone.now() - timedelta(days=CONFIRM_DAYS, hours=1))
    _ask(cast.player, "later@example.org", django_capture_on_commit_callbacks)
    assert list(EmailChange.objects.values_list("address", flat=True)) == ["later@example.org"]


def test_an_address_only_asked_for_is_nobodys_until_confirmed(
    cast, queued, django_capture_on_commit_callbacks
):
    """Someone asking for another's address neither gets it nor keeps its owner from it."""
    squatter = _ask(cast.rival, "ada@example.org", django_capture_on_commit_callbacks)
    owner = _ask(cast.player, "ada@example.org", django_capture_on_commit_callbacks)
    email_confirm(user=cast.player, key=owner.key)
    with pytest.raises(ValidationError, match=r"Another account has ada@example\.org now"):
        email_confirm(user=cast.rival, key=squatter.key)
    cast.rival.refresh_from_db()
    assert cast.rival.email == ""


def test_a_link_works_for_its_own_account_its_newest_ask_and_three_days(
    cast, queued, django_capture_on_commit_callbacks
):
    first = _ask(cast.player, "old@example.org", django_capture_on_commit_callbacks)
    with pytest.raises(ValidationError, match="sent for the account player: log in as"):
        email_confirm(user=cast.rival, key=first.key)
    newer = _ask(cast.player, "new@example.org", django_capture_on_commit_callbacks)
    with pytest.raises(ValidationError, match=r"A newer link was sent, to new@example\.org"):
        email_confirm(user=cast.player, key=first.key)
    EmailChange.objects.update(asked_at=timezone.now() - timedelta(days=CONFIRM_DAYS, minutes=1))
    with pytest.raises(ValidationError, match="has expired"):
        email_confirm(user=cast.player, key=newer.key)
    with pytest.raises(ValidationError, match="This link leads nowhere"):
        email_confirm(user=cast.player, key="no-such-key")
    assert email_pending(cast.player) is None
    for user in (cast.player, cast.rival):
        user.refresh_from_db()
        assert user.email == ""


def test_removing_the_address_stops_the_notices_everywhere(campaign, cast):
    player = cast.player
    player.email = "player@example.org"
    player.save()
    notices_set(campaign=campaign, user=player, on=True)
    assert email_remove(user=player) == 1
    player.refresh_from_db()
    assert player.email == ""
    assert not Membership.objects.get(campaign=campaign, user=player).email_notices
    with pytest.raises(ValidationError, match="no e-mail address to remove"):
        email_remove(user=player)


def test_a_newcomers_address_is_asked_for_not_taken_on_their_word(
    campaign, cast, queued, django_capture_on_commit_callbacks
):
    invitation_send(campaign=campaign, invitee="dave@example.com", role="player", actor=cast.gm)
    key = campaign.invitations.get().link_key
    with django_capture_on_commit_callbacks(execute=True):
        user, _ = account_join(link_key=key, username="dave", password="river-crossing-42",
                               email="Dave@Example.com", site=SITE)  # fmt: skip
    user.refresh_from_db()
    assert user.email == ""
    change = email_pending(user)
    assert change.address == "dave@example.com" and queued == [(change.pk, SITE)]
    email_confirm(user=user, key=change.key)
    user.refresh_from_db()
    assert user.email == "dave@example.com"
