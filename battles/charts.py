"""Small SVG charts as drawing data: the odds page's histogram of scores.

Geometry only; the template draws it. Pure functions of an odds run's summary
(``battles.tally.odds_summary``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

WIDTH = 640
HEIGHT = 240
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 12, 40
"""Room around the plot for the axes and their labels."""


@dataclass(frozen=True, slots=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    colour: str
    """Its side's CSS colour."""
    label: str
    """What the bar says, for its ``<title>``."""


@dataclass(frozen=True, slots=True)
class Histogram:
    width: int
    height: int
    bars: tuple[Bar, ...]
    x_labels: tuple[tuple[float, str], ...]
    y_labels: tuple[tuple[float, str], ...]
    baseline: float
    plot_left: float
    plot_right: float
    description: str


def score_histogram(
    summary: Mapping[str, Any], sides_drawn: Sequence[tuple[str, str, str]]
) -> Histogram:
    """Bars of how often each side finished on each score, sides side by side in the order of
    ``sides_drawn`` (id, name, CSS colour), each bar in its side's colour."""
    battles = summary["battles"] or 1
    sides = [side for side, _, _ in sides_drawn]
    side_names = {side: name for side, name, _ in sides_drawn}
    colours = {side: colour for side, _, colour in sides_drawn}
    counts = {s: {int(k): v for k, v in summary["sides"][s]["scores"].items()} for s in sides}
    scores = sorted({score for c in counts.values() for score in c}) or [0]
    low, high = min(scores), max(scores)
    values = list(range(low, high + 1))
    peak = max((v for c in counts.values() for v in c.values()), default=1) / battles
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    slot = plot_w / len(values)
    bar_w = slot * 0.8 / max(len(sides), 1)
    bars = []
    for i, score in enumerate(values):
        for j, side in enumerate(sides):
            count = counts[side].get(score, 0)
            share = count / battles
            height = plot_h * share / peak if peak else 0
            bars.append(
                Bar(
                    x=round(LEFT + i * slot + slot * 0.1 + j * bar_w, 2),
                    y=round(TOP + plot_h - height, 2),
                    width=round(bar_w, 2),
                    height=round(height, 2),
                    colour=colours[side],
                    label=f"{side_names.get(side, side)} scored {score} in {count} battles "
                    f"({share:.1%})",
                )
            )
    step = max(1, len(values) // 12)  # at most a dozen labels under the axis
    x_labels = tuple(
        (round(LEFT + i * slot + slot / 2, 2), str(score))
        for i, score in enumerate(values)
        if i % step == 0
    )
    y_labels = tuple((round(TOP + plot_h - plot_h * f, 2), f"{peak * f:.0%}") for f in (0, 0.5, 1))
    return Histogram(
        width=WIDTH,
        height=HEIGHT,
        bars=tuple(bars),
        x_labels=x_labels,
        y_labels=y_labels,
        baseline=TOP + plot_h,
        plot_left=LEFT,
        plot_right=WIDTH - RIGHT,
        description=(
            f"Histogram of final scores over {summary['battles']} battles, scores {low} to "
            f"{high}, for " + " and ".join(side_names.get(s, s) for s in sides) + "."
        ),
    )
