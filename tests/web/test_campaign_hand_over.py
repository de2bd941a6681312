"""A campaign handed to another GM (campaign/services/campaigns.py: ``campaign_hand_over``): over
many evenings the one who runs it may change. The GM's alone; to a member; the old GM stays in
it as what they chose; the forces the GM holds for people invited go with it, the forces the GM
plays only when asked; nothing else in the campaign changes."""

from __future__ import annotations

import re
import uuid
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone

from campaign.models import Campaign, Character, Force, HistoryEntry, Invitation, Membership, Unit
from campaign.selectors.access import campaign_role
from campaign.services import (
    campaign_create,
    campaign_hand_over,
    force_create,
    invitation_accept,
    invitation_send,
)
from campaign.services.characters import character_create
from tests.web.campaign_world import login

pytestmark = pytest.mark.django_db


def _url(name: str, world) -> str:
    return reverse(f"campaign:{name}", args=[world.campaign.pk])


def _message(response) -> str:
    """What the page says at its top (``_messages.html``), tags stripped."""
    said = re.search(r'<div class="messages"[^>]*>(.*?)</div>', response.text, re.S)
    return re.sub(r"<[^>]+>", "", said[1]).strip() if said else ""


def _state(campaign: Campaign) -> tuple:
    """Who runs the campaign, who is in it as what, who plays what: all a hand-over changes."""
    fresh = Campaign.objects.get(pk=campaign.pk)
    return (
        fresh.gm_id,
        sorted(Membership.objects.filter(campaign=fresh).values_list("user__username", "role")),
        sorted(fresh.forces.values_list("name", "owner__username")),
        sorted(fresh.characters.values_list("name", "player__username")),
    )


def _gm_plays(world) -> tuple[Force, Force, Character, Character]:
    """The GM plays an opposing force and a character, holds a force for someone invited, and
    keeps an NPC."""
    gm, c = world.users["gm"], world.campaign
    opfor = force_create(campaign=c, owner=gm, name="Militia")
    held = force_create(campaign=c, owner=gm, name="Green Platoon")
    invitation_send(campaign=c, invitee="newcomer", role="player", actor=gm)
    Invitation.objects.get(campaign=c, invitee="newcomer").forces.add(held)
    played = character_create(campaign=c, name="Colonel Vance", hit_points=12, player=gm)
    npc = character_create(campaign=c, name="Sgt. Okafor", hit_points=10)
    return opfor, held, played, npc


def test_the_gm_hands_the_campaign_to_a_co_gm_and_stays_as_a_player(world):
    c, gm, co_gm = world.campaign, world.users["gm"], world.users["co_gm"]
    was_there = timezone.now() - timedelta(days=3)
    Membership.objects.filter(campaign=c, user=co_gm).update(last_visit_at=was_there)
    Campaign.objects.filter(pk=c.pk).update(gm_last_visit_at=was_there - timedelta(days=1))
    units = list(Unit.objects.filter(force__campaign=c).values_list("pk", "force_id", "version"))
    history = HistoryEntry.objects.filter(unit__force__campaign=c).count()

    went = campaign_hand_over(campaign=c, to=co_gm, stay_as="player", with_forces=False, actor=gm)

    assert went == []
    fresh = Campaign.objects.get(pk=c.pk)
    assert campaign_role(campaign=fresh, user=co_gm) == "gm"
    assert campaign_role(campaign=fresh, user=gm) == "player"
    assert not Membership.objects.filter(campaign=c, user=co_gm).exists()  # the GM is no member
    # Each counts "since your last visit" from their own last visit still.
    assert fresh.gm_last_visit_at == was_there
    stays = Membership.objects.get(campaign=c, user=gm)
    assert stays.last_visit_at == was_there - timedelta(days=1)
    assert not stays.email_notices
    # The rest of the campaign is as it was.
    assert list(
        Unit.objects.filter(force__campaign=c).values_list("pk", "force_id", "version")
    ) == (units)
    assert HistoryEntry.objects.filter(unit__force__campaign=c).count() == history
    assert Force.objects.get(pk=world.force.pk).owner == world.users["player"]


