"""A campaign with more units ready to fight than a page lists sets up a battle a page of them
at a time: by force and name, in a few queries and rows whatever its size, none fighting by
default, the units put on a side carried from page to page and all fielded by the launch."""

from __future__ import annotations

import re
from html import unescape
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles.models import Battle
from campaign import units_offered
from campaign.models import CampaignBattle, Unit
from campaign.selectors import battle_setup
from tests.web.campaign_world import login
from tests.web.paging import fill_forces, rows_read, unit_named

pytestmark = pytest.mark.django_db


def _url(world) -> str:
    return reverse("campaign:battle-setup", args=[world.campaign.pk])


def _rows(html: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'data-deploy-row="(\d+)"', html)]


def _sent(response) -> dict[str, str]:
    """The set-up form as the browser would send it back: every field as the page shows it."""
    form, paged = response.context["form"], response.context["paged"]
    data = {"scenario": "crossroads", "browse_at": str(paged.number) if paged else "1"}
    for name, field in form.fields.items():
        value = form[name].value()
        if value in (None, "") and getattr(field, "choices", None):
            value = field.choices[0][0]  # a select with none selected sends its first option
        data[name] = "" if value is None else str(value)
    data["browse_force"] = str(paged.force.pk) if paged and paged.force else ""
    data["browse_search"] = paged.search if paged else ""
    return data


@pytest.mark.parametrize("count", [20, 200])
def test_a_big_campaign_lists_a_page_of_units_in_the_same_few_queries_and_rows(
    client, world, paged, django_assert_max_num_queries, count
):
    fill_forces(world, count)
    login(client, world, "gm")
    with django_assert_max_num_queries(16), rows_read() as rows:
        response = client.get(_url(world), {"scenario": "crossroads"})
    assert response.status_code == 200
    html = response.content.decode()
    assert len(_rows(html)) == 5, "a page of units, not every unit"
    assert html.count('name="side_') == 5 and html.count("data-deploy-unit=") == 5
    assert rows[0] < 60, rows[0]
    assert "Units 1 to 5 of" in html and "Later units" in html
    # Nothing fights until the GM puts it on a side.
    assert not re.search(r'<option value="(blue|red)" selected', html)


def test_a_small_campaign_still_lists_every_unit_each_on_its_forces_side(client, world):
    fill_forces(world, 3)
    login(client, world, "gm")
    response = client.get(_url(world), {"scenario": "crossroads"})
    html = response.content.decode()
    assert response.context["paged"] is None and "Find units" not in html
    assert len(_rows(html)) == len(response.context["form"].units) >= 6
    assert re.search(r'<option value="(blue|red)" selected', html)


def test_moving_between_pages_and_searching_keeps_every_unit_put_on_a_side(client, world, paged):
    fill_forces(world, 20)
    login(client, world, "gm")
    first = client.get(_url(world), {"scenario": "crossroads", "browse_force": world.enemy.pk})
    assert [Unit.objects.get(pk=pk).name for pk in _rows(first.content.decode())] == [
        "Blue 01", "Blue 02", "Blue 03", "Blue 04", "Blue 05",
    ]  # fmt: skip
    data = _sent(first)
    pk = unit_named("Blue 02").pk
    data.update({f"side_{pk}": "red", f"x_{pk}": "20", f"y_{pk}": "20", f"order_{pk}": "hold"})
    second = client.post(_url(world), {**data, "browse_page": "3"})
    assert second.status_code == 200
    html = second.content.decode()
    assert "Units 11 to 15 of" in html and "Earlier units" in html, re.findall(
        r"Units \d+ to \d+[^.]*", html
    )
    assert _rows(html)[0] == pk, "carried along, listed first"
    assert "Put on a side on other pages" in html
    assert second.context["form"].errors == {}, "moving on refuses nothing"
    # A search in the other force: Blue 02 is still on its side, where it was put, on hold.
    data = _sent(second)
    data.update({"browse_force": str(world.force.pk), "browse_search": "red 1"})
    data[f"side_{unit_named('Blue 12').pk}"] = "red"
    third = client.post(_url(world), {**data, "browse_page": "1"})
    shown = [Unit.objects.get(pk=pk).name for pk in _rows(third.content.decode())]
    assert shown[:2] == ["Blue 02", "Blue 12"]
    assert shown[2:] == ["Red 10", "Red 11", "Red 12", "Red 13", "Red 14"]
    kept = _sent(third)
    assert (kept[f"side_{pk}"], kept[f"x_{pk}"], kept[f"y_{pk}"], kept[f"order_{pk}"]) == (
        "red", "20", "20", "hold",
    )  # fmt: skip


