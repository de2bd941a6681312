"""A referee of the project's own: battle logs re-checked against the Team Bravo texts.

``referee(table, events)`` walks a log (the JSON form of ``docs/battle-log.schema.json``) with
the scenario it was fought on and returns every rule it finds broken, by event index. It is
written from the rule texts and rulings, not from the engine: it reads the scenario's data
(``table.read``) and the log, and keeps its own geometry (``plane``) and its own picture of
the battle (``checker``). ``generator`` makes random scenarios of its own that put the rules'
corners on the table: overlapping terrain, hazards at building walls, fliers over buildings and
woods, every keyword under both rulesets.
"""

from __future__ import annotations

from typing import Any

from .checker import Violation, referee
from .table import Table, read

__all__ = ["Table", "Violation", "check_battle", "read", "referee"]


def check_battle(scenario: Any, seed: int, commanders: Any = None) -> tuple[list[Violation], int]:
    """Fight the scenario on ``seed`` and referee its log: (violations, events checked)."""
    from battles.engine import run_battle

    rec = run_battle(scenario, seed=seed, commanders=commanders)
    events = rec.log_dict()["events"]
    return referee(read(scenario), events, seed), len(events)
