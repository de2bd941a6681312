"""A trivial task round-trips through a real worker process on each broker."""

from __future__ import annotations

import json
import uuid

import pytest
from django.conf import settings

from battles.models import Battle
from battles.tasks import ping
from tests.workers import database_url, project_env, run_python, worker_process

pytestmark = pytest.mark.worker


def test_it_round_trips_on_the_embedded_default(tmp_path):
    """SQLite and the filesystem broker, as a fresh clone runs them: no servers at all."""
    env = project_env(DATABASE_URL=None, REDIS_URL=None, BRIDGEHEAD_VAR_DIR=str(tmp_path))
    migrated = run_python(
        "from django.core.management import call_command\ncall_command('migrate', verbosity=0)", env
    )
    assert migrated.returncode == 0, migrated.stderr
    token = uuid.uuid4().hex
    with worker_process(env, tmp_path / "worker.log"):
        sent = run_python(
            "import json\nfrom battles.tasks import ping\n"
            f"print(json.dumps(ping.delay({token!r}).get(timeout=60)))",
            env,
            timeout=90,
        )
    assert sent.returncode == 0, sent.stderr + (tmp_path / "worker.log").read_text()
    answer = json.loads(sent.stdout.strip().splitlines()[-1])
    assert answer == {"token": token, "database": "sqlite", "battles": 0}
    assert (tmp_path / "bridgehead.sqlite3").exists()


@pytest.mark.django_db(transaction=True)
def test_it_round_trips_on_redis_with_the_same_database(redis_url, tmp_path):
    """Redis as broker; the worker reads the database this test wrote to."""
    Battle.objects.create(
        name="Marker", ruleset="combined_arms", scenario={}, seed=1, engine_version="test"
    )
    database = settings.DATABASES["default"]
    env = project_env(REDIS_URL=redis_url, DATABASE_URL=database_url(database))
    token = uuid.uuid4().hex
    with worker_process(env, tmp_path / "worker.log"):
        try:
            answer = ping.delay(token).get(timeout=60)
        except Exception:
            print((tmp_path / "worker.log").read_text())
            raise
    assert answer == {"token": token, "database": database_vendor(), "battles": 1}


def database_vendor() -> str:
    from django.db import connection

    return connection.vendor
