"""The fast checks an imported log is read with (`battles.logschema.fits`) give jsonschema's
verdict on every event: the engine's own, and each field of each made wrong in turn."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from battles.engine import load_scenario, run_battle
from battles.logschema import fits, log_checks, log_problems, log_schema, log_validator

SCENARIOS = Path(__file__).resolve().parents[2] / "battles" / "engine" / "scenarios"
WRONG = [None, True, 0, -1, 2.0, 2.5, 400, "", "x", "removed:1", [], [1], [[0, 0]], {}]
"""Values put in place of each field: every JSON type, and the edges the schema draws."""


def _log(name: str, seed: int) -> dict:
    return json.loads(run_battle(load_scenario(SCENARIOS / f"{name}.json"), seed=seed).log_json())


def _one_of_each_kind(log: dict) -> list[dict]:
    found: dict[str, dict] = {}
    for event in log["events"]:
        found.setdefault(event["kind"], event)
    return list(found.values())


def test_each_events_fields_made_wrong_get_the_same_verdict_as_jsonschema():
    checks = log_checks()
    events = _one_of_each_kind(_log("crossroads", 1)) + _one_of_each_kind(_log("landing", 3))
    tried = 0
    for event in events:
        fast, slow = checks.event(0 if event["kind"] == "battle_start" else 1)
        assert fast(event) and slow.is_valid(event)
        for key in [*event, "extra"]:
            for value in WRONG:
                changed = {**copy.deepcopy(event), key: value}
                assert fast(changed) == slow.is_valid(changed), (event["kind"], key, value)
                tried += 1
            missing = {k: v for k, v in event.items() if k != key}
            assert fast(missing) == slow.is_valid(missing), (event["kind"], key)
    assert tried > 500


def test_a_whole_log_gets_the_same_verdict_and_the_same_reasons():
    log = _log("crossroads", 7)
    assert log_checks().log(log) and list(log_problems(log)) == []
    for change in (
        lambda d: d["events"].pop(),
        lambda d: d.pop("engine_version"),
        lambda d: d.update(extra=1),
        lambda d: d.update(events=d["events"][:1]),
        lambda d: d["events"].insert(0, d["events"][1]),
        lambda d: d["events"][3].update(kind="battle_start"),
    ):
        data = copy.deepcopy(log)
        change(data)
        valid = log_validator().is_valid(data)
        assert log_checks().log(data) == valid
        assert (list(log_problems(data)) == []) == valid


def test_the_fast_checks_refuse_a_keyword_they_do_not_read():
    with pytest.raises(ValueError, match="do not read patternProperties"):
        fits({"type": "object", "patternProperties": {}}, {})
    assert Draft202012Validator(log_schema()).is_valid(_log("landing", 11))
