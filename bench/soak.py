"""A bounded load soak of the production shape on this machine (a benchmark, not a test).

It starts gunicorn (on 127.0.0.1 only, production settings), a redis-server of its own on a
free port, and two Celery workers (one with the beat that runs the sweeps), all against the
PostgreSQL of ``DATABASE_URL``; then simulated users drive the site for a bounded time:
players read their rosters (a force of 100 units), battle reports (20v20) and the campaign
dashboard; GMs open the battle setup page, launch campaign battles through it, and launch odds
runs. It prints requests, errors and p50/p95/p99 per page, then waits (bounded) for the queue
to drain and prints battles launched vs resolved vs applied, and stops everything itself::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bridgehead_soak \\
        .venv/bin/python bench/soak.py --users 50 --seconds 60

The database named in DATABASE_URL is dropped and created afresh, so its name must contain
"soak". All traffic goes to 127.0.0.1. Targets: 0 errors; roster and report p95 under 200 ms
at 50 users.
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import re
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from html.parser import HTMLParser
from pathlib import Path
from unittest import mock
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

HOST = "127.0.0.1"
READ_PAGES = ("roster", "report", "dashboard")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def _wait_port(port: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((HOST, port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"nothing answered on {HOST}:{port} after {timeout}s")


def _recreate_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    if "soak" not in name:
        raise SystemExit(f"the database name must contain 'soak' (it is dropped), got {name!r}")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'drop database if exists "{name}" with (force)')
        connection.execute(f'create database "{name}"')


# --- the world the users play in --------------------------------------------------------------

CARDS = {
    "Rifle Squad": "Rifle Squad\nSkill 3 · Move 5 · Resistance 1 · Hits 1 · Size 1\n"
    "Rifles — Power 2, Range 12",
    "Mech": "Mech\nSkill 4 · Move 4 · Resistance 5 · Hits 3 · Size 4\n"
    "Autocannon — Power 4, Range 12",
}


def build_world(players: int, gms: int, roster: int, reserve: int) -> dict:
    """Players with a force of ``roster`` units and a fought 20v20 battle each; GMs with a
    campaign of two forces of ``reserve`` units to launch battles from."""
    import json

    from django.contrib.auth import get_user_model
    from django.urls import reverse

    from battles.services import battle_launch, battle_resolve
    from campaign.services import campaign_create, force_create, membership_set, unit_create
    from units.cardtext import parse_card
    from units.models import Ruleset, UnitType

    User = get_user_model()
    cards = {
        name: UnitType.objects.create(
            name=name, ruleset=Ruleset.COMBINED_ARMS, kind=UnitType.Kind.UNIT, card=parse_card(text)
        )
        for name, text in CARDS.items()
    }
    host = User.objects.create_user("soak-host")
    campaign = campaign_create(name="Soak", gm=host, ruleset=Ruleset.COMBINED_ARMS)
    big = json.loads((ROOT / "battles/engine/scenarios/big-battle.json").read_text())
    world: dict = {"players": [], "gms": []}
    for p in range(players):
        user = User.objects.create_user(f"soak-player-{p}")
        membership_set(campaign=campaign, user=user, role="player")
        force = force_create(campaign=campaign, owner=user, name=f"Force {p}")
        for i in range(roster):
            card = cards["Mech"] if i % 5 == 0 else cards["Rifle Squad"]
            unit_create(force=force, unit_type=card, name=f"Unit {i + 1}", specialties=["infantry"])
        with mock.patch("battles.tasks.resolve_battle.delay"):
            battle = battle_launch(name="Big battle", scenario=big, seed=p, created_by=user)
        battle_resolve(battle_id=battle.id)
        world["players"].append(
            {
                "user": user,
                "roster": reverse("campaign:force", args=[campaign.pk, force.pk]),
                "report": reverse("battles:detail", args=[battle.id]),
                "dashboard": reverse("campaign:dashboard", args=[campaign.pk]),
            }
        )
    for g in range(gms):
        user = User.objects.create_user(f"soak-gm-{g}")
        own = campaign_create(name=f"Skirmishes {g}", gm=user, ruleset=Ruleset.COMBINED_ARMS)
        for side in ("North", "South"):
            force = force_create(campaign=own, owner=user, name=f"{side} {g}")
            for i in range(reserve):
                unit_create(
                    force=force, unit_type=cards["Rifle Squad"], name=f"{side} {i + 1}",
                    specialties=["infantry"],
                )  # fmt: skip
        world["gms"].append(
            {
                "user": user,
                "setup": reverse("campaign:battle-setup", args=[own.pk]) + "?scenario=crossroads",
                "dashboard": reverse("campaign:dashboard", args=[own.pk]),
                "odds": reverse("battles:odds-setup"),
            }
        )
    return world


def session_cookie(user) -> str:
    """A logged-in session for ``user``, made as Django's test client's force_login does."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.save()
    return f"{settings.SESSION_COOKIE_NAME}={store.session_key}"


