"""Campaign pages cost the same few queries whether a force has 5 units or 50."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign.models import Unit
from tests.web.campaign_world import login, raise_units

pytestmark = pytest.mark.django_db

PAGES = {
    "dashboard": (lambda w: [], 17),  # the GM's tools list the invitations waiting
    "timeline": (lambda w: [], 11),  # which of its entries a revert undid since
    "force": (lambda w: [w.force.pk], 12),
    "force-json": (lambda w: [w.force.pk], 10),
    "campaign-json": (lambda w: [], 10),
    "battles-json": (lambda w: [], 10),
    "battle-setup": (lambda w: [], 10),
    "battle-record": (lambda w: [], 10),
    "unit": (lambda w: [w.unit.pk], 12),
}
"""Page → (its URL arguments, the most queries it may make)."""


@pytest.mark.parametrize("units", [5, 50])
@pytest.mark.parametrize("page", sorted(PAGES))
def test_it_bounds_the_queries_whatever_the_roster_size(
    client, world, django_assert_max_num_queries, units, page
):
    card = Unit.objects.get(pk=world.unit.pk).unit_type
    raise_units(world.force, card, units, prefix="Filler")
    login(client, world, "gm")
    args, limit = PAGES[page]
    url = reverse(f"campaign:{page}", args=[world.campaign.pk, *args(world)])
    with django_assert_max_num_queries(limit):
        assert client.get(url).status_code == 200
