"""The home page: what Bridgehead is, to anyone; to a member, each of their campaigns with their
part in it and what waits for them there, as on "My campaigns"."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign.models import Unit
from campaign.services import unit_edit
from campaign.services.battles import campaign_battle_apply
from campaign.services.orders import clock_advance
from tests.web.campaign_world import login, raise_units, world  # noqa: F401 - world is a fixture

pytestmark = pytest.mark.django_db


def _waiting(page: str) -> str:
    """The "Waiting for you" cell of the one campaign listed."""
    return page.split('data-label="Waiting for you">')[1].split("</td>")[0]


def test_anyone_reads_what_bridgehead_is_for_the_gm_the_battles_and_the_players(client):
    page = client.get(reverse("home")).text
    for words in ("<strong>The GM</strong>", "BUCS", "Team Bravo", "<strong>Players</strong>",
                  "on a phone", f'href="{reverse("login")}">Log in</a>'):  # fmt: skip
        assert words in page, words
    assert "Your campaigns" not in page


def test_anyone_reads_how_a_would_be_gm_gets_an_account(client):
    page = client.get(reverse("home")).text
    assert "There is no open sign-up: to run a campaign of your own, ask the site" in page
    assert "anyone with an account may start a campaign." in page


FRESH = {"status": "ready", "morale_hits": 0, "casualty_hits": 0}


def _all_fresh(world):  # noqa: F811
    for unit in Unit.objects.filter(force__campaign=world.campaign):
        unit_edit(unit=unit, changes=FRESH, reason="rested", actor=world.users["gm"])


def test_the_gm_sees_the_battle_awaiting_review_and_the_units_needing_attention(client, world):  # noqa: F811
    gm = world.users["gm"]
    _all_fresh(world)
    unit_edit(unit=Unit.objects.get(pk=world.enemy_unit.pk), changes={"status": "retreated"},
              reason="routed", actor=gm)  # fmt: skip
    page = login(client, world, "gm").get(reverse("home")).text
    dashboard = reverse("campaign:dashboard", args=[world.campaign.pk])
    assert f'<a href="{dashboard}">Op. Pages</a>' in page
    assert '<td data-label="Your part">GM</td>' in page
    waiting = _waiting(page)
    assert "<li>1 battle awaiting your review</li>" in waiting
    assert "<li>1 unit needs attention</li>" in waiting  # the Blue Battalion's, retreated


def test_a_player_sees_only_their_own_units_and_what_changed_since_their_last_visit(
    client,
    world,  # noqa: F811
):
    gm = world.users["gm"]
    campaign_battle_apply(campaign_battle=world.table_battle, actor=gm)  # none waits on the GM
    _all_fresh(world)
    login(client, world, "player")
    client.get(reverse("campaign:dashboard", args=[world.campaign.pk]))  # the last visit
    assert "awaiting the GM" not in _waiting(client.get(reverse("home")).text)
    unit_edit(unit=Unit.objects.get(pk=world.enemy_unit.pk), changes={"status": "retreated"},
              reason="routed", actor=gm)  # fmt: skip
    assert _waiting(client.get(reverse("home")).text) == "Nothing"  # not theirs
    unit_edit(unit=Unit.objects.get(pk=world.unit.pk), changes={"status": "retreated"},
              reason="routed", actor=gm)  # fmt: skip
    page = client.get(reverse("home")).text
    assert '<td data-label="Your part">Player</td>' in page
    waiting = _waiting(page)
    assert "<li>1 unit of yours needs attention</li>" in waiting
    assert "<li>1 change to your units since your last visit</li>" in waiting
    assert "awaiting your review" not in waiting  # the GM's to do
    # "My campaigns" lists the same.
    assert _waiting(client.get(reverse("campaign:list")).text) == waiting


def test_a_player_is_told_their_units_wait_on_the_gms_review_of_a_battle(client, world):  # noqa: F811
    """The review is the GM's to do, but a player whose units it holds waits on it: "Nothing"
    would leave them wondering why their squad is shown as it went in. It is told as news,
    not listed as a thing waiting for them to do."""
    _all_fresh(world)
    login(client, world, "player")
    client.get(reverse("campaign:dashboard", args=[world.campaign.pk]))  # the last visit
    waiting = _waiting(client.get(reverse("home")).text)
    said = "1 unit of yours is in a battle awaiting the GM&#x27;s review."
    assert waiting == f'Nothing<p class="small told">{said}</p>'
    campaign_battle_apply(campaign_battle=world.table_battle, actor=world.users["gm"])
    assert "awaiting the GM" not in _waiting(client.get(reverse("home")).text)


def test_a_spectator_is_told_their_part_and_nothing_waits_for_them(client, world):  # noqa: F811
    page = login(client, world, "spectator").get(reverse("home")).text
    assert '<td data-label="Your part">Spectator</td>' in page
    assert _waiting(page) == "Nothing"


def test_a_user_in_no_campaign_is_told_how_to_join_or_start_one(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("newcomer"))
    page = client.get(reverse("home")).text
    assert "You are not in any campaign yet." in page
    assert f'<a href="{reverse("campaign:list")}">start one of your own</a>' in page


def test_a_player_reads_on_my_campaigns_when_their_units_casualty_hits_die(client, world):  # noqa: F811
    """On a phone the list of campaigns is the first page: a deadline the medics must meet is
    told there, unit by unit, the soonest first, and the first few by name."""
    gm = world.users["gm"]
    campaign_battle_apply(campaign_battle=world.table_battle, actor=gm)
    _all_fresh(world)
    login(client, world, "player")
    client.get(reverse("campaign:dashboard", args=[world.campaign.pk]))  # the last visit
    hurt = Unit.objects.get(pk=world.unit.pk)
    unit_edit(unit=hurt, changes={"casualty_hits": 2, "last_battle_day": world.campaign.day},
              reason="hit", actor=gm)  # fmt: skip
    waiting = _waiting(client.get(reverse("home")).text)
    assert "<li>1 unit of yours needs attention</li>" in waiting
    # Named as every list names a unit: linked to its page.
    page = reverse("campaign:unit", args=[world.campaign.pk, hurt.pk])
    said = (
        f'<li><a href="{page}">{hurt.name}</a>: 2 Casualty hits await the medics. Unsaved, '
        "they die after day "
    )
    assert said in waiting
    assert _waiting(client.get(reverse("campaign:list")).text) == waiting
    # Past three, the rest are counted; the soonest to die come first, whatever their names.
    clock_advance(campaign=world.campaign, hours=5)
    raise_units(world.force, hurt.unit_type, 2, "Reserve squad")
    for unit in Unit.objects.filter(force=world.force).exclude(pk=hurt.pk):
        unit_edit(unit=unit, changes={"casualty_hits": 1, "last_battle_day": world.campaign.day},
                  reason="hit", actor=gm)  # fmt: skip
    count = Unit.objects.filter(force=world.force).count()
    assert count > 4
    waiting = _waiting(client.get(reverse("home")).text)
    assert waiting.count("await the medics. Unsaved") + waiting.count("awaits the medics") == 3
    assert waiting.index(hurt.name) < waiting.index("Reserve squad")
    assert f"<li>{count - 3} more units with Casualty hits awaiting the medics" in waiting
    # The rival's are not theirs to hear of.
    assert "Iron Wolf" not in waiting
