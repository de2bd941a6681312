"""Start and stop real Celery worker processes for tests."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

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
    env: dict[str, str], log_path: Path, *, concurrency: int = 1
) -> Iterator[subprocess.Popen]:
    """A `celery worker` process with ``env``, stopped (and reaped) when the block ends.

    Its output goes to ``log_path``, which a failing test can print.
    """
    log = log_path.open("w")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--loglevel",
            "info",
            "--concurrency",
            str(concurrency),
            "--without-gossip",
            "--without-mingle",
        ],
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
