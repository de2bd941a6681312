"""A battle report's log filtered with the keyboard, in a real Chromium: the keyboard stays on the
filter it changed, and the page's live region says how many events the log now shows (the log,
its count with it, is swapped in anew, a new element a screen reader does not read out)."""

from __future__ import annotations

import re

import pytest

from tests.web.browser import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_log_filtered_by_keyboard_says_its_new_count(browser_world, page_for, live_server):
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    page = page_for("spectator")
    page.goto(f"{c}/battles/{browser_world.engine_battle.pk}/")
    page.wait_for_load_state("load")  # htmx and the live region's script, deferred, are ready
    news = page.locator("#live-news")
    expect(news).to_have_text("")
    kind = page.locator("#log-kind")
    kind.focus()
    page.keyboard.press("ArrowDown")  # the first kind of event: the log is filtered at once
    expect(page).to_have_url(re.compile(r"kind=\w+"))
    count = page.locator(".log-count")
    expect(count).to_have_text(re.compile(r"^Showing \d+ of \d+ events"))
    expect(news).to_have_text(count.inner_text())
    expect(kind).to_be_focused()
    assert not page.errors, page.errors
