"""What the table's forms offer and refuse, as the GM and the players read them on the
Characters, Orders and Checks pages (`campaign.table_forms`), and what another campaign's GM
finds of this campaign's records there: nothing."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from campaign.models import Character, Leader
from campaign.services import leader_attach, unit_edit
from campaign.services.characters import character_create
from tests.web.campaign_world import login
from tests.web.test_forms_left_out import _left_out
from tests.web.test_table_pages import _offered, _table_units

pytestmark = pytest.mark.django_db


def _page(client, world, name: str) -> str:
    return client.get(reverse(f"campaign:{name}", args=[world.campaign.pk])).text


def test_a_unit_whose_leader_died_is_offered_a_new_one(client, world):
    """A unit keeps its fallen leader at its head, dead: it leads it no more, so the join form
    offers the unit a new leader, where one led by a living character is left out."""
    _, _, ready = _table_units(world)
    gm = world.users["gm"]
    reyes = character_create(campaign=world.campaign, name="Lt. Ada Reyes", hit_points=9,
                             actor=gm)  # fmt: skip
    leader_attach(unit=ready, character=reyes, actor=gm)
    label = f"{ready.name} ({ready.force.name})"
    login(client, world, "gm")
    assert label not in _offered(_page(client, world, "characters"), "join-form", "unit")
    Leader.objects.filter(character=reyes).update(hit_points=-12, alive=False)
    Character.objects.filter(pk=reyes.pk).update(hit_points=-12, alive=False)
    assert label in _offered(_page(client, world, "characters"), "join-form", "unit")


@pytest.fixture
def elsewhere(world):
    """A second campaign, run by a GM who has no part in the world's."""
    from campaign.services import campaign_create

    return campaign_create(name="Elsewhere", gm=world.users["outsider"], ruleset="combined_arms")


def test_a_gm_cannot_call_off_an_order_of_another_campaign(client, world, elsewhere):
    from campaign.models import Order
    from campaign.services.orders import order_give

    gm = world.users["gm"]
    rowan = character_create(campaign=world.campaign, name="Lt. Rowan", hit_points=13, actor=gm)
    _, _, ready = _table_units(world)
    order = order_give(giver=rowan, unit=ready, kind="attack", actor=gm)
    login(client, world, "outsider")
    url = reverse("campaign:order-call-off", args=[elsewhere.pk])
    response = client.post(url, {"order": order.pk})
    assert response.status_code == 400
    assert "That Order is not one of this campaign&#x27;s." in response.text
    assert Order.objects.get(pk=order.pk).called_off_at is None


def test_the_training_form_says_an_experienced_unit_is_as_high_as_training_goes(client, world):
    _, _, ready = _table_units(world)
    gm = world.users["gm"]
    character_create(campaign=world.campaign, name="Maj. Kane", hit_points=12,
                     feats=["special_forces"], actor=gm)  # fmt: skip
    unit_edit(unit=ready, changes={"quality": "experienced"}, reason="veterans", actor=gm)
    login(client, world, "gm")
    page = _page(client, world, "characters")
    label = f"{ready.name} ({ready.force.name})"
    assert label not in _offered(page, "train-form", "unit")
    assert f"Experienced: training raises a unit to Experienced at most: {label}." in _left_out(
        page, "train-form"
    )


def test_a_campaign_with_as_many_ready_units_as_a_form_lists_still_lists_them(
    client, world, monkeypatch
):
    """Up to `battle_setup.LIST_EVERY_UNIT` ready units the table's forms list them, that many
    included; one more and the GM types the unit's name."""
    from campaign.selectors import battle_setup
    from campaign.selectors.battle_setup import ready_count

    _, _, ready = _table_units(world)
    monkeypatch.setattr(battle_setup, "LIST_EVERY_UNIT", ready_count(campaign=world.campaign))
    login(client, world, "gm")
    label = f"{ready.name} ({ready.force.name})"
    assert _offered(_page(client, world, "orders"), "order-form", "unit") == [label]
    monkeypatch.setattr(battle_setup, "LIST_EVERY_UNIT", ready_count(campaign=world.campaign) - 1)
    form = _page(client, world, "orders").split('id="order-form"')[1].split("</form>")[0]
    assert '<select name="unit"' not in form and 'name="unit"' in form


def test_a_check_with_as_many_ready_units_as_it_lists_still_lists_them(client, world, monkeypatch):
    """Up to `CHECK_LISTS_AT_MOST` ready units a check's fields list them, that many included;
    one more and its unit is typed, the ready ones suggested."""
    from campaign.selectors.battle_setup import ready_count
    from campaign.table_forms import check_fields

    _, _, ready = _table_units(world)
    count = ready_count(campaign=world.campaign)
    monkeypatch.setattr(check_fields, "CHECK_LISTS_AT_MOST", count)
    login(client, world, "gm")
    label = f"{ready.name} ({ready.force.name})"
    assert _offered(_page(client, world, "checks"), "skill-form", "lead") == [label]
    monkeypatch.setattr(check_fields, "CHECK_LISTS_AT_MOST", count - 1)
    form = _page(client, world, "checks").split('id="skill-form"')[1].split("</form>")[0]
    assert '<select name="lead"' not in form and f'list="{check_fields.CHECK_UNITS_LIST}"' in form


