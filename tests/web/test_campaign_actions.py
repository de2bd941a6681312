"""The GM's actions on the campaign pages: each works as a plain POST and under htmx, puts a
service's complaint next to its field, and never answers 500."""

from __future__ import annotations

import re
import uuid

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaign.models import Campaign, Engagement, HistoryEntry, Unit
from campaign.services import (
    campaign_create,
    campaign_update,
    leader_attach,
    unit_create,
    unit_edit,
)
from campaign.services.characters import character_create
from tests.web.campaign_world import login, raise_units
from tests.web.pages import as_drawn
from units.bucs import Quality

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def _url(name, world, *args):
    return reverse(f"campaign:{name}", args=[world.campaign.pk, *args])


def _ready(world, unit):
    unit_edit(unit=unit, changes={"status": "ready", "morale_hits": 0, "casualty_hits": 0},
              reason="fresh", actor=world.users["gm"])  # fmt: skip
    return Unit.objects.get(pk=unit.pk)


def _applied_at_once(world):
    """The campaign applies each outcome at once (the world's GM reviews them first)."""
    campaign_update(campaign=world.campaign, apply_mode="auto", actor=world.users["gm"])


FORMS = (
    "create_form",
    "invitation_form",
    "member_form",
    "force_form",
    "advance_form",
    "quick_form",
    "add_form",
    "medical_form",
    "edit_form",
    "train_form",
    "zone_form",
    "leader_form",
    "detach_form",
    "revert_form",
    "form",
)


def _field_errors(response, field):
    """The errors shown next to ``field`` in whichever form the page was re-rendered with."""
    for key in FORMS:
        form = response.context.get(key)
        if form is not None and field in form.errors:
            return form.errors[field]
    return []


def test_it_advances_the_calendar_and_goes_back_to_the_dashboard(client, world):
    login(client, world, "gm")
    review = client.get(_url("advance", world), {"days": "2", "reason": "rain"})
    assert review.status_code == 200 and "Advance to day 3" in review.text
    assert Campaign.objects.get(pk=world.campaign.pk).day == 1  # a review writes nothing
    unconfirmed = client.post(_url("advance", world), {"days": "2", "reason": "rain"})
    assert unconfirmed.status_code == 302 and "days=2" in unconfirmed["Location"]
    assert Campaign.objects.get(pk=world.campaign.pk).day == 1
    response = client.post(
        _url("advance", world), {"days": "2", "reason": "rain", "confirm": "yes", "reviewed_at": 0}
    )
    # Post, then redirect: a reload of the summary advances nothing.
    assert response.status_code == 302
    assert response["Location"].startswith(_url("advance-summary", world) + "?days=2&to=3&")
    assert Campaign.objects.get(pk=world.campaign.pk).day == 3
    summary = client.get(response["Location"])
    assert summary.status_code == 200 and "It is now day 3" in summary.text
    assert "The calendar moved on 2 days, to day 3." in summary.text
    assert 'href="' + _url("dashboard", world) + '"' in summary.text
    # Named as every page names the way back: no page is headed "dashboard".
    assert ">Back to the campaign</a>" in summary.text and "dashboard" not in summary.text
    assert client.get(response["Location"]).status_code == 200
    assert Campaign.objects.get(pk=world.campaign.pk).day == 3


def test_a_confirmed_advance_under_htmx_loads_the_summary_page(client, world):
    login(client, world, "gm")
    response = client.post(
        _url("advance", world), {"days": "1", "confirm": "yes", "reviewed_at": 0}, **HTMX
    )
    assert response.status_code == 200
    assert response["HX-Redirect"].startswith(_url("advance-summary", world) + "?days=1&to=2&")


def test_a_malformed_advance_summary_is_not_found(client, world):
    login(client, world, "gm")
    for query in ("", "?days=1&to=2&after=x&upto=3", "?days=0&to=2&after=0&upto=3"):
        assert client.get(_url("advance-summary", world) + query).status_code == 404, query


def test_it_answers_htmx_with_a_redirect_for_htmx(client, world):
    login(client, world, "co_gm")
    response = client.post(_url("advance", world), {"days": "1"}, **HTMX)
    assert response.status_code == 200
    assert response["HX-Redirect"] == _url("advance", world) + "?days=1&reason="


def test_it_puts_a_bad_day_count_next_to_the_field(client, world):
    login(client, world, "gm")
    response = client.post(_url("advance", world), {"days": "0"})
    assert response.status_code == 400
    assert _field_errors(response, "days") == ["At least 1 day."]
    # The page opens on the field at fault (autofocus), which its errors describe.
    field = re.search(r'<input[^>]*id="id_advance_days"[^>]*>', response.text)[0]
    assert "autofocus" in field and 'aria-invalid="true"' in field
    assert 'aria-describedby="id_advance_days_error"' in field
    partial = client.post(_url("advance", world), {"days": "many"}, **HTMX)
    assert partial.status_code == 200 and 'id="advance-form"' in partial.text
    assert "<html" not in partial.text and "field-errors" in partial.text
    assert Campaign.objects.get(pk=world.campaign.pk).day == 1


def test_the_ruleset_is_explained_where_a_campaign_is_started(client, world):
    """No form changes a campaign's ruleset later: the GM reads what it decides before
    choosing it, beside the field."""
    login(client, world, "gm")
    form = client.get(reverse("campaign:list")).text.split('id="create-form"')[1]
    field = form.split('ruleset_helptext">')[1].split("</span>")[0]
    assert "it stays for the whole campaign" in field
    assert "under One Year War it comes back" in field


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
    assert "Tusk joins Red Company, with the Armor specialty its card needs." in response.text
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


def test_it_corrects_a_unit_with_its_reason_in_the_history(client, world):
    login(client, world, "gm")
    url = _url("unit-edit", world, world.unit.pk)
    unit = Unit.objects.get(pk=world.unit.pk)
    data = {"name": unit.name, "quality": "elite", "equipment": unit.equipment,
            "specialties": unit.specialties, "morale_hits": unit.morale_hits,
            "casualty_hits": unit.casualty_hits, "status": unit.status,
            "experience": unit.experience}  # fmt: skip
    missing = client.post(url, data)
    assert missing.status_code == 400 and _field_errors(missing, "reason")
    response = client.post(url, {**data, "reason": "misfiled roster"})
    assert response.status_code == 302
    entry = Unit.objects.get(pk=unit.pk).history.last()
    assert entry.kind == HistoryEntry.Kind.GM_EDIT and "misfiled roster" in entry.text
    nothing = client.post(url, {**data, "quality": "elite", "reason": "again"})
    assert nothing.status_code == 400 and "Nothing was changed." in nothing.text


