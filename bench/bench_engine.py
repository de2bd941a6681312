"""Engine benchmark: battles per second per reference scenario, the cost split, growth with size.

Run on demand, never by the test suite::

    .venv/bin/python bench/bench_engine.py              # everything, a few minutes
    .venv/bin/python bench/bench_engine.py --quick      # fewer and shorter repeats
    .venv/bin/python bench/bench_engine.py --only speed --commander simple

It plays every scenario in ``battles/engine/scenarios/`` in one process, on one core, with the
full log kept, and prints three tables:

- speed: battles per second for each scenario, the median of ``--repeats`` runs over the same
  seeds (with the slowest and fastest run beside it), also counting the log's canonical JSON,
  and again with every decision given (the rules alone: what the commander's share is);
- cost split: where the engine's time goes (line of sight, pathing, commander, logging and
  events, dice, the rules and turn loop), from cProfile;
- growth: N against N from the sample library on one fixed table (``bench/scaled.py``), time
  per battle and per (unit pairs x turns), 4v4 up to 40v40.

Times are this process's CPU time (``time.process_time``): the machine is shared and noisy, and
CPU time is disturbed less by other processes than the wall clock. Ratios between runs on the
same machine mean more than any single figure.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import platform
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

ROOT = Path(os.environ.get("BENCH_ENGINE_ROOT") or Path(__file__).resolve().parent.parent)
"""The checkout whose engine is measured: this one, or another (``--against``) in a subprocess."""
sys.path.insert(0, str(ROOT))

from scaled import scaled_scenario  # noqa: E402  (bench/, beside this file)

from battles.compiled import engine_is_compiled  # noqa: E402
from battles.engine import (  # noqa: E402
    Dice,
    Scenario,
    SimpleCommander,
    load_scenario,
    parse_scenario,
    run_battle,
)
from battles.library import load_library  # noqa: E402

SCENARIOS = ROOT / "battles" / "engine" / "scenarios"
REFERENCE = ("factory-hold", "mech-duel", "river-crossing", "chopper-raid", "big-battle")
"""Reference scenarios first, in the issue's order; any other bundled scenario follows."""
TARGETS = {"factory-hold": 1000.0, "big-battle": 60.0}
"""Battles per second per core the issue asks for."""
SIZES = (4, 8, 12, 16, 20, 30, 40)
"""Units a side in the growth table."""

_ENGINE_RUNS = {
    "compiled": "compiled (build_engine.py, as in the Docker image).",
    "source": "from source (the Docker image compiles it, about twice as fast).",
}

Commanders = Callable[[Scenario], dict[str, Any]]


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=("speed", "split", "growth"), action="append",
                        help="run only these parts (repeatable)")  # fmt: skip
    parser.add_argument("--commander", choices=("simple", "default", "both"), default="both",
                        help="the policy both sides play (default: both in turn)")  # fmt: skip
    parser.add_argument("--scenarios", help="comma-separated scenario names (default: all)")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per figure")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per timed run")
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)), help="growth sizes")
    parser.add_argument("--quick", action="store_true", help="3 repeats of 0.3 s")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    parser.add_argument("--against", type=Path,
                        help="another checkout: both engines in turn, side by side")  # fmt: skip
    parser.add_argument("--rounds", type=int, default=3, help="turns of each engine (--against)")
    args = parser.parse_args(list(argv) if argv is not None else None)
    if args.quick:
        args.repeats, args.seconds = 3, 0.3
    bundled = sorted(p.stem for p in SCENARIOS.glob("*.json"))
    unknown = [n for n in (args.scenarios or "").split(",") if n and n not in bundled]
    if unknown:
        parser.error(f"no bundled scenario {', '.join(unknown)}; choose from {', '.join(bundled)}")
    try:
        sizes = [int(n) for n in args.sizes.split(",")]
    except ValueError:
        parser.error(f"--sizes takes whole numbers separated by commas, not {args.sizes!r}")
    if args.repeats < 1 or args.seconds <= 0 or args.rounds < 1 or min(sizes) < 1:
        parser.error("--repeats, --rounds, --sizes and --seconds must be positive")
    if args.against and not (args.against / "battles" / "engine").is_dir():
        parser.error(f"--against {args.against}: no battles/engine/ there to measure")
    if args.against:
        return side_by_side(args)
    parts = set(args.only or ("speed", "split", "growth"))
    names = _scenario_names(args.scenarios, bundled)
    policies = _policies(args.commander)
    out: dict[str, Any] = {"machine": _machine(), "repeats": args.repeats}
    out["engine"] = "compiled" if engine_is_compiled() else "source"
    print(f"Engine benchmark — {out['machine']}; CPU time, median of {args.repeats} runs")
    print(f"The engine runs {_ENGINE_RUNS[out['engine']]}\n")
    for label, commanders in policies.items():
        figures: dict[str, Any] = {}
        out[label] = figures
        print(f"=== commander: {label} ===\n")
        if "speed" in parts:
            figures["speed"] = speed_table(names, commanders, args.repeats, args.seconds)
        if "split" in parts and out["engine"] == "compiled":
            figures["split"] = split_on_source(names, label)
        elif "split" in parts:
            figures["split"] = split_table(names, commanders)
        if "growth" in parts:
            figures["growth"] = growth_table(sizes, commanders, args.repeats, args.seconds)
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")
    return 0


