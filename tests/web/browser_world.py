"""The campaign test world (``campaign_world``) for the browser: every member can log in with
the test password, and the pages are looked at at the two sizes the site is built for."""

from __future__ import annotations

import pytest

from tests.web.browser import PASSWORD
from tests.web.campaign_world import World, build_world

SIZES = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}
"""The viewports every campaign page is checked at."""

LEAST_TAP = 24
"""How tall, in CSS pixels, a target a thumb must find is at least: WCAG 2.5.8's least, the
stylesheet's ``--tap``."""

UNITS_SINCE = "section[aria-labelledby=since-h]"
"""The dashboard's news of the member's own units since their last visit (the campaign's own
story since then is the section beside it)."""


@pytest.fixture
def browser_world(django_db_blocker) -> World:
    """The world, built before Playwright starts (see ``cast`` in tests/web/browser.py for why)."""
    world = build_world()
    for user in world.users.values():
        if user is not None:
            user.set_password(PASSWORD)
            user.save()
    return world


def at_size(page, size: str):
    page.set_viewport_size(SIZES[size])
    return page


def scroll_width(page) -> int:
    """How wide the page is drawn, in CSS pixels: wider than the window means it scrolls
    sideways."""
    return page.evaluate("document.documentElement.scrollWidth")


WIDEST = """() => {
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    const box = el.getBoundingClientRect();
    let clipped = false;
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      if (getComputedStyle(up).overflowX !== "visible") { clipped = true; break; }
    }
    if (!clipped && box.right > window.innerWidth + 1) {
      out.push(`${el.tagName.toLowerCase()}.${el.className.baseVal ?? el.className}`
        + ` ${Math.round(box.right)}`);
    }
  }
  return out.slice(0, 6);
}"""


def sticking_out(page) -> list[str]:
    """The first elements that reach past the window's right edge (to say what is too wide)."""
    return page.evaluate(WIDEST)
