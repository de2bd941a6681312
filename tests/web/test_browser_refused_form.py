"""A refused form at a phone's size: the page drawn again opens on the form's error, not at
its top. Screenshots go to test-artifacts/browser/."""

from __future__ import annotations

import pytest

from tests.web.browser import expect, shoot
from tests.web.browser_world import at_size

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_refused_form_opens_on_its_error_on_a_phone(
    browser_world,
    page_for,
    live_server,
):
    """A form refused without htmx draws its page again from the top: the page opens on the
    field at fault and its error, however far down the form sits (`_common.form_invalid`)."""
    page = at_size(page_for("gm"), "phone")
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    response = page.goto(f"{c}/advance/?days=1000")
    assert response.status == 400
    error = page.locator("#id_advance_days_error")
    expect(error).to_have_text("At most 365 days.")
    expect(error).to_be_in_viewport()
    expect(page.locator("#id_advance_days")).to_be_focused()
    assert page.evaluate("window.scrollY") > 0  # the form is far down the dashboard
    shoot(page, "refused-form-phone")
    others = [e for e in page.errors if "status of 400" not in e]  # the refusal's own
    assert not others, others


def test_a_form_refused_as_a_whole_opens_on_its_error(browser_world, page_for, live_server):
    """A form refused as a whole (no field at fault) gives the focus to what it says above
    the form, not to a field that may sit at the form's foot: the engagement form refused for
    want of units is read out from its error, and Tab goes on from there
    (`focus_first_error`)."""
    page = page_for("gm")
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    page.goto(f"{c}/engagements/new/")
    page.locator("#engagement-form button[type=submit]").click()
    said = page.locator("#engagement-form .form-errors")
    expect(said).to_contain_text("The attackers need at least one unit")
    expect(said).to_be_focused()
    expect(page.locator("#id_engagement_name")).not_to_be_focused()


def test_a_form_refused_under_htmx_gives_the_focus_to_its_field_at_fault(
    browser_world, page_for, live_server
):
    """A table form refused under htmx is swapped in place, its field at fault taking the
    focus as on a page drawn again, and a field left empty is named by its label
    (`required_message`)."""
    page = page_for("gm")
    page.goto(f"{live_server.url}/campaigns/{browser_world.campaign.pk}/orders/")
    page.fill("#clock-form input[name=hours]", "")
    page.locator("#clock-form").evaluate("form => { form.noValidate = true; }")  # as sent bare
    page.locator("#clock-form button[type=submit]").click()
    expect(page.locator("#id_clock_hours_error")).to_have_text("Fill in “Hours”.")
    expect(page.locator("#id_clock_hours")).to_be_focused()
