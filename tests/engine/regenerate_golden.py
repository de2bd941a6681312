"""Rewrite the golden logs after an intended change: `python -m tests.engine.regenerate_golden`."""

from __future__ import annotations

from battles.engine import load_scenario, run_battle

from .test_log import EXAMPLES, GOLDEN, GOLDEN_CASES

if __name__ == "__main__":
    for name, seed in GOLDEN_CASES:
        rec = run_battle(load_scenario(EXAMPLES[name]), seed=seed)
        (GOLDEN / f"{name}-seed{seed}.json").write_text(rec.log_json() + "\n")
        print(f"wrote {name}-seed{seed}.json ({len(rec.events)} events)")
