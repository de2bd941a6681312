"""The validated scenario: table, terrain, buildings, sides with their units, objectives.

Instances come only from ``validation.parse_scenario`` (or ``load_scenario``), so everything
here is known to be well formed; the format is documented in ``docs/scenario.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from .cards import BuildingCard, UnitCard
from .geometry import Point, Polygon
from .rulesets import Ruleset
from .tables import ScenarioTables
from .terrain import TerrainPiece


class OrderKind(StrEnum):
    """The standing Orders a unit may carry into battle."""

    ATTACK = "attack"
    ADVANCE = "advance"
    HOLD = "hold"
    SCREEN = "screen"


class Quality(StrEnum):
    """The BUCS experience ladder, lowest first; the campaign has already printed it into Skill.

    In battle it matters only to the commander: Raw and Green units without an Order hold.
    """

    RAW = "raw"
    GREEN = "green"
    INEXPERIENCED = "inexperienced"
    AVERAGE = "average"
    EXPERIENCED = "experienced"
    ELITE = "elite"
    LEGENDARY = "legendary"

    @property
    def step(self) -> int:
        """Its step on the ladder: Raw 0 … Legendary 6."""
        return list(Quality).index(self)


class ObjectiveKind(StrEnum):
    """What an objective asks for: hold ground, or raze a building."""

    HOLD = "hold"
    RAZE = "raze"


@dataclass(frozen=True, slots=True)
class Order:
    """A unit's standing order for the commander policy."""

    kind: OrderKind
    """What the unit is meant to do."""
    objective: str | None = None
    """Objective id the order points at, if any."""
    given: bool = True
    """False when the scenario gave no Order (recorded as Hold; see ``docs/scenario.md``)."""


@dataclass(frozen=True, slots=True)
class UnitSetup:
    """A unit as deployed: its card, where it stands, where it faces, its order."""

    id: str
    """Unique id within the scenario (units and buildings share one namespace)."""
    side: str
    """Id of the side it fights for."""
    card: UnitCard
    """Its card, Skill already printed by the campaign."""
    position: Point
    """Centre of the model, inches from the table's origin corner."""
    facing: float
    """Degrees counter-clockwise from +x; matters only for Fixed Mount."""
    order: Order
    """Standing order."""
    quality: Quality = Quality.AVERAGE
    """Its quality (already printed into Skill); the commander reads it."""
    paradrop: bool = False
    """It may deploy outside its side's zone (a campaign's Airborne unit, dropped by parachute);
    never off the table, nor where its card may not stand."""


@dataclass(frozen=True, slots=True)
class BuildingSetup:
    """A building: a unit with a card that is also a terrain piece."""

    id: str
    """Unique id (shared namespace with units); its rubble keeps this id."""
    card: BuildingCard
    """The building's card."""
    polygon: Polygon
    """Its footprint."""
    side: str | None
    """The side it belongs to, or ``None`` (most buildings belong to nobody)."""


@dataclass(frozen=True, slots=True)
class Objective:
    """Somewhere a side has to be, or something it has to raze."""

    id: str
    """Unique among objectives."""
    kind: ObjectiveKind
    """Hold ground, or raze a building."""
    sides: tuple[str, ...]
    """Sides that score it."""
    point: Point | None
    """Centre of the ground to hold (hold objectives)."""
    radius: float
    """Held = a side has an unremoved unit within this distance and the enemy has none."""
    building: str | None
    """Building id to raze (raze objectives)."""
    points_per_turn: int
    """Points at the end of each turn to a listed side holding it."""
    points_at_end: int
    """Points at the end of the battle to a listed side holding it (or having razed it)."""


@dataclass(frozen=True, slots=True)
class SideSetup:
    """One of the two sides."""

    id: str
    """Unique side id."""
    name: str
    """Display name."""
    units: tuple[UnitSetup, ...]
    """Its units in the order the scenario lists them."""
    zone: Polygon | None = None
    """Its deployment zone, if the scenario gives one: every unit deploys inside it, but one
    that paradrops."""


@dataclass(frozen=True, slots=True)
class Scenario:
    """A whole validated scenario."""

    name: str
    """Display name."""
    ruleset: Ruleset
    """Combined Arms or One Year War."""
    width: float
    """Table width in inches (x)."""
    height: float
    """Table height in inches (y)."""
    turn_limit: int
    """The battle ends after this many turns."""
    terrain: tuple[TerrainPiece, ...]
    """Terrain pieces (buildings are separate)."""
    buildings: tuple[BuildingSetup, ...]
    """Buildings."""
    objectives: tuple[Objective, ...]
    """Objectives; at least one."""
    sides: tuple[SideSetup, SideSetup]
    """Exactly two sides."""
    digest: str
    """SHA-256 of the canonical JSON of the input, written into the log header."""
    tables: ScenarioTables = field(init=False, repr=False, compare=False)
    """Its cards numbered and what its battles ask of them (``tables.py``), built here once and
    shared by every battle of the scenario."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "tables", ScenarioTables(self))

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        return (0.0, 0.0, self.width, self.height)

    def units(self) -> list[UnitSetup]:
        """All units, side by side, in scenario order."""
        return [u for s in self.sides for u in s.units]
