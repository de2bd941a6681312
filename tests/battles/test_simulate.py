"""``manage.py simulate`` prints the same battle as the engine's own command line."""

from __future__ import annotations

import json
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from battles.engine import load_scenario, run_battle

ROOT = Path(__file__).resolve().parents[2]
CROSSROADS = ROOT / "battles" / "engine" / "scenarios" / "crossroads.json"


def _simulate(*args: str) -> str:
    out = StringIO()
    call_command("simulate", *args, stdout=out)
    return out.getvalue()


def test_it_prints_a_readable_account_with_the_winner():
    text = _simulate(str(CROSSROADS), "--seed", "5")
    winner = run_battle(load_scenario(CROSSROADS), 5).result.winner
    assert f"Winner: {winner or 'draw'}" in text
    assert "Turn 1" in text or "turn 1" in text


def test_json_is_the_engines_log_and_result():
    printed = json.loads(_simulate(str(CROSSROADS), "--seed", "5", "--json"))
    record = run_battle(load_scenario(CROSSROADS), 5)
    assert printed == json.loads(json.dumps(record.to_dict()))


def test_it_matches_the_engine_command_line_without_django():
    engine = subprocess.run(
        [sys.executable, "-m", "battles.engine", str(CROSSROADS), "--seed", "5"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert engine.stdout == _simulate(str(CROSSROADS), "--seed", "5")


def test_a_bad_scenario_is_a_clear_error(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"name": "x"')
    with pytest.raises(CommandError):
        _simulate(str(bad), "--seed", "1")
    with pytest.raises(CommandError):
        _simulate(str(tmp_path / "missing.json"), "--seed", "1")


def test_it_takes_a_bundled_scenario_name_as_well_as_a_file():
    by_name = _simulate("factory-hold", "--seed", "3")
    factory = ROOT / "battles" / "engine" / "scenarios" / "factory-hold.json"
    assert by_name.startswith("Factory Hold") and by_name == _simulate(str(factory), "--seed", "3")
    with pytest.raises(CommandError, match="no bundled scenario"):
        _simulate("atlantis", "--seed", "1")
