"""A campaign with more units ready than a page lists asks the dashboard's quick resolve for
its two units by name rather than listing every ready unit twice: the dashboard reads a few
rows whatever the campaign's size, and a name the campaign has none of fights nothing."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from campaign.models import Campaign, Engagement, Unit
from tests.web.campaign_world import login
from tests.web.paging import fill_companies, fill_forces, rows_read, unit_named

pytestmark = pytest.mark.django_db


def _written() -> tuple[int, list[int]]:
    return Engagement.objects.count(), list(Unit.objects.values_list("version", flat=True))


def _quick_form(html: str) -> str:
    return re.search(r'<form id="quick-form".*?</form>', html, re.S).group(0)


@pytest.mark.parametrize("count", [20, 400])
def test_a_big_campaigns_dashboard_lists_no_unit_for_the_quick_resolve(
    client, world, big, django_assert_max_num_queries, count
):
    fill_companies(world, count)
    login(client, world, "gm")
    with django_assert_max_num_queries(25), rows_read() as rows:
        response = client.get(reverse("campaign:dashboard", args=[world.campaign.pk]))
    assert response.status_code == 200
    assert rows[0] < 150, rows[0]
    form = _quick_form(response.text)
    assert "<option" not in form and "Squad 1-01" not in form
    for side in ("attacker", "defender"):
        assert re.search(rf'<input type="text" name="{side}"[^>]*maxlength="300"', form)


def test_a_quick_resolve_by_name_fights_the_units_named(client, world, big):
    fill_forces(world, 10)
    Campaign.objects.filter(pk=world.campaign.pk).update(apply_mode=Campaign.ApplyMode.AUTO)
    login(client, world, "gm")
    url = reverse("campaign:quick-resolve", args=[world.campaign.pk])
    data = {"attacker": "Red 01", "defender": "blue 02 (Blue Battalion)", "seed": "4"}
    response = client.post(url, data)
    assert response.status_code == 302
    record = Engagement.objects.latest("id")
    attacker, defender = unit_named("Red 01"), unit_named("Blue 02")
    assert record.setup["sides"] == {"attackers": [attacker.pk], "defenders": [defender.pk]}


def test_a_quick_resolve_naming_no_unit_fights_nothing(client, world, big):
    fill_forces(world, 10)
    Campaign.objects.filter(pk=world.campaign.pk).update(apply_mode=Campaign.ApplyMode.AUTO)
    login(client, world, "gm")
    before = _written()
    response = client.post(
        reverse("campaign:quick-resolve", args=[world.campaign.pk]),
        {"attacker": "Red 01", "defender": "Grey 99", "seed": "4"},
    )
    assert response.status_code == 400
    assert "No unit of the campaign is named “Grey 99”." in response.text
    assert _written() == before


def test_a_small_campaigns_quick_resolve_still_lists_every_ready_unit(client, world):
    fill_forces(world, 3)
    html = (
        login(client, world, "gm").get(reverse("campaign:dashboard", args=[world.campaign.pk])).text
    )
    assert re.search(r'<option value="\d+">Red 01 \(Red Company\)</option>', _quick_form(html))
