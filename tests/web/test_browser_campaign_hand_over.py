"""A campaign handed to another GM, in Chromium at a phone's size: the GM hands it to the co-GM
from the dashboard's Settings and stays as a player; the co-GM now runs it. Screenshots go to
test-artifacts/browser/."""

from __future__ import annotations

import pytest

from tests.web.browser import expect, shoot
from tests.web.browser_world import at_size, scroll_width

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_gm_hands_the_campaign_on_and_stays_as_a_player(browser_world, page_for, live_server):
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    gm = at_size(page_for("gm"), "phone")
    gm.goto(f"{c}/")
    gm.locator("#settings-form-tool > summary").click()
    gm.get_by_role("link", name="Hand the campaign on").click()
    expect(gm.get_by_role("heading", level=1)).to_have_text("Hand Op. Pages to another GM")
    form = gm.locator("#hand-over-form")
    form.get_by_label("Who runs it from now on").select_option(label="co_gm (Co-GM)")
    form.get_by_label("You stay in it as").select_option(label="Player")
    assert scroll_width(gm) <= 390
    shoot(gm, "hand-over-phone")
    form.get_by_role("button", name="Hand the campaign on").click()
    expect(gm.locator(".messages")).to_contain_text(
        "co_gm runs Op. Pages now; you stay in it as a player."
    )
    expect(gm.get_by_text("GM: co_gm")).to_be_visible()
    expect(gm.locator("#settings-form-tool")).to_have_count(0)  # a player's dashboard now

    co_gm = at_size(page_for("co_gm"), "phone")
    co_gm.goto(f"{c}/")
    co_gm.locator("#settings-form-tool > summary").click()
    expect(co_gm.get_by_role("link", name="Delete the campaign")).to_be_visible()
    expect(co_gm.get_by_role("link", name="hand it to another GM")).to_be_visible()
    assert not gm.errors + co_gm.errors, gm.errors + co_gm.errors