def test_a_campaign_with_as_many_living_characters_as_a_form_lists_still_lists_them(
    client, world, monkeypatch
):
    from campaign.selectors import battle_setup

    gm = world.users["gm"]
    for name in ("Lt. Ash", "Sgt. Birch"):
        character_create(campaign=world.campaign, name=name, hit_points=10, actor=gm)
    monkeypatch.setattr(battle_setup, "LIST_EVERY_UNIT", 2)
    login(client, world, "gm")
    form = _page(client, world, "characters").split('id="heal-form"')[1].split("</form>")[0]
    assert '<select name="character"' in form
    assert "Lt. Ash (10 of 10 hit points)" in form
    monkeypatch.setattr(battle_setup, "LIST_EVERY_UNIT", 1)
    form = _page(client, world, "characters").split('id="heal-form"')[1].split("</form>")[0]
    assert '<select name="character"' not in form and 'name="character"' in form


def test_a_unit_sent_to_join_that_a_living_character_leads_is_refused_naming_its_leader(
    client, world
):
    """Sent from a page drawn before another character took the unit's head, the join is
    refused by the unit's name and who leads it, and the character stays where it was."""
    _, _, ready = _table_units(world)
    gm = world.users["gm"]
    reyes = character_create(campaign=world.campaign, name="Lt. Ada Reyes", hit_points=9,
                             actor=gm)  # fmt: skip
    kane = character_create(campaign=world.campaign, name="Sgt. Kane", hit_points=9, actor=gm)
    leader_attach(unit=ready, character=reyes, actor=gm)
    login(client, world, "gm")
    url = reverse("campaign:character-join", args=[world.campaign.pk])
    response = client.post(url, {"character": kane.pk, "unit": ready.pk})
    assert response.status_code == 400
    assert (
        f"{ready.name} ({ready.force.name}) cannot take a leader: Lt. Ada Reyes leads it already"
        in response.text
    )
    assert not Leader.objects.filter(character=kane).exists()


def test_a_character_typed_by_name_in_another_case_is_found_only_when_one_name_fits(
    client, world, monkeypatch
):
    """A campaign with more living characters than a form lists asks them by name: one typed
    in another case is found when only one name fits it, and refused when two do."""
    from campaign.selectors import battle_setup

    gm = world.users["gm"]
    ash = character_create(campaign=world.campaign, name="Lt. Ash", hit_points=12, actor=gm)
    character_create(campaign=world.campaign, name="Sgt. Birch", hit_points=12, actor=gm)
    Character.objects.filter(pk=ash.pk).update(hit_points=3)
    monkeypatch.setattr(battle_setup, "LIST_EVERY_UNIT", 1)
    login(client, world, "gm")
    url = reverse("campaign:character-heal", args=[world.campaign.pk])
    heal = {"hit_points": "2", "reason": "rests a night"}
    assert client.post(url, {**heal, "character": "lt. ash"}).status_code == 302
    assert Character.objects.get(pk=ash.pk).hit_points == 5
    character_create(campaign=world.campaign, name="LT. ASH", hit_points=12, actor=gm)
    refused = client.post(url, {**heal, "character": "lt. ash"})
    assert refused.status_code == 400
    assert "No character of the campaign is named “lt. ash”." in refused.text
    assert Character.objects.get(pk=ash.pk).hit_points == 5


def test_a_requisition_kept_before_its_bonus_was_asked_again_with_none(client, world):
    """A refused Requisition kept before its roll held the character's bonus comes back to the
    form with a bonus of 0, which is what it rolled with."""
    from campaign.models import TableRoll, Unit
    from campaign.services.checks import requisition_run

    card = Unit.objects.get(pk=world.unit.pk).unit_type
    roll = requisition_run(force=world.force, unit_type=card, name="Heroes", quality="experienced",
                           equipment="excellent", specialties=["infantry"], bonus=-40, seed=1,
                           actor=world.users["gm"])  # fmt: skip
    assert not roll.result["success"]
    TableRoll.objects.filter(pk=roll.pk).update(
        setup={k: v for k, v in roll.setup.items() if k != "bonus"}
    )
    login(client, world, "gm")
    url = reverse("campaign:checks", args=[world.campaign.pk])
    form = client.get(f"{url}?again={roll.pk}").text.split('id="requisition-form"')[1]
    form = form.split("</form>")[0]
    assert 'value="Heroes"' in form
    assert re.search(r'<input type="number" name="bonus" value="0"', form)


