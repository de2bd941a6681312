"""The charts on the unit page and the dashboard: drawn on the server from the history, each
line where its series puts it, the forces in their colours, with a title, a description and
the numbers as a table; a force shown only in summary is not charted for others."""

from __future__ import annotations

import re
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles.charts import line_chart
from campaign.charts import unit_series
from campaign.models import Campaign, HistoryEntry
from campaign.services import calendar_advance, unit_edit
from tests.web.campaign_world import login
from tests.web.paging import add_notes

pytestmark = pytest.mark.django_db


def _url(name, world, *args):
    return reverse(f"campaign:{name}", args=[world.campaign.pk, *args])


def _lines(page: str, chart_id: str) -> dict[str, tuple[str, ...]]:
    """Each line of a chart by its name: its stretches' points, as ``Line.stretches``."""
    svg = page.split(f'aria-labelledby="{chart_id}-title', 1)[1].split("</svg>", 1)[0]
    return {
        name: tuple(re.findall(r'<polyline points="([^"]+)"', drawn))
        for name, drawn in re.findall(r'data-series="([^"]+)">(.*?)</g>', svg)
    }


def test_the_unit_page_charts_its_quality_experience_and_hits_by_day(client, world):
    gm = world.users["gm"]
    # Elite with no Casualty hits, so that 4 points are not yet a step up and no hit dies at
    # the Advance (the world's battle may have cost it quality and left hits: its dice follow
    # the rows' ids).
    changes = {"quality": "elite", "experience": 4, "casualty_hits": 0}
    unit_edit(unit=world.unit, changes=changes, reason="drill", actor=gm)
    calendar_advance(campaign=world.campaign, days=2, actor=gm)
    unit_edit(unit=world.unit, changes={"morale_hits": 2}, reason="ambush", actor=gm)
    page = login(client, world, "player").get(_url("unit", world, world.unit.pk)).text
    entries = HistoryEntry.objects.filter(unit=world.unit).order_by("id")
    series = unit_series([(e.day, e.after) for e in entries], today=3)
    assert series["experience"][-1] == (3, 4) and series["morale_hits"][-1] == (3, 2)
    quality = line_chart([("Quality", "", series["quality"])], y_title="", y_max=6,
                         y_names=tuple("x" * 7))  # fmt: skip
    assert _lines(page, "quality-chart") == {"Quality": quality.lines[0].stretches}
    counts = line_chart(
        [(name, "", series[key]) for key, name in (
            ("experience", "Experience"), ("morale_hits", "Morale hits"),
            ("casualty_hits", "Casualty hits"))],
        y_title="",
    )  # fmt: skip
    assert _lines(page, "counts-chart") == {line.name: line.stretches for line in counts.lines}
    assert "Squad 1&#x27;s quality, day by day</title>" in page
    assert "Squad 1&#x27;s experience and hits, day by day</title>" in page
    assert "Day 1 to day 3: the unit&#x27;s quality at the end of each day." in page
    # The text alternative: one row a day, quality by name.
    table = page.split("The numbers, day by day", 1)[1].split("</table>", 1)[0]
    day = r'<th scope="row"><span class="stack-only">Day </span>'
    assert len(re.findall(day + r"\d+</th>", table)) == 3
    assert re.search(
        day + r'3</th><td data-label="Quality">[A-Z][a-z]+</td>'
        r'<td data-label="Experience">4</td><td data-label="Morale hits">2</td>',
        table,
    )


def test_the_dashboard_charts_each_forces_strength_in_its_colour(client, world):
    gm = world.users["gm"]
    unit_edit(unit=world.unit, changes={"status": "destroyed"}, reason="shelled", actor=gm)
    calendar_advance(campaign=world.campaign, days=1, actor=gm)
    page = login(client, world, "gm").get(_url("dashboard", world)).text
    svg = page.split('aria-labelledby="strength-chart-title', 1)[1].split("</svg>", 1)[0]
    assert 'style="stroke: #b3261e; fill: #b3261e" data-series="Red Company"' in svg
    assert 'style="stroke: #1f5fa8; fill: #1f5fa8" data-series="Blue Battalion"' in svg
    assert "<title>Red Company, day 2:" in svg
    assert "Units fit to fight, day by day</title>" in page and ">Campaign day</text>" in svg
    ready_now = world.force.units.filter(status="ready").count()
    assert f"<title>Red Company, day 2: {ready_now}</title>" in svg


