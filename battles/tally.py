"""Counting many battles of one scenario: tallies that add up, and the odds they give.

Tallies are pure functions on plain dicts (JSON-ready), so a chunk's tallies can be stored as
they are and the sum of the chunks is the same whatever order workers finish them in. The odds
they give are an ``OddsSummary``, stored on the run as its ``to_dict`` and read back with
``from_dict``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
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


@dataclass(frozen=True, slots=True)
class Rate:
    """How often something happened, with its 95% Wilson interval."""

    rate: float
    low: float
    high: float

    @classmethod
    def of(cls, count: int, trials: int) -> Rate:
        low, high = wilson_interval(count, trials)
        return cls(count / trials if trials else 0.0, low, high)

    @classmethod
    def from_dict(cls, data: Mapping[str, float]) -> Rate:
        return cls(data["rate"], data["low"], data["high"])


@dataclass(frozen=True, slots=True)
class SideSummary:
    """One side's odds: its win and loss rates, mean score and how often it scored each score."""

    side: str
    """Side id."""
    win: Rate
    loss: Rate
    mean_score: float
    scores: tuple[tuple[int, int], ...]
    """(score, battles that ended on it), lowest score first."""


@dataclass(frozen=True, slots=True)
class UnitSummary:
    """How often one unit left the battle."""

    unit: str
    """Unit id."""
    side: str
    """The side it fights for."""
    removed: Rate


@dataclass(frozen=True, slots=True)
class OddsSummary:
    """The odds of an odds run (``OddsRun.result``, stored as ``to_dict`` writes it)."""

    battles: int
    draw: Rate
    sides: tuple[SideSummary, ...]
    """By side id: a JSON column may hand a stored summary's keys back in any order (PostgreSQL's
    jsonb does), so the summary keeps an order of its own and the page takes the scenario's."""
    units: tuple[UnitSummary, ...]
    """By unit id, likewise."""

    def side(self, side_id: str) -> SideSummary:
        return next(s for s in self.sides if s.side == side_id)

    @property
    def favoured(self) -> str | None:
        """The side known to win more than half of the battles: its 95% interval of winning
        lies wholly above one half. None while it is too close to call."""
        return next((s.side for s in self.sides if s.win.low > 0.5), None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "battles": self.battles,
            "draw": asdict(self.draw),
            "sides": {
                s.side: {
                    "win": asdict(s.win),
                    "loss": asdict(s.loss),
                    "mean_score": s.mean_score,
                    "scores": {str(score): count for score, count in s.scores},
                }
                for s in self.sides
            },
            "units": {u.unit: {"side": u.side, "removed": asdict(u.removed)} for u in self.units},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> OddsSummary:
        """The summary ``to_dict`` wrote (a stored run's), read back."""
        return cls(
            battles=data["battles"],
            draw=Rate.from_dict(data["draw"]),
            sides=tuple(
                SideSummary(
                    side,
                    Rate.from_dict(odds["win"]),
                    Rate.from_dict(odds["loss"]),
                    odds["mean_score"],
                    tuple(sorted((int(k), v) for k, v in odds["scores"].items())),
                )
                for side, odds in sorted(data["sides"].items())
            ),
            units=tuple(
                UnitSummary(unit, odds["side"], Rate.from_dict(odds["removed"]))
                for unit, odds in sorted(data["units"].items())
            ),
        )


def odds_summary(tally: Mapping[str, Any], units: Mapping[str, str]) -> OddsSummary:
    """Win, draw and loss rates with 95% intervals, score distributions and removal chances.

    ``units`` maps unit id to the side it fights for.
    """
    n = tally["battles"]
    sides = sorted(tally["wins"])
    summaries = []
    for side in sides:
        others = sum(tally["wins"][s] for s in sides if s != side)
        scores = sorted((int(k), v) for k, v in tally["scores"][side].items())
        mean = sum(score * count for score, count in scores) / n if n else 0.0
        summaries.append(
            SideSummary(
                side, Rate.of(tally["wins"][side], n), Rate.of(others, n), mean, tuple(scores)
            )
        )
    return OddsSummary(
        battles=n,
        draw=Rate.of(tally["draws"], n),
        sides=tuple(summaries),
        units=tuple(
            UnitSummary(unit, side, Rate.of(tally["removed"].get(unit, 0), n))
            for unit, side in sorted(units.items())
        ),
    )
