"""Read Bridgehead's settings from the environment, failing loudly on a bad value.

django-environ parses the URLs; this module adds the checks it leaves out (an unknown
scheme or a PostgreSQL URL with no database name is accepted by it with only a warning),
so a typo in ``DATABASE_URL`` stops the process at start-up instead of surfacing later
as a confusing connection error.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from urllib.parse import urlsplit

import environ
from django.core.exceptions import ImproperlyConfigured

DATABASE_SCHEMES = {
    "postgres": "django.db.backends.postgresql",
    "postgresql": "django.db.backends.postgresql",
    "pgsql": "django.db.backends.postgresql",
    "sqlite": "django.db.backends.sqlite3",
}
BROKER_SCHEMES = {"redis", "rediss"}

env = environ.Env()


SQLITE_OPTIONS = {"transaction_mode": "IMMEDIATE", "timeout": 20}
"""SQLite takes its write lock when a transaction begins, and a second writer waits for it (up
to 20 s) rather than failing. With SQLite's default a transaction that reads, then writes, is
refused at once ("database is locked") while another writes: a double-clicked form, or a page
saved while the worker stores a battle, would answer with an error."""


def database_config(url: str | None, *, default_sqlite: Path) -> dict:
    """Django's DATABASES["default"] for ``url``, or a SQLite file when it is unset."""
    if not url:
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(default_sqlite),
            "OPTIONS": dict(SQLITE_OPTIONS),
        }
    scheme = urlsplit(url).scheme
    if scheme not in DATABASE_SCHEMES:
        raise ImproperlyConfigured(
            f"DATABASE_URL must start with postgres:// or sqlite:///, got {_redact(url)!r}"
        )
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            config = environ.Env.db_url_config(url)
    except (ValueError, UserWarning) as exc:
        raise ImproperlyConfigured(f"DATABASE_URL is malformed ({exc}): {_redact(url)!r}") from exc
    if not config.get("NAME"):
        raise ImproperlyConfigured(f"DATABASE_URL names no database: {_redact(url)!r}")
    if config["ENGINE"] == DATABASE_SCHEMES["postgres"] and not config.get("HOST"):
        raise ImproperlyConfigured(f"DATABASE_URL names no host: {_redact(url)!r}")
    if config["ENGINE"] == DATABASE_SCHEMES["sqlite"]:
        config["OPTIONS"] = {**SQLITE_OPTIONS, **config.get("OPTIONS", {})}
    return config


def broker_url(url: str | None) -> str | None:
    """The Redis URL to use as broker, or None for the embedded filesystem broker."""
    if not url:
        return None
    parts = urlsplit(url)
    if parts.scheme not in BROKER_SCHEMES or not parts.hostname:
        raise ImproperlyConfigured(
            f"REDIS_URL must look like redis://host:6379/0, got {_redact(url)!r}"
        )
    try:
        parts.port  # noqa: B018 - raises ValueError on a port that is not a number
    except ValueError as exc:
        raise ImproperlyConfigured(f"REDIS_URL has a bad port: {_redact(url)!r}") from exc
    return url


def _redact(url: str) -> str:
    """The URL with any password replaced, so errors never print secrets."""
    parts = urlsplit(url)
    if parts.password:
        return url.replace(f":{parts.password}@", ":***@", 1)
    return url
