"""The page an invitation's link opens: a newcomer makes an account there and is in, logged in;
someone logged in joins with a button; a link used or withdrawn leads nowhere. The GM (and a
co-GM) finds each waiting invitation's link on the dashboard; no one else does."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from campaign.models import Invitation, Membership
from campaign.services import invitation_join, invitation_send
from campaign.views import join
from tests.web.campaign_world import login

pytestmark = pytest.mark.django_db
PASSWORD = "river-crossing-42"


def _invite(world, invitee="dave@example.com", role="player") -> Invitation:
    invitation_send(campaign=world.campaign, invitee=invitee, role=role, actor=world.users["gm"])
    return world.campaign.invitations.get(invitee=invitee)


def _join_url(invitation) -> str:
    return reverse("campaign:join", args=[invitation.link_key])


def test_the_gm_and_a_co_gm_find_each_invitations_link_on_the_dashboard(client, world):
    invitation = _invite(world)
    dashboard = reverse("campaign:dashboard", args=[world.campaign.pk])
    link = f'value="http://testserver{_join_url(invitation)}"'
    for role in ("gm", "co_gm"):
        page = login(client, world, role).get(dashboard).content.decode()
        assert link in page, role
        assert f'aria-label="Copy the link of the invitation to {invitation.invitee}"' in page
    for role in ("player", "spectator"):
        page = login(client, world, role).get(dashboard).content.decode()
        assert invitation.link_key not in page, role


def test_a_newcomer_makes_an_account_on_the_links_page_and_is_in_logged_in(client, world):
    invitation = _invite(world, role="spectator")
    page = client.get(_join_url(invitation))
    assert page.status_code == 200
    text = page.content.decode()
    assert "gm invites you to Op. Pages, a Combined Arms campaign, as a spectator." in text
    assert 'value="dave@example.com"' in text  # the address it was sent to, filled in
    assert f'href="/accounts/login/?next={_join_url(invitation)}"' in text  # or log in

    answer = client.post(
        _join_url(invitation),
        {"username": "dave", "email": "dave@example.com", "password": PASSWORD,
         "password_again": PASSWORD},
        follow=True,
    )  # fmt: skip
    dave = get_user_model().objects.get(username="dave")
    assert answer.redirect_chain[0][0] == reverse("campaign:dashboard", args=[world.campaign.pk])
    assert answer.context["user"] == dave  # logged in
    assert "You are in Op. Pages as a spectator." in answer.content.decode()
    # The address is asked for, not taken on the newcomer's word.
    assert "A link to confirm dave@example.com was mailed to it" in answer.content.decode()
    assert dave.email == "" and dave.email_changes.get().address == "dave@example.com"
    assert Membership.objects.get(campaign=world.campaign, user=dave).role == "spectator"
    gone = client.get(_join_url(invitation))
    assert gone.status_code == 404
    assert "It has been used, or the GM withdrew it." in gone.content.decode()


def test_the_links_page_fills_in_the_address_or_the_name_the_invitation_was_sent_to(client, world):
    by_address = client.get(_join_url(_invite(world, "erin@example.com"))).content.decode()
    assert re.search(r'<input [^>]*name="email"[^>]*value="erin@example.com"', by_address)
    assert not re.search(r'<input [^>]*name="username"[^>]*value=', by_address)
    by_name = client.get(_join_url(_invite(world, "frank"))).content.decode()
    assert re.search(r'<input [^>]*name="username"[^>]*value="frank"', by_name)
    assert not re.search(r'<input [^>]*name="email"[^>]*value=', by_name)


def test_a_newcomer_who_gives_no_address_is_told_of_no_mail(client, world):
    invitation = _invite(world)
    answer = client.post(
        _join_url(invitation),
        {"username": "dave", "email": "", "password": PASSWORD, "password_again": PASSWORD},
        follow=True,
    )
    text = answer.content.decode()
    assert "You are in Op. Pages as a player." in text
    assert "was mailed to it" not in text


def test_a_refused_account_is_shown_again_with_its_errors_and_nothing_written(client, world):
    invitation = _invite(world)
    users = get_user_model().objects.count()
    answer = client.post(
        _join_url(invitation),
        {"username": "Player", "email": "", "password": PASSWORD, "password_again": "other"},
    )
    assert answer.status_code == 400
    errors = answer.context["form"].errors
    assert errors["password_again"] == ["This is not the password above: type it again."]
    answer = client.post(
        _join_url(invitation),
        {"username": "Player", "email": "", "password": PASSWORD, "password_again": PASSWORD},
    )
    assert answer.status_code == 400
    assert answer.context["form"].errors["username"] == [
        "Someone has this username already: choose another, or log in if it is yours."
    ]
    assert get_user_model().objects.count() == users
    assert Invitation.objects.filter(pk=invitation.pk).exists()
    assert "_auth_user_id" not in client.session


def test_someone_logged_in_joins_with_one_button_and_a_member_is_refused(client, world):
    invitation = _invite(world, "someone@example.com")
    login(client, world, "player")
    page = client.get(_join_url(invitation)).content.decode()
    said = "You are in Op. Pages already: this invitation is for someone else."
    assert said in page and "Join as player" not in page  # said before any button
    refused = client.post(_join_url(invitation))
    assert refused.status_code == 400
    assert said in refused.content.decode()
    assert Invitation.objects.filter(pk=invitation.pk).exists()

    outsider = world.users["outsider"]
    login(client, world, "outsider")
    page = client.get(_join_url(invitation)).content.decode()
    assert "Join as outsider" in page and 'id="join-form"' not in page
    answer = client.post(_join_url(invitation))
    assert answer.status_code == 302
    assert answer["Location"] == reverse("campaign:dashboard", args=[world.campaign.pk])
    assert Membership.objects.get(campaign=world.campaign, user=outsider).role == "player"


def test_a_withdrawn_or_made_up_link_is_a_404_that_says_so(client, world):
    invitation = _invite(world)
    invitation.delete()
    for key in (invitation.link_key, "made-up"):
        for method in (client.get, client.post):
            answer = method(reverse("campaign:join", args=[key]))
            assert answer.status_code == 404
            assert "This invitation is not waiting" in answer.content.decode()
    assert not get_user_model().objects.filter(username="dave").exists()


def test_an_invitation_withdrawn_as_its_button_is_pressed_says_it_is_not_waiting(
    client, world, monkeypatch
):
    invitation = _invite(world, "someone@example.com")
    login(client, world, "outsider")

    def withdrawn_first(**kwargs):
        Invitation.objects.filter(pk=invitation.pk).delete()
        return invitation_join(**kwargs)

    monkeypatch.setattr(join, "invitation_join", withdrawn_first)
    answer = client.post(_join_url(invitation))
    assert answer.status_code == 404
    assert "This invitation is not waiting" in answer.content.decode()
    assert not Membership.objects.filter(user=world.users["outsider"]).exists()


def test_a_player_who_joins_with_no_force_is_told_the_gm_gives_them_one(client, world):
    from campaign.services import force_create

    invitation = _invite(world, "someone@example.com")
    login(client, world, "outsider")
    answer = client.post(_join_url(invitation), follow=True).content.decode()
    said = "You have no force in Op. Pages yet: the GM raises one for you, or gives you one."
    assert "You are in Op. Pages as a player." in answer and said in answer
    # Nobody else is told so: a player with a force, a spectator, the GMs.
    dashboard = reverse("campaign:dashboard", args=[world.campaign.pk])
    for role in ("player", "spectator", "gm", "co_gm"):
        assert said not in login(client, world, role).get(dashboard).content.decode(), role
    force_create(campaign=world.campaign, owner=world.users["outsider"], name="Green Troop")
    page = login(client, world, "outsider").get(dashboard).content.decode()
    assert said not in page and 'Green Troop</a> <span class="badge">yours</span>' in page


def test_an_address_given_on_joining_is_said_to_await_its_link_not_to_be_missing(client, world):
    """A newcomer gave an address when joining; once the GM raised a force for them, the
    dashboard's e-mail notices said "Your account has no e-mail address … Add one", as though
    it had been lost. It says the address waits for the link mailed to it."""
    from campaign.services import force_create

    client.post(
        _join_url(_invite(world)),
        {"username": "dave", "email": "dave@example.com", "password": PASSWORD,
         "password_again": PASSWORD},
    )  # fmt: skip
    dave = get_user_model().objects.get(username="dave")
    force_create(campaign=world.campaign, owner=dave, name="Dave's", actor=world.users["gm"])
    page = client.get(reverse("campaign:dashboard", args=[world.campaign.pk])).content.decode()
    assert "dave@example.com awaits confirming: open the link mailed to it" in page
    assert "has no e-mail address" not in page
