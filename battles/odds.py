"""Odds runs: "who is favoured" — many battles of one scenario fanned out across workers.

Each chunk of battles is a task; its tallies are stored under a unique (run, chunk) key, so a
chunk that runs twice (redelivered, swept) counts once. The worker that stores the last chunk
adds them up.
"""

from __future__ import annotations

import logging
import secrets
import traceback
from datetime import timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from battles import budget, lease
from battles.engine import ENGINE_VERSION, ScenarioError, parse_scenario, run_battle
from battles.models import OddsChunk, OddsRun
from battles.services import SEED_LIMIT, BattleInputError
from battles.tally import odds_summary, tally_add, tally_empty, tally_merge

logger = logging.getLogger(__name__)

ODDS_DEFAULT_BATTLES = 1_000
ODDS_MAX_BATTLES = 100_000
ODDS_CHUNK_SIZE = 250


def odds_launch(
    *,
    scenario: dict[str, Any],
    battles: int = ODDS_DEFAULT_BATTLES,
    seed: int | None = None,
    chunk_size: int = ODDS_CHUNK_SIZE,
    name: str = "",
    created_by=None,
) -> OddsRun:
    """Validate, save the run, and queue its chunks once the transaction commits."""
    try:
        parsed = parse_scenario(scenario)
    except ScenarioError as exc:
        raise BattleInputError(exc.problems) from exc
    if not 1 <= battles <= ODDS_MAX_BATTLES:
        raise BattleInputError([("battles", f"must be 1..{ODDS_MAX_BATTLES}, got {battles}")])
    if chunk_size < 1:
        raise BattleInputError([("chunk_size", f"must be at least 1, got {chunk_size}")])
    if seed is None:
        seed = secrets.randbelow(SEED_LIMIT - ODDS_MAX_BATTLES)
    elif not 0 <= seed <= SEED_LIMIT - battles:
        raise BattleInputError([("seed", f"must be between 0 and {SEED_LIMIT - battles}")])
    cost = budget.battle_cost(parsed)
    budget.check(created_by, cost=battles * cost, odds_run=True)
    with transaction.atomic():
        run = OddsRun.objects.create(
            name=name or parsed.name,
            cost=cost,
            created_by=created_by,
            ruleset=parsed.ruleset.name,
            scenario=scenario,
            engine_version=ENGINE_VERSION,
            battles=battles,
            base_seed=seed,
            chunk_size=chunk_size,
            chunks_total=-(-battles // chunk_size),
            heartbeat_at=timezone.now(),
        )
        transaction.on_commit(partial(odds_enqueue, run_id=run.id))
    run.refresh_from_db()
    return run


def odds_enqueue(*, run_id: int) -> bool:
    """Send every chunk not yet counted to the workers; note a broker error on the run."""
    from celery import group

    from battles.tasks import run_odds_chunk

    run = OddsRun.objects.get(id=run_id)
    done = set(run.chunks.values_list("index", flat=True))
    missing = [i for i in range(run.chunks_total) if i not in done]
    try:
        group(run_odds_chunk.s(run_id, i) for i in missing).apply_async()
    except BrokerError as exc:
        logger.warning("odds run %s could not be queued: %s", run_id, exc)
        OddsRun.objects.filter(id=run_id).update(
            enqueue_error=f"The task queue is not reachable ({exc}). The run is saved and "
            "will be picked up when the queue is back."
        )
        return False
    OddsRun.objects.filter(id=run_id).exclude(enqueue_error="").update(enqueue_error="")
    return True


def odds_chunk_run(*, run_id: int, index: int) -> bool:
    """Fight one chunk's battles and store its tallies; False if it was already counted."""
    run = OddsRun.objects.get(id=run_id)
    if run.finished or run.chunks.filter(index=index).exists():
        return False
    OddsRun.objects.filter(id=run_id, status=OddsRun.Status.QUEUED).update(
        status=OddsRun.Status.RUNNING
    )
    live = OddsRun.objects.filter(
        id=run_id, status__in=[OddsRun.Status.QUEUED, OddsRun.Status.RUNNING]
    )
    try:
        # A chunk can outlast the stale limit: the lease keeps the sweep from sending it again.
        with lease.held(live):
            tallies = odds_chunk_tallies(run, index)
    except Exception:
        logger.exception("odds run %s chunk %s failed", run_id, index)
        OddsRun.objects.filter(id=run_id).exclude(status=OddsRun.Status.DONE).update(
            status=OddsRun.Status.FAILED,
            error=traceback.format_exc(limit=20),
            finished_at=timezone.now(),
        )
        return False
    try:
        with transaction.atomic():
            OddsChunk.objects.create(run_id=run_id, index=index, tallies=tallies)
            OddsRun.objects.filter(id=run_id).update(
                chunks_done=F("chunks_done") + 1, heartbeat_at=timezone.now()
            )
    except IntegrityError:
        return False  # another delivery of the same chunk got there first
    _finish_if_complete(run_id)
    return True


def odds_chunk_tallies(run: OddsRun, index: int) -> dict[str, Any]:
    """The tallies of chunk ``index``: battles ``base_seed + i`` for the chunk's ``i``."""
    scenario = parse_scenario(run.scenario)
    first = index * run.chunk_size
    last = min(run.battles, first + run.chunk_size)
    tally = tally_empty(side.id for side in scenario.sides)
    for i in range(first, last):
        tally_add(tally, run_battle(scenario, run.base_seed + i).result)
    return tally


def _finish_if_complete(run_id: int) -> None:
    """Add up the chunks once all are in; the conditional update lets one worker do it."""
    run = OddsRun.objects.get(id=run_id)
    if run.chunks_done < run.chunks_total:
        return
    scenario = parse_scenario(run.scenario)
    tally = tally_merge(
        run.chunks.values_list("tallies", flat=True), (side.id for side in scenario.sides)
    )
    units = {unit.id: side.id for side in scenario.sides for unit in side.units}
    # Only a run still in flight: a cancelled or failed one stays as it was.
    OddsRun.objects.filter(
        id=run_id, status__in=[OddsRun.Status.QUEUED, OddsRun.Status.RUNNING]
    ).update(
        status=OddsRun.Status.DONE,
        result=odds_summary(tally, units),
        finished_at=timezone.now(),
    )


def odds_cancel(*, run_id: int, user: Any) -> bool:
    """Cancel an odds run ``user`` launched that is still queued or running: its chunks not yet
    fought are skipped when a worker takes them. False if it was not theirs or is over."""
    cancelled = OddsRun.objects.filter(
        id=run_id, created_by=user, status__in=[OddsRun.Status.QUEUED, OddsRun.Status.RUNNING]
    ).update(
        status=OddsRun.Status.FAILED,
        error="Cancelled by its owner; the battles not yet fought were not fought.",
        finished_at=timezone.now(),
    )
    return bool(cancelled)


def odds_sweep(*, stale_after: timedelta | None = None) -> list[int]:
    """Queue again the missing chunks of runs that have shown no progress for a while."""
    if stale_after is None:
        stale_after = timedelta(seconds=settings.BATTLE_STALE_SECONDS)
    cutoff = timezone.now() - stale_after
    requeued = []
    stuck = OddsRun.objects.filter(
        status__in=[OddsRun.Status.QUEUED, OddsRun.Status.RUNNING], heartbeat_at__lt=cutoff
    )
    for run_id in stuck.values_list("id", flat=True):
        touched = OddsRun.objects.filter(id=run_id, heartbeat_at__lt=cutoff).update(
            heartbeat_at=timezone.now()
        )
        if touched and odds_enqueue(run_id=run_id):
            requeued.append(run_id)
    return requeued
