"""The table in a real browser: a GM deploys the campaign's own units by dragging them on the
set-up map, launches, and watches the battle, with the launch settings, worker and log-in of
``tests/web/browser.py``. Screenshots at 1366×900 and 390×844 go to BRIDGEHEAD_SCREENSHOTS (else
test-artifacts/browser/) for a person to look at, and no page scrolls sideways on the phone.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError

from campaign.battle_forms import BattleSetupForm
from campaign.models import Campaign
from campaign.rules.values import TURN_LIMIT_MAX
from campaign.services import campaign_create, force_create, membership_set, unit_create
from tests.web.browser import (
    ARTIFACTS,
    PASSWORD,
    TIMEOUT_MS,
    counter,
    expect,
    select_when_ready,
    wait_for_report,
)
from units.models import UnitType
from units.services import library_load

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

SHOTS = Path(os.environ.get("BRIDGEHEAD_SCREENSHOTS") or ARTIFACTS)
SIZES = {"wide": (1366, 900), "phone": (390, 844)}


OVERFLOWING = """() => Array.from(document.querySelectorAll('body *'))
    .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
    .filter(e => !e.parentElement
                 || e.parentElement.getBoundingClientRect().right <= window.innerWidth + 1)
    .slice(0, 10).map(e => e.tagName + '.' + e.className)"""
"""The outermost elements that reach past the window's right edge (a failure names them)."""


def shoot_both(page, name: str, section: str | None = None) -> None:
    """The page at both sizes, whole; and it must not scroll sideways on the phone."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    here = page.viewport_size
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(100)
        page.screenshot(path=str(SHOTS / f"table-{name}-{size}.png"), full_page=True)
        if section:
            page.locator(section).screenshot(path=str(SHOTS / f"table-{name}-{size}-part.png"))
        sideways = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        wide = page.evaluate(OVERFLOWING) if sideways > 0 else []
        assert sideways <= 0, f"{name} scrolls {sideways}px sideways at {width}px: {wide}"
    page.set_viewport_size(here)


@pytest.fixture
def lantern(django_user_model) -> Campaign:
    """A campaign with two forces from the card library, made before Playwright starts."""
    gm = django_user_model.objects.create_user("gm", password=PASSWORD)
    alice = django_user_model.objects.create_user("alice", password=PASSWORD)
    bob = django_user_model.objects.create_user("bob", password=PASSWORD)
    library_load()
    campaign = campaign_create(name="Operation Lantern", gm=gm, ruleset="combined_arms")
    card = {c.name: c for c in UnitType.objects.filter(ruleset="combined_arms")}
    for user, force_name, units in (
        (alice, "Lantern Company", [("Rifle Squad", "1st Squad"), ("Medium Tank", "Brave Cow")]),
        (bob, "Night Battalion", [("Rifle Squad", "Ghost Squad"), ("Mech", "Iron Wolf")]),
    ):
        membership_set(campaign=campaign, user=user, role="player")
        force = force_create(campaign=campaign, owner=user, name=force_name)
        for card_name, name in units:
            specialties = ["infantry"] if card_name == "Rifle Squad" else ["mechanized"]
            unit_create(force=force, unit_type=card[card_name], name=name, specialties=specialties)
    return campaign


def screen_point(page, x: float, y: float, svg: str = "[data-deploy-map] svg", height=24):
    """Where table inches (x, y) are on the screen, on a map ``height`` inches deep."""
    return tuple(
        page.evaluate(
            """([x, y, selector, height]) => {
                const svg = document.querySelector(selector);
                const point = svg.createSVGPoint();
                point.x = x; point.y = height - y;
                const at = point.matrixTransform(svg.getScreenCTM());
                return [at.x, at.y];
            }""",
            [x, y, svg, height],
        )
    )


EDITOR = "svg.editor-map"


def editor_drag(page, start: tuple[float, float], to: tuple[float, float]) -> None:
    """Drag on the map editor's table, from and to table inches."""
    page.locator(EDITOR).scroll_into_view_if_needed()
    page.mouse.move(*screen_point(page, *start, svg=EDITOR))
    page.mouse.down()
    x, y = screen_point(page, *to, svg=EDITOR)
    page.mouse.move(x - 4, y - 4, steps=4)
    page.mouse.move(x, y, steps=2)
    page.mouse.up()


def problems(page):
    return page.locator("[data-problems]")


def drag(page, name: str, to: tuple[float, float]) -> None:
    mark = page.locator(f".deploy-unit[aria-label^='{name} (']")
    mark.scroll_into_view_if_needed()
    box = mark.locator("circle").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    x, y = screen_point(page, *to)
    page.mouse.move(x - 5, y - 5, steps=4)
    page.mouse.move(x, y, steps=2)
    page.mouse.up()


def row(page, name: str):
    return page.locator(f"#setup-form tr[data-deploy-row]:has(th:has-text('{name}'))")


def bound(page) -> None:
    """Wait until the set-up form on the page is its script's: a refused Launch swaps a new form
    in, which deploy.js takes up only once htmx has settled it, and a change made sooner goes
    unheard."""
    page.wait_for_function("() => document.querySelector('#setup-form').deployment")


def typed(page, name: str) -> tuple[float, float]:
    r = row(page, name)
    return tuple(float(r.locator(f"input[name^={axis}_]").input_value()) for axis in "xy")


