"""The roster's links say whose they are when read out of their row: a screen reader's list of
a page's links showed "card" once for every unit."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from campaign.models import Unit
from tests.web.campaign_world import login

pytestmark = pytest.mark.django_db


def test_each_units_card_link_names_the_unit(client, world):
    campaign = world.campaign.pk
    page = login(client, world, "player").get(
        reverse("campaign:force", args=[campaign, world.force.pk])
    )
    units = list(Unit.objects.filter(force=world.force))
    assert units
    for unit in units:
        card = reverse("campaign:unit-card", args=[campaign, unit.pk])
        link = re.search(rf'<a href="{card}"[^>]*>card</a>', page.text)[0]
        assert f'aria-label="The printable card of {unit.name}"' in link
