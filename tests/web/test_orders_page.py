"""The GM's Orders form: who may give an Order, and what a new Order does to the one under
way, said before it is given and after."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from campaign.services import unit_create
from campaign.services.characters import character_create
from campaign.services.orders import order_give
from tests.web.campaign_world import login
from units.models import UnitType

pytestmark = pytest.mark.django_db


def _orders(world) -> str:
    return reverse("campaign:orders", args=[world.campaign.pk])


def test_without_a_living_character_the_form_says_who_gives_an_order_and_where_to_make_one(
    client, world
):
    page = login(client, world, "gm").get(_orders(world)).text
    characters = reverse("campaign:characters", args=[world.campaign.pk])
    notice = page.split('id="no-givers"', 1)[1].split("</p>", 1)[0]
    assert "Only a living character of the campaign gives an Order, and it has none" in notice
    assert f'href="{characters}#character-form"' in notice
    # Once there is one, the form just says who gives an Order.
    character_create(campaign=world.campaign, name="Lt. Ash", hit_points=9, actor=world.users["gm"])
    page = client.get(_orders(world)).text
    assert 'id="no-givers"' not in page
    assert "A living character of the campaign gives an Order" in page


def test_a_second_order_says_before_and_after_that_it_replaces_the_one_under_way(client, world):
    gm = world.users["gm"]
    ash = character_create(campaign=world.campaign, name="Lt. Ash", hit_points=9, actor=gm)
    card = UnitType.objects.get(name="Rifle Squad")
    unit, other = (
        unit_create(force=world.force, unit_type=card, name=name, specialties=["infantry"])
        for name in ("1st Squad", "2nd Squad")
    )
    first = order_give(giver=ash, unit=unit, kind="use_skill", listed_hours=12, actor=gm)
    login(client, world, "gm")
    page = client.get(_orders(world)).text
    form = page.split('id="order-form"', 1)[1]
    option = re.search(rf'<option value="{unit.pk}"[^>]*>([^<]*)</option>', form)[1]
    until = re.search(r"its Order to Use Skill, under way until (day \d+, \d\d:\d\d)$", option)
    assert until, f"the unit is offered with the Order it is under: {option}"
    assert re.search(rf'<option value="{other.pk}"[^>]*>2nd Squad \(Red Company\)</option>', form)
    assert "a new Order replaces the one under way" in page
    response = client.post(
        reverse("campaign:order-give", args=[world.campaign.pk]),
        {"giver": ash.pk, "unit": unit.pk, "kind": "attack"},
        follow=True,
    )
    assert response.status_code == 200
    said = re.sub(r"\s+", " ", response.text)
    assert f"Lt. Ash ordered {unit.name} to Attack: " in said
    assert f"; its Order to Use Skill, under way until {until[1]}, is replaced." in said
    first.refresh_from_db()
    assert first.replaced
    # An Order to a unit under none replaces nothing, and says nothing of it.
    response = client.post(
        reverse("campaign:order-give", args=[world.campaign.pk]),
        {"giver": ash.pk, "unit": other.pk, "kind": "attack"},
        follow=True,
    )
    assert f"Lt. Ash ordered {other.name} to Attack: " in response.text
    assert "is replaced" not in response.text
