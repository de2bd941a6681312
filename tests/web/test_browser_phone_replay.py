"""A battle's replay and map read on a phone, in a browser: the map's words and a building's name
legible at 320 px, the units' markers and numbers big enough to see, and a tapped unit named in
words beside the replay — a tap beside a small unit's circle naming it, a tap between two close
units naming the nearer."""

from __future__ import annotations

import pytest

from tests.web.browser import expect, shoot
from tests.web.browser_world import at_size

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


LABEL_HEIGHTS = """() => {
  const h = sel => [...document.querySelectorAll(sel)]
    .filter(e => getComputedStyle(e).display !== 'none')
    .map(e => e.getBoundingClientRect().height);
  return {terrain: h('.replay .terrain-label'), objectives: h('.replay .objective-label'),
          units: h('.replay .unit-label')};
}"""


def test_the_maps_words_are_legible_on_a_phone(
    browser_world,
    page_for,
    live_server,
):
    """Names on the map are drawn at least 9 px high on a phone; of the units, only the one
    acting now is named (the caption names it too), so the names do not pile up."""
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    page = at_size(page_for("gm"), "phone")
    page.goto(f"{c}/battles/{browser_world.engine_battle.pk}/")
    page.click("button[data-action=forward]")
    page.wait_for_timeout(200)
    heights = page.evaluate(LABEL_HEIGHTS)
    assert heights["terrain"] and min(heights["terrain"]) >= 9, heights
    assert heights["objectives"] and min(heights["objectives"]) >= 9, heights
    assert len(heights["units"]) == 1 and heights["units"][0] >= 9, heights
    shoot(page, "replay-labels-phone")
    assert not page.errors, page.errors


def test_a_buildings_name_is_read_whole_on_the_replay_at_320_px(
    browser_world, page_for, live_server
):
    """At 320 px "Farmhouse" sat on the building's top edge, white on the pale ground round it
    ("armhouse"): now it is written above the building, in the map's dark ink, on the map."""
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    page = page_for("gm")
    page.set_viewport_size({"width": 320, "height": 800})
    page.goto(f"{c}/battles/{browser_world.engine_battle.pk}/")
    name = page.locator(".replay text.terrain-label", has_text="Farmhouse")
    roof = page.locator('.replay polygon[data-building="farmhouse"]').bounding_box()
    sheet = page.locator(".replay svg.table-map rect.cloth").bounding_box()
    box = name.bounding_box()
    assert "building-label" not in name.get_attribute("class")
    assert box["y"] + box["height"] <= roof["y"], (box, roof)  # wholly above the roof
    assert box["y"] >= sheet["y"], (box, sheet)  # and on the table
    assert (
        page.evaluate("e => getComputedStyle(e).fill", name.element_handle())
        != "rgb(255, 255, 255)"
    )
    name.scroll_into_view_if_needed()
    shoot(page, "replay-building-name-320")
    assert not page.errors, page.errors


UNIT_IDS = """() => Object.fromEntries(Object.entries(
  JSON.parse(document.getElementById("replay-frames").textContent).units
).map(([id, info]) => [info.name, id]))"""
"""The replay's units' ids, by their names."""


def test_a_tapped_unit_is_named_in_words_beside_the_replay_on_a_phone(
    browser_world,
    page_for,
    live_server,
):
    """The number in a circle is the unit's Size, and a phone has no hover: tapping a unit's
    circle writes its name, side and state (its hover tooltip's words) under the controls, kept
    up to date as the replay steps; Enter or Space on a focused circle does the same, and
    choosing the named unit again lets it go."""
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    page = at_size(page_for("gm", touch=True), "phone")
    page.goto(f"{c}/battles/{browser_world.engine_battle.pk}/")
    selected = page.locator("[data-replay] [data-selected]")
    expect(selected).to_have_text("Tap or click a unit's circle to name it.")
    ids = page.evaluate(UNIT_IDS)
    squad = page.locator(f'[data-replay] [data-unit="{ids[browser_world.unit.name]}"]')
    wolf = page.locator(f'[data-replay] [data-unit="{ids[browser_world.enemy_unit.name]}"]')

    squad.locator("circle").tap()
    said = f"Selected: {browser_world.unit.name}, {browser_world.force.name}, Size "
    expect(selected).to_contain_text(said)
    expect(selected).to_have_text("Selected: " + squad.locator("title").text_content())
    expect(squad.locator(".unit-label")).to_be_visible()  # named on the map too
    shoot(page, "replay-selected-phone")

    # Stepping on keeps it named, in the words of the frame shown.
    page.click("button[data-action=last]")
    expect(selected).to_contain_text(said)
    expect(selected).to_have_text("Selected: " + squad.locator("title").text_content())

    # By keyboard: Space on a focused circle names it, and does not play the replay.
    wolf.focus()
    page.keyboard.press("Space")
    expect(selected).to_contain_text(
        f"Selected: {browser_world.enemy_unit.name}, {browser_world.enemy.name}, Size "
    )
    expect(page.locator("button[data-action=play]")).to_have_text("▶ Play")  # not playing
    page.keyboard.press("Enter")
    expect(selected).to_have_text("Tap or click a unit's circle to name it.")
    assert not page.errors, page.errors


