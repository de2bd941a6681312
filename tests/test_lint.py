"""The code is linted and formatted by ruff (configured in pyproject.toml)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _ruff(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True
    )


def test_ruff_finds_no_lint():
    checked = _ruff("check", ".")
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_ruff_format_leaves_everything_as_is():
    formatted = _ruff("format", "--check", ".")
    assert formatted.returncode == 0, formatted.stdout + formatted.stderr


def test_the_engine_type_checks():
    """mypy passes over the engine: build_engine.py compiles it with mypyc, and compiled code
    enforces the types it declares, so a declaration that lies would fail at run time."""
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--ignore-missing-imports", "--cache-dir", os.devnull,
         "battles/engine"],
        cwd=ROOT, capture_output=True, text=True,
    )  # fmt: skip
    assert checked.returncode == 0, checked.stdout + checked.stderr
