"""A campaign with more units ready to fight than a page lists fights an engagement from a page
of them at a time, as a battle's set-up does: a few queries and rows whatever its size, the
units put on a side carried from page to page and every one of them in the fight."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from campaign.models import Engagement, HistoryEntry, Unit
from campaign.selectors import battle_setup
from tests.web.campaign_world import login
from tests.web.paging import fill_forces, rows_read, side_rows, unit_named

pytestmark = pytest.mark.django_db


def _url(world) -> str:
    return reverse("campaign:engagement-setup", args=[world.campaign.pk])


def _sent(response) -> dict[str, str]:
    """The form as the browser sends it back: sides chosen, boxes ticked, the page it shows."""
    form = response.context["form"]
    data = {"terrain": "open", "round_limit": "3", "seed": "4", "name": "A clash at the ford"}
    data["request_key"] = str(form["request_key"].value())
    data["browse_at"] = str(form.paged.number)
    data["browse_force"] = str(form.paged.force.pk) if form.paged.force else ""
    for name in form.fields:
        value = form[name].value()
        if name.startswith("side_") and value:
            data[name] = value
        elif value is True:
            data[name] = "on"
    return data


@pytest.mark.parametrize("count", [20, 200])
def test_a_big_campaigns_engagement_form_lists_a_page_in_the_same_few_queries_and_rows(
    client, world, paged, django_assert_max_num_queries, count
):
    fill_forces(world, count)
    login(client, world, "gm")
    with django_assert_max_num_queries(16), rows_read() as rows:
        response = client.get(_url(world))
    assert response.status_code == 200
    html = response.content.decode()
    assert len(side_rows(html)) == 5 and "Later units" in html
    assert rows[0] < 80, rows[0]


def test_an_engagement_from_a_paged_form_fights_every_unit_put_on_a_side(client, world, paged):
    fill_forces(world, 20)
    login(client, world, "gm")
    data = _sent(client.get(_url(world), {"browse_force": world.enemy.pk}))
    data[f"side_{unit_named('Blue 02').pk}"] = "defenders"
    data[f"dug_in_{unit_named('Blue 02').pk}"] = "on"
    data["browse_force"] = str(world.force.pk)
    second = client.post(_url(world), {**data, "browse_page": "3"})
    assert second.status_code == 200 and second.context["form"].errors == {}
    html = second.content.decode()
    assert side_rows(html)[0] == unit_named("Blue 02").pk and "Put on a side on other pages" in html
    data = _sent(second)
    assert data[f"dug_in_{unit_named('Blue 02').pk}"] == "on", "its ground kept too"
    data[f"side_{unit_named('Red 11').pk}"] = "attackers"
    # The GM reviews each outcome first: the review carries every unit put on a side, whatever
    # page it was put there from, and its Apply fights them all.
    review = client.post(_url(world), data)
    assert review.status_code == 302, review.context["form"].errors
    review = client.get(review["Location"])
    assert "Apply the outcome?" in review.text and not Engagement.objects.exists()
    data = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', review.text))
    fought = client.post(_url(world), data)
    assert fought.status_code == 302, fought.context["form"].errors
    record = Engagement.objects.latest("pk")
    names = {e["name"]: e["side"] for e in record.events if e["event"] == "unit"}
    assert names == {"Blue 02": "defenders", "Red 11": "attackers"}
    # Sent again (a double click): gone back to, fought once, whoever is out of action now.
    Unit.objects.filter(name="Blue 02").update(status="destroyed")
    again = client.post(_url(world), data)
    assert again.status_code == 302 and again["Location"] == fought["Location"]
    assert Engagement.objects.count() == 1


def test_a_paged_engagement_with_a_unit_out_of_action_writes_nothing(client, world, paged):
    fill_forces(world, 20)
    Unit.objects.filter(name="Blue 03").update(status="destroyed")
    login(client, world, "gm")
    data = _sent(client.get(_url(world)))
    data.update({f"side_{unit_named('Blue 03').pk}": "defenders",
                 f"side_{unit_named('Blue 01').pk}": "defenders",
                 f"side_{unit_named('Red 01').pk}": "attackers"})  # fmt: skip
    before = (Engagement.objects.count(), HistoryEntry.objects.count())
    refused = client.post(_url(world), data)
    assert refused.status_code == 400
    assert "Blue 03 (Blue Battalion) cannot fight: destroyed." in refused.content.decode()
    assert (Engagement.objects.count(), HistoryEntry.objects.count()) == before


def test_a_small_campaigns_engagement_form_still_lists_every_unit(client, world, monkeypatch):
    monkeypatch.setattr(battle_setup, "UNITS_A_PAGE", 5)
    fill_forces(world, 4)
    response = login(client, world, "gm").get(_url(world))
    assert response.context["form"].paged is None
    assert len(side_rows(response.content.decode())) == len(response.context["form"].units) >= 8
