"""Odds runs: many seeds, fanned out in chunks, aggregated with 95% intervals, until every
outcome is known within the precision asked (or the ceiling, or a cancel)."""

from __future__ import annotations

import json
from unittest import mock

import pytest

from battles import budget
from battles.engine import parse_scenario, run_battle
from battles.models import OddsChunk, OddsRun
from battles.odds import ODDS_AHEAD, chunk_fit, odds_cancel, odds_chunk_run, odds_launch
from battles.services import BattleInputError
from battles.tally import (
    OddsSummary,
    odds_summary,
    tally_add,
    tally_empty,
    tally_merge,
    widest_points,
    wilson_interval,
)
from tests.workers import wait_for, worker_process


def _direct(scenario: dict, base_seed: int, battles: int) -> OddsSummary:
    """What the engine says, battle by battle, with the same seeds."""
    parsed = parse_scenario(scenario)
    tally = tally_empty(side.id for side in parsed.sides)
    for i in range(battles):
        tally_add(tally, run_battle(parsed, base_seed + i).result)
    units = {u.id: side.id for side in parsed.sides for u in side.units}
    return odds_summary(tally, units)


def _direct_until(scenario: dict, base_seed: int, chunk_size: int, precision: float) -> OddsSummary:
    """The stop rule applied by hand: the seeds one after another, judged after every chunk."""
    parsed = parse_scenario(scenario)
    tally = tally_empty(side.id for side in parsed.sides)
    i = 0
    while True:
        tally_add(tally, run_battle(parsed, base_seed + i).result)
        i += 1
        if i % chunk_size == 0 and widest_points(tally) <= precision:
            break
    units = {u.id: side.id for side in parsed.sides for u in side.units}
    return odds_summary(tally, units)


def _fight(run: OddsRun, order) -> OddsRun:
    for index in order:
        odds_chunk_run(run_id=run.id, index=index)
    run.refresh_from_db()
    return run


def test_the_widest_outcome_is_the_widest_wilson_interval_in_points():
    tally = {"battles": 100, "draws": 20, "wins": {"a": 50, "b": 30}}
    low, high = wilson_interval(50, 100)  # the outcome nearest one half is the least known
    assert widest_points(tally) == pytest.approx(100 * (high - low) / 2)
    assert widest_points(tally) == pytest.approx(9.62, abs=0.01)


def test_a_side_is_favoured_only_when_even_its_interval_wins_more_than_half():
    # 151 wins in 300 is 50.3%, its 95% interval 44.7–56.0%: too close to call. 180 in 300
    # (60%, 54.4–65.4%) is favoured, and so it reads back from what is stored.
    def summary(wins: int) -> OddsSummary:
        tally = tally_empty(["blue", "red"])
        tally["battles"], tally["wins"] = 300, {"blue": wins, "red": 300 - wins}
        tally["scores"] = {"blue": {"0": 300}, "red": {"0": 300}}
        return odds_summary(tally, {})

    close = summary(151)
    assert close.side("blue").win.rate > 0.5 and close.side("blue").win.low < 0.5
    assert close.favoured is None
    clear = summary(180)
    assert clear.side("blue").win.low > 0.5 and clear.favoured == "blue"
    assert OddsSummary.from_dict(clear.to_dict()).favoured == "blue"


def test_the_wilson_interval_is_right_where_normal_intervals_fail():
    assert wilson_interval(0, 10) == (0.0, pytest.approx(0.2775, abs=1e-4))
    low, high = wilson_interval(50, 100)
    assert (low, high) == (pytest.approx(0.4038, abs=1e-4), pytest.approx(0.5962, abs=1e-4))
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_tallies_add_up_in_any_order(scenario):
    parsed = parse_scenario(scenario)
    sides = [s.id for s in parsed.sides]
    parts = []
    for chunk in range(3):
        tally = tally_empty(sides)
        for i in range(4):
            tally_add(tally, run_battle(parsed, chunk * 4 + i).result)
        parts.append(tally)
    assert tally_merge(parts, sides) == tally_merge(reversed(parts), sides)
    assert tally_merge(parts, sides)["battles"] == 12


@pytest.mark.django_db
def test_it_refuses_a_scenario_the_database_cannot_store_as_a_battle_does(scenario):
    scenario["sides"][0]["units"][0]["card"]["name"] = "Rifles\x00"
    with pytest.raises(BattleInputError) as refused:
        odds_launch(scenario=scenario, battles=10)
    assert refused.value.errors == [
        ("sides[0].units[0].card.name", "must not contain a NUL character")
    ]
    assert not OddsRun.objects.exists()


