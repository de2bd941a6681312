"""The table rules (characters, Orders, engagements, checks, dice) are plain Python too."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]
PURE = (
    "campaign.characters",
    "campaign.checks",
    "campaign.command",
    "campaign.dice",
    "campaign.engagement",
    "campaign.orders",
)


def test_the_table_rules_import_no_django():
    script = (
        f"import sys, importlib; [importlib.import_module(m) for m in {PURE!r}]; "
        "loaded = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')); "
        "print(loaded); sys.exit(1 if loaded else 0)"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=PROJECT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
