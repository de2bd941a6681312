"""Celery tasks for battles. Tasks are thin: they take ids and call a service."""

from __future__ import annotations

from celery import shared_task
from django.db import connection

from battles import odds, services
from battles.models import Battle


@shared_task(ignore_result=False)
def ping(token: str) -> dict:
    """Answer with the token and the database the worker sees: proves broker and DB work."""
    return {"token": token, "database": connection.vendor, "battles": Battle.objects.count()}


@shared_task(acks_late=True)
def resolve_battle(battle_id: int) -> None:
    """Resolve one battle (idempotent: a second delivery finds it claimed or done)."""
    services.battle_resolve(battle_id=battle_id)


@shared_task
def sweep_battles() -> list[int]:
    """Queue again the battles and odds runs that are stuck (run periodically by Celery beat)."""
    return services.battles_sweep() + odds.odds_sweep()


@shared_task(acks_late=True)
def run_odds_chunk(run_id: int, index: int) -> None:
    """Fight one chunk of an odds run (idempotent: a chunk counts once)."""
    odds.odds_chunk_run(run_id=run_id, index=index)
