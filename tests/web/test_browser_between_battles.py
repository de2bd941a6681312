"""Between battles in a real browser: the GM (not staff) withdraws a unit from the combat zone
so it can train, sends it back, attaches and detaches a leader, and sends in the medics unit by
unit, at desktop and phone sizes."""

from __future__ import annotations

import re

import pytest

from campaign.models import Unit
from campaign.services import unit_create, unit_edit
from campaign.services.characters import character_create
from tests.web.browser import expect, shoot
from tests.web.browser_world import at_size

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def ready_world(browser_world):
    """The player's squad ready and in the combat zone; a Medical crew and two units with
    Casualty hits awaiting the medics in the same force."""
    world = browser_world
    gm = world.users["gm"]
    unit = Unit.objects.get(pk=world.unit.pk)
    fresh = {"status": "ready", "in_combat_zone": True, "quality": "average", "morale_hits": 0,
             "casualty_hits": 0}  # fmt: skip
    unit_edit(unit=unit, changes=fresh, reason="fresh", actor=gm)
    card = unit.unit_type
    day = world.campaign.day
    unit_create(force=world.force, unit_type=card, name="Doc Crew", specialties=["medical"])
    character_create(campaign=world.campaign, name="Sgt. Kane", hit_points=10,
                     feats=["special_forces"])  # fmt: skip
    for name, quality, hits in (("Hurt A", "average", 2), ("Hurt B", "green", 1)):
        hurt = unit_create(force=world.force, unit_type=card, name=name, quality=quality)
        unit_edit(unit=hurt, changes={"casualty_hits": hits, "last_battle_day": day},
                  reason="wounded", actor=gm)  # fmt: skip
    return world


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_gm_runs_the_time_between_battles(ready_world, page_for, live_server, size):
    world = ready_world
    base = f"{live_server.url}/campaigns/{world.campaign.pk}"
    gm = at_size(page_for("gm"), size)
    gm.goto(f"{base}/units/{world.unit.pk}/")
    expect(gm.locator("#train-form")).to_contain_text("withdraw it first")
    assert gm.locator("#train-form button[type=submit]").is_disabled()
    shoot(gm, f"between-01-unit-in-zone-{size}", full_page=True)

    gm.click("#zone-form button:has-text('Withdraw to the rear')")
    expect(gm.locator(".notice-success")).to_contain_text("withdrawn to the rear")
    expect(gm.locator("dl.facts:not(.legend-terms)")).to_contain_text("Where it isBehind the lines")
    assert gm.locator("#train-form button[type=submit]").is_enabled()
    gm.select_option("#train-form select[name=character]", label="Sgt. Kane")
    gm.click("#train-form button[type=submit]")
    expect(gm.locator(".notice-success")).to_contain_text("Sgt. Kane trained ")
    gm.click("#zone-form button:has-text('Send into the combat zone')")
    expect(gm.locator(".notice-success")).to_contain_text("sent into the combat zone")
    # The page is the proof (the test may not read the database while Playwright runs).
    expect(gm.locator("dl.facts:not(.legend-terms) dd").first).to_have_text("Experienced")
    expect(gm.locator("dl.facts:not(.legend-terms)")).to_contain_text(
        "Where it isIn the combat zone"
    )

    gm.fill("#leader-form input[name=name]", "Lt. Ash")
    gm.fill("#leader-form input[name=hit_points]", "12")
    gm.click("#leader-form button[type=submit]")
    expect(gm.locator(".notice-success")).to_contain_text("Lt. Ash takes command")
    expect(gm.locator("dl.facts:not(.legend-terms)")).to_contain_text("Lt. Ash, 12 hit points")
    shoot(gm, f"between-02-unit-led-{size}", full_page=True)
    gm.click("#detach-form button:has-text('Detach Lt. Ash')")
    expect(gm.locator(".notice-success")).to_contain_text("Lt. Ash leaves")
    assert gm.locator("#leader-form").count() == 1

    gm.goto(f"{base}/forces/{world.force.pk}/")
    expect(gm.locator("#medical-form")).to_contain_text("can save 2 more hits today")
    shoot(gm, f"between-03-medics-{size}", full_page=True)
    gm.get_by_label("Hurt A: Casualty hits to save (of 2)").fill("1")
    gm.get_by_label("Hurt B: Casualty hits to save (of 1)").fill("1")
    gm.click("#medical-form button:has-text('Save these hits')")
    expect(gm.locator(".notice-success")).to_contain_text(
        "saved 1 Casualty hit of Hurt A and 1 Casualty hit of Hurt B."
    )
    expect(gm.locator("#medics-why")).to_have_text(
        "The Medical crews have saved all they can today."
    )
    roster = gm.locator("#roster")
    # Wounded by hand on the day of the world's battle (no hour kept): the medics have until
    # 00:00 the next day.
    until = re.compile(
        rf"1the medics have until day {world.campaign.day + 1}, 00:00 \(\d+ hours? from now\)"
    )
    casualty_hits = "td[data-label='Casualty hits']"
    expect(roster.locator(f"tr:has-text('Hurt A') {casualty_hits}")).to_have_text(until)
    expect(roster.locator(f"tr:has-text('Hurt B') {casualty_hits}")).to_have_text("0")
    shoot(gm, f"between-04-medics-done-{size}", full_page=True)
    assert not gm.errors, gm.errors
