"""What a phone's user taps is big enough to tap, in a browser: the top bar and the breadcrumbs, the
table pages' and a report's rows of links, the way back from the cards and a unit's story, every
checkbox of the GM's forms beside its words, and every control of a battle's replay; and a report's
section reached by its link, or a battle's section links, in view on a phone's first screen rather
than under the sticky links."""

from __future__ import annotations

import pytest

from tests.web.browser import expect, shoot
from tests.web.browser_world import LEAST_TAP, SIZES, at_size, scroll_width, sticking_out

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


TAPS = """() => [...document.querySelectorAll(
  '.site-header a, .site-header button, .breadcrumbs a')]
  .map(e => [e.textContent.trim(), e.getBoundingClientRect().height])"""


def test_the_top_bar_and_the_breadcrumbs_are_big_enough_to_tap_on_a_phone(
    browser_world, page_for, live_server
):
    """Every link of the top bar and the breadcrumbs, and the log-out button, is at least 24 px
    tall on a phone (WCAG 2.5.8's least target), though its words stay small."""
    page = at_size(page_for("player"), "phone")
    page.goto(
        f"{live_server.url}/campaigns/{browser_world.campaign.pk}/forces/{browser_world.force.pk}/"
    )
    targets = page.evaluate(TAPS)
    assert len(targets) >= 10 and "Log out" in [name for name, _ in targets], targets
    small = [(name, height) for name, height in targets if height < LEAST_TAP]
    assert not small, small


ROW_TAPS = """() => [...document.querySelectorAll(
  '.table-links a, .report-nav a, .roster th[scope=row] a, .meta a, .links a, .report-links a')]
  .map(e => [e.textContent.trim(), e.getBoundingClientRect().height])"""


def test_the_table_pages_links_and_a_reports_section_links_are_big_enough_to_tap_on_a_phone(
    browser_world, page_for, live_server
):
    """The rows of links a player taps on every visit, wrapped to two or three lines on a
    phone: the dashboard's and the table pages' (Characters, Orders and the clock, …), a
    battle report's sections (Outcome, Replay, …), on a roster each unit's name and its card's
    link under it, and the links in the line under a page's title (the dashboard's, a force's
    and a unit's JSON, Roster as CSV, Printable card, …), and the links standing alone in a
    line of their own (the dashboard's timeline and its every battle and engagement, a battle's
    cards to print and its log to download), each at least 24 px tall, as the top bar's. They
    were 16 to 22 px, a line above another line of links."""
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    page = at_size(page_for("player"), "phone")
    for path, least in (
        ("/", 8),
        ("/orders/", 4),
        ("/characters/", 4),
        (f"/battles/{browser_world.engine_battle.pk}/", 8),
        (f"/forces/{browser_world.force.pk}/", 6),
        (f"/units/{browser_world.unit.pk}/", 2),
    ):
        page.goto(c + path)
        targets = page.evaluate(ROW_TAPS)
        assert len(targets) >= least, (path, targets)
        small = [(name, height) for name, height in targets if height < LEAST_TAP]
        assert not small, (path, small)
    assert not page.errors, page.errors


BACK_TAPS = """() => [...document.querySelectorAll(
  '.screen-only a, main a[href*="/timeline/?focus=unit-"]')]
  .map(e => [e.textContent.trim(), e.getBoundingClientRect().height])"""


def test_the_way_back_from_the_cards_and_a_units_story_link_are_big_enough_to_tap_on_a_phone(
    browser_world, page_for, live_server
):
    """A printable card's and a print sheet's only way back to the site ("← 1st Squad"), and a
    unit's link to its story on the timeline, each standing alone on its line, are at least
    24 px tall on a phone, as the site's other links a thumb hits. They were 15 and 16 px."""
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    page = at_size(page_for("player"), "phone")
    for path in (
        f"/units/{browser_world.unit.pk}/card/",
        f"/forces/{browser_world.force.pk}/cards/",
        f"/battles/{browser_world.engine_battle.pk}/cards/",
        f"/units/{browser_world.unit.pk}/",
    ):
        page.goto(c + path)
        targets = page.evaluate(BACK_TAPS)
        assert len(targets) == 1, (path, targets)
        small = [(name, height) for name, height in targets if height < LEAST_TAP]
        assert not small, (path, small)
        assert scroll_width(page) <= SIZES["phone"]["width"], (path, sticking_out(page))
    assert not page.errors, page.errors


BOXES = """() => [...document.querySelectorAll('input[type=checkbox]')]
  .filter(box => box.getClientRects().length)
  .map(box => {
    const drawn = box.getBoundingClientRect();
    const label = (box.closest('label') || document.querySelector(`label[for="${box.id}"]`))
      .getBoundingClientRect();
    const beside = drawn.left >= label.left - 1 && drawn.right <= label.right + 1
      && drawn.top >= label.top - 1 && drawn.bottom <= label.bottom + 1;
    return [box.name, drawn.width, drawn.height, beside];
  })"""
"""Every checkbox drawn on the page: its name, its size, and whether it sits in its label's box."""


