"""Odds runs: "who is favoured" — battles of one scenario fanned out across workers, until the
odds are known.

A run asks for a precision (every outcome's 95% interval within ± so many points) and a ceiling
of battles. Its battles come in chunks: chunk ``k`` fights seeds ``base_seed + k·chunk_size``
onwards, whatever worker takes it. Each chunk's tallies are stored under a unique (run, chunk)
key, so a chunk that runs twice (redelivered, swept) counts once. At most ``ODDS_AHEAD`` chunks
are out at a time; as each lands, the next is sent.

The run stops at the first chunk ``k`` after which chunks 0..k together meet the precision
(``battles.tally.widest_points``, the same figure the page shows), or at the ceiling, or when
cancelled. Its result is those chunks' sum: the same, run for run, as fighting those seeds one
after another, however many workers there are and in whatever order they finish. A chunk fought
after the stop (it was already out) is stored but not counted.
"""

from __future__ import annotations

import logging
import secrets
import uuid
from datetime import timedelta
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from battles import budget, lease, queue
from battles.engine import ENGINE_VERSION, parse_scenario, run_battle
from battles.models import IN_FLIGHT, OddsChunk, OddsRun
from battles.services import SEED_LIMIT, BattleInputError, launch_scenario
from battles.tally import odds_summary, tally_add, tally_empty, tally_merge, widest_points

logger = logging.getLogger(__name__)

ODDS_DEFAULT_BATTLES = 10_000
"""The default ceiling: the most battles a run fights when it does not reach its precision."""
ODDS_MAX_BATTLES = 100_000
ODDS_CHUNK_SIZE = 100
ODDS_PRECISIONS = (2.0, 1.0)
"""The precisions one may ask for, in percentage points; the first is the default."""
ODDS_AHEAD = 8
"""Chunks out with the workers at once: enough to keep several busy, few to waste at the stop."""
ODDS_CHUNK_SHARE = 4
"""A chunk's battles are estimated (``budget.battle_cost`` at ``WORK_SECONDS_PER_UNIT``) to take
at most this fraction of the worker's soft time limit: the estimate runs about half of the
engine's time from source, so a chunk has room to spare (``chunk_fit``)."""


def chunk_fit(cost: int) -> int:
    """The most battles of ``cost`` one chunk may hold so that it ends well within the worker's
    soft time limit (0: not even one battle fits)."""
    seconds = settings.CELERY_TASK_SOFT_TIME_LIMIT / ODDS_CHUNK_SHARE
    return int(seconds / (max(1, cost) * settings.WORK_SECONDS_PER_UNIT))


