"""The log: schema, determinism, replay, golden files, and an engine free of Django."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from battles.engine import (
    ENGINE_VERSION,
    Event,
    canonical_json,
    load_scenario,
    log_from_dict,
    replay,
    replay_states,
    run_battle,
)
from battles.engine.events import Removal
from battles.engine.result import BattleResult
from battles.engine.state import BattleState
from battles.logschema import LOG_SCHEMA, log_problems

from .randomized import random_scenario

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads(LOG_SCHEMA.read_text())
GOLDEN = Path(__file__).parent / "golden"
EXAMPLES = {
    "crossroads": ROOT / "battles" / "engine" / "scenarios" / "crossroads.json",
    "landing": ROOT / "battles" / "engine" / "scenarios" / "landing.json",
}
GOLDEN_CASES = [("crossroads", 1), ("crossroads", 7), ("landing", 3), ("landing", 11)]


# A handful of random battles by default; the rest of the 300 in the exhaustive run (CI runs both).
SCHEMA_SEEDS = [
    pytest.param(range(12), id="handful"),
    pytest.param(range(12, 300), id="rest", marks=pytest.mark.exhaustive),
]


@pytest.mark.parametrize("seeds", SCHEMA_SEEDS)
def test_the_log_validates_against_the_schema_for_hundreds_of_random_battles(seeds):
    validator = jsonschema.Draft202012Validator(SCHEMA)
    for seed in seeds:
        rec = run_battle(random_scenario(random.Random(seed)), seed=seed)
        errors = list(validator.iter_errors(json.loads(rec.log_json())))
        assert not errors, (seed, errors[0].message)


def test_the_example_logs_validate_against_the_schema():
    for path in EXAMPLES.values():
        rec = run_battle(load_scenario(path), seed=1)
        jsonschema.validate(json.loads(rec.log_json()), SCHEMA)


def test_the_schema_is_itself_valid():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_a_log_edited_by_hand_is_refused_by_the_schema_naming_each_field():
    # What an import reads a log from another site with (campaign.transfer.battles.check_log).
    log = json.loads(run_battle(load_scenario(EXAMPLES["crossroads"]), seed=1).log_json())
    assert list(log_problems(log)) == []
    turn = next(i for i, e in enumerate(log["events"]) if e["kind"] == "turn_start")
    log["events"][turn]["turn"] = "two"
    log["events"][turn + 1]["kind"] = "dance"
    log["events"][0]["extra"] = 1
    assert list(log_problems(log)) == [
        (".events[0]", "Additional properties are not allowed ('extra' was unexpected)"),
        (f".events[{turn}].turn", "'two' is not of type 'integer'"),
        (f".events[{turn + 1}]", "not an event of the log (kind 'dance')"),
    ]
    assert list(log_problems([])) == [("", "[] is not of type 'object'")]


def test_same_scenario_seed_and_version_give_a_byte_identical_log():
    sc = load_scenario(EXAMPLES["crossroads"])
    assert run_battle(sc, seed=9).log_json() == run_battle(sc, seed=9).log_json()
    assert run_battle(sc, seed=9).log_json() != run_battle(sc, seed=10).log_json()


def test_the_log_header_names_engine_version_seed_and_scenario_digest():
    sc = load_scenario(EXAMPLES["crossroads"])
    first = run_battle(sc, seed=4).log_dict()["events"][0]
    assert first["kind"] == "battle_start"
    assert (first["engine_version"], first["seed"], first["digest"]) == (
        ENGINE_VERSION,
        4,
        sc.digest,
    )


def test_events_round_trip_through_dicts():
    rec = run_battle(load_scenario(EXAMPLES["crossroads"]), seed=2)
    again = log_from_dict(json.loads(rec.log_json()))
    assert again == list(rec.events)
    assert all(isinstance(e, Event) for e in again)


def test_the_result_round_trips_through_its_stored_json():
    # Stored as JSON (a Battle's result) and read back by the report and the campaign.
    rec = run_battle(load_scenario(EXAMPLES["landing"]), seed=3)
    stored = json.loads(json.dumps(rec.result.to_dict()))
    again = BattleResult.from_dict(stored)
    assert again == rec.result
    assert json.loads(json.dumps(again.to_dict())) == stored
    assert {u.removed for u in again.units} >= {Removal.DESTROYED}
    assert all(isinstance(u.removed, Removal) for u in again.units)


@pytest.mark.parametrize("seed", range(40))
def test_replay_from_the_json_log_reaches_the_same_final_state(seed):
    sc_dict = random_scenario(random.Random(1000 + seed))
    rec = run_battle(sc_dict, seed=seed)
    events = log_from_dict(json.loads(rec.log_json()))
    assert replay(rec.scenario, events).snapshot() == rec.state.snapshot()


def test_replay_rebuilds_every_intermediate_state():
    """Run the battle again, snapshotting the live state at every decision and at the end, and
    compare each with the replay after the same number of events."""
    from battles.engine.battle import Battle
    from battles.engine.dice import Dice
    from battles.engine.simple import SimpleCommander

    sc = load_scenario(EXAMPLES["crossroads"])
    snaps: list[tuple[int, dict]] = []

    class Recording:
        def __init__(self):
            self.plays = SimpleCommander()

        def choose(self, view):
            snaps.append((len(view._b.log), view._b.state.snapshot()))
            return self.plays.choose(view)

    b = Battle(sc, Dice.seeded(5), {s.id: Recording() for s in sc.sides})
    b.run()
    snaps.append((len(b.log), b.state.snapshot()))
    replayed = [state.snapshot() for _, state in replay_states(sc, b.log)]
    assert len(replayed) == len(b.log) > 50
    assert len(snaps) > 20
    for events, snap in snaps:
        assert replayed[events - 1] == snap, events


def test_replay_needs_no_dice():
    rec = run_battle(load_scenario(EXAMPLES["landing"]), seed=3)
    state = BattleState.initial(rec.scenario)
    for e in rec.events:
        state.apply(e)  # no Dice anywhere in sight
    assert state.winner == rec.result.winner


@pytest.mark.parametrize(("name", "seed"), GOLDEN_CASES)
def test_golden_logs_are_reproduced_exactly(name, seed):
    rec = run_battle(load_scenario(EXAMPLES[name]), seed=seed)
    golden = GOLDEN / f"{name}-seed{seed}.json"
    assert rec.log_json() + "\n" == golden.read_text(), (
        f"{golden.name} changed; if intended, bump ENGINE_VERSION and regenerate with "
        "`python -m tests.engine.regenerate_golden`"
    )


def test_the_engine_imports_only_the_standard_library():
    """Importing the engine and playing a battle with each commander loads nothing but the
    standard library and the engine itself (with, compiled, the library its modules share)."""
    code = """
import sys
before = set(sys.modules)
from battles.engine import DefaultCommander, SimpleCommander, run_battle
from battles.engine.scenarios import load_reference
import battles.engine.cli
sc = load_reference("chopper-raid")
for policy in (DefaultCommander, SimpleCommander):
    run_battle(sc, 1, commanders={s.id: policy() for s in sc.sides}).log_json()
ours = ("battles", "battles.compiled", "battles.engine", "battles_engine__mypyc")
new = sorted(set(sys.modules) - before)
assert "battles.engine.commanders.default" in new, new
print(",".join(
    m for m in new
    if m.split(".")[0] not in sys.stdlib_module_names
    and m not in ours and not m.startswith("battles.engine.")
))
"""
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == ""


def test_canonical_json_is_sorted_and_compact():
    assert canonical_json({"b": 1, "a": [1.5, None]}) == '{"a":[1.5,null],"b":1}'
