"""Small SVG charts as drawing data: the odds page's histogram of scores, and the campaign's
lines over days (a unit's quality, experience and hits; each force's strength).

Geometry only; the templates draw it. The histogram is a pure function of an odds run's summary
(``battles.tally.OddsSummary``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from battles.tally import OddsSummary

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


def score_histogram(summary: OddsSummary, sides_drawn: Sequence[tuple[str, str, str]]) -> Histogram:
    """Bars of how often each side finished on each score, sides side by side in the order of
    ``sides_drawn`` (id, name, CSS colour), each bar in its side's colour."""
    battles = summary.battles or 1
    sides = [side for side, _, _ in sides_drawn]
    side_names = {side: name for side, name, _ in sides_drawn}
    colours = {side: colour for side, _, colour in sides_drawn}
    counts = {s: dict(summary.side(s).scores) for s in sides}
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
            f"Histogram of final scores over {summary.battles} battles, scores {low} to "
            f"{high}, for " + " and ".join(side_names.get(s, s) for s in sides) + "."
        ),
    )


@dataclass(frozen=True, slots=True)
class Line:
    name: str
    stretches: tuple[str, ...]
    """Each stretch's polyline ``points``, in the chart's pixels: one, unless the line breaks off
    over days it has no value (`line_chart`)."""
    css: str
    """Its class (``series-0``…): the stylesheet's colour when ``colour`` is empty."""
    colour: str
    dots: tuple[tuple[float, float, str], ...]
    """Each point (x, y, what it says, for its ``<title>``)."""
    over: str = ""
    """Where it lies on an earlier line at every point drawn, which it would hide, the key says
    so ("0 every day, as Morale hits": `lies_over`); its dots are drawn smaller, inside the
    other's."""
    dot_r: int = 3


DAY_BY_DAY = "day by day"
"""How often a chart draws a point unless told otherwise (``line_chart``'s ``every``)."""


def lies_over(
    points: list[tuple[int, int]],
    earlier: list[str],
    every: str = DAY_BY_DAY,
    until: int | None = None,
    broken: bool = False,
) -> str:
    """What the key says of a line drawn on top of the lines ``earlier`` (their names), which
    have its ``points`` at every point drawn (``every``, how often: "day by day", "week by
    week"): "0 every day, as Morale hits", else "the same as Morale hits every day"; drawn week
    by week, "0 at every point drawn week by week, as Morale hits", since the days between are
    not drawn. A line that ends before the chart does (``until``, its last day: a destroyed
    unit's hits) says so: "0 every day to day 1, as Morale hits"; a line that breaks off over
    days it has no value (``broken``: a unit destroyed, then revived) says "0 every day it is
    drawn"."""
    names = " and ".join(earlier)
    when = "every day" if every == DAY_BY_DAY else f"at every point drawn {every}"
    if broken and every == DAY_BY_DAY:
        when += " it is drawn"
    elif until is not None:
        when += f" to day {until}"
    values = {v for _, v in points if v is not None}
    if len(values) == 1:
        return f"{values.pop()} {when}, as {names}"
    return f"the same as {names} {when}"


def _ends_before(points: list[tuple[int, int]], days: list[int]) -> int | None:
    """The last day of a line that ends before the chart's last day (None: it does not)."""
    return points[-1][0] if points and points[-1][0] < days[-1] else None


def stretches(points: list[tuple[int, int | None]]) -> list[list[tuple[int, int]]]:
    """A line's points in the stretches drawn each on its own: broken where a point has no
    value (``(day, None)``, `line_chart`)."""
    runs: list[list[tuple[int, int]]] = [[]]
    for day, value in points:
        if value is None:
            runs.append([])
        else:
            runs[-1].append((day, value))
    return [run for run in runs if run]


@dataclass(frozen=True, slots=True)
class LineChart:
    width: int
    height: int
    lines: tuple[Line, ...]
    x_labels: tuple[tuple[float, str], ...]
    y_labels: tuple[tuple[float, str], ...]
    baseline: float
    plot_left: float
    plot_right: float
    x_title: str
    y_title: str
    x_title_at: tuple[float, float]
    """Where the days' title is drawn (x of its end, y of its baseline), under the labels."""
    y_title_at: tuple[float, float]
    """Where the values' title is drawn (x of its start, y of its baseline), above the plot."""


DAY_LABELS_AT_MOST = 12
"""Day labels under a line chart at most."""


