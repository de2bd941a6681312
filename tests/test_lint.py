"""The code is linted and formatted by ruff (configured in pyproject.toml)."""

from __future__ import annotations

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
