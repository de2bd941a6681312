"""The move to one queued-work base keeps every row: battles, odds runs, and a campaign battle's
request key, which now lives on its battle."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("battles", "0003_battle_and_odds_run_cost"), ("campaign", "0008_campaignbattle_odds")]
SCENARIO = {"name": "kept", "sides": []}


def _summary(battles: int) -> dict:
    rate = {"rate": 0.5, "low": 0.4, "high": 0.6}
    return {"battles": battles, "draw": rate, "sides": {"a": {"win": rate}, "b": {"win": rate}}}


@pytest.mark.django_db(transaction=True)
def test_the_queued_work_migration_keeps_every_row_and_moves_the_campaign_s_request_key():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    user = old.get_model("auth", "User").objects.create(username="keeper")
    work = {"ruleset": "scifi", "scenario": SCENARIO, "engine_version": "1", "created_by": user}
    battle = old.get_model("battles", "Battle").objects.create(
        name="Old battle", seed=4, status="done", result={"winner": None}, cost=7, **work
    )
    runs = old.get_model("battles", "OddsRun").objects
    done = runs.create(
        name="Old odds", battles=500, base_seed=1, chunk_size=250, chunks_total=2,
        chunks_done=2, status="done", result=_summary(500), **work,
    )  # fmt: skip
    running = runs.create(
        name="Running odds", battles=1000, base_seed=1, chunk_size=250, chunks_total=4,
        chunks_done=1, status="running", **work,
    )  # fmt: skip
    campaign = old.get_model("campaign", "Campaign").objects.create(name="Kept", gm=user)
    key = uuid.uuid4()
    old.get_model("campaign", "CampaignBattle").objects.create(
        campaign=campaign, name="Old battle", day=1, battle=battle, request_key=key, sides={}
    )

    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    from battles.models import Battle, OddsRun
    from campaign.models import CampaignBattle

    kept = Battle.objects.get(pk=battle.pk)
    assert (kept.name, kept.seed, kept.status, kept.cost, kept.result) == (
        "Old battle", 4, "done", 7, {"winner": None},
    )  # fmt: skip
    assert kept.request_key == key
    assert CampaignBattle.objects.get(battle__request_key=key).name == "Old battle"
    finished = OddsRun.objects.get(pk=done.pk)
    assert (finished.battles, finished.chunks_queued, finished.battles_counted) == (500, 2, 500)
    assert finished.stop == OddsRun.Stop.CEILING and finished.widest == pytest.approx(10.0)
    still = OddsRun.objects.get(pk=running.pk)
    # Every chunk of a run from before was sent at launch: the sweep may send any of them again.
    assert (still.status, still.chunks_queued, still.chunks_done, still.stop) == (
        "running", 4, 1, "",
    )  # fmt: skip
