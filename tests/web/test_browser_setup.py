"""The browser tests skip where Chromium is missing, and fail instead when CI demands it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.workers import ROOT, project_env

BROWSER_TEST = "tests/web/test_browser.py::test_someone_elses_battle_is_not_found"


def _run(tmp_path, require: str | None) -> subprocess.CompletedProcess:
    # A database and a queue of the child's own (SQLite under tmp_path), never this run's.
    env = project_env(
        BRIDGEHEAD_CHROMIUM=str(tmp_path / "no-chromium-here"),
        BRIDGEHEAD_REQUIRE_SERVICES=require,
        BRIDGEHEAD_VAR_DIR=str(tmp_path),
        DATABASE_URL=None,
        REDIS_URL=None,
    )
    return subprocess.run(
        [sys.executable, "-m", "pytest", BROWSER_TEST, "-q", "-rs", "-p", "no:cacheprovider"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize(("require", "outcome"), [(None, "1 skipped"), ("1", "1 error")])
def test_a_missing_chromium_skips_or_fails_as_asked(tmp_path, require, outcome):
    ran = _run(tmp_path, require)
    assert outcome in ran.stdout, ran.stdout + ran.stderr
    assert "Chromium at" in ran.stdout and "apt-get install -y chromium" in ran.stdout
    assert ran.returncode == (1 if require else 0)
