"""Commanders: the policy that plays a side, and the view of the battle it is allowed to see.

A commander gets a ``BattleView`` for its side — its own units, the enemies it can see (never
a concealed one, unless one of its units shares that enemy's rubble field or building),
buildings, terrain, objectives, scores — and returns one ``Activate``. The view also answers
the rules questions a policy needs (may this unit attack that from there? how far can it get
toward a point?), so policies never duplicate the rules. Whatever it returns, the engine checks.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple, Protocol

from . import geometry
from .cards import UnitCard
from .movement import path_problem, plan_path
from .scenario import Objective, Order, Quality
from .targeting import attack_problem, legal_attacks, sensor_problem

if TYPE_CHECKING:
    from .actions import Activate
    from .battle import Battle
    from .geometry import Point
    from .rulesets import Ruleset
    from .state import BuildingState, UnitState
    from .tables import ScenarioTables
    from .terrain import TerrainPiece


class Commander(Protocol):
    """Plays one side: picks the next unit to activate and what it does."""

    def choose(self, view: BattleView) -> Activate:
        """Return the activation for one of ``view.ready_units()``."""
        ...


class UnitInfo(NamedTuple):
    """A unit as a side sees it.

    A named tuple rather than a frozen dataclass: a view builds one at every change to a unit
    its side sees, and a frozen dataclass sets each field through ``object.__setattr__``,
    several times the cost of the rest of building it (from source).
    """

    id: str
    """Unit id."""
    side: str
    """Side id."""
    card: UnitCard
    """Its card."""
    position: Point
    """Where it stands."""
    facing: float
    """Its facing."""
    hits: int
    """Hits left."""
    skill: int
    """Current Skill."""
    concealed: bool
    """Whether it is concealed (a seen enemy is concealed only inside a shared piece)."""
    activated: bool
    """Whether it has activated this turn."""
    order: Order | None
    """Its order (own units only)."""
    quality: Quality = Quality.AVERAGE
    """Its quality (own units only; enemies show Average)."""


class BattleView:
    """The battle as ``side`` sees it now."""

    def __init__(self, battle: Battle, side: str) -> None:
        self._b = battle
        self.side = side
        """The side this view belongs to."""
        self.enemy = battle.state.enemy[side]
        """The other side's id."""
        self.turn = battle.state.turn
        """Current turn."""
        # A view lives for one decision, during which the battle does not change, so what it
        # works out is kept for the rest of the decision.
        self._seen: list[UnitState] | None = None
        self._own_infos: list[UnitInfo] | None = None
        self._enemy_infos: list[UnitInfo] | None = None

    @property
    def turn_limit(self) -> int:
        """Last turn."""
        return self._b.scenario.turn_limit

    @property
    def table(self) -> tuple[float, float]:
        """Table width and height in inches."""
        return (self._b.scenario.width, self._b.scenario.height)

    @property
    def ruleset(self) -> Ruleset:
        """Ruleset in force."""
        return self._b.ruleset

    @property
    def scores(self) -> dict[str, int]:
        """Scores so far."""
        return dict(self._b.state.scores)

    @property
    def objectives(self) -> tuple[Objective, ...]:
        """All objectives."""
        return self._b.scenario.objectives

    @property
    def tables(self) -> ScenarioTables:
        """The scenario's cards and their odds (``tables.py``), by piece id."""
        return self._b.scenario.tables

    @property
    def terrain(self) -> list[TerrainPiece]:
        """Terrain pieces now on the table."""
        return list(self._b.state.terrain)

    @property
    def buildings(self) -> list[BuildingState]:
        """Standing and collapsed buildings (read only, by convention)."""
        return list(self._b.state.buildings.values())

    def _infos(self, units: Iterable[UnitState], own: bool) -> list[UnitInfo]:
        # Most units stand as they did at the side's last decision: hand back the same info
        # then rather than build it afresh (the unit's stamp moves on with any change).
        kept = self._b.own_infos if own else self._b.seen_infos
        out = []
        for u in units:
            known = kept.get(u.id)
            if known is None or known[0] != u.stamp:
                info = UnitInfo(
                    u.id,
                    u.side,
                    u.card,
                    u.position,
                    u.facing,
                    u.hits,
                    u.skill,
                    u.concealed,
                    u.activated,
                    u.order if own else None,
                    u.quality if own else Quality.AVERAGE,
                )
                known = kept[u.id] = (u.stamp, info)
            out.append(known[1])
        return out

    def own_units(self) -> list[UnitInfo]:
        """The side's units still in the battle, in scenario order."""
        if self._own_infos is None:
            self._own_infos = self._infos(self._b.state.units_in_battle(self.side), True)
        return list(self._own_infos)

    def ready_units(self) -> list[UnitInfo]:
        """Own units that have not activated this turn."""
        if self._own_infos is None:
            self.own_units()
        return [u for u in self._own_infos if not u.activated]  # type: ignore[union-attr]

    def enemies(self) -> list[UnitInfo]:
        """Enemy units this side can see."""
        if self._enemy_infos is None:
            self._enemy_infos = self._infos(self._visible_enemies(), False)
        return list(self._enemy_infos)

    def _visible_enemies(self) -> list[UnitState]:
        if self._seen is None:
            st, sight = self._b.state, self._b.sight
            enemies = st.units_in_battle(self.enemy)
            seen = [e for e in enemies if not e.concealed]
            if len(seen) < len(enemies):
                # A concealed enemy is seen by a unit sharing its piece: by the side, when its
                # piece is among the pieces the side's units stand in.
                # A flier is over its piece, never in it.
                held = sight.pieces_held(st.units_in_battle(self.side))
                if held:
                    seen = [
                        e
                        for e in enemies
                        if not e.concealed or not held.isdisjoint(sight.pieces_of(e))
                    ]
            self._seen = seen
        return self._seen

    def _own(self, unit_id: str) -> UnitState:
        u = self._b.state.units.get(unit_id)
        if u is None or u.side != self.side:
            raise KeyError(unit_id)
        return u

    def attack_problem(
        self,
        unit_id: str,
        target: str,
        weapon: str,
        origin: Point | None = None,
        facing: float | None = None,
    ) -> str | None:
        """Why the unit may not make this attack (from ``origin``, facing ``facing``), or None."""
        u = self._own(unit_id)
        t = self._b.state.units.get(target)
        if t is not None and t.side == self.enemy and t not in self._visible_enemies():
            return f"no visible unit {target!r}"
        problem = attack_problem(self._b, u, target, weapon, origin, facing)
        if problem is None and origin is None and facing is None:
            self._b.found_legal(unit_id, target, weapon)
        return problem

    def legal_attacks(
        self,
        unit_id: str,
        origin: Point | None = None,
        facing: float | None = None,
        targets: Iterable[str] | None = None,
    ) -> list[tuple[str, str]]:
        """Every (target, weapon) the unit may attack (weapon may be ``CLOSE_COMBAT``).

        ``targets`` narrows the question to those ids (visible enemies and buildings only).
        """
        u = self._own(unit_id)
        known = [e.id for e in self._visible_enemies()]
        known += [b.id for b in self._b.state.buildings.values() if not b.collapsed]
        if targets is not None:
            wanted = set(targets)
            known = [t for t in known if t in wanted]
        return legal_attacks(self._b, u, known, origin, facing)

    def sensor_targets(self, unit_id: str) -> list[str]:
        """Concealed enemies the unit's Sensor could reveal from where it stands (the sensor
        finds them, not you). Asked of any other spot, the answer would map the hidden (E24)."""
        u = self._own(unit_id)
        return [
            e.id
            for e in self._b.state.units_in_battle(self.enemy)
            if sensor_problem(self._b, u, e.id) is None
        ]

    def plan_path(
        self, unit_id: str, goal: Point, budget: float | None = None, start: Point | None = None
    ) -> list[Point] | None:
        """The legal path toward ``goal`` the unit can afford (start included), or None."""
        u = self._own(unit_id)
        return plan_path(self._b, u, goal, u.card.move if budget is None else budget, start)

    def path_cost(self, unit_id: str, path: list[Point]) -> float | None:
        """What moving the unit along ``path`` (its start first) costs, or None if illegal.

        Lets a policy shorten a planned path itself and know the engine will accept it.
        """
        u = self._own(unit_id)
        if not path or path[0] != u.position:
            return None
        problem, cost = path_problem(self._b, u, list(path), u.card.move)
        return None if problem else cost

    def line_clear(self, a: Point, b: Point) -> bool:
        """Whether a string from ``a`` to ``b`` crosses no sight-blocking piece (terrain only)."""
        return self._b.sight.line_clear(a, b)

    def cover_at(self, p: Point) -> frozenset[str]:
        """Ids of the sight-blocking pieces (terrain, standing buildings) holding ``p``, on a
        joint with another piece too (``Sight.pieces_at``)."""
        return self._b.sight.pieces_at(p)

    def joints(self) -> dict[str, tuple[tuple[Point, Point], ...]]:
        """Each terrain piece's and standing building's joints (``Sight.joints``)."""
        return self._b.sight.joints()

    def holders(self, objective: Objective) -> list[str]:
        """Sides holding the objective now, as far as this side can see."""
        from .victory import holders

        seen = [*self._b.state.units_in_battle(self.side), *self._visible_enemies()]
        return holders(self._b.state, objective, seen)

    @staticmethod
    def distance(a: Point, b: Point) -> float:
        return geometry.distance(a, b)
