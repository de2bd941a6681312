"""The keyboard's place is always seen: whatever has the focus wears the site's gold ring (or,
on the maps, a gold mark of its own), never a faint one.

The map replay, which the arrow keys step through, once wore a pale grey ring that hardly
showed on the paper (1.4:1 against it); an opened tool (a summary) and a text box wore only
the browser's thin one.
"""

from __future__ import annotations

import re

from tests.web.test_dark_mode import SHEETS, STATIC, _rules

GOLD = "#f0b400"


def _sheets():
    return [rule for sheet in SHEETS for rule in _rules((STATIC / sheet).read_text())]


def test_every_focus_ring_is_the_gold_one():
    faint = []
    for _, selector, declared in _sheets():
        outline = declared.get("outline", "none")
        if ":focus" in selector and outline != "none":
            colour = re.search(r"#[0-9a-fA-F]{3,6}\b|var\(--[\w-]+\)", outline)
            if not colour or colour[0].lower() != GOLD:
                faint.append(f"{selector}: {outline}")
    assert not faint, "\n".join(faint)


def test_the_gold_ring_marks_every_kind_of_control():
    ringed = {s for _, s, declared in _sheets() if declared.get("outline") == f"3px solid {GOLD}"}
    for control in ("a", "button", "input", "select", "textarea", "summary", "[tabindex]"):
        assert f"{control}:focus-visible" in ringed, control


def test_the_keyboard_never_lands_under_the_reports_sticky_links():
    """The battle report's links (Outcome, Replay, Log…) stay at the top of the screen; going
    back up the report with Shift+Tab, the browser scrolls each control just into view, which
    was under them. The page keeps their height clear at the top whenever it scrolls."""
    rules = _sheets()
    sticky = [d for _, s, d in rules if s == ".report-nav" and d.get("position") == "sticky"]
    assert sticky, "the report's links stay at the top"
    clear = [d for _, s, d in rules if s == ":root:has(.report-nav)"]
    assert clear and clear[0].get("scroll-padding-top") == "4.5rem"
