"""The engine's cost on the largest scenario the limits admit, against the worker's time limit.

Run on demand, never by the test suite::

    .venv/bin/python bench/bench_largest.py            # three seeds
    .venv/bin/python bench/bench_largest.py --seeds 1

The scenario is ``bench/scaled.py``'s 40 against 40 (the most units a side may field) with every
piece the limits allow at its most corners: 40 terrain pieces and 20 buildings of 64 corners each
(``battles/engine/validation.py``), the whole table between the two deployment zones covered with
small woods and houses, and the most turns a battle may last. It prints the CPU time to validate
it and to fight each seed, beside ``CELERY_TASK_SOFT_TIME_LIMIT``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from battles.engine import parse_scenario, run_battle  # noqa: E402
from battles.engine.validation import (  # noqa: E402
    MAX_BUILDINGS,
    MAX_CORNERS,
    MAX_TERRAIN,
    MAX_UNITS_PER_SIDE,
)
from bench.scaled import scaled_scenario  # noqa: E402

SOFT_TIME_LIMIT = 300.0
"""``CELERY_TASK_SOFT_TIME_LIMIT``'s default (config/settings.py), in seconds."""


def _ring(cx: float, cy: float, radius: float) -> list[list[float]]:
    return [
        [
            round(cx + radius * math.cos(2 * math.pi * i / MAX_CORNERS), 4),
            round(cy + radius * math.sin(2 * math.pi * i / MAX_CORNERS), 4),
        ]
        for i in range(MAX_CORNERS)
    ]


def largest_scenario() -> dict[str, Any]:
    """The scaled 40v40 with every terrain piece and building the limits allow, round ones."""
    sc = scaled_scenario(MAX_UNITS_PER_SIDE)
    # The scaled table's own pieces cross the middle band; the grid of round pieces replaces them.
    house = sc["buildings"][0]["card"]
    woods = {k: v for k, v in sc["terrain"][1].items() if k not in {"id", "polygon"}}
    spots = [(2.0 + 20.0 * col / 9, 8.2 + row * 2.5) for row in range(4) for col in range(10)]
    spots += [(3.0 + 18.0 * col / 9, 9.45 + row * 2.5) for row in range(2) for col in range(10)]
    sc["terrain"] = [
        {**woods, "id": f"wood-{i}", "polygon": _ring(x, y, 0.7)}
        for i, (x, y) in enumerate(spots[:MAX_TERRAIN])
    ]
    sc["buildings"] = [
        {"id": f"house-{i}", "card": house, "polygon": _ring(x, y + 1.25, 0.45)}
        for i, (x, y) in enumerate(spots[MAX_TERRAIN : MAX_TERRAIN + MAX_BUILDINGS])
    ]
    sc["turn_limit"] = 100
    sc["name"] = "Largest valid"
    return sc


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args(argv)
    document = largest_scenario()
    started = time.process_time()
    scenario = parse_scenario(document)
    parsed = time.process_time() - started
    from battles.compiled import engine_is_compiled

    engine = "compiled" if engine_is_compiled() else "source"
    print(f"engine: {engine}; scenario {len(json.dumps(document)) / 1000:.0f} kB")
    print(f"validate: {parsed:.2f} s CPU")
    print("| seed | turns | events | CPU s | share of the soft time limit |")
    print("|---|---|---|---|---|")
    for seed in range(1, args.seeds + 1):
        started = time.process_time()
        record = run_battle(scenario, seed)
        spent = time.process_time() - started
        print(
            f"| {seed} | {record.result.turns} | {len(record.events)} | {spent:.1f} | "
            f"{spent / SOFT_TIME_LIMIT:.0%} |"
        )
    return 0


if __name__ == "__main__":
    os.environ.setdefault("BRIDGEHEAD_ENGINE", "source")
    raise SystemExit(main())
