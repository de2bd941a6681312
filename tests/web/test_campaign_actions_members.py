"""Starting a campaign and bringing people in from the pages: a campaign started with its GM and its
ruleset explained, then a player and a force; a name taken refused clearly, on the GM's own list
only; an invitation answering alike whether or not the account exists, accepted on the invitee's
page in its role, answered twice or withdrawn while its page was open said so; and the GM's own role
never changed."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaign import tasks
from campaign.models import Campaign
from campaign.services import campaign_create, campaign_update
from campaign.services.invitation_mail import invitation_mail_send
from tests.web.campaign_world import login
from tests.web.test_campaign_actions_calendar import _field_errors

pytestmark = pytest.mark.django_db


def test_the_ruleset_is_explained_where_a_campaign_is_started(client, world):
    """No form changes a campaign's ruleset later: the GM reads what it decides before
    choosing it, beside the field."""
    login(client, world, "gm")
    form = client.get(reverse("campaign:list")).text.split('id="create-form"')[1]
    field = form.split('ruleset_helptext">')[1].split("</span>")[0]
    assert "it stays for the whole campaign" in field
    assert "under One Year War it comes back" in field


def test_an_invitation_answers_the_same_whether_or_not_the_account_exists(client, world):
    """On the main line before invitations, an unknown username got "no user called ..."."""
    login(client, world, "gm")
    invite = reverse("campaign:invite", args=[world.campaign.pk])
    answers = []
    for name in ("nobody-by-that-name", "outsider"):
        response = client.post(invite, {"invitee": name, "role": "player"}, follow=True)
        assert response.status_code == 200
        notice = re.search(r'<div class="messages"[^>]*>(.*?)</div>', response.text)[1]
        answers.append(notice)
    # Unknown and stranger alike; a member or the GM (whom the inviter sees listed) plainly.
    assert answers[0] == answers[1]
    assert "If an account by that name exists, it has been invited." in answers[0]
    # A member or the GM: refused beside the name, never reported as done.
    player = world.users["player"].get_username()
    gm = world.users["gm"].get_username()
    invitations = world.campaign.invitations.count()
    for name, refusal in (
        (player, f"No invitation was sent: {player} is in the campaign already, as player."),
        (gm, f"No invitation was sent: {gm} is this campaign's GM."),
    ):
        response = client.post(invite, {"invitee": name, "role": "player"})
        assert response.status_code == 400
        assert _field_errors(response, "invitee")[0].startswith(refusal)
        assert refusal.replace("'", "&#x27;") in response.text and "Done:" not in response.text
    assert world.campaign.invitations.count() == invitations
    htmx = client.post(invite, {"invitee": "x-unknown", "role": "player"}, HTTP_HX_REQUEST="true")
    known = client.post(invite, {"invitee": "outsider", "role": "player"}, HTTP_HX_REQUEST="true")
    assert (htmx.status_code, htmx.headers["HX-Redirect"]) == (
        known.status_code,
        known.headers["HX-Redirect"],
    )
    # Changing a role names only members: a stranger and a name nobody has read alike.
    members = reverse("campaign:member-set", args=[world.campaign.pk])
    errors = [
        _field_errors(client.post(members, {"username": name, "role": "player"}), "username")
        for name in ("nobody-by-that-name", "outsider")
    ]
    assert errors == [
        ["no member of this campaign is called “nobody-by-that-name”"],
        ["no member of this campaign is called “outsider”"],
    ]


def test_changing_the_gms_role_is_refused_saying_they_are_the_gm(client, world):
    login(client, world, "gm")
    members = reverse("campaign:member-set", args=[world.campaign.pk])
    gm = world.users["gm"].get_username()
    response = client.post(members, {"username": gm, "role": "player"})
    assert response.status_code == 400
    assert _field_errors(response, "username") == [
        f"The GM's role does not change here: {gm} is this campaign's GM."
    ]
    assert not world.campaign.memberships.filter(user=world.users["gm"]).exists()


def test_the_invitee_accepts_on_their_own_page_in_the_role_chosen(client, world):
    campaign = world.campaign
    login(client, world, "gm")
    invite = reverse("campaign:invite", args=[campaign.pk])
    client.post(invite, {"invitee": "outsider", "role": "spectator"})
    assert (
        "outsider, as a spectator"
        in client.get(reverse("campaign:dashboard", args=[campaign.pk])).text
    )
    login(client, world, "outsider")
    assert client.get(reverse("campaign:dashboard", args=[campaign.pk])).status_code == 404
    page = client.get(reverse("campaign:list")).text
    assert f"<strong>{campaign.name}</strong>" in page and "invites you as a spectator" in page
    [invitation] = campaign.invitations.all()
    login(client, world, "player")  # someone else's invitation does not exist for them
    assert (
        client.post(reverse("campaign:invitation-accept", args=[invitation.pk])).status_code == 404
    )
    login(client, world, "outsider")
    accepted = client.post(reverse("campaign:invitation-accept", args=[invitation.pk]))
    assert accepted["Location"] == reverse("campaign:dashboard", args=[campaign.pk])
    assert campaign.memberships.get(user=world.users["outsider"]).role == "spectator"
    assert client.get(reverse("campaign:dashboard", args=[campaign.pk])).status_code == 200


def test_an_invitation_answered_twice_says_so_and_stays_unknown_to_others(client, world):
    """A double click on Accept (or Decline after Accept, or a second Decline) says it was
    answered already, in the campaign's name, where the first answer led; to anyone else the
    invitation is still not found."""
    from django.contrib.auth import get_user_model

    campaign = world.campaign
    newcomer = get_user_model().objects.create_user("newcomer", password="pw-newcomer-1")
    login(client, world, "gm")
    invite = reverse("campaign:invite", args=[campaign.pk])
    client.post(invite, {"invitee": "outsider", "role": "player"})
    client.post(invite, {"invitee": "newcomer", "role": "player"})
    accept, decline = (
        reverse(f"campaign:invitation-{answer}", args=[campaign.invitations.get(invitee=who).pk])
        for answer, who in (("accept", "outsider"), ("decline", "newcomer"))
    )
    dashboard = reverse("campaign:dashboard", args=[campaign.pk])
    login(client, world, "outsider")
    assert client.post(accept)["Location"] == dashboard
    for again in (accept, accept.replace("accept", "decline")):
        answer = client.post(again, follow=True)
        assert answer.redirect_chain == [(dashboard, 302)]
        assert f"You have already joined {campaign.name}." in answer.text
    assert campaign.memberships.get(user=world.users["outsider"]).role == "player"
    client.force_login(newcomer)
    assert client.post(decline)["Location"] == reverse("campaign:list")
    answer = client.post(decline, follow=True)
    assert answer.redirect_chain == [(reverse("campaign:list"), 302)]
    assert f"You have already declined the invitation to {campaign.name}." in answer.text
    assert client.post(decline.replace("decline", "accept")).status_code == 302
    assert not campaign.memberships.filter(user=newcomer).exists()
    login(client, world, "player")  # someone else's invitation, answered or not: not found
    for url in (accept, decline):
        assert client.post(url).status_code == 404


def test_it_starts_a_campaign_with_its_gm_then_adds_a_player_and_a_force(client, world):
    login(client, world, "outsider")
    response = client.post(
        reverse("campaign:create"), {"name": "Op. New", "ruleset": "combined_arms"}
    )
    campaign = Campaign.objects.get(name="Op. New")
    assert response["Location"] == reverse("campaign:dashboard", args=[campaign.pk])
    assert campaign.gm == world.users["outsider"]
    bad = client.post(reverse("campaign:create"), {"name": "", "ruleset": "chess"})
    assert bad.status_code == 400 and _field_errors(bad, "ruleset")
    invite = reverse("campaign:invite", args=[campaign.pk])
    assert client.post(invite, {"invitee": "player", "role": "player"}).status_code == 302
    login(client, world, "player")
    [invitation] = campaign.invitations.all()
    client.post(reverse("campaign:invitation-accept", args=[invitation.pk]))
    login(client, world, "outsider")
    forces = reverse("campaign:force-create", args=[campaign.pk])
    for name in ("rival", "nobody"):  # an account outside the campaign, and no account
        stranger = client.post(forces, {"owner": name, "name": "Green Guards"})
        assert stranger.status_code == 400
        assert _field_errors(stranger, "owner") == [f"no one in this campaign is called “{name}”"]
    created = client.post(forces, {"owner": "player", "name": "Green Guards"})
    assert created.status_code == 302
    assert campaign.forces.get().owner == world.users["player"]
    # A second force of that name is refused on its name, in the campaign's words.
    twice = client.post(forces, {"owner": "player", "name": "Green Guards"})
    assert twice.status_code == 400
    assert _field_errors(twice, "name") == [
        "Op. New already has a force called “Green Guards”; choose another name"
    ]
    assert "already exists" not in twice.text and campaign.forces.count() == 1


def test_a_name_taken_at_the_same_moment_is_a_clear_refusal_with_nothing_written(
    client, world, monkeypatch
):
    """Two requests raising a force of one name at once both pass the name check; the database
    refuses the second's write. That one is told so beside its form, nothing of it written,
    and sent again it is refused on its name, in the campaign's words."""
    from campaign.services import roster
    from campaign.views._common import CLASHED

    campaign = world.campaign
    forces = reverse("campaign:force-create", args=[campaign.pk])
    login(client, world, "gm")
    assert client.post(forces, {"owner": "player", "name": "Green Guards"}).status_code == 302
    stories = campaign.story.count()
    checked = roster.force_check
    monkeypatch.setattr(roster, "force_check", lambda force: None)  # checked before the other
    clashed = client.post(forces, {"owner": "rival", "name": "Green Guards"})
    assert clashed.status_code == 400
    assert CLASHED.split(",")[0] in clashed.text and 'role="alert"' in clashed.text
    assert campaign.forces.filter(name="Green Guards").get().owner == world.users["player"]
    assert campaign.story.count() == stories
    monkeypatch.setattr(roster, "force_check", checked)
    again = client.post(forces, {"owner": "rival", "name": "Green Guards"})
    assert _field_errors(again, "name") == [
        f"{campaign} already has a force called “Green Guards”; choose another name"
    ]


