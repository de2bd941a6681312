"""The campaign pages in a real browser, with the launch settings, worker and log-in of
``tests/web/browser.py``.

The GM starts a campaign, invites two players (who accept), raises their forces from the card
library, turns on fog of war, launches a campaign battle, watches a real worker fight it and
steps the replay.
Then a player reads the roster and the battle as their side saw it, finds the GM's pages
forbidden and an expired session sent to log in; an outsider finds nothing at all. Screenshots
go to test-artifacts/browser/ (``campaign-*``) for a person to look at.
"""

from __future__ import annotations

import re

import pytest

from tests.web.browser import (
    PASSWORD,
    TIMEOUT_MS,
    counter,
    expect,
    select_when_ready,
    shoot,
    wait_for_report,
)
from units.services import library_load

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

PLAYERS = ("gm", "alice", "bob", "snoop")


@pytest.fixture
def campaign_cast(django_user_model) -> None:
    """The GM, two players, an outsider and the card library, all made before Playwright starts
    (see ``cast`` in tests/web/browser.py for why)."""
    for username in PLAYERS:
        django_user_model.objects.create_user(username, password=PASSWORD)
    library_load()


def _submit(page, form: str) -> None:
    page.click(f"{form} button[type=submit]")


def _open_tool(page, form: str) -> None:
    """The dashboard keeps its less used tools folded once the campaign has forces."""
    if page.locator(f"{form}-tool[open]").count() == 0:
        page.click(f"{form}-tool > summary")


def _raise_units(page, cards: list[tuple[str, str]]) -> None:
    for card, name in cards:
        # Each card is offered with the specialty it needs: "Rifle Squad (needs Infantry)".
        offered = page.locator("#add-form select[name=unit_type] option")
        label = offered.filter(has_text=re.compile(rf"^{re.escape(card)}( \(|$)")).inner_text()
        page.select_option("#add-form select[name=unit_type]", label=label)
        page.fill("#add-form input[name=name]", name)
        _submit(page, "#add-form")
        page.wait_for_selector(f"#roster >> text={name}")


def _gm_builds_the_campaign(page, live_server, page_for) -> str:
    page.click("header >> text=Campaigns")
    page.fill("#create-form input[name=name]", "Operation Lantern")
    _submit(page, "#create-form")
    page.wait_for_url(re.compile(r"/campaigns/\d+/$"))
    dashboard = page.url
    # The answer is the same for a name nobody has: the form tells no one who has an account.
    for username in ("alice", "bob", "nobody"):
        page.fill("#invitation-form input[name=invitee]", username)
        _submit(page, "#invitation-form")
        page.wait_for_selector("text=If an account by that name exists, it has been invited.")
        page.wait_for_selector(f"#invitations li:has-text('{username}, as a player')")
    for username in ("alice", "bob"):
        player = page_for(username)
        player.click("#invitations button:has-text('Accept')")
        player.wait_for_selector("text=You are in Operation Lantern as a player.")
        player.context.close()
    page.goto(dashboard)
    waiting = page.locator("#invitations li").all_inner_texts()
    assert [text.splitlines()[0] for text in waiting] == ["nobody, as a player Withdraw"]
    page.click("#invitations button:has-text('Withdraw')")
    page.wait_for_selector("text=The invitation to nobody is withdrawn.")
    for owner, force, cards in (
        ("alice", "Lantern Company", [("Rifle Squad", "1st Squad"), ("Medium Tank", "Brave Cow")]),
        ("bob", "Night Battalion", [("Rifle Squad", "Ghost Squad"), ("Mech", "Iron Wolf")]),
    ):
        page.goto(dashboard)
        _open_tool(page, "#force-form")
        page.select_option("#force-form select[name=owner]", owner)
        page.fill("#force-form input[name=name]", force)
        _submit(page, "#force-form")
        page.wait_for_url(re.compile(r"/forces/\d+/$"))
        _raise_units(page, cards)
    shoot(page, "campaign-01-roster-gm", full_page=True)

    page.goto(dashboard)
    _open_tool(page, "#settings-form")
    page.check("#settings-form input[name=fog_of_war]")
    _submit(page, "#settings-form")
    page.wait_for_selector("text=Settings saved.")
    assert page.locator(".meta .badge:has-text('fog of war')").count() == 1
    shoot(page, "campaign-02-dashboard-gm", full_page=True)
    return dashboard