def test_held_forces_and_npcs_go_with_the_campaign_the_gms_own_only_when_asked(world):
    opfor, held, played, npc = _gm_plays(world)
    c, gm, player = world.campaign, world.users["gm"], world.users["player"]

    went = campaign_hand_over(campaign=c, to=player, stay_as="co_gm", with_forces=False, actor=gm)

    assert went == ["Green Platoon"]
    assert Force.objects.get(pk=held.pk).owner == player
    assert Force.objects.get(pk=opfor.pk).owner == gm
    assert Character.objects.get(pk=played.pk).player == gm
    assert Character.objects.get(pk=npc.pk).player is None  # the new GM's, as every NPC is
    # The new GM's own force stays theirs; the invited one, joining, takes what was held.
    assert Force.objects.get(pk=world.force.pk).owner == player
    newcomer = get_user_model().objects.create_user("newcomer")
    invitation = Invitation.objects.get(campaign=c, invitee="newcomer")
    invitation_accept(invitation_pk=invitation.pk, user=newcomer)
    assert Force.objects.get(pk=held.pk).owner == newcomer


def test_the_forces_and_characters_the_gm_plays_go_too_when_asked(world):
    opfor, held, played, npc = _gm_plays(world)
    c, gm, co_gm = world.campaign, world.users["gm"], world.users["co_gm"]

    went = campaign_hand_over(campaign=c, to=co_gm, stay_as="spectator", with_forces=True, actor=gm)

    assert went == ["Green Platoon", "Militia"]
    assert Force.objects.get(pk=opfor.pk).owner == co_gm
    assert Force.objects.get(pk=held.pk).owner == co_gm
    assert Character.objects.get(pk=played.pk).player == co_gm
    assert Character.objects.get(pk=npc.pk).player is None
    assert campaign_role(campaign=Campaign.objects.get(pk=c.pk), user=gm) == "spectator"


@pytest.mark.parametrize("role", ["co_gm", "player", "spectator"])
def test_only_the_gm_hands_the_campaign_on(world, role):
    before = _state(world.campaign)
    with pytest.raises(PermissionDenied):
        campaign_hand_over(
            campaign=world.campaign, to=world.users["rival"], stay_as="co_gm",
            with_forces=False, actor=world.users[role],
        )  # fmt: skip
    assert _state(world.campaign) == before


def _refused(world, **given) -> dict[str, list[str]]:
    before = _state(world.campaign)
    sent = {"to": world.users["co_gm"], "stay_as": "co_gm", "with_forces": False} | given
    with pytest.raises(ValidationError) as refused:
        campaign_hand_over(campaign=world.campaign, actor=world.users["gm"], **sent)
    assert _state(world.campaign) == before
    return refused.value.message_dict


def test_the_campaign_goes_only_to_one_of_its_members(world):
    stranger = get_user_model().objects.create_user("stranger")
    assert _refused(world, to=stranger) == {
        "to": ["stranger is not a member of Op. Pages: invite them first."]
    }
    choose = {"to": ["Choose another member of the campaign to run it."]}
    assert _refused(world, to=world.users["gm"]) == choose
    assert _refused(world, to=None) == choose
    # A member of another campaign of the same GM is not one of this one's.
    other = campaign_create(name="Elsewhere", gm=world.users["gm"], ruleset="combined_arms")
    Membership.objects.create(campaign=other, user=stranger, role="player")
    assert _refused(world, to=stranger)["to"] == [
        "stranger is not a member of Op. Pages: invite them first."
    ]


def test_a_gm_who_keeps_their_forces_does_not_stay_as_a_spectator(world):
    _gm_plays(world)
    assert _refused(world, stay_as="spectator") == {
        "stay_as": [
            "You play Militia: a spectator plays no force. Stay as a player or co-GM, or hand "
            "your forces on too."
        ]
    }
    assert _refused(world, stay_as="gm") == {
        "stay_as": ["not a role: “gm”; one of Co-GM, Player or Spectator"]
    }