def test_a_force_shown_in_summary_is_not_charted_for_other_players(client, world):
    Campaign.objects.filter(pk=world.campaign.pk).update(other_forces_visible="summary")
    page = login(client, world, "player").get(_url("dashboard", world)).text
    drawn = _lines(page, "strength-chart")
    assert set(drawn) == {"Red Company"}


def test_the_strength_chart_is_kept_between_visits_and_redrawn_when_a_unit_changes(client, world):
    gm = world.users["gm"]
    unit_edit(unit=world.unit, changes={"status": "ready"}, reason="fresh", actor=gm)
    login(client, world, "gm")
    url = _url("dashboard", world)
    first = _lines(client.get(url).text, "strength-chart")
    with mock.patch("campaign.pages.charts.strength_chart", side_effect=AssertionError) as drawn:
        assert _lines(client.get(url).text, "strength-chart") == first  # kept: not worked out
    assert not drawn.called
    ready = world.force.units.filter(status="ready").count()
    unit_edit(unit=world.unit, changes={"status": "destroyed"}, reason="shelled", actor=gm)
    page = client.get(url).text
    assert f"<title>Red Company, day 1: {ready - 1}</title>" in page
    calendar_advance(campaign=world.campaign, days=1, actor=gm)  # a day more, and R&R
    ready = world.force.units.filter(status="ready").count()
    assert f"<title>Red Company, day 2: {ready}</title>" in client.get(url).text
    # A force renamed is charted under its new name.
    world.force.name = "Crimson Company"
    world.force.save()
    assert "Crimson Company" in _lines(client.get(url).text, "strength-chart")


def test_a_line_lying_on_another_every_day_is_told_apart_in_the_key(client, world):
    gm = world.users["gm"]
    unit_edit(unit=world.unit, changes={"experience": 2, "morale_hits": 0, "casualty_hits": 0},
              reason="drill", actor=gm)  # fmt: skip
    calendar_advance(campaign=world.campaign, days=1, actor=gm)
    page = login(client, world, "player").get(_url("unit", world, world.unit.pk)).text
    lines = _lines(page, "counts-chart")
    # Morale and Casualty hits, both 0 every day: drawn one over the other, the key says so.
    assert lines["Morale hits"] == lines["Casualty hits"]
    key = page.split('aria-labelledby="counts-chart-title', 1)[1].split("</figcaption>", 1)[0]
    key = key.split('<ul class="chart-key">', 1)[1]
    assert (
        'Casualty hits <span class="small">(0 every day, as Morale hits: one line over '
        "the other)</span>" in key
    )
    assert "Morale hits</li>" in key and "Experience</li>" in key
    # Its dots sit inside the other's, which stay in sight around them.
    svg = page.split('data-series="Casualty hits">', 1)[1].split("</g>", 1)[0]
    assert 'r="2"' in svg and 'r="3"' not in svg


def _strength_drawn(client, world, days: int) -> tuple[str, int, int]:
    """The dashboard's strength chart with the campaign at ``days``: its figure, and how many
    queries and characters the page took."""
    Campaign.objects.filter(pk=world.campaign.pk).update(day=days)
    add_notes(world.unit, list(range(1, days + 1)))  # a line a day in its history
    with CaptureQueriesContext(connection) as queries:
        page = client.get(_url("dashboard", world)).text
    figure = page.split('aria-labelledby="strength-chart-title"', 1)[1].split("</figure>", 1)[0]
    return figure, len(queries), len(page)


