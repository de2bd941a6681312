"""A worker's lease on what it is fighting: renewed on a clock, by a thread, while the engine runs.

Liveness must not depend on how long a turn takes: a turn of a large battle can outlast the
stale limit, and a battle presumed dead while it is still being fought would be fought again.
So while a battle (or an odds chunk) runs, a thread writes ``heartbeat_at`` every
``BATTLE_HEARTBEAT_SECONDS``, well inside ``BATTLE_STALE_SECONDS``. The thread dies with its
process, so a killed worker stops beating and the sweep hands its work on.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.db import connection
from django.db.models import QuerySet
from django.utils import timezone

logger = logging.getLogger(__name__)


class Lease:
    """What the renewing thread found: ``lost`` once its rows no longer match (claimed away)."""

    def __init__(self) -> None:
        self.lost = False
        self.renewals = 0


@contextmanager
def held(rows: QuerySet, *, every: float | None = None) -> Iterator[Lease]:
    """Renew ``rows``' ``heartbeat_at`` every ``every`` seconds until the block ends.

    ``rows`` is the claim's own filter (id, claim, status), so a lease that was taken away
    renews nothing and says so in ``lost``. The thread has its own database connection, closed
    when it stops.
    """
    interval = settings.BATTLE_HEARTBEAT_SECONDS if every is None else every
    lease = Lease()
    stop = threading.Event()

    def renew() -> None:
        try:
            while not stop.wait(interval):
                try:
                    renewed = rows.update(heartbeat_at=timezone.now())
                except Exception:
                    # A database that is busy or away: try again next beat; if it stays away,
                    # the missing beats are what the sweep judges by.
                    logger.warning("heartbeat not written", exc_info=True)
                    connection.close()
                    continue
                if renewed == 0:
                    lease.lost = True
                    return
                lease.renewals += 1
        finally:
            connection.close()

    thread = threading.Thread(target=renew, name="heartbeat", daemon=True)
    thread.start()
    try:
        yield lease
    finally:
        stop.set()
        # Not joined for long: an update stuck on a lock must not hold the worker; it renews
        # nothing once the claim has moved on.
        thread.join(timeout=5)