@pytest.mark.usefixtures("lantern", "worker")
def test_a_gm_deploys_the_campaigns_units_on_the_map_and_launches(page_for, live_server):
    gm = page_for("gm")
    gm.goto(f"{live_server.url}/campaigns/")
    gm.click("text=Operation Lantern")
    gm.click("text=Set up a battle")
    select_when_ready(gm, "#id_scenario_pick", "crossroads")
    gm.wait_for_selector("#setup-form input[name=scenario][value=crossroads]", state="attached")
    marks = gm.locator("[data-deploy-map] .deploy-unit:not(.unplaced)")
    expect(marks).to_have_count(4)
    expect(gm.locator(".lede")).to_contain_text("drag them on the map", use_inner_text=True)
    # With the script each mark is a control that says how to move it.
    first = marks.first
    expect(first).to_have_attribute("role", "button")
    expect(first).to_have_attribute("aria-label", re.compile(r": drag, or use the arrow keys"))
    # Each mark shows its number in the table, and the key under the map names it.
    assert gm.locator("[data-deploy-map] .deploy-number").all_text_contents() == [
        "1", "2", "3", "4"
    ]  # fmt: skip
    assert [" ".join(t.split()) for t in gm.locator(".deploy-key li").all_inner_texts()] == [
        "1 1st Squad", "2 Brave Cow", "3 Ghost Squad", "4 Iron Wolf"
    ]  # fmt: skip
    expect(row(gm, "Brave Cow").locator(".deploy-number-badge")).to_have_text("2")
    # Legible on a phone: the numbers stand at least 10px tall there.
    gm.set_viewport_size({"width": 390, "height": 844})
    gm.locator("[data-deploy-map]").scroll_into_view_if_needed()
    heights = gm.locator("[data-deploy-map] .deploy-number").evaluate_all(
        "marks => marks.map(m => m.getBoundingClientRect().height)"
    )
    assert min(heights) >= 10, heights
    gm.set_viewport_size({"width": 1366, "height": 900})

    # Dragged near a spot it lands on the spot; elsewhere on the half-inch grid; the table follows.
    drag(gm, "1st Squad", (6.2, 3.1))
    expect(gm.locator(".deploy-status")).to_have_text("1st Squad at 6, 3.")
    assert typed(gm, "1st Squad") == (6, 3)
    drag(gm, "Brave Cow", (3.3, 7.8))
    expect(gm.locator(".deploy-status")).to_have_text("Brave Cow at 3.5, 8.")
    assert typed(gm, "Brave Cow") == (3.5, 8)

    # Illegal: the tank into the farmhouse, which admits Size 1-2 only. The mech, which has
    # Breaching and could go in, may start there.
    cow_at = typed(gm, "Brave Cow")
    drag(gm, "Brave Cow", (16.5, 16.5))
    expect(gm.locator(".deploy-status")).to_contain_text(
        "Not there: Brave Cow cannot stand in the Farmhouse at (16.5, 16.5): the Farmhouse "
        "admits Size 1 to 2, and Brave Cow is Size 3. Brave Cow is back"
    )
    assert typed(gm, "Brave Cow") == cow_at, "refused: back where it was"
    problem = gm.locator("#setup-form .deploy-problem:not([hidden])")
    expect(problem).to_contain_text("the Farmhouse")
    shoot_both(gm, "01-setup-refused")
    drag(gm, "Brave Cow", (3.3, 7.8))
    expect(gm.locator(".deploy-status")).to_have_text("Brave Cow at 3.5, 8.")
    expect(problem).to_have_count(0)
    drag(gm, "Iron Wolf", (16.5, 16.5))
    expect(gm.locator(".deploy-status")).to_have_text(re.compile(r"^Iron Wolf at 1[67](\.5)?, "))
    drag(gm, "Iron Wolf", (22, 12))
    expect(gm.locator(".deploy-status")).to_have_text("Iron Wolf at 22, 12.")

    # The map follows the table, and the arrow keys move a unit half an inch.
    ghost = row(gm, "Ghost Squad")
    ghost.locator("input[name^=x_]").fill("20")
    ghost.locator("input[name^=y_]").fill("21")
    ghost.locator("input[name^=y_]").press("Tab")
    ghost_mark = gm.locator(".deploy-unit[aria-label^='Ghost Squad (']")
    expect(ghost_mark).to_have_attribute("transform", "translate(20 3)")
    ghost_mark.focus()
    gm.keyboard.press("ArrowLeft")
    expect(gm.locator(".deploy-status")).to_have_text("Ghost Squad at 19.5, 21.")
    assert typed(gm, "Ghost Squad") == (19.5, 21)
    gm.fill("#setup-form input[name=seed]", "7")
    gm.fill("#setup-form input[name=turn_limit]", "4")
    shoot_both(gm, "02-setup-placed")

    # Who is favoured, in exactly this set-up: a real odds run on the worker, beside Launch.
    gm.fill("#setup-form input[name=odds_battles]", "20")
    gm.click("#setup-form button[value=odds]")
    odds = gm.locator("#setup-odds")
    expect(odds.locator(".odds-count")).to_contain_text(
        "From 20 battles of exactly this set-up", timeout=TIMEOUT_MS
    )
    for force in ("Lantern Company", "Night Battalion"):  # the sides by their forces
        expect(odds.locator("table.odds").first).to_contain_text(force)
    for name in ("1st Squad", "Brave Cow", "Ghost Squad", "Iron Wolf"):
        expect(odds.locator(f"th:text-is('{name}')")).to_have_count(1)
    assert typed(gm, "Ghost Squad") == (19.5, 21), "the set-up is kept as it was"
    shoot_both(gm, "05-setup-odds")

    gm.click("#setup-form button.primary")
    gm.wait_for_url(re.compile(r"/battles/\d+/$"))
    expect(gm.locator("text=the odds you asked are kept with it")).to_be_visible()
    expect(gm.locator("#setup-odds .odds-count")).to_contain_text("From 20 battles")
    wait_for_report(gm)
    replay = gm.locator("[data-replay]")
    replay.scroll_into_view_if_needed()
    first, total = counter(gm)
    assert first == 1 and total > 3
    # The markers carry the campaign's names, and the replay steps turn by turn.
    labels = gm.locator("[data-replay] .unit-label").all_text_contents()
    assert sorted(labels) == ["1st Squad", "Brave Cow", "Ghost Squad", "Iron Wolf"]
    title = gm.locator("[data-title]")
    gm.click('[data-action="next-turn"]')
    expect(title).to_have_text(re.compile(r"^Turn 1 · "))
    turns = gm.locator('[data-action="turn"] option').all_text_contents()
    assert turns[:3] == ["Deployment", "Turn 1", "Turn 2"]
    gm.select_option('[data-action="turn"]', label="Turn 2")
    expect(title).to_have_text(re.compile(r"^Turn 2 · "))
    at_turn_2 = counter(gm)[0]
    gm.click('[data-action="forward"]')
    gm.click('[data-action="prev-turn"]')
    assert counter(gm)[0] == at_turn_2, "back to the start of this turn"
    replay.focus()
    gm.keyboard.press("PageUp")
    expect(title).to_have_text(re.compile(r"^Turn 1 · "))
    gm.select_option('[data-action="speed"]', "4")
    gm.click('[data-action="play"]')
    expect(gm.locator("[data-counter]")).to_have_text(f"{total} / {total}", timeout=20_000)
    assert gm.locator(".replay-legend li").count() == 7
    gm.select_option('[data-action="turn"]', label="Turn 1")
    shoot_both(gm, "06-replay", section=".report-replay")

    # The odds asked are the campaign's: from the Battles page, its page, in its names.
    gm.get_by_role("navigation").get_by_role("link", name="Battles", exact=True).click()
    gm.locator("table.listing a[href*='/battles/odds/']").first.click()
    gm.wait_for_url(re.compile(r"/campaigns/\d+/battles/odds/\d+/$"))
    expect(gm.get_by_role("heading", name="Who is favoured?", level=2)).to_be_visible()
    for force in ("Lantern Company", "Night Battalion"):
        expect(gm.locator("table.odds").first).to_contain_text(force)
    expect(gm.locator("th:text-is('Ghost Squad')")).to_have_count(1)
    assert not gm.errors, gm.errors


