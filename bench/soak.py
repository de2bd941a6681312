"""A bounded load soak of the production shape on this machine (a benchmark, not a test).

It starts the web and the Celery services of docker-compose.yml, with a redis-server of its own
on a free port: gunicorn with config/gunicorn.py (on 127.0.0.1 only, production settings), the
battle worker at the lower CPU priority its ``cpu_shares`` gives it, the housekeeping worker
with the beat that runs the sweeps, all against the PostgreSQL of ``DATABASE_URL``; then
locust, headless for a bounded time, drives the site with the users of bench/locustfile.py:
players read their rosters (a force of 100 units), battle reports (20v20) and the campaign
dashboard; GMs open the battle setup page, launch campaign battles through it and watch them,
and launch odds runs and watch them until they stop (each player's roster and report are
drawn once before the load, as a live site's are). It prints requests, errors and p50/p95/p99
per page, over the whole run and after the users' ramp (from the locustfile's record of every
request), then waits (bounded) for the queue to drain and prints battles launched vs resolved
vs applied and the odds runs, as the database has them, and stops everything itself. Locust is
not in the project's requirements; install it first::

    .venv/bin/pip install -r bench/requirements.txt
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bridgehead_soak \\
        .venv/bin/python bench/soak.py --users 50 --gms 5 --seconds 60

The database named in DATABASE_URL is dropped and created afresh, so its name must contain
"soak". All traffic goes to 127.0.0.1. Targets: 0 errors; roster and report p95 under 200 ms
at 50 users.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from unittest import mock
from urllib.parse import urlsplit

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


# --- the world the users play in -----------------------------------------------------------------

CARDS = {
    "Rifle Squad": "Rifle Squad\nSkill 3 · Move 5 · Resistance 1 · Hits 1 · Size 1\n"
    "Rifles — Power 2, Range 12",
    "Mech": "Mech\nSkill 4 · Move 4 · Resistance 5 · Hits 3 · Size 4\n"
    "Autocannon — Power 4, Range 12",
}


def build_world(players: int, gms: int, roster: int, reserve: int) -> dict:
    """Players with a force of ``roster`` units and a fought 20v20 battle each; GMs with a
    campaign of two forces of ``reserve`` units to launch battles from."""

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


def add_abusers(world: dict, abusers: int) -> None:
    """Accounts that flood one-off battle and odds launches (bench/locustfile.py, Abuser)."""
    from django.contrib.auth import get_user_model
    from django.urls import reverse

    User = get_user_model()
    world["abusers"] = [
        {
            "user": User.objects.create_user(f"soak-abuser-{a}"),
            "setup": reverse("battles:setup"),
            "odds": reverse("battles:odds-setup"),
        }
        for a in range(abusers)
    ]


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


# --- the production shape -----------------------------------------------------------------------


def nice_for(cpu_shares: int) -> int:
    """The niceness that gives a process on one host the CPU weight docker-compose's
    ``cpu_shares`` gives a container beside others of the default 1024: the kernel weighs each
    step of niceness 1.25 times less."""
    return max(0, round(math.log(1024 / cpu_shares, 1.25)))


def _compose_services() -> dict:
    import yaml

    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]


def compose_web(port: int, workers: int) -> list[str]:
    """The web service of docker-compose.yml as a command on this host: its gunicorn and
    configuration, bound to 127.0.0.1 only, with ``workers`` worker processes."""
    command = list(_compose_services()["web"]["command"])
    if command[:1] != ["gunicorn"]:
        raise SystemExit("docker-compose.yml's web service does not run gunicorn")
    command[0] = str(Path(sys.executable).with_name("gunicorn"))
    # Options on the command line win over the configuration file, wherever they stand.
    return [command[0], "--bind", f"{HOST}:{port}", "--workers", str(workers), *command[1:]]


def compose_workers(var: Path) -> list[tuple[str, list[str]]]:
    """The Celery services of docker-compose.yml as commands on this host: (service, command),
    each at the CPU priority its ``cpu_shares`` gives it, so that the soak runs what the
    deploy runs. Only the beat's schedule file moves to the soak's folder."""
    workers = []
    for name, service in _compose_services().items():
        command = list(service.get("command") or [])
        if command[:1] != ["celery"]:
            continue
        if "--schedule" in command:
            command[command.index("--schedule") + 1] = str(var / "celerybeat-schedule")
        # Each container has a host name of its own; here the services share one.
        command = [sys.executable, "-m", *command, "-n", f"{name}@%h"]
        shares = service.get("cpu_shares")
        if shares:
            command = ["nice", "-n", str(nice_for(shares)), *command]
        workers.append((name, command))
    if not workers:
        raise SystemExit("docker-compose.yml has no Celery service to start")
    return workers


# --- the load ------------------------------------------------------------------------------------


def _account(place: dict) -> dict:
    """A place's pages, with a logged-in session of its own for the locust user given it."""
    account = {key: value for key, value in place.items() if key != "user"}
    account["cookie"] = session_cookie(place["user"])
    return account