# --- what is played ---------------------------------------------------------------------------


def _scenario_names(chosen: str | None, bundled: list[str]) -> list[str]:
    if chosen:
        return [n for n in chosen.split(",") if n]
    return [n for n in REFERENCE if n in bundled] + [n for n in bundled if n not in REFERENCE]


def _policies(choice: str) -> dict[str, Commanders]:
    def simple(sc: Scenario) -> dict[str, Any]:
        return {s.id: SimpleCommander() for s in sc.sides}

    found: dict[str, Commanders] = {}
    if choice in ("simple", "both"):
        found["simple"] = simple
    if choice in ("default", "both"):
        try:
            from battles.engine.commanders import DefaultCommander
        except ImportError:
            print("(no battles.engine.commanders.DefaultCommander here: skipping it)\n")
        else:

            def default(sc: Scenario) -> dict[str, Any]:
                return {s.id: DefaultCommander() for s in sc.sides}

            found["default"] = default
    return found


def _machine() -> str:
    return f"Python {platform.python_version()}, {os.cpu_count()} CPUs, {platform.machine()}"


# --- timing -----------------------------------------------------------------------------------


def _timed_runs(
    scenario: Scenario, commanders: Commanders, repeats: int, seconds: float
) -> tuple[list[float], int, list[Any]]:
    """CPU seconds per battle for each repeat over the same seeds, the seed count, the records."""
    for seed in range(2):  # warm the shared path-finder cache, as a worker's would be
        run_battle(scenario, seed, commanders=commanders(scenario))
    start = time.process_time()
    run_battle(scenario, 2, commanders=commanders(scenario))
    one = max(time.process_time() - start, 1e-4)
    count = max(3, round(seconds / one))
    per_battle, records = [], []
    for _ in range(repeats):
        records = []
        start = time.process_time()
        for seed in range(count):
            records.append(run_battle(scenario, seed, commanders=commanders(scenario)))
        per_battle.append((time.process_time() - start) / count)
    return per_battle, count, records


def _dice_time(records: list[Any]) -> float:
    """CPU seconds per battle to roll the battles' dice alone, seed for seed: the least any
    engine playing these battles could spend."""
    rolls = [sum(e.KIND == "roll" for e in r.events) for r in records]
    start = time.process_time()
    for seed, n in enumerate(rolls):
        draw = Dice.seeded(seed)._draw  # each Roll in the log is one die drawn
        for _ in range(n):
            draw()
    return max(time.process_time() - start, 1e-9) / len(records)


class _Recording:
    """Plays as ``inner`` does and keeps each activation it chose."""

    def __init__(self, inner: Any, chosen: list[Any]) -> None:
        self.inner, self.chosen = inner, chosen

    def choose(self, view: Any) -> Any:
        action = self.inner.choose(view)
        self.chosen.append(action)
        return action


class _Given:
    """Plays activations chosen beforehand, weighing nothing: the engine's rules alone."""

    def __init__(self, chosen: list[Any]) -> None:
        self.next = iter(chosen).__next__

    def choose(self, view: Any) -> Any:
        return self.next()


