"""Raising and training units from the pages: a unit raised from the library, several alike at once
each named with its number, with the specialty its card needs unless Raw, or told on its roster
line, page and cards that it lacks it; specialties beyond the quality refused next to the field; and
a unit trained one step, even when the form is sent twice, or told why it cannot be."""

from __future__ import annotations

import re

import pytest

from campaign.models import HistoryEntry, Unit
from campaign.services import unit_edit
from campaign.services.characters import character_create
from tests.web.campaign_world import login
from tests.web.test_campaign_actions_calendar import _field_errors, _ready, _url
from units.bucs import Quality

pytestmark = pytest.mark.django_db


def test_it_raises_a_unit_from_the_library(client, world):
    card = Unit.objects.get(pk=world.unit.pk).unit_type
    login(client, world, "gm")
    data = {"unit_type": card.pk, "name": "3rd Squad", "quality": "green",
            "equipment": "good", "specialties": ["infantry"]}  # fmt: skip
    response = client.post(_url("unit-add", world, world.force.pk), data)
    assert response.status_code == 302
    unit = Unit.objects.get(force=world.force, name="3rd Squad")
    assert unit.equipment == "good" and unit.history.get().kind == HistoryEntry.Kind.CREATED
    again = client.post(_url("unit-add", world, world.force.pk), data)
    assert again.status_code == 400
    assert "already has a unit called" in " ".join(_field_errors(again, "name"))


def test_a_unit_raised_with_no_specialty_ticked_takes_the_one_its_card_needs(client, world):
    """Left empty, the specialties are those the card needs (Armor with the Mechanized it
    requires), and the message says so; a unit raised without them is told it fights as Raw."""
    from units.models import UnitType

    tank = UnitType.objects.create(
        name="Battle Tank", ruleset=world.campaign.ruleset, kind=UnitType.Kind.UNIT,
        card=Unit.objects.get(pk=world.unit.pk).unit_type.card, specialty="armor",
    )  # fmt: skip
    login(client, world, "gm")
    data = {"unit_type": tank.pk, "name": "Tusk", "quality": "average", "equipment": "adequate"}
    response = client.post(_url("unit-add", world, world.force.pk), data, follow=True)
    assert Unit.objects.get(name="Tusk").specialties == ["mechanized", "armor"]
    assert (
        "Tusk joins Red Company, with the Armor specialty its card needs, and Mechanized, which "
        "Armor requires." in response.text
    )
    medics = {**data, "name": "Medics", "specialties": ["medical"]}
    response = client.post(_url("unit-add", world, world.force.pk), medics, follow=True)
    assert Unit.objects.get(name="Medics").specialties == ["medical"]
    assert (
        "Medics joins Red Company. Its card needs the Armor specialty, which it lacks: on that "
        "card it fights as Raw, with Poor kit." in response.text
    )


def test_a_unit_raised_without_its_cards_specialty_is_offered_the_way_to_give_it(client, world):
    # A Medical crew raised with Medical alone ticked, on a card that needs Infantry, fights
    # as Raw there: the message said so and no more, and the GM went looking for the unit and
    # its correction. One unit whose quality may hold both is offered that correction by link;
    # a Raw one, which may hold neither, is not.
    card = Unit.objects.get(pk=world.unit.pk).unit_type
    card.specialty = "infantry"
    card.save()
    login(client, world, "gm")
    data = {"unit_type": card.pk, "name": "Aid Station", "quality": "average",
            "equipment": "adequate", "specialties": ["medical"]}  # fmt: skip
    response = client.post(_url("unit-add", world, world.force.pk), data, follow=True)
    crew = Unit.objects.get(force=world.force, name="Aid Station")
    assert crew.specialties == ["medical"]
    correct = _url("unit", world, crew.pk) + "#edit-form"
    assert (
        "which it lacks: on that card it fights as Raw, with Poor kit. "
        f'<a href="{correct}">Correct Aid Station</a> to give it the Infantry specialty.'
    ) in response.text
    assert 'id="edit-form"' in client.get(_url("unit", world, crew.pk)).text
    raw = {**data, "name": "Levies", "quality": "raw", "specialties": []}
    response = client.post(_url("unit-add", world, world.force.pk), raw, follow=True)
    assert "Levies joins Red Company. Its card needs the Infantry specialty" in response.text
    assert "Correct Levies" not in response.text


