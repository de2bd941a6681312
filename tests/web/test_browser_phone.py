"""Every campaign page fits the window, at desktop size and on a 390 px phone, for the GM, a
player and a spectator: nothing scrolls sideways (``document.documentElement.scrollWidth`` is
no wider than the window). Screenshots go to test-artifacts/browser/ (``fit-*``)."""

from __future__ import annotations

import pytest

from tests.web.browser import expect, shoot
from tests.web.browser_world import LEAST_TAP, SIZES, at_size, scroll_width, sticking_out

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def pages(world, role: str, join_key: str) -> dict[str, str]:
    """Every page ``role`` may open in the world, by a short name (``join_key``: a waiting
    invitation's link, which anyone may open)."""
    c = f"/campaigns/{world.campaign.pk}"
    found = {
        "home": "/",
        "campaigns": "/campaigns/",
        "dashboard": f"{c}/",
        "own-force": f"{c}/forces/{world.force.pk}/",
        "enemy-force": f"{c}/forces/{world.enemy.pk}/",
        "unit": f"{c}/units/{world.unit.pk}/",
        "unit-card": f"{c}/units/{world.unit.pk}/card/",
        "engine-battle": f"{c}/battles/{world.engine_battle.pk}/",
        "table-battle": f"{c}/battles/{world.table_battle.pk}/",
        "battles": "/battles/",
        "library": "/library/",
        "rules-document": "/library/docs/rules/",
        "campaign-document": "/library/docs/campaign/",
        "rules-card": "/campaigns/rules/",
        "timeline": f"{c}/timeline/",
        "unit-find": f"{c}/units/",
        "force-cards": f"{c}/forces/{world.force.pk}/cards/",
        "battle-cards": f"{c}/battles/{world.engine_battle.pk}/cards/",
        "characters": f"{c}/characters/",
        "orders": f"{c}/orders/",
        "checks": f"{c}/checks/",
        "join": f"/campaigns/join/{join_key}/",
        "account": "/accounts/",
        "password-change": "/accounts/password_change/",
    }
    if role == "gm":
        found["battle-setup"] = f"{c}/battles/new/"
        found["battle-record"] = f"{c}/battles/record/"
        found["apply-review"] = f"{c}/battles/{world.table_battle.pk}/apply/"
        found["revert-review"] = f"{c}/battles/{world.engine_battle.pk}/revert/"
        found["advance-review"] = f"{c}/advance/?days=2"
        found["map-editor"] = f"{c}/maps/new/"
        found["advance-summary"] = f"{c}/advance/done/?days=2&to=3&start=0&after=0&upto=999999"
        found["one-off-setup"] = "/battles/new/?scenario=landing"
        found["odds-setup"] = "/battles/odds/new/?scenario=big-battle"
    return found


@pytest.fixture
def invited(browser_world):
    """Invitations waiting on the GM's dashboard and on each role's "My campaigns" page, with
    long names, made before Playwright starts; and long names in the campaign itself: a unit
    whose name fills the battle log's unit filter, a force and the campaign whose names have no
    space to break at. Gives the link key of the invitation to the long address."""
    from campaign.models import Campaign, Force, Unit
    from campaign.services import campaign_create, invitation_send

    Campaign.objects.filter(pk=browser_world.campaign.pk).update(name="Opération" + "X" * 90)

    Unit.objects.filter(pk=browser_world.unit.pk).update(
        name="Second Battalion Heavy Weapons Company, Mortar Section Two"
    )
    Force.objects.filter(pk=browser_world.enemy.pk).update(name="1" + "0" * 20)
    gm = browser_world.users["gm"]
    other = campaign_create(
        name="Operation Extraordinarily Long Name For A Small Phone", gm=gm, ruleset="combined_arms"
    )
    for role in ("player", "spectator"):
        invitation_send(campaign=other, invitee=browser_world.users[role].username, role="player")
    invitee = "a.very.long.address.for.a.new.player@example.org"
    invitation_send(campaign=browser_world.campaign, invitee=invitee, role="spectator")
    return browser_world.campaign.invitations.get(invitee=invitee).link_key


@pytest.mark.parametrize("role", ["gm", "player", "spectator"])
def test_no_page_scrolls_sideways(invited, browser_world, page_for, live_server, role):
    page = page_for(role)
    wide = []
    for size, viewport in SIZES.items():
        at_size(page, size)
        for name, path in pages(browser_world, role, invited).items():
            response = page.goto(f"{live_server.url}{path}")
            assert response.status == 200, (role, name, response.status)
            width = scroll_width(page)
            if width > viewport["width"]:
                wide.append(
                    f"{name} at {size}: {width} px in a {viewport['width']} px window: "
                    + ", ".join(sticking_out(page))
                )
            shoot(page, f"fit-{role}-{size}-{name}", full_page=True)
    assert not wide, "\n".join(wide)
    assert not page.errors, page.errors


FIELDS_RIGHT = """() => Math.max(...[...document.querySelectorAll(
  'table.unit-rows select, table.unit-rows input:not([type=hidden])')]
  .map(e => e.getBoundingClientRect().right))"""


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


def test_a_forms_row_per_unit_is_a_card_whose_fields_fit_a_phone(
    browser_world,
    page_for,
    live_server,
):
    # The battle set-up and the table result: each unit's side, position or losses and Orders
    # are on the screen, each with its label, not in a table scrolled off to the right.
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    page = at_size(page_for("gm"), "phone")
    for name, path in (
        ("setup", "/battles/new/?scenario=crossroads"),
        ("record", "/battles/record/"),
    ):
        page.goto(c + path)
        assert page.locator("table.unit-rows tbody tr th[scope=row]").count() > 0, name
        right = page.evaluate(FIELDS_RIGHT)
        assert right <= SIZES["phone"]["width"], (name, right)
        label = page.evaluate(
            "getComputedStyle(document.querySelector('table.unit-rows td[data-label]'), '::before')"
            ".content"
        )
        assert label.strip('"') in ("Side", "x (in)"), (name, label)
        shoot(page, f"unit-rows-{name}-phone", full_page=True)
    assert not page.errors, page.errors


