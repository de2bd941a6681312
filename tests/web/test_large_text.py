"""Text made twice as large (a phone's accessibility setting, or the browser's) loses nothing
and does not send the page sideways: a grid of boxes that wrap ("as many 20rem columns as
fit") falls to one column as wide as the screen, never to one wider than it; and every text
grows with the reader's setting, none held at a size in pixels.

The force page's and unit page's forms (.actions-row) asked for columns at least 20rem wide:
at 200% text that is 640px, and on a 390px phone the medics', the combat zone's and the
add-a-unit forms ran off the screen's right edge, their words cut, the page scrolling sideways.
"""

from __future__ import annotations

import re

from tests.web.test_dark_mode import SHEETS, STATIC, _rules

SIZE = re.compile(r"(?:^|\s)(\d*\.?\d+)px\b")
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


def test_every_text_grows_with_the_size_the_reader_sets():
    """The page's text was 16px (the printed card's 14px): with the browser's text set to
    twice its size, headings and notes in rem grew while the paragraphs, table cells and
    buttons that take the page's size stayed as small as ever. Sizes in px are left only to
    the drawings' labels, in the units of their own viewBox, which grow with the drawing."""
    fixed = []
    for sheet in [*SHEETS, "campaign/card.css"]:
        for _, selector, declared in _rules((STATIC / sheet).read_text()):
            for prop in ("font", "font-size"):
                for size in SIZE.findall(declared.get(prop, "")):
                    # A map's labels are a fraction of its inch squares; a chart's, its axes'.
                    drawing = float(size) < 4 or "axis" in selector
                    if not drawing:
                        fixed.append(f"{sheet} {selector} {{{prop}: {declared[prop]}}}")
    assert not fixed, "\n".join(fixed)


def test_a_long_word_in_large_text_breaks_rather_than_run_off_a_phones_screen():
    """At twice the text size on a phone, "Leadership, Squad/Squadron Tactics" on the
    Characters page and "2 of 4 for the next step" beside Experience on a unit's page were
    wider than the screen: cut at its edge, the page scrolling sideways. A phone's row of a
    stacked table breaks such a word, and a unit's facts give their words the width that is
    left (minmax(0, …)), never more."""
    rules = [rule for sheet in SHEETS for rule in _rules((STATIC / sheet).read_text())]
    phone = [d for m, s, d in rules if m and "max-width: 40rem" in m and "table.stack td" in s]
    assert any(d.get("overflow-wrap") == "anywhere" for d in phone)
    facts = [d["grid-template-columns"] for m, s, d in rules if s == ".facts" and m is None]
    assert facts == ["auto minmax(0, 1fr)"]


def test_a_stacked_tables_column_name_is_never_broken_inside_a_word():
    """At twice the text size on a phone, the dashboard's "Outcome" beside a fight's outcome
    broke as "Outco/me": the column's name shrank to give the cell's words room, as far as
    breaking anywhere let it. It breaks between its words only, and the cell's words go under
    it when the two cannot share a line whole."""
    rules = [rule for sheet in SHEETS for rule in _rules((STATIC / sheet).read_text())]
    phone = [(s, d) for m, s, d in rules if m and "max-width: 40rem" in m]
    label = [d for s, d in phone if s == "table.stack td::before"]
    assert label and all(d.get("overflow-wrap") == "normal" for d in label)
    cell = [d for s, d in phone if s == "table.stack td" and d.get("display") == "flex"]
    assert cell and all(d.get("flex-wrap") == "wrap" for d in cell)
