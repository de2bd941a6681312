"""Check the battles of a campaign's export before an import: each battle's record, the units
that fought it by the export's keys, and the engine's battle behind it with its log, which must
be this battle's, replay to its result and, fought again, be the log the engine writes
(`check_refought`). Errors are named by path, as in `campaign.transfer.checker`.
"""

from __future__ import annotations

import hashlib
import math
from itertools import islice
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS

from battles.budget import battle_cost
from battles.engine import (
    ENGINE_VERSION,
    BattleResult,
    Scenario,
    ScenarioError,
    log_from_dict,
    parse_scenario,
    replay,
    run_battle,
)
from battles.jsontext import read_json
from battles.logschema import log_problems
from battles.models import IN_FLIGHT, WorkStatus
from battles.services import SEED_LIMIT
from campaign.models import (
    CampaignBattle,
)
from campaign.rules.bridge import BridgeError
from campaign.rules.damage import UnitOutcome
from campaign.rules.orders import HOURS_PER_DAY
from campaign.transfer.checker import Checker, check_text, check_whole, created_at_problem
from campaign.transfer.format import BATTLE_KEYS, ENGINE_KEYS, LARGEST_DAY
from campaign.transfer.records import KeyCheck
from units.bucs import Equipment, Quality
from units.words import given, value_shown

OUTCOME_STATES = (
    CampaignBattle.State.AWAITING,
    CampaignBattle.State.APPLIED,
    CampaignBattle.State.REVERTED,
)
"""The states of a campaign battle that has an outcome: a table's result, or a battle the engine
fought to the end."""
LOG_EVENTS_MOST = 50_000
"""The most events an imported battle's log holds. The engine writes far fewer: the largest
scenario it fights (40 units a side, 100 turns, bench/README.md "Largest valid scenario") logs
3,617 events when it lasts all its turns, so this is fourteen times that, and a log past it was
not written by the engine. Checked before the log's events are read one by one."""
LOG_PROBLEMS = 10
"""The most problems one battle's log reports: a log edited by hand is mended from the first."""
REPLAY_ERRORS = (ArithmeticError, AssertionError, AttributeError, LookupError, TypeError,
                 ValueError)  # fmt: skip
"""What replaying a log the engine never wrote may raise: a unit the scenario lacks, a move
nowhere, a battle that never ends."""
REFIGHT_MOST = 100_000
"""The most an import's battles may cost the engine to fight again (`check_refought`), in the
budget's unit-pair turns (`battles.budget.battle_cost`, counted for the turns each log fought):
at most some 14 s on the shared 2-core machine (0.01 to 0.14 ms a unit-pair turn, measured from
Crossroads to the largest scenario), inside the import's web request. A hundred battles of two
units against one come to some 5,000; a 20 against 20 fought to its sixth turn, 2,400; the
largest scenario fought to its hundredth, 160,000, past it alone."""


def check_battles(
    c: Checker, path: str, data: Any, *, day: int, keys: KeyCheck, ruleset: str
) -> list[dict[str, Any]]:
    """Campaign battles: their sides, Orders going in, outcome and history entries by the
    export's keys, and the engine's battle behind each (`check_engine`), or, for one fought at a
    real table, its result. A history entry names one battle at most."""
    named: set[str] = set()

    def one(at: str, record: dict[str, Any]) -> None:
        check_text(c, f"{at}.name", record["name"], 200, empty=False)
        check_whole(c, f"{at}.day", record["day"], 1, day)
        check_whole(c, f"{at}.hour", record["hour"], 0, HOURS_PER_DAY - 1)
        # How often it was applied: a count in the same kind of column as a day.
        applications = check_whole(c, f"{at}.applications", record["applications"], 0, LARGEST_DAY)
        _moments(c, at, record, ("created_at",), ("applied_at",))
        if record["state"] not in CampaignBattle.State.values:
            c.error(f"{at}.state", f"must be one of {', '.join(CampaignBattle.State.values)}")
        elif applications is not None:
            _check_applications(c, at, record["state"], applications)
        fought = _battle_sides(c, f"{at}.sides", record["sides"], keys)
        for listed in ("applied_entries", "entries"):
            if not isinstance(record[listed], list):
                c.error(f"{at}.{listed}", "must be a list")
                continue
            for number, key in enumerate(record[listed]):
                keys.entry(c, f"{at}.{listed}[{number}]", key)
                if listed == "entries" and isinstance(key, str):
                    if key in named:
                        c.error(f"{at}.entries[{number}]", "another battle names this entry")
                    named.add(key)
        for key, going in _by_unit(c, f"{at}.orders", record["orders"], fought).items():
            _check_going_in(c, f"{at}.orders.{key}", going)
        if record["engine"] is None:
            _check_table_battle(c, at, record, fought)
        else:
            _check_engine_battle(c, at, record, fought, ruleset)

    return c.records(path, data, BATTLE_KEYS, one)


