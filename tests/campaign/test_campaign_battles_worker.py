"""Campaign battles through a real broker and workers: applied exactly once, whatever happens."""

from __future__ import annotations

import json
import os
import signal
import threading
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection

from battles.engine import run_battle
from battles.models import Battle, BattleLog
from battles.services import battles_sweep
from campaign.models import Campaign, CampaignBattle, HistoryEntry
from campaign.services import campaign_update
from campaign.services.battles import Deployment, campaign_battle_launch
from tests.workers import wait_for, worker_process

CROSSROADS = Path(__file__).resolve().parents[2] / "battles/engine/scenarios/crossroads.json"
pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def setup(campaign, make_unit, enemy):
    campaign_update(campaign=campaign, apply_mode=Campaign.ApplyMode.AUTO)
    deployments = [
        Deployment(unit=make_unit("1st Squad"), side="blue", position=(6, 3)),
        Deployment(unit=make_unit("2nd Squad"), side="blue", position=(10, 2)),
        Deployment(
            unit=make_unit("Red Mech", "Mech", specialties=("mechanized",), into=enemy),
            side="red",
            position=(20, 20),
        ),
    ]
    return campaign, json.loads(CROSSROADS.read_text()), deployments


def _applied(pk: int) -> CampaignBattle | None:
    campaign_battle = CampaignBattle.objects.get(pk=pk)
    return campaign_battle if campaign_battle.state == CampaignBattle.State.APPLIED else None


def _battle_entries(campaign_battle: CampaignBattle) -> int:
    return HistoryEntry.objects.filter(kind="battle", battle_id=campaign_battle.battle_id).count()


def test_launch_resolve_apply_end_to_end(setup, redis_worker):
    campaign, base, deployments = setup
    launched = campaign_battle_launch(campaign=campaign, base=base, deployments=deployments, seed=5)
    applied = wait_for(lambda: _applied(launched.pk), what="the outcome to be applied")
    assert applied.applications == 1
    assert _battle_entries(applied) == len(deployments)
    log = BattleLog.objects.get(battle_id=applied.battle_id).events
    assert log == run_battle(applied.battle.scenario, 5).log_json()


def test_a_worker_killed_mid_battle_still_ends_applied_once(setup, redis_worker_env, tmp_path):
    campaign, base, deployments = setup
    slow = dict(redis_worker_env, BATTLE_TURN_DELAY="0.5")
    with worker_process(slow, tmp_path / "killed.log", pool="solo") as doomed:
        launched = campaign_battle_launch(
            campaign=campaign, base=base, deployments=deployments, seed=6
        )
        wait_for(
            lambda: Battle.objects.filter(id=launched.battle_id, progress_turn__gte=1).exists(),
            what="the worker to be mid-battle",
        )
        os.kill(doomed.pid, signal.SIGKILL)
        doomed.wait()
    with worker_process(redis_worker_env, tmp_path / "rescuer.log"):
        battles_sweep(stale_after=timedelta(0))
        applied = wait_for(lambda: _applied(launched.pk), what="the outcome to be applied")
    assert applied.applications == 1
    assert _battle_entries(applied) == len(deployments)
    log = BattleLog.objects.get(battle_id=applied.battle_id).events
    assert log == run_battle(applied.battle.scenario, 6).log_json()


def test_two_requests_launching_the_same_battle_at_once_fight_and_apply_it_once(
    setup, redis_worker
):
    campaign, base, deployments = setup
    key = uuid.uuid4()
    barrier = threading.Barrier(2)
    launched: list[int] = []
    errors: list[BaseException] = []

    def request():
        try:
            barrier.wait()
            launched.append(
                campaign_battle_launch(
                    campaign=campaign, base=base, deployments=deployments, request_key=key
                ).pk
            )
        except BaseException as exc:  # surfaced below: a thread cannot fail the test itself
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=request) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    assert len(set(launched)) == 1
    applied = wait_for(lambda: _applied(launched[0]), what="the outcome to be applied")
    assert Battle.objects.count() == 1
    assert applied.applications == 1
    assert _battle_entries(applied) == len(deployments)