def test_a_raw_unit_raised_with_no_specialty_ticked_is_raised_without_the_one_its_card_needs(
    client, world
):
    """A Raw unit holds no specialty, so left empty it is raised with none (and told it fights
    as Raw with Poor kit on its card), not refused for a specialty nobody ticked."""
    card = Unit.objects.get(pk=world.unit.pk).unit_type
    card.specialty = "infantry"
    card.save()
    login(client, world, "gm")
    data = {"unit_type": card.pk, "name": "Levies", "quality": "raw", "equipment": "adequate"}
    response = client.post(_url("unit-add", world, world.force.pk), data, follow=True)
    assert "was given" not in response.text
    assert Unit.objects.get(force=world.force, name="Levies").specialties == []
    assert (
        "Levies joins Red Company. Its card needs the Infantry specialty, which it lacks: on "
        "that card it fights as Raw, with Poor kit." in response.text
    )


def test_a_unit_lacking_its_cards_specialty_is_told_so_on_its_roster_line_page_and_cards(
    client, world
):
    """The add form names beside each card the specialty it needs; a unit raised without it
    says so lastingly, in the words its raising did: on the roster, its page, its printable
    card and the force's print sheet. A unit that holds it says nothing of it."""
    from units.models import UnitType

    card = UnitType.objects.get(name="Rifle Squad")
    card.specialty = "infantry"
    card.save()
    login(client, world, "gm")
    force_page = _url("force", world, world.force.pk)
    form = client.get(force_page).text.split('id="add-form"', 1)[1].split("</form>", 1)[0]
    assert f'<option value="{card.pk}">Rifle Squad (needs Infantry)</option>' in form
    assert re.search(r'<option value="\d+">Mech</option>', form)  # a card that needs none
    data = {"unit_type": card.pk, "name": "Doc Squad", "quality": "average",
            "equipment": "adequate", "specialties": ["medical"]}  # fmt: skip
    # The one-time message says it once (`unit_joins_text`); the pages say it from then on.
    client.post(_url("unit-add", world, world.force.pk), data, follow=True)
    unit = Unit.objects.get(name="Doc Squad")
    lacks = (
        "Its card needs the Infantry specialty, which it lacks: on that card it fights as Raw, "
        "with Poor kit."
    )
    pages = {
        "roster": force_page,
        "unit page": _url("unit", world, unit.pk),
        "card": _url("unit-card", world, unit.pk),
        "print sheet": _url("force-cards", world, world.force.pk),
    }
    for where, url in pages.items():
        text = re.sub(r"\s+", " ", client.get(url).text)
        assert text.count(lacks) == 1, where
    # The squads of the world hold Infantry: their pages say nothing of it.
    assert lacks not in client.get(_url("unit", world, world.unit.pk)).text


