"""A roster sorted with the keyboard, in a real Chromium: Enter on a column's heading sorts the
table (htmx swaps the sorted one in) and the keyboard stays on that heading's link, named by
the column alone (the arrow drawn beside it is for the eye; ``aria-sort`` tells a screen reader
the order), and Tab goes on to the next column. The swap used to drop the keyboard at the top
of the page, the next Tab on the skip link."""

from __future__ import annotations

import re

import pytest

from tests.web.browser import expect, shoot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_roster_sorted_by_keyboard_keeps_the_keyboard_on_its_column(
    browser_world, page_for, live_server
):
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    page = page_for("player")
    page.goto(f"{c}/forces/{browser_world.force.pk}/")
    page.wait_for_load_state("load")  # htmx, deferred, has bound the links
    roster = page.locator("#roster")
    skill = roster.get_by_role("link", name="Skill", exact=True)
    skill.focus()
    for order in ("ascending", "descending"):
        # htmx has settled the last swap: until then the new link still carries the old one's
        # attributes, and a press so quick asks for the old order again.
        expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)
        page.keyboard.press("Enter")
        heading = roster.locator(f"th[aria-sort={order}]")
        expect(heading).to_have_text(re.compile(r"^\s*Skill [▲▼]\s*$"))
        expect(page).to_have_url(re.compile(r"\?sort=-?skill$"))
        link = heading.get_by_role("link", name="Skill", exact=True)
        expect(link).to_be_focused()
    shoot(page, "access-roster-sorted", locator=roster)
    page.keyboard.press("Tab")
    following = roster.locator("th[aria-sort]").locator("xpath=following-sibling::th[1]//a")
    expect(following).to_be_focused()
    assert not page.errors, page.errors
