"""Queued work, one way: a launch makes its row once per request key and is sent to the workers
after its transaction commits; a broker that is down is noted on the row for the sweep.

A launch form carries a one-time request key (``battles.forms.LaunchKeyField``). The row stores
it in a unique column, so a double click, a resent POST or two requests at the same moment make
one row and one enqueue: the first to insert wins; the others find its row. A key is its
owner's: another user sending it (copied from someone else's form) is refused.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from django.db import IntegrityError, transaction
from kombu.exceptions import OperationalError as BrokerError

from battles.models import QueuedWork
from battles.refusals import BattleInputError

logger = logging.getLogger(__name__)

Work = TypeVar("Work", bound=QueuedWork)


def launched(
    model: type[Work], *, request_key: uuid.UUID | None, owner: Any, owner_field: str = "created_by"
) -> Work | None:
    """The row this owner's request key already made, if any; ``BattleInputError`` if the key
    made another owner's. ``owner_field`` names the row's owner (a campaign's is its ``gm``:
    a new campaign and an import keep their form's key the same way, `campaign.services`)."""
    if request_key is None:
        return None
    work = model.objects.filter(request_key=request_key).first()
    if work is not None and getattr(work, f"{owner_field}_id") != getattr(owner, "pk", None):
        raise BattleInputError(
            [("request_key", "This form is damaged; reload the page and try again.")]
        )
    return work


def create_once(
    model: type[Work],
    *,
    request_key: uuid.UUID | None,
    created_by: Any,
    enqueue: Callable[[int], bool] | None,
    **fields: Any,
) -> Work:
    """Create the row and send it once the transaction commits, unless this owner's request key
    already made one: then that row, sent by whoever made it. ``enqueue`` None: the caller does
    the work itself, and nothing is sent (the sweep still sends a row left undone)."""
    try:
        with transaction.atomic():
            work = model.objects.create(request_key=request_key, created_by=created_by, **fields)
            if enqueue is not None:
                transaction.on_commit(partial(enqueue, work.pk))
    except IntegrityError:
        # The same request at the same moment: its insert committed first (PostgreSQL made this
        # one wait on the unique index; SQLite on its write lock).
        existing = launched(model, request_key=request_key, owner=created_by)
        if existing is None:
            raise
        return existing
    work.refresh_from_db()
    return work


def enqueue(model: type[QueuedWork], pk: int, send: Callable[[], Any]) -> bool:
    """Call ``send`` (which hands the row's task or tasks to the broker); on a broker error note
    it on the row and say False, else clear any earlier note."""
    what = model._meta.verbose_name
    try:
        send()
    except BrokerError as exc:
        logger.warning("%s %s could not be queued: %s", what, pk, exc)
        model.objects.filter(pk=pk).update(
            enqueue_error=f"The task queue is not reachable ({exc}). The {what} is saved and "
            "will be picked up when the queue is back."
        )
        return False
    model.objects.filter(pk=pk).exclude(enqueue_error="").update(enqueue_error="")
    return True
