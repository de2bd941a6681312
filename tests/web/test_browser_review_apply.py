"""An engagement's review on a phone: its Apply comes right after the changes it applies, above
the rounds, which on a 390 px screen run to several screens. Screenshots go to
test-artifacts/browser/ (``review-*``)."""

from __future__ import annotations

import re
import uuid

import pytest

from campaign.services import unit_create
from tests.web.browser import shoot
from tests.web.browser_world import SIZES, at_size
from units.models import UnitType

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def pair(browser_world):
    """A ready unit of each force, raised before Playwright starts."""
    card = UnitType.objects.get(name="Rifle Squad", ruleset="combined_arms")
    units = [
        unit_create(force=force, unit_type=card, name=name, specialties=["infantry"])
        for force, name in (
            (browser_world.force, "Forlorn Hope"),
            (browser_world.enemy, "Hill Guard"),
        )
    ]
    return browser_world, *units


def test_it_puts_an_engagements_apply_above_its_rounds_on_a_phone(pair, page_for, live_server):
    world, attacker, defender = pair
    gm = at_size(page_for("gm"), "phone")
    pk = world.campaign.pk
    gm.goto(
        f"{live_server.url}/campaigns/{pk}/quick-resolve/?request_key={uuid.uuid4()}"
        f"&attacker={attacker.pk}&defender={defender.pk}&round_limit=5&seed=7&reason="
    )
    rounds = gm.locator("#log section.round")
    assert rounds.count() >= 1
    apply = gm.locator("#confirm-form button[type=submit]")
    # Above the first round, within the changes' reach: no scrolling through the dice to it.
    assert apply.bounding_box()["y"] < rounds.first.bounding_box()["y"]
    assert apply.bounding_box()["y"] < SIZES["phone"]["height"] * 1.5
    shoot(gm, "review-apply-phone")
    apply.click()
    gm.wait_for_url(re.compile(rf"/campaigns/{pk}/engagements/\d+/$"))
    assert "Done:" in gm.inner_text("main")
