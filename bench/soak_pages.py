"""The soak's pages one at a time, in-process: where a roster, a report and a dashboard spend
their time in the world bench/soak.py builds (a benchmark, not a test).

``--build`` drops and creates the database of ``DATABASE_URL`` (its name must contain "soak"),
migrates and builds the soak's world (``soak.build_world``: 45 players with a force of 100
units and a 20v20 report each in one campaign, 5 GM campaigns), then analyses it; without it,
the world already there is used, so several versions of the code can be measured on one world::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bridgehead_soak_pages \\
    REDIS_URL=redis://127.0.0.1:6379/12 .venv/bin/python bench/soak_pages.py --build

Each page is fetched through Django's test client with production settings (DEBUG off, the
Redis cache, database connections kept), taking turns, as the soak's users fetch them: a
player's roster, report and dashboard (each player in turn), a GM's dashboard. It prints each
page's median and p95, and for one fetch its queries (how many, their time in the database,
the writes among them) and the time spent outside the database.
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

PLAYERS, GMS = 45, 5
WRITES = ("INSERT", "UPDATE", "DELETE")


def _environment() -> None:
    database = os.environ.get("DATABASE_URL", "")
    if not database.startswith("postgres"):
        sys.exit("set DATABASE_URL to a PostgreSQL database whose name contains 'soak'")
    if not os.environ.get("REDIS_URL"):
        sys.exit("set REDIS_URL: the production settings keep pages in Redis")
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        BRIDGEHEAD_ENV="production",
        SECRET_KEY=secrets.token_urlsafe(60),
        ALLOWED_HOSTS="testserver",
        SECURE_SSL_REDIRECT="False",
        LOG_LEVEL="WARNING",
        CONN_MAX_AGE="60",
    )
    os.environ.setdefault("BRIDGEHEAD_VAR_DIR", str(Path("/tmp") / "bridgehead-soak-pages"))


def build() -> None:
    import soak
    from django.core.management import call_command
    from django.db import connection

    soak._recreate_database(os.environ["DATABASE_URL"])
    connection.close()
    call_command("migrate", verbosity=0)
    t0 = time.monotonic()
    soak.build_world(PLAYERS, GMS, roster=100, reserve=60)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    print(f"world built in {time.monotonic() - t0:.0f} s")


def pages() -> list[tuple[str, object, str]]:
    """(page, user, path) for every fetch of one round: each player's three pages, each GM's
    dashboard and battle set-up page."""
    from django.contrib.auth import get_user_model
    from django.urls import reverse

    from battles.models import Battle
    from campaign.models import Campaign, Force

    User = get_user_model()
    soak_campaign = Campaign.objects.get(name="Soak")
    rows = []
    for p in range(PLAYERS):
        user = User.objects.get(username=f"soak-player-{p}")
        force = Force.objects.get(campaign=soak_campaign, owner=user)
        battle = Battle.objects.filter(created_by=user, name="Big battle").order_by("id").first()
        rows += [
            ("roster", user, reverse("campaign:force", args=[soak_campaign.pk, force.pk])),
            ("report", user, reverse("battles:detail", args=[battle.id])),
            ("dashboard", user, reverse("campaign:dashboard", args=[soak_campaign.pk])),
        ]
    for g in range(GMS):
        user = User.objects.get(username=f"soak-gm-{g}")
        own = Campaign.objects.get(gm=user)
        rows.append(("gm dashboard", user, reverse("campaign:dashboard", args=[own.pk])))
        setup = reverse("campaign:battle-setup", args=[own.pk]) + "?scenario=crossroads"
        rows.append(("battle set-up", user, setup))
    return rows


def one_fetch(client, path: str) -> dict:
    """One fetch with its queries recorded: count, database time, writes, time outside."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        t0 = time.perf_counter()
        response = client.get(path)
        total = time.perf_counter() - t0
    assert response.status_code == 200, (path, response.status_code)
    in_db = sum(float(q["time"]) for q in queries.captured_queries)
    writes = [q["sql"] for q in queries.captured_queries if q["sql"].startswith(WRITES)]
    slow = sorted(queries.captured_queries, key=lambda q: -float(q["time"]))[:3]
    return {
        "queries": len(queries),
        "db_ms": in_db * 1000,
        "other_ms": (total - in_db) * 1000,
        "writes": writes,
        "slowest": [(float(q["time"]) * 1000, q["sql"][:140]) for q in slow],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", action="store_true", help="build the world afresh first")
    parser.add_argument("--rounds", type=int, default=4, help="rounds of every page")
    parser.add_argument("--verbose", action="store_true", help="the slowest queries and writes")
    parser.add_argument(
        "--cold", action="store_true",
        help="empty the page cache (the Redis database of REDIS_URL) first: the first fetch of "
        "each page is then its first drawing",
    )  # fmt: skip
    args = parser.parse_args()
    _environment()
    import django

    django.setup()
    if args.build:
        build()
    from django.core.management import call_command

    call_command("collectstatic", verbosity=0, interactive=False)  # the hashed names
    from django.test import Client

    rows = pages()
    clients = {}
    for _, user, _path in rows:
        if user.pk not in clients:
            clients[user.pk] = Client()
            clients[user.pk].force_login(user)
    # Draw every page once (a player's roster and report are then kept, as in the soak), and
    # look at one fetch of each kind. With --cold the kept pages are dropped first, so that
    # this first fetch is each page's first drawing.
    if args.cold:
        from django.core.cache import cache

        cache.clear()
    first: dict[str, list[float]] = {page: [] for page, *_ in rows}
    for page, user, path in rows:
        c0 = time.process_time()
        clients[user.pk].get(path)
        first[page].append((time.process_time() - c0) * 1000)
    shown = {}
    for page, user, path in rows:
        if page not in shown:
            shown[page] = one_fetch(clients[user.pk], path)
    # Wall time, and this process's own CPU time, which a busy machine disturbs less (the
    # database's share is not in it).
    times: dict[str, list[float]] = {page: [] for page, *_ in rows}
    cpu: dict[str, list[float]] = {page: [] for page, *_ in rows}
    for _ in range(args.rounds):
        for page, user, path in rows:
            t0, c0 = time.perf_counter(), time.process_time()
            clients[user.pk].get(path)
            times[page].append((time.perf_counter() - t0) * 1000)
            cpu[page].append((time.process_time() - c0) * 1000)
    print(f"{'page':<14} {'fetches':>7} {'median':>8} {'p95':>8} {'CPU':>8} {'first CPU':>10}"
          "   one fetch: queries, in the database, outside it, writes")  # fmt: skip
    for page, samples in times.items():
        p95 = statistics.quantiles(samples, n=20)[18]
        f = shown[page]
        print(f"{page:<14} {len(samples):>7} {statistics.median(samples):>6.1f}ms {p95:>6.1f}ms"
              f" {statistics.median(cpu[page]):>6.1f}ms {statistics.median(first[page]):>8.1f}ms"
              f"   {f['queries']:>3} {f['db_ms']:>6.1f}ms"
              f" {f['other_ms']:>6.1f}ms {len(f['writes'])}")  # fmt: skip
        if args.verbose:
            for ms, sql in f["slowest"]:
                print(f"      {ms:6.1f}ms {sql}")
            for sql in f["writes"]:
                print(f"      write: {sql[:140]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