@pytest.mark.django_db
def test_it_refuses_more_than_a_hundred_thousand_battles(scenario):
    with pytest.raises(BattleInputError, match="battles"):
        odds_launch(scenario=scenario, battles=100_001)
    assert not OddsRun.objects.exists()


@pytest.mark.django_db
def test_a_run_takes_its_battles_precision_chunks_and_seed_within_bounds_said_in_words(
    scenario, settings
):
    from battles.services import SEED_LIMIT

    settings.WORK_USER_LIMIT = 10**12  # the ceiling of battles, not the budget, is asked here
    refused = [
        ({"battles": 0}, "battles", "must be 1..100000, got 0"),
        ({"precision": 0}, "precision", "must be above 0 and at most 50, got 0"),
        ({"precision": 50.5}, "precision", "must be above 0 and at most 50, got 50.5"),
        ({"chunk_size": 0}, "chunk_size", "must be at least 1, got 0"),
        ({"seed": -1}, "seed", f"must be between 0 and {SEED_LIMIT - 10}"),
        ({"seed": SEED_LIMIT - 9}, "seed", f"must be between 0 and {SEED_LIMIT - 10}"),
    ]
    with mock.patch("battles.odds.odds_enqueue"):
        for given, field, words in refused:
            with pytest.raises(BattleInputError) as error:
                odds_launch(scenario=scenario, **({"battles": 10} | given))
            assert error.value.errors == [(field, words)], given
        assert not OddsRun.objects.exists()
        runs = [
            odds_launch(scenario=scenario, battles=1, precision=50, chunk_size=1, seed=0),
            odds_launch(scenario=scenario, battles=10, seed=SEED_LIMIT - 10),
            odds_launch(scenario=scenario, battles=100_000),
        ]
    assert [(r.battles, r.precision, r.chunks_total) for r in runs] == [
        (1, 50, 1),
        (10, 2.0, 1),
        (100_000, 2.0, 1000),
    ]
    assert runs[1].base_seed == SEED_LIMIT - 10


@pytest.mark.django_db
def test_a_run_is_cancelled_only_by_its_owner_and_says_so(scenario, django_user_model):
    owner, other = (django_user_model.objects.create_user(name) for name in ("asker", "other"))
    with mock.patch("battles.odds.odds_enqueue"):
        run = odds_launch(scenario=scenario, battles=300, seed=1, chunk_size=10, created_by=owner)
    assert not odds_cancel(run_id=run.id, user=other)
    run.refresh_from_db()
    assert run.status == OddsRun.Status.QUEUED and run.error == ""
    assert odds_cancel(run_id=run.id, user=owner)
    assert not odds_cancel(run_id=run.id, user=owner)  # over already
    run.refresh_from_db()
    assert run.error == "Cancelled by its owner; the battles not yet fought were not fought."
    assert run.finished_at is not None


@pytest.mark.django_db
def test_chunks_count_once_and_the_run_agrees_with_the_engine(scenario):
    with mock.patch("battles.odds.odds_enqueue"):
        run = odds_launch(scenario=scenario, battles=30, seed=100, chunk_size=8)
    assert run.chunks_total == 4
    for index in (0, 1, 2, 2, 3, 0):  # chunks 0 and 2 delivered twice
        odds_chunk_run(run_id=run.id, index=index)
    run.refresh_from_db()
    assert run.status == OddsRun.Status.DONE
    assert run.chunks_done == 4 and OddsChunk.objects.filter(run=run).count() == 4
    assert run.odds == _direct(scenario, 100, 30)
    assert run.stop == OddsRun.Stop.CEILING and run.battles_counted == 30
    side = run.odds.sides[0]
    assert 0 <= side.win.low <= side.win.rate <= side.win.high <= 1


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_an_odds_run_fans_out_across_real_workers(scenario, redis_worker_env, tmp_path):
    with worker_process(redis_worker_env, tmp_path / "worker.log", concurrency=2):
        run = odds_launch(scenario=scenario, battles=60, seed=7, chunk_size=10)
        wait_for(lambda: OddsRun.objects.get(id=run.id).finished, timeout=120, what="the odds run")
    run.refresh_from_db()
    assert run.status == OddsRun.Status.DONE, run.error
    assert run.odds == _direct(scenario, 7, 60)


