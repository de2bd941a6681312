"""A campaign with more units ready than a page lists asks the GM's Order form for its unit by
name rather than listing every unit with the Order it is under: a few rows whatever the
campaign's size; a unit page's "Give it an Order" starts the form on the unit's name, and a
name the campaign has none of gives no Order."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from campaign.models import Order
from campaign.services.characters import character_create
from tests.web.campaign_world import login
from tests.web.paging import fill_companies, rows_read, unit_named

pytestmark = pytest.mark.django_db


def _url(world, what: str = "orders") -> str:
    return reverse(f"campaign:{what}", args=[world.campaign.pk])


def _unit_input(html: str) -> str:
    form = re.search(r'<form id="order-form".*?</form>', html, re.S).group(0)
    assert '<select name="unit"' not in form
    return re.search(r'<input type="text" name="unit"[^>]*>', form).group(0)


@pytest.fixture
def holt(world):
    return character_create(campaign=world.campaign, name="Capt. Holt", hit_points=12,
                            actor=world.users["gm"])  # fmt: skip


@pytest.mark.parametrize("count", [20, 400])
def test_a_big_campaigns_orders_page_lists_no_unit_on_its_form(
    client, world, big, holt, django_assert_max_num_queries, count
):
    fill_companies(world, count)
    login(client, world, "gm")
    # How many living characters there are too: whether the form lists them.
    with django_assert_max_num_queries(15), rows_read() as rows:
        response = client.get(_url(world))
    assert response.status_code == 200
    assert rows[0] < 100, rows[0]
    assert 'maxlength="300"' in _unit_input(response.text)
    assert "Squad 1-01" not in response.text


def test_the_order_form_starts_on_the_unit_asked_for_by_its_name(client, world, big, holt):
    fill_companies(world, 20)
    squad = unit_named("Squad 2-01")
    login(client, world, "gm")
    html = client.get(_url(world), {"unit": squad.pk}).text
    assert 'value="Squad 2-01 (Company 2)"' in _unit_input(html)


def test_an_order_is_given_to_the_unit_named_and_to_no_unit_for_a_name_none_has(
    client, world, big, holt
):
    fill_companies(world, 20)
    login(client, world, "gm")
    refused = client.post(
        _url(world, "order-give"), {"giver": holt.pk, "unit": "Grey 99", "kind": "attack"}
    )
    assert refused.status_code == 400
    assert "No unit of the campaign is named “Grey 99”." in refused.text
    assert not Order.objects.exists()
    given = client.post(
        _url(world, "order-give"), {"giver": holt.pk, "unit": "Squad 1-02", "kind": "attack"}
    )
    assert given.status_code == 302
    assert Order.objects.get().unit == unit_named("Squad 1-02")