def _given_time(
    scenario: Scenario, commanders: Commanders, records: list[Any], repeats: int
) -> float:
    """CPU seconds per battle to play the same battles with every decision given: the rules,
    the view, the checks and the log, without the commander's weighing (median of runs)."""
    decided = []
    for seed, record in enumerate(records):
        chosen: dict[str, list[Any]] = {s.id: [] for s in scenario.sides}
        played = commanders(scenario)
        run_battle(
            scenario, seed, commanders={k: _Recording(c, chosen[k]) for k, c in played.items()}
        )
        again = run_battle(scenario, seed, commanders={k: _Given(v) for k, v in chosen.items()})
        if again.log_json() != record.log_json():
            raise SystemExit(
                f"{scenario.name}, seed {seed}: the given decisions played another battle"
            )
        decided.append(chosen)
    times = []
    for _ in range(repeats):
        start = time.process_time()
        for seed, chosen in enumerate(decided):
            run_battle(scenario, seed, commanders={k: _Given(v) for k, v in chosen.items()})
        times.append((time.process_time() - start) / len(decided))
    return statistics.median(times)


def _json_time(records: list[Any]) -> float:
    """CPU seconds per battle to write the log as canonical JSON (what a worker stores)."""
    start = time.process_time()
    for r in records:
        r.log_json()
    return (time.process_time() - start) / len(records)


def speed_table(
    names: list[str], commanders: Commanders, repeats: int, seconds: float
) -> dict[str, Any]:
    print("Speed: battles per second on one core, full log kept")
    print(f"{'scenario':16} {'battles/s':>10} {'(min-max)':>16} {'+log JSON':>10} {'events':>7} "
          f"{'acts':>5} {'× dice':>7} {'given':>8} {'weighing':>9}  target")  # fmt: skip
    figures = {}
    for name in names:
        scenario = load_scenario(SCENARIOS / f"{name}.json")
        per_battle, count, records = _timed_runs(scenario, commanders, repeats, seconds)
        rates = sorted(1.0 / t for t in per_battle)
        median = statistics.median(rates)
        per = statistics.median(per_battle)
        with_json = 1.0 / (per + _json_time(records))
        over_dice = per / _dice_time(records)
        given = _given_time(scenario, commanders, records, repeats)
        weighing = 1 - given / per
        events = statistics.mean(len(r.events) for r in records)
        acts = statistics.mean(sum(e.KIND == "activation" for e in r.events) for r in records)
        target = TARGETS.get(name)
        verdict = (
            "" if target is None else f"≥ {target:g}: {'met' if median >= target else 'NOT met'}"
        )
        print(f"{name:16} {median:10.1f} {f'({rates[0]:.0f}-{rates[-1]:.0f})':>16} "
              f"{with_json:10.1f} {events:7.0f} {acts:5.0f} {over_dice:7.0f} "
              f"{1 / given:8.1f} {weighing:9.0%}  "
              f"{verdict}")  # fmt: skip
        figures[name] = {
            "battles_per_s": round(median, 1),
            "min": round(rates[0], 1),
            "max": round(rates[-1], 1),
            "with_log_json": round(with_json, 1),
            "battles_per_run": count,
            "events": round(events),
            "activations": round(acts),
            "over_dice": round(over_dice),
            "decisions_given_per_s": round(1 / given, 1),
            "weighing_share": round(weighing, 3),
        }
    print("(× dice: the engine's time over the time to roll the same dice alone; given: battles/s\n"
          " with every decision given, the same battles; weighing: the commander's share of the\n"
          " time, 1 - battles/s over given)\n")  # fmt: skip
    return figures


# --- two engines side by side -----------------------------------------------------------------


