"""Every campaign page on a 390 px phone whose reader has set text twice as big (the browser's
text size, which the page's ``rem`` follow): nothing scrolls sideways, for the GM or a player.

In the big text a form's fields laid side by side (the set-up's name, turn limit and seed, the
table result's, the unit search's) kept each as wide as its input's own width, wider than the
phone; the map editor's boxes of controls were as wide as their widest; and a name with no
space to break at (a force's, in a map's or chart's key, the "Find a unit of" label, a list of
checkboxes) or an applied battle's real date and time did not break. Screenshots go to
test-artifacts/browser/ (``big-text-*``)."""

from __future__ import annotations

import pytest

from tests.web.browser import shoot
from tests.web.browser_world import SIZES, at_size, scroll_width, sticking_out
from tests.web.test_browser_phone_fit import invited, pages  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TWICE = "html { font-size: 200% !important; }"
"""The text size a reader sets in the browser, twice the usual, as the page's ``rem`` see it."""
ROOT_SIZE = "parseFloat(getComputedStyle(document.documentElement).fontSize)"


@pytest.mark.parametrize("role", ["gm", "player"])
def test_no_page_scrolls_sideways_on_a_phone_with_text_twice_as_big(
    invited,  # noqa: F811
    browser_world,
    page_for,
    live_server,
    role,
):
    page = at_size(page_for(role), "phone")
    width = SIZES["phone"]["width"]
    wide = []
    for name, path in pages(browser_world, role, invited).items():
        response = page.goto(f"{live_server.url}{path}")
        assert response.status == 200, (role, name, response.status)
        page.add_style_tag(content=TWICE)
        assert page.evaluate(ROOT_SIZE) == 32, name
        drawn = scroll_width(page)
        if drawn > width:
            out = ", ".join(sticking_out(page))
            wide.append(f"{name}: {drawn} px in a {width} px window: {out}")
            shoot(page, f"big-text-{role}-{name}")
    assert not wide, "\n".join(wide)
    assert not page.errors, page.errors
