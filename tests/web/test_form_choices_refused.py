"""A choice a form's list does not hold, sent all the same (a character dead since the page was
drawn, a page drawn for another scenario, a tampered form), is refused naming the character or
unit and why, in the campaign's words: never Django's "Select a valid choice"."""

from __future__ import annotations

import re

import pytest

from campaign.models import Character
from campaign.services.characters import character_create
from tests.web.campaign_world import login
from tests.web.test_campaign_battles import _free_all, _setup_data, _url
from tests.web.test_table_pages import _table_units

pytestmark = pytest.mark.django_db


def _error(response, field: str) -> str:
    assert response.status_code == 400
    assert "Select a valid choice" not in response.text
    return re.search(rf'id="id_[a-z_]+_{field}_error">([^<]*)<', response.text)[1]


def test_a_character_not_offered_is_refused_by_name_and_why(client, world):
    _, retreated, ready = _table_units(world)
    gm = world.users["gm"]
    holt = character_create(campaign=world.campaign, name="Capt. Holt", hit_points=12,
                            feats=[], actor=gm)  # fmt: skip
    vance = character_create(campaign=world.campaign, name="Maj. Vance", hit_points=12,
                             feats=["strategist"], actor=gm)  # fmt: skip
    login(client, world, "gm")
    # Holt offers no training and no rally: he is neither Special Forces nor a Strategist.
    train = client.post(_url("character-train", world), {"character": holt.pk, "unit": ready.pk})
    assert _error(train, "character") == (
        "Capt. Holt is neither Special Forces nor a Strategist, so trains no unit."
    )
    rally = client.post(_url("character-rally", world), {"character": holt.pk,
                                                         "unit": retreated.pk})  # fmt: skip
    assert _error(rally, "character") == "Capt. Holt is not a Strategist, so heals no Morale hits."
    # Vance died in another tab since the page was drawn.
    Character.objects.filter(pk=vance.pk).update(alive=False)
    join = client.post(_url("character-join", world), {"character": vance.pk, "unit": ready.pk})
    assert _error(join, "character") == "Maj. Vance is dead."
    heal = client.post(_url("character-heal", world), {"character": vance.pk, "hit_points": "2"})
    assert _error(heal, "character") == "Maj. Vance is dead."
    order = client.post(_url("order-give", world), {"giver": vance.pk, "unit": ready.pk,
                                                    "kind": "hold"})  # fmt: skip
    assert _error(order, "giver") == "Maj. Vance is dead."
    assert _error(order, "kind") == (
        "“hold” is not one of the Orders table&#x27;s Orders; choose one from the list."
    )


def test_a_unit_rows_choice_its_list_does_not_hold_names_the_unit(client, world):
    units = _free_all(world)
    unit = units[0]
    label = f"{unit.name} ({unit.force.name})"
    login(client, world, "gm")
    setup = _setup_data(units, world)
    setup[f"side_{unit.pk}"] = "zz"
    said = _error(client.post(_url("battle-setup", world), setup), f"side_{unit.pk}")
    assert said == f"{label}: “zz” is not a side of this scenario; choose one from its list."
    record = {"name": "Hill 203", "day": "1", "side_a": "Red", "side_b": "Blue", "winner": "b"}
    for other in units:
        record.update({f"hits_lost_{other.pk}": "0", f"skill_lost_{other.pk}": "0",
                       f"removed_{other.pk}": "none"})  # fmt: skip
    record[f"removed_{unit.pk}"] = "vanished"
    said = _error(client.post(_url("battle-record", world), record), f"removed_{unit.pk}")
    assert said == (
        f"{label}: “vanished” is not a way a unit leaves the table; choose one from its list."
    )


def test_no_gm_form_between_battles_starts_a_choice_on_a_row_of_dashes(client, world):
    # Each choice says what to choose ("Choose a card"), as the GM reads it in a hurry.
    login(client, world, "gm")
    character_create(campaign=world.campaign, name="Capt. Holt", hit_points=12,
                     feats=["strategist"], actor=world.users["gm"])  # fmt: skip
    pages = ["dashboard", "characters", "orders", "checks", "engagement-setup"]
    urls = [_url(name, world) for name in pages]
    urls += [_url("force", world, world.force.pk), _url("unit", world, world.unit.pk)]
    for url in urls:
        html = client.get(url).text
        assert "<select" in html, url
        assert "---------" not in html, url


def test_a_trainer_or_strategist_list_with_nobody_in_it_says_why(client, world):
    # An empty list of trainers, or of Strategists, said nothing: the GM at the table opened it,
    # found no one, and had to guess that nobody of the campaign holds the class.
    gm = world.users["gm"]
    character_create(campaign=world.campaign, name="Capt. Holt", hit_points=12, feats=[],
                     actor=gm)  # fmt: skip
    login(client, world, "gm")
    page = client.get(_url("characters", world)).text
    trains = "Training is given by a Special Forces or Strategist character of the campaign, and"
    rallies = "A Morale hit is healed so by a Strategist character of the campaign, and it has none"
    assert trains in page and rallies in page
    # Once one is, the list holds them and says no more.
    character_create(campaign=world.campaign, name="Maj. Vance", hit_points=12,
                     feats=["strategist"], actor=gm)  # fmt: skip
    page = client.get(_url("characters", world)).text
    assert trains not in page and rallies not in page


def test_another_campaigns_force_card_or_character_is_refused_naming_the_field(client, world):
    # A force or character of another campaign (a tampered form, a page of the other campaign's
    # tab) read Django's "Select a valid choice. That choice is not one of the available
    # choices.", naming neither the field nor what was sent; nothing is rolled or raised.
    from campaign.models import TableRoll, Unit
    from campaign.services import campaign_create, force_create

    gm = world.users["gm"]
    elsewhere = campaign_create(name="Elsewhere", gm=gm, ruleset="combined_arms")
    their_force = force_create(campaign=elsewhere, owner=gm, name="Far Company")
    theirs = character_create(campaign=elsewhere, name="Col. Far", hit_points=12, feats=[],
                              actor=gm)  # fmt: skip
    ours = character_create(campaign=world.campaign, name="Capt. Holt", hit_points=12,
                            feats=[], actor=gm)  # fmt: skip
    card = Unit.objects.get(pk=world.unit.pk).unit_type
    units = Unit.objects.count()
    login(client, world, "gm")
    ask = {"force": their_force.pk, "unit_type": card.pk, "name": "Aces", "bonus": "0",
           "quality": "average", "equipment": "adequate", "character": ours.pk}  # fmt: skip
    refused = client.post(_url("requisition", world), ask)
    assert _error(refused, "force") == (
        f"“{their_force.pk}” is not one of the choices for “Force”; choose one from its list."
    )
    refused = client.post(
        _url("requisition", world),
        {**ask, "force": world.force.pk, "character": theirs.pk, "unit_type": "x"},
    )
    assert _error(refused, "character") == (
        f"“{theirs.pk}” is not one of the choices for “Requisitioned by”; choose one from its list."
    )
    assert _error(refused, "unit_type") == (
        "“x” is not one of the choices for “Card”; choose one from its list."
    )
    order = client.post(_url("order-give", world), {"giver": theirs.pk, "unit": world.unit.pk,
                                                    "kind": "attack"})  # fmt: skip
    assert _error(order, "giver") == (
        f"“{theirs.pk}” is not one of the choices for “Given by”; choose one from its list."
    )
    assert not TableRoll.objects.exists() and Unit.objects.count() == units