ON_A_MARK = """([x, y]) => !!document.elementFromPoint(x, y).closest('.deploy-unit')"""
"""Whether a point of the window is on a unit's mark on the set-up map (its circle or number)."""


def test_a_press_beside_a_small_unit_on_the_set_up_map_picks_it_on_a_phone(
    lantern, page_for, live_server
):
    """A Size 1 unit's mark is about 14 px across on a 360 px phone (drawn 1.3 times its
    inches), smaller than a fingertip: a press within 12 px of its centre (a 24 px target, as
    the replay's units) picks it, though it misses the mark: it takes the focus, so the arrow
    keys move it, and a drag from there moves it as far as the pointer went. A press without a
    drag leaves it where it stood."""
    gm = page_for("gm")
    gm.set_viewport_size({"width": 360, "height": 780})
    gm.goto(f"{live_server.url}/campaigns/{lantern.pk}/battles/new/?scenario=crossroads")
    mark = gm.locator(".deploy-unit[aria-label^='1st Squad (']")
    mark.scroll_into_view_if_needed()
    box = mark.locator("circle").bounding_box()
    assert box["width"] < 16, box  # a Size 1 mark, well under a 24 px target
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    beside = (x + 10, y)
    assert not gm.evaluate(ON_A_MARK, list(beside))
    before = typed(gm, "1st Squad")

    # A mouse click, as a pen or Safari's tap (Chromium moves a touch onto a control near it).
    gm.mouse.click(*beside)
    expect(mark).to_be_focused()
    assert typed(gm, "1st Squad") == before, "picked, not moved"
    gm.keyboard.press("ArrowUp")
    expect(gm.locator(".deploy-status")).to_have_text(
        f"1st Squad at {before[0]:g}, {before[1] + 0.5:g}."
    )

    # Dragged from beside it: it moves as far as the pointer, onto the half-inch grid.
    start = typed(gm, "1st Squad")
    to = screen_point(gm, start[0] + 1, start[1] - 1)
    gm.mouse.move(x + 10, screen_point(gm, *start)[1])
    gm.mouse.down()
    gm.mouse.move(to[0] + 10 - 4, to[1] - 4, steps=4)
    gm.mouse.move(to[0] + 10, to[1], steps=2)
    gm.mouse.up()
    expect(gm.locator(".deploy-status")).to_have_text(
        f"1st Squad at {start[0] + 1:g}, {start[1] - 1:g}."
    )
    assert typed(gm, "1st Squad") == (start[0] + 1, start[1] - 1)
    assert not gm.errors, gm.errors


def test_a_unit_dragged_away_and_back_on_the_set_up_map_is_placed_where_it_was_and_said(
    lantern, page_for, live_server
):
    """A drag that ends where it began is a move all the same: the unit is placed there and
    the map says where it stands, as after any drag (a press alone moves nothing)."""
    gm = page_for("gm")
    gm.goto(f"{live_server.url}/campaigns/{lantern.pk}/battles/new/?scenario=crossroads")
    mark = gm.locator(".deploy-unit[aria-label^='Iron Wolf (']")
    mark.scroll_into_view_if_needed()
    box = mark.locator("circle").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    at = typed(gm, "Iron Wolf")
    gm.mouse.move(x, y)
    gm.mouse.down()
    gm.mouse.move(x - 40, y - 40, steps=4)
    gm.mouse.move(x, y, steps=4)
    gm.mouse.up()
    expect(gm.locator(".deploy-status")).to_have_text(f"Iron Wolf at {at[0]:g}, {at[1]:g}.")
    assert typed(gm, "Iron Wolf") == at
    assert not gm.errors, gm.errors


