"""The GM's Order form names, beside each character it offers, the units that character orders:
a player's character orders its player's forces and the unit it leads, an NPC any unit
(`access.command_refused`): the GM learns it before choosing a unit, not from a refusal."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from campaign.services import leader_attach, unit_create, unit_edit
from campaign.services.characters import character_create
from tests.web.campaign_world import login

pytestmark = pytest.mark.django_db


def _givers(page: str) -> list[str]:
    form = page.split('id="order-form"', 1)[1].split("</form>", 1)[0]
    select = form.split('name="giver"', 1)[1].split("</select>", 1)[0]
    return [
        html.unescape(label) for label in re.findall(r'<option value="\d+"[^>]*>([^<]*)<', select)
    ]


def test_it_offers_each_giver_with_the_units_it_orders(client, world):
    campaign, gm = world.campaign, world.users["gm"]
    character_create(campaign=campaign, name="Sgt. Rook", hit_points=9, actor=gm)
    ash = character_create(
        campaign=campaign, name="Lt. Ash", hit_points=9, player=world.users["player"], actor=gm
    )
    character_create(
        campaign=campaign, name="Maj. Kite", hit_points=9, player=world.users["rival"], actor=gm
    )
    # Ash at the head of a unit of the rival's force: that unit is Ash's to order too.
    card = world.enemy_unit.unit_type
    led = unit_create(
        force=world.enemy, unit_type=card, name="Lone Wolf", specialties=["mechanized"]
    )
    leader_attach(unit=led, character=ash, actor=gm)
    page = login(client, world, "gm").get(reverse("campaign:orders", args=[campaign.pk])).text
    assert _givers(page) == [
        f"Lt. Ash (player's: orders {world.force.name} and Lone Wolf)",
        f"Maj. Kite (rival's: orders {world.enemy.name})",
        "Sgt. Rook (NPC: orders any unit)",
    ]
    # A player's own form offers their characters by name: the units are theirs.
    page = login(client, world, "player").get(reverse("campaign:orders", args=[campaign.pk]))
    assert _givers(page.text) == ["Lt. Ash"]


def test_a_giver_at_the_head_of_a_destroyed_unit_is_offered_without_it(client, world):
    """A player's character who led another force's unit, destroyed since, orders no more than
    its player's forces: the destroyed unit takes no Order."""
    campaign, gm = world.campaign, world.users["gm"]
    ash = character_create(
        campaign=campaign, name="Lt. Ash", hit_points=9, player=world.users["player"], actor=gm
    )
    card = world.enemy_unit.unit_type
    led = unit_create(
        force=world.enemy, unit_type=card, name="Lone Wolf", specialties=["mechanized"]
    )
    leader_attach(unit=led, character=ash, actor=gm)
    unit_edit(unit=led, changes={"status": "destroyed"}, reason="overrun", actor=gm)
    page = login(client, world, "gm").get(reverse("campaign:orders", args=[campaign.pk])).text
    assert _givers(page) == [f"Lt. Ash (player's: orders {world.force.name})"]