def test_a_correction_from_a_form_opened_before_the_unit_changed_undoes_nothing(client, world):
    # A rename sent from a page opened before a battle's hits were written took them away.
    login(client, world, "gm")
    unit = _ready(world, world.unit)
    url = _url("unit-edit", world, unit.pk)
    form = {"name": unit.name, "quality": "average", "equipment": unit.equipment,
            "specialties": unit.specialties, "morale_hits": "0", "casualty_hits": "0",
            "status": unit.status, "experience": unit.experience,
            "drawn": as_drawn(client.get(_url("unit", world, unit.pk)).text)}  # fmt: skip
    # Another tab (a battle, the medics, a co-GM) gives it hits while the form stays open.
    unit_edit(unit=unit, changes={"quality": "average", "morale_hits": 1, "casualty_hits": 1},
              reason="shelled", actor=world.users["gm"])  # fmt: skip
    renamed = client.post(url, {**form, "name": "Red Lions", "reason": "spelling"})
    assert renamed.status_code == 302
    after = Unit.objects.get(pk=unit.pk)
    assert (after.name, after.morale_hits, after.casualty_hits) == ("Red Lions", 1, 1)
    assert "hits" not in after.history.last().text
    # A field changed on both sides is refused beside it, writing nothing, and the form drawn
    # again carries the unit as it stands, so sending it again sets what the GM asked.
    entries = after.history.count()
    clash = client.post(url, {**form, "name": "Red Lions", "morale_hits": "2", "reason": "typo"})
    assert clash.status_code == 400
    assert _field_errors(clash, "morale_hits") == [
        "Since this form was opened, this has become 1: save again to make it 2 all the same."
    ]
    assert Unit.objects.get(pk=unit.pk).morale_hits == 1 and after.history.count() == entries
    again = {**form, "name": "Red Lions", "morale_hits": "2", "reason": "typo"}
    assert client.post(url, {**again, "drawn": as_drawn(clash.text)}).status_code == 302
    assert Unit.objects.get(pk=unit.pk).morale_hits == 2


@pytest.mark.parametrize("field", ["morale_hits", "casualty_hits"])
def test_a_correction_of_more_hits_than_any_unit_carries_is_refused_in_words(client, world, field):
    # It read "Must be 0..99, got 100", beside fields that say "At least 0 Morale hits.".
    login(client, world, "gm")
    unit = Unit.objects.get(pk=world.unit.pk)
    data = {"name": unit.name, "quality": unit.quality, "equipment": unit.equipment,
            "specialties": unit.specialties, "morale_hits": unit.morale_hits,
            "casualty_hits": unit.casualty_hits, "status": unit.status,
            "experience": unit.experience, "reason": "typo"}  # fmt: skip
    for too_many in ("100", str(10**20)):
        refused = client.post(_url("unit-edit", world, unit.pk), {**data, field: too_many})
        assert refused.status_code == 400
        noun = "Morale hits" if field == "morale_hits" else "Casualty hits"
        assert _field_errors(refused, field) == [f"At most 99 {noun}."]
    assert Unit.objects.get(pk=unit.pk).state == unit.state


def test_a_correction_is_refused_in_the_campaigns_words_and_writes_nothing(client, world):
    sappers = unit_create(force=world.force, unit_type=world.unit.unit_type, name="Sappers",
                          quality="inexperienced", specialties=["infantry"])  # fmt: skip
    login(client, world, "gm")
    url = _url("unit-edit", world, sappers.pk)
    data = {"name": "Sappers", "quality": "inexperienced", "equipment": "adequate",
            "specialties": ["infantry"], "morale_hits": "50", "casualty_hits": "99",
            "status": "ready", "experience": "0", "reason": "table report"}  # fmt: skip
    hits = client.post(url, data)
    assert hits.status_code == 400
    assert _field_errors(hits, "casualty_hits") == [
        "Sappers is Inexperienced: it can carry at most 3 hits, Morale and Casualty together "
        "(the last breaks it), and was given 149."
    ]
    data.update(morale_hits="0", casualty_hits="0", quality="raw",
                specialties=["infantry", "medical", "aviation"])  # fmt: skip
    specialties = client.post(url, data)
    assert _field_errors(specialties, "specialties") == [
        "A Raw unit holds no specialties; Sappers may keep the Infantry it holds, but not gain "
        "Aviation and Medical."
    ]
    negative = client.post(url, {**data, "quality": "inexperienced", "morale_hits": "-1"})
    assert _field_errors(negative, "morale_hits") == ["At least 0 Morale hits."]
    # A field left empty is named by its label, not Django's "This field is required."
    blank = client.post(url, {**data, "quality": "inexperienced", "name": " ", "reason": ""})
    assert _field_errors(blank, "name") == ["Fill in “Name”."]
    assert _field_errors(blank, "reason") == ["Fill in “Reason”."]
    added = client.post(_url("unit-add", world, world.force.pk), {"name": ""})
    assert _field_errors(added, "unit_type") == ["Choose one for “Card”."]
    assert _field_errors(added, "name") == ["Fill in “Name”."]
    assert sappers.history.count() == 1  # its creation only
    # Hits that break it retreat it in poor order, as a fight that breaks it does.
    broken = {**data, "quality": "inexperienced", "specialties": ["infantry"], "morale_hits": "3"}
    assert client.post(url, broken).status_code == 302
    assert Unit.objects.get(pk=sappers.pk).status == "retreated"


def test_a_unit_holding_more_specialties_than_its_quality_may_is_corrected_and_told_so(
    client, world
):
    """Aid Post fell to Raw holding Infantry and Medical. Its page says it keeps them but
    gains no new one, and so does its form beside the specialties; renamed from that form, or
    giving one up, it is corrected; given a new one, it is refused beside the field."""
    gm = world.users["gm"]
    unit = unit_create(force=world.force, unit_type=world.unit.unit_type, name="Aid Post",
                       quality="average", specialties=["infantry", "medical"])  # fmt: skip
    unit_edit(unit=unit, changes={"quality": "raw"}, reason="its dead", actor=gm)
    login(client, world, "gm")
    said = (
        "Holds 2 specialties, more than a Raw unit may: it keeps them, but gains no new one "
        "until it is Average."
    )
    page = re.sub(r"\s+", " ", client.get(_url("unit", world, unit.pk)).text)
    assert page.count(said) == 2  # its Specialties line, and its form's specialties
    assert f"{said} Untick one to give it up." in page
    url = _url("unit-edit", world, unit.pk)
    form = {"name": "Aid Post", "quality": "raw", "equipment": "adequate",
            "specialties": ["infantry", "medical"], "morale_hits": "0", "casualty_hits": "0",
            "status": "ready", "experience": "0"}  # fmt: skip
    renamed = client.post(url, {**form, "name": "Aid Station", "reason": "renamed"})
    assert renamed.status_code == 302
    taught = client.post(url, {**form, "specialties": ["infantry", "medical", "aviation"],
                               "name": "Aid Station", "reason": "taught"})  # fmt: skip
    assert _field_errors(taught, "specialties") == [
        "A Raw unit holds no specialties; Aid Station may keep the Infantry and Medical it "
        "holds, but not gain Aviation."
    ]
    gave_up = client.post(url, {**form, "specialties": ["medical"], "name": "Aid Station",
                                "reason": "rifles handed in"})  # fmt: skip
    assert gave_up.status_code == 302
    after = Unit.objects.get(pk=unit.pk)
    assert (after.name, after.specialties) == ("Aid Station", ["medical"])
    page = re.sub(r"\s+", " ", client.get(_url("unit", world, unit.pk)).text)
    assert "Holds 1 specialty, more than a Raw unit may: it keeps it, but gains no new one " \
        "until it is Green." in page  # fmt: skip


