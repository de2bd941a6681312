"""The account page: a member adds their own e-mail address, confirms it from the mailed link
(opening the link changes nothing; its button does), and removes it; the dashboard's notices
panel leads there."""

from __future__ import annotations

import re

import pytest
from django.contrib import messages
from django.core import mail
from django.test import override_settings
from django.urls import reverse

from campaign import tasks
from campaign.models import EmailChange, Membership
from campaign.services import force_create
from campaign.services.accounts import email_confirm_mail
from tests.web.campaign_world import login

pytestmark = [pytest.mark.django_db]

ACCOUNT = reverse("account")


@pytest.fixture
def worker(monkeypatch):
    """Stands for the worker: each confirmation mail queued is sent at once, to locmem."""

    def send(change_id: int, site: str) -> None:
        email_confirm_mail(change_id=change_id, site=site)

    monkeypatch.setattr(tasks.email_confirm_send, "delay", send)
    with override_settings(EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend"):
        yield


def _link_in(body: str) -> str:
    (link,) = re.findall(r"http://testserver(/accounts/email/[^/\s]+/)", body)
    return link


def test_a_player_adds_an_address_and_confirms_it_from_the_mail(
    client, world, worker, django_capture_on_commit_callbacks
):
    player = world.users["player"]
    dashboard = reverse("campaign:dashboard", args=[world.campaign.pk])
    page = login(client, world, "player").get(dashboard).content.decode()
    assert f'<a href="{ACCOUNT}">Add one to your account</a>' in page
    assert f'<a href="{ACCOUNT}" title="Your account">player</a>' in page  # the header
    page = client.get(ACCOUNT).content.decode()
    assert "Your account has no e-mail address yet" in page and "Remove" not in page

    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(
            reverse("account-email-ask"), {"address": "Player@Example.org"}, follow=True
        )
    text = answer.content.decode()
    assert "A link to confirm player@example.org was mailed to it: open it within 3 days." in text
    assert "A link to confirm <strong>player@example.org</strong> was mailed to it on" in text
    (sent,) = mail.outbox
    assert sent.to == ["player@example.org"]
    link = _link_in(sent.body)

    # Opening the link (a mail program may, to look at it) changes nothing.
    shown = client.get(link).content.decode()
    assert "Make <strong>player@example.org</strong> the e-mail address of your account" in shown
    player.refresh_from_db()
    assert player.email == ""
    answer = client.post(link, follow=True)
    assert answer.redirect_chain[-1][0] == ACCOUNT
    assert "player@example.org is your e-mail address now." in answer.content.decode()
    player.refresh_from_db()
    assert player.email == "player@example.org"
    # The dashboard now offers the notices, sent to that address.
    page = client.get(dashboard).content.decode()
    assert "Sent to player@example.org" in page
    assert "is your e-mail address already" in client.get(link).content.decode()


@override_settings(SITE_URL="https://bridgehead.example.org")
def test_the_mailed_link_is_at_the_sites_address_when_one_is_set(
    client, world, worker, django_capture_on_commit_callbacks
):
    # Behind a proxy the request may come to an inner host name: the setting is what users
    # open.
    login(client, world, "player")
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("account-email-ask"), {"address": "player@example.org"})
    (sent,) = mail.outbox
    (link,) = re.findall(r"https://bridgehead\.example\.org(/accounts/email/[^/\s]+/)", sent.body)
    assert "testserver" not in sent.body
    assert "Make <strong>player@example.org</strong>" in client.get(link).content.decode()


