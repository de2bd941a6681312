"""Close units on the set-up map of a 390 px phone, in a real Chromium.

A phone draws each unit's circle larger than its inches (``--marker-scale``); two units the GM
put a quarter of an inch apart lay one over the other, their numbers run together ("12"), and a
tap could not tell them apart. The set-up map spreads them as the replay spreads its markers
(``spreadMarkers`` in map-markers.js); the table keeps the positions as typed. Screenshots go to
test-artifacts/browser/ (``setup-markers-*``).
"""

from __future__ import annotations

import pytest

from tests.web.browser import expect, shoot
from tests.web.browser_world import at_size

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CONTACT = 0.75
"""How far apart the map draws two markers on the same ground, as a share of their radii summed
(``CONTACT`` in map-markers.js)."""

SCALE = 1.3
"""How much larger a phone draws a marker than its inches (``--marker-scale``)."""

TYPED = (("6", "3"), ("6.25", "3"))
"""Where the GM types the first two units of the table: a quarter of an inch apart, in the
first side's deployment zone of the Crossroads."""

CIRCLES = """() => Object.fromEntries([...document.querySelectorAll('[data-deploy-unit]')]
  .filter(g => !g.classList.contains('unplaced'))
  .map(g => { const c = g.querySelector('circle'); const b = c.getBoundingClientRect();
              return [g.dataset.deployUnit, [b.x + b.width / 2, b.y + b.height / 2, b.width / 2,
                                              parseFloat(c.getAttribute('r'))]]; }))"""
"""Each placed unit's circle as drawn, by its id: centre and radius in CSS px, and its inches."""

ON_TOP = """([x, y]) => { const g = document.elementFromPoint(x, y).closest('[data-deploy-unit]');
  return g ? g.dataset.deployUnit : null; }"""
"""The id of the unit drawn uppermost at a point of the window (null: none)."""

PX_PER_INCH = """() => document.querySelector('[data-deploy-map] svg').getScreenCTM().a"""


@pytest.fixture
def all_ready(browser_world):
    """Every unit of the world ready to fight, made before Playwright starts."""
    from tests.web.test_campaign_battles import _free_all

    _free_all(browser_world)


def test_two_units_typed_close_on_a_phone_are_drawn_apart_and_keep_their_positions(
    all_ready, browser_world, page_for, live_server
):
    page = at_size(page_for("gm", touch=True), "phone")
    campaign = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    page.goto(f"{campaign}/battles/new/?scenario=crossroads")
    rows = page.locator("[data-deploy-row]")
    first, second = (rows.nth(i).get_attribute("data-deploy-row") for i in range(2))
    for pk, (x, y) in zip((first, second), TYPED, strict=True):
        page.select_option(f"[name=side_{pk}]", index=1)
        for name, value in (("x", x), ("y", y)):
            page.fill(f"[name={name}_{pk}]", value)
            page.dispatch_event(f"[name={name}_{pk}]", "change")
    expect(page.locator(f"[data-deploy-unit='{second}']")).not_to_have_class("unplaced")
    page.locator("[data-deploy-map] svg").scroll_into_view_if_needed()

    circles = page.evaluate(CIRCLES)
    (ax, ay, ar, a_inches), (bx, by, br, _) = circles[first], circles[second]
    assert ar / page.evaluate(PX_PER_INCH) == pytest.approx(a_inches * SCALE, abs=0.01)
    apart = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
    assert apart >= CONTACT * (ar + br) - 0.5, (apart, ar, br)  # a quarter over, no more
    assert apart < ar + br  # still touching
    for pk, x, y in ((first, ax, ay), (second, bx, by)):
        assert page.evaluate(ON_TOP, [x, y]) == pk  # its number, at its centre, is seen
        page.touchscreen.tap(x, y)
        assert page.evaluate("document.activeElement.dataset.deployUnit") == pk  # a tap picks it
    # Only the drawing moved: the table keeps the positions as typed.
    for pk, (x, y) in zip((first, second), TYPED, strict=True):
        assert page.input_value(f"[name=x_{pk}]") == x
        assert page.input_value(f"[name=y_{pk}]") == y
    shoot(page, "setup-markers-phone", locator=page.locator("[data-deploy-map] svg"))
    assert not page.errors, page.errors
