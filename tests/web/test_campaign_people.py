"""Things change over a long campaign: it is renamed, a force is renamed or given to another
player, a member is removed by the GM or leaves, a unit moves to another force or is struck off
as raised by mistake (campaign/services/: ``campaigns.campaign_update``, ``roster.force_edit``,
``members.membership_remove``, ``roster.unit_move``, ``roster.unit_remove``)."""

from __future__ import annotations

import re
import uuid

import pytest
from django.urls import reverse

from campaign.models import CampaignBattle, Character, Force, HistoryEntry, Membership, Unit
from campaign.services import unit_create, unit_edit
from campaign.services.characters import character_create
from campaign.services.checks import requisition_run
from campaign.services.orders import order_give
from tests.web.campaign_world import login
from tests.web.pages import as_drawn

pytestmark = pytest.mark.django_db


def _url(name: str, world, *args) -> str:
    return reverse(f"campaign:{name}", args=[world.campaign.pk, *args])


def _errors(response, field: str) -> str:
    return re.search(rf'id="id_[a-z_]+_{field}_error">([^<]*)<', response.text)[1]


def _message(response) -> str:
    """What the page says at its top (``_messages.html``), tags stripped."""
    said = re.search(r'<div class="messages"[^>]*>(.*?)</div>', response.text, re.S)
    return re.sub(r"<[^>]+>", "", said[1]) if said else ""


def test_the_gm_renames_the_campaign_in_its_settings(client, world):
    login(client, world, "gm")
    page = client.get(_url("dashboard", world)).text
    assert 'name="name" value="Op. Pages"' in page
    sent = {"name": "Operation Pages", "apply_mode": "review", "other_forces_visible": "full"}
    done = client.post(_url("settings", world), sent, follow=True)
    assert _message(done).strip() == (
        "Done: Settings saved. Op. Pages is called Operation Pages now."
    )
    assert "<h1>Operation Pages</h1>" in done.text
    refused = client.post(_url("settings", world), sent | {"name": " "})
    assert refused.status_code == 400
    # A blank field is named by its label, in the campaign's words (`required_message`).
    assert _errors(refused, "name") == "Fill in “The campaign&#x27;s name”."


def test_the_gm_gives_a_force_to_another_player_who_directs_it_from_then_on(client, world):
    force, history = world.force, HistoryEntry.objects.filter(unit__force=world.force).count()
    login(client, world, "gm")
    page = client.get(_url("force", world, force.pk)).text
    assert 'value="Red Company"' in page and 'value="player"' in page  # as it stands
    done = client.post(
        _url("force-edit", world, force.pk), {"name": "Red Company", "owner": "rival"}, follow=True
    )
    assert "Red Company is rival&#x27;s force now." in done.text
    assert "rival&#x27;s force" in done.text
    assert Force.objects.get(pk=force.pk).owner == world.users["rival"]
    # Its units and their history are as they were; its new player directs its medics.
    assert HistoryEntry.objects.filter(unit__force=force).count() == history
    login(client, world, "rival")
    assert 'id="medical-form"' in client.get(_url("force", world, force.pk)).text
    login(client, world, "player")
    assert 'id="medical-form"' not in client.get(_url("force", world, force.pk)).text


def test_a_force_is_renamed_and_the_page_says_its_old_name(client, world):
    login(client, world, "co_gm")
    done = client.post(
        _url("force-edit", world, world.force.pk),
        {"name": "Reyes' Raiders", "owner": "player"},
        follow=True,
    )
    assert "Red Company is called Reyes&#x27; Raiders now." in done.text
    assert "<h1>" in done.text and "Reyes&#x27; Raiders</h1>" in done.text


def test_a_rename_sent_from_a_page_opened_before_the_force_was_given_away_keeps_its_player(
    client, world
):
    # The rename gave the force back to the player the old page showed.
    login(client, world, "gm")
    drawn = as_drawn(client.get(_url("force", world, world.force.pk)).text)
    url = _url("force-edit", world, world.force.pk)
    # Another tab (a co-GM) gives it to the rival meanwhile.
    assert client.post(url, {"name": "Red Company", "owner": "rival"}).status_code == 302
    renamed = client.post(url, {"name": "Reyes' Raiders", "owner": "player", "drawn": drawn})
    assert renamed.status_code == 302
    force = Force.objects.get(pk=world.force.pk)
    assert (force.name, force.owner) == ("Reyes' Raiders", world.users["rival"])
    # Given to someone else on both sides: refused beside the field, nothing written.
    clash = client.post(url, {"name": "Reyes' Raiders", "owner": "gm", "drawn": drawn})
    assert clash.status_code == 400
    assert _errors(clash, "owner") == (
        "Since this form was opened, this has become rival (Player): save again to make it "
        "gm (GM) all the same."
    )
    assert Force.objects.get(pk=world.force.pk).owner == world.users["rival"]