@pytest.mark.django_db
def test_a_run_stops_at_the_first_chunk_after_which_every_outcome_is_precise(scenario):
    # Crossroads is close (about 10% / 48% / 42%): within ±10 points after about a hundred.
    with mock.patch("battles.odds.odds_enqueue"):
        run = odds_launch(scenario=scenario, battles=300, precision=10, seed=5, chunk_size=10)
    run = _fight(run, range(run.chunks_total))
    expected = _direct_until(scenario, 5, 10, 10)
    assert run.status == OddsRun.Status.DONE and run.stop == OddsRun.Stop.PRECISE
    assert run.odds == expected
    assert run.battles_counted == expected.battles < 300
    assert run.widest == pytest.approx(widest_points_of(expected)) and run.widest <= 10
    # Chunks fought after the stop (they were out already) are not fought at all here, and
    # would not be counted.
    assert run.chunks_done == expected.battles // 10


def test_the_stored_odds_read_back_as_the_summary_they_were(scenario):
    summary = _direct(scenario, 3, 12)
    stored = json.loads(json.dumps(summary.to_dict()))
    assert OddsSummary.from_dict(stored) == summary
    assert stored["sides"][summary.sides[0].side]["scores"] == {
        str(score): count for score, count in summary.sides[0].scores
    }
    assert sum(count for _, count in summary.sides[0].scores) == 12


def widest_points_of(summary: OddsSummary) -> float:
    rates = [summary.draw, *(side.win for side in summary.sides)]
    return 100 * max((rate.high - rate.low) / 2 for rate in rates)


@pytest.mark.django_db
def test_the_stop_is_the_same_whatever_order_the_chunks_land_in(scenario):
    with mock.patch("battles.odds.odds_enqueue"):
        in_order = odds_launch(scenario=scenario, battles=300, precision=10, seed=5, chunk_size=10)
        backwards = odds_launch(scenario=scenario, battles=300, precision=10, seed=5, chunk_size=10)
    in_order = _fight(in_order, range(in_order.chunks_total))
    # Later chunks first: nothing stops until the chunks before them are in.
    backwards = _fight(backwards, reversed(range(in_order.chunks_done + 2)))
    assert backwards.stop == OddsRun.Stop.PRECISE
    assert backwards.result == in_order.result
    assert backwards.battles_counted == in_order.battles_counted


@pytest.mark.django_db
def test_chunks_go_out_a_few_ahead_and_each_landing_sends_the_next(
    scenario, django_capture_on_commit_callbacks
):
    with (
        mock.patch("battles.odds.odds_enqueue") as sent,
        django_capture_on_commit_callbacks(execute=True),
    ):
        run = odds_launch(scenario=scenario, battles=300, precision=1, seed=2, chunk_size=10)
    assert [c.args for c in sent.call_args_list] == [(run.id,)]  # the first chunks, at commit
    assert run.chunks_queued == ODDS_AHEAD < run.chunks_total
    with mock.patch("battles.odds.odds_enqueue") as sent:
        odds_chunk_run(run_id=run.id, index=0)
        odds_chunk_run(run_id=run.id, index=0)  # counted once, sends nothing more
    assert [c.args for c in sent.call_args_list] == [(run.id, [ODDS_AHEAD])]
    run.refresh_from_db()
    assert run.chunks_queued == ODDS_AHEAD + 1


@pytest.mark.django_db
def test_each_chunk_parses_its_scenario_once(scenario):
    with mock.patch("battles.odds.odds_enqueue"):
        run = odds_launch(scenario=scenario, battles=30, seed=1, chunk_size=8)
    with (
        mock.patch("battles.odds.parse_scenario", wraps=parse_scenario) as parsed,
        mock.patch("battles.engine.record.parse_scenario", wraps=parse_scenario) as reparsed,
        mock.patch("battles.odds.odds_enqueue"),
    ):
        odds_chunk_run(run_id=run.id, index=0)
    assert parsed.call_count == 1 and reparsed.call_count == 0


@pytest.mark.django_db
def test_a_cancelled_run_says_it_was_cancelled_and_fights_no_more(scenario, django_user_model):
    owner = django_user_model.objects.create_user("asker", password="x")
    with mock.patch("battles.odds.odds_enqueue"):
        run = odds_launch(scenario=scenario, battles=300, seed=1, chunk_size=10, created_by=owner)
        odds_chunk_run(run_id=run.id, index=0)
        assert odds_cancel(run_id=run.id, user=owner)
        assert not odds_chunk_run(run_id=run.id, index=1)
    run.refresh_from_db()
    assert run.status == OddsRun.Status.FAILED and run.stop == OddsRun.Stop.CANCELLED
    assert run.chunks_done == 1


