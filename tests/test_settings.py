"""Settings come from the environment, and a bad value stops start-up with a clear message."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import broker_url, database_config
from tests.workers import project_env, run_python

SQLITE = Path("/tmp/x.sqlite3")


def test_it_defaults_to_a_sqlite_file():
    assert database_config("", default_sqlite=SQLITE) == {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": str(SQLITE),
        "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 20},
    }
    given = database_config(f"sqlite:///{SQLITE}", default_sqlite=SQLITE)
    assert given["OPTIONS"] == {"transaction_mode": "IMMEDIATE", "timeout": 20}


def test_a_second_sqlite_writer_waits_for_the_first_rather_than_failing(
    tmp_path, django_db_blocker
):
    # A transaction that reads and then writes while another writes: a double-clicked form, or
    # a page saved while the worker stores a battle. With SQLite's default it is refused at
    # once ("database is locked"); as configured it waits its turn, and both land.
    from django.db import connections, transaction

    alias = "two-writers"
    config = database_config("", default_sqlite=tmp_path / "two.sqlite3")
    connections.settings[alias] = connections.configure_settings({"default": config})["default"]
    writing, done = threading.Event(), []

    def first() -> None:
        with transaction.atomic(using=alias):
            connections[alias].cursor().execute("UPDATE t SET n = n + 1")
            writing.set()
            time.sleep(0.5)  # holds the write lock while the second begins
        connections[alias].close()
        done.append("first")

    try:
        with django_db_blocker.unblock():
            connections[alias].cursor().execute("CREATE TABLE t (n integer)")
            connections[alias].cursor().execute("INSERT INTO t VALUES (0)")
            writer = threading.Thread(target=first)
            writer.start()
            writing.wait(5)
            with transaction.atomic(using=alias):
                cursor = connections[alias].cursor()
                cursor.execute("SELECT n FROM t")
                (seen,) = cursor.fetchone()
                cursor.execute("UPDATE t SET n = %s", [seen + 1])
            writer.join()
            cursor = connections[alias].cursor()
            cursor.execute("SELECT n FROM t")
            assert cursor.fetchone() == (2,) and done == ["first"]
    finally:
        connections[alias].close()
        del connections.settings[alias]


def test_it_reads_a_postgres_url():
    config = database_config("postgres://bob:pw@db.example:5433/camp", default_sqlite=SQLITE)
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["HOST"], config["PORT"], config["NAME"], config["USER"]) == (
        "db.example",
        5433,
        "camp",
        "bob",
    )


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("notaurl", "must start with postgres://"),
        ("mysql://u@h/db", "must start with postgres://"),
        ("postgres://u@h:notaport/db", "malformed"),
        ("postgres://u@h:5432/", "names no database"),
        ("postgres:///db", "names no host"),
    ],
)
def test_it_refuses_a_malformed_database_url(url, reason):
    with pytest.raises(ImproperlyConfigured, match=reason):
        database_config(url, default_sqlite=SQLITE)


def test_it_never_prints_the_database_password():
    with pytest.raises(ImproperlyConfigured) as caught:
        database_config("postgres://bob:s3cret@h:x/db", default_sqlite=SQLITE)
    assert "s3cret" not in str(caught.value)


@pytest.mark.parametrize("url", ["amqp://h", "redis://", "redis://h:port/0", "localhost:6379"])
def test_it_refuses_a_malformed_redis_url(url):
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL"):
        broker_url(url)


def test_it_uses_the_embedded_broker_without_redis_url():
    assert broker_url("") is None
    assert broker_url("redis://127.0.0.1:6379/0") == "redis://127.0.0.1:6379/0"


def test_start_up_fails_loudly_on_a_malformed_database_url(tmp_path):
    """The whole process refuses to start, naming the variable and the problem."""
    env = project_env(DATABASE_URL="postgres://u@h:notaport/db", BRIDGEHEAD_VAR_DIR=str(tmp_path))
    started = run_python("print('started')", env)
    assert started.returncode != 0
    assert "started" not in started.stdout
    assert "ImproperlyConfigured: DATABASE_URL is malformed" in started.stderr


def test_production_requires_a_real_secret_key(tmp_path):
    env = project_env(
        BRIDGEHEAD_ENV="production",
        SECRET_KEY=None,
        ALLOWED_HOSTS="example.org",
        BRIDGEHEAD_VAR_DIR=str(tmp_path),
    )
    started = run_python("print('started')", env)
    assert started.returncode != 0
    assert "SECRET_KEY must be set" in started.stderr


def test_production_turns_debug_off(tmp_path):
    env = project_env(
        BRIDGEHEAD_ENV="production",
        SECRET_KEY="k" * 60,
        ALLOWED_HOSTS="example.org",
        BRIDGEHEAD_VAR_DIR=str(tmp_path),
        DEBUG=None,
    )
    started = run_python(
        "from django.conf import settings\n"
        "print(settings.DEBUG, settings.SESSION_COOKIE_SECURE, settings.ALLOWED_HOSTS)",
        env,
    )
    assert started.returncode == 0, started.stderr
    assert started.stdout.strip() == "False True ['example.org']"


def test_it_refuses_an_unknown_environment_name(tmp_path):
    env = project_env(BRIDGEHEAD_ENV="prod", BRIDGEHEAD_VAR_DIR=str(tmp_path))
    started = run_python("print('started')", env)
    assert "BRIDGEHEAD_ENV must be 'development' or 'production'" in started.stderr