def test_a_forms_row_per_unit_fits_a_tablet_still_drawn_as_a_table(
    browser_world, page_for, live_server
):
    # At 820 px the set-up's rows are still a table, wider than a phone's cards; the table
    # result's are cards (a table there cut its choices short: "Taken out (destroye…"). The
    # table result's "Left the battle" choice ("Taken out (destroyed on the table)") took 851 px.
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    page = page_for("gm")
    page.set_viewport_size({"width": 820, "height": 1000})
    for name, path, table in (
        ("setup", "/battles/new/?scenario=crossroads", True),
        ("record", "/battles/record/", False),
    ):
        page.goto(c + path)
        assert page.locator("table.unit-rows thead").is_visible() == table, name
        assert scroll_width(page) <= 820, (name, sticking_out(page))
        assert page.evaluate(FIELDS_RIGHT) <= 820, name
        shoot(page, f"unit-rows-{name}-820", full_page=True)
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


@pytest.fixture
def long_roster(browser_world):
    """The enemy force with the demo's units whose roster lines run longest (a weapon line with
    AA, a leader's name under the unit's), made before Playwright starts."""
    from campaign.demo import DEMO_FORCES
    from campaign.services import unit_create
    from units.models import UnitType
    from units.services import library_load

    library_load()
    roster = next(units for name, _, units in DEMO_FORCES if name == "Blue Battalion")
    for name, card, quality, equipment, specialties, leader in roster:
        unit_create(
            force=browser_world.enemy,
            unit_type=UnitType.objects.get(ruleset="combined_arms", name=card),
            name=f"{name} of the Long Roster",
            quality=quality,
            equipment=equipment,
            specialties=specialties,
            leader=None if leader is None else {"name": leader[0], "hit_points": leader[1]},
        )
    return browser_world


CUT_OFF = """() => [...document.querySelectorAll('.roster-wrap')].map(box => {
  const right = box.getBoundingClientRect().right;
  const cells = [...box.querySelectorAll('td, th')]
    .filter(c => c.getBoundingClientRect().right > right + 0.5);
  return {scrolls: box.scrollWidth - box.clientWidth,
          cut: cells.map(c => c.innerText.slice(0, 40))};
})"""
"""Each roster box: how far it scrolls sideways, and the cells reaching past its right edge."""


def test_a_roster_shows_every_column_whole_on_a_desktop_and_cards_on_a_phone(
    long_roster,
    page_for,
    live_server,
):
    page = page_for("gm")
    c = f"{live_server.url}/campaigns/{long_roster.campaign.pk}"
    for width in (1366, 1024):
        page.set_viewport_size({"width": width, "height": 900})
        for force in (long_roster.force, long_roster.enemy):
            page.goto(f"{c}/forces/{force.pk}/")
            assert page.evaluate(CUT_OFF) == [{"scrolls": 0, "cut": []}], (width, force.name)
            shoot(page, f"roster-{width}-{force.pk}", full_page=True)
        scout = page.locator("#roster tr:has-text('Scout Car') td.card-stats")
        assert "Heavy Machine Gun — Power 3, Range 12, AA" in scout.inner_text()
    page = at_size(page, "phone")
    page.goto(f"{c}/forces/{long_roster.enemy.pk}/")
    assert page.locator("#roster thead").is_hidden(), "one card per unit: no column heads"
    label = page.evaluate(
        "getComputedStyle(document.querySelector('#roster td.card-stats'), '::before').content"
    )
    assert label == '"Card for the next battle"'
    assert page.evaluate(CUT_OFF) == [{"scrolls": 0, "cut": []}]
    assert scroll_width(page) <= SIZES["phone"]["width"]
    shoot(page, "roster-phone", full_page=True)
    assert not page.errors, page.errors


NOT_FITTING = """() => [...document.querySelectorAll('table.stack')]
  .filter(t => t.scrollWidth > t.clientWidth + 1 || t.getBoundingClientRect().right > innerWidth)
  .map(t => t.className)"""


def test_the_reports_wide_tables_are_labelled_rows_on_a_phone(
    browser_world,
    page_for,
    live_server,
):
    """The units and luck tables neither scroll sideways nor cut a word: each row is the unit
    or side, then each figure under its column's name."""
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    page = at_size(page_for("gm"), "phone")
    page.goto(f"{c}/battles/{browser_world.engine_battle.pk}/")
    assert page.locator("table.units.stack").count() and page.locator("table.luck.stack").count()
    assert page.evaluate(NOT_FITTING) == []
    outcome = page.locator("table.units td[data-label=Outcome]").first
    assert _stack_label(page, "table.units td[data-label=Outcome]") == '"Outcome"'
    assert outcome.bounding_box()["x"] + outcome.bounding_box()["width"] <= SIZES["phone"]["width"]
    shoot(page, "report-tables-phone", full_page=True)
    assert not page.errors, page.errors


def test_a_reports_luck_table_does_not_widen_the_page_on_a_tablet(
    browser_world, page_for, live_server
):
    """Between a phone's width and a desktop's the luck table is still a table, 904 px wide at
    the least: it scrolls within its own box, and the page does not scroll sideways (at 820 px
    the page was 923 px wide, the suppression columns cut off at the window's edge)."""
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    page = page_for("player")
    for width in (700, 820, 900):
        page.set_viewport_size({"width": width, "height": 1000})
        page.goto(f"{c}/battles/{browser_world.engine_battle.pk}/")
        assert page.locator("table.luck thead").is_visible(), width
        assert scroll_width(page) <= width, (width, sticking_out(page))
        luck = page.locator("table.luck").bounding_box()
        assert luck["x"] + luck["width"] <= width, (width, luck)
        shoot(page, f"report-luck-{width}", full_page=True)
    assert not page.errors, page.errors