@pytest.mark.parametrize(
    ("sent", "field", "error"),
    [
        ({"owner": "spectator"}, "owner", "spectator is not a player of Op. Pages"),
        ({"owner": "outsider"}, "owner", "No one in this campaign is called “outsider”"),
        (
            {"name": "Blue Battalion"},
            "name",
            "already has a force called “Blue Battalion”; choose another name",
        ),
        ({"name": ""}, "name", "Fill in “Name”."),
    ],
)
def test_a_force_goes_only_to_one_who_plays_under_a_name_of_its_own(client, world, sent, field,
                                                                   error):  # fmt: skip
    login(client, world, "gm")
    data = {"name": "Red Company", "owner": "player"} | sent
    refused = client.post(_url("force-edit", world, world.force.pk), data)
    assert refused.status_code == 400
    assert error in _errors(refused, field)
    force = Force.objects.get(pk=world.force.pk)
    assert (force.name, force.owner) == ("Red Company", world.users["player"])


def test_a_removed_member_no_longer_sees_the_campaign_and_their_character_is_an_npc(client, world):
    rowan = character_create(campaign=world.campaign, name="Lt. Rowan", hit_points=12,
                             player=world.users["player"])  # fmt: skip
    login(client, world, "gm")
    refused = client.post(_url("member-remove", world), {"username": "player"})
    assert refused.status_code == 400
    assert "player plays Red Company: give it to another player on its page first." in refused.text
    client.post(_url("force-edit", world, world.force.pk), {"name": "Red Company", "owner": "gm"})
    done = client.post(_url("member-remove", world), {"username": "player"}, follow=True)
    assert "player is no longer in the campaign. Lt. Rowan is an NPC now." in done.text
    assert Character.objects.get(pk=rowan.pk).player is None
    assert not Membership.objects.filter(campaign=world.campaign, user__username="player").exists()
    login(client, world, "player")
    assert client.get(_url("dashboard", world)).status_code == 404


def test_the_gm_is_not_removed_from_their_campaign(client, world):
    login(client, world, "co_gm")
    refused = client.post(_url("member-remove", world), {"username": "gm"})
    assert refused.status_code == 400
    assert _errors(refused, "username") == (
        "gm is this campaign&#x27;s GM: the GM is not removed from it."
    )


def test_a_member_leaves_and_is_back_at_their_campaigns(client, world):
    login(client, world, "spectator")
    dashboard = client.get(_url("dashboard", world)).text
    assert "Leave Op. Pages</button>" in dashboard
    sent = {"request_key": str(uuid.uuid4())}
    done = client.post(_url("leave", world), sent, follow=True)
    assert done.redirect_chain == [(reverse("campaign:list"), 302)]
    assert "You have left Op. Pages." in done.text
    assert client.get(_url("dashboard", world)).status_code == 404
    # Sent again (a double click): the same answer, not a 404.
    again = client.post(_url("leave", world), sent, follow=True)
    assert "You have left Op. Pages." in again.text


def test_a_player_with_a_force_is_told_the_gm_gives_it_on_first(client, world):
    login(client, world, "player")
    dashboard = client.get(_url("dashboard", world)).text
    assert (
        '<p class="disabled-reason" id="leave-why">Not now: You play Red Company: the GM gives '
        "it to another player first.</p>" in dashboard
    )
    assert '<button type="submit" disabled aria-describedby="leave-why">' in dashboard
    # Sent anyway (a page from before the force was theirs), it is refused at the top.
    refused = client.post(_url("leave", world), {"request_key": str(uuid.uuid4())}, follow=True)
    assert refused.redirect_chain == [(_url("dashboard", world), 302)]
    assert "You play Red Company: the GM gives it to another player first." in _message(refused)
    assert Membership.objects.filter(campaign=world.campaign, user__username="player").exists()


def test_the_gm_leaves_only_by_handing_the_campaign_on_or_deleting_it(client, world):
    login(client, world, "gm")
    dashboard = client.get(_url("dashboard", world)).text
    assert "Leave Op. Pages" not in dashboard
    hand_over = reverse("campaign:hand-over", args=[world.campaign.pk])
    assert (
        f'You run Op. Pages: to leave it, first <a href="{hand_over}">hand it to another GM</a>.'
    ) in dashboard
    refused = client.post(_url("leave", world), {"request_key": str(uuid.uuid4())}, follow=True)
    assert "You run Op. Pages: its GM hands it to another GM first, or deletes it." in _message(
        refused
    )


