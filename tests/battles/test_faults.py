"""Faults with real processes: the database restarted mid-battle, Redis restarted mid-odds-run.

Like tests/battles/test_worker.py, these start real Celery worker processes; the database
fault cuts the worker's PostgreSQL connections from the server side, as a restart of the
database does, and the broker fault stops and starts a redis-server of the test's own.
"""

from __future__ import annotations

import json
import time
import uuid
from datetime import timedelta
from unittest import mock

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone

from battles.engine import run_battle
from battles.models import Battle, BattleLog, OddsRun
from battles.services import battle_launch, battle_resolve, battles_sweep
from tests.battles.test_odds import _direct
from tests.battles.test_worker import own_redis  # noqa: F401  (a fixture)
from tests.workers import database_url, project_env, run_python, wait_for, worker_process

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def _terminate_other_connections() -> int:
    """Drop every other session on this test's database, as a PostgreSQL restart would."""
    with connection.cursor() as cursor:
        cursor.execute(
            "select pg_terminate_backend(pid) from pg_stat_activity "
            "where datname = current_database() and pid <> pg_backend_pid()"
        )
        return len(cursor.fetchall())


@pytest.mark.django_db
def test_a_retry_takes_back_only_the_claim_it_holds(scenario):
    """A battle left running by a try cut short: its own retry (same claim) takes it back and
    fights it again; any other message for the battle still finds it claimed."""
    with mock.patch("battles.tasks.resolve_battle.delay"):
        battle = battle_launch(name="Cut short", scenario=scenario, seed=4)
    first_try = uuid.uuid4()
    Battle.objects.filter(id=battle.id).update(
        status=Battle.Status.RUNNING, claim=first_try, attempts=1, progress_turn=2
    )
    assert battle_resolve(battle_id=battle.id, claim=uuid.uuid4()) is None
    assert Battle.objects.get(id=battle.id).status == Battle.Status.RUNNING
    done = battle_resolve(battle_id=battle.id, claim=first_try)
    assert done.status == Battle.Status.DONE and done.attempts == 2 and done.claim is None
    assert BattleLog.objects.get(battle=battle).events == run_battle(scenario, 4).log_json()
    assert battle_resolve(battle_id=battle.id, claim=first_try) is None  # done stays done


def test_a_database_error_mid_battle_is_raised_for_a_retry_not_stored_as_failed(scenario):
    from django.db.utils import OperationalError

    with mock.patch("battles.tasks.resolve_battle.delay"):
        battle = battle_launch(name="Dropped", scenario=scenario, seed=4)
    with (
        mock.patch("battles.services.run_battle", side_effect=OperationalError("gone")),
        pytest.raises(OperationalError),
    ):
        battle_resolve(battle_id=battle.id)
    left = Battle.objects.get(id=battle.id)
    assert left.status == Battle.Status.RUNNING and left.error == ""


def test_a_database_restart_mid_battle_is_retried_and_the_battle_ends_done(
    scenario, postgres, redis_worker_env, tmp_path
):
    """The worker's connection is cut mid-battle; the task retries, takes back its own claim,
    and fights the battle again from its seed: the same log as the engine alone gives."""
    slow = dict(redis_worker_env, BATTLE_TURN_DELAY="0.3")
    log_path = tmp_path / "worker.log"
    with worker_process(slow, log_path):
        battle = battle_launch(name="Outage", scenario=scenario, seed=17)
        wait_for(
            lambda: Battle.objects.filter(id=battle.id, progress_turn__gte=1).exists(),
            what="the worker to be mid-battle",
        )
        assert _terminate_other_connections() >= 1, "the worker should hold a connection"
        done = wait_for(
            lambda: Battle.objects.get(id=battle.id).finished or None,
            timeout=120,
            what="the battle to finish after the database came back",
        )
    battle.refresh_from_db()
    worker_log = log_path.read_text()
    assert done and battle.status == Battle.Status.DONE, battle.error + worker_log
    assert battle.attempts == 2, worker_log
    assert battle.claim is None and battle.error == ""
    assert BattleLog.objects.get(battle=battle).events == run_battle(scenario, 17).log_json()
    # The worker said what happened, on lines that carry the battle's id.
    retried = [line for line in worker_log.splitlines() if "will be retried" in line]
    assert retried and all(f"battle_id={battle.id}" in line for line in retried), worker_log
    assert f'battle_id={battle.id} msg="battle {battle.id} done' in worker_log, worker_log