@pytest.fixture
def long_words(browser_world):
    """Forces named with long words, as a unit's row names its force: "Sappers (Reconnaissance
    Battalion)", made before Playwright starts."""
    from campaign.models import Force

    Force.objects.filter(pk=browser_world.force.pk).update(name="Reconnaissance Battalion")
    Force.objects.filter(pk=browser_world.enemy.pk).update(name="Mechanised Battalion")
    return browser_world


def test_a_table_battles_losses_are_labelled_rows_on_a_360_px_phone(
    long_words, page_for, live_server
):
    """The losses a battle at the table was entered with: each unit, then its figures under
    their column's name, nothing cut. As a table it needed 340 px of 336 in the demo, "(demoralised
    on the table)" cut at the edge."""
    browser_world = long_words
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    page = page_for("player")
    page.set_viewport_size({"width": 360, "height": 800})
    page.goto(f"{c}/battles/{browser_world.table_battle.pk}/")
    losses = "table.stack:has(caption:text('Losses as entered'))"
    assert page.locator(losses).count() == 1
    assert page.evaluate(CUT_CELLS, "main table") == []
    assert _stack_label(page, f"{losses} td[data-label='Left the battle']") == '"Left the battle"'
    assert scroll_width(page) <= 360
    shoot(page, "table-battle-losses-360", full_page=True)
    assert not page.errors, page.errors


@pytest.fixture
def ordered(browser_world):
    """Orders on the Orders table, one with a note, made before Playwright starts."""
    from campaign.services.characters import character_create
    from campaign.services.orders import order_give

    gm = browser_world.users["gm"]
    holt = character_create(
        campaign=browser_world.campaign, name="Capt. Holt", hit_points=12, actor=gm
    )
    unit = browser_world.force.units.filter(status="ready").first()  # an Order goes to one
    order_give(giver=holt, unit=unit, kind="use_skill", listed_hours=6,
               note="dig in along the whole of the northern hedgerow", actor=gm)  # fmt: skip
    order_give(giver=holt, unit=unit, kind="attack", actor=gm)


def test_the_orders_table_is_labelled_rows_on_a_phone(
    ordered,
    browser_world,
    page_for,
    live_server,
):
    """Each Order is the unit, then each column's figure under its name: nothing scrolls
    sideways, inside the table or out."""
    page = at_size(page_for("player"), "phone")
    page.goto(f"{live_server.url}/campaigns/{browser_world.campaign.pk}/orders/")
    assert page.locator("table#orders.stack tbody tr").count() == 2
    assert page.evaluate(NOT_FITTING) == []
    assert scroll_width(page) <= SIZES["phone"]["width"]
    assert _stack_label(page, "table#orders td[data-label=State]") == '"State"'
    shoot(page, "orders-phone", full_page=True)
    assert not page.errors, page.errors


LABEL_HEIGHTS = """() => {
  const h = sel => [...document.querySelectorAll(sel)]
    .filter(e => getComputedStyle(e).display !== 'none')
    .map(e => e.getBoundingClientRect().height);
  return {terrain: h('.replay .terrain-label'), objectives: h('.replay .objective-label'),
          units: h('.replay .unit-label')};
}"""


def test_the_maps_words_are_legible_on_a_phone(
    browser_world,
    page_for,
    live_server,
):
    """Names on the map are drawn at least 9 px high on a phone; of the units, only the one
    acting now is named (the caption names it too), so the names do not pile up."""
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    page = at_size(page_for("gm"), "phone")
    page.goto(f"{c}/battles/{browser_world.engine_battle.pk}/")
    page.click("button[data-action=forward]")
    page.wait_for_timeout(200)
    heights = page.evaluate(LABEL_HEIGHTS)
    assert heights["terrain"] and min(heights["terrain"]) >= 9, heights
    assert heights["objectives"] and min(heights["objectives"]) >= 9, heights
    assert len(heights["units"]) == 1 and heights["units"][0] >= 9, heights
    shoot(page, "replay-labels-phone")
    assert not page.errors, page.errors


def test_a_buildings_name_is_read_whole_on_the_replay_at_320_px(
    browser_world, page_for, live_server
):
    """At 320 px "Farmhouse" sat on the building's top edge, white on the pale ground round it
    ("armhouse"): now it is written above the building, in the map's dark ink, on the map."""
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    page = page_for("gm")
    page.set_viewport_size({"width": 320, "height": 800})
    page.goto(f"{c}/battles/{browser_world.engine_battle.pk}/")
    name = page.locator(".replay text.terrain-label", has_text="Farmhouse")
    roof = page.locator('.replay polygon[data-building="farmhouse"]').bounding_box()
    sheet = page.locator(".replay svg.table-map rect.cloth").bounding_box()
    box = name.bounding_box()
    assert "building-label" not in name.get_attribute("class")
    assert box["y"] + box["height"] <= roof["y"], (box, roof)  # wholly above the roof
    assert box["y"] >= sheet["y"], (box, sheet)  # and on the table
    assert (
        page.evaluate("e => getComputedStyle(e).fill", name.element_handle())
        != "rgb(255, 255, 255)"
    )
    name.scroll_into_view_if_needed()
    shoot(page, "replay-building-name-320")
    assert not page.errors, page.errors


UNIT_IDS = """() => Object.fromEntries(Object.entries(
  JSON.parse(document.getElementById("replay-frames").textContent).units
).map(([id, info]) => [info.name, id]))"""
"""The replay's units' ids, by their names."""


