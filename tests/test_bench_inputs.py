"""The benchmarks turn a mistyped argument into one clear line before measuring anything, and
the engine bench runs end to end (what it prints is a figure, never asserted: speed is measured,
not tested)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _bench(script: str, *args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


@pytest.mark.parametrize(
    ("bench", "args", "says"),
    [
        ("engine", "--scenarios factory", "no bundled scenario factory; choose from big-battle,"),
        ("engine", "--sizes 4,x", "--sizes takes whole numbers separated by commas, not '4,x'"),
        ("engine", "--repeats 0", "must be positive"),
        ("engine", "--seconds -1", "must be positive"),
        ("engine", "--against /", "--against /: no battles/engine/ there to measure"),
        # The queue bench checks its arguments before it creates a database or starts a worker.
        ("queue", "--scenario x", "no bundled scenario x; choose from big-battle,"),
        ("queue", "--precise factory-hold", "--precise takes scenario:points, not 'factory-hold'"),
        ("queue", "--precise factory-hold:0", "the points must be above 0"),
        ("queue", "--precise nope:1", "no bundled scenario nope;"),
        ("queue", "--launches 0", "--launches must be at least 1"),
    ],
)
def test_a_bench_refuses_bad_arguments_in_one_line(bench, args, says):
    done = _bench(f"bench_{bench}.py", *args.split())
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert says in done.stderr.strip().splitlines()[-1]


def test_the_engine_bench_plays_a_scenario_and_writes_its_figures(tmp_path):
    out = tmp_path / "figures.json"
    done = _bench(
        "bench_engine.py",
        "--only=speed",
        "--commander=simple",
        "--scenarios=chopper-raid",
        "--repeats=1",
        "--seconds=0.05",
        f"--json={out}",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    speed = json.loads(out.read_text())["simple"]["speed"]
    assert list(speed) == ["chopper-raid"]
    assert speed["chopper-raid"]["battles_per_s"] > 0
    assert speed["chopper-raid"]["events"] > 0
    # The same battles again with every decision given: the bench checks they are the same
    # battles (it stops otherwise) and times them.
    assert speed["chopper-raid"]["decisions_given_per_s"] > 0
    assert "chopper-raid" in done.stdout