def test_a_launch_from_a_paged_form_fields_every_unit_put_on_a_side_on_any_page(
    client, world, paged
):
    fill_forces(world, 20)
    login(client, world, "gm")
    page = client.get(_url(world), {"scenario": "crossroads", "browse_force": world.enemy.pk})
    data = _sent(page)
    data[f"side_{unit_named('Blue 01').pk}"] = "red"
    data = _sent(client.post(_url(world), {**data, "browse_page": "4"}))
    data[f"side_{unit_named('Blue 17').pk}"] = "red"
    data["browse_force"] = str(world.force.pk)
    data = _sent(client.post(_url(world), {**data, "browse_page": "2"}))
    data[f"side_{unit_named('Red 07').pk}"] = "blue"
    data[f"x_{unit_named('Red 07').pk}"], data[f"y_{unit_named('Red 07').pk}"] = "6", "3"
    checked = client.post(_url(world) + "check/", data).json()
    judged = {key: checked[key] for key in ("units", "general", "ok")}
    assert judged == {"units": {}, "general": [], "ok": True}, "the map's check reads it too"
    with mock.patch("battles.tasks.resolve_battle.delay"):
        launched = client.post(_url(world), data)
    assert launched.status_code == 302, launched.context["form"].errors
    battle = CampaignBattle.objects.latest("pk")
    assert {side: sorted(Unit.objects.get(pk=pk).name for pk in pks)
            for side, pks in battle.sides.items()} == {
        "blue": ["Red 07"], "red": ["Blue 01", "Blue 17"],
    }  # fmt: skip
    placed = {u["id"]: u["position"] for s in battle.battle.scenario["sides"] for u in s["units"]}
    engine = {pk: engine_id for engine_id, pk in battle.engine_units.items()}
    assert placed[engine[unit_named("Red 07").pk]] == [6.0, 3.0]


def test_a_paged_launch_with_a_unit_out_of_action_or_held_back_writes_nothing(client, world, paged):
    fill_forces(world, 20)
    Unit.objects.filter(name="Blue 03").update(status="destroyed")
    held = next(iter(world.table_battle.sides.values()))[0]
    login(client, world, "gm")
    data = _sent(client.get(_url(world), {"scenario": "crossroads"}))
    sides = {"Blue 03": "red", "Red 01": "blue", "Blue 01": "red"}
    data.update({f"side_{unit_named(name).pk}": side for name, side in sides.items()})
    data[f"side_{held}"] = "blue"
    before = (CampaignBattle.objects.count(), Battle.objects.count())
    with mock.patch("battles.tasks.resolve_battle.delay") as queued:
        refused = client.post(_url(world), data)
    assert refused.status_code == 400
    html = refused.content.decode()
    assert "Blue 03 (Blue Battalion) cannot fight: destroyed." in html
    assert "is still in Skirmish at the mill, whose outcome is not applied yet" in html
    assert (CampaignBattle.objects.count(), Battle.objects.count()) == before
    queued.assert_not_called()
    # The choices come back as they were sent, to be put right.
    assert _sent(refused)[f"side_{unit_named('Blue 01').pk}"] == "red"


