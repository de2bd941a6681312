"""Every campaign page fits the window, at desktop size and on a 390 px phone, for the GM, a player
and a spectator: nothing scrolls sideways (``document.documentElement.scrollWidth`` is no wider than
the window); a form's row per unit is a card on a phone and a table on a tablet, a roster shows
every column whole, a unit's facts leave room for their values, names, state pills and choices are
read whole, and a dashboard without the GM's panel uses the whole width. Screenshots go to
test-artifacts/browser/ (``fit-*``)."""

from __future__ import annotations

import pytest

from tests.web.browser import shoot
from tests.web.browser_world import SIZES, at_size, scroll_width, sticking_out
from tests.web.test_browser_phone_tables import WORDS_BROKEN

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
