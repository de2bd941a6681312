"""Structured logs for web and workers: one ``key=value`` line per record.

Every line carries the time, level, logger and process; a line a worker writes while it works
on a battle or an odds run also carries ``battle_id=`` (or ``odds_run_id=``). The ids live in a
context variable: the services set it around their work (``log_context``), and Celery's
``task_prerun``/``task_postrun`` signals set it for the whole task, so Celery's own lines
about the task carry it too. ``LOGGING`` in ``config/settings.py`` wires the filter and the
formatter; a worker uses the same configuration (Celery's ``setup_logging`` signal below).
"""

from __future__ import annotations

import contextvars
import logging
import logging.config
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

from celery import signals

# The ids the current work is about, e.g. {"battle_id": 7}; empty outside a battle.
LOG_CONTEXT: contextvars.ContextVar[dict[str, object] | None] = contextvars.ContextVar(
    "bridgehead_log_context", default=None
)

# Task name -> the log key its first argument is the id of.
TASK_CONTEXT_KEYS = {
    "battles.tasks.resolve_battle": "battle_id",
    "battles.tasks.run_odds_chunk": "odds_run_id",
    "campaign.tasks.campaign_battle_finished": "battle_id",
}


@contextmanager
def log_context(**ids: object) -> Iterator[None]:
    """Put ``ids`` (e.g. ``battle_id=7``) on every log line written inside the block."""
    token = LOG_CONTEXT.set({**(LOG_CONTEXT.get() or {}), **ids})
    try:
        yield
    finally:
        LOG_CONTEXT.reset(token)


class ContextFilter(logging.Filter):
    """Copy the current context's ids (battle_id, odds_run_id) onto each record."""

    def filter(self, record: logging.LogRecord) -> bool:
        for key, value in (LOG_CONTEXT.get() or {}).items():
            if not hasattr(record, key):
                setattr(record, key, value)
        return True


class RefusalFilter(logging.Filter):
    """A refused request (403, 404 and the like) is the site working as designed: keep its one
    line, drop the traceback Django attaches to it. Server errors keep theirs."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if isinstance(status, int) and status < 500:
            record.exc_info = None
            record.exc_text = None
        return True


# Fields a record always has, which are not extra context.
_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "taskName"}
_CONTEXT_FIRST = ("battle_id", "odds_run_id")


def _quote(value: object) -> str:
    text = str(value)
    if text and not any(c in text for c in ' "=\n\t\\'):
        return text
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return '"' + escaped.replace("\t", "\\t") + '"'


class KeyValueFormatter(logging.Formatter):
    """``ts=... level=... logger=... pid=... battle_id=... msg="..."``, one line per record.

    Extra attributes given with ``extra={...}`` or by the context filter follow ``pid``;
    a traceback is kept on the same line in ``exc=`` (newlines escaped), so a line is a record.
    """

    def format(self, record: logging.LogRecord) -> str:
        moment = datetime.fromtimestamp(record.created, UTC)
        fields: list[tuple[str, object]] = [
            ("ts", moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"),
            ("level", record.levelname),
            ("logger", record.name),
            ("pid", record.process),
        ]
        extra = {k: v for k, v in vars(record).items() if k not in _STANDARD}
        for key in _CONTEXT_FIRST:
            if key in extra:
                fields.append((key, extra.pop(key)))
        fields.extend(sorted(extra.items()))
        fields.append(("msg", record.getMessage()))
        if record.exc_info:
            fields.append(("exc", self.formatException(record.exc_info)))
        elif record.exc_text:
            fields.append(("exc", record.exc_text))
        return " ".join(f"{key}={_quote(value)}" for key, value in fields)


@signals.setup_logging.connect
def _worker_logging(loglevel=None, **kwargs) -> None:
    """A worker logs like the web (Django's LOGGING, not Celery's own format), at the level
    of its ``--loglevel`` (Celery's default: WARNING; docker-compose asks for INFO)."""
    from django.conf import settings

    logging.config.dictConfig(settings.LOGGING)
    if loglevel:
        logging.getLogger().setLevel(loglevel)


@signals.task_prerun.connect
def _task_started(task=None, args=None, kwargs=None, **extra) -> None:
    """Set the task's battle or odds-run id for every line written while it runs."""
    key = TASK_CONTEXT_KEYS.get(getattr(task, "name", ""))
    if key is None:
        return
    kwargs = kwargs or {}
    value = args[0] if args else kwargs.get("battle_id", kwargs.get("run_id"))
    if value is not None:
        task.request.bridgehead_log_token = LOG_CONTEXT.set(
            {**(LOG_CONTEXT.get() or {}), key: value}
        )


@signals.task_postrun.connect
def _task_finished(task=None, **extra) -> None:
    token = getattr(getattr(task, "request", None), "bridgehead_log_token", None)
    if token is not None:
        task.request.bridgehead_log_token = None
        try:
            LOG_CONTEXT.reset(token)
        except ValueError:  # set in another context (eager calls nest): just clear it
            LOG_CONTEXT.set(None)
