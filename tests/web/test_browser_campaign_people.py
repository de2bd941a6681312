"""When the group changes, in Chromium at a phone's size: the GM gives a player's force to
another on its page, then that player leaves the campaign from the dashboard. Screenshots go to
test-artifacts/browser/."""

from __future__ import annotations

import pytest

from tests.web.browser import expect, shoot
from tests.web.browser_world import at_size, scroll_width

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_force_changes_hands_and_its_old_player_leaves(browser_world, page_for, live_server):
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    gm = at_size(page_for("gm"), "phone")
    gm.goto(f"{c}/forces/{browser_world.force.pk}/")
    form = gm.locator("#force-edit-form")
    expect(form.get_by_label("Player")).to_have_value("player")
    form.get_by_label("Player").select_option(label="rival (Player)")
    form.get_by_role("button", name="Save the force").click()
    expect(gm.locator(".messages")).to_contain_text("Red Company is rival's force now.")
    expect(gm.locator(".meta")).to_contain_text("rival's force")
    assert scroll_width(gm) <= 390
    shoot(gm, "force-given-phone")

    player = at_size(page_for("player"), "phone")
    player.goto(f"{c}/")
    player.locator("#leave-form-tool > summary").click()
    leave = player.get_by_role("button", name="Leave Op. Pages")
    expect(leave).to_be_enabled()
    shoot(player, "leave-phone")
    leave.click()
    expect(player.get_by_role("heading", level=1)).to_have_text("My campaigns")
    expect(player.locator(".messages")).to_contain_text("You have left Op. Pages.")
    assert player.goto(f"{c}/").status == 404
    others = [e for e in player.errors + gm.errors if "status of 404" not in e]
    assert not others, others
