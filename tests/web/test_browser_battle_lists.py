"""A user's every one-off battle, in a browser on a phone: from the Battles page to the list of
them, from its first page to the earlier battles and back, each page's rows fitting the screen."""

from __future__ import annotations

import json
from unittest import mock

import pytest

from battles.selectors import LISTED
from battles.services import battle_launch, battle_resolve
from tests.web.browser import expect, shoot
from tests.web.browser_world import SIZES, at_size, scroll_width
from tests.web.campaign_world import CROSSROADS
from tests.web.test_battle_lists import _more_like

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def drills(browser_world):
    """The GM's one-off battles, one more than the Battles page lists: the first fought, the
    rest its copies, made before Playwright starts."""
    with mock.patch("battles.tasks.resolve_battle.delay"):
        first = battle_launch(name="Drill 1", scenario=json.loads(CROSSROADS.read_text()), seed=1,
                              created_by=browser_world.users["gm"])  # fmt: skip
    _more_like(battle_resolve(battle_id=first.pk), LISTED, "Drill")


def test_a_gm_pages_through_every_one_off_battle_on_a_phone(drills, page_for, live_server):
    page = at_size(page_for("gm"), "phone")
    page.goto(f"{live_server.url}/battles/")
    page.get_by_role("link", name="every one-off battle of yours").click()
    expect(page.get_by_role("heading", name="Your one-off battles", level=1)).to_be_visible()
    expect(page.get_by_text(f"Battles 1 to {LISTED} of {LISTED + 1}")).to_be_visible()
    oldest = page.get_by_role("link", name="Drill 1", exact=True)
    expect(oldest).to_have_count(0)
    page.get_by_role("link", name="Earlier battles").click()
    last = LISTED + 1
    expect(page.get_by_text(f"Battles {last} to {last} of {last}")).to_be_visible()
    expect(oldest).to_be_visible()
    box = oldest.bounding_box()
    assert box["x"] + box["width"] <= SIZES["phone"]["width"]
    assert scroll_width(page) <= SIZES["phone"]["width"]
    shoot(page, "one-off-battles-page-2-phone", full_page=True)
    page.get_by_role("link", name="Later battles").click()
    expect(page.get_by_role("link", name=f"Drill {LISTED + 1}", exact=True)).to_be_visible()
    expect(oldest).to_have_count(0)
    assert not page.errors, page.errors