def test_the_roster_and_the_cards_say_a_unit_keeps_specialties_beyond_its_quality(client, world):
    """Aid Post fell to Raw holding Infantry and Medical. Its player reads it on the roster, in
    a few words under the specialties, on its printed card, in the sentence its page says, and
    on the force's print sheet, in the roster's words: one rule (`kept_beyond_limit`)."""
    unit = unit_create(force=world.force, unit_type=world.unit.unit_type, name="Aid Post",
                       quality="average", specialties=["infantry", "medical"])  # fmt: skip
    unit_edit(unit=unit, changes={"quality": "raw"}, reason="its dead", actor=world.users["gm"])
    login(client, world, "player")
    short = "2 specialties, more than a Raw unit may hold: kept, no new one until Average"
    roster = re.sub(r"\s+", " ", client.get(_url("force", world, world.force.pk)).text)
    assert roster.count(short) == 1
    card = re.sub(r"\s+", " ", client.get(_url("unit-card", world, unit.pk)).text)
    assert (
        "Infantry, Medical. Holds 2 specialties, more than a Raw unit may: it keeps them, but "
        "gains no new one until it is Average.</td>" in card
    )
    sheet = re.sub(r"\s+", " ", client.get(_url("force-cards", world, world.force.pk)).text)
    assert sheet.count(f"{short}.") == 1


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


def test_it_quick_resolves_an_engagement(client, world):
    attacker, defender = _ready(world, world.unit), _ready(world, world.enemy_unit)
    _applied_at_once(world)
    login(client, world, "gm")
    url = _url("quick-resolve", world)
    data = {"attacker": attacker.pk, "defender": defender.pk, "defender_dug_in": "on",
            "round_limit": "3", "seed": "4", "reason": "patrol"}  # fmt: skip
    response = client.post(url, data)
    record = Engagement.objects.latest("id")
    # Fought as a one-against-one engagement: its round-by-round log is the engagement's page.
    assert response.status_code == 302
    assert response["Location"] == reverse("campaign:engagement", args=[world.campaign.pk,
                                                                       record.pk])  # fmt: skip
    assert record.seed == 4 and record.setup["situations"][str(defender.pk)]["dug_in"] is True
    assert record.setup["sides"] == {"attackers": [attacker.pk], "defenders": [defender.pk]}
    page = client.get(response["Location"])
    assert page.status_code == 200 and "Patrol" in page.text  # its name, capitalised
    # The message after it names the winner, not "the defenders".
    won = {"attackers": attacker.name, "defenders": defender.name}.get(record.winner)
    said = f"Quick resolve: {won} won after" if won else "Quick resolve: no winner"
    assert said in page.text
    _ready(world, attacker)
    comrade = raise_units(world.force, attacker.unit_type, 1, "Comrade")[0]
    same_force = client.post(url, {**data, "defender": comrade.pk})
    assert same_force.status_code == 400
    assert _field_errors(same_force, "defender") == [
        "Red Company is on both sides: a force cannot fight itself; choose a unit of another force"
    ]


def test_a_quick_resolve_sent_twice_fights_once(client, world):
    """A double click sends the form's one request key twice: the second finds the engagement
    the first fought and goes to it, writing nothing (before, both fought and both applied)."""
    attacker, defender = _ready(world, world.unit), _ready(world, world.enemy_unit)
    _applied_at_once(world)
    login(client, world, "gm")
    form = client.get(reverse("campaign:dashboard", args=[world.campaign.pk])).text
    key = re.search(r'name="request_key" value="([^"]+)"', form).group(1)
    assert 'id="id_quick_resolve_request_key"' in form and "Request key" not in form
    data = {"attacker": attacker.pk, "defender": defender.pk, "round_limit": "3", "seed": "4",
            "request_key": key}  # fmt: skip
    first = client.post(_url("quick-resolve", world), data)
    engagements, entries = Engagement.objects.count(), HistoryEntry.objects.count()
    again = client.post(_url("quick-resolve", world), data)
    assert again.status_code == 302 and again["Location"] == first["Location"]
    assert (Engagement.objects.count(), HistoryEntry.objects.count()) == (engagements, entries)
    # Sent again once a unit it named is out of action (it lost, say): still the first's
    # engagement, not "Select a valid choice" beside the unit no longer offered.
    Unit.objects.filter(pk=defender.pk).update(status="retreated", in_combat_zone=False)
    late = client.post(_url("quick-resolve", world), data)
    assert late.status_code == 302 and late["Location"] == first["Location"]
    assert (Engagement.objects.count(), HistoryEntry.objects.count()) == (engagements, entries)
    damaged = client.post(_url("quick-resolve", world), {**data, "request_key": "not-a-key"})
    assert damaged.status_code == 400
    assert "This form is damaged; reload the page and try again." in damaged.text


def test_an_engagement_side_not_offered_is_refused_in_words_beside_its_unit(client, world):
    # The select was marked invalid and pointed at its error, which was never drawn.
    attacker, defender = _ready(world, world.unit), _ready(world, world.enemy_unit)
    login(client, world, "gm")
    form = client.get(_url("engagement-setup", world)).context["form"]
    name = form[f"side_{attacker.pk}"].html_name
    data = {"terrain": "open", "round_limit": "2", "seed": "5", name: "BOGUS",
            form[f"side_{defender.pk}"].html_name: "defenders"}  # fmt: skip
    refused = client.post(_url("engagement-setup", world), data)
    assert refused.status_code == 400
    error_id = f"{form[f'side_{attacker.pk}'].auto_id}_error"
    assert f'aria-describedby="{error_id}"' in refused.text
    shown = re.search(rf'<span class="field-errors" id="{error_id}">([^<]+)</span>', refused.text)
    assert shown and "“BOGUS” is not a side of an engagement" in shown[1]
    assert f"{attacker.name} ({attacker.force.name})" in shown[1]
    assert not Engagement.objects.exists()