@pytest.mark.usefixtures("lantern", "worker")
def test_a_gm_draws_a_map_saves_it_and_fights_on_it(page_for, live_server):
    gm = page_for("gm")
    gm.goto(f"{live_server.url}/campaigns/")
    gm.click("text=Operation Lantern")
    gm.click("text=Set up a battle")
    gm.click("text=Draw a map")
    expect(gm.locator("[data-map-editor]")).to_be_visible()
    # The page speaks of the drawn editor now, no longer of numbers and their Save button.
    shown = {"use_inner_text": True}  # the words on screen, not those hidden beside them
    expect(gm.locator(".lede:visible")).to_have_text(re.compile(r"^Set the table's size, lay"))
    expect(gm.locator("#map-h")).to_have_text("Save the map", **shown)
    expect(gm.locator("#map-form button[type=submit]")).to_have_text("Save the map", **shown)
    # An empty table: the engine says what it lacks, at the sides.
    expect(problems(gm)).to_contain_text("before the map can be used")
    expect(problems(gm)).to_contain_text(
        "Objectives: give at least one side an objective: without one, neither side has a "
        "reason to move"
    )
    expect(problems(gm)).not_to_contain_text("objectives:")

    # Woods from the palette, dragged to the left; one corner dragged off the table is
    # refused with the reason at that corner, and Undo puts it back.
    gm.click("[data-add-terrain=woods]")
    editor_drag(gm, (12, 12), (6, 16))
    expect(gm.locator("[data-panel] h3")).to_have_text("woods-1 (woods)")
    editor_drag(gm, (8, 18), (8, 26))  # the top-right corner, up past the far edge
    expect(problems(gm)).to_contain_text(
        "woods-1 (woods), corner 3: (8, 26) is off the 24″ × 24″ table"
    )
    expect(gm.locator(".problem-pin")).not_to_have_count(0)
    expect(gm.locator("svg.editor-map polygon.terrain-woods.has-problem")).to_have_count(1)
    shoot_both(gm, "03-editor-refused")
    gm.click("[data-undo]")
    expect(problems(gm)).not_to_contain_text("off the 24″ × 24″ table")
    # A map pasted into the JSON field that cannot be drawn: the editor keeps the map it drew
    # and says why (the next edit in the editor writes the field again).
    gm.evaluate("""() => { const f = document.querySelector('#map-form textarea[name=scenario]');
        f.value = '{"table": {"width": -5}}'; f.dispatchEvent(new Event('change')); }""")
    expect(gm.locator("[data-editor-status]")).to_contain_text(
        "cannot be drawn (its table needs a width and a height above 0)"
    )
    expect(gm.locator("svg.editor-map polygon.terrain-woods")).to_have_count(1)

    # A river across the table, a house from the library moved with the keyboard.
    gm.click("[data-add-terrain=river]")
    house = gm.locator("[data-building-choice] option", has_text="House (")
    gm.select_option("[data-building-choice]", house.get_attribute("value"))
    gm.click("[data-add-building]")
    gm.locator(EDITOR).focus()
    for _ in range(12):
        gm.keyboard.press("ArrowRight")
    for _ in range(10):
        gm.keyboard.press("ArrowUp")
    expect(gm.locator("[data-panel] .corners li").first.locator("input").first).to_have_value(
        "16.5"
    )

    # Two objectives, the second held by the other side.
    gm.click("[data-add-objective]")
    editor_drag(gm, (12, 12), (6, 6))
    gm.click("[data-add-objective]")
    editor_drag(gm, (12, 12), (18, 20))
    gm.select_option("[data-panel] select", "defenders")

    # A deployment zone for each side along its own edge, and spots inside them; a spot
    # dragged into the woods, or out of its zone, is refused at the spot.
    gm.click("[data-add-zone='0']")
    expect(gm.locator("[data-panel] h3")).to_have_text("deployment zone of Attackers")
    gm.click("[data-add-zone='1']")
    expect(gm.locator("svg.editor-map polygon.deploy-zone")).to_have_count(2)
    for side in (0, 0, 1, 1):
        gm.click(f"[data-add-spot='{side}']")
    editor_drag(gm, (2, 22), (6, 16))  # the second side's first spot, into the woods
    expect(problems(gm)).to_contain_text(
        "spot 1 of Defenders: deployed inside impassable woods 'woods-1'"
    )
    expect(problems(gm)).to_contain_text("spot 1 of Defenders: outside the deployment zone")
    gm.click("[data-undo]")
    expect(problems(gm)).to_contain_text("The engine accepts this map.")
    shoot_both(gm, "04-editor-drawn")

    gm.fill("#map-form input[name=name]", "Mill Ford")
    gm.click("#map-form button[type=submit]")
    gm.wait_for_url(re.compile(r"/battles/new/\?scenario=map-\d+$"))
    expect(gm.locator("text=Map Mill Ford saved.")).to_be_visible()
    expect(gm.locator("[data-deploy-map] .deploy-unit:not(.unplaced)")).to_have_count(4)
    expect(gm.locator("[data-deploy-map] .spot")).to_have_count(4)
    expect(gm.locator("[data-deploy-map] polygon.deploy-zone")).to_have_count(2)
    drag(gm, "Brave Cow", (4.3, 2.4))
    expect(gm.locator(".deploy-status")).to_have_text("Brave Cow at 4, 2.")  # onto the spot
    drag(gm, "1st Squad", (12.2, 4.9))  # into the zone, clear of any spot: the half-inch grid
    expect(gm.locator(".deploy-status")).to_have_text("1st Squad at 12, 5.")
    assert typed(gm, "1st Squad") == (12, 5)
    ghost_at = typed(gm, "Ghost Squad")
    drag(gm, "Ghost Squad", (12, 9))  # out of the defenders' zone
    expect(gm.locator(".deploy-status")).to_contain_text(
        "Not there: Ghost Squad at (12, 9) is outside the deployment zone of Night Battalion "
        "(only an Airborne unit deploys outside it, by paradrop). Ghost Squad is back"
    )
    assert typed(gm, "Ghost Squad") == ghost_at
    shoot_both(gm, "07-setup-zones")
    gm.fill("#setup-form input[name=seed]", "11")
    gm.fill("#setup-form input[name=odds_battles]", "10")
    gm.click("#setup-form button[value=odds]")
    expect(gm.locator("#setup-odds .odds-count")).to_contain_text(
        "From 10 battles of exactly this set-up", timeout=TIMEOUT_MS
    )
    assert typed(gm, "1st Squad") == (12, 5), "the set-up is kept as it was"
    gm.click("#setup-form button.primary")
    gm.wait_for_url(re.compile(r"/battles/\d+/$"))
    wait_for_report(gm)
    first, total = counter(gm)
    assert first == 1 and total > 3
    replay = gm.locator("[data-replay]")
    replay.scroll_into_view_if_needed()
    gm.click('[data-action="next-turn"]')
    expect(gm.locator("[data-title]")).to_have_text(re.compile(r"^Turn 1 · "))
    assert "-spot-" not in gm.inner_text("[data-replay]"), "captions name no engine ids"
    assert not gm.errors, gm.errors


