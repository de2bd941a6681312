"""The odds pages: launching a run, watching it, reading win/draw/loss and the histogram."""

from __future__ import annotations

import re
from unittest import mock

import pytest
from django.urls import reverse

from battles.models import OddsRun
from battles.odds import ODDS_MAX_BATTLES, odds_chunk_run, odds_launch
from battles.services import SEED_LIMIT

pytestmark = pytest.mark.django_db

URL = "/battles/odds/new/"
KEY = "3c9a2f6e-1d4b-4e7a-8b5c-0f1e2d3c4b5a"
HTMX = {"HTTP_HX_REQUEST": "true"}


def _post(client, **fields):
    data = {
        "scenario": "crossroads",
        "request_key": KEY,
        "battles": "1000",
        "precision": "2",
        "seed": "",
        "name": "",
    }
    data.update(fields)
    with mock.patch("battles.odds.odds_enqueue"):
        return client.post(URL, data)


@pytest.fixture
def finished_run(owner, scenario) -> OddsRun:
    with mock.patch("battles.odds.odds_enqueue"):
        run = odds_launch(scenario=scenario, battles=40, seed=3, chunk_size=20, created_by=owner)
    for index in range(run.chunks_total):
        odds_chunk_run(run_id=run.id, index=index)
    run.refresh_from_db()
    assert run.status == OddsRun.Status.DONE
    return run


def test_the_form_asks_for_two_points_within_ten_thousand_battles_by_default(owner_client):
    page = owner_client.get(URL).content.decode()
    field = re.search(r'<input[^>]*name="battles"[^>]*>', page).group(0)
    assert 'value="10000"' in field and 'min="1"' in field and 'max="100000"' in field
    precision = re.search(r'<select name="precision".*?</select>', page, re.S).group(0)
    assert '<option value="2" selected>±2 points</option>' in precision
    assert '<option value="1">±1 point</option>' in precision
    assert '<svg class="table-map"' in page


def test_the_htmx_preview_is_the_partial(owner_client):
    html = owner_client.get(URL + "?scenario=landing", **HTMX).content.decode()
    assert html.lstrip().startswith('<section id="table-preview"')


def test_a_launch_saves_the_run_and_shows_it(owner_client, owner):
    response = _post(owner_client, battles="500", seed="10", precision="1")
    run = OddsRun.objects.get()
    assert response["Location"] == reverse("battles:odds-detail", args=[run.pk])
    assert (run.battles, run.precision, run.base_seed, run.created_by) == (500, 1.0, 10, owner)


def test_a_double_submit_launches_one_run(owner_client):
    _post(owner_client)
    _post(owner_client)
    assert OddsRun.objects.count() == 1


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"battles": "0"}, "At least 1 battle."),
        ({"battles": str(ODDS_MAX_BATTLES + 1)}, "At most 100,000 battles."),
        ({"battles": ""}, "Fill in “At most”."),
        ({"battles": "many"}, "Enter a whole number"),
        ({"precision": "3"}, "“3” is not one of the choices for “Precision”"),
        ({"seed": str(SEED_LIMIT - 10)}, "the seed may be at most"),
        ({"scenario": "atlantis"}, "“atlantis” is not one of the choices for “Scenario”"),
    ],
)
def test_bad_input_is_an_error_beside_the_field(owner_client, fields, message):
    response = _post(owner_client, **fields)
    assert response.status_code == 400
    assert message in response.content.decode()
    # The page opens on the first field at fault.
    field = next(iter(fields))
    assert re.search(
        rf'<(input|select)[^>]*name="{field}"[^>]*autofocus', response.content.decode()
    )
    assert not OddsRun.objects.exists()


def test_a_running_run_polls_its_progress(owner_client, owner, scenario):
    with mock.patch("battles.odds.odds_enqueue"):
        run = odds_launch(scenario=scenario, battles=40, seed=3, chunk_size=10, created_by=owner)
    odds_chunk_run(run_id=run.id, index=0)
    page = owner_client.get(reverse("battles:odds-detail", args=[run.pk])).content.decode()
    assert f'hx-get="{reverse("battles:odds-progress", args=[run.pk])}"' in page
    assert (
        "Fighting: 1 of 4 batches of battles done." in page
        and '<progress max="4" value="1"' in page
    )
    response = owner_client.get(reverse("battles:odds-progress", args=[run.pk]), **HTMX)
    assert response.status_code == 200 and "<html" not in response.content.decode()


