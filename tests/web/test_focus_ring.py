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
    sticky = [m for m, s, d in rules if s == ".report-nav" and d.get("position") == "sticky"]
    assert sticky, "the report's links stay at the top"
    clear = [(m, d) for m, s, d in rules if s == ":root:has(.report-nav)"]
    assert [m for m, _ in clear] == sticky, "the space is kept clear where they stay, only"
    assert clear[0][1].get("scroll-padding-top") == "4.5rem"


def test_the_reports_links_stay_at_the_top_only_where_there_is_room_for_them():
    """On a phone in large text (200%) the report's links wrap to five lines, 172px, more than
    the 4.5rem (144px) kept clear below them, and hid the control the keyboard had reached:
    they stay at the top only on a screen wider than a phone and not as short as one held
    sideways, where they take two lines at most."""
    (media,) = [m for m, s, d in _sheets() if s == ".report-nav" and d.get("position") == "sticky"]
    assert media and "min-width: 40.01rem" in media and "min-height: 35rem" in media