def test_a_campaign_is_refused_the_name_of_one_on_its_gms_list_and_no_one_elses(client, world):
    """ "My campaigns" would list two alike, told apart by their day: a new campaign, or one
    renamed, is refused a name the GM's list has (one they run or play in), beside the field,
    and nothing is made; anyone else may take that name."""
    name = world.campaign.name
    login(client, world, "player")  # plays in it
    twice = client.post(reverse("campaign:create"), {"name": name, "ruleset": "combined_arms"})
    assert twice.status_code == 400
    said = f"Your campaigns already have one called “{name}”; choose another name"
    assert _field_errors(twice, "name") == [said]
    assert Campaign.objects.filter(name=name).count() == 1
    login(client, world, "outsider")  # in no campaign of that name
    data = {"name": name, "ruleset": "combined_arms"}
    assert client.post(reverse("campaign:create"), data).status_code == 302
    outsider = world.users["outsider"]
    again = campaign_create(name="Op. Other", gm=outsider, ruleset="combined_arms")
    with pytest.raises(ValidationError) as refused:
        campaign_update(campaign=again, name=name, actor=outsider)
    assert refused.value.message_dict == {"name": [said]}
    assert Campaign.objects.get(pk=again.pk).name == "Op. Other"


def test_an_invitation_withdrawn_while_its_page_was_open_says_so_and_what_to_do(client, world):
    """Accept (or Decline) pressed on a campaigns page drawn before the GM withdrew the
    invitation: a page that says it is not waiting and to ask the GM, not a bare "not found";
    nothing joined."""
    campaign = world.campaign
    login(client, world, "gm")
    client.post(reverse("campaign:invite", args=[campaign.pk]),
                {"invitee": "outsider", "role": "player"})  # fmt: skip
    invitation = campaign.invitations.get(invitee="outsider")
    login(client, world, "outsider")
    assert "invites you as a player" in client.get(reverse("campaign:list")).text
    login(client, world, "gm")
    client.post(reverse("campaign:invitation-withdraw", args=[campaign.pk, invitation.pk]))
    assert not campaign.invitations.exists()
    login(client, world, "outsider")
    for answer in ("accept", "decline"):
        page = client.post(reverse(f"campaign:invitation-{answer}", args=[invitation.pk]))
        assert page.status_code == 404
        text = page.content.decode()
        assert "This invitation is not waiting" in text
        assert "the GM withdrew it" in text and "ask the GM for a new invitation" in text
        assert f'href="{reverse("campaign:list")}"' in text
    assert not campaign.memberships.filter(user=world.users["outsider"]).exists()


