"""Launching and resolving battles through the services, without a worker."""

from __future__ import annotations

import hashlib
import json
from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from battles.engine import ENGINE_VERSION, run_battle
from battles.models import Battle, BattleLog
from battles.services import (
    BattleInputError,
    battle_launch,
    battle_resolve,
    battles_sweep,
)

pytestmark = pytest.mark.django_db


def _launch(scenario, seed=11, **kwargs):
    with mock.patch("battles.tasks.resolve_battle.delay") as delay:
        battle = battle_launch(name="Test", scenario=scenario, seed=seed, **kwargs)
    return battle, delay


def test_it_saves_the_battle_and_queues_it_after_commit(
    scenario, django_capture_on_commit_callbacks
):
    with (
        mock.patch("battles.tasks.resolve_battle.delay") as delay,
        django_capture_on_commit_callbacks(execute=False) as callbacks,
    ):
        battle = battle_launch(name="Crossroads", scenario=scenario, seed=5)
        assert not delay.called, "queued inside the open transaction"
    assert len(callbacks) == 1
    with mock.patch("battles.tasks.resolve_battle.delay") as delay:
        callbacks[0]()
    delay.assert_called_once_with(battle.id)
    assert battle.status == Battle.Status.QUEUED
    assert (battle.seed, battle.engine_version, battle.ruleset) == (
        5,
        ENGINE_VERSION,
        "combined_arms",
    )
    assert battle.turn_limit == scenario["turn_limit"]


def test_it_refuses_a_bad_scenario_and_writes_nothing(scenario):
    scenario["sides"][0]["units"][0]["card"]["skill"] = 7
    with pytest.raises(BattleInputError) as caught:
        _launch(scenario)
    assert any("skill" in path for path, _ in caught.value.errors)
    assert Battle.objects.count() == 0


def test_it_refuses_a_negative_seed(scenario):
    with pytest.raises(BattleInputError, match="seed"):
        _launch(scenario, seed=-1)


def test_it_picks_a_seed_when_none_is_given(scenario):
    battle, _ = _launch(scenario, seed=None)
    assert 0 <= battle.seed < 2**63


def test_it_resolves_with_the_stored_seed_and_keeps_the_complete_log(scenario):
    battle, _ = _launch(scenario, seed=42)
    resolved = battle_resolve(battle_id=battle.id)
    expected = run_battle(scenario, 42)
    assert resolved.status == Battle.Status.DONE
    assert resolved.result == json.loads(json.dumps(expected.result.to_dict()))
    log = BattleLog.objects.get(battle=battle)
    assert log.events == expected.log_json()
    assert log.event_count == len(expected.events)
    assert log.sha256 == hashlib.sha256(log.events.encode()).hexdigest()
    assert resolved.progress_turn == expected.result.turns
    assert resolved.started_at <= resolved.finished_at


def test_resolving_twice_changes_nothing_the_second_time(scenario):
    battle, _ = _launch(scenario)
    battle_resolve(battle_id=battle.id)
    before = Battle.objects.values().get(id=battle.id)
    assert battle_resolve(battle_id=battle.id) is None
    assert Battle.objects.values().get(id=battle.id) == before
    assert BattleLog.objects.count() == 1


def test_it_writes_progress_each_turn(scenario):
    from battles import services

    battle, _ = _launch(scenario)
    with mock.patch("battles.services._progress", wraps=services._progress) as progress:
        resolved = battle_resolve(battle_id=battle.id)
    turns = [call.args[0] for call in progress.call_args_list]
    assert turns == list(range(1, resolved.result["turns"] + 1))


def test_a_failing_battle_is_marked_failed_with_the_error_and_no_log(scenario):
    battle, _ = _launch(scenario)
    with mock.patch("battles.services.run_battle", side_effect=RuntimeError("engine bug")):
        failed = battle_resolve(battle_id=battle.id)
    assert failed.status == Battle.Status.FAILED
    assert "engine bug" in failed.error
    assert failed.result is None
    assert not BattleLog.objects.exists()


def test_a_worker_presumed_dead_cannot_overwrite_the_new_claim(scenario):
    battle, _ = _launch(scenario)
    real = run_battle

    def stolen(*args, **kwargs):
        # While this worker fights, the sweep hands the battle to another worker.
        Battle.objects.filter(id=battle.id).update(status=Battle.Status.QUEUED, claim=None)
        return real(*args, **kwargs)

    with mock.patch("battles.services.run_battle", side_effect=stolen):
        assert battle_resolve(battle_id=battle.id) is None
    assert Battle.objects.get(id=battle.id).status == Battle.Status.QUEUED
    assert not BattleLog.objects.exists()


def test_the_sweep_queues_again_a_running_battle_with_no_sign_of_life(scenario):
    battle, _ = _launch(scenario)
    long_ago = timezone.now() - timedelta(minutes=10)
    Battle.objects.filter(id=battle.id).update(status=Battle.Status.RUNNING, heartbeat_at=long_ago)
    with mock.patch("battles.tasks.resolve_battle.delay") as delay:
        assert battles_sweep(stale_after=timedelta(minutes=2)) == [battle.id]
    delay.assert_called_once_with(battle.id)
    assert Battle.objects.get(id=battle.id).status == Battle.Status.QUEUED


def test_the_sweep_leaves_live_and_finished_battles_alone(scenario):
    live, _ = _launch(scenario)
    Battle.objects.filter(id=live.id).update(status=Battle.Status.RUNNING)
    done, _ = _launch(scenario)
    battle_resolve(battle_id=done.id)
    Battle.objects.filter(id=done.id).update(heartbeat_at=timezone.now() - timedelta(days=1))
    with mock.patch("battles.tasks.resolve_battle.delay") as delay:
        assert battles_sweep(stale_after=timedelta(minutes=2)) == []
    assert not delay.called


def test_a_broker_that_is_down_leaves_the_battle_saved_with_a_clear_message(
    scenario, django_capture_on_commit_callbacks
):
    from kombu.exceptions import OperationalError

    with (
        mock.patch("battles.tasks.resolve_battle.delay", side_effect=OperationalError("refused")),
        django_capture_on_commit_callbacks(execute=True),
    ):
        battle = battle_launch(name="T", scenario=scenario, seed=1)
    battle.refresh_from_db()
    assert battle.status == Battle.Status.QUEUED
    assert "task queue is not reachable" in battle.enqueue_error