def _moments(
    c: Checker,
    at: str,
    record: dict[str, Any],
    required: tuple[str, ...],
    optional: tuple[str, ...],
) -> None:
    for key in (*required, *optional):
        if key in optional and record[key] is None:
            continue
        problem = created_at_problem(record[key])
        if problem:
            c.error(f"{at}.{key}", problem)


def _battle_sides(c: Checker, path: str, sides: Any, keys: KeyCheck) -> set[str]:
    """The keys of the units on the battle's two sides (side id → its units), each on one."""
    fought: set[str] = set()
    if not isinstance(sides, dict) or len(sides) != 2:
        c.error(path, "must give the battle's two sides, each a list of units")
        return fought
    for side, units in sides.items():
        where = f"{path}.{side}"
        if not isinstance(units, list):
            c.error(where, "must be a list of units")
            continue
        for number, key in enumerate(units):
            keys.unit(c, f"{where}[{number}]", null=False)(key)
            if isinstance(key, str) and key in fought:
                c.error(f"{where}[{number}]", "in the battle twice")
            elif isinstance(key, str):
                fought.add(key)
    return fought


def _by_unit(c: Checker, path: str, data: Any, fought: set[str]) -> dict[str, Any]:
    """An object keyed by units of the battle (``fought``); {} if it is no object."""
    if not isinstance(data, dict):
        c.error(path, "must be an object keyed by the battle's units")
        return {}
    for key in data:
        if key not in fought:
            c.error(path, f"{given(key)} is not a unit on the battle's sides")
    return data


def _check_going_in(c: Checker, path: str, going: Any) -> None:
    """How a unit's Orders went in (`bridge.BattleOrder.to_json`): what the battle's page and the
    outcome read of it, its sentence and the quality and kit it fought at, read as they read it
    (`bridge.fought_kit`)."""
    if not isinstance(going, dict) or not isinstance(going.get("text"), str):
        c.error(path, "must say how the unit's Orders went in, with their text")
        return
    for field, read in (("quality", Quality.of_word), ("equipment", Equipment)):
        try:
            read(going.get(field))
        except (TypeError, ValueError):
            c.error(
                f"{path}.{field}", f"must be a {field} word, got {value_shown(going.get(field))}"
            )


def _check_table_battle(c: Checker, at: str, record: dict[str, Any], fought: set[str]) -> None:
    """A battle fought at a real table: the GM's result, and no engine's."""
    if record["state"] in CampaignBattle.State.values and record["state"] not in OUTCOME_STATES:
        c.error(f"{at}.state", "a battle fought at a real table has its result: it is "
                               f"{', '.join(OUTCOME_STATES)}")  # fmt: skip
    if record["engine_units"]:
        c.error(f"{at}.engine_units", "only a battle the engine fought has them")
    result = record["table_result"]
    if not c.mapping(f"{at}.table_result", result, ("winner", "units")):
        return
    sides = record["sides"] if isinstance(record["sides"], dict) else {}
    winner = result["winner"]
    if winner is not None and (not isinstance(winner, str) or winner not in sides):
        c.error(f"{at}.table_result.winner", "must be one of the battle's sides, or null (a draw)")
    units = f"{at}.table_result.units"
    for key, outcome in _by_unit(c, units, result["units"], fought).items():
        if not isinstance(outcome, dict) or not {"hits_lost", "skill_lost"} <= set(outcome):
            c.error(f"{units}.{key}", "give hits_lost, skill_lost and removed")
            continue
        try:
            UnitOutcome.from_dict(outcome)
        except BridgeError as error:
            c.error(f"{units}.{key}", str(error))


