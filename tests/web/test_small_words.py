"""Smaller page words: who may train or rally, one form for hit points, a way to log out from
a page not found, the username on the phone."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse

from campaign.services.characters import character_create
from campaign.services.roster import leader_attach
from tests.web.campaign_world import login

pytestmark = pytest.mark.django_db


def test_trainer_and_strategist_offer_only_characters_who_can(client, world):
    gm = world.users["gm"]
    strategist = character_create(campaign=world.campaign, name="Capt. Holt", hit_points=12,
                                  feats=["strategist"], actor=gm)  # fmt: skip
    plain = character_create(campaign=world.campaign, name="Pvt. Bloggs", hit_points=8, actor=gm)
    page = login(client, world, "gm").get(reverse("campaign:characters", args=[world.campaign.pk]))
    train = page.context["train_form"].fields["character"].queryset
    rally = page.context["rally_form"].fields["character"].queryset
    assert strategist in rally and plain not in rally
    assert plain not in train


def test_a_leaders_hit_points_read_as_a_characters_do(client, world):
    gm = world.users["gm"]
    holt = character_create(campaign=world.campaign, name="Capt. Holt", hit_points=12, actor=gm)
    leader_attach(unit=world.unit, character=holt, actor=gm)
    login(client, world, "gm")
    unit = client.get(reverse("campaign:unit", args=[world.campaign.pk, world.unit.pk])).text
    characters = client.get(reverse("campaign:characters", args=[world.campaign.pk])).text
    assert "Capt. Holt, 12 of 12 hit points" in unit
    assert "12 of 12 hit points" in characters


def test_a_page_not_found_offers_a_way_to_log_out(client, world):
    login(client, world, "player")
    missing = client.get("/campaigns/999999/")
    assert missing.status_code == 404
    confirm = reverse("logout-confirm")
    assert f'href="{confirm}">Log out</a>' in missing.text
    page = client.get(confirm)
    assert page.status_code == 200 and 'action="/accounts/logout/"' in page.text


def test_the_phone_header_keeps_the_username():
    css = Path(__file__).resolve().parents[2] / "campaign/static/bridgehead/bridgehead.css"
    assert ".site-header nav > span { display: none; }" not in css.read_text()
