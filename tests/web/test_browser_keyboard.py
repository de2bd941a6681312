"""With the keyboard alone, on a 390 px phone: the GM's dashboard and a player's roster. The
first Tab lands on the skip link, seen, and Enter on it takes the keyboard past the top bar to
the page's content, the next Tab to its first control. From the top, Tab goes through every
control on the page (opening each tool it closes, to go through its form too), each seen and
wearing the focus ring, and out at the end of the page back to the top, and Shift+Tab the same
way back: nothing holds the keyboard, and nothing covers the control it is on. Screenshots go
to test-artifacts/browser/ (``keys-*``)."""

from __future__ import annotations

import pytest

from tests.web.browser import expect, shoot
from tests.web.browser_world import at_size

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOCUSED = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  window.walked = window.walked || 0;
  if (!e.dataset.walked) e.dataset.walked = ++window.walked;
  const s = getComputedStyle(e);
  const box = e.getBoundingClientRect();
  const ring = e.matches(":focus-visible")
    && ((s.outlineStyle !== "none" && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== "none");
  const seen = box.width > 0 && box.height > 0 && box.bottom > 0 && box.top < innerHeight
    && box.right > 0 && box.left < innerWidth;
  const middle = document.elementFromPoint((box.left + box.right) / 2, (box.top + box.bottom) / 2);
  const covered = seen && !(middle && (e.contains(middle) || middle.contains(e)
    || (e.labels && [...e.labels].some(l => l.contains(middle)))));
  const words = (e.getAttribute("aria-label") || e.textContent || e.value || "").trim();
  return {
    key: e.dataset.walked,
    shut: e.tagName === "SUMMARY" && !e.parentElement.open,
    name: `${e.tagName.toLowerCase()}${e.id ? "#" + e.id : ""} ${words.split(/\\s+/).join(" ")
      .slice(0, 50)}`,
    ring, seen, covered,
  };
}"""
"""Where the keyboard is: the element (marked, to know it when it comes back), whether it
wears a focus ring, whether it is on the screen and whether something covers it there."""

TABBABLE = """() => [...document.querySelectorAll(
  'a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]')]
  .filter(e => e.tabIndex >= 0 && !e.disabled && e.checkVisibility({visibilityProperty: true})
    && !(e.type === "radio" && !e.checked && document.querySelector(
      `input[type=radio][name="${e.name}"]:checked`)))
  .length"""
"""How many controls the keyboard should reach (one radio button of a group that has one
chosen)."""


def _walk(page, name: str) -> list[str]:
    """Tab through the page from its top; what went wrong."""
    wrong = []
    page.keyboard.press("Tab")
    skip = page.locator("a.skip-link")
    expect(skip).to_be_focused()
    expect(skip).to_be_in_viewport()
    shoot(page, f"keys-{name}-skip-link")
    page.keyboard.press("Enter")
    expect(page.locator("main#main")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.locator("main#main :focus")).to_have_count(1)
    for key in ("Tab", "Shift+Tab"):
        page.goto(page.url.split("#")[0])
        page.keyboard.press("Tab")
        expect(skip).to_be_focused()
        wrong += _round(page, f"{name} ({key})", key)
    return wrong


def _round(page, name: str, key: str) -> list[str]:
    """From the skip link, ``key`` round the page and back to it; what went wrong."""
    wrong = []
    first = page.evaluate(FOCUSED)
    controls = page.evaluate(TABBABLE)
    reached: list[str] = []
    presses = 4 * controls + 20  # the tools opened on the way add their forms' controls
    for step in range(presses):
        page.keyboard.press(key)
        at = page.evaluate(FOCUSED)
        if at is None:  # past the page's end, in the browser's own bar
            continue
        if at["key"] == first["key"]:
            break
        if at["key"] in reached:
            wrong.append(f"{name}: {at['name']} reached again at step {step}: held")
            break
        reached.append(at["key"])
        if at["shut"] and key == "Tab":  # its tool opened, to walk its form too
            page.keyboard.press("Enter")
            at = page.evaluate(FOCUSED)
        if not at["ring"]:
            wrong.append(f"{name}: {at['name']} wears no focus ring")
        if not at["seen"]:
            wrong.append(f"{name}: {at['name']} is off the screen")
            shoot(page, f"keys-{name}-{key}-{step}")
        elif at["covered"]:
            wrong.append(f"{name}: {at['name']} is under something else")
            shoot(page, f"keys-{name}-{key}-{step}")
    else:
        wrong.append(f"{name}: never back at the top after {presses} presses")
    controls = page.evaluate(TABBABLE)
    if len(reached) < controls - 1:  # the skip link, reached first, is one of them
        wrong.append(f"{name}: {len(reached) + 1} of {controls} controls reached")
    return wrong


def test_the_gms_dashboard_and_a_players_roster_by_keyboard_on_a_phone(
    browser_world, page_for, live_server
):
    c = f"{live_server.url}/campaigns/{browser_world.campaign.pk}"
    wrong = []
    for role, path, name in [
        ("gm", "/", "dashboard"),
        ("player", f"/forces/{browser_world.force.pk}/", "roster"),
    ]:
        page = at_size(page_for(role), "phone")
        page.goto(c + path)
        wrong += _walk(page, name)
        assert not page.errors, page.errors
    assert not wrong, "\n".join(wrong)
