"""The browser tests' fixtures and helpers: Playwright driving the system Chromium, logged-in
pages, a real worker, screenshots to test-artifacts/browser/. The fixtures reach every web test
module through ``conftest.py``; the helpers are imported by name.

Playwright's own browser download does not work everywhere, so the tests drive Debian's
``chromium``. Where it (or Playwright) is missing they skip, saying so; with
BRIDGEHEAD_REQUIRE_SERVICES=1, as in CI, they fail instead.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.conf import settings

from tests.conftest import needs_service

try:
    from playwright.sync_api import expect
except ImportError:  # the fixtures below skip (or fail) with the reason
    expect = None
else:
    # An assertion that waits on the server (htmx, a check's round trip) gets more than
    # Playwright's 5 s: the browser tests share the machine with a full test process.
    expect.set_options(timeout=15_000)
from tests.workers import database_url, project_env, worker_process

CHROMIUM = os.environ.get("BRIDGEHEAD_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "browser"
PASSWORD = "a-long-test-password"
TIMEOUT_MS = 60_000
USERS = ("commander", "oddsmaker", "oldschool", "owner", "stranger")
CONTRAST_JS = """
  const rgba = c => { const m = c && c.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const lum = c => { const [r, g, b] = c.slice(0, 3).map(v => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)];
    return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  const groundOf = e => { const layers = [];
    for (let up = e.parentElement; up; up = up.parentElement) {
      const c = rgba(getComputedStyle(up).backgroundColor);
      if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    let ground = [255, 255, 255];
    for (const c of layers.reverse()) ground = ground.map((v, i) => c[i] * c[3] + v * (1 - c[3]));
    return ground; };
"""
"""WCAG's contrast in a page's script, for the browser tests that measure it: ``rgba`` reads a
computed colour, ``ratio`` gives two colours' contrast, ``groundOf`` the colour drawn under an
element (its ancestors' backgrounds laid together over white)."""


def contrast_js(body: str) -> str:
    """A function for ``page.evaluate`` whose ``body`` may use `CONTRAST_JS`'s helpers."""
    return "() => {" + CONTRAST_JS + body + "}"


@pytest.fixture
def cast(django_user_model) -> None:
    """The users the browser logs in as, made before Playwright starts: while it runs, its event
    loop makes Django give ORM calls from this thread a connection of their own that nothing
    closes, and the test database could not be dropped afterwards."""
    for username in USERS:
        django_user_model.objects.create_user(username, password=PASSWORD)


@pytest.fixture
def playwright_ready():
    """Playwright and Chromium, checked before anything else is set up: a skip (a failure in CI)
    says which is missing."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        needs_service(False, "Playwright for Python (pip install -r requirements-dev.txt)")
    needs_service(
        os.access(CHROMIUM, os.X_OK), f"Chromium at {CHROMIUM} (apt-get install -y chromium)"
    )
    return sync_playwright


@pytest.fixture
def chromium(playwright_ready, cast):
    """A Chromium browser under Playwright, one per test: it is closed before the test's data is
    flushed, for the same reason as ``cast``."""
    with playwright_ready() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def worker(tmp_path, live_server):
    """A real worker on this test's database, pausing a little each turn."""
    env = project_env(
        DATABASE_URL=database_url(settings.DATABASES["default"]), BATTLE_TURN_DELAY="0.4"
    )
    log = tmp_path / "worker.log"
    with worker_process(env, log) as process:
        yield process
    if os.environ.get("BRIDGEHEAD_SHOW_WORKER_LOG"):
        print(log.read_text())


@pytest.fixture
def page_for(chromium, live_server):
    """page_for(username) -> a logged-in page of a new browser context; console errors kept
    (``touch=True``: a touch screen, for ``tap()``)."""
    contexts = []

    def make(username: str, *, javascript: bool = True, touch: bool = False):
        context = chromium.new_context(
            viewport={"width": 1280, "height": 900}, java_script_enabled=javascript, has_touch=touch
        )
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        page.on("console", lambda message: _console_error(page, message))
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("#id_username", username)
        page.fill("#id_password", PASSWORD)
        page.click("#login-form button[type=submit]")
        page.wait_for_url(f"{live_server.url}/campaigns/")
        return page

    yield make
    for context in contexts:
        context.close()


def _console_error(page, message) -> None:
    # (The browser's own request for /favicon.ico answers too: a 404 there is an error here.)
    if message.type == "error":
        page.errors.append(message.text)


def shoot(page, name: str, *, full_page: bool = False, locator=None) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    (locator or page).screenshot(path=str(path), **({"full_page": True} if full_page else {}))
    return path


def wait_for_report(page) -> None:
    """Wait until the battle is over; a failed battle fails the test with its error."""
    page.wait_for_selector(".report, .notice-error", timeout=TIMEOUT_MS)
    assert page.locator(".report").count() == 1, page.inner_text("#battle-body")


def select_when_ready(page, selector: str, value: str) -> None:
    """Choose in a select whose change htmx or the page's script acts on: only once the page has
    loaded, since its deferred scripts attach their listeners then, and a change made before
    that would go unseen."""
    page.wait_for_load_state("load")
    page.select_option(selector, value)


def counter(page) -> tuple[int, int]:
    here, total = page.inner_text("[data-counter]").split(" / ")
    return int(here), int(total)
