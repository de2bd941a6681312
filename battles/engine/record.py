"""Running a battle and what comes out: the log, the result, and their canonical JSON.

``run_battle`` is the engine's front door. The JSON is canonical — sorted keys, no spaces,
floats already rounded in the events — so the same scenario, seed and engine version give a
byte-identical log.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .battle import Battle
from .cards import BuildingCard, UnitCard
from .commander import Commander
from .commanders import DefaultCommander
from .dice import Dice
from .events import Event, Removal
from .geometry import Point
from .loader import parse_scenario
from .result import BattleResult
from .scenario import Scenario
from .state import BattleState
from .version import ENGINE_VERSION


@dataclass(frozen=True, slots=True)
class FinalUnit:
    """A unit as the battle left it (``BattleRecord.final_unit``)."""

    unit: str
    """Unit id."""
    side: str
    """Side id."""
    card: UnitCard
    """Its card, as printed (never modified)."""
    position: Point
    """Where its centre stands (where it was removed, if it was)."""
    facing: float
    """Degrees counter-clockwise from +x."""
    hits: int
    """Hits left; 0 for a destroyed unit."""
    skill: int
    """Current Skill, after suppression."""
    removed: Removal
    """Whether and how it left the battle: ``none``, ``destroyed``, ``demoralised``."""
    concealed: bool
    """Whether it ended concealed."""
    uses: dict[str, int]
    """Uses left of each limited weapon, by name (a copy)."""


@dataclass(frozen=True, slots=True)
class FinalBuilding:
    """A building as the battle left it (``BattleRecord.final_building``)."""

    building: str
    """Building id."""
    side: str | None
    """Owning side, ``None`` for nobody's."""
    card: BuildingCard
    """Its card (``card.rubble`` is what its footprint became if it collapsed)."""
    hits: int
    """Hits left; 0 once collapsed."""
    collapsed: bool
    """Whether it fell to rubble."""


@dataclass(frozen=True, slots=True)
class BattleRecord:
    """A finished battle."""

    scenario: Scenario
    """The scenario fought."""
    seed: int | None
    """The dice seed (``None`` for given dice)."""
    events: tuple[Event, ...]
    """The full log, in order."""
    result: BattleResult
    """The outcome."""
    state: BattleState
    """The final state, the engine's own; read it through ``final_unit`` and
    ``final_building``."""

    def final_unit(self, unit_id: str) -> FinalUnit:
        """The unit ``unit_id`` as the battle left it; ``KeyError`` naming the units if none."""
        u = self.state.units.get(unit_id)
        if u is None:
            raise KeyError(
                f"no unit {unit_id!r} in the battle: its units are {list(self.state.units)}"
            )
        return FinalUnit(
            u.id,
            u.side,
            u.card,
            u.position,
            u.facing,
            u.hits,
            u.skill,
            u.removed,
            u.concealed,
            dict(u.uses),
        )

    def final_building(self, building_id: str) -> FinalBuilding:
        """The building ``building_id`` as the battle left it; ``KeyError`` naming the
        buildings if none."""
        b = self.state.buildings.get(building_id)
        if b is None:
            raise KeyError(
                f"no building {building_id!r} in the battle: its buildings are "
                f"{list(self.state.buildings)}"
            )
        return FinalBuilding(b.id, b.side, b.card, b.hits, b.collapsed)

    def log_dict(self) -> dict[str, Any]:
        """The log as plain data (see ``docs/battle-log.schema.json``)."""
        return log_to_dict(self.events)

    def to_dict(self) -> dict[str, Any]:
        """Log and result together, as ``--json`` prints them."""
        return {"log": self.log_dict(), "result": self.result.to_dict()}

    def log_json(self) -> str:
        """The log as canonical JSON."""
        return canonical_json(self.log_dict())


def log_to_dict(events: tuple[Event, ...] | list[Event]) -> dict[str, Any]:
    return {"engine_version": ENGINE_VERSION, "events": [e.to_dict() for e in events]}


def log_from_dict(data: Mapping[str, Any]) -> list[Event]:
    """Events back from a log dict (e.g. read from stored JSON)."""
    return [Event.from_dict(e) for e in data["events"]]


def canonical_json(data: Any) -> str:
    """Sorted keys, no spaces: byte-identical for equal data."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def run_battle(
    scenario: Scenario | Mapping[str, Any],
    seed: Any = None,  # a whole number or None: checked below, in words, compiled or not
    *,
    dice: Dice | None = None,
    commanders: Mapping[str, Commander] | None = None,
    on_turn: Callable[[int], None] | None = None,
) -> BattleRecord:
    """Fight a battle: give a seed (or, in tests, ``dice``); both sides default to the default.

    A scenario dict is validated first (``ScenarioError`` on bad input). ``commanders`` maps
    side id to policy; missing sides get a fresh ``DefaultCommander`` (the tests' baseline,
    ``SimpleCommander``, and ``ScriptedCommander`` for fixed decisions are there to be passed
    in). A key that is no side of the scenario, a policy without ``choose`` (or a policy's
    class rather than one of it), or a seed that is no whole number, is a ``ValueError`` before
    anything is fought. ``on_turn`` is told each turn's number as it begins, for progress
    reports; it cannot change the battle.
    """
    if not isinstance(scenario, Scenario):
        scenario = parse_scenario(scenario)
    if (seed is None) == (dice is None):
        raise ValueError("give exactly one of seed and dice")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        # The log keeps the seed as a whole number, and the battle must be fought again from it.
        raise ValueError(f"a seed is a whole number, got {type(seed).__name__} {seed!r:.40}")
    chosen: dict[str, Commander] = {s.id: DefaultCommander() for s in scenario.sides}
    chosen.update(_commanders(scenario, commanders or {}))
    if dice is None:
        assert seed is not None
        dice = Dice.seeded(seed)
    battle = Battle(scenario, dice, chosen, on_turn)
    battle.run()
    return BattleRecord(
        scenario, dice.seed, tuple(battle.log), BattleResult.from_state(battle.state), battle.state
    )


def _commanders(scenario: Scenario, given: Mapping[str, Commander]) -> dict[str, Commander]:
    """The policies ``given`` by side id, or ``ValueError`` naming every key that is no side of
    the scenario (a typo would otherwise leave that side to the default commander) and every
    policy that cannot choose."""
    # Read as Any until checked: a caller may pass anything.
    unchecked: Any = given
    sides = [s.id for s in scenario.sides]
    problems: list[str] = []
    for key in unchecked:
        if key not in sides:
            problems.append(f"{key!r} is no side of the scenario")
        elif isinstance(unchecked[key], type):
            name = unchecked[key].__name__
            problems.append(f"{key!r} is the class {name}, not a commander: pass {name}()")
        elif not callable(getattr(unchecked[key], "choose", None)):
            got = type(unchecked[key]).__name__
            problems.append(f"{key!r} is not a commander (it has no choose(view) method): {got}")
    if problems:
        raise ValueError(
            f"commanders: {'; '.join(problems)} (the sides are {sides[0]!r} and {sides[1]!r})"
        )
    return dict(unchecked)