# --- simulated users ----------------------------------------------------------------------------


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


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.times: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, list[str]] = defaultdict(list)

    def add(self, page: str, seconds: float, error: str | None) -> None:
        with self.lock:
            self.times[page].append(seconds)
            if error:
                self.errors[page].append(error)


class User(threading.Thread):
    """One simulated person with a session, on a keep-alive connection to gunicorn."""

    def __init__(self, port, cookie, role, place, stats, deadline, think, rng) -> None:
        super().__init__(daemon=True)
        self.port, self.cookie, self.role, self.place = port, cookie, role, place
        self.stats, self.deadline, self.think, self.rng = stats, deadline, think, rng
        self.csrf = ""
        self.connection: http.client.HTTPConnection | None = None
        self.launched_battles = 0
        self.launched_odds = 0

    def request(self, page, method, path, body=None, expect=200):
        headers = {"Cookie": self.cookie + (f"; csrftoken={self.csrf}" if self.csrf else "")}
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        start = time.perf_counter()
        error, text = None, ""
        try:
            if self.connection is None:
                self.connection = http.client.HTTPConnection(HOST, self.port, timeout=30)
            self.connection.request(method, path, body=body, headers=headers)
            response = self.connection.getresponse()
            text = response.read().decode("utf-8", "replace")
            for value in response.headers.get_all("Set-Cookie") or []:
                match = re.match(r"csrftoken=([^;]+)", value)
                if match:
                    self.csrf = match[1]
            if response.status != expect:
                error = f"{method} {path}: {response.status}"
        except (OSError, http.client.HTTPException) as exc:
            error = f"{method} {path}: {type(exc).__name__}: {exc}"
            if self.connection is not None:
                self.connection.close()
            self.connection = None
        self.stats.add(page, time.perf_counter() - start, error)
        return text if error is None else None

    def run(self) -> None:
        time.sleep(self.rng.uniform(0, self.think))  # arrive spread out
        while time.monotonic() < self.deadline:
            if self.role == "player":
                self.player_step()
            else:
                self.gm_step()
            time.sleep(self.rng.uniform(0.5, 1.5) * self.think)
        if self.connection is not None:
            self.connection.close()

    def player_step(self) -> None:
        p = self.place
        pick = self.rng.random()
        if pick < 0.45:
            self.request("roster", "GET", p["roster"])
        elif pick < 0.8:
            self.request("report", "GET", p["report"])
        else:
            self.request("dashboard", "GET", p["dashboard"])

    def gm_step(self) -> None:
        pick = self.rng.random()
        if pick < 0.5:
            self.launch_battle(self.place["setup"])
        elif pick < 0.7:
            self.launch_odds(self.place["odds"])
        else:
            self.request("dashboard", "GET", self.place["dashboard"])

    def launch_battle(self, setup: str) -> None:
        html = self.request("battle-setup", "GET", setup)
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
            self.stats.add("battle-launch", 0.0, "no ready units left on a side")
            return
        answer = self.request("battle-launch", "POST", setup, urlencode(fields), expect=302)
        if answer is not None:
            self.launched_battles += 1

    def launch_odds(self, setup: str) -> None:
        html = self.request("odds-setup", "GET", setup)
        if html is None:
            return
        fields = form_fields(html)
        fields["scenario"], fields["battles"] = "crossroads", "100"
        if self.request("odds-launch", "POST", setup, urlencode(fields), 302) is not None:
            self.launched_odds += 1


def _percentile(samples: list[float], q: int) -> float:
    if len(samples) < 2:
        return samples[0] if samples else 0.0
    return statistics.quantiles(samples, n=100, method="inclusive")[q - 1]


