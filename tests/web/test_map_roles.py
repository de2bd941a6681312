"""A map whose units are controls is a group a screen reader can enter, not an image.

The replay's units and the deployment's are buttons (picked to be named, moved with the arrow
keys); inside an image they are a picture's parts, which readers do not reach. A map that is
only looked at stays an image."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.web.campaign_world import login

pytestmark = pytest.mark.django_db


def _map(page: str, map_id: str) -> str:
    return re.search(rf'<svg class="table-map[^>]*aria-labelledby="{map_id}-title[^>]*>', page)[0]


def test_the_replay_and_the_deployment_maps_are_groups(client, world):
    login(client, world, "gm")
    campaign = world.campaign.pk
    report = client.get(reverse("campaign:battle", args=[campaign, world.engine_battle.pk])).text
    assert 'role="group"' in _map(report, "replay")
    setup = client.get(reverse("campaign:battle-setup", args=[campaign])).text
    assert 'role="group"' in _map(setup, "preview")


def test_a_map_only_looked_at_stays_an_image(owner_client):
    preview = owner_client.get(reverse("battles:setup")).text
    assert 'role="img"' in _map(preview, "preview")
