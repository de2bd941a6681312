"""Every campaign page's headings, as a screen reader lists them to move by, for the GM and a
player: one level-1 heading, no level skipped on the way down, and a region named by its own
heading (a ``section`` or ``aside``) holds only headings below it. The dashboard's "Forces"
region ran on over the whole main column, holding "Needs attention", "Recent battles and
engagements" and "People" as if they were the forces'; a unit's "Now" held its "Card for the
next battle", and "Between battles" its combat zone and leader, at its own level."""

from __future__ import annotations

import pytest

from tests.web.test_browser_phone_fit import invited, pages  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OUTLINE = """() => {
  const shown = h => h.checkVisibility() || h.classList.contains("visually-hidden");
  const heads = [...document.querySelectorAll("h1, h2, h3, h4, h5, h6")].filter(shown);
  const level = h => +h.tagName[1];
  const words = h => `h${level(h)} "${h.textContent.trim().replace(/\\s+/g, " ").slice(0, 50)}"`;
  const wrong = [];
  const ones = heads.filter(h => level(h) === 1).length;
  if (ones !== 1) wrong.push(`${ones} level-1 headings`);
  heads.forEach((h, i) => {
    const before = heads[i - 1];
    if (i && level(h) > level(before) + 1) wrong.push(`${words(h)} after ${words(before)}`);
  });
  const regions = "section[aria-labelledby], aside[aria-labelledby]";
  for (const region of document.querySelectorAll(regions)) {
    const own = document.getElementById(region.getAttribute("aria-labelledby"));
    if (!own || !/^H[1-6]$/.test(own.tagName) || !region.contains(own)) continue;
    for (const h of region.querySelectorAll("h1, h2, h3, h4, h5, h6")) {
      if (h === own || !shown(h) || level(h) > level(own)) continue;
      wrong.push(`${words(own)} holds ${words(h)}`);
    }
  }
  return wrong;
}"""
"""What is wrong with the page's headings, in words."""


@pytest.mark.parametrize("role", ["gm", "player"])
def test_every_pages_headings_go_down_in_order_and_each_region_holds_its_own(
    invited,  # noqa: F811
    browser_world,
    page_for,
    live_server,
    role,
):
    page = page_for(role)
    wrong = []
    for name, path in pages(browser_world, role, invited).items():
        response = page.goto(f"{live_server.url}{path}")
        assert response.status == 200, (role, name, response.status)
        wrong += [f"{name}: {said}" for said in page.evaluate(OUTLINE)]
    assert not wrong, "\n".join(wrong)
    assert not page.errors, page.errors