@pytest.mark.usefixtures("campaign_cast", "worker")  # the cast first: see campaign_cast
def test_a_campaign_from_start_to_a_fogged_battle_report(page_for, live_server):
    gm = page_for("gm")
    dashboard = _gm_builds_the_campaign(gm, live_server, page_for)

    # Set up and launch a battle on Crossroads: each force takes a side by default.
    gm.click("text=Set up a battle")
    select_when_ready(gm, "#id_scenario_pick", "crossroads")
    gm.wait_for_selector("#setup-form input[name=scenario][value=crossroads]", state="attached")
    gm.fill("#setup-form input[name=seed]", "7")
    gm.fill("#setup-form input[name=turn_limit]", "5")
    assert gm.locator("#setup-form table.deploy tbody tr").count() == 4
    # The mech's default spot is inside the farmhouse, which admits no mech: the next spot.
    wolf = gm.locator("#setup-form tr:has-text('Iron Wolf')")
    wolf.locator("input[name^=x_]").fill("22")
    wolf.locator("input[name^=y_]").fill("12")
    shoot(gm, "campaign-03-setup", full_page=True)
    _submit(gm, "#setup-form")
    gm.wait_for_selector(".progress-box, #setup-form .form-errors, #setup-form .field-errors")
    assert gm.locator("#setup-form").count() == 0, gm.locator(
        "#setup-form .form-errors, #setup-form .field-errors"
    ).all_inner_texts()
    gm.wait_for_url(re.compile(r"/battles/\d+/$"))
    battle_url = gm.url
    gm.evaluate("window.stillHere = true")
    gm.wait_for_selector(".progress-status:has-text('Fighting')")
    shoot(gm, "campaign-04-progress")
    wait_for_report(gm)
    assert gm.evaluate("window.stillHere") is True, "the report came by reload, not htmx"
    assert gm.locator("nav.viewer-choice").count() == 1  # the GM may see every side's view
    assert gm.locator("text=Fog of war: you see").count() == 0
    everything = gm.inner_text(".log-count")

    replay = gm.locator("[data-replay]")
    replay.scroll_into_view_if_needed()
    first, total = counter(gm)
    assert first == 1 and total > 5
    gm.click('[data-action="forward"]')
    assert counter(gm)[0] == 2
    replay.focus()
    gm.keyboard.press("ArrowRight")
    assert counter(gm)[0] == 3
    gm.keyboard.press("ArrowLeft")
    assert counter(gm)[0] == 2
    gm.keyboard.press("End")
    assert counter(gm) == (total, total)
    shoot(gm, "campaign-05-report-gm", full_page=True)
    # The outcome reached the rosters (the campaign applies outcomes at once by default).
    gm.goto(battle_url)
    expect(gm.locator(".meta .status")).to_have_text(re.compile("applied"))
    assert not gm.errors, gm.errors

    # A player reads the roster, then the battle as their side saw it.
    alice = page_for("alice")
    alice.goto(dashboard)
    alice.get_by_role("link", name="Lantern Company", exact=True).click()
    alice.wait_for_selector("#roster >> text=Brave Cow")
    shoot(alice, "campaign-06-roster-player", full_page=True)
    alice.click("#roster th a:has-text('Quality')")  # sorted by htmx, in place
    alice.wait_for_url(re.compile(r"sort="))
    alice.goto(battle_url)
    notice = alice.locator(".notice-warning:has-text('Fog of war')")
    expect(notice).to_contain_text("Lantern Company saw it")
    assert alice.locator("nav.viewer-choice").count() == 0
    assert "as Lantern Company saw them" in alice.inner_text(".log-count")
    assert alice.inner_text(".log-count") != everything
    alice.locator("[data-replay]").scroll_into_view_if_needed()
    alice.click('[data-action="forward"]')
    assert counter(alice)[0] == 2
    shoot(alice, "campaign-07-report-player", full_page=True)
    # The drawn table places only the units Blue saw at deployment; the replay draws each other
    # unit the first time Blue sees it, so by the end every unit ever seen has its marker.
    ever_seen = alice.evaluate(
        """() => {
          const data = JSON.parse(document.getElementById("replay-frames").textContent);
          const seen = new Set();
          for (const frame of data.frames)
            for (const [id, u] of Object.entries(frame.units)) if (u[0] !== null) seen.add(id);
          return seen.size;
        }"""
    )
    drawn = alice.locator("[data-replay] [data-unit]").count()
    assert drawn <= ever_seen
    alice.locator("[data-replay]").focus()
    alice.keyboard.press("End")
    assert alice.locator("[data-replay] [data-unit]").count() == ever_seen

    # The GM's pages are forbidden to a player, with the site's own page.
    response = alice.goto(battle_url.rsplit("/battles/", 1)[0] + "/battles/new/")
    assert response.status == 403
    expect(alice.locator("h1")).to_have_text("Not allowed")
    shoot(alice, "campaign-08-forbidden")
    assert alice.errors == [
        "Failed to load resource: the server responded with a status of 403 (Forbidden)"
    ]  # the browser's note of the 403 asked for just above, and nothing else
    alice.errors.clear()

    # The library and the rules, from the nav.
    alice.click("header >> text=Library")
    expect(alice.locator("h1")).to_have_text("Card library")
    shoot(alice, "campaign-09-library")
    alice.click(".library-card a:has-text('Medium Tank') >> nth=0")
    expect(alice.locator("pre.card-text")).to_contain_text("Medium Tank")
    shoot(alice, "campaign-10-library-card")
    alice.click("header >> text=Rules")
    expect(alice.locator("article.rules-card h1")).to_have_text("Rules card")
    shoot(alice, "campaign-11-rules-card", full_page=True)
    alice.click("article.rules-card >> text=the battle rules")
    expect(alice.locator("article.doc h1")).to_be_visible()
    shoot(alice, "campaign-11-rules")
    assert not alice.errors, alice.errors

    # An outsider cannot even learn the campaign exists.
    snoop = page_for("snoop")
    response = snoop.goto(dashboard)
    assert response.status == 404
    assert "Operation Lantern" not in snoop.content()
    expect(snoop.locator("h1")).to_have_text("Nothing here")
    shoot(snoop, "campaign-12-not-found")

    # A session that expires: the next htmx request loads the login page whole.
    alice.goto(dashboard)
    alice.get_by_role("link", name="Lantern Company", exact=True).click()
    force_url = alice.url
    alice.context.clear_cookies()
    alice.click("#roster th a:has-text('Skill')")
    alice.wait_for_url(re.compile(r"/accounts/login/\?next="))
    assert alice.locator("#roster").count() == 0
    assert alice.locator("#id_username").is_visible()
    assert force_url.split("//", 1)[1].split("/", 1)[1] in alice.url.replace("%2F", "/")
    shoot(alice, "campaign-13-session-expired")
    assert TIMEOUT_MS  # the shared timeout is what every wait above used