@pytest.mark.usefixtures("lantern")
def test_without_javascript_a_gm_gives_a_map_in_numbers(page_for, live_server):
    gm = page_for("gm", javascript=False)
    gm.goto(f"{live_server.url}/campaigns/")
    gm.click("text=Operation Lantern")
    gm.click("text=Set up a battle")
    gm.click("text=Draw a map")
    expect(gm.locator("[data-map-editor]")).to_be_hidden()
    expect(gm.locator(".lede:visible")).to_have_text(re.compile(r"^Give the map as numbers"))
    expect(gm.locator("#map-h")).to_have_text("Or paste a scenario document", use_inner_text=True)
    form = gm.locator("#numbers-form")
    expect(form).to_be_visible()
    house = form.locator("select[name=building_0_card] option", has_text="House")
    fields = {
        "name": "Ford by numbers",
        "side_0_zone": "0,0 24,0 24,6 0,6", "side_0_spots": "4,2 8,2",
        "side_1_zone": "0,18 24,18 24,24 0,24", "side_1_spots": "4,22 8,9",
        "terrain_0_corners": "2,8 6,8 6,12 2,12",
        "terrain_1_corners": "0,14 24,14 24,16 0,16",
        "building_0_corners": "14,8 17,8 17,11 14,11",
        "objective_0_x": "12", "objective_0_y": "15",
    }  # fmt: skip
    for name, value in fields.items():
        form.locator(f"[name={name}]").fill(value)
    form.locator("select[name=terrain_0_kind]").select_option("woods")
    form.locator("select[name=terrain_1_kind]").select_option("river")
    form.locator("select[name=building_0_card]").select_option(house.get_attribute("value"))
    form.locator("button.primary").click()
    # The second defenders' spot is outside their zone: said at that side's spots.
    side = gm.locator("#map-side-1")
    expect(side.locator(".field-errors")).to_have_text(
        "Spot 2: outside the deployment zone of Defenders."
    )
    expect(gm.locator("#map-side-0 .field-errors")).to_have_count(0)
    shoot_both(gm, "08-numbers-refused", section="#map-side-1")
    assert gm.errors == [
        "Failed to load resource: the server responded with a status of 400 (Bad Request)"
    ], "the refusal is a 400 page, and nothing else went wrong"
    gm.errors.clear()
    gm.locator("#numbers-form [name=side_1_spots]").fill("4,22 8,22")
    gm.locator("#numbers-form button.primary").click()
    gm.wait_for_url(re.compile(r"/battles/new/\?scenario=map-\d+$"))
    expect(gm.locator("text=Map Ford by numbers saved.")).to_be_visible()
    expect(gm.locator("[data-deploy-map] polygon.deploy-zone")).to_have_count(2)
    assert not gm.errors, gm.errors