def test_an_engagement_sent_twice_is_fought_once(client, world):
    _applied_at_once(world)
    attacker, defender = _ready(world, world.unit), _ready(world, world.enemy_unit)
    login(client, world, "gm")
    page = client.get(_url("engagement-setup", world)).text
    key = re.search(r'name="request_key" value="([^"]+)"', page).group(1)
    form = client.get(_url("engagement-setup", world)).context["form"]
    data = {"terrain": "open", "round_limit": "2", "seed": "5", "request_key": key,
            form[f"side_{attacker.pk}"].html_name: "attackers",
            form[f"side_{defender.pk}"].html_name: "defenders"}  # fmt: skip
    first = client.post(_url("engagement-setup", world), data)
    assert first.status_code == 302, first.text
    # Applied at once: fought and written, and on to its page.
    assert first["Location"] == _url("engagement", world, Engagement.objects.get().pk)
    engagements, entries = Engagement.objects.count(), HistoryEntry.objects.count()
    again = client.post(_url("engagement-setup", world), data)
    assert again.status_code == 302 and again["Location"] == first["Location"]
    assert (Engagement.objects.count(), HistoryEntry.objects.count()) == (engagements, entries)


def test_a_quick_resolve_of_a_unit_against_itself_says_a_unit_cannot_fight_itself(client, world):
    unit = _ready(world, world.unit)
    login(client, world, "gm")
    engagements = Engagement.objects.count()
    response = client.post(_url("quick-resolve", world), {"attacker": unit.pk,
                           "defender": unit.pk, "round_limit": "3", "reason": ""})  # fmt: skip
    assert response.status_code == 400
    assert _field_errors(response, "defender") == [
        f"{unit.name} is on both sides: a unit cannot fight itself; choose a unit of another force"
    ]
    assert "a force cannot fight itself" not in response.text
    assert Engagement.objects.count() == engagements


def test_a_quick_resolve_offers_only_ready_units_and_refuses_one_no_longer_ready(client, world):
    ready = _ready(world, world.enemy_unit)
    unit_edit(unit=world.unit, changes={"status": "retreated"}, reason="broke",
              actor=world.users["gm"])  # fmt: skip
    login(client, world, "gm")
    form = client.get(reverse("campaign:dashboard", args=[world.campaign.pk])).context["quick_form"]
    offered = {unit.pk for unit in form.fields["attacker"].queryset}
    assert ready.pk in offered and world.unit.pk not in offered
    assert offered == {u.pk for u in Unit.objects.filter(force__campaign=world.campaign,
                                                         status="ready")}  # fmt: skip
    engagements = Engagement.objects.count()
    data = {"attacker": world.unit.pk, "defender": ready.pk, "round_limit": "3"}
    refused = client.post(_url("quick-resolve", world), data)
    # Retreated since the dashboard was drawn (another tab): said by its name and why, not as
    # "Select a valid choice".
    assert refused.status_code == 400
    assert _field_errors(refused, "attacker") == [
        f"{world.unit.name} ({world.force.name}) cannot fight: it is retreated in poor order"
    ]
    assert Engagement.objects.count() == engagements


def test_a_quick_resolve_kept_from_before_stays_on_the_dashboard(client, world):
    from campaign.models import QuickResolve

    QuickResolve.objects.create(
        campaign=world.campaign, day=1, attacker=world.unit, defender=world.enemy_unit, seed=3,
        round_limit=5, setup={}, events=[{"event": "end", "rounds": 2, "winner": "attacker"}],
        rounds=2, winner="attacker", reason="old patrol",
    )  # fmt: skip
    login(client, world, "gm")
    page = client.get(reverse("campaign:dashboard", args=[world.campaign.pk])).text
    assert "Quick resolves fought before they were engagements" in page
    assert f"(old patrol) — {world.unit.name} won after 2 rounds" in page


def test_it_lets_the_owner_send_in_the_medics_and_says_when_there_are_none(client, world):
    login(client, world, "player")
    response = client.post(_url("medical", world, world.force.pk), {"reason": ""})
    assert response.status_code == 400 and "no ready Medical crew" in response.text


def test_it_never_answers_500_to_garbage(client, world):
    login(client, world, "gm")
    garbage = {"days": "1e9", "attacker": "x", "defender": "-1", "unit_type": "abc",
               "quality": "godlike", "specialties": ["nonsense"], "morale_hits": "-3",
               "seed": "99999999999999999999999", "round_limit": "0", "name": "x" * 500,
               "turn_limit": "-1", "scenario": "../../etc/passwd", "side_a": "", "day": "0",
               "request_key": "not-a-uuid", "reason": "", "character": "x"}  # fmt: skip
    urls = [
        _url("advance", world), _url("quick-resolve", world),
        _url("unit-add", world, world.force.pk), _url("medical", world, world.force.pk),
        _url("unit-edit", world, world.unit.pk), _url("unit-train", world, world.unit.pk),
        _url("battle-setup", world), _url("battle-record", world),
        _url("battle-revert", world, world.engine_battle.pk),
    ]  # fmt: skip
    for url in urls:
        for headers in ({}, HTMX):
            response = client.post(url, garbage, **headers)
            assert response.status_code in (200, 400), (url, response.status_code)


def test_an_invitation_answers_the_same_whether_or_not_the_account_exists(client, world):
    """On the main line before invitations, an unknown username got "no user called ..."."""
    login(client, world, "gm")
    invite = reverse("campaign:invite", args=[world.campaign.pk])
    answers = []
    for name in ("nobody-by-that-name", "outsider"):
        response = client.post(invite, {"invitee": name, "role": "player"}, follow=True)
        assert response.status_code == 200
        notice = re.search(r'<div class="messages"[^>]*>(.*?)</div>', response.text)[1]
        answers.append(notice)
    # Unknown and stranger alike; a member or the GM (whom the inviter sees listed) plainly.
    assert answers[0] == answers[1]
    assert "If an account by that name exists, it has been invited." in answers[0]
    # A member or the GM: refused beside the name, never reported as done.
    player = world.users["player"].get_username()
    gm = world.users["gm"].get_username()
    invitations = world.campaign.invitations.count()
    for name, refusal in (
        (player, f"No invitation was sent: {player} is in the campaign already, as player."),
        (gm, f"No invitation was sent: {gm} is this campaign's GM."),
    ):
        response = client.post(invite, {"invitee": name, "role": "player"})
        assert response.status_code == 400
        assert _field_errors(response, "invitee")[0].startswith(refusal)
        assert refusal.replace("'", "&#x27;") in response.text and "Done:" not in response.text
    assert world.campaign.invitations.count() == invitations
    htmx = client.post(invite, {"invitee": "x-unknown", "role": "player"}, HTTP_HX_REQUEST="true")
    known = client.post(invite, {"invitee": "outsider", "role": "player"}, HTTP_HX_REQUEST="true")
    assert (htmx.status_code, htmx.headers["HX-Redirect"]) == (
        known.status_code,
        known.headers["HX-Redirect"],
    )
    # Changing a role names only members: a stranger and a name nobody has read alike.
    members = reverse("campaign:member-set", args=[world.campaign.pk])
    errors = [
        _field_errors(client.post(members, {"username": name, "role": "player"}), "username")
        for name in ("nobody-by-that-name", "outsider")
    ]
    assert errors == [
        ["no member of this campaign is called “nobody-by-that-name”"],
        ["no member of this campaign is called “outsider”"],
    ]


