"""Counting many battles of one scenario: tallies that add up, and the odds they give.

Pure functions on plain dicts (JSON-ready), so a chunk's tallies can be stored as they are and
the sum of the chunks is the same whatever order workers finish them in.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from battles.engine import BattleResult

Z_95 = 1.959963984540054  # the normal quantile for a two-sided 95% interval


def tally_empty(sides: Iterable[str]) -> dict[str, Any]:
    sides = list(sides)
    return {
        "battles": 0,
        "draws": 0,
        "wins": {side: 0 for side in sides},
        "scores": {side: {} for side in sides},
        "removed": {},
    }


def tally_add(tally: dict[str, Any], result: BattleResult) -> None:
    """Count one battle's result into ``tally``."""
    tally["battles"] += 1
    if result.winner is None:
        tally["draws"] += 1
    else:
        tally["wins"][result.winner] += 1
    for side in result.sides:
        histogram = tally["scores"][side.side]
        histogram[str(side.score)] = histogram.get(str(side.score), 0) + 1
    for unit in result.units:
        if unit.removed != "none":
            tally["removed"][unit.unit] = tally["removed"].get(unit.unit, 0) + 1


def tally_merge(tallies: Iterable[Mapping[str, Any]], sides: Iterable[str]) -> dict[str, Any]:
    """The sum of several tallies."""
    total = tally_empty(sides)
    for tally in tallies:
        total["battles"] += tally["battles"]
        total["draws"] += tally["draws"]
        for side, wins in tally["wins"].items():
            total["wins"][side] += wins
        for side, histogram in tally["scores"].items():
            for score, count in histogram.items():
                total["scores"][side][score] = total["scores"][side].get(score, 0) + count
        for unit, count in tally["removed"].items():
            total["removed"][unit] = total["removed"].get(unit, 0) + count
    return total


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for a proportion: sound even near 0 and 1, unlike p ± z·se."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def half_width(successes: int, trials: int) -> float:
    """Half the width of the Wilson interval: how far, either way, the rate is known."""
    low, high = wilson_interval(successes, trials)
    return (high - low) / 2


def widest_points(tally: Mapping[str, Any]) -> float:
    """The widest ± among the battle's outcomes (each side's win, and the draw; a loss is the
    other side's win), in percentage points: an odds run stops once this is within its
    precision, and its page shows it."""
    n = tally["battles"]
    outcomes = [*tally["wins"].values(), tally["draws"]]
    return 100 * max(half_width(count, n) for count in outcomes)


def _rate(count: int, trials: int) -> dict[str, float]:
    low, high = wilson_interval(count, trials)
    return {"rate": count / trials if trials else 0.0, "low": low, "high": high}


def odds_summary(tally: Mapping[str, Any], units: Mapping[str, str]) -> dict[str, Any]:
    """Win, draw and loss rates with 95% intervals, score distributions and removal chances.

    ``units`` maps unit id to the side it fights for.
    """
    n = tally["battles"]
    sides = list(tally["wins"])
    summary: dict[str, Any] = {"battles": n, "draw": _rate(tally["draws"], n), "sides": {}}
    for side in sides:
        others = sum(tally["wins"][s] for s in sides if s != side)
        scores = {int(k): v for k, v in tally["scores"][side].items()}
        mean = sum(score * count for score, count in scores.items()) / n if n else 0.0
        summary["sides"][side] = {
            "win": _rate(tally["wins"][side], n),
            "loss": _rate(others, n),
            "mean_score": mean,
            "scores": {str(k): scores[k] for k in sorted(scores)},
        }
    summary["units"] = {
        unit: {"side": side, "removed": _rate(tally["removed"].get(unit, 0), n)}
        for unit, side in units.items()
    }
    favoured = max(sides, key=lambda s: tally["wins"][s])
    summary["favoured"] = favoured if n and tally["wins"][favoured] * 2 > n else None
    return summary
