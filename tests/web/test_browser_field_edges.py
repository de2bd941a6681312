"""Every field of the campaign's forms shows its edge at 3:1 at least against the ground round
it (WCAG 1.4.11: where to type or choose is part of the control), in light and dark mode, in a
real Chromium. In dark mode the fields were edged in the faint line's grey, 1.6:1 on the page.
The GM's page of checks and Requisition and the battle set-up are looked at: between them,
text boxes, number boxes, choices and text areas."""

from __future__ import annotations

import pytest

from tests.web.browser import contrast_js

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EDGES = contrast_js("""
  const fields = [...document.querySelectorAll(
    "main input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([type=range])"
    + ", main select, main textarea")].filter(e => e.checkVisibility());
  return fields.map(e => {
    const ground = groundOf(e);
    const s = getComputedStyle(e);
    const edge = rgba(s.borderTopColor);
    const drawn = s.borderTopStyle !== "none" && parseFloat(s.borderTopWidth) > 0 && edge;
    return [`${e.tagName.toLowerCase()}#${e.id}`, drawn ? ratio(edge, ground) : 0];
  });
""")
"""Each visible field of the page's main part and how far its edge stands out from the ground
round it (0: no edge drawn)."""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_fields_edge_stands_out_from_the_form(browser_world, page_for, live_server, scheme):
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    page = page_for("gm")
    page.emulate_media(color_scheme=scheme)
    seen, faint = set(), []
    for path in ("/checks/", "/battles/new/"):
        page.goto(c + path)
        for field, contrast in page.evaluate(EDGES):
            seen.add(field.split("#")[0])
            if contrast < 3:
                faint.append((path, field, round(contrast, 2)))
    assert {"input", "select", "textarea"} <= seen, seen
    assert not faint, faint
    assert not page.errors, page.errors
