"""The keyboard's focus ring stands out from the page round it at 3:1 at least (WCAG 1.4.11, for
the parts of a control that show its state), in light and dark mode, in a real Chromium.

The gold ring alone is 1.8:1 on the light page (9.4:1 on the dark one, 4.1:1 on the green top
bar): a dark line inside it carries it on the light page. Each control Tab reaches on the GM's
dashboard is checked: of its ring's colours (the outline, a box-shadow), the one standing out
most from the ground round the control. Screenshots go to test-artifacts/browser/
(``access-focus-*``)."""

from __future__ import annotations

import pytest

from tests.web.browser import contrast_js, shoot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RING = contrast_js("""
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  const ground = groundOf(e);
  const s = getComputedStyle(e);
  const colours = [];
  if (s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 2) colours.push(s.outlineColor);
  if (s.boxShadow !== "none") colours.push(...s.boxShadow.match(/rgba?\\([^)]+\\)/g));
  const best = Math.max(0, ...colours.map(rgba).filter(c => c && c[3] >= 1)
    .map(c => ratio(c, ground)));
  const words = (e.getAttribute("aria-label") || e.textContent || e.value || "").trim();
  return [`${e.tagName.toLowerCase()} ${words.split(/\\s+/).join(" ").slice(0, 40)}`, best];
""")
"""The control with the focus and how far its ring stands out from the ground round it."""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_focus_ring_stands_out_from_the_page(browser_world, page_for, live_server, scheme):
    page = page_for("gm")
    page.emulate_media(color_scheme=scheme)
    page.goto(f"{live_server.url}/campaigns/{browser_world.campaign.pk}/")
    reached, faint = [], []
    for _ in range(40):
        page.keyboard.press("Tab")
        at = page.evaluate(RING)
        if at is None:
            continue
        reached.append(at[0])
        if at[1] < 3:
            faint.append((at[0], round(at[1], 2)))
        if len(reached) == 12:
            shoot(page, f"access-focus-{scheme}")
    assert len(reached) >= 30, reached  # the top bar's links, the page's own, its forms'
    assert not faint, faint
    assert not page.errors, page.errors
