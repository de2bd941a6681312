"""The odds page's figures: an odds run's summary (``battles.tally.OddsSummary``) for reading.

Pure functions: rates become percentages with their 95% intervals, side and unit ids become
names from the run's scenario snapshot, and each side wears its own colour whatever order the
summary's keys come back in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from battles.charts import Histogram, score_histogram
from battles.models import OddsRun
from battles.names import numbered
from battles.tally import OddsSummary, Rate


def percent(rate: float) -> str:
    return f"{rate * 100:.1f}%"


def whole_percent(rate: float) -> str:
    """A rate as a sentence says it: "56%". A rate that whole percent would round to 0% or
    100% without being either is said as the table says it ("0.5%"): "against 0%" beside a
    side that won a battle denies the table it stands over."""
    whole = f"{rate * 100:.0f}%"
    if whole in ("0%", "100%") and 0 < rate < 1:
        return percent(rate)
    return whole


def interval(rate: Rate) -> str:
    """The 95% interval of a rate, as percentages. A narrow column breaks it after the dash,
    never between a figure and the dash (a no-break space holds those two together)."""
    return f"{percent(rate.low)}\u00a0– {percent(rate.high)}"


def side_colour(index: int) -> str:
    """A side's colour by its place among its scenario's sides, the same place every map and
    report of the battle colours it by (the site's ``--side-0`` blue, ``--side-1`` red)."""
    return f"var(--side-{index})"


@dataclass(frozen=True, slots=True)
class SideOdds:
    id: str
    name: str
    colour: str
    """A CSS colour: the caller's for this side (a campaign's force colour), else `side_colour`."""
    win: str
    win_interval: str
    loss: str
    loss_interval: str
    mean_score: str


@dataclass(frozen=True, slots=True)
class UnitOdds:
    id: str
    name: str
    side: str
    removed: str
    removed_interval: str


@dataclass(frozen=True, slots=True)
class Verdict:
    """Who is favoured, as the odds pages say it: ``lead`` (shown in bold), then ``rest``."""

    lead: str
    rest: str


FAVOURED_RULE = (
    "a side is favoured only when it wins more than half of the battles even at the low end "
    "of its 95% interval"
)
"""What "favoured" means (``OddsSummary.favoured``), in the words every odds page uses."""


def odds_verdict(summary: OddsSummary, names: Mapping[str, str]) -> Verdict:
    """Who is favoured over the run's battles, in a sentence, the sides called by ``names``
    (by id). A side that wins more often is said to, with its rate and its rivals', even when
    it is not favoured, and why it is not; sides whose intervals overlap are too close to call
    either way."""
    ranked = sorted(summary.sides, key=lambda s: s.win.rate, reverse=True)
    if not ranked:
        return Verdict("Neither side is favoured", ".")
    top, rivals = ranked[0], ranked[1:]
    name = names.get(top.side, top.side)
    against = " and ".join(whole_percent(s.win.rate) for s in rivals) or "no rival"
    if summary.favoured == top.side:
        return Verdict(
            f"{name} is favoured",
            f": it wins {whole_percent(top.win.rate)} of the battles (against {against}), "
            f"more than half even at the low end of its 95% interval ({percent(top.win.low)}).",
        )
    if all(top.win.low > s.win.high for s in rivals):
        return Verdict(
            f"{name} wins more often ({whole_percent(top.win.rate)} against {against}), "
            "but not clearly over half the battles",
            f": the low end of its 95% interval is {percent(top.win.low)}, and {FAVOURED_RULE}.",
        )
    rates = [f"{names.get(s.side, s.side)} {whole_percent(s.win.rate)}" for s in rivals]
    told = f"{name} wins {whole_percent(top.win.rate)}"
    told = ", ".join([told, *rates[:-1]]) + (f" and {rates[-1]}" if rates else "")
    return Verdict(
        "Neither side is favoured",
        f": {told} of the battles, too close to tell apart; {FAVOURED_RULE}.",
    )


@dataclass(frozen=True, slots=True)
class OddsReport:
    battles: int
    favoured: str | None
    verdict: Verdict
    sides: tuple[SideOdds, ...]
    draw: str
    draw_interval: str
    units: tuple[UnitOdds, ...]
    histogram: Histogram


def odds_report(
    summary: OddsSummary,
    scenario: Mapping[str, Any],
    colours: Mapping[str, str] | None = None,
) -> OddsReport:
    """The figures of a finished odds run, named from its scenario snapshot; ``colours`` gives
    a side its colour by its id (the rest take theirs from their place in the scenario)."""
    side_names = {s["id"]: s.get("name", s["id"]) for s in scenario.get("sides", [])}
    # Named as the battle's own pages name them: "Rifle Squad 2" where a card comes twice.
    unit_names = numbered(
        [
            (u["id"], u.get("card", {}).get("name", u["id"]))
            for s in scenario.get("sides", [])
            for u in s.get("units", [])
        ]
    )
    # The scenario's lists fix the order of the sides (and their places, so their colours) and
    # of the units; the summary keeps its own order, by id.
    place = {s["id"]: i for i, s in enumerate(scenario.get("sides", []))}
    ordered = sorted(summary.sides, key=lambda s: place.get(s.side, len(place)))
    unit_place = {unit: i for i, unit in enumerate(unit_names)}
    colours = colours or {}
    sides = tuple(
        SideOdds(
            id=odds.side,
            name=side_names.get(odds.side, odds.side),
            colour=colours.get(odds.side) or side_colour(i),
            win=percent(odds.win.rate),
            win_interval=interval(odds.win),
            loss=percent(odds.loss.rate),
            loss_interval=interval(odds.loss),
            mean_score=f"{odds.mean_score:.2f}",
        )
        for i, odds in enumerate(ordered)
    )
    units = tuple(
        UnitOdds(
            id=odds.unit,
            name=unit_names.get(odds.unit, odds.unit),
            side=side_names.get(odds.side, odds.side),
            removed=percent(odds.removed.rate),
            removed_interval=interval(odds.removed),
        )
        for odds in sorted(summary.units, key=lambda u: unit_place.get(u.unit, len(unit_place)))
    )
    favoured = summary.favoured
    return OddsReport(
        battles=summary.battles,
        favoured=side_names.get(favoured, favoured) if favoured else None,
        verdict=odds_verdict(summary, side_names),
        sides=sides,
        draw=percent(summary.draw.rate),
        draw_interval=interval(summary.draw),
        units=units,
        histogram=score_histogram(summary, [(side.id, side.name, side.colour) for side in sides]),
    )


def odds_stopped(run: OddsRun) -> str:
    """Where an odds run stands against its precision, as a sentence: why it stopped, or how
    narrow its intervals are so far; empty before the first chunk is counted.

    ``widest`` is ``battles.tally.widest_points``, the very figure the stop rule judges by.
    """
    if run.widest is None:
        return ""
    counted, widest, asked = f"{run.battles_counted:,}", f"±{run.widest:.1f}", f"±{run.precision:g}"
    if run.stop == OddsRun.Stop.PRECISE:
        return f"Every outcome known within {asked} points after {counted} battles."
    if run.stop == OddsRun.Stop.CEILING:
        return (
            f"Stopped at the ceiling of {run.battles:,} battles: every outcome is within "
            f"{widest} points ({asked} was asked)."
        )
    if run.stop == OddsRun.Stop.CANCELLED:
        return f"Cancelled after {counted} battles: every outcome was within {widest} points."
    return (
        f"So far {counted} battles: every outcome within {widest} points; it stops at {asked} "
        f"points (or at {run.battles:,} battles)."
    )
