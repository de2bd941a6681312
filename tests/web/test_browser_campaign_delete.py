"""Deleting a campaign in Chromium, at a phone's size: from the dashboard's settings to the
page that asks for its name, a misnamed attempt refused beside the field, then the campaign
gone from the list. Screenshots go to test-artifacts/browser/."""

from __future__ import annotations

import pytest

from tests.web.browser import expect, shoot
from tests.web.browser_world import at_size, scroll_width

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_gm_deletes_a_campaign_by_typing_its_name(browser_world, page_for, live_server):
    page = at_size(page_for("gm"), "phone")
    dashboard = f"{live_server.url}/campaigns/{browser_world.campaign.pk}/"
    page.goto(dashboard)
    page.locator("#settings-form-tool > summary").click()
    page.get_by_role("link", name="Delete the campaign").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Delete Op. Pages?")
    assert scroll_width(page) <= 390
    shoot(page, "campaign-delete-phone")
    name = page.get_by_label("The campaign's name")
    name.fill("Op Pages")
    page.get_by_role("button", name="Delete the campaign for good").click()
    error = page.locator("#id_campaign_delete_name_error")
    expect(error).to_have_text("Type the campaign's name, Op. Pages, to delete it.")
    expect(page.get_by_label("The campaign's name")).to_be_focused()
    page.get_by_label("The campaign's name").fill("Op. Pages")
    page.get_by_role("button", name="Delete the campaign for good").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("My campaigns")
    expect(page.get_by_text("Op. Pages is deleted, with everything in it.")).to_be_visible()
    expect(page.get_by_role("link", name="Op. Pages")).to_have_count(0)
    gone = page.goto(dashboard)
    assert gone.status == 404
    # The refusal's own 400 and the 404 of the campaign that is gone.
    others = [e for e in page.errors if "status of 40" not in e]
    assert not others, others
