"""The BUCS vocabulary and card text are plain Python: usable anywhere, without Django."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]


def test_it_imports_no_django():
    # A fresh interpreter, because this test run may already have Django loaded.
    script = (
        "import sys, units.bucs, units.cardtext; "
        "loaded = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')); "
        "print(loaded); sys.exit(1 if loaded else 0)"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=PROJECT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
