"""The map replay for a reader who cannot see it well, or who uses only the keyboard or a screen
reader, in a real Chromium.

The map's words (place names, objectives, the inches along its edges) stand out at 4.5:1 from
what is drawn right behind them, in light and dark mode: a place name was faded to three
quarters over its terrain (3:1 on woods, 2:1 on a wall), a building's white name to 4.3:1 on
its roof, and in dark mode the inches were the dark page's light grey on the white map (2.4:1).

The replay's controls are reached with Tab and named for what they do: Play is "Play" (not
"black right-pointing triangle, Play") and, playing, "Pause", without being a toggle as well
("Pause, pressed"); the frame slider says which frame it is on, not a bare number; and a button
pressed to the end of the replay (Last frame) leaves the keyboard in the replay, where the keys
still step, not lost to the page. Playing, the replay says nothing to a screen reader; paused or
stepped, it says the frame and its caption once.

Fire is told apart by more than its colour, on the map and in its key: fire that did damage and
fire that hit without damage were one solid line each, red and orange, alike to a reader who
does not see red from orange, and a miss's dashes were much like a move's. Screenshots go to
test-artifacts/browser/ (``access-*``).
"""

from __future__ import annotations

import re

import pytest

from tests.web.browser import contrast_js, expect, shoot
from tests.web.crafted import crafted_battle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MAP_WORDS = contrast_js("""
  const over = (top, under, a) => top.slice(0, 3).map((v, i) => v * a + under[i] * (1 - a));
  const opacity = (e, svg) => { let o = 1;
    for (; e && e !== svg; e = e.parentElement) o *= +getComputedStyle(e).opacity; return o; };
  const found = [];
  for (const svg of document.querySelectorAll("svg.table-map")) {
    const paper = rgba(getComputedStyle(svg).backgroundColor);
    const words = svg.querySelectorAll(
      ".labels-layer text:not(.covered), .objective-label:not(.covered), .ticks text");
    for (const text of words) {
      if (!text.checkVisibility()) continue;
      text.scrollIntoView({block: "center", inline: "center"});  // elementsFromPoint: on screen
      const box = text.getBoundingClientRect();
      // What is drawn under the word's middle, the lowest first, laid over the map's paper.
      const shapes = document.elementsFromPoint(box.x + box.width / 2, box.y + box.height / 2)
        .filter(e => svg.contains(e) && e.matches("polygon, rect, circle, path"))
        .reverse();
      let behind = paper.slice(0, 3);
      for (const shape of shapes) {
        const s = getComputedStyle(shape), fill = rgba(s.fill);
        if (fill) behind = over(fill, behind, fill[3] * +s.fillOpacity * opacity(shape, svg));
      }
      // The word's own halo, drawn under its letters (paint-order: stroke), if it has one.
      const s = getComputedStyle(text);
      const halo = rgba(s.stroke);
      const haloed = halo && parseFloat(s.strokeWidth) > 0 && s.paintOrder.startsWith("stroke");
      const ground = haloed ? over(halo, behind, halo[3] * +s.strokeOpacity) : behind;
      const fill = rgba(s.fill);
      const letters = over(fill, ground, fill[3] * +s.fillOpacity);
      const o = opacity(text, svg);
      found.push([text.textContent.trim(), text.getAttribute("class") || "tick",
                  ratio(over(letters, behind, o), over(ground, behind, o))]);
    }
  }
  return found;
""")
"""Each word drawn on the maps: (its words, its class, its contrast with what is right behind
its letters: its halo where it has one, else the terrain, building or paper under it)."""


