"""What changed, in a real browser at desktop and phone sizes: the charts of a unit and of
the forces' strength (drawn on the server, readable on a phone and in dark mode); Advance
answers with a summary page of its own that a reload does not repeat; "since your last visit"
follows the member from one device to another; email notices are chosen on the dashboard;
the drawn table names the units as the rosters do; a wrong method gets the site's 405 page.
Every page visited fits the window."""

from __future__ import annotations

import re

import pytest

from tests.web.browser import expect, shoot
from tests.web.browser_world import UNITS_SINCE, at_size, scroll_width

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _fits(page, size: str) -> None:
    width = page.viewport_size["width"]
    assert scroll_width(page) <= width, f"{page.url} scrolls sideways at {size}"


def _inside(page, selector: str) -> None:
    """The element is drawn wholly inside the window's width."""
    box = page.locator(selector).first.bounding_box()
    assert box is not None and box["x"] >= 0
    assert box["x"] + box["width"] <= page.viewport_size["width"] + 1, selector


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_charts_advance_and_the_last_visit(browser_world, page_for, live_server, size):
    world = browser_world
    base = f"{live_server.url}/campaigns/{world.campaign.pk}"
    desktop = at_size(page_for("player"), size)
    desktop.goto(f"{base}/")  # her first visit, on one device: the latest of her units
    expect(desktop.locator("#since-h")).to_have_text("Lately")

    # The GM: the strength chart, then Advance, confirmed, answered by its own summary page.
    gm = at_size(page_for("gm"), size)
    gm.goto(f"{base}/")
    chart = gm.locator("#strength-chart-title").locator("xpath=..")
    expect(gm.locator("svg.line-chart [data-series='Red Company'] polyline")).to_have_count(1)
    expect(gm.locator("svg.line-chart [data-series='Blue Battalion'] polyline")).to_have_count(1)
    assert chart.count() == 1
    _inside(gm, "svg.line-chart")
    _fits(gm, size)
    shoot(gm, f"changes-01-gm-dashboard-{size}", full_page=True)
    gm.click("#advance-form button:has-text('Review the days ahead')")
    gm.click("#confirm-form button:has-text('Advance to day 2')")
    gm.wait_for_url(re.compile(r"/advance/done/\?days=1&to=2&"))
    expect(gm.locator("h1")).to_have_text("It is now day 2")
    expect(gm.locator("main")).to_contain_text("The calendar moved on 1 day, to day 2.")
    _fits(gm, size)
    shoot(gm, f"changes-02-advance-summary-{size}", full_page=True)
    gm.reload()  # a reload reads the summary again; it does not advance again
    expect(gm.locator("h1")).to_have_text("It is now day 2")
    gm.goto(f"{base}/advance/?days=1")  # the calendar stands at day 2, not 3
    expect(gm.locator("main")).to_contain_text("From day 2 to day 3")
    assert not gm.errors, gm.errors

    # The player on another device (a browser of its own): what changed since her last visit.
    phone = at_size(page_for("player"), size)
    phone.goto(f"{base}/")
    expect(phone.locator(UNITS_SINCE)).to_contain_text("Since your last visit")
    expect(phone.locator(UNITS_SINCE)).to_contain_text("(Red Company)")
    # Her email notices: her account has no address, and the page says so.
    expect(phone.locator("#notices-form")).to_contain_text("Your account has no e-mail address")
    _fits(phone, size)
    shoot(phone, f"changes-03-player-since-{size}", full_page=True)
    # Back on the first device, the change has been seen there too.
    desktop.goto(f"{base}/")
    expect(desktop.locator(UNITS_SINCE)).to_contain_text("Nothing has changed for your units")

    # Her unit's charts: its quality by name, then experience and hits; the numbers in a table.
    phone.goto(f"{base}/units/{world.unit.pk}/")
    expect(phone.locator("svg.line-chart")).to_have_count(2)
    expect(phone.locator("svg.line-chart .series polyline")).to_have_count(4)
    expect(phone.locator("svg.line-chart title").first).to_contain_text("quality, day by day")
    expect(phone.locator("svg.line-chart .axis-label", has_text="Legendary")).to_have_count(1)
    expect(phone.locator("svg.line-chart .axis-title").first).to_have_text("Campaign day")
    phone.click("details.chart-table summary")
    expect(phone.locator("details.chart-table tbody tr")).to_have_count(2)
    _inside(phone, "svg.line-chart")
    _fits(phone, size)
    shoot(phone, f"changes-04-unit-chart-{size}", full_page=True)
    phone.emulate_media(color_scheme="dark")
    axis = phone.evaluate(
        "getComputedStyle(document.querySelector('.line-chart .axis-label')).fill"
    )
    assert axis == "rgb(163, 170, 177)"  # the dark theme's muted ink, not the light one's
    shoot(phone, f"changes-05-unit-chart-dark-{size}", full_page=True)
    phone.emulate_media(color_scheme="light")

    # The drawn table speaks the campaign's names.
    phone.goto(f"{base}/battles/{world.engine_battle.pk}/")
    titles = phone.locator("svg.table-map .units-layer title").evaluate_all(
        "titles => titles.map(t => t.textContent)"
    )
    assert titles and all("Red Company" in t or "Blue Battalion" in t for t in titles)
    engine_ids = phone.locator("svg.table-map [data-unit]").evaluate_all(
        "marks => marks.map(m => m.dataset.unit)"
    )
    assert engine_ids and not any(eid in t for eid in engine_ids for t in titles)
    _fits(phone, size)

    # A spectator: the charts, and no notices form (no units of her own).
    spectator = at_size(page_for("spectator"), size)
    spectator.goto(f"{base}/")
    expect(spectator.locator("svg.line-chart")).to_have_count(1)
    expect(spectator.locator("#notices-form")).to_have_count(0)
    _fits(spectator, size)
    shoot(spectator, f"changes-06-spectator-dashboard-{size}", full_page=True)
    assert not phone.errors and not spectator.errors, (phone.errors, spectator.errors)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_wrong_method_gets_the_sites_405_page(browser_world, page_for, live_server, size):
    page = at_size(page_for("gm"), size)
    # The log-out address takes a form (POST) only; opening it is the wrong way.
    response = page.goto(f"{live_server.url}/accounts/logout/")
    assert response.status == 405
    expect(page.locator("h1")).to_have_text("Not this way")
    expect(page.locator("main")).to_contain_text(
        "This address takes a form sent from its page; open the page and use its button instead."
    )
    expect(page.locator(".site-header")).to_be_visible()
    _fits(page, size)
    shoot(page, f"changes-07-405-{size}")