def test_a_finished_run_shows_the_odds_with_intervals_and_a_histogram(owner_client, finished_run):
    page = owner_client.get(reverse("battles:odds-detail", args=[finished_run.pk]))
    html = page.content.decode()
    odds = finished_run.odds
    for side in ("Blue Force", "Red Force"):
        assert side in html
    blue = odds.side("blue").win
    assert f"{blue.rate * 100:.1f}%" in html
    assert f"{blue.low * 100:.1f}%\u00a0– {blue.high * 100:.1f}%" in html
    assert f"{odds.draw.rate * 100:.1f}%" in html
    assert '<svg class="histogram"' in html
    for colour in ("var(--side-0)", "var(--side-1)"):  # Blue Force and Red Force, in order
        assert html.count(f'<rect class="bar" style="fill: {colour}"') >= 1
        assert f'<span class="swatch" style="background: {colour}"' in html
    for unit in odds.units:  # named as the battle's pages name them, never by id
        assert f"<code>{unit.unit}</code>" not in html
    assert '<th scope="row">Rifle Squad' in html
    assert "hx-trigger" not in html


def test_the_last_poll_stops_polling_and_brings_the_result(owner_client, finished_run):
    response = owner_client.get(reverse("battles:odds-progress", args=[finished_run.pk]), **HTMX)
    assert response.status_code == 286
    assert '<svg class="histogram"' in response.content.decode()


def test_a_failed_run_says_why(owner_client, owner, scenario):
    with mock.patch("battles.odds.odds_enqueue"):
        run = odds_launch(scenario=scenario, battles=4, created_by=owner)
    OddsRun.objects.filter(pk=run.pk).update(status="failed", error="chunk 0 exploded")
    html = owner_client.get(reverse("battles:odds-detail", args=[run.pk])).content.decode()
    assert "The odds run failed" in html and "chunk 0 exploded" in html


def test_a_running_run_shows_the_odds_so_far_and_how_narrow_they_are(owner_client, owner, scenario):
    with mock.patch("battles.odds.odds_enqueue"):
        run = odds_launch(scenario=scenario, battles=300, seed=3, chunk_size=20, created_by=owner)
        odds_chunk_run(run_id=run.id, index=0)
        odds_chunk_run(run_id=run.id, index=2)  # not counted until chunk 1 is in
    run.refresh_from_db()
    assert run.battles_counted == 20
    first = owner_client.get(reverse("battles:odds-progress", args=[run.pk]), **HTMX)
    html = first.content.decode()
    assert first.status_code == 200
    assert "Chances over 20 battles so far" in html
    assert f"So far 20 battles: every outcome within ±{run.widest:.1f} points" in html
    assert "it stops at ±2 points (or at 300 battles)" in html
    after_twenty = run.widest
    with mock.patch("battles.odds.odds_enqueue"):
        odds_chunk_run(run_id=run.id, index=1)
    run.refresh_from_db()
    assert run.battles_counted == 60 and run.widest < after_twenty  # narrowing as chunks land
    html = owner_client.get(reverse("battles:odds-progress", args=[run.pk]), **HTMX)
    assert (
        f"So far 60 battles: every outcome within ±{run.widest:.1f} points" in html.content.decode()
    )


def test_a_finished_run_says_why_it_stopped(owner_client, owner, scenario):
    with mock.patch("battles.odds.odds_enqueue"):
        precise = odds_launch(
            scenario=scenario, battles=300, precision=10, seed=5, chunk_size=10, created_by=owner
        )
        capped = odds_launch(scenario=scenario, battles=40, seed=5, chunk_size=10, created_by=owner)
        for run in (precise, capped):
            for index in range(run.chunks_total):
                odds_chunk_run(run_id=run.id, index=index)
    precise.refresh_from_db()
    capped.refresh_from_db()
    html = owner_client.get(reverse("battles:odds-detail", args=[precise.pk])).content.decode()
    assert f"Every outcome known within ±10 points after {precise.battles_counted} battles." in html
    html = owner_client.get(reverse("battles:odds-detail", args=[capped.pk])).content.decode()
    assert "Stopped at the ceiling of 40 battles: every outcome is within ±" in html
    assert "(±2 was asked)" in html