def test_a_tapped_unit_is_named_in_words_beside_the_replay_on_a_phone(
    browser_world,
    page_for,
    live_server,
):
    """The number in a circle is the unit's Size, and a phone has no hover: tapping a unit's
    circle writes its name, side and state (its hover tooltip's words) under the controls, kept
    up to date as the replay steps; Enter or Space on a focused circle does the same, and
    choosing the named unit again lets it go."""
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    page = at_size(page_for("gm", touch=True), "phone")
    page.goto(f"{c}/battles/{browser_world.engine_battle.pk}/")
    selected = page.locator("[data-replay] [data-selected]")
    expect(selected).to_have_text("Tap or click a unit's circle to name it.")
    ids = page.evaluate(UNIT_IDS)
    squad = page.locator(f'[data-replay] [data-unit="{ids[browser_world.unit.name]}"]')
    wolf = page.locator(f'[data-replay] [data-unit="{ids[browser_world.enemy_unit.name]}"]')

    squad.locator("circle").tap()
    said = f"Selected: {browser_world.unit.name}, {browser_world.force.name}, Size "
    expect(selected).to_contain_text(said)
    expect(selected).to_have_text("Selected: " + squad.locator("title").text_content())
    expect(squad.locator(".unit-label")).to_be_visible()  # named on the map too
    shoot(page, "replay-selected-phone")

    # Stepping on keeps it named, in the words of the frame shown.
    page.click("button[data-action=last]")
    expect(selected).to_contain_text(said)
    expect(selected).to_have_text("Selected: " + squad.locator("title").text_content())

    # By keyboard: Space on a focused circle names it, and does not play the replay.
    wolf.focus()
    page.keyboard.press("Space")
    expect(selected).to_contain_text(
        f"Selected: {browser_world.enemy_unit.name}, {browser_world.enemy.name}, Size "
    )
    expect(page.locator("button[data-action=play]")).to_have_text("▶ Play")  # not playing
    page.keyboard.press("Enter")
    expect(selected).to_have_text("Tap or click a unit's circle to name it.")
    assert not page.errors, page.errors


NARROW_PHONE = {"width": 360, "height": 780}
"""The narrowest phone a battle's replay is tapped on."""

CENTRES = """() => Object.fromEntries([...document.querySelectorAll('[data-replay] [data-unit]')]
  .map(g => { const b = g.querySelector('circle').getBoundingClientRect();
              return [g.dataset.unit, [b.x + b.width / 2, b.y + b.height / 2, b.width / 2]]; }))"""
"""Each unit's circle as drawn, by its id: its centre and radius in CSS px of the window."""

ON_A_UNIT = """([x, y]) => !!document.elementFromPoint(x, y).closest('[data-unit]')"""
"""Whether a point of the window is on a unit's drawing (its circle, number or name)."""


def _replay_at_360(browser_world, page_for, live_server):
    """The engine battle's replay on a 360 px touch screen, the map in view; gives the page,
    the line naming the selected unit and the units' ids by name."""
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    page = page_for("gm", touch=True)
    page.set_viewport_size(NARROW_PHONE)
    page.goto(f"{c}/battles/{browser_world.engine_battle.pk}/")
    page.locator("[data-replay] svg.table-map").scroll_into_view_if_needed()
    return page, page.locator("[data-replay] [data-selected]"), page.evaluate(UNIT_IDS)


def test_a_tap_beside_a_small_units_circle_names_it_on_a_phone(
    browser_world,
    page_for,
    live_server,
):
    """A Size 1 unit's circle is about 13 px across at 360 px, smaller than a fingertip: a tap
    within 12 px of its centre (a 24 px target, as the site's other taps) names it, though it
    misses the circle; a tap farther off names nothing, as a tap on the empty map."""
    page, selected, ids = _replay_at_360(browser_world, page_for, live_server)
    squad = ids[browser_world.unit.name]
    x, y, r = page.evaluate(CENTRES)[squad]
    assert 4 <= r <= 7, r  # a Size 1 circle, about 13 px across (drawn larger on a phone)

    far = [x - 16, y]
    assert not page.evaluate(ON_A_UNIT, far)
    page.touchscreen.tap(*far)
    expect(selected).to_have_text("Tap or click a unit's circle to name it.")

    # 9 px from its centre, off the circle. Chromium moves a tap onto a button near it before it
    # clicks; Safari does not, nor does a pen or a mouse: a click beside it names it too.
    left, right = [x - 9, y], [x + 9, y]
    assert not page.evaluate(ON_A_UNIT, left) and not page.evaluate(ON_A_UNIT, right)
    page.mouse.click(*right)
    expect(selected).to_contain_text(f"Selected: {browser_world.unit.name}, ")
    page.touchscreen.tap(*left)  # chosen again: let go
    expect(selected).to_have_text("Tap or click a unit's circle to name it.")
    page.touchscreen.tap(*left)
    expect(selected).to_contain_text(f"Selected: {browser_world.unit.name}, ")
    expect(page.locator(f'[data-unit="{squad}"]')).to_have_attribute("aria-pressed", "true")
    shoot(page, "replay-tap-beside-360")
    assert not page.errors, page.errors