def touch_drag(page, start: tuple[float, float], to: tuple[float, float], steps: int = 8) -> None:
    """A finger pressed at ``start``, moved to ``to`` and lifted, as a touch screen sends it (the
    browser, not the page, decides whether the finger scrolls the page)."""
    cdp = page.context.new_cdp_session(page)

    def send(kind: str, x: float, y: float | None = None) -> None:
        points = [] if y is None else [{"x": x, "y": y}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    send("touchStart", *start)
    for step in range(1, steps + 1):
        send(
            "touchMove",
            start[0] + (to[0] - start[0]) * step / steps,
            start[1] + (to[1] - start[1]) * step / steps,
        )
    send("touchEnd", 0)
    cdp.detach()


def test_a_finger_drag_from_beside_a_small_unit_on_the_set_up_map_moves_it_not_the_page(
    lantern, page_for, live_server
):
    """On a touch screen a finger pressed within 12 px of a small unit's centre, off its mark,
    picks the unit as a mouse does there: dragging moves the unit, and the page stays still
    under it rather than scrolling. Pressed away from the units, the finger scrolls the page."""
    gm = page_for("gm", touch=True)
    gm.set_viewport_size({"width": 360, "height": 780})
    gm.goto(f"{live_server.url}/campaigns/{lantern.pk}/battles/new/?scenario=crossroads")
    mark = gm.locator(".deploy-unit[aria-label^='1st Squad (']")
    mark.scroll_into_view_if_needed()
    box = mark.locator("circle").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    assert not gm.evaluate(ON_A_MARK, [x + 9, y])
    start = typed(gm, "1st Squad")
    to = screen_point(gm, start[0] + 2, start[1] + 2)
    scrolled = gm.evaluate("window.scrollY")

    touch_drag(gm, (x + 9, y), (to[0] + 9, to[1]))
    expect(gm.locator(".deploy-status")).to_have_text(
        f"1st Squad at {start[0] + 2:g}, {start[1] + 2:g}."
    )
    assert typed(gm, "1st Squad") == (start[0] + 2, start[1] + 2)
    assert gm.evaluate("window.scrollY") == scrolled, "the page did not scroll"

    # Pressed on the map away from every unit, the finger scrolls the page as anywhere else.
    empty = screen_point(gm, 0.5, 12)
    assert not gm.evaluate(ON_A_MARK, list(empty))
    touch_drag(gm, empty, (empty[0], empty[1] - 150))
    gm.wait_for_function(f"window.scrollY > {scrolled}")
    assert typed(gm, "1st Squad") == (start[0] + 2, start[1] + 2)
    assert not gm.errors, gm.errors


def test_the_set_ups_check_says_a_whole_set_up_problem_in_the_error_summary_politely(
    lantern, page_for, live_server
):
    """A side left with no unit is said as the GM leaves it so, in the form's error summary,
    as a polite status that takes no focus, and goes once a unit stands there again."""
    gm = page_for("gm")
    gm.goto(f"{live_server.url}/campaigns/{lantern.pk}/battles/new/?scenario=crossroads")
    summary = gm.locator("#setup-form [data-deploy-general]")
    expect(summary).to_be_hidden()
    ghost = row(gm, "Ghost Squad").locator("select[name^=side_]")
    side = ghost.input_value()
    row(gm, "Iron Wolf").locator("select[name^=side_]").select_option("")
    ghost.focus()
    ghost.select_option("")
    said = "No unit is on Night Battalion's side: put at least one there."
    expect(summary).to_have_text(said)
    expect(summary).to_have_attribute("role", "status")
    assert summary.evaluate("(region) => region.classList.contains('form-errors')")
    # The GM stays where they were: on the side they just chose.
    assert gm.evaluate("document.activeElement.name") == ghost.get_attribute("name")
    ghost.select_option(side)
    expect(summary).to_be_hidden()
    assert not gm.errors, gm.errors


def test_a_refused_launchs_problem_is_said_once_when_the_check_finds_it_still(
    lantern, page_for, live_server
):
    """Launch refused for a side left empty: its error summary says why. The check, asked as the
    GM moves on, finds the same and does not say it again in its status; a problem the
    summary does not say, it does."""
    gm = page_for("gm")
    gm.goto(f"{live_server.url}/campaigns/{lantern.pk}/battles/new/?scenario=crossroads")
    for name in ("Ghost Squad", "Iron Wolf"):
        row(gm, name).locator("select[name^=side_]").select_option("")
    said = "No unit is on Night Battalion's side: put at least one there."
    status = gm.locator("#setup-form [data-deploy-general]")
    expect(status).to_have_text(said)
    gm.click("text=Launch the battle")
    summary = gm.locator("#setup-form .form-errors[role=alert]")
    expect(summary).to_have_text(said)
    bound(gm)
    status = gm.locator("#setup-form [data-deploy-general]")
    x = row(gm, "1st Squad").locator("input[name^=x_]")
    x.fill(str(typed(gm, "1st Squad")[0]))
    x.dispatch_event("change")
    expect(row(gm, "1st Squad").locator("[data-deploy-problem]")).to_be_hidden()
    expect(gm.locator(".deploy-status")).to_contain_text("1st Squad at")
    expect(status).to_be_hidden()
    assert gm.locator("#setup-form").inner_text().count(said) == 1
    # Brave Cow off too: a side left empty the summary does not say, said in the status alone.
    row(gm, "Brave Cow").locator("select[name^=side_]").select_option("")
    row(gm, "1st Squad").locator("select[name^=side_]").select_option("")
    gone = "No unit is on Lantern Company's side: put at least one there."
    expect(status).to_have_text(gone)
    assert gm.locator("#setup-form").inner_text().count(said) == 1
    assert not gm.errors, gm.errors


def test_a_refused_launchs_problem_put_right_leaves_the_summary_as_the_check_finds_it(
    lantern, page_for, live_server
):
    """Launch refused for a side left empty: its error summary says why. The GM puts a unit
    back on that side: the check finds all well, and the summary's line goes with it, not left
    on screen to say what is no longer so. Emptied again, the line is back, said once."""
    gm = page_for("gm")
    gm.goto(f"{live_server.url}/campaigns/{lantern.pk}/battles/new/?scenario=crossroads")
    ghost = row(gm, "Ghost Squad").locator("select[name^=side_]")
    side = ghost.input_value()
    for name in ("Ghost Squad", "Iron Wolf"):
        row(gm, name).locator("select[name^=side_]").select_option("")
    said = "No unit is on Night Battalion's side: put at least one there."
    status = gm.locator("#setup-form [data-deploy-general]")
    expect(status).to_have_text(said)
    gm.click("text=Launch the battle")
    summary = gm.locator("#setup-form .form-errors[role=alert]")
    expect(summary).to_have_text(said)
    bound(gm)
    ghost = row(gm, "Ghost Squad").locator("select[name^=side_]")
    ghost.select_option(side)
    expect(gm.locator(".deploy-status")).to_contain_text("Ghost Squad at")
    expect(summary).to_be_hidden()
    expect(status).to_be_hidden()
    assert said not in gm.locator("#setup-form").inner_text()
    ghost.select_option("")
    expect(summary).to_have_text(said)
    expect(summary).to_be_visible()
    expect(status).to_be_hidden()
    assert gm.locator("#setup-form").inner_text().count(said) == 1
    assert not gm.errors, gm.errors


def test_the_lines_under_the_scenarios_name_follow_the_sides_as_the_gm_fills_them(
    lantern, page_for, live_server
):
    """Launch refused for a side left empty: the line under the scenario's name says no unit
    is on it. The GM puts a unit back: as the check finds all well, that line says the force
    takes the side, not left saying what is no longer so; emptied again, it says so again."""
    gm = page_for("gm")
    gm.goto(f"{live_server.url}/campaigns/{lantern.pk}/battles/new/?scenario=crossroads")
    ghost = row(gm, "Ghost Squad").locator("select[name^=side_]")
    side = ghost.input_value()
    for name in ("Ghost Squad", "Iron Wolf"):
        row(gm, name).locator("select[name^=side_]").select_option("")
    gm.click("text=Launch the battle")
    expect(gm.locator("#setup-form .form-errors[role=alert]")).to_contain_text("No unit is on")
    # The refused page's script started and its first check answered, or a change goes
    # unheard; the change's own check is a round trip to the server, slow on a busy machine.
    gm.wait_for_load_state("networkidle")
    bound(gm)
    roles = gm.locator("#setup-form .side-roles")
    expect(roles).to_contain_text("No unit is on Night Battalion's side")
    row(gm, "Ghost Squad").locator("select[name^=side_]").select_option(side)
    expect(gm.locator(".deploy-status")).to_contain_text("Ghost Squad at", timeout=TIMEOUT_MS)
    expect(roles).to_contain_text("Night Battalion takes the")
    expect(roles).not_to_contain_text("No unit is on")
    row(gm, "Ghost Squad").locator("select[name^=side_]").select_option("")
    expect(roles).to_contain_text("No unit is on Night Battalion's side")
    assert not gm.errors, gm.errors


def test_the_set_ups_check_says_a_turn_limit_or_seed_out_of_range_as_launch_would(
    lantern, page_for, live_server
):
    """The turn limit and the seed are checked as the GM changes them, before Launch, each
    refusal in the form's own words under the field's label; put right, it goes."""
    fields = BattleSetupForm.base_fields
    gm = page_for("gm")
    gm.goto(f"{live_server.url}/campaigns/{lantern.pk}/battles/new/?scenario=crossroads")
    status = gm.locator("#setup-form [data-deploy-general]")
    for name, label, bad, good in (
        ("turn_limit", "Turn limit", str(TURN_LIMIT_MAX + 1), "6"),
        ("seed", "Seed", "-1", "7"),
    ):
        with pytest.raises(ValidationError) as refused:
            fields[name].clean(bad)
        box = gm.locator(f"#setup-form input[name={name}]")
        box.fill(bad)
        box.dispatch_event("change")
        expect(status).to_have_text(f"{label}: {refused.value.messages[0]}")
        box.fill(good)
        box.dispatch_event("change")
        expect(status).to_be_hidden()
    assert not gm.errors, gm.errors


NATURAL_WIDTHS = """() => Array.from(
    document.querySelectorAll('#setup-form tr[data-deploy-row] select')
).map(select => {
        // The same choice beside it, out of the flow at its own width: what it needs to show
        // its longest option in the page's font.
        const alone = select.cloneNode(true);
        alone.removeAttribute('name');
        alone.removeAttribute('id');
        alone.style.cssText = 'position: absolute; width: auto; min-width: 0; max-width: none';
        select.after(alone);
        const needs = alone.getBoundingClientRect().width;
        alone.remove();
        return [select.name, Math.round(select.getBoundingClientRect().width), Math.round(needs)];
    })"""
"""Each set-up choice's width on the page beside the width it needs on its own."""


@pytest.fixture
def long_lines(lantern) -> Campaign:
    """Lantern with a leader's line under every unit, made before Playwright starts."""
    from campaign.models import Unit
    from campaign.services import leader_attach

    for unit in Unit.objects.filter(force__campaign=lantern):
        leader_attach(unit=unit, name=f"Maj. {unit.name} Brandt-Holloway", hit_points=22,
                      reason="in command")  # fmt: skip
    return lantern


def test_the_set_ups_choices_show_a_forces_whole_name_on_a_desktop(
    long_lines, page_for, live_server
):
    """Beside the map on a desktop, a unit's side shows its force's whole name ("Night
    Battalion", not "Night Battalior"), its Order whole too, however long the units' lines."""
    gm = page_for("gm")
    gm.goto(f"{live_server.url}/campaigns/{long_lines.pk}/battles/new/?scenario=crossroads")
    table = gm.locator("#setup-form table.deploy")
    box = gm.locator("#setup-form table.deploy >> xpath=..")
    for width in (1280, 1000):  # the map beside the table, then under it
        gm.set_viewport_size({"width": width, "height": 900})
        widths = gm.evaluate(NATURAL_WIDTHS)
        assert widths and all(shown >= needs for _, shown, needs in widths), (width, widths)
        # Nor does the table scroll within its box.
        assert table.bounding_box()["width"] <= box.bounding_box()["width"] + 1, width
    assert not gm.errors, gm.errors


LIVE_WITH = """(words) => [...document.querySelectorAll(
  '[role=alert], [role=status], [role=log], [aria-live]:not([aria-live=off])')]
  .filter(e => e.checkVisibility() && e.textContent.includes(words))
  .map(e => `${e.getAttribute('role') || ''} ${e.getAttribute('aria-live') || ''}`.trim())"""
"""How each live region a screen reader would read ``words`` from is marked (role, aria-live)."""


def test_a_keyboard_move_refused_on_the_set_up_map_is_said_once_politely_and_kept_with_its_unit(
    lantern, page_for, live_server
):
    """The arrow keys take a tank into the farmhouse, which does not admit it: the move is undone
    and said once, in the map's polite status line. The reason beside the unit's name in the
    table, shown with it, is no live region of its own (an alert, it was said a second time,
    cutting in): it describes the unit's mark, read when the keyboard comes back to it, and goes
    with the next move the check allows."""
    gm = page_for("gm")
    gm.goto(f"{live_server.url}/campaigns/{lantern.pk}/battles/new/?scenario=crossroads")
    gm.wait_for_load_state("load")
    cow = row(gm, "Brave Cow")
    cow.locator("input[name^=x_]").fill("13.5")
    cow.locator("input[name^=y_]").fill("16.5")
    cow.locator("input[name^=y_]").press("Tab")
    status = gm.locator(".deploy-status")
    expect(status).to_have_text("Brave Cow at 13.5, 16.5.")
    mark = gm.locator(".deploy-unit[aria-label^='Brave Cow (']")
    mark.focus()
    refused = "cannot stand in the Farmhouse"
    for _ in range(6):  # half an inch a press, to the farmhouse's wall at 15
        said = status.inner_text()
        gm.keyboard.press("ArrowRight")
        expect(status).not_to_have_text(said)
        if refused in status.inner_text():
            break
    expect(status).to_contain_text(f"Not there: Brave Cow {refused}")
    expect(status).to_contain_text("Brave Cow is back where it was.")
    assert gm.evaluate(LIVE_WITH, refused) == ["status polite"]
    expect(cow.locator("[data-deploy-problem]")).to_contain_text(refused)
    expect(mark).to_be_focused()
    expect(mark).to_have_accessible_description(re.compile(refused))

    gm.keyboard.press("ArrowLeft")
    expect(status).to_have_text(re.compile(r"^Brave Cow at 1[45](\.5)?, 16\.5\.$"))
    expect(cow.locator("[data-deploy-problem]")).to_be_hidden()
    expect(mark).to_have_accessible_description("")
    assert not gm.errors, gm.errors


def test_enter_or_space_on_a_unit_of_the_set_up_map_takes_the_keyboard_to_its_row(
    lantern, page_for, live_server
):
    """A mark on the set-up map is announced as a button, and pressing it does what its name
    says: Enter or Space takes the keyboard to the unit's x box in the table, where its
    position is typed over."""
    gm = page_for("gm")
    gm.goto(f"{live_server.url}/campaigns/{lantern.pk}/battles/new/?scenario=crossroads")
    gm.wait_for_load_state("load")
    mark = gm.get_by_role("button", name=re.compile(r"^Brave Cow \("))
    expect(mark).to_have_accessible_name(re.compile(r"Enter or Space types its position"))
    cow = row(gm, "Brave Cow")
    mark.focus()
    gm.keyboard.press("Enter")
    expect(cow.locator("input[name^=x_]")).to_be_focused()
    mark.focus()
    gm.keyboard.press("Space")
    x = cow.locator("input[name^=x_]")
    expect(x).to_be_focused()
    gm.keyboard.type("13.5")  # over the position, selected
    gm.keyboard.press("Tab")
    expect(gm.locator(".deploy-status")).to_have_text(re.compile(r"^Brave Cow at 13\.5, "))
    assert not gm.errors, gm.errors


def test_arrowing_through_the_scenarios_does_not_redraw_the_set_up_and_enter_does(
    lantern, page_for, live_server
):
    """The closed scenario list changes at each arrow key: the set-up was fetched and redrawn at
    each press, the GM's typing lost and nothing said. Arrowed through, it is not redrawn; the
    status beside the list says what Enter or Choose would show, and, pressed, that it shows it.
    Picked with the pointer, the scenario is shown at once, as before; put back by the
    browser's Back, the list names the scenario the set-up shows, and still waits for Enter."""
    gm = page_for("gm")
    gm.goto(f"{live_server.url}/campaigns/{lantern.pk}/battles/new/?scenario=crossroads")
    gm.wait_for_load_state("load")
    fetched = []
    gm.on("request", lambda r: fetched.append(r.url) if "scenario=" in r.url else None)
    pick = gm.locator("#id_scenario_pick")
    shown = gm.locator("#setup-form h2")
    expect(shown).to_have_text(pick.locator("option:checked").inner_text())
    said = gm.locator("form[data-scenario-pick] [role=status]")
    start = pick.input_value()
    pick.focus()
    gm.keyboard.press("ArrowDown")
    gm.keyboard.press("ArrowDown")
    expect(pick).not_to_have_value(start)
    chosen = pick.locator("option:checked").inner_text()
    expect(said).to_have_text(f"Enter or Choose shows {chosen}.")
    gm.wait_for_timeout(300)
    assert fetched == []
    expect(gm.locator("#setup-form input[name=scenario]")).to_have_value(start)

    gm.keyboard.press("Enter")
    expect(shown).to_have_text(chosen)
    expect(said).to_have_text(f"The set-up shows {chosen}.")
    expect(pick).to_be_focused()
    assert len(fetched) == 1, fetched

    select_when_ready(gm, "#id_scenario_pick", start)
    expect(gm.locator("#setup-form input[name=scenario]")).to_have_value(start)
    assert len(fetched) == 2, fetched

    # Put back by the browser's Back, the list still waits for Enter.
    gm.go_back()
    expect(gm.locator("#setup-form input[name=scenario]")).to_have_value(pick.input_value())
    here = pick.input_value()
    pick.focus()
    gm.keyboard.press("ArrowUp")
    expect(pick).not_to_have_value(here)
    expect(said).to_have_text(re.compile(r"^Enter or Choose shows "))
    gm.keyboard.press("Enter")
    expect(gm.locator("#setup-form input[name=scenario]")).to_have_value(pick.input_value())
    expect(said).to_have_text(re.compile(r"^The set-up shows "))
    assert not gm.errors, gm.errors
