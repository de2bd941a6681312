"""The campaign rules are plain Python: usable and testable without Django."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]
PURE = (
    "campaign.rules.state",
    "campaign.rules.bridge",
    "campaign.rules.recovery",
    "campaign.rules.experience",
    "campaign.rules.quick",
    "campaign.rules.history",
    "campaign.rules.values",
    "units.terrain",
)


def test_it_imports_no_django():
    # A fresh interpreter, because this test run has Django loaded already.
    script = (
        f"import sys, importlib; [importlib.import_module(m) for m in {PURE!r}]; "
        "loaded = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')); "
        "print(loaded); sys.exit(1 if loaded else 0)"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=PROJECT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
