"""Shared test fixtures: real services and real Celery worker processes."""

from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings
from django.test import override_settings

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


@pytest.fixture
def locmem():
    """Mail kept in ``django.core.mail.outbox``, for tests that read what was sent."""
    with override_settings(EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend"):
        yield


@pytest.fixture(autouse=True, scope="session")
def fast_password_hasher():
    """Hash test passwords with MD5: a real hasher costs more than most tests, and the cast of
    users is rebuilt for every test. Worker processes never check a password."""
    if not settings.configured:  # `-p no:django`: the engine's tests make no users
        yield
        return
    from django.contrib.auth.hashers import get_hashers

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    get_hashers.cache_clear()
    yield


# Parallel runs (pytest-xdist, on by default): every test process gets a database of its own
# (pytest-django's test_<name>_gwN), and, set here before it starts, a var dir of its own (the
# SQLite files, the filesystem broker's folders) and a Redis db of its own (broker and page
# cache), which the worker processes it starts inherit. The tests that start browsers take
# turns in one test process, and those that start Celery workers or servers in another, so at
# most two of them share the machine's two cores at once; they are handed out first, as they
# take the longest.
BROWSERS, SERVERS = "browsers", "servers"
SERVER_FIXTURES = {"redis_worker", "live_server"}


def services_group(item) -> str | None:
    """The xdist group of a test that starts a browser, a worker or a server, else None."""
    if item.get_closest_marker("browser") or "chromium" in item.fixturenames:
        return BROWSERS
    if item.get_closest_marker("worker") or SERVER_FIXTURES & set(item.fixturenames):
        return SERVERS
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config):
    """Run in parallel unless asked not to: ``-n auto --dist loadgroup`` are the defaults (set
    here, not in addopts, so ``-p no:xdist`` still parses)."""
    if not config.pluginmanager.hasplugin("xdist"):
        return
    if hasattr(config, "workerinput"):
        # A test process re-parses the command line, which does not hold the default set below.
        config.option.loadgroup = config.workerinput.get("dist") == "loadgroup"
        return
    if config.option.numprocesses is None and not config.option.tx:
        config.option.numprocesses = "auto"
    if config.option.dist == "no":
        config.option.dist = "loadgroup"


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    node.workerinput["dist"] = node.config.option.dist


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


@pytest.hookimpl(tryfirst=True)  # before xdist names each test by its group
def pytest_collection_modifyitems(config, items):
    groups = {item: services_group(item) for item in items}
    for item, group in groups.items():
        if group:
            item.add_marker(pytest.mark.xdist_group(group))
            if getattr(config.option, "loadgroup", False) and hasattr(item, "_id"):
                # pytest-xdist 3.8 tells its scheduler a test's group by renaming the test
                # "<id>@<group>", which pytest 9.2's structured ids no longer let it do: the
                # group would be lost (and the test run anywhere). Rename it as 9.2 allows.
                item._id = type(item._id).parse(f"{item.nodeid}@{group}")
    if hasattr(config, "workerinput"):  # an xdist test process: the long groups go out first
        items.sort(key=lambda item: groups[item] is None)
