"""The campaign's charts: the series built from history (exact values, day by day) and the
line chart's geometry (the points it draws)."""

from __future__ import annotations

import re
from itertools import pairwise

from django.conf import settings
from django.template.loader import render_to_string

from battles.charts import BOTTOM, LEFT, LINE_HEIGHT, LINE_TOP, LINE_WIDTH, RIGHT, line_chart
from campaign.charts import (
    days_drawn,
    end_of_words,
    force_strength_series,
    points_drawn,
    unit_series,
)

RAISED = {
    "quality": "average", "experience": 0, "morale_hits": 0, "casualty_hits": 0,
    "status": "ready",
}  # fmt: skip


def test_a_units_series_holds_its_state_at_the_end_of_each_day():
    entries = [
        (1, RAISED),
        (2, {"morale_hits": 2, "casualty_hits": 1, "experience": 1}),
        (2, {"casualty_hits": 0, "quality": "inexperienced"}),  # the same day: the last counts
        (4, {"morale_hits": 1, "experience": 3, "quality": "average"}),
    ]
    series = unit_series(entries, today=5)
    assert series["quality"] == [(1, 3), (2, 2), (3, 2), (4, 3), (5, 3)]
    assert series["experience"] == [(1, 0), (2, 1), (3, 1), (4, 3), (5, 3)]
    assert series["morale_hits"] == [(1, 0), (2, 2), (3, 2), (4, 1), (5, 1)]
    assert series["casualty_hits"] == [(1, 0), (2, 0), (3, 0), (4, 0), (5, 0)]
    assert unit_series([], today=3) == {
        "quality": [], "experience": [], "morale_hits": [], "casualty_hits": []
    }  # fmt: skip


def test_a_destroyed_units_hits_end_the_day_before_it_fell():
    # Destroyed on day 3 with the hits it fell with: it has none left to heal, so its hits have
    # no point from that day on, while its quality and experience are drawn to today.
    entries = [
        (1, RAISED),
        (2, {"morale_hits": 1, "casualty_hits": 1}),
        (3, {"morale_hits": 2, "casualty_hits": 2, "status": "destroyed"}),
    ]
    series = unit_series(entries, today=5)
    assert series["morale_hits"] == [(1, 0), (2, 1)]
    assert series["casualty_hits"] == [(1, 0), (2, 1)]
    assert series["experience"] == [(day, 0) for day in range(1, 6)]
    assert [day for day, _ in series["quality"]] == [1, 2, 3, 4, 5]


def test_a_forces_strength_counts_its_units_fit_to_fight_each_day():
    entries = [
        (1, 1, RAISED),
        (2, 1, RAISED),
        (3, 2, RAISED),  # raised on day 2
        (1, 2, {"status": "retreated"}),
        (1, 3, {"status": "ready"}),  # rallied
        (2, 3, {"status": "destroyed"}),
    ]
    assert force_strength_series(entries, today=4) == [(1, 2), (2, 2), (3, 2), (4, 2)]
    assert force_strength_series(entries[:4], today=2) == [(1, 2), (2, 2)]
    assert force_strength_series([], today=2) == [(1, 0), (2, 0)]


def test_the_line_chart_draws_each_point_on_its_day_and_value():
    chart = line_chart(
        [("Blue Battalion", "#1f5fa8", [(1, 0), (2, 4), (3, 2)]), ("Red", "", [(1, 4), (3, 4)])],
        y_title="Units fit to fight",
    )
    blue, red = chart.lines
    # The plot runs from x 44 to 428 (days 1..3) and from y 180 (0) up to 28 (4, the most).
    assert (LEFT, LINE_WIDTH - RIGHT, LINE_TOP, LINE_HEIGHT - BOTTOM) == (44, 428, 28, 180)
    assert blue.stretches == ("44.0,180.0 236.0,28.0 428.0,104.0",)
    assert red.stretches == ("44.0,28.0 428.0,28.0",)
    assert blue.colour == "#1f5fa8" and red.css == "series-1"
    assert [d[2] for d in red.dots] == ["Red, day 1: 4", "Red, day 3: 4"]
    assert [text for _, text in chart.x_labels] == ["1", "2", "3"]
    assert [text for _, text in chart.y_labels] == ["0", "1", "2", "3", "4"]
    assert [t for _, t in line_chart([("A", "", [(1, 2)])], y_title="").x_labels] == ["1"]
    assert chart.x_title == "Campaign day" and chart.y_title == "Units fit to fight"


