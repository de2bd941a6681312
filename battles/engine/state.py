"""The mutable battle state, changed only by applying events.

``BattleState.apply`` is the single mutator: the engine applies each event it logs, and a replay
applies the same events to a fresh initial state, so both reach the same state by construction.
Per-unit state is small and mutable; cards and terrain stay frozen and shared.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import events as ev
from . import geometry
from .cards import BuildingCard, Keyword, UnitCard
from .events import AttackKind, EndReason, Removal
from .geometry import Point, Polygon
from .scenario import Order, Quality, Scenario
from .terrain import TerrainPiece


@dataclass(slots=True, eq=False)
class UnitState:
    """One unit during the battle."""

    id: str
    """Unit id from the scenario."""
    side: str
    """Side id."""
    card: UnitCard
    """Its card (never modified)."""
    order: Order
    """Standing order."""
    position: Point
    """Where its centre stands."""
    facing: float
    """Degrees CCW from +x (Fixed Mount)."""
    hits: int
    """Hits left; 0 = destroyed."""
    skill: int
    """Current Skill; lowered by suppression."""
    uses: dict[str, int]
    """Uses left for each limited weapon, by weapon name."""
    removed: Removal = Removal.NONE
    """Whether and how it left the battle."""
    concealed: bool = False
    """Concealed units cannot be attacked (except from inside the same piece)."""
    revealed_until: int | None = None
    """Revealed through the end of its activation with this number (after firing, sensor)."""
    activations: int = 0
    """Activations begun so far in the battle."""
    activated: bool = False
    """Whether it has activated this turn."""
    moved: float = 0.0
    """Movement spent in the current (or last) activation."""
    shots: int = 0
    """Attacks made (a ram back is not an attack of its own)."""
    damage_dealt: int = 0
    """Damage inflicted on enemies and buildings."""
    active: bool = True
    """Still in the battle (kept beside ``removed`` because it is asked constantly)."""
    quality: Quality = Quality.AVERAGE
    """Its quality (the commander reads it; the rules never do)."""
    stamp: int = 0
    """Moves on whenever what a side may see of the unit changes (where it stands and faces,
    its Hits and Skill, whether it is concealed or has activated), so a view knows an unchanged
    unit at a glance."""
    aerial: bool = field(init=False)
    """Whether its card is Aerial: it flies over terrain, is never concealed and never blocked.
    Read off the card once, because sight asks it of both ends of nearly every line (reading
    an enum member off its class is dear)."""

    def __post_init__(self) -> None:
        self.aerial = Keyword.AERIAL in self.card.keywords


@dataclass(slots=True, eq=False)
class BuildingState:
    """One building during the battle: a unit with a card and a terrain footprint."""

    id: str
    """Building id."""
    side: str | None
    """Owning side or ``None``."""
    card: BuildingCard
    """Its card."""
    polygon: Polygon
    """Footprint."""
    hits: int
    """Hits left; at 0 it collapses."""
    collapsed: bool = False
    """Fallen into rubble."""


@dataclass(slots=True, eq=False)
class BattleState:
    """Everything that changes during a battle."""

    scenario: Scenario
    """The scenario (frozen)."""
    units: dict[str, UnitState]
    """Units by id, in scenario order."""
    buildings: dict[str, BuildingState]
    """Buildings by id."""
    terrain: list[TerrainPiece]
    """Terrain pieces now on the table (rubble is added when a building falls)."""
    terrain_version: int = 0
    """Bumped whenever the terrain changes, so sight and path caches know to refresh."""
    turn: int = 0
    """Current turn, 0 before the first."""
    first: str | None = None
    """Side with initiative this turn."""
    active_unit: str | None = None
    """Unit activating now."""
    scores: dict[str, int] = field(default_factory=dict)
    """Score per side."""
    end_reason: str | None = None
    """Set when the battle ends."""
    winner: str | None = None
    """Winner once ended (``None`` also for a draw)."""
    _in_battle: dict[str, tuple[UnitState, ...]] = field(default_factory=dict, repr=False)
    """``units_in_battle`` per side, asked many times per activation; a removal clears it."""
    ready: dict[str, int] = field(default_factory=dict)
    """Units of each side still in the battle that have not activated this turn."""
    left: dict[str, int] = field(default_factory=dict)
    """How many units of each side are still in the battle (the turn loop asks after every
    activation whether a side is gone)."""
    _side_units: dict[str, tuple[UnitState, ...]] = field(default_factory=dict, repr=False)
    """Each side's units in scenario order, removed or not: ``units_in_battle`` filters them."""
    enemy: dict[str, str] = field(default_factory=dict, repr=False)
    """Each side's enemy, by side id: read directly where asked often, without a call."""

    @classmethod
    def initial(cls, scenario: Scenario) -> BattleState:
        """The state before the first event."""
        units = {}
        for u in scenario.units():
            uses = {w.name: w.uses for w in u.card.weapons if w.uses is not None}
            units[u.id] = UnitState(
                u.id,
                u.side,
                u.card,
                u.order,
                u.position,
                u.facing,
                u.card.hits,
                u.card.skill,
                uses,
                quality=u.quality,
            )
        buildings = {
            b.id: BuildingState(b.id, b.side, b.card, b.polygon, b.card.hits)
            for b in scenario.buildings
        }
        a, b = (s.id for s in scenario.sides)
        side_units = {side: tuple(u for u in units.values() if u.side == side) for side in (a, b)}
        return cls(
            scenario,
            units,
            buildings,
            list(scenario.terrain),
            scores={a: 0, b: 0},
            left={side: len(found) for side, found in side_units.items()},
            _side_units=side_units,
            enemy={a: b, b: a},
        )

    @property
    def ended(self) -> bool:
        return self.end_reason is not None

    def side_units(self, side: str) -> list[UnitState]:
        """The side's units still in the battle, in scenario order."""
        return list(self.units_in_battle(side))

    def units_in_battle(self, side: str) -> tuple[UnitState, ...]:
        """Like ``side_units``, as a shared tuple: the engine's hot loops need no copy."""
        found = self._in_battle.get(side)
        if found is None:
            found = tuple(u for u in self._side_units.get(side, ()) if u.active)
            self._in_battle[side] = found
        return found

    def enemy_of(self, side: str) -> str:
        return self.enemy[side]

    # --- the one mutator ----------------------------------------------------------------------

    def apply(self, event: ev.Event) -> None:
        """Apply one event. Rolls and markers change nothing; everything else is here."""
        handler = _HANDLERS.get(event.KIND)
        if handler is not None:
            handler(self, event)

    def _turn_start(self, e: ev.TurnStart) -> None:
        self.turn = e.turn
        self.first = None
        # Every unit still in the battle is ready again, as many as each side has left.
        self.ready.update(self.left)
        for u in self.units.values():
            u.activated = False
            u.stamp += 1

    def _initiative(self, e: ev.Initiative) -> None:
        self.first = e.first

    def _activation(self, e: ev.Activation) -> None:
        u = self.units[e.unit]
        u.activated = True
        u.activations = e.number
        u.moved = 0.0
        u.stamp += 1
        if self.ready.get(u.side):
            self.ready[u.side] -= 1
        self.active_unit = e.unit

    def _move(self, e: ev.Move) -> None:
        u = self.units[e.unit]
        u.position = e.path[-1]
        u.facing = e.facing
        u.moved = round(u.moved + e.cost, geometry.PRECISION)
        u.stamp += 1

    def _attack(self, e: ev.Attack) -> None:
        if e.attack == AttackKind.RAM_BACK:
            return
        u = self.units[e.attacker]
        u.shots += 1
        if e.weapon in u.uses and e.attack == AttackKind.SHOOT:
            u.uses[e.weapon] -= 1

    def _damage(self, e: ev.Damage) -> None:
        unit = self.units.get(e.unit)
        if unit is not None:
            unit.hits = e.hits
            unit.stamp += 1
        else:
            self.buildings[e.unit].hits = e.hits
        if e.by is not None:
            self.units[e.by].damage_dealt += 1

    def _suppress(self, e: ev.Suppress) -> None:
        u = self.units[e.unit]
        u.skill = e.skill
        u.stamp += 1

    def _remove(self, e: ev.Remove) -> None:
        u = self.units[e.unit]
        if u.active:
            self.left[u.side] -= 1
        u.removed = e.how
        u.active = False
        u.stamp += 1
        if not u.activated and self.ready.get(u.side):
            self.ready[u.side] -= 1
        self._in_battle.pop(u.side, None)

    def _collapse(self, e: ev.Collapse) -> None:
        b = self.buildings[e.building]
        b.collapsed = True
        self.terrain.append(TerrainPiece(b.id, b.card.rubble, b.polygon))
        self.terrain_version += 1

    def _reveal(self, e: ev.Reveal) -> None:
        u = self.units[e.unit]
        u.concealed = False
        u.revealed_until = e.until
        u.stamp += 1

    def _conceal(self, e: ev.Conceal) -> None:
        u = self.units[e.unit]
        u.concealed = True
        u.revealed_until = None
        u.stamp += 1

    def _score(self, e: ev.Score) -> None:
        self.scores[e.side] = e.total

    def _end(self, e: ev.End) -> None:
        self.end_reason = EndReason(e.reason).value  # the result keeps the plain word
        self.winner = e.winner
        self.active_unit = None

    # --- comparison ---------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """Plain-data picture of the state, for replay checks and debugging."""
        return {
            "turn": self.turn,
            "first": self.first,
            "scores": dict(self.scores),
            "end": self.end_reason,
            "winner": self.winner,
            "terrain": [t.id + ":" + t.kind for t in self.terrain],
            "units": {
                u.id: {
                    "position": list(u.position),
                    "facing": u.facing,
                    "hits": u.hits,
                    "skill": u.skill,
                    "removed": u.removed.value,
                    "concealed": u.concealed,
                    "revealed_until": u.revealed_until,
                    "activations": u.activations,
                    "uses": dict(u.uses),
                    "shots": u.shots,
                    "damage_dealt": u.damage_dealt,
                }
                for u in self.units.values()
            },
            "buildings": {
                b.id: {"hits": b.hits, "collapsed": b.collapsed} for b in self.buildings.values()
            },
        }


_HANDLERS: dict[str, Callable[[BattleState, Any], None]] = {
    ev.TurnStart.KIND: BattleState._turn_start,
    ev.Initiative.KIND: BattleState._initiative,
    ev.Activation.KIND: BattleState._activation,
    ev.Move.KIND: BattleState._move,
    ev.Attack.KIND: BattleState._attack,
    ev.Damage.KIND: BattleState._damage,
    ev.Suppress.KIND: BattleState._suppress,
    ev.Remove.KIND: BattleState._remove,
    ev.Collapse.KIND: BattleState._collapse,
    ev.Reveal.KIND: BattleState._reveal,
    ev.Conceal.KIND: BattleState._conceal,
    ev.Score.KIND: BattleState._score,
    ev.End.KIND: BattleState._end,
}
