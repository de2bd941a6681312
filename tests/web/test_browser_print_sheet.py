"""A force's card sheet printed in a real Chromium, as a GM prints it for the table: on paper,
in black and white, with the browser's own print settings."""

from __future__ import annotations

import pytest

from campaign.services.roster import unit_edit
from tests.web.browser import shoot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BOXES = """() => [...document.querySelectorAll(
  '.hit-boxes .box-morale, .hit-boxes .box-casualty, .hit-key .box, .pip')].map(box => {
    const style = getComputedStyle(box);
    const painted = style.backgroundImage !== 'none'
      || style.backgroundColor !== 'rgba(0, 0, 0, 0)';
    return {kind: box.className, adjust: style.printColorAdjust, painted};
  })"""


@pytest.fixture
def shelled(browser_world):
    """The world with a unit carrying a Morale and a Casualty hit, set before Playwright starts
    (its loop is no place for the database)."""
    unit_edit(
        unit=browser_world.unit,
        changes={"morale_hits": 1, "casualty_hits": 1},
        reason="shelled on the road",
        actor=browser_world.users["gm"],
    )
    return browser_world


def test_a_printed_sheet_keeps_its_morale_and_casualty_boxes_told_apart(
    shelled, page_for, live_server
):
    """A Morale hit's box is hatched and a Casualty hit's solid, drawn as backgrounds; a browser
    prints no backgrounds unless its reader ticks "Background graphics", so the sheet came out of
    the printer with every box empty: a unit carrying two hits read as one untouched. Each box,
    and the key above the cards, is now printed as drawn."""
    world = shelled
    page = page_for("gm")
    base = f"{live_server.url}/campaigns/{world.campaign.pk}"
    page.goto(f"{base}/forces/{world.force.pk}/cards/")
    page.emulate_media(media="print")
    boxes = page.evaluate(BOXES)
    kinds = {box["kind"] for box in boxes}
    assert {"box box-morale", "box box-casualty"} <= kinds, kinds
    assert all(box["adjust"] == "exact" for box in boxes if box["painted"]), boxes
    page.pdf(path=str(shoot(page, "print-sheet").with_suffix(".pdf")), format="A4")
    # The roster's key to the same boxes, on the rules card a player prints.
    page.goto(f"{live_server.url}/campaigns/rules/")
    pips = page.evaluate(BOXES)
    assert [p for p in pips if p["painted"]], pips
    assert all(p["adjust"] == "exact" for p in pips if p["painted"]), pips
    assert not page.errors, page.errors


SPLIT = """() => [...document.querySelectorAll('pre.card-text:not(.faded)')].map(pre => ({
    items: pre.querySelectorAll('.nowrap').length,
    split: [...pre.querySelectorAll('.nowrap')]
      .filter(item => item.getClientRects().length > 1).map(item => item.textContent),
  }))"""


@pytest.fixture
def ready_pk(browser_world) -> int:
    """A ready unit of the player's force, read before Playwright starts."""
    return browser_world.force.units.filter(status="ready").values_list("pk", flat=True)[0]


def test_a_printed_cards_stats_break_between_items_never_inside_one(
    browser_world, ready_pk, page_for, live_server
):
    """Two cards to an A4 page, a card's stat line wrapped where it could: "Resistance 1 ·
    Hits" on one line and "1 · Size 1" on the next, its Hits apart from their number. On
    paper, on a phone and on a desktop each stat and each weapon item stays whole."""
    world = browser_world
    page = page_for("gm")
    base = f"{live_server.url}/campaigns/{world.campaign.pk}"
    for path in (f"forces/{world.force.pk}/cards/", f"units/{ready_pk}/card/"):
        page.goto(f"{base}/{path}")
        # An A4 page less the sheet's 1 cm margins is 190 mm: 718 CSS pixels to lay out in.
        for media, width in (("print", 718), ("screen", 390), ("screen", 1280)):
            page.emulate_media(media=media)
            page.set_viewport_size({"width": width, "height": 900})
            cards = page.evaluate(SPLIT)
            assert cards and all(card["items"] for card in cards), (path, cards)
            assert not [card["split"] for card in cards if card["split"]], (path, media, width)
    assert not page.errors, page.errors


WORKING = """() => [...document.querySelectorAll('.unit-card')].map(card => {
    const parts = [...card.querySelectorAll('.skill-working, .at-table, .at-table *')];
    const ink = parts.map(el => getComputedStyle(el).color);
    const box = card.getBoundingClientRect();
    return {
      name: card.querySelector('h2').textContent,
      working: card.querySelector('.skill-working')?.textContent || '',
      table: card.querySelector('.at-table')?.textContent || '',
      ink: [...new Set(ink)],
      smallest: Math.min(...parts.map(el => parseFloat(getComputedStyle(el).fontSize))),
      spills: parts.filter(el => el.scrollWidth > el.clientWidth + 1
        || el.getBoundingClientRect().right > box.right + 1).map(el => el.className),
    };
  })"""


def test_a_battles_printed_sheet_says_each_cards_skill_working_and_bucs_in_black_on_a4(
    browser_world, page_for, live_server
):
    """A battle's own print sheet carries, under each card it fought with, how its Skill came
    from the library card's and the unit's BUCS numbers as it went in, as a force's sheet
    does: on an A4 page, two cards across, in black ink a black-and-white printer keeps,
    large enough to read and inside its card."""
    world = browser_world
    page = page_for("gm")
    page.goto(
        f"{live_server.url}/campaigns/{world.campaign.pk}/battles/{world.engine_battle.pk}/cards/"
    )
    page.emulate_media(media="print")
    # An A4 page less the sheet's 1 cm margins is 190 mm: 718 CSS pixels to lay out in.
    page.set_viewport_size({"width": 718, "height": 1000})
    cards = page.evaluate(WORKING)
    assert cards, cards
    for card in cards:
        assert card["working"].startswith("Skill "), card
        assert "BUCS at the table" in card["table"] and "Fought as" in card["table"], card
        assert card["ink"] == ["rgb(0, 0, 0)"], card
        assert card["smallest"] >= 9, card
        assert not card["spills"], card
    page.pdf(path=str(shoot(page, "battle-sheet").with_suffix(".pdf")), format="A4")
    assert not page.errors, page.errors
