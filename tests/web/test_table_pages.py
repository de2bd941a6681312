"""The table's pages without a browser: an NPC needs no player, and a refused action is a 400
that writes nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign.models import Character, Engagement
from tests.web.campaign_world import login

pytestmark = pytest.mark.django_db


def test_the_gm_creates_an_npc_and_a_players_character(client, world):
    login(client, world, "gm")
    url = reverse("campaign:character-create", args=[world.campaign.pk])
    response = client.post(url, {"name": "Sgt. Rook", "hit_points": "9"})
    assert response.status_code == 302
    response = client.post(url, {"name": "Lt. Ash", "hit_points": "12", "player": "player",
                                 "feats": ["special_forces"]})  # fmt: skip
    assert response.status_code == 302
    found = {c.name: c for c in Character.objects.filter(campaign=world.campaign)}
    assert found["Sgt. Rook"].player is None and found["Lt. Ash"].player == world.users["player"]
    # Nobody by that name, or an account outside the campaign: refused in the same words.
    for name in ("nobody", "outsider"):
        response = client.post(url, {"name": "Ghost", "hit_points": "5", "player": name})
        assert response.status_code == 400
        assert f"no one in this campaign is called &#x27;{name}&#x27;" in response.text
    page = login(client, world, "player").get(
        reverse("campaign:characters", args=[world.campaign.pk])
    )
    assert "Lt. Ash" in page.text and "yours" in page.text


def test_an_engagement_without_defenders_is_refused_and_nothing_is_written(client, world):
    login(client, world, "gm")
    url = reverse("campaign:engagement-setup", args=[world.campaign.pk])
    page = client.get(url)
    assert page.status_code == 200
    response = client.post(url, {"terrain": "swamp", "round_limit": "3",
                                 f"side_{world.unit.pk}": "attackers"})  # fmt: skip
    assert response.status_code == 400
    assert "the defenders need at least one unit" in response.text
    assert not Engagement.objects.exists()