def write_accounts(path: Path, world: dict, players: int, think: float) -> None:
    """The accounts bench/locustfile.py hands out, one per locust user: one GM per campaign,
    one player per player place."""
    places = world["players"]
    accounts = {
        "think": think,
        "gms": [_account(place) for place in world["gms"]],
        "players": [_account(places[i % len(places)]) for i in range(players)],
        "abusers": [_account(place) for place in world.get("abusers", [])],
    }
    path.write_text(json.dumps(accounts, indent=1))


def draw_players_pages(accounts: Path, port: int) -> None:
    """Each player's roster and battle report fetched once through the site, as a live site's
    players have looked at theirs before: the soak measures a site that is up, its pages kept
    (``bench/soak_pages.py --cold`` measures what a first drawing costs). The web's workers are
    warm from it too, as a live site's are."""
    from urllib.request import Request, urlopen

    for player in json.loads(accounts.read_text())["players"]:
        for page in ("roster", "report"):
            request = Request(f"http://{HOST}:{port}{player[page]}",
                              headers={"Cookie": player["cookie"]})  # fmt: skip
            with urlopen(request, timeout=60) as answer:
                if answer.status != 200:
                    raise SystemExit(f"{player[page]} answered {answer.status} before the load")


def locust_command(
    args: argparse.Namespace, port: int, csv_prefix: Path, abusers: int = 0
) -> list[str]:
    users = args.users + abusers
    return [
        str(Path(sys.executable).with_name("locust")),
        "-f", str(ROOT / "bench" / "locustfile.py"),
        "--headless", "--only-summary",
        # The users arrive evenly over the ramp (each then waits up to a think time before its
        # first step); the load is then driven for --seconds with all of them.
        "--users", str(users), "--spawn-rate", f"{users / max(args.ramp, 1):.3f}",
        "--run-time", f"{args.ramp + args.seconds}s",
        # When the time is up, let a user finish the step it is in, so that a launch in flight
        # is counted by locust as well as stored in the database.
        "--stop-timeout", "30",
        "--host", f"http://{HOST}:{port}",
        "--csv", str(csv_prefix),
    ]  # fmt: skip


def _read_csv(path: Path) -> list[dict[str, str]]:
    if not path.exists():
        return []
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


def read_locust(prefix: Path) -> dict:
    """Locust's figures from its CSV files: per page, in all, and what went wrong."""
    rows = _read_csv(prefix.with_name(prefix.name + "_stats.csv"))
    if not rows:
        raise SystemExit(f"locust left no figures; see {prefix.parent / 'locust.log'}")
    return {
        "pages": {row["Name"]: row for row in rows if row["Name"] != "Aggregated"},
        "total": next(row for row in rows if row["Name"] == "Aggregated"),
        "failures": _read_csv(prefix.with_name(prefix.name + "_failures.csv")),
        # Errors in the users' own code, which are no failed request.
        "exceptions": _read_csv(prefix.with_name(prefix.name + "_exceptions.csv")),
    }


