"""The series the campaign's charts draw, day by day, built from the units' history.

Pure: each takes history entries as plain ``(day, after)`` data (oldest first) and returns the
value at the end of each campaign day, so a chart has one point a day from the first day
drawn to today. A unit's first entry is its whole snapshot; each later entry's ``after`` holds
only what it changed (``campaign.rules.state.snapshot_replay``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from battles.charts import DAY_BY_DAY
from campaign.rules.state import Status, quality_from_name

UNIT_SERIES = ("quality", "experience", "morale_hits", "casualty_hits")
"""What a unit's chart follows, in the order it is drawn."""
UNIT_HITS = UNIT_SERIES[2:]
"""The series of its hits, which end where it was destroyed (`unit_series`)."""
UNIT_CHART_FIELDS = (*UNIT_SERIES, "status")
"""What a unit's charts read of its history: what they follow, and its status."""

CHART_DAYS_AT_MOST = 60
"""Days a chart over the whole campaign draws a point for, and its table a row. A longer
campaign is drawn week by week (every two weeks past 420 days, and so on), so a year's chart
stays a few dozen points, readable on a phone and small to send."""


def days_drawn(first: int, today: int) -> tuple[list[int], int]:
    """The days from ``first`` to ``today`` a chart draws, and how many days apart: every day
    up to `CHART_DAYS_AT_MOST`, else ``first``, then every 7th day (or 14th…) back from
    ``today``, so the latest point is always today's and every gap a week (two weeks…) but
    the first, which may be shorter (`end_of_words` says it, the chart labels its days)."""
    span = today - first + 1
    if span <= CHART_DAYS_AT_MOST:
        return list(range(first, today + 1)), 1
    step = 7 * -(-span // (7 * CHART_DAYS_AT_MOST))
    days = list(range(today, first, -step))[::-1]
    return [first, *days], step


def every_words(step: int) -> str:
    """How often a chart is drawn (`days_drawn`), in words: "day by day", "week by week",
    "every 2 weeks"."""
    if step == 1:
        return DAY_BY_DAY
    return "week by week" if step == 7 else f"every {step // 7} weeks"


def end_of_words(days: list[int], step: int) -> str:
    """Which of the ``days`` a chart draws its points are taken at the end of (`days_drawn`),
    in words: "each day", else "day 1, then of day 9 and every 7 days after", the first gap,
    which may be shorter than the rest, said as it is."""
    if step == 1 or len(days) < 2:
        return "each day"
    return f"day {days[0]}, then of day {days[1]} and every {step} days after"


def points_drawn(
    points: list[tuple[int, int]], drawn: Iterable[int]
) -> list[tuple[int, int | None]]:
    """A day-by-day series' points on the days a chart draws (`days_drawn`), with a break,
    ``(day, None)``, wherever it has no point for some days between two it has (a unit's hits
    over the days it was destroyed, when a GM's correction revived it: `unit_series`), so that
    each stretch is drawn on its own rather than joined across days it was not there
    (``battles.charts.line_chart``). A stretch that falls between two days drawn has no point,
    but still breaks the line."""
    kept = set(drawn)
    found: list[tuple[int, int | None]] = []
    last = None
    for day, value in points:
        if last is not None and day > last + 1 and found and found[-1][1] is not None:
            found.append((last + 1, None))
        if day in kept:
            found.append((day, value))
        last = day
    return found


def _end_of_day_states(
    entries: Iterable[tuple[int, Mapping[str, Any]]], first_day: int, today: int
) -> list[tuple[int, dict[str, Any]]]:
    """(day, the unit's snapshot at the end of that day), for every day first_day..today."""
    by_day: dict[int, list[Mapping[str, Any]]] = {}
    for day, after in entries:
        by_day.setdefault(max(day, first_day), []).append(after)
    state: dict[str, Any] = {}
    days = []
    for day in range(first_day, today + 1):
        for after in by_day.get(day, []):
            state.update(after)
        days.append((day, dict(state)))
    return days


def unit_series(
    entries: Iterable[tuple[int, Mapping[str, Any]]], today: int
) -> dict[str, list[tuple[int, int]]]:
    """Quality (0 Raw … 6 Legendary), experience and hits at the end of each day, from the
    unit's first day to ``today``. A unit destroyed utterly has no hits left to heal, whatever
    it carried as it fell (its page shows "—"): its hits have no point on a day that ends with
    it destroyed, so their lines end the day before it fell, and break off over the days it
    was destroyed should a GM's correction revive it (`points_drawn`)."""
    entries = list(entries)
    if not entries:
        return {name: [] for name in UNIT_SERIES}
    first = min(day for day, _ in entries)
    days = _end_of_day_states(entries, first, max(today, first))
    series: dict[str, list[tuple[int, int]]] = {name: [] for name in UNIT_SERIES}
    for day, state in days:
        series["quality"].append((day, int(quality_from_name(state["quality"]))))
        series["experience"].append((day, int(state.get("experience") or 0)))
        if state.get("status") != Status.DESTROYED:
            for name in UNIT_HITS:
                series[name].append((day, int(state.get(name) or 0)))
    return series


def force_strength_series(
    entries: Iterable[tuple[int, int, Mapping[str, Any]]], today: int, first_day: int = 1
) -> list[tuple[int, int]]:
    """Units fit to fight (neither retreated nor destroyed) at the end of each day, for one
    force, from ``(unit id, day, after)`` entries of its units."""
    per_unit: dict[int, list[tuple[int, Mapping[str, Any]]]] = {}
    for unit_id, day, after in entries:
        per_unit.setdefault(unit_id, []).append((day, after))
    counts = dict.fromkeys(range(first_day, today + 1), 0)
    for unit_entries in per_unit.values():
        for day, state in _end_of_day_states(unit_entries, first_day, today):
            if state.get("status") == Status.READY:
                counts[day] += 1
    return list(counts.items())