def test_a_tap_between_two_close_units_names_the_nearer_on_a_phone(
    browser_world,
    page_for,
    live_server,
):
    """Late in the battle the enemy's Size 4 unit stands a few px from a Size 1 squad's
    circle at 360 px, so a tap in the gap reaches both: the unit whose circle is nearer the tap
    is named, never the other."""
    page, selected, ids = _replay_at_360(browser_world, page_for, live_server)
    squad_name = "Squad 2"
    squad, wolf = ids[squad_name], ids[browser_world.enemy_unit.name]
    page.locator("[data-replay] [data-action=seek]").fill("7")  # the two close
    sx, sy, sr = page.evaluate(CENTRES)[squad]
    wx, wy, wr = page.evaluate(CENTRES)[wolf]
    apart = ((wx - sx) ** 2 + (wy - sy) ** 2) ** 0.5
    gap = apart - sr - wr
    assert gap > 0 and apart < 24, (apart, gap)  # both within reach of a tap between them

    def at(from_squad: float) -> list[float]:
        """The point on the line from the squad's centre to the wolf's, so far from it."""
        return [sx + (wx - sx) * from_squad / apart, sy + (wy - sy) * from_squad / apart]

    # A tap in the gap, nearer the squad, and one on the wolf's edge, which the squad's reach
    # takes in too (drawn larger on a phone, a circle as big as a fingertip is reached on it).
    nearer_squad, nearer_wolf = at(sr + gap * 0.3), at(apart - wr)
    assert not page.evaluate(ON_A_UNIT, nearer_squad)
    assert apart - wr < 12  # within the squad's reach

    page.touchscreen.tap(*nearer_squad)
    expect(selected).to_contain_text(f"Selected: {squad_name}, ")
    page.touchscreen.tap(*nearer_wolf)
    expect(selected).to_contain_text(f"Selected: {browser_world.enemy_unit.name}, ")
    expect(page.locator(f'[data-unit="{squad}"]')).to_have_attribute("aria-pressed", "false")
    shoot(page, "replay-tap-between-360")
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


CUT_CELLS = """(sel) => [...document.querySelectorAll(sel)].flatMap(t => {
  const right = Math.min(t.getBoundingClientRect().right, innerWidth);
  const cut = [...t.querySelectorAll('td, th')]
    .filter(c => c.getBoundingClientRect().right > right + 0.5);
  const scrolls = t.scrollWidth > t.clientWidth + 1;
  return (scrolls || cut.length) ? [cut.map(c => c.innerText).join(' | ') || t.className] : [];
})"""
"""The tables matching a selector that scroll sideways or reach past the window, by the cells
cut off (a table that fits gives nothing)."""


def _stack_label(page, cell: str) -> str:
    """The column's name printed before a cell, as seen (a screen reader's words for it, after
    a "/", are none: it has the name from the table's heading)."""
    said = page.locator(cell).first.evaluate("td => getComputedStyle(td, '::before').content")
    return said.removesuffix(' / ""')


@pytest.fixture
def characters(browser_world):
    """Characters with long names and a dying leader, made before Playwright starts."""
    from campaign.models import Leader
    from campaign.services.characters import character_create
    from campaign.services.leaders import leader_attach

    gm = browser_world.users["gm"]
    holt = character_create(campaign=browser_world.campaign, name="Capt. Mara Holt",
                            hit_points=12, feats=["leadership", "strategist"],
                            player=browser_world.users["player"], actor=gm)  # fmt: skip
    leader_attach(unit=browser_world.unit, character=holt, actor=gm)
    leader = Leader.objects.get(unit=browser_world.unit)
    leader.hit_points = -6
    leader.save()  # the character's too
    character_create(campaign=browser_world.campaign, name="Sgt. Rook", hit_points=9, actor=gm)


def test_the_characters_table_is_labelled_rows_on_a_phone(
    characters,
    browser_world,
    page_for,
    live_server,
):
    """Each character is its name, then each column's words under its name: the Leads column
    is neither cut nor scrolled to."""
    page = at_size(page_for("gm"), "phone")
    page.goto(f"{live_server.url}/campaigns/{browser_world.campaign.pk}/characters/")
    assert page.locator("table#characters.stack tbody tr").count() == 2
    assert page.evaluate(NOT_FITTING) == []
    assert scroll_width(page) <= SIZES["phone"]["width"]
    assert _stack_label(page, "table#characters td[data-label=Leads]") == '"Leads"'
    leads = page.locator("table#characters td[data-label=Leads]").first.bounding_box()
    assert leads["x"] + leads["width"] <= SIZES["phone"]["width"]
    expect(page.locator("table#characters")).to_contain_text("\u22126 of 12 hit points, dying")
    shoot(page, "characters-phone", full_page=True)
    assert not page.errors, page.errors


LADDER_GAPS = """() => Math.min(...[...document.querySelectorAll(".ladder tbody tr")].map(row => {
  const text = cell => { const r = document.createRange(); r.selectNodeContents(cell);
    return r.getBoundingClientRect(); };
  const texts = [...row.cells].slice(1).map(text);  // the figures, after the quality's name
  return Math.min(...texts.slice(1).map((right, i) => right.left - texts[i].right));
}))"""
"""The narrowest space, in px, between two figures side by side in a ladder row."""


def test_the_rules_cards_quality_ladder_fits_a_phone_whole(
    browser_world,
    page_for,
    live_server,
):
    """The ladder keeps its six columns on a phone, narrower, every one whole: Train is read,
    not cut off or scrolled to, on a 360 px phone too (it needed 347 px of 336 there), and on a
    320 px one (327 px of 296)."""
    page = page_for("player")
    for width in (SIZES["phone"]["width"], 360, 320):
        page.set_viewport_size({"width": width, "height": 800})
        page.goto(f"{live_server.url}/campaigns/rules/")
        assert page.evaluate(CUT_CELLS, "table.ladder") == [], width
        train = page.locator("table.ladder thead th").last
        assert train.inner_text() == "Train"
        box = train.bounding_box()
        assert box["x"] + box["width"] <= width, (width, box)
        assert scroll_width(page) <= width, width
        # Each figure stands apart from the next, not read as one cell ("1 —", "2 yes").
        assert page.evaluate(LADDER_GAPS) >= 10, width
        shoot(page, f"rules-card-ladder-{width}", full_page=True)
    assert not page.errors, page.errors


