"""Battle services: launch a battle, resolve it exactly once on a worker, sweep stuck ones.

Views and tasks call these; they hold the logic. A battle is claimed with a conditional update
(only one worker can move it from queued to running) and carries the claim's token, so a
worker that was presumed dead and later wakes up cannot overwrite what another worker wrote.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import time
import traceback
import uuid
from datetime import timedelta
from functools import partial
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.db.utils import InterfaceError, OperationalError
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from battles import budget, lease, queue
from battles.engine import ENGINE_VERSION, Scenario, ScenarioError, parse_scenario, run_battle
from battles.engine.validation import MAX_SCENARIO_TEXT
from battles.jsontext import read_json
from battles.models import ONE_OFF, Battle, BattleLog
from battles.refusals import BattleInputError
from config.logging import log_context

logger = logging.getLogger(__name__)

# Errors of the database itself (restarted, connection dropped): the task retries on these.
DATABASE_ERRORS = (OperationalError, InterfaceError)

SEED_LIMIT = 2**53 - 1
"""The largest seed: every seed survives a trip through JSON and JavaScript, so one read off a
page can be typed back into a form (the seed column itself would hold 2**63 - 1)."""


def seed_problem(seed: Any) -> str | None:
    """What keeps ``seed`` from being one that a battle, an engagement or a roll of the table
    takes, or None: a seed is a whole number from 0 to `SEED_LIMIT` (None asks for a fresh one).
    The one check every service makes."""
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= SEED_LIMIT:
        return f"must be a whole number between 0 and {SEED_LIMIT}, got {seed!r}"
    return None


def scenario_from_text(text: str) -> Any:
    """Pasted JSON text as data, or ``BattleInputError`` saying why not: longer than the
    engine's ``MAX_SCENARIO_TEXT`` (its one limit on a scenario's text), not JSON, or nested too
    deep to read. What the data holds is the engine's to judge (``parse_scenario``), a NUL
    character included."""
    if len(text) > MAX_SCENARIO_TEXT:
        raise BattleInputError(
            [("scenario", f"must be at most {MAX_SCENARIO_TEXT} characters, got {len(text)}")]
        )
    try:
        return read_json(text, "the scenario")
    except ValueError as exc:
        raise BattleInputError([("scenario", str(exc))]) from None


def launch_scenario(scenario: Any) -> Scenario:
    """The scenario a battle or an odds run is launched with, parsed, or ``BattleInputError``
    with the engine's problems: its limits first (they bound the cost of everything after),
    a NUL character among them (the database stores none)."""
    try:
        return parse_scenario(scenario)
    except ScenarioError as exc:
        raise BattleInputError(exc.problems) from exc


def battle_launch(
    *,
    name: str,
    scenario: dict[str, Any],
    seed: int | None = None,
    created_by=None,
    notify_task: str = "",
    campaign_battles=None,
    request_key: uuid.UUID | None = None,
    queued: bool = True,
) -> Battle:
    """Validate the scenario, save the battle, and queue it once the transaction commits
    (``queued`` False: the caller fights it itself, with `battle_resolve`, and nothing is sent
    to the workers).

    A launch with a ``request_key`` its user has launched with already is that battle
    (``battles.queue``): checked first, so a resent form is not refused by its own budget.

    The launch must fit its user's budget, and the campaign's when ``campaign_battles`` (the
    campaign's battles) is given (``battles.budget``; ``WorkRefused`` otherwise). If the broker
    is down the battle is still saved (status queued, ``enqueue_error`` set); the sweep queues it
    when the broker returns.
    """
    if existing := queue.launched(Battle, request_key=request_key, owner=created_by):
        return existing
    parsed = launch_scenario(scenario)
    if problem := seed_problem(seed):
        raise BattleInputError([("seed", problem)])
    if seed is None:
        seed = secrets.randbelow(SEED_LIMIT)
    name = name or parsed.name
    limit = Battle._meta.get_field("name").max_length
    if len(name) > limit:
        raise BattleInputError([("name", f"must be at most {limit} characters, got {len(name)}")])
    cost = budget.battle_cost(parsed)
    budget.check(created_by, cost=cost, campaign_battles=campaign_battles)
    return queue.create_once(
        Battle,
        request_key=request_key,
        created_by=created_by,
        enqueue=battle_enqueue if queued else None,
        name=name,
        cost=cost,
        ruleset=parsed.ruleset.name,
        scenario=scenario,
        seed=seed,
        notify_task=notify_task,
        engine_version=ENGINE_VERSION,
        turn_limit=parsed.turn_limit,
        heartbeat_at=timezone.now(),
    )


def battle_enqueue(battle_id: int) -> bool:
    """Send the battle to the workers; on a broker error, note it on the battle and say False."""
    from battles.tasks import resolve_battle  # tasks import services: import here, not above

    return queue.enqueue(Battle, battle_id, partial(resolve_battle.delay, battle_id))


def battle_resolve(*, battle_id: int, claim: uuid.UUID | None = None) -> Battle | None:
    """Claim a queued battle, fight it from its seed, and store log, result and status together.

    Returns None when there was nothing to do (already claimed, done or failed): running it
    twice changes nothing the second time. ``claim`` is the caller's token (made from the task's
    id, the same on each of its retries): a battle left running under that very claim — by the same
    task's earlier try, cut short by a database error — is taken back and fought again from
    the start. A database error is raised, not stored: the task retries it.
    """
    with log_context(battle_id=battle_id):
        return _battle_resolve(battle_id, claim or uuid.uuid4())


def _battle_resolve(battle_id: int, token: uuid.UUID) -> Battle | None:
    now = timezone.now()
    claimable = Q(status=Battle.Status.QUEUED) | Q(status=Battle.Status.RUNNING, claim=token)
    claimed = Battle.objects.filter(
        claimable, id=battle_id, attempts__lt=settings.BATTLE_MAX_ATTEMPTS
    ).update(
        status=Battle.Status.RUNNING,
        claim=token,
        started_at=now,
        heartbeat_at=now,
        attempts=F("attempts") + 1,
        progress_turn=0,
        progress_activation=0,
    )
    if not claimed:
        # A message delivered again after its worker was killed (the hard time limit, out of
        # memory) would otherwise start the same doomed attempt for ever.
        spent = Battle.objects.filter(
            claimable, id=battle_id, attempts__gte=settings.BATTLE_MAX_ATTEMPTS
        )
        if _give_up(spent, _attempts_spent_reason()):
            return Battle.objects.get(id=battle_id)
        logger.info("battle %s already claimed or finished: nothing to do", battle_id)
        return None
    battle = Battle.objects.get(id=battle_id)
    logger.info("battle %s claimed (attempt %s)", battle_id, battle.attempts)
    mine = Battle.objects.filter(id=battle_id, claim=token, status=Battle.Status.RUNNING)
    try:
        with lease.held(mine):
            record = run_battle(battle.scenario, battle.seed, on_turn=partial(_progress, mine=mine))
    except DATABASE_ERRORS:
        logger.warning("battle %s: the database failed mid-battle; it will be retried", battle_id)
        raise
    except SoftTimeLimitExceeded:
        logger.warning("battle %s stopped at the time limit", battle_id)
        _give_up(
            mine,
            f"The battle took longer than the worker's time limit "
            f"({settings.CELERY_TASK_SOFT_TIME_LIMIT} s) and was stopped. The scenario is too "
            "large for one battle: fewer units or terrain pieces fight within it.",
        )
        return Battle.objects.get(id=battle_id)
    except Exception:
        # A bug or an impossible scenario: keep the error for the GM; nothing else is written.
        logger.exception("battle %s failed", battle_id)
        _give_up(mine, traceback.format_exc(limit=20))
        return Battle.objects.get(id=battle_id)
    log_json = record.log_json()
    with transaction.atomic():
        finished = mine.update(
            status=Battle.Status.DONE,
            result=record.result.to_dict(),
            engine_version=ENGINE_VERSION,
            progress_turn=record.result.turns,
            finished_at=timezone.now(),
            heartbeat_at=timezone.now(),
            error="",
            claim=None,
        )
        if finished != 1:
            # Presumed dead and re-claimed by another worker: that worker's write stands.
            return None
        BattleLog.objects.create(
            battle_id=battle_id,
            events=log_json,
            sha256=hashlib.sha256(log_json.encode()).hexdigest(),
            event_count=len(record.events),
        )
        if battle.notify_task:
            transaction.on_commit(partial(_notify, battle))
    logger.info(
        "battle %s done: %s turns, %s events", battle_id, record.result.turns, len(record.events)
    )
    return Battle.objects.get(id=battle_id)


def _attempts_spent_reason() -> str:
    return (
        f"No attempt could finish: the battle was started {settings.BATTLE_MAX_ATTEMPTS} times "
        "and each time its worker stopped (killed, out of memory, or over the hard time limit "
        f"of {settings.CELERY_TASK_TIME_LIMIT} s). It is not started again."
    )


def _give_up(rows, reason: str) -> bool:
    """Mark the battle in ``rows`` failed with ``reason`` (and tell whoever asked); False if
    ``rows`` no longer matched it."""
    ids = list(rows.values_list("pk", flat=True))
    failed = rows.filter(pk__in=ids).update(
        status=Battle.Status.FAILED, error=reason, finished_at=timezone.now(), claim=None
    )
    if failed:
        for battle in Battle.objects.filter(pk__in=ids, status=Battle.Status.FAILED):
            if battle.notify_task:
                _notify(battle)
    return bool(failed)


def _notify(battle: Battle) -> None:
    """Tell whoever asked (by task name) that the battle is done; their sweep covers a miss."""
    from celery import current_app

    try:
        current_app.send_task(battle.notify_task, args=[battle.id])
    except BrokerError:
        logger.warning("battle %s done, but %s could not be sent", battle.id, battle.notify_task)


def _progress(turn: int, *, mine) -> None:
    """Record the turn reached, for the page that polls (liveness is the lease's business)."""
    mine.update(progress_turn=turn)
    if settings.BATTLE_TURN_DELAY:
        # Battles take milliseconds; a pause lets a demo audience watch one being fought.
        time.sleep(settings.BATTLE_TURN_DELAY)


def battle_cancel(*, battle_id: int, user: Any) -> bool:
    """Cancel a one-off battle ``user`` launched that no worker has taken yet; False if it was
    not theirs, not one-off (a campaign's battle), or already taken."""
    cancelled = Battle.objects.filter(
        ONE_OFF, id=battle_id, created_by=user, status=Battle.Status.QUEUED
    ).update(
        status=Battle.Status.FAILED,
        error="Cancelled by its owner before it was fought.",
        finished_at=timezone.now(),
        claim=None,
    )
    return bool(cancelled)


def battles_sweep(*, stale_after: timedelta | None = None) -> list[int]:
    """Queue again every battle stuck in queued or running without a sign of life.

    A running battle's worker renews its lease on a clock however long a turn takes, so a
    running battle without a beat for ``stale_after`` has truly lost its worker (killed,
    machine lost); a queued battle may have missed the broker. Either is put back to queued and
    sent again (the claim makes a duplicate message harmless), unless it has used up its
    attempts: then it ends failed, with the reason.
    """
    if stale_after is None:
        stale_after = timedelta(seconds=settings.BATTLE_STALE_SECONDS)
    cutoff = timezone.now() - stale_after
    stuck_now = Q(status=Battle.Status.RUNNING) | Q(status=Battle.Status.QUEUED)
    stuck = Battle.objects.filter(stuck_now, heartbeat_at__lt=cutoff)
    requeued = []
    for battle_id in stuck.values_list("id", flat=True):
        still = Battle.objects.filter(stuck_now, id=battle_id, heartbeat_at__lt=cutoff)
        if _give_up(
            still.filter(attempts__gte=settings.BATTLE_MAX_ATTEMPTS), _attempts_spent_reason()
        ):
            logger.warning("battle %s failed: its attempts are used up", battle_id)
            continue
        reset = still.update(status=Battle.Status.QUEUED, claim=None, heartbeat_at=timezone.now())
        if reset and battle_enqueue(battle_id=battle_id):
            requeued.append(battle_id)
    if requeued:
        logger.info("sweep queued battles again: %s", requeued)
    return requeued
