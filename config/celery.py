"""The Celery application: configured from Django's settings (the CELERY_* names)."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("bridgehead")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