def test_several_units_are_raised_alike_at_once_each_named_with_its_number(client, world):
    card = Unit.objects.get(pk=world.unit.pk).unit_type
    login(client, world, "gm")
    data = {"unit_type": card.pk, "name": "Rifles", "count": "3", "quality": "green",
            "equipment": "adequate", "specialties": ["infantry"]}  # fmt: skip
    response = client.post(_url("unit-add", world, world.force.pk), data, follow=True)
    raised = Unit.objects.filter(force=world.force, name__startswith="Rifles").order_by("name")
    assert [u.name for u in raised] == ["Rifles 1", "Rifles 2", "Rifles 3"]
    assert {(u.quality, u.equipment) for u in raised} == {(raised[0].quality, "adequate")}
    assert "Rifles 1 to Rifles 3 join Red Company." in response.text
    # All or none: one name taken refuses them all, at the name, and writes nothing.
    again = client.post(_url("unit-add", world, world.force.pk), {**data, "count": "4"})
    assert again.status_code == 400
    assert "already has a unit called “Rifles 1”; choose another name" in " ".join(
        _field_errors(again, "name")
    )
    assert Unit.objects.filter(force=world.force, name__startswith="Rifles").count() == 3
    too_many = client.post(_url("unit-add", world, world.force.pk), {**data, "count": "21"})
    assert too_many.status_code == 400 and _field_errors(too_many, "count")


def test_it_refuses_specialties_beyond_the_quality_next_to_the_field(client, world):
    card = Unit.objects.get(pk=world.unit.pk).unit_type
    login(client, world, "gm")
    data = {"unit_type": card.pk, "name": "Overloaded", "quality": "raw", "equipment": "adequate",
            "specialties": ["infantry", "medical", "airborne", "arctic"]}  # fmt: skip
    response = client.post(_url("unit-add", world, world.force.pk), data)
    assert response.status_code == 400 and _field_errors(response, "specialties")
    assert not Unit.objects.filter(name="Overloaded").exists()


def test_it_trains_a_unit_and_says_why_it_cannot(client, world):
    unit = _ready(world, world.unit)
    login(client, world, "gm")
    url = _url("unit-train", world, unit.pk)
    page = client.get(_url("unit", world, unit.pk)).text
    assert "it has none alive" in page  # no character can train yet
    kane = character_create(campaign=world.campaign, name="Sgt. Kane", hit_points=10,
                            feats=["special_forces"])  # fmt: skip
    brute = character_create(campaign=world.campaign, name="Brute", hit_points=10)
    page = client.get(_url("unit", world, unit.pk)).text
    assert "Sgt. Kane" in page and "Brute" not in page  # only a trainer is offered
    assert _field_errors(client.post(url, {"character": ""}), "character")
    assert _field_errors(client.post(url, {"character": brute.pk}), "character")
    assert Unit.objects.get(pk=unit.pk).quality == unit.quality
    trained = client.post(url, {"character": kane.pk}, follow=True)
    assert trained.redirect_chain[0][1] == 302
    assert Unit.objects.get(pk=unit.pk).quality == unit.quality + 1
    before, after = (Quality(q).label for q in (unit.quality, unit.quality + 1))
    assert f"Sgt. Kane trained {unit.name}, which rose from {before} to {after}." in trained.text
    assert Unit.objects.get(pk=unit.pk).history.last().details["character"] == kane.pk
    unit_edit(unit=unit, changes={"quality": "elite"}, reason="x", actor=world.users["gm"])
    refused = client.post(url, {"character": kane.pk})
    assert refused.status_code == 400 and "Elite" in " ".join(_field_errors(refused, "__all__"))
    assert "quality:" not in refused.text  # the service's sentence, without its field key


def test_a_units_training_sent_twice_trains_it_one_step(client, world):
    unit = _ready(world, world.unit)
    kane = character_create(campaign=world.campaign, name="Sgt. Kane", hit_points=10,
                            feats=["special_forces"])  # fmt: skip
    login(client, world, "gm")
    page = client.get(_url("unit", world, unit.pk)).text
    key = re.search(r'id="train-form".*?name="request_key" value="([^"]+)"', page, re.S)[1]
    data = {"character": kane.pk, "request_key": key}
    first = client.post(_url("unit-train", world, unit.pk), data)
    again = client.post(_url("unit-train", world, unit.pk), data)
    assert first.status_code == again.status_code == 302
    assert Unit.objects.get(pk=unit.pk).quality == unit.quality + 1
    assert HistoryEntry.objects.filter(unit=unit, kind="training").count() == 1