APPLIED_STATES = (CampaignBattle.State.APPLIED, CampaignBattle.State.REVERTED)
"""The states of a campaign battle whose outcome was applied (a reverted one was applied first)."""


def _check_applications(c: Checker, at: str, state: str, applications: int) -> None:
    """An outcome applied or reverted was applied once at least, any other never: the battle's
    state line says from the count how often it was applied and reverted."""
    label = CampaignBattle.State(state).label.lower()
    if state in APPLIED_STATES and applications < 1:
        c.error(f"{at}.applications", f"the battle is {label}: it was applied once at least")
    elif state not in APPLIED_STATES and applications:
        c.error(f"{at}.applications", f"the battle is {label}: its outcome was never applied")


def _check_engine_battle(
    c: Checker, at: str, record: dict[str, Any], fought: set[str], ruleset: str
) -> None:
    """A battle the engine fought: its engine's battle, whose scenario has the battle's sides
    and the units ``engine_units`` names."""
    if record["table_result"] is not None:
        c.error(f"{at}.table_result", "a battle the engine fought has the engine's result: null")
    checked = check_engine(c, f"{at}.engine", record["engine"], ruleset=ruleset)
    if checked is None:
        return
    scenario, status = checked
    state = record["state"]
    if status == WorkStatus.FAILED and state in OUTCOME_STATES:
        c.error(f"{at}.state", f"its battle failed: it has no outcome to be {state}")
    if status == WorkStatus.DONE and state == CampaignBattle.State.FAILED:
        c.error(f"{at}.state", "its battle was fought to the end: it did not fail")
    side_ids = [side.id for side in scenario.sides]
    if isinstance(record["sides"], dict) and sorted(record["sides"]) != sorted(side_ids):
        c.error(f"{at}.sides", f"must be the scenario's sides, {' and '.join(side_ids)}")
    # Every unit on its sides fought as one of the scenario's units: the report names it so.
    unit_ids = {unit.id for side in scenario.sides for unit in side.units}
    engine_units = record["engine_units"]
    if not isinstance(engine_units, dict):
        c.error(f"{at}.engine_units", "must be an object: each engine unit's id, and the unit")
        return
    for engine_id, key in engine_units.items():
        if engine_id not in unit_ids:
            c.error(
                f"{at}.engine_units", f"{given(engine_id)} is not a unit of the battle's scenario"
            )
        if not isinstance(key, str) or key not in fought:
            c.error(f"{at}.engine_units", f"{engine_id}: {given(key)} is not a unit on its sides")
    missing = fought - {key for key in engine_units.values() if isinstance(key, str)}
    if missing:
        c.error(f"{at}.engine_units", f"names no engine unit for {', '.join(sorted(missing))}")


