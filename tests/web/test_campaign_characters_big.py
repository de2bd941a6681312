"""A campaign with more units ready than a page lists asks the Characters page's join, training
and rally forms for their unit by name rather than listing every unit on each form: a few
rows whatever the campaign's size, and a name the campaign has none of changes nothing."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from campaign.models import Leader, Unit
from campaign.services.characters import character_create
from tests.web.campaign_world import login
from tests.web.paging import fill_companies, rows_read, unit_named

pytestmark = pytest.mark.django_db

FORMS = ("join-form", "train-form", "rally-form")


def _url(world, what: str = "characters") -> str:
    return reverse(f"campaign:{what}", args=[world.campaign.pk])


def _form(html: str, form: str) -> str:
    return re.search(rf'<form id="{form}".*?</form>', html, re.S).group(0)


@pytest.mark.parametrize("count", [20, 400])
def test_a_big_campaigns_characters_page_lists_no_unit_on_its_forms(
    client, world, big, django_assert_max_num_queries, count
):
    fill_companies(world, count)
    character_create(campaign=world.campaign, name="Maj. Vance", hit_points=12,
                     feats=["strategist"], actor=world.users["gm"])  # fmt: skip
    login(client, world, "gm")
    with django_assert_max_num_queries(30), rows_read() as rows:
        response = client.get(_url(world))
    assert response.status_code == 200
    assert rows[0] < 150, rows[0]
    for name in FORMS:
        form = _form(response.text, name)
        assert "Squad 1-01" not in form
        assert re.search(r'<input type="text" name="unit"[^>]*maxlength="300"', form), name


def test_a_character_joins_the_unit_named(client, world, big):
    fill_companies(world, 20)
    vance = character_create(campaign=world.campaign, name="Maj. Vance", hit_points=12,
                             feats=["strategist"], actor=world.users["gm"])  # fmt: skip
    login(client, world, "gm")
    response = client.post(
        _url(world, "character-join"), {"character": vance.pk, "unit": "Squad 1-02"}
    )
    assert response.status_code == 302
    assert Leader.objects.get(character=vance).unit == unit_named("Squad 1-02")


def test_a_training_naming_no_unit_changes_nothing(client, world, big):
    fill_companies(world, 20)
    holt = character_create(campaign=world.campaign, name="Capt. Holt", hit_points=12,
                            feats=["special_forces"], actor=world.users["gm"])  # fmt: skip
    login(client, world, "gm")
    before = list(Unit.objects.values_list("version", flat=True))
    response = client.post(
        _url(world, "character-train"), {"character": holt.pk, "unit": "Grey 99"}
    )
    assert response.status_code == 400
    assert "No unit of the campaign is named “Grey 99”." in response.text
    assert list(Unit.objects.values_list("version", flat=True)) == before


def test_a_small_campaigns_characters_forms_still_list_the_units(client, world):
    fill_companies(world, 20)
    html = login(client, world, "gm").get(_url(world)).text
    for name in FORMS:
        assert "<option" in _form(html, name)