# --- a unit raised by mistake -----------------------------------------------------------------


def _fresh(world, name="Typo Squad"):
    return unit_create(force=world.force, unit_type=world.unit.unit_type, name=name,
                       specialties=["infantry"])  # fmt: skip


def test_a_unit_raised_by_mistake_is_struck_off_its_roster(client, world):
    typo = _fresh(world)
    unit_edit(unit=typo, changes={"name": "Typo Squad 2"}, reason="a typo",
              actor=world.users["gm"])  # fmt: skip
    login(client, world, "gm")
    page = client.get(_url("unit", world, typo.pk)).text
    assert "<h2>Raised by mistake?</h2>" in page
    done = client.post(
        _url("unit-remove", world, typo.pk), {"request_key": str(uuid.uuid4())}, follow=True
    )
    assert done.redirect_chain == [(_url("force", world, world.force.pk), 302)]
    assert _message(done).strip() == (
        "Done: Typo Squad 2 is struck off Red Company&#x27;s roster, as raised by mistake."
    )
    assert not Unit.objects.filter(pk=typo.pk).exists()
    assert not HistoryEntry.objects.filter(unit_id=typo.pk).exists()
    assert client.get(_url("unit", world, typo.pk)).status_code == 404


def _ordered(world):
    unit = _fresh(world)
    rowan = character_create(campaign=world.campaign, name="Lt. Rowan", hit_points=12)
    order_give(giver=rowan, unit=unit, kind="attack", actor=world.users["gm"])
    return unit


def _engaged_in_table_battle(world, unit):
    """The unit in the world's table battle, its outcome awaiting the GM's review."""
    CampaignBattle.objects.filter(pk=world.table_battle.pk).update(
        state=CampaignBattle.State.AWAITING, sides={"attackers": [unit.pk], "defenders": []}
    )


def _engaged(world):
    unit = _fresh(world)
    _engaged_in_table_battle(world, unit)
    return unit


def _requisitioned(world):
    roll = requisition_run(force=world.force, unit_type=world.unit.unit_type, name="Won Squad",
                           specialties=["infantry"], bonus=30, seed=1)  # fmt: skip
    return Unit.objects.get(pk=roll.result["unit"])


@pytest.mark.parametrize(
    "made",
    [
        pytest.param(lambda world: world.unit, id="fought"),
        pytest.param(_ordered, id="given an Order"),
        pytest.param(_engaged, id="in a battle not applied yet"),
        pytest.param(_requisitioned, id="won by a Requisition"),
    ],
)
def test_a_unit_with_a_part_in_the_story_stays_on_the_books(client, world, made):
    unit = made(world)
    login(client, world, "gm")
    assert "Raised by mistake?" not in client.get(_url("unit", world, unit.pk)).text
    # Sent from a page drawn before its part: refused at the top of its page.
    refused = client.post(
        _url("unit-remove", world, unit.pk), {"request_key": str(uuid.uuid4())}, follow=True
    )
    assert refused.redirect_chain == [(_url("unit", world, unit.pk), 302)]
    assert _message(refused).strip() == (
        f"Not done: {unit.name} has a part in the story already: it stays on the books (a "
        "correction can mark it destroyed)."
    )
    assert Unit.objects.filter(pk=unit.pk).exists()


# --- a unit moved to another force ------------------------------------------------------------


def test_a_unit_moves_to_another_force_with_the_reason_in_its_history(client, world):
    squad = _fresh(world, "Detached Squad")
    login(client, world, "gm")
    page = client.get(_url("unit", world, squad.pk)).text
    assert "<h2>Move to another force</h2>" in page
    # The one other force is chosen already.
    assert f'<option value="{world.enemy.pk}" selected>Blue Battalion (rival)</option>' in page
    sent = {"force": world.enemy.pk, "reason": "detached to the ford"}
    done = client.post(_url("unit-move", world, squad.pk), sent, follow=True)
    assert _message(done).strip() == "Done: Detached Squad is in Blue Battalion now."
    assert Unit.objects.get(pk=squad.pk).force == world.enemy
    entry = HistoryEntry.objects.filter(unit=squad).latest("pk")
    assert entry.text == "Moved from Red Company to Blue Battalion (GM: detached to the ford)"
    assert (entry.before, entry.after) == ({}, {})  # its state is as it was
    assert "Moved from Red Company to Blue Battalion (GM: detached to the ford)" in done.text
    enemy_roster = client.get(_url("force", world, world.enemy.pk)).text
    assert "Detached Squad" in enemy_roster
    assert "Detached Squad" not in client.get(_url("force", world, world.force.pk)).text
    told = "Detached Squad (Blue Battalion) — Moved from Red Company to Blue Battalion (GM: "
    assert told in client.get(_url("timeline", world)).text
    # Its new force's player reads it as theirs now, and is told of the move.
    login(client, world, "rival")
    assert client.get(_url("unit", world, squad.pk)).status_code == 200
    assert told in client.get(_url("dashboard", world)).text


