"""A unit page's leader form and the campaign's characters: the form there names a leader without
feats who gives no Orders, so it leads the GM to the Characters page's join form, on the unit."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from campaign.services.characters import character_create
from tests.web.campaign_world import login

pytestmark = pytest.mark.django_db


def _join_field(page: str, name: str) -> str:
    """The ``name`` field of the Characters page's join form."""
    form = page.split('id="join-form"')[1].split("</form>")[0]
    return form.split(f'name="{name}"')[1].split("</select>")[0]


def test_it_leads_from_a_units_leader_form_to_the_join_form_on_that_unit(client, world):
    campaign, gm = world.campaign, world.users["gm"]
    ready = world.force.units.filter(status="ready").first()
    rook = character_create(campaign=campaign, name="Sgt. Rook", hit_points=9, actor=gm)
    login(client, world, "gm")
    page = client.get(reverse("campaign:unit", args=[campaign.pk, ready.pk])).text
    leader_form = page.split('id="leader-form"')[1].split("</form>")[0]
    join = f"{reverse('campaign:characters', args=[campaign.pk])}?unit={ready.pk}#join-form"
    assert f'<a href="{join}">joins {ready.name} on the Characters page</a>' in leader_form
    # The leader named here is said to be no character: no feats, no Orders.
    assert "without feats and give no Orders" in leader_form
    assert "A d20 Modern character takes command" not in leader_form
    # The link's form starts on the unit, and on the one character there is to choose.
    page = client.get(join.split("#")[0]).text
    assert re.search(rf'<option value="{ready.pk}" selected>', _join_field(page, "unit"))
    assert re.search(rf'<option value="{rook.pk}" selected>', _join_field(page, "character"))
    # An address naming no unit starts on none.
    for junk in ("abc", "9" * 30):
        page = client.get(f"{reverse('campaign:characters', args=[campaign.pk])}?unit={junk}")
        assert page.status_code == 200
        assert not re.search(r'value="\d+" selected>', _join_field(page.text, "unit"))


def test_it_offers_each_character_to_join_with_the_unit_it_leads_already(client, world):
    # A character leading a unit is refused a second until detached: the list said only its
    # name, so the GM learned it from the refusal, after choosing both.
    from campaign.services import leader_attach, unit_edit

    campaign, gm = world.campaign, world.users["gm"]
    ash, holt, _rook = (
        character_create(campaign=campaign, name=name, hit_points=9, actor=gm)
        for name in ("Lt. Ash", "Capt. Holt", "Sgt. Rook")
    )
    leader_attach(unit=world.enemy_unit, character=ash, actor=gm)
    # A survivor of the unit it led, destroyed, is free to lead another: its name alone.
    leader_attach(unit=world.unit, character=holt, actor=gm)
    unit_edit(unit=world.unit, changes={"status": "destroyed"}, reason="overrun", actor=gm)
    page = login(client, world, "gm").get(reverse("campaign:characters", args=[campaign.pk]))
    options = re.findall(r"<option [^>]*>([^<]+)</option>", _join_field(page.text, "character"))
    assert options[1:] == ["Capt. Holt", f"Lt. Ash (leads {world.enemy_unit.name})", "Sgt. Rook"]


def test_the_leads_column_names_the_force_of_the_unit_a_character_leads(client, world):
    # Two forces each with a "1st Squad": the column read "1st Squad" for both leaders.
    from campaign.models import Unit
    from campaign.services import leader_attach

    campaign, gm = world.campaign, world.users["gm"]
    Unit.objects.filter(pk__in=[world.unit.pk, world.enemy_unit.pk]).update(name="1st Squad")
    ash, bo = (
        character_create(campaign=campaign, name=name, hit_points=9, actor=gm)
        for name in ("Lt. Ash", "Sgt. Bo")
    )
    leader_attach(unit=Unit.objects.get(pk=world.unit.pk), character=ash, actor=gm)
    leader_attach(unit=Unit.objects.get(pk=world.enemy_unit.pk), character=bo, actor=gm)
    page = login(client, world, "gm").get(reverse("campaign:characters", args=[campaign.pk])).text
    leads = re.findall(r'<td data-label="Leads"><span>(.*?)</span></td>', page, re.S)
    words = [re.sub(r"<[^>]+>", "", cell) for cell in leads]
    assert f"1st Squad of {world.force.name}" in words
    assert f"1st Squad of {world.enemy.name}" in words