def test_changing_the_gms_role_is_refused_saying_they_are_the_gm(client, world):
    login(client, world, "gm")
    members = reverse("campaign:member-set", args=[world.campaign.pk])
    gm = world.users["gm"].get_username()
    response = client.post(members, {"username": gm, "role": "player"})
    assert response.status_code == 400
    assert _field_errors(response, "username") == [
        f"The GM's role does not change here: {gm} is this campaign's GM."
    ]
    assert not world.campaign.memberships.filter(user=world.users["gm"]).exists()


def test_the_invitee_accepts_on_their_own_page_in_the_role_chosen(client, world):
    campaign = world.campaign
    login(client, world, "gm")
    invite = reverse("campaign:invite", args=[campaign.pk])
    client.post(invite, {"invitee": "outsider", "role": "spectator"})
    assert (
        "outsider, as a spectator"
        in client.get(reverse("campaign:dashboard", args=[campaign.pk])).text
    )
    login(client, world, "outsider")
    assert client.get(reverse("campaign:dashboard", args=[campaign.pk])).status_code == 404
    page = client.get(reverse("campaign:list")).text
    assert f"<strong>{campaign.name}</strong>" in page and "invites you as a spectator" in page
    [invitation] = campaign.invitations.all()
    login(client, world, "player")  # someone else's invitation does not exist for them
    assert (
        client.post(reverse("campaign:invitation-accept", args=[invitation.pk])).status_code == 404
    )
    login(client, world, "outsider")
    accepted = client.post(reverse("campaign:invitation-accept", args=[invitation.pk]))
    assert accepted["Location"] == reverse("campaign:dashboard", args=[campaign.pk])
    assert campaign.memberships.get(user=world.users["outsider"]).role == "spectator"
    assert client.get(reverse("campaign:dashboard", args=[campaign.pk])).status_code == 200


def test_an_invitation_answered_twice_says_so_and_stays_unknown_to_others(client, world):
    """A double click on Accept (or Decline after Accept, or a second Decline) says it was
    answered already, in the campaign's name, where the first answer led; to anyone else the
    invitation is still not found."""
    from django.contrib.auth import get_user_model

    campaign = world.campaign
    newcomer = get_user_model().objects.create_user("newcomer", password="pw-newcomer-1")
    login(client, world, "gm")
    invite = reverse("campaign:invite", args=[campaign.pk])
    client.post(invite, {"invitee": "outsider", "role": "player"})
    client.post(invite, {"invitee": "newcomer", "role": "player"})
    accept, decline = (
        reverse(f"campaign:invitation-{answer}", args=[campaign.invitations.get(invitee=who).pk])
        for answer, who in (("accept", "outsider"), ("decline", "newcomer"))
    )
    dashboard = reverse("campaign:dashboard", args=[campaign.pk])
    login(client, world, "outsider")
    assert client.post(accept)["Location"] == dashboard
    for again in (accept, accept.replace("accept", "decline")):
        answer = client.post(again, follow=True)
        assert answer.redirect_chain == [(dashboard, 302)]
        assert f"You have already joined {campaign.name}." in answer.text
    assert campaign.memberships.get(user=world.users["outsider"]).role == "player"
    client.force_login(newcomer)
    assert client.post(decline)["Location"] == reverse("campaign:list")
    answer = client.post(decline, follow=True)
    assert answer.redirect_chain == [(reverse("campaign:list"), 302)]
    assert f"You have already declined the invitation to {campaign.name}." in answer.text
    assert client.post(decline.replace("decline", "accept")).status_code == 302
    assert not campaign.memberships.filter(user=newcomer).exists()
    login(client, world, "player")  # someone else's invitation, answered or not: not found
    for url in (accept, decline):
        assert client.post(url).status_code == 404


def test_it_starts_a_campaign_with_its_gm_then_adds_a_player_and_a_force(client, world):
    login(client, world, "outsider")
    response = client.post(
        reverse("campaign:create"), {"name": "Op. New", "ruleset": "combined_arms"}
    )
    campaign = Campaign.objects.get(name="Op. New")
    assert response["Location"] == reverse("campaign:dashboard", args=[campaign.pk])
    assert campaign.gm == world.users["outsider"]
    bad = client.post(reverse("campaign:create"), {"name": "", "ruleset": "chess"})
    assert bad.status_code == 400 and _field_errors(bad, "ruleset")
    invite = reverse("campaign:invite", args=[campaign.pk])
    assert client.post(invite, {"invitee": "player", "role": "player"}).status_code == 302
    login(client, world, "player")
    [invitation] = campaign.invitations.all()
    client.post(reverse("campaign:invitation-accept", args=[invitation.pk]))
    login(client, world, "outsider")
    forces = reverse("campaign:force-create", args=[campaign.pk])
    for name in ("rival", "nobody"):  # an account outside the campaign, and no account
        stranger = client.post(forces, {"owner": name, "name": "Green Guards"})
        assert stranger.status_code == 400
        assert _field_errors(stranger, "owner") == [f"no one in this campaign is called “{name}”"]
    created = client.post(forces, {"owner": "player", "name": "Green Guards"})
    assert created.status_code == 302
    assert campaign.forces.get().owner == world.users["player"]
    # A second force of that name is refused on its name, in the campaign's words.
    twice = client.post(forces, {"owner": "player", "name": "Green Guards"})
    assert twice.status_code == 400
    assert _field_errors(twice, "name") == [
        "Op. New already has a force called “Green Guards”; choose another name"
    ]
    assert "already exists" not in twice.text and campaign.forces.count() == 1