def test_a_long_campaigns_strength_chart_is_drawn_week_by_week_in_a_bounded_page(client, world):
    login(client, world, "gm").get(_url("dashboard", world))  # its first visit read apart
    figure, queries, size = _strength_drawn(client, world, 40)
    assert "Units fit to fight, day by day</title>" in figure
    assert len(re.findall(r"<title>Red Company, day \d+:", figure)) == 40
    # A year: day 1, then every 7th day back from today, the chart and its table alike.
    year, year_queries, year_size = _strength_drawn(client, world, 365)
    assert "Units fit to fight, week by week</title>" in year
    assert "Day 1 to day 365: units fit to fight" in year
    assert "at the end of day 1, then of day 8 and every 7 days after, for " in year
    drawn = [int(d) for d in re.findall(r"<title>Red Company, day (\d+):", year)]
    assert drawn[:3] == [1, 8, 15] and drawn[-1] == 365 and len(drawn) == 53
    assert "<summary>The numbers, week by week</summary>" in year
    assert len(re.findall(r'<th scope="row"><span class="stack-only">Day', year)) == 53
    # Two years: every two weeks, still a few dozen points, and no more queries.
    two, two_queries, two_size = _strength_drawn(client, world, 730)
    assert "every 2 weeks" in two and len(re.findall(r"<title>Red Company, day", two)) <= 61
    assert year_queries == two_queries == queries
    assert two_size < size * 1.5 and two_size < year_size * 1.2


def _unit_drawn(client, world, days: int) -> tuple[str, int, int]:
    """The unit page's charts with the campaign at ``days`` and the unit's experience changed
    every day: its section, and how many queries and characters the page took."""
    Campaign.objects.filter(pk=world.campaign.pk).update(day=days)
    HistoryEntry.objects.bulk_create(
        HistoryEntry(unit=world.unit, day=day, kind=HistoryEntry.Kind.GM_EDIT, text="drill",
                     before={}, after={"experience": day % 5})
        for day in range(1, days + 1)
    )  # fmt: skip
    with CaptureQueriesContext(connection) as queries:
        page = client.get(_url("unit", world, world.unit.pk)).text
    charts = page.split('<section aria-labelledby="chart-h">', 1)[1].split("</section>", 1)[0]
    return charts, len(queries), len(page)


def test_a_long_campaigns_unit_charts_are_drawn_week_by_week_in_a_bounded_page(client, world):
    gm = world.users["gm"]
    unit_edit(unit=world.unit, changes={"morale_hits": 0, "casualty_hits": 0}, reason="rest",
              actor=gm)  # fmt: skip
    login(client, world, "player").get(_url("unit", world, world.unit.pk))
    charts, queries, size = _unit_drawn(client, world, 40)
    assert "Squad 1&#x27;s quality, day by day</title>" in charts
    assert "Squad 1&#x27;s experience and hits, day by day</title>" in charts
    assert len(re.findall(r"<title>Experience, day \d+:", charts)) == 40
    assert "(0 every day, as Morale hits: one line over the other)" in charts
    # A year: its first day, then every 7th day back from today, the charts and table alike.
    year, year_queries, year_size = _unit_drawn(client, world, 365)
    assert "Squad 1&#x27;s quality, week by week</title>" in year
    assert "Squad 1&#x27;s experience and hits, week by week</title>" in year
    assert "to day 365: the unit&#x27;s quality at the end of day 1, then of day 8 and" in year
    for series in ("Quality", "Experience", "Morale hits", "Casualty hits"):
        drawn = [int(d) for d in re.findall(rf"<title>{series}, day (\d+):", year)]
        assert drawn[:3] == [1, 8, 15] and drawn[-1] == 365 and len(drawn) == 53
    assert "<summary>The numbers, week by week</summary>" in year
    assert len(re.findall(r'<th scope="row"><span class="stack-only">Day', year)) == 53
    # Two years: every two weeks, still a few dozen points, and no more queries.
    two, two_queries, two_size = _unit_drawn(client, world, 730)
    assert "quality, every 2 weeks</title>" in two
    assert len(re.findall(r"<title>Experience, day", two)) <= 61
    assert year_queries == two_queries == queries
    assert year_size < size * 1.6 and two_size < year_size * 1.2