def test_the_largest_value_lies_on_a_labelled_gridline_or_under_one():
    # 5 units counted up the side by twos: the top is 6, labelled, and 5 lies under it,
    # not drawn over the last label (4) with no gridline to read it by.
    chart = line_chart([("Red", "", [(1, 5), (2, 4)])], y_title="Units fit to fight")
    assert [text for _, text in chart.y_labels] == ["0", "2", "4", "6"]
    top_label = min(y for y, _ in chart.y_labels)
    assert top_label == LINE_TOP
    assert all(y >= top_label for dot in chart.lines[0].dots for y in [dot[1]])
    labels = [t for _, t in line_chart([("A", "", [(1, 13)])], y_title="").y_labels]
    assert labels == ["0", "4", "8", "12", "16"]


def test_a_quality_chart_names_its_steps_and_runs_from_raw_to_legendary():
    chart = line_chart([("Quality", "", [(1, 3), (2, 2)])], y_title="Quality", y_max=6,
                       y_names=("Raw", "Green", "Inexperienced", "Average", "Experienced",
                                "Elite", "Legendary"))  # fmt: skip
    assert [text for _, text in chart.y_labels] == [
        "Raw", "Green", "Inexperienced", "Average", "Experienced", "Elite", "Legendary"
    ]  # fmt: skip
    assert chart.plot_left == 108  # room for the names
    # Average (3 of 6) halfway up the 152 px plot: 180 - 76.
    assert chart.lines[0].stretches == ("108.0,104.0 428.0,129.33",)


def test_the_axis_titles_are_drawn_whole_inside_the_chart():
    # Drawn as the dashboard draws it; each title's capitals (a font size above its baseline,
    # at the stylesheet's size) and descenders (a quarter of it below) lie inside the viewBox,
    # and the values' title clears the top value's label.
    css = (settings.BASE_DIR / "campaign/static/bridgehead/bridgehead.css").read_text()
    size = float(re.search(r"\.line-chart \.axis-title \{ font-size: (\d+)px", css)[1])
    chart = line_chart([("Red", "", [(1, 4), (2, 3)])], y_title="Units fit to fight")
    svg = render_to_string("campaign/_line_chart.html", {"chart": chart, "chart_id": "c"})
    _, _, width, height = map(float, re.search(r'viewBox="([\d. ]+)"', svg)[1].split())
    titles = {
        text: (float(x), float(y))
        for x, y, text in re.findall(
            r'<text class="axis-title" x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]+)</text>', svg
        )
    }
    assert set(titles) == {"Units fit to fight", "Campaign day"}
    for x, y in titles.values():
        assert 0 <= x <= width and size <= y and y + size / 4 <= height
    top_label = min(y for y, _ in chart.y_labels)
    assert titles["Units fit to fight"][1] + size / 4 <= top_label - size / 2


def test_a_long_campaigns_day_labels_stay_clear_of_each_other():
    names = ("Raw", "Green", "Inexperienced", "Average", "Experienced", "Elite", "Legendary")
    for last in (365, 730, 1500):
        points = [(1, 3), *((day, 3) for day in range(last % 7 or 7, last + 1, 7))]
        for chart in (
            line_chart([("Quality", "", points)], y_title="Quality", y_max=6, y_names=names),
            line_chart([("Experience", "", points)], y_title="Points and hits"),
        ):
            at = [x for x, _ in chart.x_labels]
            # Each label is as wide as its digits (about 9 px each at 14 px): a digit's width
            # at least between one and the next, the quality chart's narrower plot too.
            digits = len(str(last))
            assert min(b - a for a, b in pairwise(at)) >= (digits + 1) * 9
            assert 5 <= len(at) <= 12
    # A short campaign's labels are as they were: every 4th day of 40.
    forty = line_chart([("Quality", "", [(d, 3) for d in range(1, 41)])], y_title="",
                       y_max=6, y_names=names)  # fmt: skip
    assert [t for _, t in forty.x_labels] == [str(d) for d in range(1, 41, 4)]


