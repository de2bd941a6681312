"""Fixtures for battle tests: a small real scenario and a worker on the configured broker."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.conf import settings

from tests.workers import database_url, project_env, worker_process

SCENARIOS = Path(__file__).resolve().parents[2] / "battles" / "engine" / "scenarios"


@pytest.fixture
def scenario() -> dict:
    return json.loads((SCENARIOS / "crossroads.json").read_text())


@pytest.fixture
def redis_worker_env(redis_url) -> dict[str, str]:
    """The environment of a worker on Redis that sees this test's database."""
    return project_env(
        REDIS_URL=redis_url, DATABASE_URL=database_url(settings.DATABASES["default"])
    )


@pytest.fixture
def redis_worker(redis_worker_env, tmp_path):
    """A real worker process on Redis, for tests marked django_db(transaction=True)."""
    with worker_process(redis_worker_env, tmp_path / "worker.log") as process:
        yield process
