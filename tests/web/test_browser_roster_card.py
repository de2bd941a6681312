"""A roster in a real Chromium, on a phone and a desktop: each unit's parts drawn in the order a
screen reader reads them. On a phone a unit is a card, its name then its status on top; the
stylesheet used to move them there (CSS ``order``) from the middle of the row, so the card was
read in another order than the one shown. Its status is now the second cell of its row, at every
width: on a desktop the table's second column."""

from __future__ import annotations

import pytest

from tests.web.browser import shoot
from tests.web.browser_world import SIZES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DRAWN = """table => [...table.querySelectorAll('tbody tr')].map(row =>
  [...row.children].map(cell => {
    const box = cell.getBoundingClientRect();
    return {label: cell.dataset.label || cell.tagName, top: Math.round(box.top), left: box.left};
  }))"""


def test_a_roster_cards_parts_are_drawn_in_the_order_they_are_read(
    browser_world, page_for, live_server
):
    world = browser_world
    page = page_for("player")
    page.goto(f"{live_server.url}/campaigns/{world.campaign.pk}/forces/{world.force.pk}/")
    for width in (SIZES["phone"]["width"], 1280):
        page.set_viewport_size({"width": width, "height": 900})
        rows = page.locator("table.roster").evaluate(DRAWN)
        assert rows
        for cells in rows:
            read = [cell["label"] for cell in cells]
            # Drawn top to bottom, each line left to right: the order the page reads them.
            drawn = [c["label"] for c in sorted(cells, key=lambda c: (c["top"], c["left"]))]
            assert drawn == read, (width, drawn, read)
            assert read[:2] == ["TH", "Status"], (width, read)
        shoot(page, f"roster-card-{width}", locator=page.locator("table.roster tbody tr").first)
    assert not page.errors, page.errors
