"""Queue benchmark: launch-to-done time for one battle, and odds runs' time to precision on 1
and 2 workers.

Runs against real PostgreSQL and Redis (the production shape), in a database of its own::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bridgehead_bench \\
    REDIS_URL=redis://127.0.0.1:6379/0 .venv/bin/python bench/bench_queue.py

It creates and migrates the database, starts its own worker processes, and prints medians
and ratios (the machine is shared and noisy: single timings mean little). Each odds run asks
for a precision (``--precise factory-hold:1,big-battle:2``: Factory Hold to ±1 point, the 20v20
to ±2) under the default ceiling and is timed from launch until it stops, on one worker and
then on two, with the same seed: both stop after the same battles, so the ratio is the
fan-out alone.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "battles" / "engine" / "scenarios"
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", default="crossroads", help="reference scenario name")
    parser.add_argument("--launches", type=int, default=20, help="battles timed one by one")
    parser.add_argument(
        "--precise",
        default="factory-hold:1,big-battle:2",
        help="odds runs to time, as scenario:points, comma-separated",
    )
    args = parser.parse_args()
    bundled = sorted(p.stem for p in SCENARIOS.glob("*.json"))
    runs: list[tuple[str, float]] = []
    for item in args.precise.split(","):
        name, _, points = item.partition(":")
        try:
            precision = float(points)
        except ValueError:
            parser.error(f"--precise takes scenario:points, not {item!r}")
        if not precision > 0:
            parser.error(f"--precise {item!r}: the points must be above 0")
        runs.append((name, precision))
    unknown = sorted({args.scenario, *(name for name, _ in runs)} - set(bundled))
    if unknown:
        parser.error(f"no bundled scenario {', '.join(unknown)}; choose from {', '.join(bundled)}")
    if args.launches < 1:
        parser.error("--launches must be at least 1")
    if not os.environ.get("REDIS_URL") or "postgres" not in os.environ.get("DATABASE_URL", ""):
        sys.exit("set DATABASE_URL (PostgreSQL) and REDIS_URL: this measures the real services")
    # A 20v20 priced at its ceiling is past one person's budget; the bench launches as nobody,
    # but the absolute limit still applies. Its workers inherit the setting.
    os.environ.setdefault("WORK_USER_LIMIT", str(10**12))

    _create_database(os.environ["DATABASE_URL"])
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    print(f"load average at the start: {os.getloadavg()[0]:.1f}")
    with workers(1):
        latencies = [
            launch_to_done(_scenario(args.scenario), seed) for seed in range(args.launches)
        ]
    print(f"launch to done, {args.scenario}, one worker, {args.launches} battles: "
          f"median {statistics.median(latencies) * 1000:.0f} ms, "
          f"max {max(latencies) * 1000:.0f} ms")  # fmt: skip
    for name, precision in runs:
        scenario = _scenario(name)
        times = {}
        for count in (1, 2):
            with workers(count):
                times[count] = odds_time(scenario, precision)
        (one, battles, stop), (two, battles_two, _) = times[1], times[2]
        if battles != battles_two:
            sys.exit(f"{name}: {battles} battles on one worker, {battles_two} on two")
        print(f"odds to ±{precision:g} points, {name}: stopped ({stop}) after {battles:,} battles; "
              f"1 worker {one:.1f} s, 2 workers {two:.1f} s, speed-up {one / two:.2f}x; "
              f"load average now {os.getloadavg()[0]:.1f}")  # fmt: skip
    return 0


def _scenario(name: str) -> dict:
    return json.loads((SCENARIOS / f"{name}.json").read_text())


def _create_database(url: str) -> None:
    from urllib.parse import urlsplit

    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as connection:
        exists = connection.execute("select 1 from pg_database where datname = %s", [name])
        if not exists.fetchone():
            connection.execute(f'create database "{name}"')


class workers:
    """``count`` worker processes of one process each, stopped on exit."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.processes: list[subprocess.Popen] = []

    def __enter__(self):
        from config.celery import worker_command

        for n in range(self.count):
            self.processes.append(
                subprocess.Popen(
                    worker_command(
                        "--pool",
                        "solo",
                        "--loglevel",
                        "warning",
                        "--hostname",
                        f"bench{n}@%h",
                        "--without-gossip",
                        "--without-mingle",
                    ),
                    cwd=ROOT,
                )
            )
        time.sleep(3)  # let the workers connect before the clock starts
        return self

    def __exit__(self, *exc):
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                # Still fighting a chunk sent before the run stopped (it is not counted): the
                # run is over and timed, so the chunk need not finish.
                process.kill()
                process.wait()


def launch_to_done(scenario: dict, seed: int) -> float:
    from battles.models import Battle
    from battles.services import battle_launch

    start = time.perf_counter()
    battle = battle_launch(name="bench", scenario=scenario, seed=seed)
    while not Battle.objects.filter(id=battle.id, status=Battle.Status.DONE).exists():
        time.sleep(0.005)
    return time.perf_counter() - start


def odds_time(scenario: dict, precision: float) -> tuple[float, int, str]:
    """(seconds from launch to stop, battles counted, why it stopped) for one odds run."""
    from battles.models import OddsRun
    from battles.odds import odds_launch

    start = time.perf_counter()
    run = odds_launch(scenario=scenario, precision=precision, seed=1)
    while not OddsRun.objects.get(id=run.id).finished:
        time.sleep(0.05)
    elapsed = time.perf_counter() - start
    run.refresh_from_db()
    if run.status != OddsRun.Status.DONE:
        sys.exit(f"odds run failed: {run.error}")
    return elapsed, run.battles_counted, run.stop


if __name__ == "__main__":
    sys.exit(main())
