"""Quick resolve: a small engagement fought out BUCS unit against unit, without a table.

Each round both units roll d20 + quality ("alone, under Orders") + equipment + situational
modifiers (Dug In, Pinned Down, Mobile, Momentum, Surprise, Outnumbered); the higher total wins
the round and inflicts one hit per full 5 points of margin. Rounds go on until one unit breaks
(its hits take it below Raw) or the GM's round limit. The dice come in as a function, and every
roll and hit is an event, so a seed and the setup reproduce the engagement exactly. Choices are in
docs/campaign.md ("Quick resolve"). Plain Python: no Django.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from battles.engine.events import Removal
from campaign.rules.state import CampaignUnitState
from units.bucs import (
    Equipment,
    Quality,
    Situation,
    Specialty,
    fielded,
    hits_from_margin,
    ignores_first_morale_hit,
    mobility,
    momentum_after_round,
    situational_modifiers,
    starting_momentum,
)

SIDES = ("attacker", "defender")

COMBAT_SPECIALTIES = frozenset({Specialty.INFANTRY, Specialty.MECHANIZED, Specialty.ARMOR})
"""A unit holding one of these fights at its quality; any other fights as Raw with Poor kit."""

ARMOR_IGNORES = Specialty.ARMOR.row.ignores_casualty_hits
"""Armor ignores its first two Casualty hits of the engagement."""
ROUND_LIMIT_MAX = 50
"""A ceiling on the GM's round limit: no engagement between two units lasts longer."""


@dataclass(frozen=True)
class Stance:
    """One side's circumstances, as the GM sets them."""

    dug_in: bool = False
    pinned_down: bool = False
    """This side is Pinned Down: its opponent gains +2."""
    surprise: bool = False
    """This side surprised the other (Hide against Spot): it starts with +2 Momentum."""
    units: int = 1
    """BUCS units on this side of the engagement, for the Outnumbered table."""

    def to_json(self) -> dict[str, Any]:
        return {
            "dug_in": self.dug_in,
            "pinned_down": self.pinned_down,
            "surprise": self.surprise,
            "units": self.units,
        }


@dataclass
class _Fighter:
    state: CampaignUnitState
    stance: Stance
    momentum: int = 0
    morale_hits: int = 0
    casualty_hits: int = 0
    armor_ignored: int = 0
    excellent_ignored: int = 0
    removed: Removal = Removal.NONE

    @property
    def hits(self) -> int:
        return self.state.hits + self.morale_hits + self.casualty_hits


@dataclass(frozen=True)
class SideDamage:
    """What one side took in the engagement."""

    morale_hits: int
    casualty_hits: int
    armor_ignored: int
    excellent_ignored: int
    removed: Removal
    """``none``, ``demoralised`` (broke on a Morale hit) or ``destroyed`` (on a Casualty hit)."""


@dataclass(frozen=True)
class QuickResult:
    """The whole engagement."""

    winner: str | None
    """``attacker``, ``defender``, or None when the round limit came first."""
    rounds: int
    attacker: SideDamage
    defender: SideDamage
    events: list[dict[str, Any]] = field(default_factory=list)

    def side(self, name: str) -> SideDamage:
        return self.attacker if name == "attacker" else self.defender


def fighting(state: CampaignUnitState, hits: int) -> tuple[Quality, Equipment]:
    """The quality and kit a unit fights with, at its current hits (`units.bucs.fielded`)."""
    kit = fielded(
        Quality(state.quality).lowered(hits), state.equipment, state.specialties, COMBAT_SPECIALTIES
    )
    return kit.quality, kit.equipment