@pytest.mark.django_db
def test_a_run_is_priced_at_its_ceiling_and_gives_back_what_it_did_not_spend(
    scenario, settings, django_user_model
):
    owner = django_user_model.objects.create_user("pricey", password="x")
    one = budget.battle_cost(parse_scenario(scenario))
    settings.WORK_USER_LIMIT = 300 * one - 1
    with mock.patch("battles.odds.odds_enqueue"):
        with pytest.raises(BattleInputError, match="more than"):
            # It would stop after about a hundred battles, but it may fight three hundred.
            odds_launch(scenario=scenario, battles=300, precision=10, created_by=owner)
        settings.WORK_USER_LIMIT = 300 * one
        run = odds_launch(
            scenario=scenario, battles=300, precision=10, seed=5, chunk_size=10, created_by=owner
        )
        assert budget.user_in_flight(owner)[2] == 300 * one
        _fight(run, range(3))
        assert budget.user_in_flight(owner)[2] == 270 * one  # what it may still spend
        run = _fight(run, range(3, run.chunks_total))
    assert run.stop == OddsRun.Stop.PRECISE
    assert budget.user_in_flight(owner)[2] == 0


@pytest.mark.django_db
def test_a_chunk_holds_no_more_battles_than_its_time_limit_fits(scenario, settings):
    # The largest scenario (160,000 units, about 37 s a battle from source) came in chunks of
    # up to 100 battles: over 1,000 s a chunk, past any soft time limit.
    one = budget.battle_cost(parse_scenario(scenario))
    assert chunk_fit(160_000) == 4 and chunk_fit(one) >= 100
    settings.CELERY_TASK_SOFT_TIME_LIMIT = 20
    settings.WORK_SECONDS_PER_UNIT = 1.0 / one  # one battle: "1 s", a quarter of 20 s fits 5
    with mock.patch("battles.odds.odds_enqueue"):
        run = odds_launch(scenario=scenario, battles=12, seed=3, chunk_size=10)
        assert (run.chunk_size, run.chunks_total) == (5, 3)
        settings.WORK_SECONDS_PER_UNIT = 6.0 / one  # "6 s": not one battle fits in 5 s
        with pytest.raises(BattleInputError) as refused:
            odds_launch(scenario=scenario, battles=12)
    assert refused.value.errors == [
        (
            "scenario",
            f"One battle of this scenario is {one:,} units of work, too long for an odds run's "
            "worker to fight within its time limit (20 s): fewer turns, units or corners of "
            "water fit.",
        )
    ]
    assert OddsRun.objects.count() == 1


@pytest.mark.django_db
def test_a_failed_chunk_fails_the_run_in_a_sentence_never_a_traceback(scenario, caplog):
    from celery.exceptions import SoftTimeLimitExceeded

    with mock.patch("battles.odds.odds_enqueue"):
        slow = odds_launch(scenario=scenario, battles=20, seed=1, chunk_size=10)
        broken = odds_launch(scenario=scenario, battles=20, seed=1, chunk_size=10)
    with mock.patch("battles.odds.run_battle", side_effect=SoftTimeLimitExceeded()):
        assert odds_chunk_run(run_id=slow.id, index=0) is False
    with mock.patch("battles.odds.run_battle", side_effect=RuntimeError("engine bug")):
        assert odds_chunk_run(run_id=broken.id, index=1) is False
    slow.refresh_from_db()
    broken.refresh_from_db()
    assert slow.status == broken.status == OddsRun.Status.FAILED
    assert slow.error == (
        "A chunk of 10 battles took longer than the worker's time limit (300 s) and was "
        "stopped. The scenario is too large for its odds to be run: fewer turns, units or "
        "corners of water fit."
    )
    assert broken.error == (
        "The run stopped: a worker failed while fighting its battles (chunk 2 of 2). The error "
        "is in the site's log."
    )
    for error in (slow.error, broken.error):
        assert "Traceback" not in error and "Exceeded" not in error and "engine bug" not in error
    # The traceback is kept for the site's log.
    assert any(r.exc_info and "engine bug" in str(r.exc_info[1]) for r in caplog.records)


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_run_stops_when_precise_across_real_workers_as_the_seeds_say(
    scenario, redis_worker_env, tmp_path
):
    with worker_process(redis_worker_env, tmp_path / "worker.log", concurrency=2):
        run = odds_launch(scenario=scenario, battles=400, precision=10, seed=9, chunk_size=10)
        wait_for(lambda: OddsRun.objects.get(id=run.id).finished, timeout=180, what="the run")
    run.refresh_from_db()
    assert run.status == OddsRun.Status.DONE, run.error
    assert run.stop == OddsRun.Stop.PRECISE
    assert run.odds == _direct_until(scenario, 9, 10, 10)
    # Chunks out when it stopped may have been fought, but fewer than a window's worth.
    assert run.chunks_done < run.battles_counted // 10 + ODDS_AHEAD + 1 < run.chunks_total