@pytest.mark.parametrize(
    ("sent", "field", "error"),
    [
        ({"reason": ""}, "reason", "Fill in “Reason”."),
        ({"force": 999999}, "force", "No force of this campaign has that number"),
        ({"engaged": True}, "force", "is still in Skirmish at the mill, whose outcome is not"),
        ({"destroyed": True}, "force", "was destroyed: it stays with the force it fell in"),
    ],
)
def test_a_unit_moves_only_to_another_force_of_the_campaign_for_a_reason(
    client, world, sent, field, error
):
    squad = _fresh(world)
    if sent.pop("engaged", False):
        _engaged_in_table_battle(world, squad)
    if sent.pop("destroyed", False):
        unit_edit(unit=squad, changes={"status": "destroyed"}, reason="shelled",
                  actor=world.users["gm"])  # fmt: skip
        assert "Move to another force" not in (
            login(client, world, "gm").get(_url("unit", world, squad.pk)).text
        )
    login(client, world, "gm")
    data = {"force": world.enemy.pk, "reason": "detached"} | sent
    refused = client.post(_url("unit-move", world, squad.pk), data)
    assert refused.status_code == 400
    assert error in _errors(refused, field)
    assert Unit.objects.get(pk=squad.pk).force == world.force


def test_a_move_sent_twice_says_the_unit_is_in_that_force_already(client, world):
    # The second sending (a double click, another tab) read "Select a valid choice. That
    # choice is not one of the available choices.", beside a list that no longer held it.
    squad = _fresh(world, "Detached Squad")
    login(client, world, "gm")
    sent = {"force": world.enemy.pk, "reason": "detached to the ford"}
    assert client.post(_url("unit-move", world, squad.pk), sent).status_code == 302
    entries = HistoryEntry.objects.filter(unit=squad).count()
    again = client.post(_url("unit-move", world, squad.pk), sent)
    assert again.status_code == 400
    assert _errors(again, "force") == "Detached Squad is in Blue Battalion already."
    assert HistoryEntry.objects.filter(unit=squad).count() == entries
    assert Unit.objects.get(pk=squad.pk).force == world.enemy
    # The list still offers only the other forces.
    assert _offered(again.text, "move-form", "force") == ["Red Company (player)"]


def _offered(page: str, form: str, field: str) -> list[str]:
    """The names a form's list offers, as the page draws them."""
    body = re.search(rf'<form id="{form}".*?</form>', page, re.S)[0]
    chosen = re.search(rf'<select name="{field}".*?</select>', body, re.S)[0]
    return re.findall(r'<option value="[^"]+"(?: selected)?>([^<]+)</option>', chosen)


def test_the_gms_forms_offer_the_campaigns_people_by_name_and_part(client, world):
    login(client, world, "gm")
    dashboard = client.get(_url("dashboard", world)).text
    # A force goes to one who plays: the GM, a co-GM or a player, never a spectator.
    players = ["co_gm (Co-GM)", "gm (GM)", "player (Player)", "rival (Player)"]
    assert _offered(dashboard, "force-form", "owner") == players
    # A part changes, or a member is removed: any member, never the GM.
    members = ["co_gm (Co-GM)", "player (Player)", "rival (Player)", "spectator (Spectator)"]
    assert _offered(dashboard, "member-form", "username") == members
    assert _offered(dashboard, "member-remove-form", "username") == members
    force = client.get(_url("force", world, world.force.pk)).text
    assert _offered(force, "force-edit-form", "owner") == players
    assert '<option value="player" selected>player (Player)</option>' in force
    # A character is played by one who plays, or by nobody: an NPC, the GM's.
    characters = client.get(_url("characters", world)).text
    assert _offered(characters, "character-form", "player") == players
    assert '<option value="" selected>Nobody: an NPC</option>' in characters