def read_requests(path: Path) -> list[tuple[float, str, float, bool]]:
    """Every request the locustfile recorded: (when, page, milliseconds, answered as expected)."""
    rows = []
    for line in path.read_text().splitlines():
        when, rest = line.split(",", 1)
        page, ms, ok = rest.rsplit(",", 2)  # a page name holds no comma, but be sure
        rows.append((float(when), page, float(ms), ok == "1"))
    return rows


def percentiles(samples: list[float]) -> tuple[float, float, float]:
    if len(samples) < 2:
        value = samples[0] if samples else 0.0
        return value, value, value
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return cuts[49], cuts[94], cuts[98]


def succeeded(figures: dict, page: str) -> int:
    row = figures["pages"].get(page)
    return int(row["Request Count"]) - int(row["Failure Count"]) if row else 0


def print_load(figures: dict, requests: list, steady_from: float, args) -> int:
    """Print requests, errors and p50/p95/p99 per page, over the whole run and over the time
    after every user has arrived; return the number of errors (over the whole run)."""
    errors = sum(not ok for *_, ok in requests)
    errors += sum(int(e["Count"]) for e in figures["exceptions"])
    span = max(when for when, *_ in requests) - min(when for when, *_ in requests)
    shape = f"gunicorn {args.web_workers} workers, the Celery services of docker-compose.yml"
    print(f"\n{args.users} users ({args.gms} GMs) arriving over {args.ramp} s, then "
          f"{args.seconds} s with all of them; think ~{args.think:.1f} s; {shape}")  # fmt: skip
    print(f"requests {len(requests)} ({len(requests) / max(span, 1):.1f}/s), errors {errors}")
    steady = [r for r in requests if r[0] >= steady_from]
    print(f"{'':<16} {'whole run':^33}   {'after the ramp':^33}")
    print(f"{'page':<16} {'requests':>8} {'p50':>7} {'p95':>7} {'p99':>7}   "
          f"{'requests':>8} {'p50':>7} {'p95':>7} {'p99':>7}   errors")  # fmt: skip
    pages = sorted({page for _, page, *_ in requests}, key=lambda p: (p not in READ_PAGES, p))
    for page in pages:
        cells = []
        for rows in (requests, steady):
            ms = [r[2] for r in rows if r[1] == page]
            cells.append(f"{len(ms):>8} " + " ".join(f"{q:>5.0f}ms" for q in percentiles(ms)))
        failed = sum(1 for r in requests if r[1] == page and not r[3])
        print(f"{page:<16} {cells[0]}   {cells[1]}   {failed:>6}")
    for failure in figures["failures"][:10]:
        # Locust words a failure as the repr of its exception: CatchResponseError('...').
        error = re.sub(r"^\w+\('(.*)'\)$", r"\1", failure["Error"])
        print(f"  error on {failure['Name']}: {error} ({failure['Occurrences']}×)")
    for exception in figures["exceptions"][:5]:
        print(f"  error in the locustfile: {exception['Message']} ({exception['Count']}×)")
    return errors


def queue_counts(campaign_battles, odds_runs) -> dict[str, int]:
    """How far the workers have got with the campaign battles and odds runs given."""
    from battles.models import Battle, OddsRun
    from campaign.models import CampaignBattle

    fought = Battle.objects.filter(id__in=campaign_battles.values("battle_id"))
    state = CampaignBattle.State
    return {
        "launched": campaign_battles.count(),
        "fighting": campaign_battles.filter(state=state.FIGHTING).count(),
        "resolved": fought.filter(status=Battle.Status.DONE).count(),
        "applied": campaign_battles.filter(state=state.APPLIED).count(),
        "awaiting review": campaign_battles.filter(state=state.AWAITING).count(),
        "odds launched": odds_runs.count(),
        "odds done": odds_runs.filter(status=OddsRun.Status.DONE).count(),
        "odds failed": odds_runs.filter(status=OddsRun.Status.FAILED).count(),
    }