def test_a_line_lying_on_another_at_every_weekly_point_says_so_in_the_key(client, world):
    gm = world.users["gm"]
    unit_edit(unit=world.unit, changes={"morale_hits": 0, "casualty_hits": 0}, reason="rest",
              actor=gm)  # fmt: skip
    login(client, world, "player")
    charts, _, _ = _unit_drawn(client, world, 365)
    key = charts.split('aria-labelledby="counts-chart-title', 1)[1].split("</figcaption>", 1)[0]
    # Only every 7th day is drawn: the key says the lines meet at each point drawn, not that
    # the hits were 0 every day of the year.
    assert (
        'Casualty hits <span class="small">(0 at every point drawn week by week, as Morale '
        "hits: one line over the other)</span>" in key
    )
    assert "every day" not in charts


def test_a_revived_units_hit_lines_break_off_over_the_days_it_was_destroyed(client, world):
    gm = world.users["gm"]
    unit_edit(unit=world.unit, changes={"morale_hits": 1, "casualty_hits": 0}, reason="ambush",
              actor=gm)  # fmt: skip
    calendar_advance(campaign=world.campaign, days=1, actor=gm)
    unit_edit(unit=world.unit, changes={"status": "destroyed"}, reason="shelled", actor=gm)
    calendar_advance(campaign=world.campaign, days=2, actor=gm)
    # Destroyed on day 2; on day 4 a GM's correction brings it back; today is day 5.
    unit_edit(unit=world.unit, changes={"status": "ready", "morale_hits": 0, "casualty_hits": 0},
              reason="it was never hit", actor=gm)  # fmt: skip
    calendar_advance(campaign=world.campaign, days=1, actor=gm)
    page = login(client, world, "player").get(_url("unit", world, world.unit.pk)).text
    lines = _lines(page, "counts-chart")
    # Each hit line: day 1 on its own, then days 4 and 5, not joined across days 2 and 3;
    # experience, which it kept all along, one line over every day.
    for name in ("Morale hits", "Casualty hits"):
        assert [len(run.split()) for run in lines[name]] == [1, 2], name
        assert re.findall(rf"<title>{name}, day (\d+):", page) == ["1", "4", "5"]
    assert [len(run.split()) for run in lines["Experience"]] == [5]
    assert "its hits break off over the days it was destroyed" in page
    # Its table: "—" on the days it ended destroyed, numbers on either side.
    table = page.split("The numbers, day by day", 1)[1].split("</table>", 1)[0]
    cells = re.findall(r'<td data-label="Morale hits">([^<]+)</td>', table)
    assert cells == ["1", "—", "—", "0", "0"]


def test_the_strength_and_unit_charts_go_week_by_week_back_from_today_alike(client, world):
    # Day 366: a week back from today at a time reaches day 2, a day from the campaign's first;
    # both charts draw days 1 and 2, then every 7th day to today, and say so, their day labels
    # under days drawn, the first and today's among them.
    login(client, world, "gm").get(_url("dashboard", world))
    strength, _, _ = _strength_drawn(client, world, 366)
    unit, _, _ = _unit_drawn(client, world, 366)
    expected = [1, *range(2, 367, 7)]
    for figure, series in ((strength, "Red Company"), (unit, "Quality"), (unit, "Experience")):
        drawn = [int(d) for d in re.findall(rf"<title>{series}, day (\d+):", figure)]
        assert drawn == expected, series
        assert "at the end of day 1, then of day 2 and every 7 days after" in figure
    for figure, chart_id in ((strength, "strength-chart"), (unit, "quality-chart"),
                             (unit, "counts-chart")):  # fmt: skip
        svg = figure.split(f'aria-labelledby="{chart_id}-title', 1)[1].split("</svg>", 1)[0]
        labels = [int(d) for d in re.findall(r'text-anchor="middle">(\d+)</text>', svg)]
        assert labels[0] == 1 and labels[-1] == 366 and set(labels) <= set(expected), chart_id
