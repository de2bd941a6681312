"""Web speed, side by side in one run: the roster page, the battle report and a trivial view.

Each page is fetched many times through Django's test client (the whole middleware stack, a
logged-in GM), the three pages taking turns so that a slow moment of the shared machine falls
on all of them alike. It prints each page's median, its ratio to the trivial view's median
(targets: roster <= 3x, report <= 10x) and the queries one fetch makes::

    .venv/bin/python bench/bench_web.py                    # SQLite in a scratch folder
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bridgehead_bench \\
        .venv/bin/python bench/bench_web.py --rounds 300

It works in a database of its own (Django's test database for the configured one: test_...),
created and dropped by the run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("LOG_LEVEL", "WARNING")
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


def trivial(request):
    """The floor: a view that does nothing, behind the same middleware as every page."""
    from django.http import HttpResponse

    return HttpResponse("ok", content_type="text/plain")


def _urlpatterns():
    from django.urls import include, path

    return [path("bench-trivial/", trivial, name="bench-trivial"), path("", include("config.urls"))]


urlpatterns: list = []  # filled in main(), once Django is set up (ROOT_URLCONF points here)


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=200, help="fetches of each page")
    parser.add_argument("--units", type=int, default=100, help="units in the roster's force")
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import clear_url_caches, reverse

    urlpatterns.extend(_urlpatterns())
    settings.ROOT_URLCONF = __name__
    clear_url_caches()
    # DEBUG off, as in production; no setup_test_environment(), whose hook on every template
    # render would slow the pages down.
    settings.DEBUG = False
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        world = build(args.units)
        from battles.models import BattleLog

        log = BattleLog.objects.get(battle=world["battle"])
        client = Client()
        client.force_login(world["gm"])
        campaign, force = world["campaign"], world["force"]
        pages = {
            "trivial": reverse("bench-trivial"),
            "roster": reverse("campaign:force", args=[campaign.pk, force.pk]),
            "report": reverse("battles:detail", args=[world["battle"].pk]),
        }
        queries, sizes = {}, {}
        for name, url in pages.items():
            with CaptureQueriesContext(connection) as captured:
                response = client.get(url)
            if response.status_code != 200:
                sys.exit(f"{name} ({url}) answered {response.status_code}")
            queries[name], sizes[name] = len(captured), len(response.content)
        for _ in range(10):  # warm up: templates compiled, caches filled
            for url in pages.values():
                client.get(url)
        times: dict[str, list[float]] = {name: [] for name in pages}
        for _ in range(args.rounds):
            for name, url in pages.items():
                start = time.perf_counter()
                client.get(url)
                times[name].append(time.perf_counter() - start)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)

    floor = statistics.median(times["trivial"])
    print(f"database: {connection.vendor}; {args.rounds} fetches of each page, taking turns")
    print(f"roster: a force of {args.units} units; report: big-battle (20v20), "
          f"{log.event_count} log events")  # fmt: skip
    print(f"{'page':<8} {'median':>10} {'p95':>10} {'x trivial':>10} {'queries':>8} {'bytes':>9}")
    targets = {"roster": 3, "report": 10}
    for name, samples in times.items():
        median = statistics.median(samples)
        p95 = statistics.quantiles(samples, n=20)[-1]
        ratio = median / floor
        target = f"  (target <= {targets[name]}x)" if name in targets else ""
        print(f"{name:<8} {median * 1000:>8.2f}ms {p95 * 1000:>8.2f}ms {ratio:>9.1f}x "
              f"{queries[name]:>8} {sizes[name]:>9}{target}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
