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
