"""Changing and resetting a password on the site's own pages, in its words, never the admin's:
a player changes theirs from "Your account"; where mail is configured, one who forgot theirs is
mailed a link from the login page and chooses a new one."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import override_settings
from django.urls import reverse

from tests.web.campaign_world import login

pytestmark = [pytest.mark.django_db]

NEW = "river-crossing-42"


def _own_look(text: str) -> None:
    assert "Django" not in text and "campaign/campaign.css" in text


def test_a_player_changes_their_password_from_their_account(client, world):
    player = world.users["player"]
    player.set_password("old-password-17")
    player.save()
    account = login(client, world, "player").get(reverse("account")).text
    assert f'<a href="{reverse("password_change")}">Change your password</a>' in account
    page = client.get(reverse("password_change")).text
    _own_look(page)
    assert '<h1 id="password-h">Change your password</h1>' in page
    wrong = client.post(reverse("password_change"), {"old_password": "guess",
                        "new_password1": NEW, "new_password2": NEW})  # fmt: skip
    assert wrong.status_code == 200 and "old password was entered incorrectly" in wrong.text
    done = client.post(reverse("password_change"), {"old_password": "old-password-17",
                       "new_password1": NEW, "new_password2": NEW}, follow=True)  # fmt: skip
    _own_look(done.text)
    assert "Your password is changed" in done.text
    player.refresh_from_db()
    assert player.check_password(NEW)


def test_without_mail_the_login_page_offers_no_reset(client, world):
    page = client.get(reverse("login")).text
    assert "Forgotten your password?</a>" not in page


def test_without_mail_the_login_page_says_who_sets_a_forgotten_password(client, world):
    """A player at the login page on their phone, their password forgotten, read nothing of
    what to do: with no reset by mail, they are told who sets a new one."""
    page = client.get(reverse("login")).text
    said = "Forgotten your password? This site mails no links to reset one: ask the site's"
    assert said in page
    assert "administrator to set you a new one." in page


def _forgetful_player(world):
    """The player, with an address and a password they have forgotten."""
    player = world.users["player"]
    player.email = "player@example.org"
    player.set_password("forgotten-17")
    player.save()
    return player


RESET = override_settings(
    ROOT_URLCONF="tests.web.reset_urls",
    EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
)
"""Mail configured: the reset pages routed, the mail kept in memory."""


@RESET
def test_where_mail_is_configured_a_forgotten_password_is_reset_by_a_mailed_link(client, world):
    player = _forgetful_player(world)
    page = client.get(reverse("login")).text
    assert f'<a href="{reverse("password_reset")}">Forgotten your password?</a>' in page
    assert "This site mails no links" not in page
    _own_look(client.get(reverse("password_reset")).text)
    done = client.post(reverse("password_reset"), {"email": "Player@example.org"}, follow=True)
    _own_look(done.text)
    assert "Look in your mail" in done.text
    (sent,) = mail.outbox
    assert sent.to == ["player@example.org"]
    assert sent.subject == "Bridgehead: choose a new password"
    assert "the Bridgehead account player" in sent.body
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", sent.body)[1]
    form = client.get(link, follow=True)
    _own_look(form.text)
    assert "Choose a new password" in form.text and 'id="password-form"' in form.text
    set_at = form.redirect_chain[-1][0]
    complete = client.post(set_at, {"new_password1": NEW, "new_password2": NEW}, follow=True)
    _own_look(complete.text)
    assert "Your new password is set." in complete.text
    player.refresh_from_db()
    assert player.check_password(NEW)
    used = client.get(link, follow=True).text
    assert "This link has been used, or is too old" in used


@RESET
@override_settings(SITE_URL="https://bridgehead.example.org")
def test_the_reset_link_is_at_the_sites_address_when_one_is_set(client, world):
    _forgetful_player(world)
    client.post(reverse("password_reset"), {"email": "player@example.org"})
    (sent,) = mail.outbox
    link = re.search(r"https://bridgehead\.example\.org(/accounts/reset/\S+/)", sent.body)[1]
    assert "testserver" not in sent.body
    assert "Choose a new password" in client.get(link, follow=True).text
