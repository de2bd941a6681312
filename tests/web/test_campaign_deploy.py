"""Deployment on the set-up map: the map draws the campaign's own units where the table puts
them, and the check the map asks on every move is the launch's (the engine's validator)."""

from __future__ import annotations

import re

import pytest

from campaign.models import CampaignBattle
from tests.web.campaign_world import login
from tests.web.test_campaign_battles import _free_all, _setup_data, _url

pytestmark = pytest.mark.django_db


def _check(client, world, data):
    response = client.post(_url("battle-setup-check", world), data)
    assert response.status_code == 200
    return response.json()


def test_the_map_shows_the_campaigns_units_by_name_where_the_table_puts_them(client, world):
    units = _free_all(world)
    page = login(client, world, "gm").get(_url("battle-setup", world), {"scenario": "crossroads"})
    html = page.content.decode()
    for unit in units:
        mark = re.search(rf'data-deploy-unit="{unit.pk}".*?</g>', html, re.S)
        assert mark and f">{unit.name}</text>" in mark[0]
    # The scenario's demo units are not drawn; its spots are.
    assert 'data-unit="b-rifles-1"' not in html and 'class="spot side-0"' in html
    # The map follows the table: the server draws a typed position (y measured from the far
    # edge in SVG).
    blue = next(u for u in units if u.force_id == world.force.pk)
    data = _setup_data(units, world, **{f"x_{blue.pk}": "500", f"y_{blue.pk}": "3.5"})
    refused = client.post(_url("battle-setup", world), data)
    assert refused.status_code == 400
    mark = re.search(
        rf'data-deploy-unit="{blue.pk}" transform="translate\(([^)]*)\)"', refused.text
    )
    assert mark[1] == "500 20.5"
    assert "Red Company" in refused.text and "Blue Battalion" in refused.text  # the legend


def test_the_check_refuses_a_spot_with_the_engines_reason_at_that_unit(client, world):
    units = _free_all(world)
    login(client, world, "gm")
    assert _check(client, world, _setup_data(units, world)) == {
        "units": {},
        "general": [],
        "ok": True,
    }
    blue = next(u for u in units if u.force_id == world.force.pk)
    off = _check(
        client, world, _setup_data(units, world, **{f"x_{blue.pk}": "30", f"y_{blue.pk}": "3"})
    )
    assert off["ok"] is False and off["units"] == {str(blue.pk): ["(30, 3) is off the 24x24 table"]}
    # Crossroads' wood blocks movement (8..12 × 14..18): no rifle squad of this card enters it.
    wood = _check(
        client, world, _setup_data(units, world, **{f"x_{blue.pk}": "10", f"y_{blue.pk}": "16"})
    )
    assert wood["units"][str(blue.pk)] == ["deployed inside impassable woods 'wood'"]
    mech = next(u for u in units if u.unit_type.name == "Mech")
    house = _check(
        client, world, _setup_data(units, world, **{f"x_{mech.pk}": "16.5", f"y_{mech.pk}": "16.5"})
    )
    assert house["units"][str(mech.pk)] == [
        "deployed inside building 'farmhouse', which does not admit it"
    ]
    typed = _check(client, world, _setup_data(units, world, **{f"x_{blue.pk}": "east"}))
    assert typed["units"][str(blue.pk)] == ["Enter a number."]
    assert CampaignBattle.objects.count() == 2  # the world's two: a check launches nothing


def test_only_the_gm_may_ask(client, world):
    units = _free_all(world)
    login(client, world, "player")
    assert (
        client.post(_url("battle-setup-check", world), _setup_data(units, world)).status_code == 403
    )
