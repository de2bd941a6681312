"""Budgets: work in flight per user and per campaign is bounded, a refusal says why and when
to try again, a user cancels their own queued work, and the sweeps have a queue of their own."""

from __future__ import annotations

import json
from pathlib import Path
from unittest import mock

import pytest
from django.contrib.auth import get_user_model

from battles import budget
from battles.engine import parse_scenario
from battles.models import Battle, OddsRun
from battles.odds import ODDS_MAX_BATTLES, odds_cancel, odds_chunk_run, odds_launch
from battles.refusals import WorkRefused
from battles.services import battle_cancel, battle_launch

pytestmark = pytest.mark.django_db

BIG = Path(__file__).resolve().parents[2] / "battles" / "engine" / "scenarios" / "big-battle.json"


@pytest.fixture
def user():
    return get_user_model().objects.create_user("flooder", password="x")


@pytest.fixture(autouse=True)
def _no_queue(request):
    if request.node.get_closest_marker("worker"):
        yield
        return
    with (
        mock.patch("battles.services.battle_enqueue"),
        mock.patch("battles.odds.odds_enqueue"),
    ):
        yield


def test_a_battle_costs_turns_times_pairs_of_enemy_units(scenario):
    parsed = parse_scenario(scenario)
    first, second = parsed.sides
    assert budget.battle_cost(parsed) == parsed.turn_limit * len(first.units) * len(second.units)
    battle = battle_launch(name="Priced", scenario=scenario)
    assert battle.cost == budget.battle_cost(parsed) > 0


def _amphibious(lakes: list[list[list[float]]], keywords=("amphibious",)) -> dict:
    from tests.engine.helpers import piece, scenario, unit

    return scenario(
        [unit("a", (1, 1), keywords=list(keywords))],
        [unit("b", (23, 1), keywords=list(keywords))],
        terrain=[piece(f"lake{i}", "lake", lake) for i, lake in enumerate(lakes)],
        ruleset="one_year_war",
        turn_limit=10,
    )


def _ring(corners: int, x: float) -> list[list[float]]:
    import math

    return [
        [x + 2 * math.cos(2 * math.pi * i / corners), 12 + 2 * math.sin(2 * math.pi * i / corners)]
        for i in range(corners)
    ]


def test_the_water_an_amphibious_unit_paths_over_raises_a_battle_s_cost():
    # The probe's battle cost 1 however long its unit's paths took: water is a cost region for
    # an Amphibious unit, searched corner by corner, so its corners count too.
    costs = [
        budget.battle_cost(parse_scenario(_amphibious(lakes)))
        for lakes in ([], [_ring(4, 6)], [_ring(64, 6)], [_ring(64, 6), _ring(64, 18)])
    ]
    assert costs[0] == 10 * 1 * 1
    assert costs[0] < costs[1] < costs[2] < costs[3]
    assert costs[3] == 10 * 2 + 128 * 128  # the pairs' turns doubled, and the graph's build
    # Water is no cost region for a unit that is not Amphibious, nor for an Aerial one.
    for keywords in ((), ("amphibious", "aerial")):
        two_lakes = _amphibious([_ring(64, 6), _ring(64, 18)], keywords)
        assert budget.battle_cost(parse_scenario(two_lakes)) == 10


def test_the_issue_s_flood_of_odds_runs_is_refused_saying_it_never_fits(user):
    big = json.loads(BIG.read_text())
    with pytest.raises(WorkRefused) as refused:
        odds_launch(scenario=big, battles=ODDS_MAX_BATTLES, created_by=user)
    assert refused.value.retry_after == 0
    assert "fewer battles, turns or units fit" in refused.value.errors[0][1]
    assert not OddsRun.objects.exists()


def test_one_off_battles_in_flight_are_capped_per_user_and_the_refusal_says_when(
    user, scenario, settings
):
    settings.WORK_USER_BATTLES = 3
    for seed in range(3):
        battle_launch(name="Mine", scenario=scenario, seed=seed, created_by=user)
    with pytest.raises(WorkRefused) as refused:
        battle_launch(name="One more", scenario=scenario, created_by=user)
    reason = refused.value.errors[0][1]
    assert "3 battles queued or running" in reason and "Try again" in reason
    assert refused.value.retry_after >= 60
    assert Battle.objects.filter(created_by=user).count() == 3
    # Someone else is not held up by it.
    other = get_user_model().objects.create_user("honest", password="x")
    battle_launch(name="Theirs", scenario=scenario, created_by=other)
    # Cancelling one of the three makes room again.
    first = Battle.objects.filter(created_by=user).first()
    assert battle_cancel(battle_id=first.id, user=user)
    battle_launch(name="Now it fits", scenario=scenario, created_by=user)


