"""The battle pages in a real browser: Playwright driving the system Chromium.

A live server and a real Celery worker (Redis when REDIS_URL is set, else the embedded broker)
fight the battles, slowed by BATTLE_TURN_DELAY so the progress bar has something to show.
Screenshots of the key pages go to test-artifacts/browser/ for a person to look at.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest

from tests.web.browser import TIMEOUT_MS, counter, expect, select_when_ready, shoot, wait_for_report

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_it_sets_up_launches_and_replays_a_battle(page_for, live_server, worker):
    page = page_for("commander")
    page.click("header >> text=One-off battle")
    select_when_ready(page, "#id_scenario", "landing")
    page.wait_for_selector("#preview-heading:has-text('Beach Landing')")  # htmx redraw
    page.select_option("#id_scenario", "crossroads")
    page.wait_for_selector("#preview-heading:has-text('Crossroads')")
    assert page.locator("svg.table-map [data-unit]").count() == 6
    shoot(page, "01-setup", full_page=True)

    page.fill("#id_seed", "7")
    page.fill("#id_turn_limit", "5")
    page.click("button.primary")
    page.wait_for_url(re.compile(r"/battles/\d+/$"))
    battle_url = page.url
    page.evaluate("window.stillHere = true")  # gone if the page reloads
    page.wait_for_selector(".progress-status:has-text('Fighting')")
    shoot(page, "02-progress")

    wait_for_report(page)
    assert page.evaluate("window.stillHere") is True, "the report came by reload, not htmx"
    assert page.url == battle_url
    assert page.locator(".verdict").is_visible()
    shoot(page, "03-report-top")
    shoot(page, "04-report", full_page=True)

    # The replay, stepped with the buttons and the keys.
    replay = page.locator("[data-replay]")
    replay.scroll_into_view_if_needed()
    first, total = counter(page)
    assert first == 1 and total > 10
    tank = page.locator('[data-unit="b-tank"]')
    deployed = tank.get_attribute("transform")
    page.click('[data-action="forward"]')
    assert counter(page)[0] == 2
    replay.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert counter(page)[0] == 4
    page.keyboard.press("ArrowLeft")
    assert counter(page)[0] == 3
    page.keyboard.press("End")
    assert counter(page) == (total, total)
    assert tank.get_attribute("transform") != deployed  # the tank moved during the battle
    assert page.locator('[data-action="forward"]').is_disabled()
    page.keyboard.press("Home")
    assert counter(page)[0] == 1 and tank.get_attribute("transform") == deployed
    # A marker's title counts its Hits in words: the tank "3 of 3 Hits", the gunship "1 of 1 Hit".
    assert ": 3 of 3 Hits, Skill 4," in tank.locator("title").text_content()
    chopper = page.locator('[data-unit="r-chopper"] title').text_content()
    assert ": 1 of 1 Hit, Skill 4," in chopper
    page.keyboard.press("Space")
    expect(page.locator('[data-action="play"]')).to_have_text("Pause")
    # Checked with Playwright's own waiting: the page's CSP forbids the eval a JS predicate needs.
    expect(page.locator("[data-counter]")).to_have_text(re.compile(r"^3 / "))
    page.keyboard.press("Space")
    expect(page.locator('[data-action="play"]')).to_have_text("▶ Play")
    paused = counter(page)[0]
    page.wait_for_timeout(1200)
    assert counter(page)[0] == paused
    page.click('[data-action="last"]')
    page.click('[data-action="back"]')
    shoot(page, "05-replay", locator=page.locator(".report-replay"))

    # The log filter redraws the log in place and keeps the filter in the address.
    log = page.locator("#battle-log")
    log.scroll_into_view_if_needed()
    total_text = page.inner_text(".log-count")
    page.select_option("#log-unit", "b-tank")
    expect(page.locator(".log-count")).not_to_have_text(total_text)
    assert "unit=b-tank" in page.url
    assert page.evaluate("window.stillHere") is True
    page.locator("#battle-log details").first.locator("summary").click()
    shoot(page, "06-log-filtered", locator=log)

    # Fog of war: the owner looks through Red's eyes.
    page.click("text=As Red Force saw it")
    page.wait_for_url(re.compile(r"as=red"))
    assert "as Red Force saw them" in page.inner_text(".log-count")
    shoot(page, "07-as-red", locator=page.locator(".report-replay"))

    page.click("header >> text=Battles")
    assert page.locator(f'a[href="{urlsplit(battle_url).path}"]').count() == 1
    shoot(page, "08-list")
    assert not page.errors, page.errors


def test_it_runs_the_odds_for_a_scenario(page_for, worker):
    page = page_for("oddsmaker")
    page.click("header >> text=One-off odds")
    select_when_ready(page, "#id_scenario", "crossroads")
    page.fill("#id_battles", "60")
    page.fill("#id_seed", "100")
    shoot(page, "09-odds-setup")
    page.click("button.primary")
    page.wait_for_url(re.compile(r"/battles/odds/\d+/$"))
    page.evaluate("window.stillHere = true")
    # The odds so far show as chunks land; the run is over when the page says why it stopped.
    page.wait_for_selector("p.stopped", timeout=TIMEOUT_MS * 4)
    assert page.evaluate("window.stillHere") is True
    assert "Stopped at the ceiling of 60 battles" in page.inner_text("p.stopped")
    assert "Blue Force" in page.inner_text("table.odds")
    assert page.locator("svg.histogram rect.bar").count() >= 2
    shoot(page, "10-odds", full_page=True)
    assert not page.errors, page.errors


def test_without_javascript_the_battle_page_refreshes_until_the_report(
    page_for, live_server, worker
):
    page = page_for("oldschool", javascript=False)
    page.goto(f"{live_server.url}/battles/new/")
    page.select_option("#id_scenario", "crossroads")
    page.click("button[name=preview]")
    page.wait_for_selector("#preview-heading:has-text('Crossroads')")
    page.fill("#id_seed", "3")
    page.fill("#id_turn_limit", "3")
    page.click("button.primary")
    wait_for_report(page)  # by meta refresh
    shoot(page, "11-no-javascript-report")
    assert page.locator("[data-controls]").is_hidden()  # no replay controls without scripts
    page.select_option("#log-unit", "r-mech")
    page.click(".log-filter button[type=submit]")
    page.wait_for_url(re.compile(r"unit=r-mech"))
    assert "Red Force: Heavy Mech" in page.inner_text("#battle-log")


def test_someone_elses_battle_is_not_found(page_for, live_server, worker):
    owner = page_for("owner")
    owner.goto(f"{live_server.url}/battles/new/")
    owner.click("button.primary")
    owner.wait_for_url(re.compile(r"/battles/\d+/$"))
    battle_url = owner.url
    stranger = page_for("stranger")
    response = stranger.goto(battle_url)
    assert response.status == 404
    assert "Crossroads" not in stranger.content() and "Beach Landing" not in stranger.content()
    shoot(stranger, "12-forbidden")