@pytest.fixture
def farm_battle(cast, django_user_model):
    """A one-off battle with a wood and a farmhouse, made before Playwright starts (see ``cast``
    in tests/web/browser.py for why)."""
    return crafted_battle(django_user_model.objects.get(username="commander"))


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_maps_words_stand_out_from_what_they_are_drawn_on(
    browser_world, farm_battle, page_for, live_server, scheme
):
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    faint, kinds = [], set()
    for user, path, name in [
        ("player", f"{c}/battles/{browser_world.engine_battle.pk}/", "campaign"),
        ("commander", f"{live_server.url}/battles/{farm_battle.pk}/", "farm"),
    ]:
        page = page_for(user)
        page.emulate_media(color_scheme=scheme)
        page.goto(path)
        expect(page.locator("[data-replay] [data-controls]")).to_be_visible()
        words = page.evaluate(MAP_WORDS)
        kinds |= {kind for _, kind, _ in words}
        faint += [(name, said, kind, round(r, 2)) for said, kind, r in words if r < 4.5]
        shoot(page, f"access-map-words-{name}-{scheme}", locator=page.locator("svg.table-map"))
        assert not page.errors, page.errors
    # A place's name, a building's, and the inches at least.
    assert {"terrain-label", "terrain-label building-label", "tick"} <= kinds, kinds
    assert not faint, faint


CONTROLS = ["first", "back", "play", "forward", "last", "seek", "prev-turn", "turn", "next-turn"]


def test_the_replays_controls_are_reached_by_tab_and_named_for_what_they_do(
    browser_world, page_for, live_server
):
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    page = page_for("spectator")
    page.goto(f"{c}/battles/{browser_world.engine_battle.pk}/")
    replay = page.locator("[data-replay]")
    expect(replay.locator("[data-controls]")).to_be_visible()

    # From the replay, Tab goes through its units' circles to every one of its controls.
    replay.focus()
    reached = []
    for _ in range(60):
        page.keyboard.press("Tab")
        action = page.evaluate("document.activeElement.dataset.action || ''")
        if action == "speed":
            break
        if action:
            reached.append(action)
    # The first two wait at the first frame, disabled: Tab passes them by, as it should.
    assert reached == [a for a in CONTROLS if a not in ("first", "back", "prev-turn")], reached

    # Named as a screen reader says them.
    controls = replay.locator("[data-controls]").aria_snapshot()
    for said in (
        'button "First frame"',
        'button "Step back"',
        'button "Play"',
        'button "Step forward"',
        'button "Last frame"',
        'slider "Frame"',
    ):
        assert said in controls, controls
    play = page.locator("button[data-action=play]")
    expect(play).not_to_have_attribute("aria-pressed", re.compile(".*"))
    seek = page.locator("input[data-action=seek]")
    total = int(seek.get_attribute("max")) + 1
    expect(seek).to_have_attribute("aria-valuetext", f"1 of {total}: Deployment")

    # Playing, the button is named for what it does now; paused, again.
    play.focus()
    page.keyboard.press("Space")
    expect(page.get_by_role("button", name="Pause", exact=True)).to_be_focused()
    page.keyboard.press("Space")
    expect(page.get_by_role("button", name="Play", exact=True)).to_be_focused()
    expect(seek).to_have_attribute("aria-valuetext", re.compile(rf"^\d+ of {total}: \S"))

    # Last frame, pressed with the keyboard, is disabled at the last frame: the keyboard stays
    # in the replay, and Home takes it back to the start.
    page.locator("button[data-action=last]").focus()
    page.keyboard.press("Enter")
    expect(seek).to_have_attribute("aria-valuetext", re.compile(rf"^{total} of {total}: "))
    expect(page.locator("button[data-action=last]")).to_be_disabled()
    expect(replay).to_be_focused()
    shoot(page, "access-replay-end", locator=replay)
    page.keyboard.press("Home")
    expect(seek).to_have_attribute("aria-valuetext", f"1 of {total}: Deployment")
    assert not page.errors, page.errors


LISTEN = """() => {
  window.said = [];
  const live = '[role=status], [role=alert], [role=log], [aria-live]:not([aria-live=off])';
  for (const region of document.querySelectorAll(`[data-replay] :is(${live})`)) {
    new MutationObserver(() => window.said.push(region.textContent.trim()))
      .observe(region, {childList: true, characterData: true, subtree: true});
  }
}"""
"""Keep, in ``window.said``, the words of every live region of the replay each time they change:
what a screen reader would read out."""


