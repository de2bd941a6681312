"""The scenario as the referee reads it: plain data taken from the scenario format.

Only what a scenario *says* is read here (cards, weapon lines, keywords, terrain flags, where
things stand); what the rules make of it is the checker's business.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .plane import Point

RUBBLE_KINDS = ("rubble", "rubble field")
"""The rule text's "rubble field", under both of the format's names for it."""


@dataclass(frozen=True)
class Piece:
    id: str
    kind: str
    ring: tuple[Point, ...]
    blocks_movement: bool
    blocks_sight: bool
    hazard: bool
    wall: bool
    water: bool
    fallen: bool = False
    """The rubble of a building that collapsed."""

    @property
    def rubble_field(self) -> bool:
        return self.fallen or self.kind in RUBBLE_KINDS


@dataclass(frozen=True)
class Gun:
    name: str
    power: int
    range: float
    aa: bool
    buildings_only: bool
    min_size: int | None
    max_size: int | None
    uses: int | None


@dataclass(frozen=True)
class Card:
    skill: int
    move: float
    resistance: int
    hits: int
    size: int
    melee: int | None
    guns: tuple[Gun, ...]
    keywords: frozenset[str]
    enters: frozenset[str]

    def gun(self, name: str) -> Gun | None:
        return next((g for g in self.guns if g.name == name), None)

    def has(self, keyword: str) -> bool:
        return keyword in self.keywords


@dataclass(frozen=True)
class Structure:
    id: str
    ring: tuple[Point, ...]
    resistance: int
    hits: int
    admits: tuple[int, int] | None
    side: str | None
    rubble: Piece


@dataclass(frozen=True)
class Deployed:
    id: str
    side: str
    card: Card
    position: Point
    facing: float


@dataclass(frozen=True)
class Goal:
    id: str
    raze: str | None
    point: Point | None
    radius: float
    sides: tuple[str, ...]
    per_turn: int
    at_end: int


@dataclass(frozen=True)
class Table:
    name: str
    ruleset: str
    turn_limit: int
    sides: tuple[str, str]
    pieces: tuple[Piece, ...]
    structures: tuple[Structure, ...]
    units: tuple[Deployed, ...]
    goals: tuple[Goal, ...]


def _piece(pid: str, props: Any, ring: tuple[Point, ...], fallen: bool = False) -> Piece:
    return Piece(
        pid,
        props.kind,
        ring,
        props.blocks_movement,
        props.blocks_sight,
        props.hazard,
        props.wall,
        props.water,
        fallen,
    )


def read(scenario: Any) -> Table:
    """The referee's table from a parsed scenario (``battles.engine.Scenario``: data only)."""
    pieces = tuple(_piece(t.id, t.props, tuple(t.polygon.points)) for t in scenario.terrain)
    structures = tuple(
        Structure(
            b.id,
            tuple(b.polygon.points),
            b.card.resistance,
            b.card.hits,
            None if b.card.admits is None else (b.card.admits.min_size, b.card.admits.max_size),
            b.side,
            _piece(b.id, b.card.rubble, tuple(b.polygon.points), fallen=True),
        )
        for b in scenario.buildings
    )
    units = []
    for u in scenario.units():
        c = u.card
        guns = tuple(
            Gun(w.name, w.power, w.range, w.aa, w.buildings_only, w.min_size, w.max_size, w.uses)
            for w in c.weapons
        )
        card = Card(
            c.skill,
            c.move,
            c.resistance,
            c.hits,
            c.size,
            c.melee,
            guns,
            frozenset(str(k) for k in c.keywords),
            frozenset(c.enters),
        )
        units.append(Deployed(u.id, u.side, card, tuple(u.position), u.facing))
    goals = tuple(
        Goal(
            o.id,
            o.building,
            None if o.point is None else tuple(o.point),
            o.radius,
            tuple(o.sides),
            o.points_per_turn,
            o.points_at_end,
        )
        for o in scenario.objectives
    )
    return Table(
        scenario.name,
        scenario.ruleset.name,
        scenario.turn_limit,
        (scenario.sides[0].id, scenario.sides[1].id),
        pieces,
        structures,
        tuple(units),
        goals,
    )
