"""Shared test fixtures: real services and real Celery worker processes."""

from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit

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


# Parallel runs (pytest-xdist, on by default): every test process gets a database of its own
# (pytest-django's test_<name>_gwN), and, set here before it starts, a var dir of its own (the
# SQLite files, the filesystem broker's folders) and a Redis db of its own (broker and page
# cache), which the worker processes it starts inherit. The tests that start Celery workers,
# servers or browsers run one after another in one test process, so they never compete for the
# machine's cores and time out.
SERVICES_GROUP = "services"
SERVICE_MARKERS = ("worker", "browser")
SERVICE_FIXTURES = {"redis_worker", "live_server", "chromium"}


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config):
    """Run in parallel unless asked not to: ``-n auto --dist loadgroup`` are the defaults (set
    here, not in addopts, so ``-p no:xdist`` still parses)."""
    if not config.pluginmanager.hasplugin("xdist") or hasattr(config, "workerinput"):
        return
    if config.option.numprocesses is None and not config.option.tx:
        config.option.numprocesses = "auto"
    if config.option.dist == "no":
        config.option.dist = "loadgroup"


def _redis_db_url(url: str, db: int) -> str:
    if db > 15:
        raise pytest.UsageError(f"too many test processes for Redis's 16 databases (db {db})")
    return urlunsplit(urlsplit(url)._replace(path=f"/{db}"))


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_setupnodes(config, specs):
    if not settings.configured:  # `-p no:django`: the engine's tests need no services
        return
    redis_db = int(urlsplit(settings.REDIS_URL).path.strip("/") or 0) if settings.REDIS_URL else 0
    for number, spec in enumerate(specs):
        spec.env["BRIDGEHEAD_VAR_DIR"] = str(settings.VAR_DIR / f"gw{number}")
        if settings.REDIS_URL:
            spec.env["REDIS_URL"] = _redis_db_url(settings.REDIS_URL, redis_db + 1 + number)


def pytest_collection_modifyitems(config, items):
    for item in items:
        if any(item.get_closest_marker(name) for name in SERVICE_MARKERS) or (
            SERVICE_FIXTURES & set(item.fixturenames)
        ):
            item.add_marker(pytest.mark.xdist_group(SERVICES_GROUP))