def test_a_small_campaigns_launch_with_a_unit_gone_out_of_action_since_writes_nothing(
    client, world
):
    """Every unit is listed; one destroyed after the page was drawn is refused by name, as a
    paged form's is, rather than the battle being fought without it."""
    fill_forces(world, 3)
    login(client, world, "gm")
    data = _sent(client.get(_url(world), {"scenario": "crossroads"}))
    sides = {"Blue 02": "red", "Red 01": "blue", "Blue 01": "red"}
    data.update({f"side_{unit_named(name).pk}": side for name, side in sides.items()})
    Unit.objects.filter(name="Blue 02").update(status="destroyed")
    before = (CampaignBattle.objects.count(), Battle.objects.count())
    with mock.patch("battles.tasks.resolve_battle.delay") as queued:
        refused = client.post(_url(world), data)
    assert refused.status_code == 400
    assert "Blue 02 (Blue Battalion) cannot fight: destroyed." in refused.content.decode()
    assert (CampaignBattle.objects.count(), Battle.objects.count()) == before
    queued.assert_not_called()


def test_too_many_units_put_on_a_side_are_refused(client, world, paged, monkeypatch):
    monkeypatch.setattr(battle_setup, "CHOSEN_AT_MOST", 4)
    fill_forces(world, 20)
    login(client, world, "gm")
    data = _sent(client.get(_url(world), {"scenario": "crossroads"}))
    for n in range(1, 8):
        data[f"side_{unit_named(f'Blue {n:02}').pk}"] = "red"
    data[f"side_{unit_named('Red 01').pk}"] = "blue"
    refused = client.post(_url(world), data)
    assert refused.status_code == 400
    assert "More than 4 units were put on a side" in refused.content.decode()
    assert not CampaignBattle.objects.filter(name="Crossroads", state="running").exists()


def test_a_paged_set_up_counts_the_units_out_of_action_by_force_with_its_roster(
    client, world, paged
):
    fill_forces(world, 20)
    Unit.objects.filter(name__in=["Blue 03", "Blue 04"]).update(status="destroyed")
    Unit.objects.filter(name="Blue 05").update(status="retreated")
    login(client, world, "gm")
    html = client.get(_url(world), {"scenario": "crossroads"}).content.decode()
    roster = reverse("campaign:force", args=[world.campaign.pk, world.enemy.pk])
    assert (
        f'Out of action in <a href="{roster}">Blue Battalion</a>: 2 destroyed and '
        "1 retreated in poor order." in html
    )
    assert "Still in Skirmish at the mill, whose outcome is not applied yet: 2 units." in html


@pytest.mark.parametrize("page", ["battle-setup", "battle-record"])
def test_a_paged_form_says_a_force_has_no_unit_fit_as_a_small_ones_does_in_the_same_queries(
    client, world, paged, page
):
    """Blue Battalion's units all destroyed or held back: a paged form says so above its
    units in the small form's words (`units_offered.forces_unfit` of every unit), and the queries
    it costs do not grow with the units."""
    login(client, world, "gm")
    url = reverse(f"campaign:{page}", args=[world.campaign.pk])
    costs, said = [], []
    for count in (20, 200):
        Unit.objects.filter(name__regex=r"^(Red|Blue) [0-9]+$").delete()
        fill_forces(world, count)
        Unit.objects.filter(force=world.enemy).update(status="destroyed")
        # Held back in the battle whose outcome is not applied: "Still in ...".
        held = [pk for pks in world.table_battle.sides.values() for pk in pks]
        Unit.objects.filter(force=world.enemy, pk__in=held).update(status="ready")
        fighting = battle_setup.units_to_fight(campaign=world.campaign)
        (expected,) = units_offered.forces_unfit(
            fighting.free, fighting.out_of_action, fighting.engaged
        )
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url, {"scenario": "crossroads"})
        assert response.context["paged"] is not None
        html = unescape(response.content.decode())
        costs.append(len(queries))
        said.append(expected[1])
        assert f'<div class="notice notice-warning" role="note"><p>{expected[1]}</p></div>' in html
    assert said[0].startswith("Blue Battalion has no unit fit to fight. Destroyed: ")
    assert "Still in Skirmish at the mill, whose outcome is not applied yet: " in said[0]
    assert said[0] != said[1], said  # 20 and 200 units destroyed, each counted
    assert costs[0] == costs[1], costs