# --- the run --------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=50, help="simulated users in all")
    parser.add_argument("--gms", type=int, default=5, help="of which GMs (the rest: players)")
    parser.add_argument("--seconds", type=float, default=60, help="how long to drive the load")
    parser.add_argument("--think", type=float, default=1.0, help="mean pause between actions, s")
    parser.add_argument("--web-workers", type=int, default=3, help="gunicorn worker processes")
    parser.add_argument("--drain", type=float, default=180, help="most seconds to wait after")
    args = parser.parse_args()
    database = os.environ.get("DATABASE_URL", "")
    if not database.startswith("postgres"):
        sys.exit("set DATABASE_URL to a PostgreSQL database whose name contains 'soak'")
    redis_server = shutil.which("redis-server")
    if redis_server is None:
        sys.exit("redis-server is needed (the soak runs a Redis of its own)")

    var = Path(tempfile.mkdtemp(prefix="bridgehead-soak-"))
    redis_port, web_port = _free_port(), _free_port()
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        BRIDGEHEAD_ENV="production",
        SECRET_KEY=secrets.token_urlsafe(60),
        ALLOWED_HOSTS=HOST,
        SECURE_SSL_REDIRECT="False",
        BRIDGEHEAD_VAR_DIR=str(var),
        REDIS_URL=f"redis://{HOST}:{redis_port}/0",
        LOG_LEVEL="WARNING",
        PYTHONPATH=str(ROOT),
    )
    _recreate_database(database)
    processes: list[subprocess.Popen] = []
    logs = []

    def start(name: str, command: list[str]) -> None:
        log = (var / f"{name}.log").open("w")
        logs.append(log)
        processes.append(subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT))

    try:
        start("redis", [redis_server, "--port", str(redis_port), "--bind", HOST, "--save", "",
                        "--appendonly", "no", "--dir", str(var)])  # fmt: skip
        _wait_port(redis_port)
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        call_command("collectstatic", verbosity=0, interactive=False)
        players = args.users - args.gms
        t0 = time.monotonic()
        world = build_world(min(players, 5), args.gms, roster=100, reserve=60)
        print(f"world built in {time.monotonic() - t0:.0f} s: {min(players, 5)} player forces "
              f"of 100 units with a 20v20 report each, {args.gms} GM campaigns")  # fmt: skip

        gunicorn = str(Path(sys.executable).with_name("gunicorn"))
        start("web", [gunicorn, "config.wsgi:application", "--bind", f"{HOST}:{web_port}",
                      "--workers", str(args.web_workers)])  # fmt: skip
        celery = [sys.executable, "-m", "celery", "-A", "config", "worker", "--concurrency",
                  "1", "--loglevel", "warning", "--without-gossip", "--without-mingle"]  # fmt: skip
        start("worker1", [*celery, "-n", "soak1@%h", "--beat", "--schedule",
                          str(var / "celerybeat-schedule")])  # fmt: skip
        start("worker2", [*celery, "-n", "soak2@%h"])
        _wait_port(web_port)
        time.sleep(2)  # the workers connect

        from battles.models import Battle, OddsRun
        from campaign.models import CampaignBattle

        stats = Stats()
        rng = random.Random(7)
        deadline = time.monotonic() + args.seconds
        users = []
        for i in range(args.users):
            is_gm = i < args.gms
            place = world["gms"][i] if is_gm else world["players"][i % len(world["players"])]
            users.append(
                User(web_port, session_cookie(place["user"]), "gm" if is_gm else "player",
                     place, stats, deadline, args.think, random.Random(rng.random()))
            )  # fmt: skip
        started = time.monotonic()
        for user in users:
            user.start()
        for user in users:
            user.join(args.seconds + 120)
        elapsed = time.monotonic() - started

        requests = sum(len(t) for t in stats.times.values())
        errors = sum(len(e) for e in stats.errors.values())
        shape = f"gunicorn {args.web_workers} workers, 2 Celery workers"
        print(f"\n{args.users} users ({args.gms} GMs) for {elapsed:.0f} s, "
              f"think time ~{args.think:.1f} s; {shape}")  # fmt: skip
        print(f"requests {requests} ({requests / elapsed:.1f}/s), errors {errors}")
        print(f"{'page':<16} {'requests':>8} {'errors':>6} {'p50':>8} {'p95':>8} {'p99':>8}")
        for page in sorted(stats.times, key=lambda p: (p not in READ_PAGES, p)):
            samples = stats.times[page]
            p50, p95, p99 = (_percentile(samples, q) * 1000 for q in (50, 95, 99))
            print(f"{page:<16} {len(samples):>8} {len(stats.errors[page]):>6} "
                  f"{p50:>6.0f}ms {p95:>6.0f}ms {p99:>6.0f}ms")  # fmt: skip
        for page, messages in stats.errors.items():
            for message in sorted(set(messages))[:5]:
                print(f"  error on {page}: {message}")

        launched = sum(u.launched_battles for u in users)
        odds_launched = sum(u.launched_odds for u in users)
        drain_until = time.monotonic() + args.drain
        campaign_battles = CampaignBattle.objects.filter(battle__isnull=False)
        while time.monotonic() < drain_until:
            resolved = Battle.objects.filter(
                id__in=campaign_battles.values("battle_id"), status=Battle.Status.DONE
            ).count()
            applied = campaign_battles.filter(state=CampaignBattle.State.APPLIED).count()
            odds_done = OddsRun.objects.filter(status=OddsRun.Status.DONE).count()
            if (
                resolved == applied == campaign_battles.count()
                and odds_done == OddsRun.objects.count()
            ):
                break
            time.sleep(0.5)
        drained = time.monotonic() - (drain_until - args.drain)
        print(f"campaign battles: launched {launched} (in the database "
              f"{campaign_battles.count()}), resolved {resolved}, applied {applied}"
              f" — {'equal' if launched == resolved == applied else 'NOT EQUAL'}")  # fmt: skip
        print(f"odds runs: launched {odds_launched}, done {odds_done}, failed "
              f"{OddsRun.objects.filter(status=OddsRun.Status.FAILED).count()}")  # fmt: skip
        print(f"queue drained {drained:.1f} s after the load stopped")
        return 0 if errors == 0 and launched == resolved == applied else 1
    finally:
        for process in reversed(processes):
            process.terminate()
        for process in reversed(processes):
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for log in logs:
            log.close()
        print(f"logs: {var}")


if __name__ == "__main__":
    sys.exit(main())