def test_the_new_gm_runs_the_campaign_and_the_old_one_does_not(client, world):
    campaign_hand_over(
        campaign=world.campaign, to=world.users["rival"], stay_as="player", with_forces=False,
        actor=world.users["gm"],
    )  # fmt: skip
    login(client, world, "rival")
    assert client.get(_url("delete", world)).status_code == 200
    assert client.get(_url("hand-over", world)).status_code == 200
    login(client, world, "gm")
    assert client.get(_url("delete", world)).status_code == 403
    assert client.get(_url("hand-over", world)).status_code == 403
    page = client.get(_url("dashboard", world)).text
    assert 'id="settings-form"' not in page  # a player's page: no GM tools
    assert "Blue Battalion" in page


# --- the page -------------------------------------------------------------------------------


def test_the_gm_hands_the_campaign_on_from_its_settings(client, world):
    _gm_plays(world)
    login(client, world, "gm")
    url = _url("hand-over", world)
    assert f'<a href="{url}">Hand the campaign on</a>' in client.get(_url("dashboard", world)).text
    page = client.get(url).text
    assert "<h1>Hand Op. Pages to another GM</h1>" in page
    # Its members by name and part, the GM not among them; the GM's own forces named.
    listed = re.search(r'<select name="to".*?</select>', page, re.S)[0]
    offered = re.findall(r'<option value="[^"]+">([^<]+)</option>', listed)
    assert offered == [
        "co_gm (Co-GM)", "player (Player)", "rival (Player)", "spectator (Spectator)"
    ]  # fmt: skip
    assert "Militia, and the characters you play. Otherwise they stay yours." in page
    key = re.search(r'name="request_key" value="([^"]+)"', page)[1]
    sent = {"to": "co_gm", "stay_as": "co_gm", "with_forces": "on",
            "request_key": key}  # fmt: skip
    done = client.post(url, sent, follow=True)
    assert done.redirect_chain[-1][0] == _url("dashboard", world)
    assert _message(done) == (
        "Done: co_gm runs Op. Pages now; you stay in it as a co-GM. Green Platoon and Militia "
        "went with it."
    )
    assert (
        campaign_role(
            campaign=Campaign.objects.get(pk=world.campaign.pk), user=world.users["co_gm"]
        )
        == "gm"
    )
    # Sent again (a double click, the browser's history): what the first said, nothing more.
    again = client.post(url, sent, follow=True)
    assert "co_gm runs Op. Pages now" in _message(again)
    assert Membership.objects.filter(campaign=world.campaign, user=world.users["gm"]).count() == 1


def test_a_hand_over_refused_says_why_beside_the_field(client, world):
    _gm_plays(world)
    login(client, world, "gm")
    url = _url("hand-over", world)
    refused = client.post(url, {"to": "co_gm", "stay_as": "spectator",
                                "request_key": str(uuid.uuid4())})  # fmt: skip
    assert refused.status_code == 400
    error = re.search(r'id="id_hand_over_stay_as_error">(.*?)</', refused.text, re.S)[1]
    assert "You play Militia: a spectator plays no force." in error
    assert 'aria-invalid="true"' in refused.text
    unchosen = client.post(url, {"to": "", "stay_as": "co_gm", "request_key": str(uuid.uuid4())})
    assert unchosen.status_code == 400
    assert re.search(r'id="id_hand_over_to_error">', unchosen.text)
    assert Campaign.objects.get(pk=world.campaign.pk).gm == world.users["gm"]


def test_a_campaign_with_no_members_says_whom_to_invite_first(client, world):
    alone = campaign_create(name="Solo", gm=world.users["gm"], ruleset="combined_arms")
    login(client, world, "gm")
    page = client.get(reverse("campaign:hand-over", args=[alone.pk])).text
    assert "invite the one who will run it first" in page
    assert 'id="hand-over-form"' not in page