def check_engine(
    c: Checker, path: str, engine: Any, *, ruleset: str
) -> tuple[Scenario, str] | None:
    """The engine's battle behind a campaign battle, with its scenario (parsed) and status.

    It must be over: done, or failed. One still queued or running cannot be carried over
    mid-fight (its worker is on the other site), so it is refused by name, and the GM exports
    again once it is over. Done, its log must be this battle's (`check_log`)."""
    if not c.mapping(path, engine, ENGINE_KEYS):
        return None
    before = len(c.errors)
    status = engine["status"]
    if status in IN_FLIGHT:
        c.error(f"{path}.status", f"the battle was still {status} when the file was written: a "
                "battle cannot be carried over mid-fight. Export again once it is over, or take it "
                "out of the file (nothing else in it names a battle not yet over)")  # fmt: skip
        return None
    if status not in (WorkStatus.DONE, WorkStatus.FAILED):
        c.error(f"{path}.status", f"must be {WorkStatus.DONE} or {WorkStatus.FAILED}")
    if engine["ruleset"] != ruleset:
        c.error(f"{path}.ruleset", f"must be the campaign's, {ruleset}")
    check_text(c, f"{path}.engine_version", engine["engine_version"], 32, empty=False)
    check_whole(c, f"{path}.seed", engine["seed"], 0, SEED_LIMIT)
    if not isinstance(engine["error"], str):
        c.error(f"{path}.error", "must be text")
    _moments(c, path, engine, ("created_at",), ("started_at", "finished_at"))
    scenario = engine["scenario"]
    if not isinstance(scenario, dict):
        c.error(f"{path}.scenario", "must be a scenario document (an object)")
        return None
    try:
        # A battle an older engine fought stands on the cards it was fought with.
        parsed = parse_scenario(scenario, fought=engine["engine_version"] != ENGINE_VERSION)
    except ScenarioError as error:
        for where, reason in error.problems:
            c.error(f"{path}.scenario.{where}".rstrip("."), reason)
        return None
    if parsed.ruleset.name != ruleset:
        c.error(f"{path}.scenario.ruleset", f"must be the campaign's, {ruleset}")
    if engine["turn_limit"] != parsed.turn_limit:
        c.error(f"{path}.turn_limit", f"must be the scenario's, {parsed.turn_limit}")
    if status == WorkStatus.FAILED:
        for key in ("result", "log", "log_sha256"):
            if engine[key] is not None:
                c.error(f"{path}.{key}", "a battle that failed has none: must be null")
    elif len(c.errors) == before:
        check_log(c, path, engine, parsed)
    return None if len(c.errors) > before else (parsed, status)


def check_log(c: Checker, path: str, engine: dict[str, Any], scenario: Scenario) -> None:
    """A done battle's log: the text its ``log_sha256`` was taken of, a log as its schema
    describes one (`battles.logschema`), of this very battle (its first event names the
    battle's engine, ruleset, seed and scenario digest), which the engine replays to exactly the
    battle's result, as the battle's replay page will."""
    log = engine["log"]
    if not isinstance(log, str):
        c.error(f"{path}.log", "must be the battle's log, as text")
        return
    if engine["log_sha256"] != hashlib.sha256(log.encode()).hexdigest():
        c.error(f"{path}.log", "does not match its log_sha256: it was changed after the battle "
                               "was fought")  # fmt: skip
        return
    try:
        data = read_json(log, "the log")
    except ValueError as error:
        c.error(f"{path}.log", str(error))
        return
    events = data.get("events") if isinstance(data, dict) else None
    if isinstance(events, list) and len(events) > LOG_EVENTS_MOST:
        c.error(f"{path}.log", f"holds {len(events):,} events; a battle's log holds at most "
                               f"{LOG_EVENTS_MOST:,}")  # fmt: skip
        return
    problems = list(islice(log_problems(data), LOG_PROBLEMS))
    for where, reason in problems:
        c.error(f"{path}.log{where}", reason)
    if problems:
        return
    # The log's first event names the battle it is of: this one, fought from this scenario.
    start = data["events"][0]
    if start["digest"] is None:
        # A log as a reader who may not see the whole battle downloads it (`fog.WITHHELD`):
        # fogged, it names no scenario and cannot be replayed.
        c.error(f"{path}.log.events[0].digest",
                "is withheld, as in a log downloaded by a reader who may not see the whole "
                "battle: import the GM's export of the campaign, whose logs are whole")  # fmt: skip
        return
    own = {"engine_version": engine["engine_version"], "ruleset": scenario.ruleset.name,
           "seed": engine["seed"]}  # fmt: skip
    wrong = [key for key, value in own.items() if start[key] != value]
    for key in wrong:
        c.error(f"{path}.log.events[0].{key}",
                f"must be the battle's {key.replace('_', ' ')}, {given(own[key])}")  # fmt: skip
    if start["digest"] != scenario.digest:
        c.error(f"{path}.log.events[0].digest", "is not the digest of the battle's scenario: the "
                                                "scenario, or the log, was changed")  # fmt: skip
        wrong.append("digest")
    if wrong:
        return
    try:
        ended = BattleResult.from_state(replay(scenario, log_from_dict(data)))
    except REPLAY_ERRORS as error:
        c.error(f"{path}.log", f"the engine here ({ENGINE_VERSION}) cannot replay it "
                               f"({type(error).__name__}: {error})")  # fmt: skip
        return
    if ended.to_dict() != engine["result"]:
        c.error(f"{path}.result", "is not what the battle's log comes to")