def test_a_redis_restart_mid_odds_run_is_recovered_by_the_sweep(
    scenario,
    own_redis,  # noqa: F811
    tmp_path,
):
    """Redis stops (losing every queued chunk) and starts again mid-run; the sweep sends the
    missing chunks again, and the run ends done with the result of an undisturbed run."""
    url, start, stop = own_redis
    env = project_env(REDIS_URL=url, DATABASE_URL=database_url(settings.DATABASES["default"]))
    battles, seed, chunk_size = 300, 11, 10
    start()
    log_path = tmp_path / "worker.log"
    with worker_process(env, log_path):
        launched = run_python(
            "import json\nfrom battles.odds import odds_launch\n"
            f"run = odds_launch(scenario=json.loads({json.dumps(scenario)!r}), "
            f"battles={battles}, seed={seed}, chunk_size={chunk_size})\nprint(run.id)",
            env,
        )
        assert launched.returncode == 0, launched.stderr
        run_id = int(launched.stdout.strip().splitlines()[-1])
        wait_for(
            lambda: OddsRun.objects.filter(id=run_id, chunks_done__gte=3).exists(),
            timeout=120,
            what="some chunks to be counted",
        )
        stop()  # the queued chunks are lost with it (no persistence)
        interrupted = OddsRun.objects.get(id=run_id)
        assert not interrupted.finished, "the run finished before Redis went down"
        time.sleep(1)
        start()
        # Without the sweep the lost chunks would never come; it runs every 30 s in
        # production (Celery beat), here once, with "stale" meaning "now".
        swept = run_python(
            "from battles.tasks import sweep_battles\nprint(sweep_battles())",
            dict(env, BATTLE_STALE_SECONDS="0"),
        )
        assert swept.returncode == 0, swept.stderr
        assert str(run_id) in swept.stdout, swept.stdout
        wait_for(
            lambda: OddsRun.objects.get(id=run_id).finished,
            timeout=180,
            what="the odds run to finish after the sweep",
        )
    run = OddsRun.objects.get(id=run_id)
    assert run.status == OddsRun.Status.DONE, run.error + log_path.read_text()
    assert run.chunks_done == run.chunks_total == battles // chunk_size
    assert run.odds == _direct(scenario, seed, battles)


def test_a_battle_slower_per_turn_than_the_stale_limit_is_fought_once_by_two_workers(
    scenario, postgres, redis_worker_env, tmp_path
):
    """Each turn takes longer than the stale limit; the sweep runs all along, two worker
    processes wait for work. The lease, renewed on a clock, keeps the battle alive: one
    attempt, one claim in the workers' logs, the engine's own log."""
    slow = dict(
        redis_worker_env,
        BATTLE_TURN_DELAY="3",
        BATTLE_STALE_SECONDS="2",
        BATTLE_HEARTBEAT_SECONDS="0.2",
    )
    logs = [tmp_path / "first.log", tmp_path / "second.log"]
    with worker_process(slow, logs[0]), worker_process(slow, logs[1]):
        battle = battle_launch(name="Slow turns", scenario=scenario, seed=5)
        wait_for(
            lambda: Battle.objects.filter(id=battle.id, status=Battle.Status.RUNNING).exists(),
            what="a worker to take the battle",
        )
        swept: list[int] = []
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            swept += battles_sweep(stale_after=timedelta(seconds=2))
            if Battle.objects.get(id=battle.id).finished:
                break
            time.sleep(0.2)
    battle.refresh_from_db()
    worker_logs = "".join(path.read_text() for path in logs)
    assert battle.status == Battle.Status.DONE, battle.error + worker_logs
    assert battle.progress_turn >= 2, "the battle should have outlasted the stale limit"
    assert swept == [] and battle.attempts == 1, worker_logs
    assert worker_logs.count(f"battle {battle.id} claimed") == 1, worker_logs
    assert BattleLog.objects.get(battle=battle).events == run_battle(scenario, 5).log_json()


