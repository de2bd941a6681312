"""A saved map edited in place, in Chromium: from the set-up page's list of saved maps the GM
opens the map editor on the map as it was saved, renames it and saves it; the set-up then offers
it under its new name. Screenshots go to test-artifacts/browser/."""

from __future__ import annotations

import json
import re

import pytest

from campaign.services.maps import saved_map_create
from tests.web.browser import expect, shoot
from tests.web.campaign_world import CROSSROADS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def mill_road(browser_world):
    """The world's campaign with a saved map, kept before Playwright starts."""
    saved_map_create(campaign=browser_world.campaign, name="Mill Road", text=CROSSROADS.read_text())
    return browser_world


def test_the_gm_opens_a_saved_map_in_the_editor_and_saves_it_renamed(
    mill_road, page_for, live_server
):
    c = f"{live_server.url}/campaigns/{mill_road.campaign.pk}"
    gm = page_for("gm")
    gm.goto(f"{c}/battles/new/")
    gm.get_by_role("link", name="Edit the map Mill Road").click()
    expect(gm.get_by_role("heading", level=1)).to_have_text("Edit the map Mill Road")
    expect(gm.locator("[data-map-editor]")).to_be_visible()
    # The editor draws the map as it was saved: its four pieces of terrain, checked.
    expect(gm.locator("svg.editor-map polygon.terrain")).to_have_count(4)
    expect(gm.locator("[data-problems]")).to_contain_text("The engine accepts this map.")
    shoot(gm, "map-edit")
    gm.fill("#map-form input[name=name]", "Dusk Road")
    gm.click("#map-form button[type=submit]")
    gm.wait_for_url(re.compile(r"/battles/new/\?scenario=map-\d+$"))
    expect(gm.locator(".messages")).to_contain_text("Map Dusk Road saved")
    expect(gm.get_by_role("link", name="Edit the map Dusk Road")).to_be_visible()
    assert not gm.errors, gm.errors


def test_a_file_that_is_no_map_is_told_for_what_it_is_until_the_map_changes(
    mill_road, page_for, live_server
):
    """A campaign export chosen as a map file was called a map without a table; a file cut
    short showed the browser's own parse message; and either stayed on screen after the map
    was edited since."""
    gm = page_for("gm")
    gm.goto(f"{live_server.url}/campaigns/{mill_road.campaign.pk}/battles/new/")
    gm.get_by_role("link", name="Edit the map Mill Road").click()
    # The file chooser sits in the editor, which its script shows once it listens: choosing a
    # file before then (as a script can, hidden or not) would go unheard.
    expect(gm.locator("[data-map-editor]")).to_be_visible()
    status = gm.locator("[data-editor-status]")
    chooser = gm.locator("[data-import]")
    export = json.dumps({"format": "bridgehead.campaign", "version": 1, "campaign": {}})
    chooser.set_input_files(_file("op-test.bridgehead-campaign.json", export))
    expect(status).to_have_text(
        "That file is a Bridgehead campaign export, not a map: import it on the campaign import "
        'page (My campaigns, "Import a campaign from an export file"). The editor keeps the map '
        "it had."
    )
    text = CROSSROADS.read_text()
    chooser.set_input_files(_file("half.json", text[: len(text) // 2]))
    expect(status).to_have_text(re.compile(r"^That file is cut short: it stops at line \d+ "))
    expect(gm.locator("svg.editor-map polygon.terrain")).to_have_count(4)
    # The table made wider: what was said of the file is no longer about the map on screen.
    width = gm.locator("[data-table=width]")
    width.fill("30")
    width.press("Tab")
    expect(status).to_have_text("")
    assert not gm.errors, gm.errors


def _file(name: str, text: str) -> dict:
    return {"name": name, "mimeType": "application/json", "buffer": text.encode()}