def test_a_name_taken_at_the_same_moment_is_a_clear_refusal_with_nothing_written(
    client, world, monkeypatch
):
    """Two requests raising a force of one name at once both pass the name check; the database
    refuses the second's write. That one is told so beside its form, nothing of it written,
    and sent again it is refused on its name, in the campaign's words."""
    from campaign.services import roster
    from campaign.views._common import CLASHED

    campaign = world.campaign
    forces = reverse("campaign:force-create", args=[campaign.pk])
    login(client, world, "gm")
    assert client.post(forces, {"owner": "player", "name": "Green Guards"}).status_code == 302
    stories = campaign.story.count()
    checked = roster.force_check
    monkeypatch.setattr(roster, "force_check", lambda force: None)  # checked before the other
    clashed = client.post(forces, {"owner": "rival", "name": "Green Guards"})
    assert clashed.status_code == 400
    assert CLASHED.split(",")[0] in clashed.text and 'role="alert"' in clashed.text
    assert campaign.forces.filter(name="Green Guards").get().owner == world.users["player"]
    assert campaign.story.count() == stories
    monkeypatch.setattr(roster, "force_check", checked)
    again = client.post(forces, {"owner": "rival", "name": "Green Guards"})
    assert _field_errors(again, "name") == [
        f"{campaign} already has a force called “Green Guards”; choose another name"
    ]


def test_a_campaign_is_refused_the_name_of_one_on_its_gms_list_and_no_one_elses(client, world):
    """ "My campaigns" would list two alike, told apart by their day: a new campaign, or one
    renamed, is refused a name the GM's list has (one they run or play in), beside the field,
    and nothing is made; anyone else may take that name."""
    name = world.campaign.name
    login(client, world, "player")  # plays in it
    twice = client.post(reverse("campaign:create"), {"name": name, "ruleset": "combined_arms"})
    assert twice.status_code == 400
    said = f"Your campaigns already have one called “{name}”; choose another name"
    assert _field_errors(twice, "name") == [said]
    assert Campaign.objects.filter(name=name).count() == 1
    login(client, world, "outsider")  # in no campaign of that name
    data = {"name": name, "ruleset": "combined_arms"}
    assert client.post(reverse("campaign:create"), data).status_code == 302
    outsider = world.users["outsider"]
    again = campaign_create(name="Op. Other", gm=outsider, ruleset="combined_arms")
    with pytest.raises(ValidationError) as refused:
        campaign_update(campaign=again, name=name, actor=outsider)
    assert refused.value.message_dict == {"name": [said]}
    assert Campaign.objects.get(pk=again.pk).name == "Op. Other"


def test_an_advance_that_changes_no_unit_still_sums_up(client, world):
    from campaign.models import Unit

    Unit.objects.filter(force__campaign=world.campaign).update(status="destroyed")
    login(client, world, "gm")
    response = client.post(
        _url("advance", world), {"days": "1", "confirm": "yes", "reviewed_at": 0}
    )
    assert response["Location"].endswith("?days=1&to=2&start=0&after=0&upto=0")
    summary = client.get(response["Location"])
    assert summary.status_code == 200 and "No unit changed." in summary.text


@pytest.mark.parametrize("key", ["side_²", "side_" + "9" * 30])
def test_a_side_field_named_for_no_unit_could_have_is_ignored_not_a_crash(client, world, key):
    # Such a key was read as a unit's key: int("²") raised, and 30 nines overflowed SQLite.
    _applied_at_once(world)
    attacker, defender = _ready(world, world.unit), _ready(world, world.enemy_unit)
    login(client, world, "gm")
    form = client.get(_url("engagement-setup", world)).context["form"]
    data = {"terrain": "open", "round_limit": "2", "seed": "5", key: "attackers",
            form[f"side_{attacker.pk}"].html_name: "attackers",
            form[f"side_{defender.pk}"].html_name: "defenders"}  # fmt: skip
    answer = client.post(_url("engagement-setup", world), data)
    assert answer.status_code == 302, answer.status_code  # fought by the units it names
    assert Engagement.objects.count() == 1


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


def test_an_advances_summary_opened_later_tells_the_units_as_it_left_them(client, world):
    gm = world.users["gm"]
    unit_edit(unit=world.unit, changes={"status": "ready", "morale_hits": 2}, reason="shaken",
              actor=gm)  # fmt: skip
    login(client, world, "gm")
    response = client.post(
        _url("advance", world), {"days": "2", "reason": "rest", "confirm": "yes", "reviewed_at": 0}
    )
    table = _changes_table(client.get(response["Location"]).text)
    assert f">{world.unit.name}</a>" in table and "Ready" in table
    unit_edit(unit=world.unit, changes={"status": "destroyed"}, reason="shelled", actor=gm)
    assert _changes_table(client.get(response["Location"]).text) == table
    assert "Destroyed" not in table


def _changes_table(page: str) -> str:
    start = page.index('<table class="changes">')
    return page[start : page.index("</table>", start)]


def _rows():
    """How many rows each table holds: a review writes none of them."""
    return {model._meta.label: model.objects.count() for model in apps.get_models()}


def _log(page):
    """The rounds as a page gives them, word for word."""
    return re.search(r'<div id="log">.*?</div>\n', page, re.S)[0]


def _quick_review(client, world):
    """Resolve on the dashboard of a campaign whose GM reviews each outcome first: the review
    it leads to, and the Apply form's fields."""
    attacker, defender = _ready(world, world.unit), _ready(world, world.enemy_unit)
    login(client, world, "gm")
    data = {"attacker": attacker.pk, "defender": defender.pk, "defender_dug_in": "on",
            "round_limit": "4", "reason": "patrol", "request_key": str(uuid.uuid4())}  # fmt: skip
    rows = _rows()
    sent = client.post(_url("quick-resolve", world), data, **HTMX)
    review_url = sent["HX-Redirect"]
    assert sent.status_code == 200 and review_url.startswith(_url("quick-resolve", world) + "?")
    assert "seed=" in review_url  # drawn now: the review, reloaded, shows the same dice
    review = client.get(review_url)
    assert _rows() == rows  # nothing written: no engagement, no history, no form key
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', review.text))
    return review, fields


def test_a_quick_resolve_the_gm_reviews_first_shows_its_outcome_and_writes_nothing(client, world):
    assert world.campaign.apply_mode == Campaign.ApplyMode.REVIEW
    review, fields = _quick_review(client, world)
    assert review.status_code == 200 and "Apply the outcome?" in review.text
    assert "Patrol: " in review.text and "Applying writes these changes" in review.text
    assert "Round 1" in _log(review.text) and "Dug In" in _log(review.text)
    assert ">Apply</button>" in review.text and ">Cancel</a>" in review.text
    assert fields["confirm"] == "yes" and fields["reviewed"] and fields["seed"]
    # Without JavaScript too: the plain post goes to the same review.
    plain = client.post(
        _url("quick-resolve", world),
        {k: v for k, v in fields.items() if k not in ("confirm", "reviewed")},
    )
    assert plain.status_code == 302 and f"seed={fields['seed']}" in plain["Location"]
    assert not Engagement.objects.exists()