NARROW_PHONE = {"width": 360, "height": 780}
"""The narrowest phone a battle's replay is tapped on."""

CENTRES = """() => Object.fromEntries([...document.querySelectorAll('[data-replay] [data-unit]')]
  .map(g => { const b = g.querySelector('circle').getBoundingClientRect();
              return [g.dataset.unit, [b.x + b.width / 2, b.y + b.height / 2, b.width / 2]]; }))"""
"""Each unit's circle as drawn, by its id: its centre and radius in CSS px of the window."""

ON_A_UNIT = """([x, y]) => !!document.elementFromPoint(x, y).closest('[data-unit]')"""
"""Whether a point of the window is on a unit's drawing (its circle, number or name)."""


def _replay_at_360(browser_world, page_for, live_server):
    """The engine battle's replay on a 360 px touch screen, the map in view; gives the page,
    the line naming the selected unit and the units' ids by name."""
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    page = page_for("gm", touch=True)
    page.set_viewport_size(NARROW_PHONE)
    page.goto(f"{c}/battles/{browser_world.engine_battle.pk}/")
    page.locator("[data-replay] svg.table-map").scroll_into_view_if_needed()
    return page, page.locator("[data-replay] [data-selected]"), page.evaluate(UNIT_IDS)


def test_a_tap_beside_a_small_units_circle_names_it_on_a_phone(
    browser_world,
    page_for,
    live_server,
):
    """A Size 1 unit's circle is about 13 px across at 360 px, smaller than a fingertip: a tap
    within 12 px of its centre (a 24 px target, as the site's other taps) names it, though it
    misses the circle; a tap farther off names nothing, as a tap on the empty map."""
    page, selected, ids = _replay_at_360(browser_world, page_for, live_server)
    squad = ids[browser_world.unit.name]
    x, y, r = page.evaluate(CENTRES)[squad]
    assert 4 <= r <= 7, r  # a Size 1 circle, about 13 px across (drawn larger on a phone)

    far = [x - 16, y]
    assert not page.evaluate(ON_A_UNIT, far)
    page.touchscreen.tap(*far)
    expect(selected).to_have_text("Tap or click a unit's circle to name it.")

    # 9 px from its centre, off the circle. Chromium moves a tap onto a button near it before it
    # clicks; Safari does not, nor does a pen or a mouse: a click beside it names it too.
    left, right = [x - 9, y], [x + 9, y]
    assert not page.evaluate(ON_A_UNIT, left) and not page.evaluate(ON_A_UNIT, right)
    page.mouse.click(*right)
    expect(selected).to_contain_text(f"Selected: {browser_world.unit.name}, ")
    page.touchscreen.tap(*left)  # chosen again: let go
    expect(selected).to_have_text("Tap or click a unit's circle to name it.")
    page.touchscreen.tap(*left)
    expect(selected).to_contain_text(f"Selected: {browser_world.unit.name}, ")
    expect(page.locator(f'[data-unit="{squad}"]')).to_have_attribute("aria-pressed", "true")
    shoot(page, "replay-tap-beside-360")
    assert not page.errors, page.errors