def test_a_revived_units_hits_break_off_over_the_days_it_was_destroyed():
    # Destroyed on day 3, revived by a GM's correction on day 5: its hits have no point on days
    # 3 and 4, and each stretch it lived is drawn on its own, not joined across them.
    entries = [
        (1, RAISED),
        (2, {"morale_hits": 1}),
        (3, {"status": "destroyed"}),
        (5, {"status": "ready", "morale_hits": 0}),
    ]
    series = unit_series(entries, today=6)
    assert series["morale_hits"] == [(1, 0), (2, 1), (5, 0), (6, 0)]
    drawn = points_drawn(series["morale_hits"], range(1, 7))
    assert drawn == [(1, 0), (2, 1), (3, None), (5, 0), (6, 0)]
    chart = line_chart([("Morale hits", "", drawn)], y_title="")
    (line,) = chart.lines
    assert len(line.stretches) == 2
    assert [len(run.split()) for run in line.stretches] == [2, 2]
    assert [text for _, _, text in line.dots] == [
        "Morale hits, day 1: 0", "Morale hits, day 2: 1", "Morale hits, day 5: 0",
        "Morale hits, day 6: 0",
    ]  # fmt: skip
    # Drawn only on days 2 and 6 (a long campaign's weeks), its one day destroyed, day 3, lies
    # between two points drawn: the line still breaks there.
    entries[3] = (4, {"status": "ready", "morale_hits": 0})
    series = unit_series(entries, today=6)
    assert points_drawn(series["morale_hits"], [2, 6]) == [(2, 1), (3, None), (6, 0)]
    # Both its hits 0 on every day drawn, broken alike: the key says so of the days drawn.
    both = [(1, 0), (2, None), (4, 0)]
    chart = line_chart([("Morale hits", "", both), ("Casualty hits", "", both)], y_title="")
    assert chart.lines[1].over == "0 every day it is drawn, as Morale hits"
    # A unit never destroyed, or destroyed for good, has no break.
    assert points_drawn([(1, 0), (2, 1)], [1, 2, 3]) == [(1, 0), (2, 1)]


def test_a_chart_drawn_week_by_week_keeps_even_weeks_back_from_its_last_day_and_labels_both_ends():
    names = ("Raw", "Green", "Inexperienced", "Average", "Experienced", "Elite", "Legendary")
    for first in (1, 40):
        for today in [*range(first + 60, first + 75), first + 365, first + 729, first + 730]:
            days, step = days_drawn(first, today)
            # Its first day and its last are drawn; every gap is the step but the first, which
            # is a day to a step long, and said so.
            assert days[0] == first and days[-1] == today and step % 7 == 0
            gaps = [b - a for a, b in pairwise(days)]
            assert set(gaps[1:]) == {step} and 1 <= gaps[0] <= step
            assert end_of_words(days, step) == (
                f"day {first}, then of day {days[1]} and every {step} days after"
            )
            points = [(day, 3) for day in days]
            for chart in (
                line_chart([("Quality", "", points)], y_title="", y_max=6, y_names=names),
                line_chart([("Experience", "", points)], y_title=""),
            ):
                at = {int(text): x for x, text in chart.x_labels}
                # Labels only on days drawn: the first, the last and evenly back from it,
                # clear of each other, a dozen at most.
                assert first in at and today in at and set(at) <= set(days)
                back = sorted(set(at) - {first})
                assert len({b - a for a, b in pairwise(back)}) <= 1
                xs = sorted(at.values())
                assert min(b - a for a, b in pairwise(xs)) >= (len(str(today)) + 1) * 9
                assert len(xs) <= 12
    assert end_of_words(list(range(1, 41)), 1) == "each day"
