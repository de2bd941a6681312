"""Start and stop real Celery worker processes for tests."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from config.celery import worker_command

ROOT = Path(__file__).resolve().parent.parent


def project_env(**overrides: str | None) -> dict[str, str]:
    """The environment for a child process: this one's, with overrides (None removes)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT)
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    for key, value in overrides.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


@contextmanager
def worker_process(
    env: dict[str, str],
    log_path: Path,
    *,
    concurrency: int = 1,
    pool: str = "prefork",
    queues: str = "",
) -> Iterator[subprocess.Popen]:
    """A `celery worker` process with ``env``, stopped (and reaped) when the block ends.

    Its output goes to ``log_path``, which a failing test can print. ``queues`` (comma-separated)
    limits it to those queues, as ``-Q`` does; by default it takes every queue.
    """
    log = log_path.open("w")
    process = subprocess.Popen(
        worker_command(
            "--loglevel",
            "info",
            "--concurrency",
            str(concurrency),
            "--without-gossip",
            "--without-mingle",
            *(["--queues", queues] if queues else []),
        ),
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def run_python(code: str, env: dict[str, str], timeout: float = 60) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter with Django set up under ``env``."""
    prelude = "import django\ndjango.setup()\n"
    return subprocess.run(
        [sys.executable, "-c", prelude + code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def database_url(database: dict) -> str:
    """A DATABASE_URL for a database settings dict (e.g. the test database pytest-django made)."""
    if database["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{database['NAME']}"
    user = database.get("USER") or ""
    password = f":{database['PASSWORD']}" if database.get("PASSWORD") else ""
    auth = f"{user}{password}@" if user else ""
    port = f":{database['PORT']}" if database.get("PORT") else ""
    return f"postgres://{auth}{database['HOST']}{port}/{database['NAME']}"


def wait_for(condition, *, timeout: float = 60, interval: float = 0.1, what: str = "condition"):
    """Poll ``condition`` until it returns something truthy; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")
