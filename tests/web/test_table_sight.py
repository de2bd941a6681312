"""The table's pages as a member who sees other forces only in summary (the rule is
`campaign.access.Viewer.sight`; every page is walked in tests/web/test_campaign_access.py)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign.models import Campaign
from campaign.services import leader_attach
from campaign.services.characters import character_create
from tests.web.campaign_world import login

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