def test_work_in_flight_is_capped_by_cost_per_user(user, settings):
    big = json.loads(BIG.read_text())
    per_battle = budget.battle_cost(parse_scenario(big))
    settings.WORK_USER_LIMIT = per_battle * 1500
    odds_launch(scenario=big, battles=1000, created_by=user)
    with pytest.raises(WorkRefused) as refused:
        odds_launch(scenario=big, battles=1000, created_by=user)
    reason = refused.value.errors[0][1]
    assert f"{per_battle * 1000:,} units of work in flight" in reason
    assert "cancel queued work" in reason
    assert OddsRun.objects.count() == 1


def test_odds_runs_in_flight_are_capped_per_user(user, scenario, settings):
    settings.WORK_USER_ODDS_RUNS = 2
    for _ in range(2):
        odds_launch(scenario=scenario, battles=10, created_by=user)
    with pytest.raises(WorkRefused, match="2 odds runs queued or running"):
        odds_launch(scenario=scenario, battles=10, created_by=user)


def test_finished_work_no_longer_counts(user, scenario, settings):
    settings.WORK_USER_ODDS_RUNS = 1
    run = odds_launch(scenario=scenario, battles=4, chunk_size=2, created_by=user)
    for index in range(run.chunks_total):
        odds_chunk_run(run_id=run.id, index=index)
    assert OddsRun.objects.get(id=run.id).status == OddsRun.Status.DONE
    assert budget.user_in_flight(user) == (0, 0, 0)
    odds_launch(scenario=scenario, battles=4, created_by=user)


def test_a_user_cancels_only_their_own_queued_work(user, scenario):
    other = get_user_model().objects.create_user("bystander", password="x")
    battle = battle_launch(name="Mine", scenario=scenario, created_by=user)
    assert not battle_cancel(battle_id=battle.id, user=other)
    assert battle_cancel(battle_id=battle.id, user=user)
    battle.refresh_from_db()
    assert battle.status == Battle.Status.FAILED and "Cancelled" in battle.error
    assert not battle_cancel(battle_id=battle.id, user=user), "already over"
    # A campaign's battle is the campaign's business, not cancelled from here.
    campaign_battle = battle_launch(
        name="Campaign", scenario=scenario, created_by=user, notify_task="campaign.tasks.x"
    )
    assert not battle_cancel(battle_id=campaign_battle.id, user=user)


def test_a_cancelled_odds_run_fights_no_more_chunks(user, scenario):
    run = odds_launch(scenario=scenario, battles=6, chunk_size=2, created_by=user)
    odds_chunk_run(run_id=run.id, index=0)
    assert odds_cancel(run_id=run.id, user=user)
    with mock.patch("battles.odds.odds_chunk_tallies") as fought:
        assert odds_chunk_run(run_id=run.id, index=1) is False
    assert not fought.called
    run.refresh_from_db()
    assert run.status == OddsRun.Status.FAILED and run.chunks_done == 1
    assert budget.user_in_flight(user)[2] == 0


def test_tasks_go_to_their_own_queues():
    from celery import current_app

    router = current_app.amqp.router
    queues = {
        name: router.route({}, name, (), {})["queue"].name
        for name in (
            "battles.tasks.resolve_battle",
            "battles.tasks.run_odds_chunk",
            "battles.tasks.sweep_battles",
            "campaign.tasks.settle_campaign_battles",
            "campaign.tasks.campaign_battle_finished",
        )
    }
    assert queues == {
        "battles.tasks.resolve_battle": "battles",
        "battles.tasks.run_odds_chunk": "odds",
        "battles.tasks.sweep_battles": "housekeeping",
        "campaign.tasks.settle_campaign_battles": "housekeeping",
        "campaign.tasks.campaign_battle_finished": "housekeeping",
    }


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_battle_launched_behind_an_odds_backlog_is_fought_before_the_backlog_ends(
    scenario, redis_worker_env, tmp_path
):
    """One worker process; an odds run of many chunks is queued first, then another user's
    battle: the battle has a queue of its own, so it does not wait for every chunk."""
    from tests.workers import wait_for, worker_process

    flooder = get_user_model().objects.create_user("flooder2", password="x")
    honest = get_user_model().objects.create_user("honest2", password="x")
    run = odds_launch(scenario=scenario, battles=2000, chunk_size=50, seed=1, created_by=flooder)
    battle = battle_launch(name="Honest", scenario=scenario, seed=3, created_by=honest)
    log = tmp_path / "worker.log"
    with worker_process(redis_worker_env, log, concurrency=1):
        wait_for(
            lambda: Battle.objects.get(id=battle.id).finished,
            timeout=300,
            what="the honest battle",
        )
        left = OddsRun.objects.get(id=run.id)
        odds_cancel(run_id=run.id, user=flooder)
    assert Battle.objects.get(id=battle.id).status == Battle.Status.DONE, log.read_text()
    assert left.chunks_done < left.chunks_total / 2, (left.chunks_done, left.chunks_total)