def test_the_campaign_documents_wide_tables_are_seen_whole(
    browser_world,
    page_for,
    live_server,
):
    """The quality ladders of the campaign document (eight columns, Raw to Legendary) are
    labelled rows on a phone, each row its name, then each figure under its quality's name;
    on a desktop and a 1024 px screen every column is seen, none cut at the edge ("Legendary",
    "+6") nor scrolled to."""
    page = page_for("player")
    for width in (SIZES["desktop"]["width"], 1280, 1024, SIZES["phone"]["width"]):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{live_server.url}/library/docs/campaign/")
        assert page.locator(".doc table.stack").count() >= 4, width
        if width == SIZES["phone"]["width"]:
            assert page.evaluate(NOT_FITTING) == []
        else:
            assert page.evaluate(CUT_CELLS, ".doc table") == [], width
        assert scroll_width(page) <= width, width
    assert _stack_label(page, ".doc table.stack td[data-label=Legendary]") == '"Legendary"'
    row = page.locator(".doc table.stack tbody th[scope=row]").first
    assert row.inner_text() == "modifier under Orders"
    shoot(page, "campaign-document-phone", full_page=True)
    assert not page.errors, page.errors


WORDS_BROKEN = """(sel) => [...document.querySelectorAll(sel)].flatMap(el => {
  const text = el.firstChild;
  return [...el.textContent.matchAll(/\\S+/g)].filter(word => {
    const range = document.createRange();
    range.setStart(text, word.index);
    range.setEnd(text, word.index + word[0].length);
    return range.getClientRects().length > 1;
  }).map(word => word[0]);
})"""
"""The words of the elements matching a selector that are broken over two lines."""


def test_the_dashboards_forces_are_labelled_rows_on_a_320_px_phone(
    browser_world,
    page_for,
    live_server,
):
    """Each force is its name, whole words, then its player, units and ready units under their
    columns' names: no force's name is broken inside a word ("Batta/lion") and Ready is neither
    cut nor scrolled to."""
    page = page_for("player")
    page.set_viewport_size({"width": 320, "height": 800})
    page.goto(f"{live_server.url}/campaigns/{browser_world.campaign.pk}/")
    forces = "table[aria-labelledby=forces-h]"
    assert page.locator(f"{forces}.stack tbody tr").count() == 2
    assert page.evaluate(WORDS_BROKEN, f"{forces} th[scope=row] a") == []
    assert page.evaluate(CUT_CELLS, forces) == []
    assert _stack_label(page, f"{forces} td[data-label=Ready]") == '"Ready"'
    ready = page.locator(f"{forces} td[data-label=Ready]").first.bounding_box()
    assert ready["x"] + ready["width"] <= 320
    assert scroll_width(page) <= 320
    shoot(page, "dashboard-forces-320", full_page=True)
    assert not page.errors, page.errors


def test_a_units_facts_leave_their_values_most_of_a_narrow_phone(
    browser_world,
    page_for,
    live_server,
):
    """On a unit's page each fact's name takes at most two fifths of a 320 or 360 px phone,
    wrapping between its words ("In the combat zone"), so its value (the Order's sentence) has
    the rest of the line rather than a third of it."""
    page = page_for("player")
    unit = browser_world.unit
    for width in (320, 360):
        page.set_viewport_size({"width": width, "height": 800})
        page.goto(f"{live_server.url}/campaigns/{browser_world.campaign.pk}/units/{unit.pk}/")
        facts = page.locator("dl.facts:has(#unit-order)").bounding_box()
        names = page.locator("dl.facts:has(#unit-order) > dt")
        widest = max(names.nth(i).bounding_box()["width"] for i in range(names.count()))
        assert widest <= facts["width"] * 0.4 + 0.5, (width, widest, facts)
        order = page.locator("#unit-order").bounding_box()
        assert order["width"] >= facts["width"] * 0.5, (width, order, facts)
        assert page.evaluate(WORDS_BROKEN, "dl.facts:has(#unit-order) > dt") == []
        assert scroll_width(page) <= width
    assert not page.errors, page.errors


@pytest.fixture
def one_off(browser_world):
    """A one-off battle of the GM's, fought in-process before Playwright starts, with the
    largest seed there is."""
    import json
    from unittest import mock

    from battles.services import SEED_LIMIT, battle_launch, battle_resolve
    from tests.web.campaign_world import CROSSROADS

    with mock.patch("battles.tasks.resolve_battle.delay"):
        battle = battle_launch(name="A one-off at the crossroads, fought to the last turn",
                               scenario=json.loads(CROSSROADS.read_text()), seed=SEED_LIMIT,
                               created_by=browser_world.users["gm"])  # fmt: skip
    battle_resolve(battle_id=battle.pk)


def test_the_one_off_battles_list_is_labelled_rows_on_a_phone(
    one_off,
    browser_world,
    page_for,
    live_server,
):
    """Each battle is its name, then its status, result, seed and launch under their names: the
    seed is whole on the screen."""
    page = at_size(page_for("gm"), "phone")
    page.goto(f"{live_server.url}/battles/")
    assert page.locator("table.listing.stack tbody tr").count() >= 1
    assert page.evaluate(NOT_FITTING) == []
    assert scroll_width(page) <= SIZES["phone"]["width"]
    seed = page.locator("table.listing td[data-label=Seed]").first
    assert _stack_label(page, "table.listing td[data-label=Seed]") == '"Seed"'
    box = seed.locator("code").bounding_box()
    assert box["x"] + box["width"] <= SIZES["phone"]["width"]
    shoot(page, "one-off-battles-phone", full_page=True)
    assert not page.errors, page.errors


