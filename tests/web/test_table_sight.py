"""The table's pages as a member who sees other forces only in summary (the rule is
`campaign.access.Viewer.sight`; every page is walked in tests/web/test_campaign_access.py)."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from campaign.models import Campaign
from campaign.services import leader_attach
from campaign.services.characters import character_create
from tests.web.campaign_world import login
from tests.web.test_campaign_access import table_world

pytestmark = pytest.mark.django_db


def _summary(world) -> None:
    Campaign.objects.filter(pk=world.campaign.pk).update(other_forces_visible="summary")


def _row(page: str, name: str) -> str:
    return page.split(name, 1)[1].split("</tr>", 1)[0]


def test_a_players_own_character_leading_a_unit_they_see_in_summary_is_still_theirs(client, world):
    _summary(world)
    gm = world.users["gm"]
    vane = character_create(campaign=world.campaign, name="Capt. Vane", hit_points=11,
                            player=world.users["player"], actor=gm)  # fmt: skip
    leader_attach(unit=world.enemy_unit, character=vane, actor=gm)
    url = reverse("campaign:characters", args=[world.campaign.pk])
    page = login(client, world, "player").get(url).text
    row = _row(page, "Capt. Vane")
    assert "yours" in row and "11 of 11 hit points" in row
    # The unit is named, but its page is not theirs to open.
    assert world.enemy_unit.name in row
    unit_url = reverse("campaign:unit", args=[world.campaign.pk, world.enemy_unit.pk])
    assert unit_url not in page
    assert client.get(unit_url).status_code == 404
    assert "Only your own characters and those leading your units are shown here" in page
    # The rival sees who leads their own unit, with its link.
    page = login(client, world, "rival").get(url).text
    assert "11 of 11 hit points" in _row(page, "Capt. Vane") and unit_url in page
    # A spectator, who owns nothing, is told so in a spectator's words.
    page = login(client, world, "spectator").get(url).text
    assert "Capt. Vane" not in page
    assert "The GM shows spectators every force in summary only" in page
    assert "None that you can see." in page


def _engagement_page(client, world, role: str) -> str:
    url = reverse("campaign:engagement", args=[world.campaign.pk, world.engagement.pk])
    return html.unescape(login(client, world, role).get(url).text)


def _rows(page: str, name: str) -> list[str]:
    """The rows of the pairings' tables headed by the unit ``name``."""
    return [row.split("</tr>", 1)[0] for row in page.split(f'<th scope="row">{name}</th>')[1:]]


def test_an_engagement_shows_of_a_unit_seen_in_summary_its_name_and_totals_only(client, world):
    table_world(world)  # Red Scouts (the player's) against Blue Pickets (the rival's), both led
    _summary(world)
    page = _engagement_page(client, world, "player")
    # Their own squad whole: its quality and leader, every die and modifier, the hits it took.
    assert "<li>Red Scouts (" in page and "led by Lt. Rowan" in page
    red = _rows(page, "Red Scouts")
    assert red and all("Not shown" not in row and "feats (Squad/Squadron Tactics)" in row
                       for row in red)  # fmt: skip
    assert "Red Scouts takes a" in page
    # The rival's squad by its name and totals: no quality, leader, Order, dice or modifiers,
    # no hits nor leader's wounds, and no seed to roll them again.
    assert "<li>Blue Pickets</li>" in page
    blue = _rows(page, "Blue Pickets")
    assert blue and all('<td class="small">Not shown</td>' in row for row in blue)
    for hidden in ("Maj. Greaves", "Establish Beachhead", "outside its specialties",
                   "Blue Pickets's leader", "Blue Pickets takes a", "Blue Pickets is destroyed",
                   "Blue Pickets retreats", "Special Forces", "seed 106"):  # fmt: skip
        assert hidden not in page, hidden
    # The rival hid: their Hide check (drawn from their side) by its total, the watch whole.
    surprise = page.split('id="surprise">')[1].split("</p>")[0]
    assert " in all against Spot d20 " in surprise and "(Red Scouts)" in surprise
    assert "A unit of a force you see only in summary is named, with the totals it rolled" in page
    # The rival reads it the other way round; the GM reads everything.
    page = _engagement_page(client, world, "rival")
    assert "Blue Pickets's leader" in page and "Lt. Rowan" not in page
    assert all("Not shown" in row for row in _rows(page, "Red Scouts"))
    page = _engagement_page(client, world, "gm")
    assert "seed 106" in page and "Lt. Rowan" in page and "Maj. Greaves" in page
    assert "Not shown" not in page and 'id="lineup-seen"' not in page
    # A spectator reads that it was fought, between whom, and who won, in a spectator's words.
    page = _engagement_page(client, world, "spectator")
    rows = _rows(page, "Red Scouts") + _rows(page, "Blue Pickets")
    assert rows and all("Not shown" in row for row in rows)
    assert "takes a" not in page and "led by" not in page and "leader takes" not in page
    assert "The GM shows spectators every force in summary only: each unit is named" in page
    outcome = f"{world.engagement.name}: Red Company won after"
    timeline = login(client, world, "spectator").get(
        reverse("campaign:timeline", args=[world.campaign.pk])
    )
    assert outcome in html.unescape(timeline.text)


def test_the_gms_reason_for_an_old_quick_resolve_goes_to_whoever_sees_either_unit(client, world):
    from campaign.models import QuickResolve

    QuickResolve.objects.create(
        campaign=world.campaign, day=1, attacker=world.unit, defender=world.enemy_unit, seed=3,
        round_limit=5, setup={}, events=[{"event": "end", "rounds": 2, "winner": "attacker"}],
        rounds=2, winner="attacker", reason="Night raid on the depot",
    )  # fmt: skip
    url = reverse("campaign:dashboard", args=[world.campaign.pk])
    fought = f"{world.unit.name} against {world.enemy_unit.name}"

    def reads(role: str) -> bool:
        page = login(client, world, role).get(url).text
        assert fought in page and f"{world.unit.name} won after 2 rounds" in page, role
        return "Night raid on the depot" in page

    assert all(reads(role) for role in ("gm", "co_gm", "player", "rival", "spectator"))
    _summary(world)
    assert all(reads(role) for role in ("gm", "co_gm", "player", "rival"))
    assert not reads("spectator")
