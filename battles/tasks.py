"""Celery tasks for battles. Tasks are thin: they take ids and call a service."""

from __future__ import annotations

from celery import shared_task
from django.db import connection

from battles.models import Battle


@shared_task
def ping(token: str) -> dict:
    """Answer with the token and the database the worker sees: proves broker and DB work."""
    return {"token": token, "database": connection.vendor, "battles": Battle.objects.count()}
