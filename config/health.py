"""``/healthz``: is this process able to reach its database and its task queue?

Used by docker-compose and load balancers; answers 200 when both answer, 503 otherwise, with
a short JSON body saying which part failed (and nothing secret).
"""

from __future__ import annotations

from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from config.celery import app


def database_error() -> Exception | None:
    """Why this process cannot reach its database, or None when it answers."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("select 1")
            cursor.fetchone()
    except Exception as exc:  # any failure means "not healthy"
        return exc
    return None


def broker_error() -> Exception | None:
    """Why this process cannot reach its task queue, or None when it answers."""
    try:
        with app.connection_for_write() as broker:
            broker.ensure_connection(max_retries=1, timeout=2)
    except Exception as exc:
        return exc
    return None


def _said(error: Exception | None) -> str:
    """A check's answer: "ok", or which kind of failure (its text may name hosts)."""
    return "ok" if error is None else f"error: {type(error).__name__}"


@never_cache
@require_GET
def healthz(request):
    checks = {"database": _said(database_error()), "broker": _said(broker_error())}
    healthy = all(value == "ok" for value in checks.values())
    return JsonResponse(checks, status=200 if healthy else 503)
