"""Two units on the same ground, on the map replay of a phone, in a real Chromium.

The demo's Battle of the Crossroads ends with Tiger One (Size 3) and Old Faithful (Size 4)
on the same spot of the crossroads. The scenario lists Tiger One first, so the map drew Old
Faithful over it: the tank was hidden whole, and a tap on it named Old Faithful. The replay
draws the two apart enough to see each, its number and all (``spreadMarkers`` in map-markers.js),
the smaller over the bigger (``battles.table.drawing_order``), and a tap names either.
Screenshots go to test-artifacts/browser/ (``replay-stack-*``).
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from campaign.demo import DEMO_CAMPAIGN, demo_load
from campaign.models import Campaign
from tests.web.browser import PASSWORD, expect, shoot
from tests.web.browser_world import at_size

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CIRCLES = """() => Object.fromEntries([...document.querySelectorAll('[data-replay] [data-unit]')]
  .map(g => { const b = g.querySelector('circle').getBoundingClientRect();
              return [g.querySelector('.unit-label').textContent,
                      [b.x + b.width / 2, b.y + b.height / 2, b.width / 2]]; }))"""
"""Each unit's circle as drawn, by the name under it: its centre and radius in CSS px."""

ON_TOP = """([x, y]) => { const g = document.elementFromPoint(x, y).closest('[data-unit]');
  return g ? g.querySelector('.unit-label').textContent : null; }"""
"""The name of the unit drawn uppermost at a point of the window (null: none)."""


@pytest.fixture
def crossroads(django_db_blocker):
    """The demo, its player alice logging in with the test password, made before Playwright
    starts; gives the Crossroads battle's page."""
    demo_load()
    alice = get_user_model().objects.get(username="alice")
    alice.set_password(PASSWORD)
    alice.save()
    campaign = Campaign.objects.get(name=DEMO_CAMPAIGN)
    battle = campaign.battles.get(name="Battle of the Crossroads")
    return f"/campaigns/{campaign.pk}/battles/{battle.pk}/"


def test_a_unit_on_a_bigger_ones_ground_is_seen_and_named_by_a_tap(
    crossroads, page_for, live_server
):
    page = at_size(page_for("alice", touch=True), "phone")
    page.goto(live_server.url + crossroads)
    page.click("[data-replay] button[data-action=last]")
    page.locator("[data-replay] svg.table-map").scroll_into_view_if_needed()
    circles = page.evaluate(CIRCLES)
    selected = page.locator("[data-replay] [data-selected]")
    for name, words in (
        ("Tiger One", "Tiger One, Red Company, Size 3"),
        ("Old Faithful", "Old Faithful, Blue Battalion, Size 4"),
    ):
        x, y, _ = circles[name]
        assert page.evaluate(ON_TOP, [x, y]) == name, name  # its number is seen
        page.touchscreen.tap(x, y)
        expect(selected).to_contain_text(f"Selected: {words}")
    tx, ty, tr = circles["Tiger One"]
    ox, oy, o_r = circles["Old Faithful"]
    apart = ((tx - ox) ** 2 + (ty - oy) ** 2) ** 0.5
    assert apart < tr + o_r, (apart, tr, o_r)  # drawn apart, yet still touching
    shoot(page, "replay-stack-phone")
    assert not page.errors, page.errors
