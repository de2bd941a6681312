"""A campaign with more units ready than a page lists asks the Characters page's join, training
and rally forms for their unit by name rather than listing every unit on each form: a few
rows whatever the campaign's size, and a name the campaign has none of changes nothing."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.models import Character, Leader, Unit
from campaign.pages.finder import FOUND_A_PAGE
from campaign.selectors.battle_setup import LIST_EVERY_UNIT
from campaign.services.characters import character_create
from tests.web.campaign_world import login
from tests.web.paging import fill_companies, link, rows_read, unit_named

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


def _enlist(world, count: int) -> None:
    """``count`` more NPC characters, "Sgt. 001"…, none leading a unit."""
    Character.objects.bulk_create(
        Character(campaign=world.campaign, name=f"Sgt. {n:03}", hit_points=8, max_hit_points=8)
        for n in range(1, count + 1)
    )


def _listed(html: str) -> list[str]:
    table = html.split('<table id="characters"', 1)[1].split("</table>", 1)[0]
    return re.findall(r'<th scope="row">([^<]+)', table)


def _visit(client, world, query: str = "") -> tuple[str, int]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(_url(world) + query)
    assert response.status_code == 200
    return response.text, len(queries)


def test_a_campaign_with_many_characters_lists_a_page_of_them_in_the_same_queries(client, world):
    login(client, world, "gm")
    small, _ = _visit(client, world)
    assert 'id="id_find_q"' not in small and "Later characters" not in small  # as it was
    costs = []
    for count in (LIST_EVERY_UNIT + 50, LIST_EVERY_UNIT * 3):
        Character.objects.filter(name__startswith="Sgt. ").delete()
        _enlist(world, count)
        page, queries = _visit(client, world)
        assert len(_listed(page)) == FOUND_A_PAGE
        # Its forms ask a character by name rather than list hundreds of them each.
        for name in ("join-form", "heal-form"):
            form = _form(page, name)
            assert "Sgt. 001" not in form
            assert re.search(r'<input type="text" name="character"[^>]*maxlength="200"', form)
        costs.append((queries, len(page)))
    (few, small_size), (many, big_size) = costs
    assert few == many
    assert big_size < small_size * 1.05
    assert "Characters 1 to 50 of " in page and 'id="id_find_q"' in page
    later = link(page, "Later characters")
    assert later == "?page=2"
    second, _ = _visit(client, world, later)
    assert "Characters 51 to 100 of " in second and link(second, "Earlier characters") == "?"


def test_a_few_characters_more_than_a_page_are_still_offered_in_a_list(client, world):
    _enlist(world, FOUND_A_PAGE + 10)
    page, _ = _visit(login(client, world, "gm"), world)
    assert len(_listed(page)) == FOUND_A_PAGE and 'id="id_find_q"' in page
    assert ">Sgt. 060 (8 of 8 hit points)</option>" in _form(page, "heal-form")


def test_a_character_typed_by_name_is_healed_and_a_wrong_name_is_refused(client, world):
    _enlist(world, LIST_EVERY_UNIT + 5)
    login(client, world, "gm")
    url = _url(world, "character-heal")
    Character.objects.filter(name="Sgt. 007").update(hit_points=2)
    refused = client.post(url, {"character": "Sgt. 999", "hit_points": 3}).text
    assert "No character of the campaign is named “Sgt. 999”." in refused
    Character.objects.filter(name="Sgt. 008").update(alive=False)
    assert "Sgt. 008 is dead" in client.post(url, {"character": "sgt. 008", "hit_points": 3}).text
    client.post(url, {"character": " sgt. 007 ", "hit_points": 3})
    assert Character.objects.get(name="Sgt. 007").hit_points == 5


def test_the_gm_finds_a_character_by_name_or_by_the_unit_it_leads(client, world):
    _enlist(world, FOUND_A_PAGE * 3)
    vance = character_create(campaign=world.campaign, name="Maj. Vance", hit_points=12,
                             actor=world.users["gm"])  # fmt: skip
    Leader.objects.filter(unit=world.unit).delete()
    Leader.objects.create(unit=world.unit, character=vance, name=vance.name, hit_points=12)
    login(client, world, "gm")
    page, _ = _visit(client, world, "?q=vANCE")
    assert [name.strip() for name in _listed(page)] == ["Maj. Vance"]
    assert "1 character with “vANCE” in its name or its unit’s." in page
    assert 'value="vANCE"' in page and "Show every character" in page
    by_unit, _ = _visit(client, world, "?q=" + world.unit.name)
    assert any(name.startswith("Maj. Vance") for name in _listed(by_unit))
    assert "No character matches." in _visit(client, world, "?q=nobody")[0]
    some, _ = _visit(client, world, "?q=Sgt. 1")  # Sgt. 100 to 150
    assert "51 characters with “Sgt. 1” in their name or their unit’s: 1 to 50 of 51." in some
    assert link(some, "Later characters") == "?q=Sgt.+1&page=2"


def test_the_characters_pages_forms_asking_a_name_point_to_its_list_not_to_itself(client, world):
    _enlist(world, LIST_EVERY_UNIT + 5)
    character_create(campaign=world.campaign, name="Maj. Vance", hit_points=12,
                     feats=["strategist"], actor=world.users["gm"])  # fmt: skip
    login(client, world, "gm")
    page, _ = _visit(client, world)
    assert "as the Characters page gives it" not in page
    for name in ("join-form", "heal-form", "train-form", "rally-form"):
        assert "Their name, as the list above gives it." in _form(page, name), name
    # Sent back with its error, the form says the same.
    refused = client.post(_url(world, "character-heal"), {"character": "Sgt. 999",
                                                          "hit_points": 3}).text  # fmt: skip
    assert "No character of the campaign is named" in refused
    assert "Their name, as the list above gives it." in _form(refused, "heal-form")
    # Another page's form still leads to the Characters page.
    checks = client.get(_url(world, "checks")).text
    assert "Their name, as the Characters page gives it." in _form(checks, "requisition-form")