def test_a_units_numbers_over_the_campaign_are_labelled_rows_on_a_phone(
    browser_world,
    page_for,
    live_server,
):
    """The numbers behind the unit's charts: each day is "Day 3", then each figure under its
    column's name, nothing scrolled sideways."""
    page = at_size(page_for("gm"), "phone")
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    page.goto(f"{c}/units/{browser_world.unit.pk}/")
    page.click(".chart-table summary")
    table = page.locator(".chart-table table.stack")
    assert table.locator("tbody tr").count() >= 1
    assert page.evaluate(NOT_FITTING) == []
    assert table.locator("tbody th").first.inner_text().startswith("Day ")
    assert _stack_label(page, ".chart-table td[data-label='Casualty hits']") == '"Casualty hits"'
    assert scroll_width(page) <= SIZES["phone"]["width"]
    shoot(page, "unit-numbers-phone", full_page=True)
    # On a desktop it stays a table: the day under its column, "Day" said once.
    at_size(page, "desktop")
    assert table.locator("thead").is_visible()
    assert table.locator("tbody th").first.inner_text().isdigit()
    assert not page.errors, page.errors


@pytest.fixture
def all_ready(browser_world):
    """Every unit of the world ready to fight, made before Playwright starts."""
    from tests.web.test_campaign_battles import _free_all

    _free_all(browser_world)


@pytest.mark.worker
def test_the_set_ups_odds_are_labelled_rows_on_a_phone(
    all_ready,
    browser_world,
    page_for,
    live_server,
    worker,
):
    """Who is favoured? beside Launch: each unit's odds are its name, then its side, the
    chance it is removed and the interval under their names, nothing scrolled inside the box."""
    page = at_size(page_for("gm"), "phone")
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    page.goto(f"{c}/battles/new/?scenario=crossroads")
    page.fill("input[name=odds_battles]", "10")
    page.click("button[name=action][value=odds]")
    page.wait_for_selector(".setup-odds .odds-count")  # the run is done, its tables drawn
    assert page.evaluate(CUT_CELLS, ".setup-odds table") == []
    box = page.evaluate("(() => { const b = document.querySelector('.setup-odds');"
                        " return [b.scrollWidth, b.clientWidth]; })()")  # fmt: skip
    assert box[0] <= box[1], "nothing scrolls inside the box"
    assert _stack_label(page, ".setup-odds td[data-label=Removed]") == '"Removed"'
    assert scroll_width(page) <= SIZES["phone"]["width"]
    shoot(page, "setup-odds-phone", locator=page.locator(".setup-odds"))
    assert not page.errors, page.errors


SIDE_CUT = """() => [...document.querySelectorAll('table.deploy select[name^=side_]')].filter(s => {
  const shown = s.getBoundingClientRect().width;
  s.style.maxWidth = 'none';
  const whole = s.getBoundingClientRect().width;
  s.style.maxWidth = '';
  return shown + 0.5 < whole;
}).map(s => s.selectedOptions[0].text)"""
"""The set-up's side choices drawn narrower than their longest name needs (a name cut off)."""


def test_the_set_ups_side_choices_show_the_forces_whole_names(
    all_ready,
    browser_world,
    page_for,
    live_server,
):
    """A side is called by its forces ("Blue Battalion"): its choice in each unit's row shows
    the whole name, at desktop size and on a phone, and the page still fits the window."""
    page = page_for("gm")
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    for size, viewport in SIZES.items():
        at_size(page, size)
        page.goto(f"{c}/battles/new/?scenario=crossroads")
        assert page.locator("table.deploy select[name^=side_] >> text=Blue Battalion").count()
        assert page.evaluate(SIDE_CUT) == [], size
        assert scroll_width(page) <= viewport["width"]
        shoot(page, f"setup-sides-{size}", locator=page.locator("table.deploy"))
    assert not page.errors, page.errors


TABLE_OVERFLOW = """() => { const s = document.querySelector('.deploy-table .scroll-x');
  return s.scrollWidth - s.clientWidth; }"""
"""How far the set-up's table reaches past its column (its Orders out of sight beyond it)."""


def test_the_set_ups_table_keeps_its_width_when_a_side_is_named_by_two_forces(
    all_ready,
    browser_world,
    page_for,
    live_server,
):
    """Every unit put on one side: the page refuses it, that side is named by both forces and
    the other by its place; the longer name gives way, and Orders stay within the table."""
    page = page_for("gm")
    at_size(page, "desktop")
    page.goto(
        f"{live_server.url}/campaigns/{browser_world.campaign.pk}/battles/new/?scenario=crossroads"
    )
    assert page.evaluate(TABLE_OVERFLOW) <= 0
    for select in page.locator("table.deploy select[name^=side_]").all():
        select.select_option("blue")
    page.get_by_role("button", name="Launch the battle", exact=True).click()
    expect(
        page.get_by_text("No unit is on the second side: put at least one there.")
    ).to_be_visible()
    side = page.locator("table.deploy select[name^=side_]").first
    expect(side.locator("option:checked")).to_have_text("Blue Battalion and Red Company")
    assert page.evaluate(TABLE_OVERFLOW) <= 0
    assert not page.errors, page.errors


SELECTED_FITS = """(select) => {
  // The width the select takes to show its chosen option whole: a copy holding that option
  // alone, at its own width.
  const copy = select.cloneNode(false);
  copy.append(select.selectedOptions[0].cloneNode(true));
  copy.style.cssText = 'position: absolute; width: auto; flex: none; max-width: none';
  select.parentNode.append(copy);
  const needed = copy.getBoundingClientRect().width;
  copy.remove();
  return [select.selectedOptions[0].textContent, select.getBoundingClientRect().width, needed];
}"""


@pytest.mark.parametrize("width", [320, 360, 390])
def test_the_timelines_whose_story_choice_shows_its_choice_whole_on_a_phone(
    browser_world, page_for, live_server, width
):
    # "The whole campaign" read "The whole campaigr" at 320 px and "The whole campaig" at 390.
    page = page_for("player")
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(f"{live_server.url}/campaigns/{browser_world.campaign.pk}/timeline/")
    chosen, shown, needed = page.locator("#id_focus").evaluate(SELECTED_FITS)
    assert chosen == "The whole campaign"
    assert shown >= needed, (shown, needed)
    assert scroll_width(page) <= width, sticking_out(page)
    shoot(page, f"timeline-follow-{width}")
    assert not page.errors, page.errors


