"""A campaign holds a bounded number of forces, members and characters
(`campaign.rules.values`): one more than the most is refused on the page that offers it, in a
sentence naming the most, with nothing written; one under the most is still taken. The pages
that list them cost the same queries however many there are."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.models import Character, Force, Invitation, Membership
from campaign.rules.values import (
    MAX_CHARACTERS_PER_CAMPAIGN,
    MAX_FORCES_PER_CAMPAIGN,
    MAX_MEMBERS_PER_CAMPAIGN,
)
from campaign.services import invitation_send, membership_set
from tests.web.campaign_world import login

pytestmark = pytest.mark.django_db
PASSWORD = "river-crossing-42"


def _url(world, name: str) -> str:
    return reverse(f"campaign:{name}", args=[world.campaign.pk])


def _fill_forces(world, most: int) -> None:
    """Forces held by the GM until the campaign has ``most``."""
    held = world.campaign.forces.count()
    Force.objects.bulk_create(
        Force(campaign=world.campaign, owner=world.users["gm"], name=f"Company {n:03}")
        for n in range(held, most)
    )


def _fill_members(world, most: int) -> None:
    """Spectators, each with an account of their own, until the campaign has ``most``."""
    held = world.campaign.memberships.count()
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"onlooker-{n:03}") for n in range(held, most)
    )
    Membership.objects.bulk_create(
        Membership(campaign=world.campaign, user=user, role=Membership.Role.SPECTATOR)
        for user in users
    )


def _fill_characters(world, most: int) -> None:
    """NPCs until the campaign has ``most``."""
    held = world.campaign.characters.count()
    Character.objects.bulk_create(
        Character(campaign=world.campaign, name=f"Sgt. {n:03}", hit_points=8, max_hit_points=8)
        for n in range(held, most)
    )


def _full(world, most: int, what: str) -> str:
    return f"Op. Pages already has {most} {what}, the most a campaign may have."


def test_a_campaign_one_force_short_of_the_most_raises_it_then_refuses_the_next(client, world):
    _fill_forces(world, MAX_FORCES_PER_CAMPAIGN - 1)
    login(client, world, "gm")
    raised = client.post(_url(world, "force-create"), {"owner": "player", "name": "Last Guards"})
    assert raised.status_code == 302
    assert world.campaign.forces.count() == MAX_FORCES_PER_CAMPAIGN
    story = world.campaign.story.count()
    refused = client.post(_url(world, "force-create"), {"owner": "player", "name": "One Too Many"})
    assert refused.status_code == 400
    assert _full(world, MAX_FORCES_PER_CAMPAIGN, "forces") in refused.text
    assert world.campaign.forces.count() == MAX_FORCES_PER_CAMPAIGN
    assert world.campaign.story.count() == story


def test_a_campaign_one_character_short_of_the_most_takes_it_then_refuses_the_next(client, world):
    _fill_characters(world, MAX_CHARACTERS_PER_CAMPAIGN - 1)
    login(client, world, "gm")
    made = client.post(_url(world, "character-create"), {"name": "Lt. Ash", "hit_points": "12"})
    assert made.status_code == 302
    assert world.campaign.characters.count() == MAX_CHARACTERS_PER_CAMPAIGN
    refused = client.post(_url(world, "character-create"), {"name": "Cpl. Late", "hit_points": "9"})
    assert refused.status_code == 400
    assert _full(world, MAX_CHARACTERS_PER_CAMPAIGN, "characters") in refused.text
    assert world.campaign.characters.count() == MAX_CHARACTERS_PER_CAMPAIGN
    assert not world.campaign.characters.filter(name="Cpl. Late").exists()


def _invite(world, invitee: str) -> Invitation:
    gm = world.users["gm"]
    invitation_send(campaign=world.campaign, invitee=invitee, role="player", actor=gm)
    return world.campaign.invitations.get(invitee=invitee)


def test_a_campaign_one_member_short_of_the_most_lets_one_accept_then_refuses_the_next(
    client, world
):
    outsider = _invite(world, "outsider")
    newcomer = get_user_model().objects.create_user("newcomer")
    late = _invite(world, "newcomer")
    _fill_members(world, MAX_MEMBERS_PER_CAMPAIGN - 1)
    login(client, world, "outsider")
    accepted = client.post(reverse("campaign:invitation-accept", args=[outsider.pk]))
    assert accepted["Location"] == _url(world, "dashboard")
    assert world.campaign.memberships.count() == MAX_MEMBERS_PER_CAMPAIGN
    client.force_login(newcomer)
    refused = client.post(reverse("campaign:invitation-accept", args=[late.pk]), follow=True)
    assert refused.redirect_chain == [(reverse("campaign:list"), 302)]
    assert _full(world, MAX_MEMBERS_PER_CAMPAIGN, "members") in refused.text
    assert world.campaign.memberships.count() == MAX_MEMBERS_PER_CAMPAIGN
    assert Invitation.objects.filter(pk=late.pk).exists()  # still waiting, should one leave


def test_a_full_campaigns_link_says_so_before_joining_and_makes_no_account(client, world):
    logged_in, newcomer = _invite(world, "outsider"), _invite(world, "dave@example.com")
    _fill_members(world, MAX_MEMBERS_PER_CAMPAIGN)
    said = _full(world, MAX_MEMBERS_PER_CAMPAIGN, "members")
    login(client, world, "outsider")
    link = reverse("campaign:join", args=[logged_in.link_key])
    assert said in client.get(link).text  # said before any button
    refused = client.post(link)
    assert refused.status_code == 400 and said in refused.text
    client.logout()
    users = get_user_model().objects.count()
    refused = client.post(
        reverse("campaign:join", args=[newcomer.link_key]),
        {"username": "dave", "email": "", "password": PASSWORD, "password_again": PASSWORD},
    )
    assert refused.status_code == 400 and said in refused.text
    assert get_user_model().objects.count() == users
    assert world.campaign.memberships.count() == MAX_MEMBERS_PER_CAMPAIGN
    assert "_auth_user_id" not in client.session


def test_the_gm_adding_a_member_past_the_most_is_refused_but_may_change_a_role(world):
    from django.core.exceptions import ValidationError

    _fill_members(world, MAX_MEMBERS_PER_CAMPAIGN)
    with pytest.raises(ValidationError) as refused:
        membership_set(campaign=world.campaign, user=world.users["outsider"], role="player")
    assert refused.value.messages == [_full(world, MAX_MEMBERS_PER_CAMPAIGN, "members")[:-1]]
    assert not world.campaign.memberships.filter(user=world.users["outsider"]).exists()
    membership_set(campaign=world.campaign, user=world.users["spectator"], role="player")
    assert world.campaign.memberships.get(user=world.users["spectator"]).role == "player"


def _queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_pages_listing_forces_members_and_characters_cost_the_same_queries_when_full(
    client, world
):
    names = ("dashboard", "characters", "timeline", "battles", "orders", "units")
    pages = [(role, _url(world, name)) for role in ("gm", "player") for name in names]

    def measure() -> list[int]:
        counted = []
        for role, url in pages:
            login(client, world, role)
            client.get(url)  # the first visit is told what is new since; measured as a return
            counted.append(_queries(client, url))
        return counted

    # Half full is past every page's window already (a page of characters, a form asking for
    # one by name): from there on, more of each costs nothing more.
    _fill_forces(world, MAX_FORCES_PER_CAMPAIGN // 2)
    _fill_members(world, MAX_MEMBERS_PER_CAMPAIGN // 2)
    _fill_characters(world, MAX_CHARACTERS_PER_CAMPAIGN // 2)
    half = measure()
    _fill_forces(world, MAX_FORCES_PER_CAMPAIGN)
    _fill_members(world, MAX_MEMBERS_PER_CAMPAIGN)
    _fill_characters(world, MAX_CHARACTERS_PER_CAMPAIGN)
    assert measure() == half
