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
import time
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


@events.init.add_listener
def _record_every_request(environment, **_kwargs) -> None:
    # Every request with the moment it was made, for soak.py: it gives figures for the whole
    # run and for the time after every user has arrived, which locust's own files cannot.
    record = open(os.environ["BRIDGEHEAD_SOAK_REQUESTS"], "w", buffering=1)  # noqa: SIM115

    @environment.events.request.add_listener
    def _one(name, response_time, exception, start_time=None, **_rest) -> None:
        when = start_time if start_time is not None else time.time() - response_time / 1000
        record.write(f"{when:.3f},{name},{response_time:.1f},{0 if exception else 1}\n")


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

    def visit(self, name: str, method: str, path: str, data=None, expect=200, headers=None):
        """The answer, or None when its status is not ``expect`` (then a failure)."""
        cookie = self.place["cookie"] + (f"; csrftoken={self.csrf}" if self.csrf else "")
        with self.client.request(
            method, path, name=name, data=data, headers={"Cookie": cookie, **(headers or {})},
            allow_redirects=False, catch_response=True,
        ) as response:  # fmt: skip
            # Django sets the CSRF cookie with the first page that carries a form.
            self.csrf = response.cookies.get("csrftoken", self.csrf)
            if response.status_code not in (expect if isinstance(expect, tuple) else (expect,)):
                error = getattr(response, "error", None)  # set when nothing answered
                response.failure(f"{method} {path}: {error or response.status_code}")
                return None
            response.success()  # an expected 4xx (a refusal the page should give) included
            return response

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
        page = self.visit("battle-setup", "GET", setup)
        if page is None:
            return
        fields = form_fields(page.text)
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
        launched = self.visit("battle-launch", "POST", setup, fields, expect=302)
        if launched is not None:
            self.watch("battle", launched.headers["Location"])

    def watch(self, page: str, url: str) -> None:
        """A battle's or an odds run's page, as a browser shows it after the launch: it asks
        for the progress every second (htmx) until the work is done (status 286). Only then
        does this GM go on (a battle's next set-up draws on units its outcome changed)."""
        if self.visit(page, "GET", url) is None:
            return
        for _ in range(120):
            gevent.sleep(1)
            answer = self.visit(f"{page}-progress", "GET", url + "progress/",
                                headers={"HX-Request": "true"}, expect=(200, 286))  # fmt: skip
            if answer is None or answer.status_code == 286:
                return
        self.record_failure(f"{page}-progress", f"{url}: not done after two minutes")

    @task(20)
    def launch_odds(self) -> None:
        setup = self.place["odds"]
        page = self.visit("odds-setup", "GET", setup)
        if page is None:
            return
        fields = form_fields(page.text)
        fields["scenario"], fields["battles"] = "crossroads", "100"
        launched = self.visit("odds-launch", "POST", setup, fields, expect=302)
        if launched is not None:
            self.watch("odds", launched.headers["Location"])

    @task(30)
    def dashboard(self) -> None:
        self.visit("dashboard", "GET", self.place["dashboard"])


class Abuser(_SiteUser):
    """One account flooding launches beside the honest users, with no pause: one-off battles of
    the 20v20 and odds runs of the most battles the form allows. The budgets refuse the surplus
    with 429 (counted here as answered, since refusing it is right); what is accepted is fought."""

    accounts = WORLD.get("abusers", [])
    _taken = itertools.count()
    fixed_count = len(WORLD.get("abusers", []))
    # With no abusers asked for, locust must not spawn this class at all (a fixed count of 0
    # would make it a weighted class like the players).
    abstract = not accounts
    wait_time = between(0.02, 0.05)

    @task(3)
    def flood_battles(self) -> None:
        page = self.visit("abuse-setup", "GET", self.place["setup"])
        if page is None:
            return
        fields = form_fields(page.text)
        fields["scenario"] = "big-battle"
        answer = self.visit("abuse-battle", "POST", self.place["setup"], fields, expect=(302, 429))
        if answer is not None and answer.status_code == 429:
            self.check_refusal(answer)

    @task(1)
    def flood_odds(self) -> None:
        page = self.visit("abuse-odds-setup", "GET", self.place["odds"])
        if page is None:
            return
        fields = form_fields(page.text)
        fields["scenario"], fields["battles"] = "big-battle", "100000"
        answer = self.visit("abuse-odds", "POST", self.place["odds"], fields, expect=(302, 429))
        if answer is not None and answer.status_code == 429:
            self.check_refusal(answer)

    def check_refusal(self, answer) -> None:
        """A refusal must say why: the budget's words on the page."""
        if "in flight" not in answer.text and "Try again" not in answer.text:
            self.record_failure("abuse-refusal", "a 429 that does not say why")
