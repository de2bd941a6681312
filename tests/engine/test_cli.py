"""The command line and the functions the Django wrapper uses."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from battles.engine import load_scenario, run_battle
from battles.engine.cli import format_account, format_json, main, simulate

ROOT = Path(__file__).resolve().parents[2]
CROSSROADS = ROOT / "battles" / "engine" / "scenarios" / "crossroads.json"


def test_format_account_tells_the_battle_and_the_result():
    rec = run_battle(load_scenario(CROSSROADS), seed=1)
    text = format_account(rec.result, rec.events)
    assert text.startswith("Crossroads — combined_arms, seed 1")
    assert "Turn 1" in text and "Initiative:" in text and "Winner:" in text
    assert format_account(rec.result, rec.log_dict()) == text


def test_format_json_holds_log_and_result():
    rec = run_battle(load_scenario(CROSSROADS), seed=1)
    data = json.loads(format_json(rec))
    assert set(data) == {"log", "result"}
    assert data["result"]["winner"] == rec.result.winner


def test_simulate_returns_the_text_to_print():
    assert simulate(str(CROSSROADS), 1).startswith("Crossroads")
    assert json.loads(simulate(str(CROSSROADS), 1, as_json=True))["log"]["events"]


def test_main_reports_a_bad_scenario_and_exits_2(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert main([str(bad), "--seed", "1"]) == 2
    assert "ruleset: required" in capsys.readouterr().err


def test_python_dash_m_runs_the_engine():
    out = subprocess.run(
        [sys.executable, "-m", "battles.engine", str(CROSSROADS), "--seed", "2", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(out.stdout)["log"]["events"][0]["seed"] == 2


def test_the_account_shows_every_die_a_collapse_roll_passed_included():
    from battles.engine import AttackStep
    from battles.engine.events import End, EndReason
    from battles.engine.result import BattleResult

    from .helpers import act, battle, building, scenario, square, unit

    cannon = [{"name": "Cannon", "power": 5, "range": 12}]
    house = building("h", square(10, 0, 14, 4), resistance=0, hits=1, admits=(1, 3))
    sc = scenario(
        [unit("gun", (4, 2), weapons=cannon)],
        [unit("rin", (13, 2), skill=3), unit("rin2", (11, 2), skill=3)],
        buildings=[house],
    )
    b = battle(sc, [6, 1, 2, 6])  # the house falls; rin passes its roll, rin2 fails
    act(b, "gun", AttackStep("h", "Cannon"))
    b.emit(End(EndReason.TURN_LIMIT, 1, None))
    text = format_account(BattleResult.from_state(b.state), b.log)
    assert "    rin rolls collapse 2 vs 3 (success)\n" in text
    assert "rin2 takes 1 damage, 1 Hits left [collapse 6 vs 3 (failure)]" in text


def test_main_says_what_went_wrong_with_a_name_too_long_or_a_full_disk(capsys):
    # A name the system cannot look up as a file is looked for among the bundled names.
    assert main(["a" * 5000, "--seed", "1"]) == 2
    assert "no bundled scenario 'aaaa" in capsys.readouterr().err
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "battles.engine", "crossroads", "--seed", "1"],
            stdout=full, stderr=subprocess.PIPE, text=True, cwd=Path(__file__).parents[2],
        )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith("cannot write the account: No space left on device")
    assert "Traceback" not in done.stderr


def test_the_account_says_what_opposed_dice_came_to_in_the_storys_words():
    """The account said penetration and armour totals without what they came to, and ran an
    initiative tie's dice together with the throw that settled it: it says them as a battle's
    story does ("stopped", "holds", "a tie, rolled again")."""
    from battles.engine.dice import Dice
    from battles.engine.events import End, EndReason, Initiative
    from battles.engine.result import BattleResult

    log: list = []
    dice = Dice.fixed([3, 3, 2, 5, 1, 6, 6, 1])
    dice.emit = log.append
    first = dice.initiative("red", "blue")
    log.append(Initiative(1, first))
    dice.opposed("gun", "tank", 2, 3)  # 1 + 2 against 6 + 3: stopped
    dice.opposed("tank", "gun", 4, 0)  # 6 + 4 against 1 + 0: through
    log.append(End(EndReason.TURN_LIMIT, 1, None))
    text = format_account(BattleResult(None, "turn_limit", 1, (), (), ()), log)
    assert (
        "  Initiative: blue goes first (red 3, blue 3: a tie, rolled again; red 2, blue 5)\n"
        in text
    )
    assert "    gun rolls penetration 1+2=3 vs 9, stopped\n" in text
    assert "    tank rolls armour 6+3=9 vs 3, holds\n" in text
    assert "    tank rolls penetration 6+4=10 vs 1, gets through\n" in text
    assert "    gun rolls armour 1+0=1 vs 10, pierced\n" in text
    assert "win" not in text.replace("Winner", "") and "lose" not in text


def test_the_help_tells_a_user_what_the_command_does_with_an_example(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    said = " ".join(capsys.readouterr().out.split())
    assert "Fight one Team Bravo battle and print its account" in said
    assert "For example: python -m battles.engine factory-hold --seed 1" in said
    assert "management command" not in said  # the module's docstring is for its readers