def odds_launch(
    *,
    scenario: dict[str, Any],
    battles: int = ODDS_DEFAULT_BATTLES,
    precision: float = ODDS_PRECISIONS[0],
    seed: int | None = None,
    chunk_size: int = ODDS_CHUNK_SIZE,
    name: str = "",
    created_by=None,
    request_key: uuid.UUID | None = None,
) -> OddsRun:
    """Validate, save the run, and queue its first chunks once the transaction commits.

    ``battles`` is the ceiling, and the budget prices the run at it (``battles.budget``): the
    most it may spend. A ``request_key`` its user has launched with already is that run.
    """
    if existing := queue.launched(OddsRun, request_key=request_key, owner=created_by):
        return existing
    parsed = launch_scenario(scenario)
    if not 1 <= battles <= ODDS_MAX_BATTLES:
        raise BattleInputError([("battles", f"must be 1..{ODDS_MAX_BATTLES}, got {battles}")])
    if not 0 < precision <= 50:
        raise BattleInputError([("precision", f"must be above 0 and at most 50, got {precision}")])
    if chunk_size < 1:
        raise BattleInputError([("chunk_size", f"must be at least 1, got {chunk_size}")])
    if seed is None:
        seed = secrets.randbelow(SEED_LIMIT - ODDS_MAX_BATTLES)
    elif not 0 <= seed <= SEED_LIMIT - battles:
        raise BattleInputError([("seed", f"must be between 0 and {SEED_LIMIT - battles}")])
    cost = budget.battle_cost(parsed)
    fit = chunk_fit(cost)
    if fit < 1:
        raise BattleInputError(
            [
                (
                    "scenario",
                    f"One battle of this scenario is {cost:,} units of work, too long for an odds "
                    f"run's worker to fight within its time limit "
                    f"({settings.CELERY_TASK_SOFT_TIME_LIMIT} s): fewer turns, units or corners "
                    "of water fit.",
                )
            ]
        )
    # A chunk must end within the time limit: a big scenario's chunks hold fewer battles.
    chunk_size = min(chunk_size, fit)
    budget.check(created_by, cost=battles * cost, odds_run=True)
    chunks_total = -(-battles // chunk_size)
    return queue.create_once(
        OddsRun,
        request_key=request_key,
        created_by=created_by,
        enqueue=odds_enqueue,
        name=name or parsed.name,
        cost=cost,
        ruleset=parsed.ruleset.name,
        scenario=scenario,
        engine_version=ENGINE_VERSION,
        battles=battles,
        precision=precision,
        base_seed=seed,
        chunk_size=chunk_size,
        chunks_total=chunks_total,
        chunks_queued=min(ODDS_AHEAD, chunks_total),
        heartbeat_at=timezone.now(),
    )


def odds_enqueue(run_id: int, chunks: list[int] | None = None) -> bool:
    """Send ``chunks`` (by default every chunk sent out before and not yet counted) to the
    workers; note a broker error on the run."""
    from celery import group

    from battles.tasks import run_odds_chunk

    if chunks is None:
        run = OddsRun.objects.get(id=run_id)
        done = set(run.chunks.values_list("index", flat=True))
        chunks = [i for i in range(run.chunks_queued) if i not in done]
    send = group(run_odds_chunk.s(run_id, i) for i in chunks).apply_async
    return queue.enqueue(OddsRun, run_id, send)


def odds_chunk_run(*, run_id: int, index: int) -> bool:
    """Fight one chunk's battles and store its tallies; False if it was already counted or the
    run is over."""
    run = OddsRun.objects.get(id=run_id)
    if run.finished or run.chunks.filter(index=index).exists():
        return False
    OddsRun.objects.filter(id=run_id, status=OddsRun.Status.QUEUED).update(
        status=OddsRun.Status.RUNNING
    )
    live = OddsRun.objects.filter(id=run_id, status__in=IN_FLIGHT)
    try:
        # A chunk can outlast the stale limit: the lease keeps the sweep from sending it again.
        with lease.held(live):
            tallies = odds_chunk_tallies(run, index)
    except SoftTimeLimitExceeded:
        logger.warning("odds run %s chunk %s stopped at the time limit", run_id, index)
        _fail(
            run_id,
            f"A chunk of {run.chunk_size} battles took longer than the worker's time limit "
            f"({settings.CELERY_TASK_SOFT_TIME_LIMIT} s) and was stopped. The scenario is too "
            "large for its odds to be run: fewer turns, units or corners of water fit.",
        )
        return False
    except Exception:
        # The traceback is for the site's log; the run's page says what happened in a sentence.
        logger.exception("odds run %s chunk %s failed", run_id, index)
        _fail(
            run_id,
            f"The run stopped: a worker failed while fighting its battles (chunk {index + 1} of "
            f"{run.chunks_total}). The error is in the site's log.",
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
    if not odds_count(run_id=run_id):
        _send_more(run_id)
    return True


def _fail(run_id: int, reason: str) -> None:
    """Mark the run failed with ``reason``, a sentence its page shows (never a traceback)."""
    OddsRun.objects.filter(id=run_id).exclude(status=OddsRun.Status.DONE).update(
        status=OddsRun.Status.FAILED, error=reason, finished_at=timezone.now()
    )


def odds_chunk_tallies(run: OddsRun, index: int) -> dict[str, Any]:
    """The tallies of chunk ``index``: battles ``base_seed + i`` for the chunk's ``i``, fought
    from one parse of the scenario."""
    scenario = parse_scenario(run.scenario)
    first = index * run.chunk_size
    last = min(run.battles, first + run.chunk_size)
    tally = tally_empty(side.id for side in scenario.sides)
    for i in range(first, last):
        tally_add(tally, run_battle(scenario, run.base_seed + i).result)
    return tally


def odds_count(*, run_id: int) -> bool:
    """Count the unbroken run of chunks from the first, chunk by chunk, and stop the run at the
    first after which every outcome meets the precision, or at the ceiling; True if it is over.

    Otherwise the odds so far (and their widest ±) go on the run for its page. Any worker may
    count at any time: what it finds depends only on the chunks, so they all agree.
    """
    run = OddsRun.objects.get(id=run_id)
    if run.finished:
        return True
    tallies = dict(run.chunks.values_list("index", "tallies"))
    sides = [side["id"] for side in run.scenario["sides"]]
    total, stop = tally_empty(sides), ""
    for index in range(run.chunks_total):
        if index not in tallies:
            break
        total = tally_merge([total, tallies[index]], sides)
        if widest_points(total) <= run.precision:
            stop = OddsRun.Stop.PRECISE
            break
    else:
        stop = OddsRun.Stop.CEILING
    if total["battles"] == 0:
        return False
    units = {unit["id"]: side["id"] for side in run.scenario["sides"] for unit in side["units"]}
    figures = {
        "result": odds_summary(total, units).to_dict(),
        "battles_counted": total["battles"],
        "widest": widest_points(total),
    }
    in_flight = OddsRun.objects.filter(id=run_id, status__in=IN_FLIGHT)
    if stop:
        # Only a run still in flight: a cancelled or failed one stays as it was.
        in_flight.update(
            **figures, stop=stop, status=OddsRun.Status.DONE, finished_at=timezone.now()
        )
        return True
    in_flight.filter(battles_counted__lt=total["battles"]).update(**figures)
    return False


def _send_more(run_id: int) -> None:
    """Send the next chunks, keeping ``ODDS_AHEAD`` out; each is claimed by a conditional update
    of ``chunks_queued``, so two workers finishing together send different chunks."""
    while True:
        run = OddsRun.objects.get(id=run_id)
        following = run.chunks_queued
        out = following - run.chunks_done
        if run.finished or following >= run.chunks_total or out >= ODDS_AHEAD:
            return
        claimed = OddsRun.objects.filter(
            id=run_id, chunks_queued=following, status__in=IN_FLIGHT
        ).update(chunks_queued=following + 1)
        if claimed:
            odds_enqueue(run_id, [following])


def odds_cancel(*, run_id: int, user: Any) -> bool:
    """Cancel an odds run ``user`` launched that is still queued or running: its chunks not yet
    fought are skipped when a worker takes them. False if it was not theirs or is over."""
    cancelled = OddsRun.objects.filter(id=run_id, created_by=user, status__in=IN_FLIGHT).update(
        status=OddsRun.Status.FAILED,
        stop=OddsRun.Stop.CANCELLED,
        error="Cancelled by its owner; the battles not yet fought were not fought.",
        finished_at=timezone.now(),
    )
    return bool(cancelled)


def odds_sweep(*, stale_after: timedelta | None = None) -> list[int]:
    """Count, and send again the missing chunks of, runs that have shown no progress for a
    while (a worker lost, a broker that was down)."""
    if stale_after is None:
        stale_after = timedelta(seconds=settings.BATTLE_STALE_SECONDS)
    cutoff = timezone.now() - stale_after
    requeued = []
    stuck = OddsRun.objects.filter(status__in=IN_FLIGHT, heartbeat_at__lt=cutoff)
    for run_id in stuck.values_list("id", flat=True):
        touched = OddsRun.objects.filter(id=run_id, heartbeat_at__lt=cutoff).update(
            heartbeat_at=timezone.now()
        )
        if not touched or odds_count(run_id=run_id):
            continue
        if odds_enqueue(run_id):
            requeued.append(run_id)
        _send_more(run_id)
    return requeued