@pytest.mark.django_db
def test_a_battle_whose_attempts_are_spent_ends_failed_with_its_reason(scenario, settings):
    """Killed every time it is fought (a first turn longer than the hard limit): the sweep ends
    it failed, saying why, instead of queueing it for ever."""
    with mock.patch("battles.tasks.resolve_battle.delay") as sent:
        battle = battle_launch(name="Doomed", scenario=scenario, seed=4)
        Battle.objects.filter(id=battle.id).update(
            status=Battle.Status.RUNNING,
            claim=uuid.uuid4(),
            attempts=settings.BATTLE_MAX_ATTEMPTS,
            heartbeat_at=timezone.now() - timedelta(hours=1),
        )
        sent.reset_mock()
        assert battles_sweep() == []
    assert not sent.called
    battle.refresh_from_db()
    assert battle.status == Battle.Status.FAILED
    assert "No attempt could finish" in battle.error and "hard time limit" in battle.error


@pytest.mark.django_db
def test_a_message_delivered_again_after_the_last_attempt_ends_the_battle_failed(
    scenario, settings
):
    """Celery hands a killed task's message back, with the same task id and so the same claim:
    past the last attempt it is not fought again."""
    with mock.patch("battles.tasks.resolve_battle.delay"):
        battle = battle_launch(name="Redelivered", scenario=scenario, seed=4)
    claim = uuid.uuid4()
    Battle.objects.filter(id=battle.id).update(
        status=Battle.Status.RUNNING, claim=claim, attempts=settings.BATTLE_MAX_ATTEMPTS
    )
    with mock.patch("battles.services.run_battle") as fought:
        ended = battle_resolve(battle_id=battle.id, claim=claim)
    assert not fought.called
    assert ended.status == Battle.Status.FAILED and "No attempt could finish" in ended.error
    assert ended.attempts == settings.BATTLE_MAX_ATTEMPTS


@pytest.mark.django_db
def test_a_battle_over_the_soft_time_limit_ends_failed_saying_so(scenario):
    from celery.exceptions import SoftTimeLimitExceeded

    with mock.patch("battles.tasks.resolve_battle.delay"):
        battle = battle_launch(name="Too long", scenario=scenario, seed=4)
    with mock.patch("battles.services.run_battle", side_effect=SoftTimeLimitExceeded()):
        ended = battle_resolve(battle_id=battle.id)
    assert ended.status == Battle.Status.FAILED
    assert "longer than the worker's time limit" in ended.error


def test_the_lease_renews_on_a_clock_and_notices_when_it_is_taken_away(scenario):
    from battles import lease

    with mock.patch("battles.tasks.resolve_battle.delay"):
        battle = battle_launch(name="Leased", scenario=scenario, seed=4)
    old = timezone.now() - timedelta(hours=1)
    rows = Battle.objects.filter(id=battle.id, status=Battle.Status.QUEUED)
    rows.update(heartbeat_at=old)
    with lease.held(rows, every=0.05) as held:
        wait_for(lambda: held.renewals >= 2, timeout=10, what="two renewals")
        assert Battle.objects.get(id=battle.id).heartbeat_at > old
        Battle.objects.filter(id=battle.id).update(status=Battle.Status.DONE)
        wait_for(lambda: held.lost, timeout=10, what="the lease to notice")
