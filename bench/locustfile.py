"""The simulated users of the load soak (bench/soak.py), for locust.

bench/soak.py builds the world, writes the accounts (a logged-in session cookie and the pages
of each) to a JSON file, names it in BRIDGEHEAD_SOAK_WORLD and runs locust headless on this
file. Players read their roster, their battle report and the campaign dashboard; GMs launch
campaign battles and odds runs through the site's forms, as a browser would. The number of
GMs is fixed by the world file; every other locust user is a player.
"""

from __future__ import annotations

import itertools
import json
import os
import random
from collections import defaultdict
from html.parser import HTMLParser
from http.cookiejar import DefaultCookiePolicy

import gevent
import locust.stats
from locust import HttpUser, between, events, task


def _load_world() -> dict:
    path = os.environ.get("BRIDGEHEAD_SOAK_WORLD")
    if not path:
        raise SystemExit("BRIDGEHEAD_SOAK_WORLD is not set: run the soak with bench/soak.py")
    with open(path) as f:
        return json.load(f)


WORLD = _load_world()
THINK = WORLD["think"]  # seconds; the pause between actions is 0.5–1.5 times this


@events.quitting.add_listener
def _last_csv_write(**_kwargs) -> None:
    # Locust rewrites its CSV files every second while it runs but not once more after the
    # users have stopped: give its writer one more turn, so that the files count every request.
    gevent.sleep(locust.stats.CSV_STATS_INTERVAL_SEC + 0.5)


class _Form(HTMLParser):
    """The fields of the page's forms, as a browser would submit them unchanged."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: dict[str, str] = {}
        self._select: str | None = None
        self._first: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text")
            if kind in ("submit", "button", "image", "file"):
                return
            if kind in ("checkbox", "radio") and "checked" not in a:
                return
            self.fields.setdefault(name, a.get("value") or "")
        elif tag == "select" and name:
            self._select, self._first = name, None
        elif tag == "option" and self._select:
            value = a.get("value", "")
            if self._first is None:
                self._first = value
            if "selected" in a:
                self.fields[self._select] = value

    def handle_endtag(self, tag):
        if tag == "select" and self._select:
            self.fields.setdefault(self._select, self._first or "")
            self._select = None


def form_fields(html: str) -> dict[str, str]:
    parser = _Form()
    parser.feed(html)
    return parser.fields


class _SiteUser(HttpUser):
    """One person with a session of their own, on a keep-alive connection to gunicorn."""

    abstract = True
    wait_time = between(0.5 * THINK, 1.5 * THINK)
    accounts: list[dict] = []  # each subclass its own, with its own counter ``_taken``
    _taken: itertools.count

    def on_start(self) -> None:
        self.place = self.accounts[next(self._taken) % len(self.accounts)]
        self.csrf = ""
        # The production settings mark the session and CSRF cookies Secure, and the soak speaks
        # plain http to 127.0.0.1, so a cookie jar would never send them back. Keep the jar out
        # of it (it would also replace a hand-made Cookie header) and send them ourselves.
        self.client.cookies.set_policy(DefaultCookiePolicy(allowed_domains=[]))
        gevent.sleep(random.uniform(0, THINK))  # arrive spread out, not all in the same second

    def visit(self, name: str, method: str, path: str, data=None, expect=200) -> str | None:
        """The page's text, or None when the answer is not ``expect`` (then a failure)."""
        cookie = self.place["cookie"] + (f"; csrftoken={self.csrf}" if self.csrf else "")
        with self.client.request(
            method, path, name=name, data=data, headers={"Cookie": cookie},
            allow_redirects=False, catch_response=True,
        ) as response:  # fmt: skip
            # Django sets the CSRF cookie with the first page that carries a form.
            self.csrf = response.cookies.get("csrftoken", self.csrf)
            if response.status_code != expect:
                error = getattr(response, "error", None)  # set when nothing answered
                response.failure(f"{method} {path}: {error or response.status_code}")
                return None
            return response.text

    def record_failure(self, name: str, message: str) -> None:
        """Count a step that could not be tried as a failed request of that name."""
        self.environment.events.request.fire(
            request_type="POST", name=name, response_time=0, response_length=0,
            response=None, context={}, exception=Exception(message),
        )  # fmt: skip


class Player(_SiteUser):
    accounts = WORLD["players"]
    _taken = itertools.count()

    @task(45)
    def roster(self) -> None:
        self.visit("roster", "GET", self.place["roster"])

    @task(35)
    def report(self) -> None:
        self.visit("report", "GET", self.place["report"])

    @task(20)
    def dashboard(self) -> None:
        self.visit("dashboard", "GET", self.place["dashboard"])


class GM(_SiteUser):
    accounts = WORLD["gms"]
    _taken = itertools.count()
    # Exactly one locust user per GM campaign; every other user is a Player.
    fixed_count = len(WORLD["gms"])

    @task(50)
    def launch_battle(self) -> None:
        setup = self.place["setup"]
        html = self.visit("battle-setup", "GET", setup)
        if html is None:
            return
        fields = form_fields(html)
        # Two ready units a side, the first two the form puts on each side's deployment spots
        # (by default it fields every ready unit, in page order).
        per_side: dict[str, int] = defaultdict(int)
        for name in [n for n in fields if n.startswith("side_")]:
            side = fields[name]
            if side and per_side[side] < 2:
                per_side[side] += 1
            else:
                fields[name] = ""
        if len(per_side) < 2:
            self.record_failure("battle-launch", "no ready units left on a side")
            return
        self.visit("battle-launch", "POST", setup, fields, expect=302)

    @task(20)
    def launch_odds(self) -> None:
        setup = self.place["odds"]
        html = self.visit("odds-setup", "GET", setup)
        if html is None:
            return
        fields = form_fields(html)
        fields["scenario"], fields["battles"] = "crossroads", "100"
        self.visit("odds-launch", "POST", setup, fields, expect=302)

    @task(30)
    def dashboard(self) -> None:
        self.visit("dashboard", "GET", self.place["dashboard"])