@pytest.mark.usefixtures("locmem")
def test_an_invitation_to_an_address_mails_its_link_and_the_list_says_when(
    client, world, monkeypatch, django_capture_on_commit_callbacks
):
    queued: list[tuple[int, str]] = []
    monkeypatch.setattr(tasks.invitation_mail_send, "delay", lambda *args: queued.append(args))
    login(client, world, "gm")
    dashboard = reverse("campaign:dashboard", args=[world.campaign.pk])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("campaign:invite", args=[world.campaign.pk]),
            {"invitee": "Dana@Example.org", "role": "player"},
            follow=True,
        )
    assert "If an account by that name exists, it has been invited." in response.text
    item = _invitation_item(response.text, "dana@example.org")
    assert "dana@example.org, as a player; its link is on its way there by e-mail" in item
    # The link goes to the address the GM's page was opened at.
    [(mail_id, site)] = queued
    assert site == "http://testserver"
    invitation_mail_send(mail_id=mail_id, site=site)
    (sent,) = mail.outbox
    key = world.campaign.invitations.get(invitee="dana@example.org").link_key
    assert f"http://testserver/campaigns/join/{key}/" in sent.body
    item = _invitation_item(client.get(dashboard).text, "dana@example.org")
    assert re.search(
        r"; its link was mailed there on <time datetime=\"[^\"]+\">\d+ \w+ \d{4}", item
    )


def _invitation_item(page: str, invitee: str) -> str:
    """The line of the GM's list of waiting invitations that names ``invitee``."""
    (item,) = [li for li in re.findall(r"<li>(.*?)</li>", page, re.S) if li.startswith(invitee)]
    return item