class _LongerThanItsLog(Exception):
    """The engine, fighting a battle again, went on past the turns its log fought."""


def _turns(log: dict[str, Any]) -> int:
    return sum(1 for event in log["events"] if event["kind"] == "turn_start")


def check_refought(c: Checker, path: str, battles: list[Any], *, most: int | None) -> None:
    """Each battle this engine fought (done, its engine version this site's), fought again from
    its scenario and seed: its log must be, to the byte, the one the engine writes, so no roll,
    move or shot was changed, added or taken out, as a replay, which reads only where the
    battle ends (`check_log`), would let pass. Read once every other check passes.

    What that costs is bounded before any is fought: past ``most`` (None: no bound, for whoever
    runs the site) the import is refused in a sentence. A fight that goes on past its log's
    last turn is stopped there, so no log makes the engine fight longer than it says it did.
    A battle of an older engine cannot be fought again here, and stands on `check_log`."""
    fights: list[tuple[str, dict[str, Any], Scenario, int]] = []
    for number, record in enumerate(battles):
        engine = record["engine"]
        if engine is None or engine["status"] != WorkStatus.DONE:
            continue
        if engine["engine_version"] != ENGINE_VERSION:
            continue
        scenario = parse_scenario(engine["scenario"])
        turns = _turns(read_json(engine["log"], "the log"))
        fights.append((f"{path}[{number}].engine", engine, scenario, turns))
    cost = sum(
        math.ceil(battle_cost(scenario) * turns / scenario.turn_limit)
        for _, _, scenario, turns in fights
    )
    if most is not None and cost > most:
        c.error(NON_FIELD_ERRORS, f"This export's battles would take the engine {cost:,} "
                f"unit-pair turns to fight again, to check that each log is the battle's own; "
                f"an import here takes at most {most:,}. Whoever runs the site can import it "
                "with manage.py campaign_import.")  # fmt: skip
        return
    for at, engine, scenario, turns in fights:

        def stop(turn: int, last: int = turns) -> None:
            if turn > last:
                raise _LongerThanItsLog

        try:
            fought = run_battle(scenario, engine["seed"], on_turn=stop)
        except _LongerThanItsLog:
            c.error(f"{at}.log", f"ends after turn {turns}, but the engine fights this battle "
                                 "on from its scenario and seed: it was changed after the "
                                 "battle was fought")  # fmt: skip
            continue
        if fought.log_json() != engine["log"]:
            c.error(
                f"{at}.log",
                _first_change(
                    fought.log_dict()["events"], read_json(engine["log"], "the log")["events"]
                ),
            )
        elif fought.result.to_dict() != engine["result"]:
            c.error(f"{at}.result", "is not the result the engine comes to fighting the battle")


def _first_change(fought: list[dict[str, Any]], logged: list[dict[str, Any]]) -> str:
    """Where a log first differs from the one the engine writes, in a sentence."""
    for number, (theirs, ours) in enumerate(zip(logged, fought, strict=False)):
        if theirs != ours:
            return (
                f"is not the log the engine writes fighting this battle from its scenario "
                f"and seed: events[{number}] was changed after the battle was fought"
            )
    return (
        f"is not the log the engine writes fighting this battle from its scenario and seed: "
        f"it holds {len(logged):,} events where the battle's are {len(fought):,}"
    )
