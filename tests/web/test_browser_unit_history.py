"""A unit's history in a real Chromium, on a phone and a desktop: one order, the server's, newest
first, drawn top to bottom in the order a screen reader reads it. A stylesheet that turned the
list round on a phone alone showed it oldest first on a desktop and newest first on a phone,
and read it aloud on the phone in the opposite order to the one shown."""

from __future__ import annotations

import pytest

from tests.web.browser import shoot
from tests.web.browser_world import SIZES
from tests.web.paging import add_notes

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DRAWN = """ol => [...ol.querySelectorAll(':scope > li')].map(li => {
  const box = li.getBoundingClientRect();
  return {text: li.innerText, top: box.top};
})"""


@pytest.fixture
def noted(browser_world):
    """The world with three GM's notes on its unit, written before Playwright starts (see
    ``cast`` in tests/web/browser.py for why)."""
    add_notes(browser_world.unit, [1, 1, 1])
    return browser_world


def test_a_units_history_runs_in_one_order_on_a_phone_and_a_desktop(noted, page_for, live_server):
    world = noted
    page = page_for("player")
    page.goto(f"{live_server.url}/campaigns/{world.campaign.pk}/units/{world.unit.pk}/")
    seen = {}
    for width in (SIZES["phone"]["width"], 1280):
        page.set_viewport_size({"width": width, "height": 900})
        drawn = page.locator("ol.story").evaluate(DRAWN)
        tops = [line["top"] for line in drawn]
        # Drawn top to bottom in the order the page reads them.
        assert tops == sorted(tops) and len(set(tops)) == len(tops), (width, drawn)
        seen[width] = [line["text"] for line in drawn]
        shoot(page, f"unit-history-{width}", locator=page.locator("ol.story"))
    phone, desktop = seen.values()
    assert phone == desktop
    assert "Note 2." in phone[0] and "Raised in Red Company" in phone[-1]
    assert not page.errors, page.errors