def test_apply_writes_the_quick_resolve_its_review_showed(client, world):
    review, fields = _quick_review(client, world)
    applied = client.post(_url("quick-resolve", world), fields)
    record = Engagement.objects.get()
    assert applied.status_code == 302
    assert applied["Location"] == _url("engagement", world, record.pk)
    assert str(record.seed) == fields["seed"]
    # The same rounds and hits, in the same words, and each unit left as the review said.
    assert _log(client.get(applied["Location"]).text) == _log(review.text)
    for change in review.context["changes"]:
        assert Unit.objects.get(pk=change.unit.pk).state == change.after
    again = client.post(_url("quick-resolve", world), fields)  # a double click: once
    assert again["Location"] == applied["Location"] and Engagement.objects.count() == 1


def test_an_engagements_review_tells_each_unit_in_the_words_its_history_then_uses(client, world):
    """The review before Apply read "Hits: 0 Morale, 0 Casualty → 1 Morale, 0 Casualty",
    "Experience: 2 → 0": field diffs, where a battle's review tells each unit in sentences. It
    tells each unit as the engagement's own page does once applied, in the same words, under
    "What the engagement did", not "What the battle did"."""
    review, fields = _quick_review(client, world)
    told = {change.unit.pk: change.lines for change in review.context["changes"]}
    assert len(told) == 2 and all(told.values()), told
    assert '<table class="changes told">' in review.text
    assert ">What the engagement did</th>" in review.text
    assert "What the battle did" not in review.text
    applied = client.post(_url("quick-resolve", world), fields)
    page = client.get(applied["Location"])
    assert {change.unit.pk: change.lines for change in page.context["changes"]} == told
    assert ">What the engagement did</th>" in page.text


def test_apply_is_refused_when_a_unit_changed_since_the_review(client, world):
    _, fields = _quick_review(client, world)
    unit_edit(unit=world.enemy_unit, changes={"morale_hits": 1}, reason="shelled",
              actor=world.users["gm"])  # fmt: skip
    rows = _rows()
    refused = client.post(_url("quick-resolve", world), fields)
    assert refused.status_code == 400
    assert _field_errors(refused, "__all__") == [
        f"{world.enemy_unit.name} has changed since you reviewed this engagement: review it again."
    ]
    assert _rows() == rows


def _setup_review(client, world):
    """Fight on the engagement set-up of a campaign whose GM reviews each outcome first, two
    units against one, one of them Dug In: the review it leads to, and the Apply form's fields."""
    first, defender = _ready(world, world.unit), _ready(world, world.enemy_unit)
    second = unit_create(force=world.force, unit_type=world.unit.unit_type, name="Second Squad",
                         quality="average", specialties=["infantry"])  # fmt: skip
    login(client, world, "gm")
    form = client.get(_url("engagement-setup", world)).context["form"]
    data = {"terrain": "jungle", "round_limit": "4", "name": "the mill ford",
            "request_key": str(uuid.uuid4()),
            form[f"side_{first.pk}"].html_name: "attackers",
            form[f"side_{second.pk}"].html_name: "attackers",
            form[f"side_{defender.pk}"].html_name: "defenders",
            form[f"dug_in_{defender.pk}"].html_name: "on"}  # fmt: skip
    rows = _rows()
    sent = client.post(_url("engagement-setup", world), data, **HTMX)
    review_url = sent["HX-Redirect"]
    assert sent.status_code == 200 and review_url.startswith(_url("engagement-setup", world) + "?")
    assert "seed=" in review_url  # drawn now: the review, reloaded, shows the same dice
    review = client.get(review_url)
    assert _rows() == rows  # nothing written: no engagement, no history, no form key
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', review.text))
    return review, fields, data


def test_an_engagement_the_gm_reviews_first_shows_its_outcome_and_writes_nothing(client, world):
    assert world.campaign.apply_mode == Campaign.ApplyMode.REVIEW
    review, fields, data = _setup_review(client, world)
    assert review.status_code == 200 and "Apply the outcome?" in review.text
    assert "The mill ford: " in review.text and "Applying writes these changes" in review.text
    log = _log(review.text)
    assert "Round 1" in log and "Dug In" in log and "Second Squad" in log
    assert ">Apply</button>" in review.text and ">Cancel</a>" in review.text
    assert fields["confirm"] == "yes" and fields["reviewed"] and fields["seed"]
    # The set-up goes through the review whole: every side, situation and the ground.
    assert {name: fields[name] for name in data} == data and "review" not in fields
    # Without JavaScript too: the plain post goes to the same review.
    plain = client.post(
        _url("engagement-setup", world),
        {k: v for k, v in fields.items() if k not in ("confirm", "reviewed")},
    )
    assert plain.status_code == 302 and f"seed={fields['seed']}" in plain["Location"]
    assert "Apply the outcome?" in client.get(plain["Location"]).text
    assert not Engagement.objects.exists()


def test_apply_writes_the_engagement_its_review_showed(client, world):
    review, fields, _ = _setup_review(client, world)
    applied = client.post(_url("engagement-setup", world), fields)
    record = Engagement.objects.get()
    assert applied.status_code == 302
    assert applied["Location"] == _url("engagement", world, record.pk)
    assert str(record.seed) == fields["seed"] and record.setup["terrain"] == "jungle"
    # The same rounds and hits, in the same words, and each unit left as the review said.
    assert _log(client.get(applied["Location"]).text) == _log(review.text)
    assert len(review.context["changes"]) == 3
    for change in review.context["changes"]:
        assert Unit.objects.get(pk=change.unit.pk).state == change.after
    again = client.post(_url("engagement-setup", world), fields)  # a double click: once
    assert again["Location"] == applied["Location"] and Engagement.objects.count() == 1


def test_an_engagements_apply_is_refused_when_a_unit_changed_since_the_review(client, world):
    _, fields, _ = _setup_review(client, world)
    unit_edit(unit=world.enemy_unit, changes={"morale_hits": 1}, reason="shelled",
              actor=world.users["gm"])  # fmt: skip
    rows = _rows()
    refused = client.post(_url("engagement-setup", world), fields)
    assert refused.status_code == 400
    assert _field_errors(refused, "__all__") == [
        f"{world.enemy_unit.name} has changed since you reviewed this engagement: review it again."
    ]
    assert _rows() == rows


