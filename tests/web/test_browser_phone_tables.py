"""The site's wide tables on a phone, in a browser: a report's units and luck tables, a table
battle's losses, the Orders, the characters, the dashboard's forces, the one-off battles, a unit's
numbers over the campaign and the set-up's odds are each drawn as labelled rows that neither scroll
sideways nor cut a word; the set-up's table shows its sides' whole names and keeps its width; and
the rules card's quality ladder and the campaign document's wide tables are seen whole."""

from __future__ import annotations

import pytest

from tests.web.browser import expect, shoot
from tests.web.browser_world import SIZES, at_size, scroll_width, sticking_out

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


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