def test_a_link_opened_by_another_account_or_logged_out_confirms_nothing(
    client, world, worker, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        login(client, world, "player").post(reverse("account-email-ask"), {"address": "p@x.org"})
    link = _link_in(mail.outbox[0].body)
    answer = login(client, world, "anonymous").get(link)
    assert answer.status_code == 302 and answer["Location"].startswith(reverse("login"))
    # Opened by another account, the link says why before any button, as a page (not an error).
    opened = login(client, world, "rival").get(link)
    assert opened.status_code == 200
    assert "This link was sent for the account player" in opened.content.decode()
    refused = client.post(link)
    assert refused.status_code == 400
    text = refused.content.decode()
    assert (
        "This link was sent for the account player: log in as that account to confirm it." in text
    )
    assert "Confirm</button>" not in text
    for role in ("player", "rival"):
        world.users[role].refresh_from_db()
        assert world.users[role].email == ""


def test_a_refused_address_is_shown_under_its_field_and_nothing_is_mailed(client, world, worker):
    world.users["rival"].email = "rival@example.org"
    world.users["rival"].save()
    answer = login(client, world, "player").post(
        reverse("account-email-ask"), {"address": "rival@example.org"}
    )
    assert answer.status_code == 400
    assert answer.context["ask_form"].errors == {
        "address": ["Another account has this e-mail address."]
    }
    assert mail.outbox == [] and not EmailChange.objects.exists()


def test_removing_the_address_turns_the_notices_off(client, world):
    player = world.users["player"]
    player.email = "player@example.org"
    player.save()
    Membership.objects.filter(user=player).update(email_notices=True)
    page = login(client, world, "player").get(ACCOUNT).content.decode()
    assert "You get notices of your units from" in page and "Op. Pages</a>" in page
    answer = client.post(reverse("account-email-remove"), follow=True)
    text = answer.content.decode()
    assert (
        "Your e-mail address is removed; notices are off in the 1 campaign that sent them." in text
    )
    assert "You get no notices." in text
    player.refresh_from_db()
    assert player.email == "" and not Membership.objects.filter(email_notices=True).exists()


def test_removing_an_address_with_no_notices_says_so_plainly_and_again_warns(client, world):
    player = world.users["player"]
    player.email = "player@example.org"
    player.save()
    Membership.objects.filter(user=player).update(email_notices=False)
    login(client, world, "player")
    answer = client.post(reverse("account-email-remove"), follow=True)
    said = [(m.level, m.message) for m in answer.context["messages"]]
    assert said == [(messages.SUCCESS, "Your e-mail address is removed.")]
    again = client.post(reverse("account-email-remove"), follow=True)
    said = [(m.level, m.message) for m in again.context["messages"]]
    assert said == [(messages.WARNING, "Your account has no e-mail address to remove.")]


def test_a_campaign_whose_notices_are_on_is_not_offered_to_turn_them_on(client, world):
    player = world.users["player"]
    player.email = "player@example.org"
    player.save()
    Membership.objects.filter(user=player).update(email_notices=True)
    page = login(client, world, "player").get(ACCOUNT)
    assert [m.campaign for m in page.context["notices_in"]] == [world.campaign]
    assert page.context["notices_offered"] == []
    assert "Each campaign's page turns them on" not in page.content.decode()


def test_a_campaign_in_which_the_member_plays_two_forces_is_offered_once(client, world):
    force_create(campaign=world.campaign, owner=world.users["player"], name="Green Company")
    page = login(client, world, "player").get(ACCOUNT)
    assert [m.campaign for m in page.context["notices_offered"]] == [world.campaign]


@pytest.mark.parametrize(
    ("method", "name", "args"),
    [
        ("get", "account", []),
        ("post", "account-email-ask", []),
        ("post", "account-email-remove", []),
        ("get", "account-email-confirm", ["some-key"]),
        ("post", "account-email-confirm", ["some-key"]),
    ],
)
def test_the_account_pages_ask_to_log_in_first(client, world, method, name, args):
    url = reverse(name, args=args)
    data = {"address": "a@b.org"} if method == "post" else {}
    answer = getattr(login(client, world, "anonymous"), method)(url, data)
    assert answer.status_code == 302
    assert answer["Location"] == f"{reverse('login')}?next={url}"
    assert not EmailChange.objects.exists()


def test_it_links_each_campaign_whose_page_turns_the_notices_on(client, world):
    """The line "You get no notices. Each campaign's page turns them on" named no campaign: it links
    those where the member plays a force, the pages that offer the notices, and no other."""
    notices = reverse("campaign:dashboard", args=[world.campaign.pk]) + "#notices-form"
    page = login(client, world, "player").get(ACCOUNT).content.decode()
    assert re.search(
        rf"You get no notices\. Each campaign's page turns them on, once your account has an "
        rf'e-mail address: <a href="{notices}">{re.escape(world.campaign.name)}</a>\.',
        page,
    )
    # A spectator plays no force: no campaign's page offers them the notices.
    page = login(client, world, "spectator").get(ACCOUNT).content.decode()
    assert "You get no notices." in page and notices not in page
