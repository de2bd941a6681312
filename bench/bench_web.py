"""Web speed, side by side in one run: the roster page, the battle report and a trivial view.

The pages are fetched many times as a logged-in GM, taking turns so that a slow moment of the
shared machine falls on all of them alike, first through Django's test client (the whole
middleware stack, no network), then — with ``--gunicorn`` — over HTTP from a gunicorn worker,
as a browser gets them. Each way three times: with the page cache as deployed (pages kept once
drawn: ``config.pagecache``); with fragment caching instead (the page drawn on every fetch, its
costly part — the roster's table, the report's body — kept by ``{% cache %}`` under the same
version key the page cache uses); and with no cache (every fetch draws the page). It prints
each page's median and p95, its ratios to the trivial view's median and to the logged-in
trivial view's (the targets: roster <= 3x, report <= 10x the logged-in one), the queries one
fetch makes and the page's size::

    .venv/bin/python bench/bench_web.py                    # SQLite in a scratch folder
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bridgehead_bench \\
        .venv/bin/python bench/bench_web.py --rounds 300 --gunicorn

It works in a database of its own (Django's test database for the configured one: test_...),
created and dropped by the run.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("LOG_LEVEL", "WARNING")
# As in production: a process keeps its database connection between requests.
os.environ.setdefault("CONN_MAX_AGE", "60")
if not os.environ.get("DATABASE_URL"):
    # Never the developer's var/ (a test run may be using its test database right now).
    os.environ.setdefault("BRIDGEHEAD_VAR_DIR", tempfile.mkdtemp(prefix="bench-web-"))

SCENARIOS = ROOT / "battles" / "engine" / "scenarios"
CARDS = {
    "Rifle Squad": "Rifle Squad\nSkill 3 · Move 5 · Resistance 1 · Hits 1 · Size 1\n"
    "Rifles — Power 2, Range 12",
    "Mech": "Mech\nSkill 4 · Move 4 · Resistance 5 · Hits 3 · Size 4\n"
    "Autocannon — Power 4, Range 12",
}
TARGETS = {"roster": 3, "report": 10}
HOST = "127.0.0.1"


def build(units: int) -> dict:
    """A GM, a campaign with a force of ``units`` units, and a fought 20v20 battle."""
    from django.contrib.auth import get_user_model

    from battles.services import battle_launch, battle_resolve
    from campaign.services import campaign_create, force_create, membership_set, unit_create
    from units.cardtext import parse_card
    from units.models import Ruleset, UnitType

    User = get_user_model()
    gm = User.objects.create_user("bench-gm", password="bench-gm-password", is_superuser=True)
    player = User.objects.create_user("bench-player", password="bench-player-password")
    cards = {
        name: UnitType.objects.create(
            name=name, ruleset=Ruleset.COMBINED_ARMS, kind=UnitType.Kind.UNIT, card=parse_card(text)
        )
        for name, text in CARDS.items()
    }
    campaign = campaign_create(name="Bench", gm=gm, ruleset=Ruleset.COMBINED_ARMS)
    membership_set(campaign=campaign, user=player, role="player")
    force = force_create(campaign=campaign, owner=player, name="Hundred")
    for i in range(units):
        card = cards["Mech"] if i % 5 == 0 else cards["Rifle Squad"]
        unit_create(force=force, unit_type=card, name=f"Unit {i + 1}", specialties=["infantry"])
    scenario = json.loads((SCENARIOS / "big-battle.json").read_text())
    with mock.patch("battles.tasks.resolve_battle.delay"):
        battle = battle_launch(name="Big battle", scenario=scenario, seed=1, created_by=gm)
    battle_resolve(battle_id=battle.id)
    return {"gm": gm, "campaign": campaign, "force": force, "battle": battle}


# Fragment caching, for comparison: each view's page-cache key (what the page is drawn from)
# becomes the key of a ``{% cache %}`` around the page's costly part, in copies of the two
# templates; the page around it is drawn on every fetch.
FRAGMENTS = {
    "campaign/force.html": [
        ("{% load partials l10n %}", "{% load cache partials l10n %}"),
        (
            "{% partialdef roster inline %}{% localize off %}",
            "{% partialdef roster inline %}"
            "{% cache 600 roster fragment_key request.get_full_path %}{% localize off %}",
        ),
        (
            "{% endlocalize %}{% endpartialdef %}",
            "{% endlocalize %}{% endcache %}{% endpartialdef %}",
        ),
    ],
    "battles/battle.html": [
        ("{% load static partials %}", "{% load cache static partials %}"),
        (
            "{% partialdef body inline %}",
            "{% partialdef body inline %}{% cache 600 body fragment_key request.get_full_path %}",
        ),
        ("{% endpartialdef %}\n</div>", "{% endcache %}{% endpartialdef %}\n</div>"),
    ],
}


@contextmanager
def fragment_caching():
    """The views with the page cache swapped for ``{% cache %}`` fragments on the same keys."""
    from django.conf import settings
    from django.test import override_settings
    from django.utils.functional import SimpleLazyObject

    import battles.views

    folder = Path(tempfile.mkdtemp(prefix="bench-web-fragments-"))
    for name, edits in FRAGMENTS.items():
        text = (ROOT / "templates" / name).read_text()
        for old, new in edits:
            if old not in text:
                sys.exit(f"bench_web: {name} no longer has {old!r}; update FRAGMENTS")
            text = text.replace(old, new, 1)
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    [engine] = settings.TEMPLATES
    templates = [{**engine, "DIRS": [folder, *engine["DIRS"]]}]

    def draw_with_fragments(request, parts, draw):
        return draw({"fragment_key": repr(parts)})

    real_report = battles.views._report

    def lazy_report(request, battle, **kwargs):  # built only when its fragment is not kept
        return SimpleLazyObject(lambda: real_report(request, battle, **kwargs))

    with (
        override_settings(TEMPLATES=templates, PAGE_CACHE_SECONDS=0),
        mock.patch("campaign.views.pages.cached_page", draw_with_fragments),
        mock.patch("battles.views.cached_page", draw_with_fragments),
        mock.patch("battles.views._report", lazy_report),
    ):
        yield


def timed_rounds(fetch, pages: dict[str, str], rounds: int) -> dict[str, list[float]]:
    """Seconds per fetch of each page, the pages taking turns, after a warm-up."""
    for _ in range(10):  # templates compiled, connections open, pages kept
        for url in pages.values():
            fetch(url)
    times: dict[str, list[float]] = {name: [] for name in pages}
    for _ in range(rounds):
        for name, url in pages.items():
            start = time.perf_counter()
            fetch(url)
            times[name].append(time.perf_counter() - start)
    return times


def report(title: str, times: dict[str, list[float]], queries: dict, sizes: dict) -> None:
    """Each page's figures; the targets are multiples of the logged-in trivial view's median."""
    floor = statistics.median(times["trivial"])
    login = statistics.median(times["login"])
    print(f"\n{title}")
    print(f"{'page':<8} {'median':>10} {'p95':>10} {'x trivial':>10} {'x login':>8} "
          f"{'queries':>8} {'bytes':>9}")  # fmt: skip
    for name, samples in times.items():
        median = statistics.median(samples)
        p95 = statistics.quantiles(samples, n=20)[-1]
        target = f"  (target <= {TARGETS[name]}x login)" if name in TARGETS else ""
        print(f"{name:<8} {median * 1000:>8.2f}ms {p95 * 1000:>8.2f}ms {median / floor:>9.1f}x "
              f"{median / login:>7.1f}x {queries.get(name, '-'):>8} {sizes[name]:>9}"
              f"{target}")  # fmt: skip


def through_test_client(client, pages: dict[str, str], rounds: int) -> tuple:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    queries, sizes = {}, {}
    for name, url in pages.items():
        client.get(url)  # a kept page is drawn by the first fetch; count a later one
        with CaptureQueriesContext(connection) as captured:
            response = client.get(url)
        if response.status_code != 200:
            sys.exit(f"{name} ({url}) answered {response.status_code}")
        queries[name], sizes[name] = len(captured), len(response.content)
    return timed_rounds(client.get, pages, rounds), queries, sizes


def through_gunicorn(cookie: str, pages: dict[str, str], rounds: int, cache_seconds: int):
    """The same pages from one gunicorn worker over HTTP, a new connection per fetch (what
    gunicorn's sync workers give every request), against the same test database."""
    from django.db import connection

    folder = Path(tempfile.mkdtemp(prefix="bench-web-gunicorn-"))
    (folder / "bench_web_settings.py").write_text(
        "from config.settings import *  # noqa: F403\n"
        "ROOT_URLCONF = 'web_urls'\nDEBUG = False\nALLOWED_HOSTS = ['127.0.0.1']\n"
        f"DATABASES['default']['NAME'] = {connection.settings_dict['NAME']!r}\n"
    )
    with socket.socket() as s:
        s.bind((HOST, 0))
        port = s.getsockname()[1]
    path = os.pathsep.join([str(folder), str(ROOT), str(ROOT / "bench")])
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="bench_web_settings", PYTHONPATH=path,
               PAGE_CACHE_SECONDS=str(cache_seconds))  # fmt: skip
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    server = subprocess.Popen(
        [gunicorn, "config.wsgi:application", "--bind", f"{HOST}:{port}", "--workers", "1"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip

    def fetch(url: str) -> bytes:
        link = http.client.HTTPConnection(HOST, port, timeout=30)
        link.request("GET", url, headers={"Cookie": cookie})
        response = link.getresponse()
        body = response.read()
        link.close()
        if response.status != 200:
            sys.exit(f"gunicorn: {url} answered {response.status}")
        return body

    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                sizes = {name: len(fetch(url)) for name, url in pages.items()}
                break
            except OSError:
                if time.monotonic() > deadline:
                    sys.exit("gunicorn did not start")
                time.sleep(0.2)
        return timed_rounds(fetch, pages, rounds), {}, sizes
    finally:
        server.terminate()
        server.wait(30)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=200, help="fetches of each page")
    parser.add_argument("--units", type=int, default=100, help="units in the roster's force")
    parser.add_argument("--gunicorn", action="store_true", help="also over HTTP from gunicorn")
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.test import Client, override_settings
    from django.urls import clear_url_caches, reverse

    settings.ROOT_URLCONF = "web_urls"
    clear_url_caches()
    # DEBUG off, as in production; no setup_test_environment(), whose hook on every template
    # render would slow the pages down.
    settings.DEBUG = False
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        world = build(args.units)
        from battles.models import BattleLog

        events = BattleLog.objects.get(battle=world["battle"]).event_count
        client = Client()
        client.force_login(world["gm"])
        campaign, force = world["campaign"], world["force"]
        pages = {
            "trivial": reverse("bench-trivial"),
            "login": reverse("bench-trivial-login"),
            "roster": reverse("campaign:force", args=[campaign.pk, force.pk]),
            "report": reverse("battles:detail", args=[world["battle"].pk]),
        }
        print(f"database: {connection.vendor}; {args.rounds} fetches of each page, taking turns")
        print(
            f"roster: a force of {args.units} units; report: big-battle (20v20), "
            f"{events} log events; login: a trivial view that reads the session and user"
        )
        seconds = settings.PAGE_CACHE_SECONDS
        ways = (
            (override_settings(), f"pages kept ({seconds} s)"),
            (fragment_caching(), f"fragments kept ({{% cache %}}, {seconds} s)"),
            (override_settings(PAGE_CACHE_SECONDS=0), "every page drawn"),
        )
        for way, how in ways:
            with way:
                measured = through_test_client(client, pages, args.rounds)
            report(f"test client, {how}", *measured)
        if args.gunicorn:
            ways = ((seconds, f"pages kept ({seconds} s)"), (0, "every page drawn"))
            session = settings.SESSION_COOKIE_NAME
            cookie = f"{session}={client.cookies[session].value}"
            for cache_seconds, how in ways:
                measured = through_gunicorn(cookie, pages, args.rounds, cache_seconds)
                report(f"gunicorn (1 sync worker), {how}", *measured)
    finally:
        connection.close()
        connection.creation.destroy_test_db(old_name, verbosity=0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