def test_a_requisition_offers_and_takes_only_the_cards_of_the_campaigns_ruleset(client, world):
    from campaign.models import Unit
    from units.models import Ruleset, UnitType

    card = Unit.objects.get(pk=world.unit.pk).unit_type
    other = UnitType.objects.create(name="Zaku II", ruleset=Ruleset.ONE_YEAR_WAR,
                                    kind=UnitType.Kind.UNIT, card=card.card)  # fmt: skip
    login(client, world, "gm")
    page = _page(client, world, "checks")
    form = page.split('id="requisition-form"')[1].split("</form>")[0]
    assert card.name in form and "Zaku II" not in form
    url = reverse("campaign:requisition", args=[world.campaign.pk])
    asked = {"force": world.force.pk, "unit_type": other.pk, "name": "Stray", "quality": "green",
             "equipment": "adequate", "specialties": ["infantry"], "bonus": "40"}  # fmt: skip
    assert client.post(url, asked).status_code == 400
    assert not world.force.units.filter(name="Stray").exists()


def test_an_engagement_of_another_campaign_is_not_found_there(client, world, elsewhere):
    """The GM of another campaign who puts this campaign's engagement under their own reads
    nothing of it and reverts nothing: no such engagement there."""
    from campaign.models import Engagement
    from tests.web.test_campaign_access import ENGAGEMENT

    engagement = ENGAGEMENT(world)
    login(client, world, "outsider")
    url = reverse("campaign:engagement", args=[elsewhere.pk, engagement])
    assert client.get(url).status_code == 404
    revert = reverse("campaign:engagement-revert", args=[elsewhere.pk, engagement])
    assert client.post(revert, {"reason": "mine now"}).status_code == 404
    assert Engagement.objects.get(pk=engagement).state == Engagement.State.APPLIED


def test_the_join_form_offers_the_survivor_of_a_destroyed_unit_as_leading_nothing(client, world):
    """A character at the head of a unit is offered to join another as leading it; the survivor
    of a unit destroyed since leads nothing, and is offered by name alone."""
    _, _, ready = _table_units(world)
    gm = world.users["gm"]
    reyes = character_create(campaign=world.campaign, name="Lt. Ada Reyes", hit_points=9,
                             actor=gm)  # fmt: skip
    leader_attach(unit=ready, character=reyes, actor=gm)
    login(client, world, "gm")

    def offered() -> list[str]:
        form = _page(client, world, "characters").split('id="join-form"')[1]
        select = form.split('name="character"')[1].split("</select>")[0]
        return re.findall(r'<option value="\d+"[^>]*>([^<]*)</option>', select)

    assert offered() == [f"Lt. Ada Reyes (leads {ready.name})"]
    unit_edit(unit=ready, changes={"status": "destroyed"}, reason="overrun", actor=gm)
    assert offered() == ["Lt. Ada Reyes"]


def test_a_trainer_typed_by_name_who_trains_no_unit_is_refused_by_the_form(
    client, world, monkeypatch
):
    from campaign.selectors import battle_setup

    _, _, ready = _table_units(world)
    gm = world.users["gm"]
    character_create(campaign=world.campaign, name="Maj. Kane", hit_points=12,
                     feats=["special_forces"], actor=gm)  # fmt: skip
    character_create(campaign=world.campaign, name="Sgt. Birch", hit_points=12, actor=gm)
    monkeypatch.setattr(battle_setup, "LIST_EVERY_UNIT", 1)
    login(client, world, "gm")
    url = reverse("campaign:character-train", args=[world.campaign.pk])
    unit = f"{ready.name} ({ready.force.name})"
    refused = client.post(url, {"character": "Sgt. Birch", "unit": unit})
    assert refused.status_code == 400
    assert "Sgt. Birch is neither Special Forces nor a Strategist, so trains no unit" in (
        refused.text
    )
    assert not ready.history.filter(kind="training").exists()


def test_a_check_that_lists_its_units_suggests_no_names_to_type(client, world, monkeypatch):
    from campaign.selectors.battle_setup import ready_count
    from campaign.table_forms import check_fields

    _, _, ready = _table_units(world)
    login(client, world, "gm")
    listed = _page(client, world, "checks")
    assert f'<datalist id="{check_fields.CHECK_UNITS_LIST}">' not in listed
    monkeypatch.setattr(
        check_fields, "CHECK_LISTS_AT_MOST", ready_count(campaign=world.campaign) - 1
    )
    typed = _page(client, world, "checks")
    suggested = typed.split(f'<datalist id="{check_fields.CHECK_UNITS_LIST}">')[1]
    assert (
        f'<option value="{ready.name} ({ready.force.name})">' in suggested.split("</datalist>")[0]
    )
