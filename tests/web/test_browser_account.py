"""A player's own e-mail address in a real browser, on a phone: from the dashboard's notices
panel to "Your account", a refused address, the link asked for, confirmed from its page, and
the notices then offered. Screenshots go to test-artifacts/browser/ (``account-*``)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.web.browser import expect, shoot
from tests.web.browser_world import SIZES, at_size, scroll_width

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def taken(browser_world):
    """The rival's address, set before Playwright starts."""
    rival = browser_world.users["rival"]
    rival.email = "rival@example.org"
    rival.save()
    return rival.email


def _asked_key() -> str:
    from django.db import connection

    from campaign.models import EmailChange

    try:
        return EmailChange.objects.get().key
    finally:
        connection.close()  # the thread's own: closed, so the test database can be dropped


def test_a_player_adds_and_confirms_their_address_on_a_phone(
    browser_world, taken, page_for, live_server
):
    phone = at_size(page_for("player"), "phone")
    phone.goto(f"{live_server.url}/campaigns/{browser_world.campaign.pk}/")
    phone.get_by_role("link", name="Add one to your account").click()
    expect(phone.locator("h1")).to_have_text("Your account")
    assert scroll_width(phone) <= SIZES["phone"]["width"]
    phone.fill("#id_email_ask_address", taken)
    phone.get_by_role("button", name="Mail me the link").click()
    expect(phone.locator("#id_email_ask_address_error")).to_have_text(
        "Another account has this e-mail address."
    )
    phone.fill("#id_email_ask_address", "Player@Example.org")
    phone.get_by_role("button", name="Mail me the link").click()
    expect(phone.locator(".messages")).to_contain_text(
        "A link to confirm player@example.org was mailed to it: open it within 3 days."
    )
    shoot(phone, "account-phone-asked", full_page=True)

    # The link the mail carries (the worker's mail is tested on its own), read outside
    # Playwright's event loop, where the ORM may not run.
    with ThreadPoolExecutor(1) as thread:
        key = thread.submit(_asked_key).result()
    phone.goto(f"{live_server.url}/accounts/email/{key}/")
    expect(phone.locator("main")).to_contain_text(
        "Make player@example.org the e-mail address of your account, player?"
    )
    phone.get_by_role("button", name="Confirm").click()
    expect(phone.locator(".messages")).to_contain_text(
        "player@example.org is your e-mail address now."
    )
    expect(phone.get_by_role("button", name="Remove player@example.org")).to_be_visible()
    shoot(phone, "account-phone-confirmed", full_page=True)
    phone.goto(f"{live_server.url}/campaigns/{browser_world.campaign.pk}/")
    expect(phone.locator("#notices-form")).to_contain_text("Sent to player@example.org")
    assert phone.errors == []
