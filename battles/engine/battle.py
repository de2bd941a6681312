"""The battle: turn loop, activations, and the one place events are logged and applied.

Each turn both sides roll for initiative (ties reroll); sides then alternate activating one
unit at a time, and when one side runs out the other finishes. The commanders choose; the engine
checks every choice and raises ``IllegalActionError`` rather than trusting or repairing it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from . import events as ev
from . import geometry, paths
from .actions import Activate, AttackStep, MoveStep, RevealStep
from .cards import Keyword
from .combat import resolve_attack
from .commander import BattleView
from .dice import discard
from .errors import DiceExhaustedError, IllegalActionError
from .events import EndReason, RevealCause
from .movement import (
    WATER_RATE,
    execute_move,
    facing_after,
    passage,
    path_problem,
    problem_once_gone,
)
from .shapes import shape
from .sight import Sight
from .state import BattleState
from .targeting import attack_problem, sensor_problem
from .version import ENGINE_VERSION
from .victory import score_end, score_turn

if TYPE_CHECKING:
    from .commander import Commander, UnitInfo
    from .dice import Dice
    from .geometry import Point
    from .movement import Passage, PassageKey, PathCheck, PlanAsked
    from .pathfinding import PathFinder
    from .scenario import Scenario
    from .state import UnitState
    from .targeting import AimKey, AttackProfile


MAX_WAYPOINTS = 1000
"""Waypoints of one move, at most: far more than any path around the most terrain a scenario may
hold needs, and a bound on what one activation may cost to check and to log."""

Planned = tuple["list[Point]", "list[Point]", "float | None"]
"""A move checked before the activation runs: the path the unit goes along (its waypoints
rounded to the log's thousandths), the path as asked (what the Move limits, E42), and its cost
(None: judged when it comes, once an attack before it has had its effect)."""


class Battle:
    """One battle in progress: state, dice, log, caches, and the commanders of both sides."""

    def __init__(
        self,
        scenario: Scenario,
        dice: Dice,
        commanders: Mapping[str, Commander],
        on_turn: Callable[[int], None] | None = None,
    ) -> None:
        self.scenario = scenario
        self.on_turn = on_turn
        """Told the number of each turn as it begins (a worker reports progress with it)."""
        self.ruleset = scenario.ruleset
        self.dice = dice
        self.state = BattleState.initial(scenario)
        self.log: list[ev.Event] = []
        self.sight = Sight(self.state)
        self.finders: dict[PassageKey, PathFinder] = {}
        """PathFinders by passage key (see ``movement.passage``)."""
        self.passages: dict[tuple[str, int], Passage] = {}
        """Each unit's passage by (unit id, terrain version) once a building has fallen (only a
        collapse changes one); over the opening table, the scenario's (``movement.passage``)."""
        self.path_checks: dict[PathCheck, tuple[str | None, float]] = {}
        """``movement.path_problem`` answers, before the budget."""
        self.planned: dict[PlanAsked, tuple[Point, ...] | None] = {}
        """``movement.plan_path`` answers."""
        self.aims: dict[AimKey, Point | None] = scenario.tables.opening_aims
        """Where an attack on a building goes (``targeting.building_aim``), over the table as it
        stood at ``aims_version``: over the opening table, the scenario's."""
        self.aims_version = 0
        self.profiles: dict[str, dict[str, AttackProfile]] = scenario.tables.profiles
        """Each unit's attack profiles by name (``targeting.unit_profiles``): the scenario's."""
        self.own_infos: dict[str, tuple[int, UnitInfo]] = {}
        """Each unit's last info handed to its own side's commander, by unit id, with the unit's
        stamp it was built at (``BattleView._infos``)."""
        self.seen_infos: dict[str, tuple[int, UnitInfo]] = {}
        """Likewise as the enemy sees it (no order, Average quality)."""
        self.commanders = dict(commanders)
        self._legal: tuple[int, set[tuple[str, str, str]]] = (-1, set())
        """Attacks found legal where the attacker stands (``found_legal``), with the length of
        the log they were found at: answers for the battle as it stood then."""
        dice.emit = self.emit

    def found_legal(self, unit: str, target: str, weapon: str) -> None:
        """``attack_problem`` found this attack legal, as the battle stands now: the activation
        that makes it need not ask again until something happens."""
        at, found = self._legal
        if at != len(self.log):
            found = set()
            self._legal = (len(self.log), found)
        found.add((unit, target, weapon))

    def emit(self, event: ev.Event) -> None:
        """Log an event and apply it: the only way the battle state changes."""
        self.log.append(event)
        self.state.apply(event)

    # --- the loop -----------------------------------------------------------------------------

    def run(self) -> None:
        """Fight the battle to its end."""
        try:
            self.start()
            for turn in range(1, self.scenario.turn_limit + 1):
                if self.on_turn is not None:
                    self.on_turn(turn)
                if not self.play_turn(turn):
                    self._finish(EndReason.SIDE_ELIMINATED)
                    return
            self._finish(EndReason.TURN_LIMIT)
        except (IllegalActionError, DiceExhaustedError) as stopped:
            # The battle is lost, but not what happened up to the stop: whoever must find out
            # why reads it there.
            stopped.events = tuple(self.log)
            raise
        finally:
            # The commanders (through the views they keep) and the dice (through their sink)
            # hold the battle, and it holds them: let them go, so that the battle is freed as
            # soon as its caller lets go of it rather than by the garbage collector, later.
            self.commanders = {}
            self.dice.emit = discard

    def start(self) -> None:
        """Log the header and the concealment the units deploy with."""
        self.emit(
            ev.BattleStart(
                ENGINE_VERSION,
                self.ruleset.name,
                self.scenario.name,
                self.scenario.digest,
                self.dice.seed,
            )
        )
        # Everything behind (or inside) blocking terrain starts concealed: the same units in
        # every battle of the scenario, so its tables keep which.
        tables = self.scenario.tables
        hidden = tables.opening_concealed
        if hidden is None:
            units = self.state.units.values()
            hidden = tables.opening_concealed = tuple(u.id for u in units if self.sight.hidden(u))
        for unit in hidden:
            self.emit(ev.Conceal(unit))

    def play_turn(self, turn: int) -> bool:
        """Play one turn; False if it ended early because a side has no units left."""
        a, b = (s.id for s in self.scenario.sides)
        self.emit(ev.TurnStart(turn))
        current = self.dice.initiative(a, b)
        self.emit(ev.Initiative(turn, current))
        other = b if current == a else a
        left = self.state.left
        ready = self.state.ready
        while True:
            if not ready.get(current):
                current, other = other, current
                if not ready.get(current):
                    break
            self.perform(current, self.commanders[current].choose(BattleView(self, current)))
            if not left[a] or not left[b]:
                # A side is gone. If nobody is left to act, the turn was complete, and scores
                # its points per turn as any completed turn does (E19).
                if not ready.get(a) and not ready.get(b):
                    score_turn(self)
                return False
            current, other = other, current
        score_turn(self)
        return True

    def _finish(self, reason: EndReason) -> None:
        score_end(self)
        a, b = (s.id for s in self.scenario.sides)
        sa, sb = self.state.scores[a], self.state.scores[b]
        winner = a if sa > sb else b if sb > sa else None
        self.emit(ev.End(reason, self.state.turn, winner))

    # --- one activation -----------------------------------------------------------------------

    def perform(self, side: str, action: object) -> None:
        """Check and carry out one activation for ``side`` (whatever its commander returned)."""
        unit, steps, plans, judged = self._check(side, action)
        table = self.state.terrain_version
        spent = 0.0
        self.emit(ev.Activation(unit.id, side, unit.activations + 1))
        for i, step in enumerate(steps):
            if not unit.active:
                break
            if isinstance(step, MoveStep):
                path, asked, cost = plans.pop(0)
                path[0] = unit.position
                if cost is None or self.state.terrain_version != table:
                    # An attack before it brought a building down: the move is judged on the
                    # table as it now stands, with the Move left.
                    left = unit.card.move - spent
                    problem, cost = path_problem(self, unit, path, left, asked)
                    if problem:
                        raise IllegalActionError(f"{unit.id} may not move: {problem}")
                spent += cost
                went_on = execute_move(self, unit, path, cost, step.facing)
                if unit.active:
                    # A move halted at a hazard's edge is still a move: it ends where it ends,
                    # seen and seeing from there.
                    self._spot_after_move(unit)
                if not went_on:
                    break  # A failed terrain roll: activation spent, no attack.
            elif isinstance(step, AttackStep):
                # A first step was checked by _check, and only the Activation event (which no
                # rule of attack reads) has happened since; later steps follow a move, and
                # _check judged those it could from where the move ends.
                judge = i and i not in judged
                problem = attack_problem(self, unit, step.target, step.weapon) if judge else None
                if problem:
                    raise IllegalActionError(f"{unit.id} may not attack {step.target}: {problem}")
                resolve_attack(self, unit, step.target, step.weapon)
            else:
                judge = i and i not in judged
                problem = sensor_problem(self, unit, step.target) if judge else None
                if problem:
                    raise IllegalActionError(f"{unit.id} may not reveal {step.target}: {problem}")
                target = self.state.units[step.target]
                self.emit(ev.Reveal(target.id, RevealCause.SENSOR, target.activations + 1))
        if unit.active:
            self._end_activation(unit)

    def _check(self, side: str, action: object) -> tuple[UnitState, tuple, list[Planned], set[int]]:
        """The unit, its steps, each move checked (``Planned``), and the steps after a move
        already judged from where the move ends."""
        if not isinstance(action, Activate):
            raise IllegalActionError(f"a commander must return an Activate, got {action!r}")
        # Read as Any until checked: a commander may fill an Activate with anything.
        unchecked: Any = action
        unit = self.state.units.get(unchecked.unit) if isinstance(unchecked.unit, str) else None
        if unit is None or unit.side != side:
            raise IllegalActionError(f"{side} has no unit {unchecked.unit!r}")
        if not unit.active:
            raise IllegalActionError(f"{unit.id} has been removed")
        if unit.activated:
            raise IllegalActionError(f"{unit.id} has already activated this turn")
        if not isinstance(unchecked.steps, (tuple, list)):
            raise IllegalActionError(f"{unit.id}'s steps must be a list of steps")
        steps: tuple[Any, ...] = tuple(unchecked.steps)
        for s in steps:
            step: Any = s  # Its fields are checked here, not trusted to match their types.
            if isinstance(s, MoveStep):
                ok = isinstance(step.to, (tuple, list))
                if ok and len(step.to) > MAX_WAYPOINTS:
                    raise IllegalActionError(
                        f"a move has at most {MAX_WAYPOINTS:,} waypoints, got {len(step.to):,}"
                    )
            elif isinstance(s, AttackStep):
                ok = isinstance(step.target, str) and isinstance(step.weapon, str)
            else:
                ok = isinstance(s, RevealStep) and isinstance(step.target, str)
            if not ok:
                raise IllegalActionError(f"malformed step {s!r}")
        # No step or one is a shape every card allows: only a longer activation is asked about.
        form = shape(steps) if len(steps) > 1 else ""
        if form and form not in self.scenario.tables.allowed_shapes(unit.id):
            raise IllegalActionError(
                f"{unit.id} may not {'-'.join(form)}: each unit moves or fires, not both"
            )
        plans: list[Planned] = []
        pos, facing = unit.position, unit.facing
        budget = unit.card.move
        attacked: list[str] = []  # buildings attacked earlier in the activation
        judged: set[int] = set()
        for i, s in enumerate(steps):
            if isinstance(s, MoveStep):
                move: Any = s  # Its waypoints and facing are checked here.
                asked = [pos, *map(_waypoint, move.to)]
                path = [pos, *map(geometry.rnd_point, asked[1:])]
                if move.facing is not None and not _finite(move.facing):
                    raise IllegalActionError(f"bad facing {move.facing!r}")
                problem, cost = path_problem(self, unit, path, budget, asked)
                if problem and _may_open(self, unit, path, attacked, budget):
                    # Attacks resolve at once: the building attacked first may fall and open
                    # the way. The move is judged when it comes (``perform``).
                    plans.append((path, asked, None))
                elif problem:
                    raise IllegalActionError(f"{unit.id} may not move: {problem}")
                else:
                    budget -= cost
                    plans.append((path, asked, cost))
                pos = path[-1]
                if i + 1 < len(steps):  # Only a step after the move asks which way it faces.
                    facing = facing_after(path, move.facing, facing)
            else:
                # After a move: judged now from where the move ends, so that a refusal leaves
                # nothing done. The move changes nothing else an attack asks about, but a
                # concealed target it may spot: that is judged again when the attack comes.
                if i:
                    hidden = isinstance(s, AttackStep) and self._concealed(s.target)
                    problem = self._after_move_problem(unit, s, pos, facing, hidden)
                    if problem:
                        raise IllegalActionError(f"{unit.id}: {problem}")
                    if not hidden:
                        judged.add(i)
                if isinstance(s, AttackStep) and s.target in self.state.buildings:
                    attacked.append(s.target)
        if steps and not isinstance(steps[0], MoveStep):
            first = steps[0]
            at, legal = self._legal
            if not isinstance(first, AttackStep):
                problem = sensor_problem(self, unit, first.target)
            elif at == len(self.log) and (unit.id, first.target, first.weapon) in legal:
                problem = None  # Asked already, of the battle as it stands.
            else:
                problem = attack_problem(self, unit, first.target, first.weapon)
            if problem:
                raise IllegalActionError(f"{unit.id}: {problem}")
        return unit, steps, plans, judged

    def _concealed(self, target: str) -> bool:
        found = self.state.units.get(target)
        return found is not None and found.concealed

    def _after_move_problem(
        self,
        unit: UnitState,
        step: AttackStep | RevealStep,
        pos: Point,
        facing: float,
        spotted: bool = False,
    ) -> str | None:
        """Why the attack or reveal may not be made from where a move ends, facing ``facing``
        (``spotted``: asked as if the move will have spotted its concealed target)."""
        if isinstance(step, RevealStep):
            return sensor_problem(self, unit, step.target, pos)
        return attack_problem(self, unit, step.target, step.weapon, pos, facing, spotted)

    def _spot_after_move(self, unit: UnitState) -> None:
        """Concealed units in the open with a clear line to an enemy are seen."""
        sight = self.sight
        if unit.concealed and sight.in_the_open_and_seen(unit):
            self.emit(ev.Reveal(unit.id, RevealCause.SPOTTED, None))
        for e in self.state.units_in_battle(self.state.enemy[unit.side]):
            if e.concealed and not sight.pieces_at(e.position) and sight.sees(unit, e):
                self.emit(ev.Reveal(e.id, RevealCause.SPOTTED, None))

    def spot_exposed(self) -> None:
        """After a collapse: the lines it opened spot every concealed unit now in the open with
        an enemy line to it (E5), the occupants of rubble that does not block sight and those
        that stood behind the building alike."""
        sight = self.sight
        for u in self.state.units.values():
            if u.active and u.concealed and sight.in_the_open_and_seen(u):
                self.emit(ev.Reveal(u.id, RevealCause.SPOTTED, None))

    def _end_activation(self, unit: UnitState) -> None:
        """A reveal runs out at the end of the unit's own activation; hidden units conceal."""
        if unit.revealed_until is not None:
            if unit.activations < unit.revealed_until:
                return
            if self.sight.hidden(unit):
                self.emit(ev.Conceal(unit.id))
            else:
                self.emit(ev.Reveal(unit.id, RevealCause.SPOTTED, None))
        elif not unit.concealed and self.sight.hidden(unit):
            self.emit(ev.Conceal(unit.id))