def _days_labelled(days: list[int], low: int, high: int, room: float) -> list[int]:
    """The days a line chart labels of the ``days`` it draws (``low`` to ``high`` along its
    axis), each at least ``room`` (a share of the axis) clear of the next, at most
    `DAY_LABELS_AT_MOST`. Drawn every day: from the first day on, and none past the last
    (one day: the axis is one day long, but only that day is labelled). Drawn at intervals
    (week by week, `campaign.charts.days_drawn`): days drawn only, the last and every few
    back from it as the points are taken, and the first, whose gap to the next may be
    shorter, so that where the chart begins and ends is said under it."""
    span = high - low
    if days[-1] - days[0] + 1 == len(days):
        step = max(1, span // 10 + 1, math.ceil(span * room))
        return list(range(low, days[-1] + 1, step))
    gap = days[-1] - days[-2]
    every = max(math.ceil(len(days) / (DAY_LABELS_AT_MOST - 1)), math.ceil(span * room / gap))
    back = [day for day in days[::-1][::every] if (day - days[0]) / span >= room]
    return [days[0], *back[::-1]]


LINE_WIDTH, LINE_HEIGHT, LINE_TOP, NAMED_LEFT = 440, 220, 28, 108
"""A line chart is narrower than the histogram, so that on a phone it shrinks little and its
labels stay readable; with room above the plot for the title of its values' axis, and at the
left for names (quality) instead of numbers."""

AXIS_TITLE_SIZE = 14
"""The axis titles' font size in the chart's pixels (bridgehead.css, ``.line-chart
.axis-title``). The values' title has its baseline that far below the top and a little more,
so that its capitals are drawn whole inside the chart, clear of the top value's label."""

AXIS_DIGIT_WIDTH = 9
"""How wide a digit of an axis label is drawn, in the chart's pixels (a 14 px sans-serif digit
is 8 to 9 px wide), so that the days' labels are spaced clear of each other."""


def line_chart(
    series: list[tuple[str, str, list[tuple[int, int | None]]]],
    *,
    y_title: str,
    x_title: str = "Campaign day",
    y_max: int | None = None,
    y_names: tuple[str, ...] = (),
    every: str = DAY_BY_DAY,
) -> LineChart:
    """Lines of whole-number values over campaign days: ``series`` is (name, colour or "",
    [(day, value)…]); days run along the bottom, values up the side from 0 to ``y_max`` (else
    the largest value), each labelled by ``y_names[value]`` when given (quality names). A point
    ``(day, None)`` is none: the line breaks there, each stretch drawn on its own (a unit's
    hits over days it was destroyed, `campaign.charts.points_drawn`). ``every`` says how often
    the points are (``campaign.charts.every_words``), for the key."""
    runs = [stretches(points) for _, _, points in series]
    valued = [[p for run in line for p in run] for line in runs]
    days = sorted({day for points in valued for day, _ in points}) or [1]
    low, high = days[0], max(days[-1], days[0] + 1)
    top = y_max or max((v for points in valued for _, v in points), default=1) or 1
    # Values up the side every step, at most five labels; the top is the next labelled step,
    # so that the largest value lies on a labelled gridline or under one, never above them all
    # (a force's 5 units drawn over the last label, 4).
    y_step = 1 if y_names else max(1, top // 4 + (top % 4 > 0))
    top = math.ceil(top / y_step) * y_step
    left = NAMED_LEFT if y_names else LEFT
    plot_w = LINE_WIDTH - left - RIGHT
    plot_h = LINE_HEIGHT - LINE_TOP - BOTTOM

    def x(day: int) -> float:
        return round(left + plot_w * (day - low) / (high - low), 2)

    def y(value: int) -> float:
        return round(LINE_TOP + plot_h - plot_h * value / top, 2)

    # A line with the same points as one drawn before it hides that one (a unit's Morale and
    # Casualty hits, both 0 all along): the key says so, and its dots sit inside the other's.
    under = [
        [earlier for earlier, _, seen in series[:i] if seen == points and points]
        for i, (_, _, points) in enumerate(series)
    ]
    lines = tuple(
        Line(
            name=name,
            stretches=tuple(" ".join(f"{x(d)},{y(v)}" for d, v in run) for run in runs[i]),
            css=f"series-{i}",
            colour=colour,
            dots=tuple((x(d), y(v), f"{name}, day {d}: {v}") for d, v in valued[i]),
            over=lies_over(
                valued[i], under[i], every, _ends_before(valued[i], days), len(runs[i]) > 1
            )
            if under[i]
            else "",
            dot_r=2 if under[i] else 3,
        )
        for i, (name, colour, _) in enumerate(series)
    )
    # Each day label clear of the next by a digit and a half however many digits a day has,
    # or a long campaign's "112 149 186" runs together in the narrower plot of the quality
    # chart on a phone.
    room = (len(str(days[-1])) + 1.5) * AXIS_DIGIT_WIDTH
    labelled = _days_labelled(days, low, high, room / plot_w)
    x_labels = tuple((x(d), str(d)) for d in labelled)
    y_labels = tuple(
        (y(v), y_names[v] if v < len(y_names) else str(v)) for v in range(0, top + 1, y_step)
    )
    return LineChart(
        width=LINE_WIDTH,
        height=LINE_HEIGHT,
        lines=lines,
        x_labels=x_labels,
        y_labels=y_labels,
        baseline=LINE_TOP + plot_h,
        plot_left=left,
        plot_right=LINE_WIDTH - RIGHT,
        x_title=x_title,
        y_title=y_title,
        x_title_at=(LINE_WIDTH - RIGHT, LINE_HEIGHT - 4),
        y_title_at=(4, AXIS_TITLE_SIZE + 2),
    )
