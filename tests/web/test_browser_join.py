"""Joining by an invitation's link in a real browser: the GM copies the link from the
dashboard, and a newcomer on a phone opens it, makes an account and is in the campaign.
Screenshots go to test-artifacts/browser/ (``join-*``)."""

from __future__ import annotations

import pytest

from tests.web.browser import TIMEOUT_MS, expect, shoot
from tests.web.browser_world import SIZES, scroll_width

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def invitation(browser_world):
    """An invitation by e-mail to someone with no account, made before Playwright starts."""
    from campaign.services import invitation_send

    invitation_send(campaign=browser_world.campaign, invitee="dave@example.com", role="player",
                    actor=browser_world.users["gm"])  # fmt: skip
    return browser_world.campaign.invitations.get(invitee="dave@example.com")


def test_a_newcomer_joins_on_a_phone_by_the_link_the_gm_copied(
    invitation, browser_world, page_for, chromium, live_server
):
    gm = page_for("gm")
    gm.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    gm.goto(f"{live_server.url}/campaigns/{browser_world.campaign.pk}/")
    copy = gm.get_by_role("button", name="Copy the link of the invitation to dave@example.com")
    copy.click()
    expect(copy).to_have_text("Copied")
    link = gm.evaluate("navigator.clipboard.readText()")
    assert link == f"{live_server.url}/campaigns/join/{invitation.link_key}/"
    shoot(gm, "join-gm-link", locator=gm.locator("#invitations"))

    context = chromium.new_context(viewport=SIZES["phone"])
    try:
        phone = context.new_page()
        phone.set_default_timeout(TIMEOUT_MS)
        phone.goto(link)
        expect(phone.locator("h1")).to_have_text("Join Op. Pages")
        expect(phone.locator("#id_new_account_email")).to_have_value("dave@example.com")
        assert scroll_width(phone) <= SIZES["phone"]["width"]
        phone.fill("#id_new_account_username", "dave")
        for field in ("#id_new_account_password", "#id_new_account_password_again"):
            phone.fill(field, "short")
        phone.click("#join-form button[type=submit]")
        expect(phone.locator("#id_new_account_password_error")).to_contain_text("too short")
        shoot(phone, "join-phone-refused", full_page=True)
        for field in ("#id_new_account_password", "#id_new_account_password_again"):
            phone.fill(field, "river-crossing-42")
        phone.click("#join-form button[type=submit]")
        phone.wait_for_url(f"{live_server.url}/campaigns/{browser_world.campaign.pk}/")
        expect(phone.locator(".messages")).to_contain_text("You are in Op. Pages as a player.")
        expect(phone.locator("header nav")).to_contain_text("dave")
        shoot(phone, "join-phone-joined")
        phone.goto(link)
        expect(phone.locator("h1")).to_have_text("This invitation is not waiting")
    finally:
        context.close()
    assert not gm.errors, gm.errors
