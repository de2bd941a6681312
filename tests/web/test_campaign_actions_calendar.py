"""The GM's actions on the campaign pages answer as a form should: the calendar advanced back to the
dashboard, or under htmx to the summary, each advance summed up as the units were left, a bad day
count put next to its field; the medics sent in or told there are none; and every action answering
htmx with a redirect and garbage with a refusal, never a 500."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from campaign.models import Campaign, Unit
from campaign.services import campaign_update, unit_edit
from tests.web.campaign_world import login

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