def wait_for_queue(campaign_battles, odds_runs, seconds: float) -> tuple[dict[str, int], float]:
    """Wait (at most ``seconds``) until every battle has been fought and settled (applied, or
    left for review when a unit changed meanwhile) and every odds run has finished; return the
    counts then and how long after the start of the wait they were reached."""
    start = time.monotonic()
    previous, seen = None, 0.0
    while True:
        counts = queue_counts(campaign_battles, odds_runs)
        settled = (
            counts["fighting"] == 0
            and counts["odds launched"] == counts["odds done"] + counts["odds failed"]
        )
        # A worker settles a battle in two steps (marked for review, then applied): believe
        # what is seen only when a second look half a second later sees the same.
        if settled and counts == previous:
            return counts, seen
        if time.monotonic() - start >= seconds:
            return counts, time.monotonic() - start
        previous, seen = counts, time.monotonic() - start
        time.sleep(0.5)


def print_abuse(figures: dict, world: dict) -> None:
    """What the flooding accounts asked for, what was accepted and what was refused."""
    from battles.models import Battle, OddsRun

    users = [place["user"] for place in world["abusers"]]
    asked = {page: int(figures["pages"][page]["Request Count"]) if page in figures["pages"]
             else 0 for page in ("abuse-battle", "abuse-odds")}  # fmt: skip
    battles = Battle.objects.filter(created_by__in=users)
    runs = OddsRun.objects.filter(created_by__in=users)
    print(
        f"abusers: {asked['abuse-battle']} battle launches, {battles.count()} accepted, "
        f"{asked['abuse-battle'] - battles.count()} refused; of the accepted "
        f"{battles.filter(status=Battle.Status.DONE).count()} done, "
        f"{battles.exclude(status__in=['done', 'failed']).count()} still in flight"
    )
    print(
        f"abusers: {asked['abuse-odds']} odds launches of 100,000 battles, "
        f"{runs.count()} accepted, {asked['abuse-odds'] - runs.count()} refused"
    )