def test_checkboxes_are_big_enough_to_tap_on_a_phone(browser_world, page_for, live_server):
    """Every checkbox of the GM's forms (the settings' fog of war, an engagement's situation, the
    units helping a contest, a character's feats, a unit's specialties) is at least 24 px each
    way, as the top bar's links are, not the browser's own 13 px, and is still drawn within its
    label, its words beside it, the page no wider than the phone."""
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    page = at_size(page_for("gm"), "phone")
    for path, least in (
        ("/", 1),
        ("/engagements/new/", 4),
        ("/checks/", 2),
        ("/characters/", 2),
        (f"/forces/{browser_world.force.pk}/", 2),
    ):
        page.goto(c + path)
        page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
        boxes = page.evaluate(BOXES)
        assert len(boxes) >= least, (path, boxes)
        small = [(name, w, h) for name, w, h, _ in boxes if min(w, h) < LEAST_TAP]
        assert not small, (path, small)
        astray = [name for name, _, _, beside in boxes if not beside]
        assert not astray, (path, astray)
        assert scroll_width(page) <= SIZES["phone"]["width"], (path, sticking_out(page))
    shoot(page, "checkboxes-phone", full_page=True)
    assert not page.errors, page.errors


def test_an_engagements_situation_boxes_sit_beside_their_words(
    browser_world, page_for, live_server
):
    # A tick box was drawn 5rem wide, as a number box is, its words far off to its right.
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    page = page_for("gm")
    for size in SIZES:
        at_size(page, size)
        page.goto(c + "/engagements/new/")
        gaps = page.evaluate(
            """() => [...document.querySelectorAll('.situation label.check')].map(label => {
              const box = label.querySelector('input').getBoundingClientRect();
              return [box.width, label.getBoundingClientRect().left - box.left];
            })"""
        )
        assert gaps, size
        assert all(width < 30 and abs(offset) < 2 for width, offset in gaps), (size, gaps[:3])
    assert not page.errors, page.errors


def test_a_report_section_reached_by_its_link_is_not_under_the_sticky_links(
    browser_world,
    page_for,
    live_server,
):
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    page = at_size(page_for("gm"), "phone")
    page.goto(f"{c}/battles/{browser_world.engine_battle.pk}/")
    for section, target in (("Replay", "#replay-heading"), ("Units", "#units-heading")):
        page.click(f"nav.report-nav a:has-text('{section}')")
        page.wait_for_timeout(300)
        nav = page.locator("nav.report-nav").bounding_box()
        heading = page.locator(target).bounding_box()
        assert heading["y"] >= nav["y"] + nav["height"] - 1, (section, heading, nav)
    shoot(page, "report-section-link-phone")
    assert not page.errors, page.errors


def test_a_campaign_battles_section_links_are_on_its_first_screen_on_a_phone(
    browser_world,
    page_for,
    live_server,
):
    """On a 320 px phone what the battle did to the units runs long: the report's section links
    stand at the top of the page, above it, with a link to it first, and a tap on Replay brings
    the replay into view."""
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    page = page_for("player", touch=True)
    page.set_viewport_size({"width": 320, "height": 640})
    page.goto(f"{c}/battles/{browser_world.engine_battle.pk}/")
    assert page.locator("nav.report-nav").count() == 1
    links = page.locator("nav.report-nav a")
    assert links.first.inner_text() == "What it did to the units"
    replay = page.locator("nav.report-nav a", has_text="Replay")
    box = replay.bounding_box()
    assert box["y"] + box["height"] <= 640, box
    assert box["y"] < page.locator("#review-h").bounding_box()["y"]
    replay.tap()
    page.wait_for_timeout(300)
    heading = page.locator("#replay-heading").bounding_box()
    # Scrolled to its top: lines of fractional height may leave it part of a pixel above it.
    assert -1 < heading["y"] < 640, heading
    assert not page.errors, page.errors


REPLAY_CONTROLS = """() => [...document.querySelectorAll(
  '[data-replay] [data-controls] :is(button, input, select),'
  + ' [data-replay] [data-jumps] :is(button, input, select)')]
  .map(e => [e.getAttribute('aria-label') || e.textContent.trim() || e.dataset.action,
             Math.round(e.getBoundingClientRect().height)])"""


def test_every_control_of_the_replay_is_big_enough_to_tap_on_a_phone(
    browser_world, page_for, live_server
):
    """The replay's buttons, its frame slider and its choices of turn and speed are each at
    least 24 px tall on a phone (WCAG 2.5.8's least target, as the top bar's links): the frame
    slider was 16 px, a thin line for a thumb to find."""
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    page = at_size(page_for("spectator", touch=True), "phone")
    page.goto(f"{c}/battles/{browser_world.engine_battle.pk}/")
    expect(page.locator("[data-replay] [data-controls]")).to_be_visible()
    controls = page.evaluate(REPLAY_CONTROLS)
    assert len(controls) >= 10 and "seek" in [name for name, _ in controls], controls
    small = [(name, height) for name, height in controls if height < LEAST_TAP]
    assert not small, small
    assert not page.errors, page.errors
