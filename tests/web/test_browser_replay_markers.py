"""The replay's markers on a 390 px phone, where they are drawn larger than their inches
(``--marker-scale``), in a real Chromium.

A tap names a unit anywhere on its circle as drawn, and close markers are spread apart by the
circles as drawn (``drawnRadius`` in map-markers.js): measured by their inches, a tap on the outer
ring of a big unit's circle named the small unit beside it, and two markers left alone by their
inches lay over each other by more than the quarter the replay allows. Screenshots go to
test-artifacts/browser/ (``replay-markers-*``).
"""

from __future__ import annotations

import pytest

from battles.services import battle_launch, battle_resolve
from tests.engine.helpers import scenario, unit
from tests.web.browser import expect, shoot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

CONTACT = 0.75
"""How far apart the replay draws two markers on the same ground, as a share of their radii
summed (``CONTACT`` in map-markers.js)."""

SCALE = 1.3
"""How much larger a phone draws a marker than its inches (``--marker-scale``)."""

LEFT_X = 16.0
GAP = 1.06
"""Two Size 4 units (0.7″ each) this far apart lie over each other by just less than a quarter
of their radii: left where they stand at their inches, by much more drawn 1.3 times larger."""

CIRCLES = """() => Object.fromEntries([...document.querySelectorAll('[data-replay] [data-unit]')]
  .map(g => { const b = g.querySelector('circle').getBoundingClientRect();
              return [g.dataset.unit, [b.x + b.width / 2, b.y + b.height / 2, b.width / 2]]; }))"""
"""Each unit's circle as drawn, by its id: its centre and radius in CSS px of the window."""

ON_TOP = """([x, y]) => { const g = document.elementFromPoint(x, y).closest('[data-unit]');
  return g ? g.dataset.unit : null; }"""
"""The id of the unit drawn uppermost at a point of the window (null: none)."""

PX_PER_INCH = """() => document.querySelector('[data-replay] svg.table-map').getScreenCTM().a"""


@pytest.fixture
def close_units(cast, django_user_model):
    """A one-off battle whose deployment has a Size 5 tank with a Size 1 squad just off its
    circle, and two Size 4 units ``GAP`` apart; made before Playwright starts."""
    data = scenario(
        [
            unit("tank", (6, 12), name="Tank", size=5, hits=3),
            unit("left", (LEFT_X, 12), name="Left Mech", size=4, hits=3),
            unit("right", (LEFT_X + GAP, 12), name="Right Mech", size=4, hits=3),
        ],
        [unit("squad", (7.62, 12), name="Squad", size=1, hits=1)],
    )
    owner = django_user_model.objects.get(username="commander")
    battle = battle_launch(name="Close", scenario=data, seed=3, created_by=owner, queued=False)
    battle_resolve(battle_id=battle.id)
    return f"/battles/{battle.pk}/"


def _deployment_at(page, live_server, path, size):
    page.set_viewport_size(size)
    page.goto(live_server.url + path)
    expect(page.locator("[data-replay] [data-controls]")).to_be_visible()
    page.locator("[data-replay] svg.table-map").scroll_into_view_if_needed()
    return page.evaluate(CIRCLES)


def test_a_tap_on_the_outer_ring_of_a_circle_drawn_larger_names_its_unit(
    close_units, page_for, live_server
):
    page = page_for("commander", touch=True)
    circles = _deployment_at(page, live_server, close_units, PHONE)
    selected = page.locator("[data-replay] [data-selected]")
    tx, ty, tr = circles["tank"]
    sx, sy, sr = circles["squad"]
    apart = ((sx - tx) ** 2 + (sy - ty) ** 2) ** 0.5
    # On the tank's circle as drawn, toward the squad, 1.5 px inside its edge.
    tap = tr - 1.5
    at = [tx + (sx - tx) * tap / apart, ty + (sy - ty) * tap / apart]
    assert tap > tr / SCALE  # off the circle of its inches
    assert tap > 12  # beyond a tap's reach from the tank's centre
    assert sr < apart - tap < 12  # off the squad's circle, within its reach
    assert page.evaluate(ON_TOP, at) == "tank"

    page.touchscreen.tap(*at)
    expect(selected).to_contain_text("Selected: Tank, Blue, Size 5")
    shoot(page, "replay-markers-ring-phone")
    assert not page.errors, page.errors


def test_close_markers_are_spread_by_the_circles_a_phone_draws(close_units, page_for, live_server):
    page = page_for("commander")
    circles = _deployment_at(page, live_server, close_units, PHONE)
    (lx, ly, lr), (rx, ry, rr) = circles["left"], circles["right"]
    apart = ((rx - lx) ** 2 + (ry - ly) ** 2) ** 0.5
    assert lr / page.evaluate(PX_PER_INCH) == pytest.approx(0.7 * SCALE, abs=0.01)
    assert apart >= CONTACT * (lr + rr) - 0.5, (apart, lr, rr)  # a quarter over, no more
    assert apart < lr + rr  # still touching
    for name, x, y in (("left", lx, ly), ("right", rx, ry)):
        assert page.evaluate(ON_TOP, [x, y]) == name  # each one's number is seen
    shoot(page, "replay-markers-spread-phone")

    # At a desktop's size the markers keep their inches, and these two where they stand: the
    # frame is drawn again as the window widens.
    page.set_viewport_size(DESKTOP)
    # The frame is drawn again once the window says it was resized: wait for it, markers
    # and spread both.
    page.wait_for_function(
        f"""() => {{ const c = ({CIRCLES})(), inch = ({PX_PER_INCH})();
          const gap = (c.right[0] - c.left[0]) / inch;
          return c.left[2] / inch < 0.8 && Math.abs(gap - {GAP}) < 0.05; }}""",
        timeout=5_000,
    )
    circles = page.evaluate(CIRCLES)
    (lx, _, lr), (rx, _, _) = circles["left"], circles["right"]
    inch = page.evaluate(PX_PER_INCH)
    assert lr / inch == pytest.approx(0.7, abs=0.01)
    assert (rx - lx) / inch == pytest.approx(GAP, abs=0.01)
    assert not page.errors, page.errors
