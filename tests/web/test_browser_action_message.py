"""After an action whose page opens down at one of its parts ("see below": #review), the
message at the top of the page is said, and the keyboard goes on from that part: the first Tab
does not send the reader back up to the top; and the message goes once a later form on the page
is refused in place (bridgehead/messages.js)."""

from __future__ import annotations

import re

import pytest

from tests.web.browser import expect
from tests.web.browser_world import at_size

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AFTER_REVIEW = """() => {
  const review = document.getElementById("review");
  const now = document.activeElement;
  return review.contains(now)
    || Boolean(review.compareDocumentPosition(now) & Node.DOCUMENT_POSITION_FOLLOWING);
}"""
"""Whether the focus is in the review or further down the page."""


def test_after_an_outcome_is_applied_tab_goes_on_from_the_review(
    browser_world, page_for, live_server
):
    gm = at_size(page_for("gm"), "phone")
    gm.goto(f"{live_server.url}/campaigns/{browser_world.campaign.pk}/")
    gm.locator(".cockpit a:has-text('Review and apply')").click()
    gm.click("#confirm-form button:has-text('Apply these changes')")
    gm.wait_for_url(re.compile(r"/battles/\d+/#review$"))
    said = gm.locator(".messages")
    expect(said).to_contain_text("Outcome applied to")
    expect(said).to_be_focused()  # a screen reader says it
    review = gm.locator("#review")
    expect(review).to_be_in_viewport()
    at = gm.evaluate("window.scrollY")
    assert at > 0  # the review is down the page, the message at its top
    gm.keyboard.press("Tab")
    assert gm.evaluate(AFTER_REVIEW), gm.evaluate("document.activeElement.outerHTML")
    assert gm.evaluate("window.scrollY") >= at  # not sent back up to the message
    assert gm.evaluate("document.getElementById('review').getAttribute('tabindex')") is None


def test_a_form_refused_in_place_takes_away_the_message_of_the_step_before(
    browser_world, page_for, live_server
):
    """The settings saved, the message says so; a force then refused under htmx is the step
    the page now answers, and "Done: Settings saved." is no longer shown above its error."""
    gm = page_for("gm")
    gm.goto(f"{live_server.url}/campaigns/{browser_world.campaign.pk}/")
    gm.locator("#settings-form-tool summary").click()
    gm.click("#settings-form button[type=submit]")
    expect(gm.locator(".messages")).to_have_text("Done: Settings saved.")
    gm.locator("#force-form-tool summary").click()
    gm.locator("#force-form").evaluate("form => { form.noValidate = true; }")  # as sent bare
    gm.click("#force-form button[type=submit]")
    expect(gm.locator("#id_force_name_error")).to_have_text("Fill in “Name”.")
    expect(gm.locator(".messages")).to_have_count(0)
    # A form done loads its page afresh with its own message.
    gm.fill("#force-form input[name=name]", "Third Company")
    gm.locator("#force-form select").first.select_option(index=1)
    gm.click("#force-form button[type=submit]")
    expect(gm.locator(".messages")).to_contain_text("Done:")
