"""A newcomer starts a campaign of their own in a real browser: from the empty campaigns list
to the dashboard's first steps, an invitation named in them, and a battle's set-up that says
how to raise the units it lists. Screenshots go to test-artifacts/browser/ (``first-*``)."""

from __future__ import annotations

import pytest

from campaign.units_offered import NO_UNITS
from tests.web.browser import expect, shoot
from tests.web.browser_world import SIZES, at_size, scroll_width

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_newcomer_starts_a_campaign_and_is_told_each_next_step(browser_world, page_for):
    gm = page_for("outsider")  # in no campaign of the world
    expect(gm.locator("main")).to_contain_text("You are not in any campaign yet.")
    gm.fill("#create-form input[name=name]", "Op. Driftwood")
    gm.click("#create-form button[type=submit]")
    gm.wait_for_url("**/campaigns/*/")
    steps = gm.locator(".first-steps")
    expect(steps).to_contain_text("Invite your players below")
    expect(gm.locator("#quick-form-tool")).not_to_have_attribute("open", "")

    gm.fill("#invitation-form input[name=invitee]", "rosa")
    gm.click("#invitation-form button[type=submit]")
    expect(gm.locator("#invitations")).to_contain_text("rosa, as a player")
    gm.reload()
    expect(steps).to_contain_text("Invited, not joined yet: rosa.")
    for size in SIZES:
        at_size(gm, size)
        assert scroll_width(gm) <= SIZES[size]["width"]
        shoot(gm, f"first-dashboard-{size}", locator=gm.locator(".cockpit"))

    at_size(gm, "desktop")
    gm.click(".first-steps >> text=Set up a battle")
    expect(gm.locator(".deploy tbody")).to_contain_text(NO_UNITS)
    shoot(gm, "first-setup", locator=gm.locator(".deploy"))
    assert not gm.errors, gm.errors
