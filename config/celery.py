"""The Celery application: configured from Django's settings (the CELERY_* names)."""

from __future__ import annotations

import os
import sys

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("bridgehead")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def worker_command(*options: str) -> list[str]:
    """The command line of a ``celery worker`` process for this app, with ``options`` after it
    (what ``serve``, the worker tests and the queue benchmark start)."""
    return [sys.executable, "-m", "celery", "-A", "config", "worker", *options]