def side_by_side(args: argparse.Namespace) -> int:
    """Speed (and growth, if asked) of the engine in ``--against`` and of this one, measured in
    turns (before, after, before, ...) so both meet the same load; medians over the rounds."""
    parts = args.only or ["speed"]
    runs: dict[str, list[dict[str, Any]]] = {"before": [], "after": []}
    roots = {"before": args.against.resolve(), "after": ROOT}
    for r in range(args.rounds):
        for label, root in roots.items():
            with tempfile.TemporaryDirectory() as tmp:
                out = Path(tmp) / "figures.json"
                argv = [f"--only={p}" for p in parts] + [
                    f"--commander={args.commander}",
                    f"--repeats={args.repeats}",
                    f"--seconds={args.seconds}",
                    f"--sizes={args.sizes}",
                    f"--json={out}",
                ]
                if args.scenarios:
                    argv.append(f"--scenarios={args.scenarios}")
                env = {**os.environ, "BENCH_ENGINE_ROOT": str(root), "BRIDGEHEAD_ENGINE": "source"}
                subprocess.run([sys.executable, __file__, *argv], env=env, check=True,
                               capture_output=True)  # fmt: skip
                runs[label].append(json.loads(out.read_text()))
            print(f"round {r + 1}/{args.rounds}: {label} done", flush=True)
    figures: dict[str, Any] = {"machine": _machine(), "load": os.getloadavg(), "tables": {}}
    print(f"\nBefore: {roots['before']}\nAfter:  {roots['after']}")
    print(f"{_machine()}; load average now {os.getloadavg()[0]:.1f}; medians of {args.rounds} "
          f"rounds, each the median of {args.repeats} runs\n")  # fmt: skip
    for label in _policies(args.commander):
        for part, key, unit in (("speed", "battles_per_s", "battles/s"),
                                ("growth", "ms_per_battle", "ms/battle")):  # fmt: skip
            if part not in parts:
                continue
            rows = runs["after"][0][label][part]
            print(f"{part}, commander {label} ({unit})")
            extra = " × dice (before → after)" if part == "speed" else ""
            print(f"{'':16} {'before':>10} {'after':>10} {'ratio':>7}{extra}")
            table = {}
            for name in rows:
                b = statistics.median(run[label][part][name][key] for run in runs["before"])
                a = statistics.median(run[label][part][name][key] for run in runs["after"])
                ratio = a / b if part == "speed" else b / a
                line = f"{name:16} {b:10.1f} {a:10.1f} {ratio:6.2f}×"
                row = {"before": b, "after": a, "speedup": round(ratio, 2)}
                if part == "speed":
                    dice = [
                        statistics.median(
                            run[label][part][name].get("over_dice", 0) for run in runs[k]
                        )
                        for k in ("before", "after")
                    ]
                    line += f"  {dice[0]:.0f} → {dice[1]:.0f}"
                    row["over_dice"] = dice
                print(line)
                table[name] = row
            figures["tables"][f"{label}/{part}"] = table
            print()
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


# --- cost split -------------------------------------------------------------------------------

CATEGORIES = ("line of sight", "pathing", "commander", "logging/events", "dice", "rules & loop")


def _category(filename: str, function: str) -> str | None:
    """The category a function's own time belongs to; None: it belongs to its callers."""
    path = filename.replace("\\", "/")
    if "/battles/engine/" not in path:
        return None  # the standard library, builtins, generated __init__s: whoever called
    module = path.rsplit("/battles/engine/", 1)[1]
    if module == "sight.py":
        return "line of sight"
    if module in ("movement.py", "pathfinding.py", "paths.py"):
        return "pathing"
    if module in ("simple.py", "commander.py") or module.startswith("commanders/"):
        return "commander"
    if module in ("events.py", "record.py") or (module, function) == ("battle.py", "emit"):
        return "logging/events"
    if module == "state.py" and (function == "apply" or function.startswith("_")):
        return "logging/events"  # applying events; the state's queries are the rules'
    if module == "dice.py":
        return "dice"
    if module in ("battle.py", "combat.py", "victory.py", "result.py", "state.py"):
        return "rules & loop"
    # Geometry, the attack rules, cards and the like answer whoever asks: sight, movement, a
    # commander or the rules.
    return None


def cost_split(stats: pstats.Stats) -> dict[str, float]:
    """Each function's own time, given to its category or, failing one, to its callers'.

    A function with no category of its own (geometry, the attack rules, builtins) passes its
    time up to its callers in proportion to what each call cost, until it reaches one that has
    a category: the innermost categorised caller wins, so a line of sight asked for by a
    commander counts as line of sight.
    """
    table: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    totals = dict.fromkeys(CATEGORIES, 0.0)

    def give(func: Any, amount: float, share_of: int, depth: int) -> None:
        cat = _category(func[0], func[2])
        if cat is not None:
            totals[cat] += amount
            return
        callers = table[func][4]
        weights = {c: v[share_of] for c, v in callers.items() if c != func}
        whole = sum(weights.values())
        if depth > 40 or whole <= 0:
            totals["rules & loop"] += amount
            return
        for caller, weight in weights.items():
            # Past the first step what is passed up is part of the caller's whole subtree.
            give(caller, amount * weight / whole, 3, depth + 1)

    for func, (_, _, own, _, _) in table.items():
        if own > 0:
            give(func, own, 2, 0)
    whole = sum(totals.values()) or 1.0
    return {k: v / whole for k, v in totals.items()}


