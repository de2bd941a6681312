"""Odds runs: many seeds, fanned out in chunks, aggregated with 95% intervals."""

from __future__ import annotations

from unittest import mock

import pytest

from battles.engine import parse_scenario, run_battle
from battles.models import OddsChunk, OddsRun
from battles.odds import odds_chunk_run, odds_launch
from battles.services import BattleInputError
from battles.tally import odds_summary, tally_add, tally_empty, tally_merge, wilson_interval
from tests.workers import wait_for, worker_process


def _direct(scenario: dict, base_seed: int, battles: int) -> dict:
    """What the engine says, battle by battle, with the same seeds."""
    parsed = parse_scenario(scenario)
    tally = tally_empty(side.id for side in parsed.sides)
    for i in range(battles):
        tally_add(tally, run_battle(parsed, base_seed + i).result)
    units = {u.id: side.id for side in parsed.sides for u in side.units}
    return odds_summary(tally, units)


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
def test_it_refuses_more_than_a_hundred_thousand_battles(scenario):
    with pytest.raises(BattleInputError, match="battles"):
        odds_launch(scenario=scenario, battles=100_001)
    assert not OddsRun.objects.exists()


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
    assert run.result == _direct(scenario, 100, 30)
    side = next(iter(run.result["sides"].values()))
    assert 0 <= side["win"]["low"] <= side["win"]["rate"] <= side["win"]["high"] <= 1


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_an_odds_run_fans_out_across_real_workers(scenario, redis_worker_env, tmp_path):
    with worker_process(redis_worker_env, tmp_path / "worker.log", concurrency=2):
        run = odds_launch(scenario=scenario, battles=60, seed=7, chunk_size=10)
        wait_for(lambda: OddsRun.objects.get(id=run.id).finished, timeout=120, what="the odds run")
    run.refresh_from_db()
    assert run.status == OddsRun.Status.DONE, run.error
    assert run.result == _direct(scenario, 7, 60)