# --- the run -------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=50, help="simulated users in all")
    parser.add_argument("--gms", type=int, default=5, help="of which GMs (the rest: players)")
    parser.add_argument("--seconds", type=int, default=60, help="how long to drive the load")
    parser.add_argument("--ramp", type=int, default=10, help="seconds over which users arrive")
    parser.add_argument("--think", type=float, default=1.0, help="mean pause between actions, s")
    parser.add_argument(
        "--web-workers", type=int, help="gunicorn worker processes (default: the deploy's)"
    )
    parser.add_argument("--drain", type=float, default=180, help="most seconds to wait after")
    parser.add_argument(
        "--abusers", type=int, default=0, help="extra users flooding launches (beside --users)"
    )
    args = parser.parse_args()
    if args.web_workers is None:
        from config import gunicorn

        args.web_workers = gunicorn.workers  # what the deploy runs on this machine
    if not 0 <= args.gms <= args.users:
        sys.exit("--gms must be between 0 and --users")
    database = os.environ.get("DATABASE_URL", "")
    if not database.startswith("postgres"):
        sys.exit("set DATABASE_URL to a PostgreSQL database whose name contains 'soak'")
    redis_server = shutil.which("redis-server")
    if redis_server is None:
        sys.exit("redis-server is needed (the soak runs a Redis of its own)")
    if not Path(sys.executable).with_name("locust").exists():
        sys.exit("locust is needed: .venv/bin/pip install -r bench/requirements.txt")

    # A plain kill should stop what the soak starts too: make it an exit, which runs the
    # ``finally`` below.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
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
        BRIDGEHEAD_SOAK_WORLD=str(var / "accounts.json"),  # where the locustfile finds them
        BRIDGEHEAD_SOAK_REQUESTS=str(var / "requests.csv"),  # where it records every request
    )
    _recreate_database(database)
    processes: list[subprocess.Popen] = []
    logs = []

    def start(name: str, command: list[str]) -> subprocess.Popen:
        log = (var / f"{name}.log").open("w")
        logs.append(log)
        processes.append(subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT))
        return processes[-1]

    try:
        start("redis", [redis_server, "--port", str(redis_port), "--bind", HOST, "--save", "",
                        "--appendonly", "no", "--dir", str(var)])  # fmt: skip
        _wait_port(redis_port)
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connection

        call_command("migrate", verbosity=0)
        call_command("collectstatic", verbosity=0, interactive=False)
        players = args.users - args.gms
        t0 = time.monotonic()
        # Every player is a user of their own, with a force and a battle of their own: each
        # reads pages no one else reads (and that no one has drawn for them yet).
        world = build_world(players, args.gms, roster=100, reserve=60)
        add_abusers(world, args.abusers)
        # A database loaded in one go has no planner statistics until autovacuum gets to it, and
        # without them PostgreSQL picks nested loops over thousands of rows for the dashboard's
        # history queries (0.4-0.7 s each, seen here). A live site's tables are analysed.
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        print(f"world built in {time.monotonic() - t0:.0f} s: {players} players, each with a "
              f"force of 100 units and a 20v20 report, {args.gms} GM campaigns")  # fmt: skip

        start("web", compose_web(web_port, args.web_workers))
        for name, command in compose_workers(var):
            start(name, command)
            print(f"{name}: {' '.join(command)}")
        _wait_port(web_port)
        time.sleep(2)  # the workers connect

        from django.db.models import Max

        from battles.models import OddsRun
        from campaign.models import CampaignBattle

        # What the run launches is what the database gains from here on.
        last = {model: model.objects.aggregate(last=Max("pk"))["last"] or 0
                for model in (CampaignBattle, OddsRun)}  # fmt: skip
        write_accounts(var / "accounts.json", world, players, args.think)
        t0 = time.monotonic()
        draw_players_pages(var / "accounts.json", web_port)
        print(f"each player's roster and report drawn and kept in {time.monotonic() - t0:.0f} s")
        steady_from = time.time() + args.ramp
        locust = start("locust", locust_command(args, web_port, var / "soak", args.abusers))
        locust.wait(timeout=args.ramp + args.seconds + 120)  # exit 1 on a failure: see below
        figures = read_locust(var / "soak")
        requests = read_requests(var / "requests.csv")
        errors = print_load(figures, requests, steady_from, args)

        campaign_battles = CampaignBattle.objects.filter(pk__gt=last[CampaignBattle])
        odds_runs = OddsRun.objects.filter(pk__gt=last[OddsRun])
        counts, drained = wait_for_queue(campaign_battles, odds_runs, args.drain)
        equal = counts["launched"] == counts["resolved"] == counts["applied"]
        print(f"campaign battles: launched {counts['launched']} "
              f"(locust: {succeeded(figures, 'battle-launch')} launches answered 302), "
              f"resolved {counts['resolved']}, applied {counts['applied']} "
              f"(awaiting review {counts['awaiting review']})"
              f" — {'equal' if equal else 'NOT EQUAL'}")  # fmt: skip
        print(f"odds runs: launched {counts['odds launched']} "
              f"(locust: {succeeded(figures, 'odds-launch')} launches answered 302), "
              f"done {counts['odds done']}, failed {counts['odds failed']}")  # fmt: skip
        print(f"queue drained {drained:.1f} s after the load stopped")
        if args.abusers:
            print_abuse(figures, world)
        return 0 if errors == 0 and equal else 1
    finally:
        # Also on Ctrl-C or an error: nothing the soak started outlives it.
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
