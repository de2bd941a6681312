"""Team Bravo rules engine: resolve a battle from a scenario and a seed, logging every die.

Pure Python, standard library only — no Django, nothing third-party — so it runs in a worker,
a benchmark or a notebook alike. The Docker image compiles it with mypyc (``build_engine.py``)
for speed; the source stays the reference, and a working tree runs it.

The front door::

    from battles.engine import load_scenario, run_battle
    record = run_battle(load_scenario("scenario.json"), seed=7)
    record.result.winner, record.log_json()
"""

from __future__ import annotations

from .actions import Activate, AttackStep, MoveStep, RevealStep
from .cards import CHARGES, BuildingCard, Keyword, UnitCard, Weapon
from .commander import BattleView, Commander, UnitInfo
from .commanders import DefaultCommander
from .dice import Dice, FixedDice
from .errors import DiceExhaustedError, IllegalActionError, ScenarioError
from .events import Event
from .loader import load_scenario, parse_scenario, parse_scenario_json
from .record import (
    BattleRecord,
    FinalBuilding,
    FinalUnit,
    canonical_json,
    log_from_dict,
    log_to_dict,
    run_battle,
)
from .replay import replay, replay_states
from .result import BattleResult, BuildingResult, SideResult, UnitResult
from .rulesets import COMBINED_ARMS, ONE_YEAR_WAR, RULESETS, Ruleset
from .scenario import Scenario
from .scripted import ScriptedCommander
from .simple import SimpleCommander
from .targeting import CLOSE_COMBAT
from .version import ENGINE_VERSION

__all__ = [
    "CHARGES",
    "CLOSE_COMBAT",
    "COMBINED_ARMS",
    "ENGINE_VERSION",
    "ONE_YEAR_WAR",
    "RULESETS",
    "Activate",
    "AttackStep",
    "BattleRecord",
    "BattleResult",
    "BattleView",
    "BuildingCard",
    "BuildingResult",
    "Commander",
    "DefaultCommander",
    "Dice",
    "DiceExhaustedError",
    "Event",
    "FinalBuilding",
    "FinalUnit",
    "FixedDice",
    "IllegalActionError",
    "Keyword",
    "MoveStep",
    "RevealStep",
    "Ruleset",
    "Scenario",
    "ScenarioError",
    "ScriptedCommander",
    "SideResult",
    "SimpleCommander",
    "UnitCard",
    "UnitInfo",
    "UnitResult",
    "Weapon",
    "canonical_json",
    "load_scenario",
    "log_from_dict",
    "log_to_dict",
    "parse_scenario",
    "parse_scenario_json",
    "replay",
    "replay_states",
    "run_battle",
]
