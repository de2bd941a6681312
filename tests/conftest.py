"""Shared test fixtures: real services and real Celery worker processes."""

from __future__ import annotations

import os

import pytest
from django.conf import settings

from tests.workers import database_url, project_env, worker_process

# The campaign pages' test world (a fixture module: tests/web/conftest.py is the battle pages').

# .ci/run sets this: there, a test that needs PostgreSQL or Redis fails instead of skipping.
REQUIRE_SERVICES = os.environ.get("BRIDGEHEAD_REQUIRE_SERVICES") == "1"


def needs_service(available: bool, what: str) -> None:
    """Skip (on a developer's machine) or fail (in CI) when a real service is not configured."""
    if available:
        return
    message = f"{what} is not configured for this run"
    if REQUIRE_SERVICES:
        pytest.fail(f"{message}, but BRIDGEHEAD_REQUIRE_SERVICES=1 demands it")
    pytest.skip(message)


@pytest.fixture
def redis_url() -> str:
    needs_service(bool(settings.REDIS_URL), "Redis (REDIS_URL)")
    return settings.REDIS_URL


@pytest.fixture
def postgres() -> None:
    needs_service(
        settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql",
        "PostgreSQL (DATABASE_URL=postgres://...)",
    )


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


@pytest.fixture(autouse=True, scope="session")
def fast_password_hasher():
    """Hash test passwords with MD5: a real hasher costs more than most tests, and the cast of
    users is rebuilt for every test. Worker processes never check a password."""
    from django.contrib.auth.hashers import get_hashers

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    get_hashers.cache_clear()
    yield