REPLAY_MARKERS = """() => [...document.querySelectorAll('[data-replay] svg.table-map .unit')]
  .filter(unit => getComputedStyle(unit).display !== 'none')
  .map(unit => {
    const box = e => e.getBoundingClientRect();
    const circle = box(unit.querySelector('circle'));
    const number = box(unit.querySelector('.unit-size'));
    const label = unit.querySelector('.unit-label');
    const named = getComputedStyle(label).display !== 'none' ? box(label) : null;
    const clear = !named || named.bottom <= circle.top + 1 || named.top >= circle.bottom - 1
      || named.right <= circle.left + 1 || named.left >= circle.right - 1;
    return [unit.dataset.unit, circle.width, number.height, Boolean(named), clear];
  })"""
"""Each unit drawn on the replay's map: how wide its marker, how tall its number, whether its
name is shown, and whether that name is clear of its own marker."""


def test_the_replays_unit_markers_and_numbers_are_legible_on_a_phone(
    browser_world, page_for, live_server
):
    """On a phone the map is drawn at about 14 px to the inch: a Size 1 marker was 11 px across
    and the number in it 7 px tall. Each is drawn larger there (``--marker-scale``), and the
    acting unit's name is placed clear of its larger marker, frame after frame; at desktop
    size the markers keep their inches."""
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    page = at_size(page_for("spectator", touch=True), "phone")
    page.goto(f"{c}/battles/{browser_world.engine_battle.pk}/")
    expect(page.locator("[data-replay] [data-controls]")).to_be_visible()
    named = 0
    for _ in range(6):
        units = page.evaluate(REPLAY_MARKERS)
        assert units, units
        assert all(width >= 14 and number >= 10 for _, width, number, _, _ in units), units
        assert all(clear for *_, clear in units), units
        named += sum(1 for *_, shown, _ in units if shown)
        page.click("[data-replay] [data-action=forward]")
    assert named, "no frame named its acting unit"
    shoot(page, "replay-markers-phone")
    at_size(page, "desktop")
    page.goto(f"{c}/battles/{browser_world.engine_battle.pk}/")
    expect(page.locator("[data-replay] [data-controls]")).to_be_visible()
    scale = page.evaluate(
        "getComputedStyle(document.querySelector('[data-replay] svg.table-map'))"
        ".getPropertyValue('--marker-scale')"
    )
    assert scale.strip() == "1"
    assert not page.errors, page.errors


STATUS_CUT = """() => [...document.querySelectorAll('.status')]
  .filter(s => s.getClientRects().length > 1).map(s => s.textContent.trim())"""
"""The state pills drawn in pieces over two lines ("Awaiting" at a line's end, "review" under
it)."""


@pytest.mark.parametrize("width", [320, 390, 1280])
def test_a_state_pill_is_never_cut_over_two_lines(browser_world, page_for, live_server, width):
    """A fight's state on the dashboard and the battles' lists, a unit's beside its Order: each
    pill goes to the next line whole rather than leave half of itself at a line's end."""
    page = page_for("gm")
    page.set_viewport_size({"width": width, "height": 900})
    c = f"/campaigns/{browser_world.campaign.pk}"
    cut = {}
    for path in (f"{c}/", f"{c}/battles/", f"{c}/orders/", f"{c}/engagements/", "/battles/"):
        page.goto(f"{live_server.url}{path}")
        if found := page.evaluate(STATUS_CUT):
            cut[path] = found
    assert not cut, cut
    assert not page.errors, page.errors


@pytest.fixture
def crossroads(browser_world):
    """The battle awaiting review named as the demo's is, before Playwright starts."""
    from campaign.models import CampaignBattle

    battle = browser_world.table_battle
    CampaignBattle.objects.filter(pk=battle.pk).update(name="Battle of the Crossroads")
    return browser_world


@pytest.mark.parametrize("width", [320, 390])
def test_the_battle_a_unit_waits_on_is_read_whole_under_its_status_on_a_phone(
    crossroads, page_for, live_server, width
):
    """A unit held by a battle awaiting review: its roster card's status reads "Awaiting review"
    then "of Battle of the Crossroads" on one line, not the battle's last word left alone under
    the rest."""
    browser_world = crossroads
    page = page_for("player")
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{live_server.url}/campaigns/{browser_world.campaign.pk}/forces/"
              f"{browser_world.force.pk}/")  # fmt: skip
    lines = page.evaluate(
        """() => [...document.querySelectorAll('.roster-status .in-battle')]
          .map(s => [s.textContent.trim(), s.querySelector('a').getClientRects().length])"""
    )
    assert lines and all(rects == 1 for _, rects in lines), lines
    assert lines[0][0] == "of Battle of the Crossroads"
    shoot(page, f"in-battle-status-{width}")
    assert not page.errors, page.errors


def test_a_dashboard_without_the_gms_panel_uses_the_whole_width_on_a_desktop(
    browser_world, page_for, live_server
):
    """A player's and a spectator's dashboard have no GM's panel beside their column: the column
    takes the page's width rather than leave a panel's width empty at its side. The GM's keeps
    its panel beside it."""
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}/"
    widths = {}
    for role in ("player", "spectator", "gm"):
        page = at_size(page_for(role), "desktop")
        page.goto(c)
        widths[role] = page.evaluate(
            """() => [document.querySelector('.dash').getBoundingClientRect().width,
                      document.querySelector('.dash-main').getBoundingClientRect().width]"""
        )
        assert not page.errors, page.errors
    for role in ("player", "spectator"):
        dash, main = widths[role]
        assert main >= dash - 1, (role, widths)
    dash, main = widths["gm"]
    assert main < dash - 200, widths
