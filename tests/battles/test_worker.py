"""Battles through a real broker and real worker processes: launch, faults, duplicates."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
from datetime import timedelta

import pytest

from battles.engine import run_battle
from battles.models import Battle, BattleLog
from battles.services import battle_launch, battles_sweep
from battles.tasks import resolve_battle
from tests.workers import project_env, run_python, wait_for, worker_process

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def _done(battle_id: int) -> Battle | None:
    battle = Battle.objects.get(id=battle_id)
    return battle if battle.finished else None


def test_a_launched_battle_is_resolved_by_a_worker_on_redis(scenario, redis_worker):
    battle = battle_launch(name="Crossroads", scenario=scenario, seed=3)
    done = wait_for(lambda: _done(battle.id), what="the battle to finish")
    assert done.status == Battle.Status.DONE, done.error
    assert BattleLog.objects.get(battle=battle).events == run_battle(scenario, 3).log_json()


def test_a_launched_battle_is_resolved_on_the_embedded_default(scenario, tmp_path):
    """SQLite and the filesystem broker, with a real worker process, as a fresh clone runs."""
    env = project_env(DATABASE_URL=None, REDIS_URL=None, BRIDGEHEAD_VAR_DIR=str(tmp_path))
    migrated = run_python(
        "from django.core.management import call_command\ncall_command('migrate', verbosity=0)",
        env,
    )
    assert migrated.returncode == 0, migrated.stderr
    script = f"""
import json, time
from battles.models import Battle, BattleLog
from battles.services import battle_launch
battle = battle_launch(name="Embedded", scenario=json.loads({json.dumps(scenario)!r}), seed=9)
for _ in range(600):
    battle.refresh_from_db()
    if battle.finished:
        break
    time.sleep(0.1)
print(json.dumps({{"status": battle.status, "log": BattleLog.objects.get(battle=battle).events}}))
"""
    with worker_process(env, tmp_path / "worker.log"):
        ran = run_python(script, env, timeout=120)
    assert ran.returncode == 0, ran.stderr + (tmp_path / "worker.log").read_text()
    answer = json.loads(ran.stdout.strip().splitlines()[-1])
    assert answer["status"] == "done"
    assert answer["log"] == run_battle(scenario, 9).log_json()


def test_a_worker_killed_mid_battle_loses_nothing(scenario, redis_worker_env, tmp_path):
    """SIGKILL while fighting; the sweep hands the battle on and the log is the same."""
    slow = dict(redis_worker_env, BATTLE_TURN_DELAY="0.5")
    with worker_process(slow, tmp_path / "killed.log", pool="solo") as doomed:
        battle = battle_launch(name="Doomed", scenario=scenario, seed=21)
        wait_for(
            lambda: Battle.objects.filter(id=battle.id, progress_turn__gte=1).exists(),
            what="the worker to be mid-battle",
        )
        os.kill(doomed.pid, signal.SIGKILL)
        doomed.wait()
    assert Battle.objects.get(id=battle.id).status == Battle.Status.RUNNING
    with worker_process(redis_worker_env, tmp_path / "rescuer.log"):
        assert battles_sweep(stale_after=timedelta(0)) == [battle.id]
        done = wait_for(lambda: _done(battle.id), what="the rescued battle to finish")
    assert done.status == Battle.Status.DONE, done.error
    assert done.attempts == 2
    assert BattleLog.objects.get(battle=battle).events == run_battle(scenario, 21).log_json()


def test_the_same_battle_sent_twice_is_resolved_once(scenario, redis_worker_env, tmp_path):
    slow = dict(redis_worker_env, BATTLE_TURN_DELAY="0.2")
    with worker_process(slow, tmp_path / "worker.log", concurrency=2):
        battle = battle_launch(name="Twice", scenario=scenario, seed=8)
        resolve_battle.delay(battle.id)  # a second request for the same battle
        done = wait_for(lambda: _done(battle.id), what="the battle to finish")
    assert done.status == Battle.Status.DONE
    assert done.attempts == 1
    assert BattleLog.objects.filter(battle=battle).count() == 1


@pytest.fixture
def own_redis(tmp_path):
    """A Redis server of this test's own on a free port, which the test can stop and start."""
    server = shutil.which("redis-server")
    if server is None:
        pytest.fail("redis-server is not installed (needed to take a broker down and up)")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    processes = []

    def start():
        process = subprocess.Popen(
            [
                server,
                "--port",
                str(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(tmp_path),
            ],
            stdout=subprocess.DEVNULL,
        )
        processes.append(process)
        wait_for(lambda: _answers(port), what="redis-server to start")

    def stop():
        processes[-1].terminate()
        processes[-1].wait()

    yield f"redis://127.0.0.1:{port}/0", start, stop
    for process in processes:
        if process.poll() is None:
            process.terminate()
            process.wait()


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


def test_a_broker_down_at_launch_says_so_and_the_battle_runs_when_it_returns(
    scenario, redis_worker_env, own_redis, tmp_path
):
    url, start, stop = own_redis
    env = dict(redis_worker_env, REDIS_URL=url)
    script = f"""
import json
from battles.services import battle_launch
battle = battle_launch(name="Outage", scenario=json.loads({json.dumps(scenario)!r}), seed=4)
print(json.dumps({{"id": battle.id, "message": battle.enqueue_error}}))
"""
    launched = run_python(script, env, timeout=120)  # nothing listens on the port yet
    assert launched.returncode == 0, launched.stderr
    answer = json.loads(launched.stdout.strip().splitlines()[-1])
    assert "task queue is not reachable" in answer["message"]
    assert Battle.objects.get(id=answer["id"]).status == Battle.Status.QUEUED

    start()
    with worker_process(env, tmp_path / "worker.log"):
        swept = run_python(
            "from datetime import timedelta\nfrom battles.services import battles_sweep\n"
            "print(battles_sweep(stale_after=timedelta(0)))",
            env,
        )
        assert swept.returncode == 0, swept.stderr
        done = wait_for(lambda: _done(answer["id"]), what="the battle to finish")
    stop()
    assert done.status == Battle.Status.DONE
    assert Battle.objects.get(id=answer["id"]).enqueue_error == ""
