"""Deployment on the set-up map: the map draws the campaign's own units where the table puts
them, and the check the map asks on every move is the launch's (the engine's validator)."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from campaign.models import CampaignBattle, SavedMap
from campaign.pages.sides import force_colour
from campaign.services.maps import SPOT_CARD
from campaign.services.roster import unit_edit
from tests.web.campaign_world import login
from tests.web.test_campaign_battles import _free_all, _setup_data, _url

pytestmark = pytest.mark.django_db


def _check(client, world, data):
    response = client.post(_url("battle-setup-check", world), data)
    assert response.status_code == 200
    return response.json()


def test_the_map_shows_the_campaigns_units_by_number_where_the_table_puts_them(client, world):
    units = _free_all(world)
    page = login(client, world, "gm").get(_url("battle-setup", world), {"scenario": "crossroads"})
    html = page.content.decode()
    for number, row in enumerate(page.context["form"].rows(), start=1):
        unit = row["unit"]
        mark = re.search(rf'data-deploy-unit="{unit.pk}".*?</g>', html, re.S)
        assert mark and f'data-name="{unit.name}"' in mark[0]
        assert f">{number}</text>" in mark[0], "the mark shows the unit's number in the table"
        key = re.search(rf'<li data-deploy-key="{unit.pk}">(.*?)</li>', html)
        assert key and f">{number}</span>{unit.name}" in key[1], "the key under the map names it"
        row_head = re.search(rf'<tr data-deploy-row="{unit.pk}">\s*<th scope="row">(.*?)<br>', html)
        assert row_head and f">{number}</span>{unit.name}" in row_head[1]
    # The scenario's demo units are not drawn; its spots are.
    assert 'data-unit="b-rifles-1"' not in html and 'class="spot side-0"' in html
    # The map follows the table: the server draws a typed position (y measured from the far
    # edge in SVG).
    blue = next(u for u in units if u.force_id == world.force.pk)
    data = _setup_data(units, world, **{f"x_{blue.pk}": "500", f"y_{blue.pk}": "3.5"})
    refused = client.post(_url("battle-setup", world), data)
    assert refused.status_code == 400
    mark = re.search(
        rf'data-deploy-unit="{blue.pk}" data-name="[^"]*" transform="translate\(([^)]*)\)"',
        refused.text,
    )
    assert mark[1] == "500 20.5"
    assert "Red Company" in refused.text and "Blue Battalion" in refused.text  # the legend


def test_the_check_refuses_a_spot_with_the_engines_reason_at_that_unit(client, world):
    units = _free_all(world)
    login(client, world, "gm")
    answer = _check(client, world, _setup_data(units, world))
    assert {key: answer[key] for key in ("units", "general", "ok")} == {
        "units": {},
        "general": [],
        "ok": True,
    }
    blue = next(u for u in units if u.force_id == world.force.pk)
    off = _check(
        client, world, _setup_data(units, world, **{f"x_{blue.pk}": "30", f"y_{blue.pk}": "3"})
    )
    assert off["ok"] is False
    assert off["units"] == {
        str(blue.pk): [f"{blue.name} at (30, 3) is off the 24″ × 24″ table: its x must be 0 to 24"]
    }
    # Crossroads' wood blocks movement (8..12 × 14..18): no rifle squad of this card enters it.
    wood = _check(
        client, world, _setup_data(units, world, **{f"x_{blue.pk}": "10", f"y_{blue.pk}": "16"})
    )
    assert wood["units"][str(blue.pk)] == [
        f"{blue.name} cannot stand in the woods at (10, 16): it may not enter woods"
    ]
    mech = next(u for u in units if u.unit_type.name == "Mech")
    house = _check(
        client, world, _setup_data(units, world, **{f"x_{mech.pk}": "16.5", f"y_{mech.pk}": "16.5"})
    )
    assert house["units"][str(mech.pk)] == [
        f"{mech.name} cannot stand in the Farmhouse at (16.5, 16.5): the Farmhouse admits "
        f"Size 1 to 2, and {mech.name} is Size 4"
    ]
    typed = _check(client, world, _setup_data(units, world, **{f"x_{blue.pk}": "east"}))
    assert typed["units"][str(blue.pk)] == [f"{blue.name}'s x must be a number of inches"]
    assert CampaignBattle.objects.count() == 2  # the world's two: a check launches nothing


def test_only_the_gm_may_ask(client, world):
    units = _free_all(world)
    login(client, world, "player")
    assert (
        client.post(_url("battle-setup-check", world), _setup_data(units, world)).status_code == 403
    )


def _zoned_map(world) -> SavedMap:
    """A saved map whose sides deploy in zones along the near and far edges (two spots each)."""
    spot = lambda i, x, y: {"id": f"s-{i}", "position": [x, y], "card": SPOT_CARD}  # noqa: E731
    scenario = {
        "name": "Zoned", "ruleset": world.campaign.ruleset, "turn_limit": 4,
        "table": {"width": 24, "height": 24},
        "terrain": [{"id": "pond", "kind": "water", "polygon": [[1, 1], [3, 1], [3, 3], [1, 3]]}],
        "objectives": [{"id": "hill", "point": [12, 12], "sides": ["blue"], "points_at_end": 3}],
        "sides": [
            {"id": "blue", "name": "Near", "zone": [[0, 0], [24, 0], [24, 6], [0, 6]],
             "units": [spot(1, 6, 2), spot(2, 10, 2)]},
            {"id": "red", "name": "Far", "zone": [[0, 18], [24, 18], [24, 24], [0, 24]],
             "units": [spot(3, 6, 22), spot(4, 10, 22)]},
        ],
    }  # fmt: skip
    return SavedMap.objects.create(campaign=world.campaign, name="Zoned", scenario=scenario)


def test_the_set_up_map_shows_each_sides_zone_in_its_forces_colour(client, world):
    units = _free_all(world)
    saved = _zoned_map(world)
    login(client, world, "gm")
    html = client.get(_url("battle-setup", world), {"scenario": f"map-{saved.pk}"}).text
    near = re.search(r'<polygon class="deploy-zone side-0" points="([^"]*)"', html)
    assert near and near[1] == "0,24 24,24 24,18 0,18"  # y measured from the far edge in SVG
    assert 'class="deploy-zone side-1"' in html
    # The first force the table puts on a side gives that side, and so its zone, its colour.
    form = client.get(_url("battle-setup", world), {"scenario": f"map-{saved.pk}"}).context["form"]
    first = {}
    for unit in form.units:
        first.setdefault(form.fields[f"side_{unit.pk}"].initial, unit.force)
    # Each zone is named by the force on its side, as the rest of the set-up names the sides.
    assert f"Deployment zone of {first['red'].name}" in html and "zone of Far" not in html
    style = f"--side-0: {force_colour(first['blue'])}; --side-1: {force_colour(first['red'])}"
    assert f'data-snap="0.5" style="{style}"' in html
    # Every default position is inside its side's zone.
    for unit in units:
        y = form.fields[f"y_{unit.pk}"].initial
        assert (y <= 6) if form.fields[f"side_{unit.pk}"].initial == "blue" else (y >= 18)


def test_a_unit_dragged_outside_its_zone_is_refused_with_the_reason_inside_it_is_not(client, world):
    units = _free_all(world)
    saved = _zoned_map(world)
    login(client, world, "gm")
    blue = next(u for u in units if u.force_id == world.force.pk)
    base = {"scenario": f"map-{saved.pk}"}

    def at(x, y):
        data = _setup_data(units, world, **base, **{f"x_{blue.pk}": x, f"y_{blue.pk}": y})
        return _check(client, world, data)

    inside = at("12.5", "5.5")
    assert (inside["units"], inside["general"], inside["ok"]) == ({}, [], True)
    assert at("12", "6")["ok"] is True  # the zone's edge is in it
    outside = at("12", "9")
    # The zone by the force on its side, as the map's key names it; not the map's "Near".
    near = world.force.name
    assert outside["units"] == {
        str(blue.pk): [
            f"{blue.name} at (12, 9) is outside the deployment zone of {near} (only an Airborne "
            "unit deploys outside it, by paradrop)"
        ]
    }
    assert at("2", "2")["units"][str(blue.pk)] == [
        f"{blue.name} cannot stand in the water at (2, 2): it may not enter water"
    ]
    launch = _setup_data(units, world, **base, **{f"x_{blue.pk}": "12", f"y_{blue.pk}": "9"})
    refused = client.post(_url("battle-setup", world), launch)
    assert refused.status_code == 400 and f"outside the deployment zone of {near}" in refused.text
    assert "zone of Near" not in refused.text
    assert CampaignBattle.objects.count() == 2  # nothing launched
    assert json.dumps(saved.scenario["sides"][0]["zone"]) == "[[0, 0], [24, 0], [24, 6], [0, 6]]"


def test_an_airborne_unit_deploys_outside_its_sides_zone_by_paradrop(client, world):
    # BUCS: Airborne "may be placed anywhere (paradrop)". Its zone does not hold it; the table,
    # and ground its card may not enter, still do.
    units = _free_all(world)
    saved = _zoned_map(world)
    login(client, world, "gm")
    blue = [u for u in units if u.force_id == world.force.pk]
    jumper, walker = blue[0], blue[1]
    unit_edit(
        unit=jumper,
        changes={"quality": "average", "experience": 0, "specialties": ["infantry", "airborne"]},
        reason="Jump school",
        actor=world.users["gm"],
    )
    base = {"scenario": f"map-{saved.pk}"}
    said = "Airborne: deploys anywhere on the table, outside its side's zone too (paradrop)"

    def row(html, unit):
        return re.search(rf'<tr data-deploy-row="{unit.pk}">(.*?)</tr>', html, re.S)[1]

    html = client.get(_url("battle-setup", world), base).text
    assert said in row(html, jumper) and said not in row(html, walker)
    # On a map whose sides keep to no zone every unit deploys anywhere: nothing to tell.
    html = client.get(_url("battle-setup", world), {"scenario": "crossroads"}).text
    assert said not in html

    def at(unit, x, y):
        return _setup_data(units, world, **base, **{f"x_{unit.pk}": x, f"y_{unit.pk}": y})

    assert _check(client, world, at(jumper, "12", "9"))["ok"] is True
    assert _check(client, world, at(jumper, "2", "2"))["units"][str(jumper.pk)] == [
        f"{jumper.name} cannot stand in the water at (2, 2): it may not enter water"
    ]
    assert _check(client, world, at(walker, "12", "9"))["units"][str(walker.pk)] == [
        f"{walker.name} at (12, 9) is outside the deployment zone of {world.force.name} (only an "
        "Airborne unit deploys outside it, by paradrop)"
    ]
    launched = client.post(_url("battle-setup", world), at(jumper, "12", "9"))
    assert launched.status_code == 302
    battle = CampaignBattle.objects.latest("pk")
    placed = {u["id"]: u for side in battle.battle.scenario["sides"] for u in side["units"]}
    dropped = next(u for u in placed.values() if u["id"].endswith(f"-{jumper.pk}"))
    assert dropped["position"] == [12, 9] and dropped["paradrop"] is True
    # Only the Airborne unit paradrops: every other unit stands in its side's zone.
    assert [u for u in placed.values() if "paradrop" in u] == [dropped]
    # The battle's page says where it started, and why it could.
    page = unescape(client.get(_url("battle", world, battle.pk)).text)
    assert (
        f"{jumper.name} ({world.force.name}), Airborne, went in by paradrop, outside its side's "
        "deployment zone." in page
    )
    assert "paradrop" not in client.get(_url("battle", world, world.engine_battle.pk)).text