def _led_unit(world, unit_name, **leader):
    """A fresh Average unit of the world's force, with ``leader`` (`leader_attach`'s)."""
    unit = unit_create(force=world.force, unit_type=world.unit.unit_type, name=unit_name,
                       quality="average", specialties=["infantry"])  # fmt: skip
    leader_attach(unit=unit, actor=world.users["gm"], **leader)
    return Unit.objects.get(pk=unit.pk)


def _correction(unit, **changed):
    data = {"name": unit.name, "quality": "average", "equipment": unit.equipment,
            "specialties": unit.specialties, "morale_hits": unit.morale_hits,
            "casualty_hits": unit.casualty_hits, "status": unit.status,
            "experience": unit.experience, "leader_hit_points": unit.leader.hit_points,
            "reason": "shelled at the ford"}  # fmt: skip
    return {**data, **changed}


def test_a_correction_sets_the_leaders_hit_points_in_the_same_entry(client, world):
    kane = character_create(campaign=world.campaign, name="Sgt. Kane", hit_points=18,
                            actor=world.users["gm"])  # fmt: skip
    tiger = _led_unit(world, "Tiger One", character=kane)
    login(client, world, "gm")
    page = client.get(_url("unit", world, tiger.pk)).text
    assert "Sgt. Kane&#x27;s hit points (now 18 of 18 hit points)" in page
    assert "Casualty hits added here do not wound the leader: set their hit points too." in page
    entries = tiger.history.count()
    url = _url("unit-edit", world, tiger.pk)
    done = client.post(url, _correction(tiger, casualty_hits="2", leader_hit_points="9"))
    assert done.status_code == 302
    assert tiger.history.count() == entries + 1  # the hits and the leader, one entry
    entry = tiger.history.last()
    assert entry.after["casualty_hits"] == 2 and entry.after["leader"]["hit_points"] == 9
    assert Unit.objects.get(pk=tiger.pk).leader.hit_points == 9
    kane.refresh_from_db()
    assert (kane.hit_points, kane.alive) == (9, True)
    history = client.get(_url("unit", world, tiger.pk)).text
    assert "GM correction: shelled at the ford" in history
    assert "Sgt. Kane is at 9 of 18 hit points" in history


def test_a_bad_value_for_the_leaders_hit_points_is_refused_with_nothing_changed(client, world):
    kane = character_create(campaign=world.campaign, name="Sgt. Kane", hit_points=18,
                            actor=world.users["gm"])  # fmt: skip
    tiger = _led_unit(world, "Tiger One", character=kane)
    login(client, world, "gm")
    url = _url("unit-edit", world, tiger.pk)
    entries = tiger.history.count()
    above = client.post(url, _correction(tiger, casualty_hits="1", leader_hit_points="19"))
    assert above.status_code == 400
    assert _field_errors(above, "leader_hit_points") == ["At most 18 hit points."]
    half = client.post(url, _correction(tiger, casualty_hits="1", leader_hit_points="4.5"))
    assert _field_errors(half, "leader_hit_points") == ["Enter a whole number."]
    with pytest.raises(ValidationError) as refused:
        unit_edit(unit=tiger, changes={"casualty_hits": 1, "leader_hit_points": 19},
                  reason="typo", actor=world.users["gm"])  # fmt: skip
    assert refused.value.message_dict["leader_hit_points"] == [
        "At most 18, Sgt. Kane's full hit points."
    ]
    after = Unit.objects.get(pk=tiger.pk)
    assert after.state == tiger.state and tiger.history.count() == entries
    kane.refresh_from_db()
    assert kane.hit_points == 18


def test_a_correction_that_kills_the_leader_costs_the_unit_2_morale_hits_at_once(client, world):
    atlas = _led_unit(world, "Atlas", name="Capt. Mara Holt", hit_points=3)
    login(client, world, "gm")
    page = client.get(_url("unit", world, atlas.pk)).text
    assert "Capt. Mara Holt&#x27;s hit points (now 3 hit points)" in page
    url = _url("unit-edit", world, atlas.pk)
    # Average carries 4 hits: 3 Morale hits and the death's 2 would be 5.
    entries = atlas.history.count()
    too_many = client.post(url, _correction(atlas, morale_hits="3", leader_hit_points="-10"))
    assert _field_errors(too_many, "leader_hit_points") == [
        "Capt. Mara Holt's death would cost Atlas 2 Morale hits at once: Atlas is Average: it "
        "can carry at most 4 hits, Morale and Casualty together (the last breaks it), and was "
        "given 5."
    ]
    assert atlas.history.count() == entries
    assert client.post(url, _correction(atlas, leader_hit_points="-10")).status_code == 302
    after = Unit.objects.get(pk=atlas.pk)
    assert (after.leader.hit_points, after.leader.alive, after.morale_hits) == (-10, False, 2)
    entry = after.history.last()
    assert "Capt. Mara Holt died: 2 Morale hits at once" in entry.text
    page = client.get(_url("unit", world, atlas.pk)).text
    assert "Capt. Mara Holt died: 2 Morale hits at once" in page
    assert "Capt. Mara Holt was killed" not in page
    # A dead leader's hit points are no more corrected: the form asks them no more.
    assert "leader_hit_points" not in client.get(_url("unit", world, atlas.pk)).text


def test_the_characters_page_says_where_a_named_leaders_hit_points_are_set(client, world):
    _led_unit(world, "Atlas", name="Capt. Mara Holt", hit_points=3)
    login(client, world, "gm")
    page = client.get(_url("characters", world)).text
    assert "its hit points are set by the GM's “Correct this unit” on the unit's page" in page


def test_an_invitation_withdrawn_while_its_page_was_open_says_so_and_what_to_do(client, world):
    """Accept (or Decline) pressed on a campaigns page drawn before the GM withdrew the
    invitation: a page that says it is not waiting and to ask the GM, not a bare "not found";
    nothing joined."""
    campaign = world.campaign
    login(client, world, "gm")
    client.post(reverse("campaign:invite", args=[campaign.pk]),
                {"invitee": "outsider", "role": "player"})  # fmt: skip
    invitation = campaign.invitations.get(invitee="outsider")
    login(client, world, "outsider")
    assert "invites you as a player" in client.get(reverse("campaign:list")).text
    login(client, world, "gm")
    client.post(reverse("campaign:invitation-withdraw", args=[campaign.pk, invitation.pk]))
    assert not campaign.invitations.exists()
    login(client, world, "outsider")
    for answer in ("accept", "decline"):
        page = client.post(reverse(f"campaign:invitation-{answer}", args=[invitation.pk]))
        assert page.status_code == 404
        text = page.content.decode()
        assert "This invitation is not waiting" in text
        assert "the GM withdrew it" in text and "ask the GM for a new invitation" in text
        assert f'href="{reverse("campaign:list")}"' in text
    assert not campaign.memberships.filter(user=world.users["outsider"]).exists()
