"""The charts of a unit's hits and a force's strength, day by day."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from django.db.models.fields.json import KT
from django.template.loader import render_to_string

from battles.charts import line_chart
from campaign.charts import (
    UNIT_HITS,
    UNIT_SERIES,
    days_drawn,
    end_of_words,
    every_words,
    force_strength_series,
    points_drawn,
    unit_series,
)
from campaign.models import Campaign, Force, HistoryEntry
from campaign.pages.forces import ForceSummary
from config.pagecache import kept_value
from units.bucs import Quality

UNIT_SERIES_NAMES = {
    "quality": "Quality",
    "experience": "Experience",
    "morale_hits": "Morale hits",
    "casualty_hits": "Casualty hits",
}
DESTROYED_HITS = "—"
"""A destroyed unit's hits in its chart's table, as its page and roster show them: it has none
left to heal (`charts.unit_series`)."""
ENDS_DESTROYED = "; its hits end the day before it was destroyed, when it had none left to heal"
"""What a unit's chart of its hits says of the days it ends with destroyed."""
BREAKS_DESTROYED = "; its hits break off over the days it was destroyed, when it had none to heal"
"""What a unit's chart of its hits says of days it was destroyed before a GM's correction
revived it: its lines break off there (`charts.points_drawn`)."""


def unit_charts(history: list[tuple[int, dict[str, Any]]], today: int) -> dict[str, Any]:
    """The unit page's two charts over campaign days, from its history as ``(day, after)``
    (`unit_chart_entries`): its quality, step by step (Raw at the foot, Legendary at the top),
    and its experience and hits; and their numbers as a table. A unit of a long campaign is
    drawn week by week (`days_drawn`), as the campaign page's strength chart is."""
    daily = unit_series(history, today)
    days = [day for day, _ in daily["quality"]]
    span = f"Day {days[0]} to day {days[-1]}" if days else "No days yet"
    step = 1
    drawn = days
    if days:
        drawn, step = days_drawn(days[0], days[-1])
    series = {name: points_drawn(points, drawn) for name, points in daily.items()}
    every = every_words(step)
    which = end_of_words(drawn, step)
    # A day without a point of its hits ended with it destroyed: "—", as its page says them.
    by_day = {name: {d: v for d, v in points if v is not None} for name, points in series.items()}
    lived = [day for day, _ in daily[UNIT_HITS[0]]]
    ended = len(lived) < len(days)
    broken = any(b - a > 1 for a, b in pairwise(lived))
    rows = [
        (day, [Quality(q).label, *(by_day[n].get(day, DESTROYED_HITS) for n in UNIT_SERIES[1:])])
        for day, q in series["quality"]
    ]
    quality = line_chart(
        [(UNIT_SERIES_NAMES["quality"], "", series["quality"])],
        y_title="Quality",
        y_max=max(Quality),
        y_names=tuple(q.label for q in Quality),
        every=every,
    )
    counts = line_chart(
        [(UNIT_SERIES_NAMES[n], "", series[n]) for n in UNIT_SERIES[1:]],
        y_title="Points and hits",
        every=every,
    )
    return {
        "quality": quality,
        "quality_desc": f"{span}: the unit's quality at the end of {which}.",
        "counts": counts,
        "counts_desc": f"{span}: experience points, Morale hits and Casualty hits at the end "
        f"of {which}{BREAKS_DESTROYED if broken else ENDS_DESTROYED if ended else ''}.",
        "table": numbers_by_day([UNIT_SERIES_NAMES[n] for n in UNIT_SERIES], rows),
        "every": every,
    }


def numbers_by_day(
    heads: list[str], rows: list[tuple[int, list[Any]]]
) -> tuple[list[str], list[tuple[int, list[tuple[str, Any]]]]]:
    """A chart's numbers for its table (``_line_chart.html``): the column heads, and each day's
    figures each with its column's head, which a phone shows beside it (``table.stack``)."""
    return heads, [(day, list(zip(heads, cells, strict=True))) for day, cells in rows]


def force_strength_chart(campaign: Campaign, summaries: list[ForceSummary]) -> str:
    """The campaign page's chart, drawn: each force's units fit to fight (neither retreated nor
    destroyed) at the end of each campaign day, in the force's colour, and its numbers."""
    # Drawn once per state of what it charts, not on every visit (45 forces of 100 units cost
    # 30-60 ms a visit). A history entry is written with a save of its unit
    # (``campaign.services._record``), and entries go only with their unit, so each force's
    # count of units and sum of their version tokens change with anything the chart shows; the
    # day, the forces' names and their colours (which forces it does not draw may change)
    # name the rest.
    forces = [s.force for s in summaries]
    parts = (campaign.pk, campaign.day, [(s.force.pk, s.force.name, s.units, s.version, s.colour)
                                         for s in summaries])  # fmt: skip

    def draw() -> str:
        chart = strength_chart(campaign.day, forces, {s.force.pk: s.colour for s in summaries})
        return render_to_string(
            "campaign/_line_chart.html",
            {
                **chart,
                "chart_id": "strength-chart",
                "chart_title": f"Units fit to fight, {chart['chart_every']}",
            },
        )

    return kept_value("strength-chart", parts, draw)


def strength_chart(today: int, forces: list[Force], colours: dict[int, str]) -> dict[str, Any]:
    # Only the status counts here: the database reads it out of each snapshot, rather than
    # every whole snapshot of the campaign's history crossing over to be parsed (4x faster at
    # 4,500 entries).
    rows = (
        HistoryEntry.objects.filter(unit__force__in=forces)
        .order_by("id")
        .annotate(status=KT("after__status"))
        .values_list("unit_id", "unit__force_id", "day", "status")
    )
    per_force: dict[int, list[tuple[int, int, Any]]] = {f.pk: [] for f in forces}
    for unit_id, force_id, day, status in rows:
        per_force[force_id].append((unit_id, day, {} if status is None else {"status": status}))
    # A long campaign is drawn week by week (`days_drawn`), its table too: a year of days
    # would be hundreds of points a force, too many to read on a phone or to send.
    days, step = days_drawn(1, today)
    series = [
        (
            f.name,
            colours[f.pk],
            points_drawn(force_strength_series(per_force[f.pk], today), days),
        )
        for f in forces
    ]
    every = every_words(step)
    return {
        "chart": line_chart(series, y_title="Units fit to fight", every=every),
        "chart_table": numbers_by_day(
            [f.name for f in forces],
            [(day, [points[i][1] for _, _, points in series]) for i, day in enumerate(days)],
        ),
        "chart_every": every,
        "chart_desc": f"Day 1 to day {today}: units fit to fight (neither retreated nor "
        f"destroyed) at the end of {end_of_words(days, step)}, for "
        + ", ".join(f.name for f in forces)
        + ".",
    }