def test_the_list_gives_each_run_the_battles_it_counted_and_its_ceiling(
    owner_client, owner, scenario
):
    with mock.patch("battles.odds.odds_enqueue"):
        run = odds_launch(
            scenario=scenario, battles=300, precision=10, seed=5, chunk_size=10, created_by=owner
        )
        for index in range(run.chunks_total):
            odds_chunk_run(run_id=run.id, index=index)
    run.refresh_from_db()
    html = owner_client.get(reverse("battle-list")).content.decode()
    assert f"{run.battles_counted} of at most 300" in html and run.battles_counted < 300


def _verdict(blue, red):
    from battles.odds_report import odds_verdict
    from battles.tally import OddsSummary

    def side(rate):
        win = {"rate": rate[0], "low": rate[1], "high": rate[2]}
        return {"win": win, "loss": win, "mean_score": 1.0, "scores": {}}

    draw = {"rate": 0.1, "low": 0.05, "high": 0.15}
    summary = OddsSummary.from_dict(
        {"battles": 200, "draw": draw, "sides": {"blue": side(blue), "red": side(red)}, "units": {}}
    )
    verdict = odds_verdict(summary, {"blue": "Blue Battalion", "red": "Red Company"})
    return verdict.lead + verdict.rest


def test_the_verdict_says_who_wins_more_often_and_why_it_is_not_favoured():
    """A side ahead but not over half at the low end of its interval is said to win more
    often, with both rates, and the rule that keeps it from being favoured: never a bare
    "neither side is favoured" above a table where one side plainly wins more."""
    rule = (
        "a side is favoured only when it wins more than half of the battles even at the low "
        "end of its 95% interval"
    )
    ahead = _verdict((0.56, 0.491, 0.627), (0.31, 0.249, 0.378))
    assert ahead == (
        "Blue Battalion wins more often (56% against 31%), but not clearly over half the "
        f"battles: the low end of its 95% interval is 49.1%, and {rule}."
    )
    favoured = _verdict((0.62, 0.551, 0.685), (0.3, 0.24, 0.37))
    assert favoured == (
        "Blue Battalion is favoured: it wins 62% of the battles (against 30%), more than half "
        "even at the low end of its 95% interval (55.1%)."
    )
    close = _verdict((0.44, 0.37, 0.51), (0.46, 0.39, 0.53))
    assert close == (
        "Neither side is favoured: Red Company wins 46% and Blue Battalion 44% of the battles, "
        f"too close to tell apart; {rule}."
    )


def test_the_odds_page_and_the_campaign_box_say_the_verdict_alike(owner_client, finished_run):
    """One sentence for both: the stand-alone page and the campaign's set-up box include the
    same verdict (``odds_verdict``), the rule included."""
    from pathlib import Path

    from django.conf import settings

    html = owner_client.get(reverse("battles:odds-detail", args=[finished_run.pk])).text
    assert "at the low end of its 95% interval" in html
    templates = Path(settings.BASE_DIR) / "templates"
    for page in ("battles/odds.html", "campaign/_setup_odds.html"):
        text = (templates / page).read_text()
        assert '{% include "battles/_odds_verdict.html" with verdict=odds.verdict ' in text
        assert "favoured</strong>" not in text, page


def test_the_verdict_never_rounds_a_side_that_won_to_none():
    """Red Company won 1 battle of 200: the verdict read "it wins 96% of the battles (against
    0%)" over a table giving Red Company 0.5%. A rate whole percent would round to 0% or 100%
    is said as the table says it."""
    favoured = _verdict((0.955, 0.917, 0.976), (0.005, 0.001, 0.028))
    assert "it wins 96% of the battles (against 0.5%)" in favoured
    assert "against 0%" not in favoured
    swept = _verdict((0.996, 0.972, 0.999), (0.0, 0.0, 0.019))
    assert "it wins 99.6% of the battles (against 0%)" in swept


def test_counts_of_battles_are_written_with_thousands_grouped_and_the_seed_as_typed(
    owner_client, owner, scenario
):
    with mock.patch("battles.odds.odds_enqueue"):
        run = odds_launch(scenario=scenario, battles=12000, seed=1234567, created_by=owner)
    page = owner_client.get(reverse("battles:odds-detail", args=[run.pk])).content.decode()
    # The seed is copied into a form to fight a battle again: no separator in it.
    assert "at most 12,000 battles, with seeds 1234567 and on" in page
    listed = owner_client.get(reverse("battles:odds-list")).content.decode()
    assert "0 of at most 12,000" in listed
