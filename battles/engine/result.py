"""The battle result: per unit, per side, per building, and the winner."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import Enum
from typing import Any

from .events import Removal
from .state import BattleState
from .victory import objectives_held


@dataclass(frozen=True, slots=True)
class UnitResult:
    """How one unit came out of the battle."""

    unit: str
    """Unit id."""
    side: str
    """Side id."""
    name: str
    """Card name."""
    hits_lost: int
    """Hits lost (the campaign turns these into BUCS damage)."""
    skill_lost: int
    """Skill lost to suppression."""
    removed: Removal
    """Whether and how it left the battle."""
    shots: int
    """Attacks made."""
    damage_dealt: int
    """Damage inflicted."""


@dataclass(frozen=True, slots=True)
class BuildingResult:
    """How one building came out of the battle."""

    building: str
    """Building id."""
    hits_lost: int
    """Hits lost."""
    collapsed: bool
    """Whether it fell to rubble."""


@dataclass(frozen=True, slots=True)
class SideResult:
    """One side's outcome."""

    side: str
    """Side id."""
    name: str
    """Side name."""
    score: int
    """Final score."""
    objectives_held: tuple[str, ...]
    """Objectives it held at the end."""


@dataclass(frozen=True, slots=True)
class BattleResult:
    """The whole outcome."""

    winner: str | None
    """Winning side id, ``None`` for a draw."""
    end_reason: str
    """``turn_limit`` or ``side_eliminated``."""
    turns: int
    """Turns played (the last possibly cut short)."""
    sides: tuple[SideResult, ...]
    """Both sides, in scenario order."""
    units: tuple[UnitResult, ...]
    """Every unit, in scenario order."""
    buildings: tuple[BuildingResult, ...]
    """Every building."""

    @classmethod
    def from_state(cls, state: BattleState) -> BattleResult:
        """Read the result off a finished battle's state."""
        assert state.end_reason is not None, "the battle has not ended"
        sides = tuple(
            SideResult(s.id, s.name, state.scores[s.id], tuple(objectives_held(state, s.id)))
            for s in state.scenario.sides
        )
        units = tuple(
            UnitResult(
                u.id,
                u.side,
                u.card.name,
                u.card.hits - u.hits,
                u.card.skill - u.skill,
                u.removed,
                u.shots,
                u.damage_dealt,
            )
            for u in state.units.values()
        )
        buildings = tuple(
            BuildingResult(b.id, b.card.hits - b.hits, b.collapsed)
            for b in state.buildings.values()
        )
        return cls(state.winner, state.end_reason, state.turn, sides, units, buildings)

    def to_dict(self) -> dict[str, Any]:
        """As the site stores it: JSON's own types (lists, words), equal to what it reads back."""
        return _plain(asdict(self))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BattleResult:
        """The result ``to_dict`` wrote (a stored battle's), read back."""
        return cls(
            winner=data["winner"],
            end_reason=data["end_reason"],
            turns=data["turns"],
            sides=tuple(
                SideResult(s["side"], s["name"], s["score"], tuple(s["objectives_held"]))
                for s in data["sides"]
            ),
            units=tuple(
                UnitResult(
                    u["unit"],
                    u["side"],
                    u["name"],
                    u["hits_lost"],
                    u["skill_lost"],
                    Removal(u["removed"]),
                    u["shots"],
                    u["damage_dealt"],
                )
                for u in data["units"]
            ),
            buildings=tuple(
                BuildingResult(b["building"], b["hits_lost"], b["collapsed"])
                for b in data["buildings"]
            ),
        )

    def unit(self, unit_id: str) -> UnitResult:
        """The result of unit ``unit_id``; ``KeyError`` naming the units if none."""
        for u in self.units:
            if u.unit == unit_id:
                return u
        ids = [u.unit for u in self.units]
        raise KeyError(f"no unit {unit_id!r} in the result: its units are {ids}")

    def side(self, side_id: str) -> SideResult:
        """The result of side ``side_id``; ``KeyError`` naming the sides if none."""
        for s in self.sides:
            if s.side == side_id:
                return s
        ids = [s.side for s in self.sides]
        raise KeyError(f"no side {side_id!r} in the result: its sides are {ids}")

    def building(self, building_id: str) -> BuildingResult:
        """The result of building ``building_id``; ``KeyError`` naming the buildings if none."""
        for b in self.buildings:
            if b.building == building_id:
                return b
        ids = [b.building for b in self.buildings]
        raise KeyError(f"no building {building_id!r} in the result: its buildings are {ids}")


def _plain(value: Any) -> Any:
    """``value`` in JSON's own types: tuples as lists, enums as their words."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, Enum):
        return value.value
    return value