def _finite(x: object) -> bool:
    if not isinstance(x, (int, float)) or isinstance(x, bool):
        return False
    try:
        return math.isfinite(x)
    except OverflowError:
        return False  # An int too big for a float is no place on any table, nor a direction.


def _may_open(
    b: Battle, unit: UnitState, path: list[Point], attacked: list[str], budget: float
) -> bool:
    """Whether a move refused now might be legal once a building attacked before it falls: it
    is refused for more than its cost, runs into one of those buildings that has no more Hits
    than the attacks on it (each does 1 damage at most), would be refused for nothing else
    with them gone (rubble never blocks movement), and is within the Move left at the cheapest
    the fall could make it."""
    if path_problem(b, unit, path, math.inf)[0] is None:
        return False  # Only its cost is against it, and rubble makes no move cheaper.
    buildings = b.state.buildings
    legs = list(pairwise(path))
    falling = [
        i
        for i in dict.fromkeys(attacked)
        if buildings[i].hits <= attacked.count(i)
        and any(buildings[i].polygon.crossed_by(p, q) for p, q in legs)
    ]
    if not falling:
        return False
    if problem_once_gone(b, unit, path, frozenset(falling)):
        return False  # A wood it may not enter, say: no fall opens that.
    walls = [buildings[i].polygon for i in falling]
    # Rubble is dearer than open ground but for water rubble under an Amphibious unit: at most
    # that much saved where the path runs through the buildings attacked.
    p = passage(b, unit)
    cost = paths.path_cost(path, p.cost_regions, p.cost_joints)
    if unit.card.has(Keyword.AMPHIBIOUS):
        inside = sum(poly.length_inside(p, q) for poly in walls for p, q in legs)
        cost -= (1.0 - WATER_RATE) * inside
    return cost <= budget + 1e-6


def _waypoint(p: object) -> Point:
    """A waypoint as asked, checked: a pair of finite floats (rounded for the log by the
    caller)."""
    if type(p) is tuple and len(p) == 2:
        x, y = p
        # A planned waypoint is a pair of finite floats: no more to ask of it.
        if type(x) is float and type(y) is float and math.isfinite(x) and math.isfinite(y):
            return p
    if not isinstance(p, (tuple, list)) or len(p) != 2 or not all(_finite(c) for c in p):
        raise IllegalActionError(f"a waypoint is a pair of numbers, got {p!r}")
    return (float(p[0]), float(p[1]))
