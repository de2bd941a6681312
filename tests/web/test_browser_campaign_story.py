"""The campaign as its players meet it, in a real browser at desktop and phone sizes: the GM's
cockpit leads to a review before Apply and a summary after; battles speak in forces and unit
names; Advance is reviewed too; a player finds what changed since her last visit, reads her
unit's history as sentences and the timeline; printing a roster leaves the site's chrome off.
Every page visited fits the window (no sideways scrolling)."""

from __future__ import annotations

import re

import pytest

from tests.web.browser import expect, shoot
from tests.web.browser_world import UNITS_SINCE, at_size, scroll_width

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _fits(page, size: str) -> None:
    width = page.viewport_size["width"]
    assert scroll_width(page) <= width, f"{page.url} scrolls sideways at {size}"


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_campaign_tells_everyone_what_changed(browser_world, page_for, live_server, size):
    world = browser_world
    base = f"{live_server.url}/campaigns/{world.campaign.pk}"
    alice = at_size(page_for("player"), size)
    alice.goto(f"{base}/")  # her first visit: from here on, changes are "since your last visit"
    expect(alice.locator("#since-h")).to_have_text("Lately")
    expect(alice.locator(UNITS_SINCE)).to_contain_text("Your first visit")

    gm = at_size(page_for("gm"), size)
    gm.goto(f"{base}/")
    todo = gm.locator(".cockpit")
    expect(todo).to_contain_text("Skirmish at the mill: its outcome awaits your review")
    box = todo.bounding_box()
    assert box["y"] < gm.locator("#forces-h").bounding_box()["y"]  # what needs doing leads
    _fits(gm, size)
    shoot(gm, f"story-01-cockpit-{size}", full_page=True)
    todo.locator("a:has-text('Review and apply')").click()
    expect(gm.locator("h1")).to_have_text("Apply the outcome?")
    rows = gm.locator("table.changes tbody tr")
    assert rows.count() >= 2
    expect(gm.locator("table.changes")).to_contain_text("Red Company")
    _fits(gm, size)
    shoot(gm, f"story-02-apply-review-{size}", full_page=True)
    gm.click("#confirm-form button:has-text('Apply these changes')")
    gm.wait_for_url(re.compile(r"/battles/\d+/"))
    expect(gm.locator(".notice-success")).to_contain_text("Outcome applied to")
    expect(gm.locator("#review table.changes tbody tr")).to_have_count(rows.count())
    shoot(gm, f"story-03-applied-summary-{size}", full_page=True)

    # The engine battle speaks the campaign's names.
    gm.goto(f"{base}/battles/{world.engine_battle.pk}/")
    sides = gm.locator(".battle-sides")
    expect(sides).to_contain_text("Red Company")
    expect(sides).to_contain_text("Blue Battalion")
    iron_wolf = gm.locator("table.units tr", has_text="Iron Wolf").first
    expect(iron_wolf).to_contain_text("Blue Battalion")  # its own name, its force beside it
    assert "Blue Force" not in gm.inner_text("main") and "Red Force" not in gm.inner_text("main")
    _fits(gm, size)
    shoot(gm, f"story-04-battle-names-{size}")

    # Advance: reviewed, confirmed, summed up.
    gm.goto(f"{base}/")
    gm.click("#advance-form button:has-text('Review the days ahead')")
    expect(gm.locator("h1")).to_have_text("Advance the calendar 1 day?")
    _fits(gm, size)
    gm.click("#confirm-form button:has-text('Advance to day 2')")
    expect(gm.locator("h1")).to_have_text("It is now day 2")
    _fits(gm, size)
    shoot(gm, f"story-05-advanced-{size}", full_page=True)
    assert not gm.errors, gm.errors

    # The player comes back: what changed for her units, her unit's story, the timeline.
    alice.goto(f"{base}/")
    since = alice.locator(UNITS_SINCE)
    expect(since).to_contain_text("Since your last visit")
    expect(since).to_contain_text("(Red Company)")
    assert "Blue Battalion)" not in since.inner_text()
    # Beside it, the campaign's own story since then: the calendar moved on.
    expect(alice.locator("section[aria-labelledby=story-since-h]")).to_contain_text(
        "The calendar moved on 1 day to day 2."
    )
    # Each line's day is read at a glance: never broken over two lines beside a long sentence.
    days = since.locator(".event-day")
    assert days.count() >= 1
    for i in range(days.count()):
        day = days.nth(i)
        line = alice.evaluate(
            "e => parseFloat(getComputedStyle(e).lineHeight)", day.element_handle()
        )
        assert day.bounding_box()["height"] < 1.5 * line, day.inner_text()
    _fits(alice, size)
    shoot(alice, f"story-06-since-{size}", full_page=True)
    alice.goto(f"{base}/units/{world.unit.pk}/")
    story = alice.locator("ol.story")
    expect(story).to_contain_text("Raised in Red Company")
    expect(story).not_to_contain_text("in the combat zone no → yes")
    story.locator("a:has-text('Crossroads')").first.click()
    alice.wait_for_url(re.compile(rf"/campaigns/{world.campaign.pk}/battles/\d+/$"))
    alice.goto(f"{base}/timeline/")
    expect(alice.locator("#day-1")).to_have_text("Day 1")
    _fits(alice, size)
    shoot(alice, f"story-07-timeline-{size}", full_page=True)

    # A printed roster: the cards, not the site.
    alice.goto(f"{base}/forces/{world.force.pk}/")
    alice.emulate_media(media="print")
    expect(alice.locator(".site-header")).to_be_hidden()
    expect(alice.locator("#medical-form")).to_be_hidden()
    expect(alice.locator("#roster")).to_be_visible()
    alice.emulate_media(media="screen")

    # Dark mode follows the reader's system.
    background = "getComputedStyle(document.body).backgroundColor"
    assert alice.evaluate(background) == "rgb(251, 250, 247)"
    alice.emulate_media(color_scheme="dark")
    assert alice.evaluate(background) == "rgb(22, 25, 28)"
    shoot(alice, f"story-08-dark-{size}")
    alice.emulate_media(color_scheme="light")
    assert not alice.errors, alice.errors
