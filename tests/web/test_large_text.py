"""Text made twice as large (a phone's accessibility setting, or the browser's) loses nothing
and does not send the page sideways: a grid of boxes that wrap ("as many 20rem columns as
fit") falls to one column as wide as the screen, never to one wider than it.

The force page's and unit page's forms (.actions-row) asked for columns at least 20rem wide:
at 200% text that is 640px, and on a 390px phone the medics', the combat zone's and the
add-a-unit forms ran off the screen's right edge, their words cut, the page scrolling sideways.
"""

from __future__ import annotations

import re

from tests.web.test_dark_mode import SHEETS, STATIC, _rules

WRAPPING = re.compile(r"repeat\(\s*auto-fi(?:ll|t)\s*,\s*minmax\(\s*([^,]+?)\s*,")


def _wrapping_columns(sheets):
    for sheet in sheets:
        for _, selector, declared in _rules((STATIC / sheet).read_text()):
            for column in WRAPPING.findall(declared.get("grid-template-columns", "")):
                yield sheet, selector, column


def test_a_wrapping_grid_never_asks_for_a_column_wider_than_the_screen():
    found = list(_wrapping_columns([*SHEETS, "campaign/card.css"]))
    assert len(found) >= 4, found  # the force page's forms, the library, the cards, the numbers
    wide = [
        f"{sheet} {selector}: minmax({column}, …)"
        for sheet, selector, column in found
        if not (column == "0" or column.startswith("min(100%"))
    ]
    assert not wide, "\n".join(wide)
