"""Running one function of the site's own scripts under Node, as the page would call it."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from tests.conftest import needs_service

ROOT = Path(__file__).resolve().parents[2]


def needs_node(what: str) -> None:
    """Skipped on a machine without Node; in CI (BRIDGEHEAD_REQUIRE_SERVICES=1) a failure."""
    needs_service(shutil.which("node") is not None, f"Node (to run {what})")


def node_call(script: Path, function: str, *args: Any) -> Any:
    """``function`` of the script's exports called with ``args`` (JSON both ways)."""
    program = (
        f"const m = require({json.dumps(str(script))});"
        "const args = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        f"process.stdout.write(JSON.stringify(m.{function}(...args)));"
    )
    done = subprocess.run(
        ["node", "-e", program], input=json.dumps(args), capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)
