"""Celery tasks for battles. Tasks are thin: they take ids and call a service."""

from __future__ import annotations

import uuid

from celery import shared_task
from django.db import connection

import config.logging  # noqa: F401  (its Celery signals put battle_id on a task's log lines)
from battles import odds, services
from battles.models import Battle

# A database that restarted or dropped the connection is not the battle's fault: try again
# (after about 1, 2, 4... seconds); Celery's Django fixup closes the broken connection first.
DATABASE_ERRORS = services.DATABASE_ERRORS


@shared_task(ignore_result=False)
def ping(token: str) -> dict:
    """Answer with the token and the database the worker sees: proves broker and DB work."""
    return {"token": token, "database": connection.vendor, "battles": Battle.objects.count()}


@shared_task(
    bind=True,
    acks_late=True,
    autoretry_for=DATABASE_ERRORS,
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=8,
)
def resolve_battle(self, battle_id: int) -> None:
    """Resolve one battle (idempotent: a second delivery finds it claimed or done).

    The claim is made from this task's id, which stays the same across its retries: a retry after a
    database error takes back the battle its own earlier try left running, while a different
    message for the same battle still finds it claimed.
    """
    task_id = self.request.id
    claim = uuid.uuid5(uuid.NAMESPACE_URL, f"celery-task:{task_id}") if task_id else None
    services.battle_resolve(battle_id=battle_id, claim=claim)


@shared_task
def sweep_battles() -> list[int]:
    """Queue again the battles and odds runs that are stuck (run periodically by Celery beat)."""
    return services.battles_sweep() + odds.odds_sweep()


@shared_task(
    acks_late=True,
    autoretry_for=DATABASE_ERRORS,
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=8,
)
def run_odds_chunk(run_id: int, index: int) -> None:
    """Fight one chunk of an odds run (idempotent: a chunk counts once)."""
    odds.odds_chunk_run(run_id=run_id, index=index)