def test_the_replay_says_its_frame_when_the_reader_pauses_or_steps_not_at_every_frame_played(
    browser_world, page_for, live_server
):
    """The caption changes at every frame: a live region, it was read out whole at every frame
    as the replay played, a flood. Playing, the replay says nothing; paused, it says once, politely,
    the frame it stopped at and its caption, and so at each step the reader takes."""
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    page = page_for("spectator")
    page.goto(f"{c}/battles/{browser_world.engine_battle.pk}/")
    replay = page.locator("[data-replay]")
    expect(replay.locator("[data-controls]")).to_be_visible()
    page.select_option("select[data-action=speed]", "4")
    page.evaluate(LISTEN)
    play = page.locator("button[data-action=play]")
    play.focus()
    page.keyboard.press("Space")
    expect(page.locator("[data-counter]")).to_have_text(re.compile(r"^[4-9] / |^\d\d+ / "))
    assert page.evaluate("window.said") == []

    page.keyboard.press("Space")
    expect(page.get_by_role("button", name="Play", exact=True)).to_be_focused()
    here, total = (int(n) for n in page.inner_text("[data-counter]").split(" / "))
    title = page.inner_text("[data-title]").strip()
    said = page.evaluate("window.said")
    assert len(said) == 1, said
    assert said[0].startswith(f"Paused at frame {here} of {total}. {title}"), said
    status = page.get_by_role("status").filter(has_text="Paused at frame")
    expect(status).to_have_count(1)

    page.keyboard.press("ArrowRight")
    expect(page.locator("[data-counter]")).to_have_text(f"{here + 1} / {total}")
    title = page.inner_text("[data-title]").strip()
    said = page.evaluate("window.said")
    assert len(said) == 2, said
    assert said[1].startswith(f"Frame {here + 1} of {total}. {title}"), said
    assert not page.errors, page.errors


SHAPES = """() => {
  const shape = e => { if (!e || getComputedStyle(e).display === "none") return "none";
    const s = getComputedStyle(e), box = e.getBBox();
    return [e.tagName, s.strokeWidth, s.strokeDasharray, s.strokeLinecap, s.fill === "none",
            e.tagName === "circle" ? Math.round(box.width * 100) : 0].join(" "); };
  const key = {};
  for (const item of document.querySelectorAll(".replay-legend li")) {
    const line = item.querySelector("line.shot, line.move-path");
    if (line) key[item.textContent.trim()] = [shape(line), shape(item.querySelector(".shot-end"))]
      .join(" / ");
  }
  const map = {};
  const lines = document.querySelectorAll("[data-replay] .fire-layer line.shot");
  for (const line of lines) {
    const kind = [...line.classList].find(c => c.startsWith("shot-"));
    const end = document.querySelector(`[data-replay] .fire-layer circle.${kind}`);
    map[kind] = [shape(line), shape(end)].join(" / ");
  }
  return {key, map};
}"""
"""How each mark of fire and move is drawn, its colour left out (its kind of element, stroke
width, dashes, line ends, whether it is hollow, its size; then the mark round its target): in
the replay's key, by its words, and on the map as it stands, by the fire's kind."""


def test_the_replays_fire_is_told_apart_by_more_than_its_colour(farm_battle, page_for, live_server):
    page = page_for("commander")
    page.goto(f"{live_server.url}/battles/{farm_battle.pk}/")
    replay = page.locator("[data-replay]")
    expect(replay.locator("[data-controls]")).to_be_visible()

    key = page.evaluate(SHAPES)["key"]
    assert set(key) == {
        "Its move", "Fire that did damage", "Fire that hit, no damage", "Fire that missed"
    }, key  # fmt: skip
    assert len(set(key.values())) == 4, key

    # On the map, frame by frame: the blue gun's damage to the farmhouse, then the two hits
    # without damage, drawn as the key draws them, and unlike each other.
    seen: dict[str, str] = {}
    replay.focus()
    for _ in range(int(page.locator("input[data-action=seek]").get_attribute("max"))):
        page.keyboard.press("ArrowRight")
        drawn = page.evaluate(SHAPES)["map"]
        for kind in set(drawn) - set(seen):
            shoot(page, f"access-fire-{kind}", locator=page.locator("svg.table-map"))
        seen |= drawn
    assert set(seen) == {"shot-damage", "shot-no_damage"}, seen
    assert seen["shot-damage"] != seen["shot-no_damage"], seen
    assert not page.errors, page.errors