def split_table(names: list[str], commanders: Commanders, battles: int = 40) -> dict[str, Any]:
    print(f"Cost split: share of engine time by cProfile over {battles} battles per scenario")
    print(f"{'scenario':16} " + " ".join(f"{c:>14}" for c in CATEGORIES))
    figures = {}
    for name in names:
        scenario = load_scenario(SCENARIOS / f"{name}.json")
        count = battles if name != "big-battle" else max(4, battles // 8)
        profiler = cProfile.Profile()
        profiler.enable()
        for seed in range(count):
            run_battle(scenario, seed, commanders=commanders(scenario))
        profiler.disable()
        split = cost_split(pstats.Stats(profiler))
        print(f"{name:16} " + " ".join(f"{split[c]:14.0%}" for c in CATEGORIES))
        figures[name] = {c: round(v, 3) for c, v in split.items()}
    print("(cProfile's per-call overhead inflates code made of many small calls)\n")
    return figures


def split_on_source(names: list[str], label: str) -> dict[str, Any]:
    """The cost split, from a run of this script on the source engine: cProfile sees only the
    calls into compiled code, not what they spend inside."""
    print("(cost split measured on the source engine: cProfile cannot see into compiled code)")
    with tempfile.TemporaryDirectory() as tmp:
        figures = Path(tmp) / "split.json"
        argv = ["--only", "split", "--commander", label, "--scenarios", ",".join(names)]
        env = {**os.environ, "BRIDGEHEAD_ENGINE": "source"}
        done = subprocess.run(
            [sys.executable, __file__, *argv, "--json", str(figures)],
            env=env, capture_output=True, text=True, check=True,
        )  # fmt: skip
        print(done.stdout.split(f"=== commander: {label} ===\n\n", 1)[1], end="")
        return json.loads(figures.read_text())[label]["split"]


# --- growth -----------------------------------------------------------------------------------


def growth_table(
    sizes: list[int], commanders: Commanders, repeats: int, seconds: float
) -> dict[str, Any]:
    print("Growth: N against N on one fixed 24x24 table from the sample library")
    first = f"vs {sizes[0]}v{sizes[0]}"
    print(f"{'size':>6} {'ms/battle':>10} {'turns':>6} {'pairs':>6} "
          f"{'µs per pair-turn':>17} {first:>8} {'activations':>12}")  # fmt: skip
    library = load_library()
    figures = {}
    base = None
    for n in sizes:
        scenario = parse_scenario(scaled_scenario(n, library))
        # Big sizes take long per battle: fewer, but never fewer than three.
        per_battle, _, records = _timed_runs(scenario, commanders, repeats, seconds)
        t = statistics.median(per_battle)
        turns = statistics.mean(r.state.turn for r in records)
        acts = statistics.mean(sum(e.KIND == "activation" for e in r.events) for r in records)
        unit_pairs = n * n
        per_pair_turn = t / (unit_pairs * turns)
        base = base or per_pair_turn
        print(f"{f'{n}v{n}':>6} {t * 1000:10.2f} {turns:6.1f} {unit_pairs:6d} "
              f"{per_pair_turn * 1e6:17.2f} {per_pair_turn / base:8.2f} {acts:12.0f}")  # fmt: skip
        figures[f"{n}v{n}"] = {
            "ms_per_battle": round(t * 1000, 3),
            "turns": round(turns, 2),
            "unit_pairs": unit_pairs,
            "us_per_pair_turn": round(per_pair_turn * 1e6, 3),
            "activations": round(acts),
        }
    print(f"(unit pairs = N x N enemy pairs at the start; a flat or falling '{first}' column")
    print(" means time grows no faster than the unit pairs per turn)\n")
    return figures


if __name__ == "__main__":
    raise SystemExit(main())