def _roll(f: _Fighter, other: _Fighter, d20: Callable[[], int]) -> dict[str, Any]:
    quality, equipment = fighting(f.state, f.hits)
    situation = Situation(
        dug_in=f.stance.dug_in,
        opponent_dug_in=other.stance.dug_in,
        opponent_pinned_down=other.stance.pinned_down,
        momentum=f.momentum,
        mobility=mobility(f.state.specialties, f.state.equipment),
        opponent_mobility=mobility(other.state.specialties, other.state.equipment),
        own_units=f.stance.units,
        enemy_units=other.stance.units,
    )
    die = d20()
    modifiers = situational_modifiers(situation)
    total = die + quality.alone_under_orders + equipment.modifier + sum(modifiers.values())
    return {
        "d20": die,
        "quality": quality.alone_under_orders,
        "equipment": equipment.modifier,
        "situational": modifiers,
        "total": total,
    }


def _hit(loser: _Fighter, winner: _Fighter, index: int) -> dict[str, Any]:
    """One hit on the loser: Morale first, then Casualty, alternating (half up are Morale)."""
    kind = "morale" if index % 2 == 0 else "casualty"
    ignored = None
    armor = Specialty.ARMOR in loser.state.specialties
    if kind == "casualty" and armor and loser.armor_ignored < ARMOR_IGNORES:
        loser.armor_ignored += 1
        ignored = "armor"
    excellent = ignores_first_morale_hit(loser.state.equipment, winner.state.equipment)
    if kind == "morale" and excellent and loser.excellent_ignored == 0:
        loser.excellent_ignored = 1
        ignored = "excellent"
    if ignored is None:
        if kind == "morale":
            loser.morale_hits += 1
        else:
            loser.casualty_hits += 1
        if loser.hits > int(loser.state.quality):
            loser.removed = Removal.DEMORALISED if kind == "morale" else Removal.DESTROYED
    return {"kind": kind, "ignored": ignored}


def quick_resolve(
    attacker: CampaignUnitState,
    defender: CampaignUnitState,
    *,
    attacker_stance: Stance = Stance(),
    defender_stance: Stance = Stance(),
    round_limit: int,
    d20: Callable[[], int],
) -> QuickResult:
    """Fight the engagement out; the result and every event, in order."""
    if not 1 <= round_limit <= ROUND_LIMIT_MAX:
        raise ValueError(f"the round limit must be 1..{ROUND_LIMIT_MAX}, got {round_limit}")
    sides = {
        "attacker": _Fighter(attacker, attacker_stance),
        "defender": _Fighter(defender, defender_stance),
    }
    events: list[dict[str, Any]] = []
    for name, f in sides.items():
        f.momentum = starting_momentum(surprise=f.stance.surprise)
        events.append({"event": "start", "side": name, "unit": f.state.name, "hits": f.hits})
    winner: str | None = None
    rounds = 0
    while rounds < round_limit and winner is None:
        rounds += 1
        a, d = sides["attacker"], sides["defender"]
        rolls = {"attacker": _roll(a, d, d20), "defender": _roll(d, a, d20)}
        margin = rolls["attacker"]["total"] - rolls["defender"]["total"]
        round_winner = None if margin == 0 else ("attacker" if margin > 0 else "defender")
        hits = hits_from_margin(abs(margin))
        events.append(
            {"event": "round", "round": rounds, **rolls, "winner": round_winner, "hits": hits}
        )
        if round_winner is None:
            continue  # a tie: nobody gains ground, Momentum stays where it was
        loser_name = "defender" if round_winner == "attacker" else "attacker"
        won, lost = sides[round_winner], sides[loser_name]
        won.momentum, lost.momentum = momentum_after_round(won.momentum, lost.momentum)
        for index in range(hits):
            hit = _hit(lost, won, index)
            events.append({"event": "hit", "round": rounds, "side": loser_name, **hit})
            if lost.removed != Removal.NONE:
                events.append({"event": "broken", "side": loser_name, "removed": lost.removed})
                winner = round_winner
                break
    events.append({"event": "end", "rounds": rounds, "winner": winner})
    damage = {
        name: SideDamage(
            f.morale_hits, f.casualty_hits, f.armor_ignored, f.excellent_ignored, f.removed
        )
        for name, f in sides.items()
    }
    return QuickResult(winner, rounds, damage["attacker"], damage["defender"], events)