def test_a_tap_between_two_close_units_names_the_nearer_on_a_phone(
    browser_world,
    page_for,
    live_server,
):
    """Late in the battle the enemy's Size 4 unit stands a few px from a Size 1 squad's
    circle at 360 px, so a tap in the gap reaches both: the unit whose circle is nearer the tap
    is named, never the other."""
    page, selected, ids = _replay_at_360(browser_world, page_for, live_server)
    squad_name = "Squad 2"
    squad, wolf = ids[squad_name], ids[browser_world.enemy_unit.name]
    page.locator("[data-replay] [data-action=seek]").fill("7")  # the two close
    sx, sy, sr = page.evaluate(CENTRES)[squad]
    wx, wy, wr = page.evaluate(CENTRES)[wolf]
    apart = ((wx - sx) ** 2 + (wy - sy) ** 2) ** 0.5
    gap = apart - sr - wr
    assert gap > 0 and apart < 24, (apart, gap)  # both within reach of a tap between them

    def at(from_squad: float) -> list[float]:
        """The point on the line from the squad's centre to the wolf's, so far from it."""
        return [sx + (wx - sx) * from_squad / apart, sy + (wy - sy) * from_squad / apart]

    # A tap in the gap, nearer the squad, and one on the wolf's edge, which the squad's reach
    # takes in too (drawn larger on a phone, a circle as big as a fingertip is reached on it).
    nearer_squad, nearer_wolf = at(sr + gap * 0.3), at(apart - wr)
    assert not page.evaluate(ON_A_UNIT, nearer_squad)
    assert apart - wr < 12  # within the squad's reach

    page.touchscreen.tap(*nearer_squad)
    expect(selected).to_contain_text(f"Selected: {squad_name}, ")
    page.touchscreen.tap(*nearer_wolf)
    expect(selected).to_contain_text(f"Selected: {browser_world.enemy_unit.name}, ")
    expect(page.locator(f'[data-unit="{squad}"]')).to_have_attribute("aria-pressed", "false")
    shoot(page, "replay-tap-between-360")
    assert not page.errors, page.errors


REPLAY_MARKERS = """() => [...document.querySelectorAll('[data-replay] svg.table-map .unit')]
  .filter(unit => getComputedStyle(unit).display !== 'none')
  .map(unit => {
    const box = e => e.getBoundingClientRect();
    const circle = box(unit.querySelector('circle'));
    const number = box(unit.querySelector('.unit-size'));
    const label = unit.querySelector('.unit-label');
    const named = getComputedStyle(label).display !== 'none' ? box(label) : null;
    const clear = !named || named.bottom <= circle.top + 1 || named.top >= circle.bottom - 1
      || named.right <= circle.left + 1 || named.left >= circle.right - 1;
    return [unit.dataset.unit, circle.width, number.height, Boolean(named), clear];
  })"""
"""Each unit drawn on the replay's map: how wide its marker, how tall its number, whether its
name is shown, and whether that name is clear of its own marker."""


def test_the_replays_unit_markers_and_numbers_are_legible_on_a_phone(
    browser_world, page_for, live_server
):
    """On a phone the map is drawn at about 14 px to the inch: a Size 1 marker was 11 px across
    and the number in it 7 px tall. Each is drawn larger there (``--marker-scale``), and the
    acting unit's name is placed clear of its larger marker, frame after frame; at desktop
    size the markers keep their inches."""
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    page = at_size(page_for("spectator", touch=True), "phone")
    page.goto(f"{c}/battles/{browser_world.engine_battle.pk}/")
    expect(page.locator("[data-replay] [data-controls]")).to_be_visible()
    named = 0
    for _ in range(6):
        units = page.evaluate(REPLAY_MARKERS)
        assert units, units
        assert all(width >= 14 and number >= 10 for _, width, number, _, _ in units), units
        assert all(clear for *_, clear in units), units
        named += sum(1 for *_, shown, _ in units if shown)
        page.click("[data-replay] [data-action=forward]")
    assert named, "no frame named its acting unit"
    shoot(page, "replay-markers-phone")
    at_size(page, "desktop")
    page.goto(f"{c}/battles/{browser_world.engine_battle.pk}/")
    expect(page.locator("[data-replay] [data-controls]")).to_be_visible()
    scale = page.evaluate(
        "getComputedStyle(document.querySelector('[data-replay] svg.table-map'))"
        ".getPropertyValue('--marker-scale')"
    )
    assert scale.strip() == "1"
    assert not page.errors, page.errors
