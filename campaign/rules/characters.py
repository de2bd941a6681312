"""Characters at the head of units: the feats and classes BUCS reads, and what each one does.

A character (a player's or a named NPC) may lead a unit; the unit then fights and makes its
checks with the *assisting* column of the quality table. The copy says each feat "gives details
for its effect on Unit vs. Unit contests" but holds no details, so the effects here are the
project's (docs/bucs-choices.md, "Characters"). Plain Python: no Django.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from campaign.rules.recovery import morale_hits_healable
from campaign.rules.state import CampaignUnitState
from units.words import given, or_words


class Feat(StrEnum):
    """The feats and classes that lead units; the value is the stable name used in data."""

    LEADERSHIP = "leadership"
    SQUAD_TACTICS = "squad_tactics"
    SPECIAL_FORCES = "special_forces"
    STRATEGIST = "strategist"

    @property
    def row(self) -> FeatRow:
        return FEAT_TABLE[self]

    @property
    def label(self) -> str:
        return self.row.label


@dataclass(frozen=True)
class FeatRow:
    """What a feat does for the unit its character leads (all chosen: the copy is silent)."""

    label: str
    combat: int = 0
    """Added to the led unit's unit-combat rolls."""
    skill: int = 0
    """Added to the led unit's skill checks and non-combat contests."""
    outnumbered_relief: int = 0
    """Points of the Outnumbered penalty the led unit does not suffer."""
    surprise: int = 0
    """Added to the led unit's side's Hide and Spot checks."""
    trains: bool = False
    """May give a course of training (the copy: Special Forces and Strategists)."""
    rallies: bool = False
    """May heal Morale hits (never Casualty hits)."""
    order_hours_saved: int = 0
    """Hours taken off every Order the character gives (still at least 1 hour)."""


FEAT_TABLE: dict[Feat, FeatRow] = {
    Feat.LEADERSHIP: FeatRow("Leadership", combat=1, skill=1),
    Feat.SQUAD_TACTICS: FeatRow("Squad/Squadron Tactics", combat=1, outnumbered_relief=2),
    Feat.SPECIAL_FORCES: FeatRow("Special Forces", skill=1, surprise=2, trains=True),
    Feat.STRATEGIST: FeatRow("Strategist", rallies=True, trains=True, order_hours_saved=1),
}


def feats_from(values: Iterable[Feat | str]) -> frozenset[Feat]:
    """Feats from members or stable names; an unknown name is a `ValueError` naming it."""
    feats = set()
    for value in values:
        try:
            feats.add(Feat(value))
        except ValueError:
            names = or_words([f.label for f in Feat])
            raise ValueError(f"unknown feat {given(value)}; one of {names}") from None
    return frozenset(feats)


def ordered_feats(feats: Iterable[Feat | str]) -> tuple[Feat, ...]:
    held = feats_from(feats)
    return tuple(f for f in Feat if f in held)


def feat_sum(feats: Iterable[Feat], attribute: str) -> int:
    """A feat effect summed over the character's feats (they stack)."""
    return sum(getattr(Feat(f).row, attribute) for f in feats)


def can_train(feats: Iterable[Feat]) -> bool:
    return any(Feat(f).row.trains for f in feats)


def can_rally(feats: Iterable[Feat]) -> bool:
    return any(Feat(f).row.rallies for f in feats)


class RallyError(ValueError):
    """A Strategist cannot heal this unit's Morale hits."""


def rally(state: CampaignUnitState) -> CampaignUnitState:
    """A Strategist heals one Morale hit (never a Casualty hit).

    A unit still under stress (in the combat zone) keeps its last Morale hit: only R&R out of
    the combat zone heals it.
    Refused, it says why of the unit as "it" ("it has no Morale hits; …"): whoever shows it has
    named the unit already ("Squad 1 (Red Company) cannot have a Morale hit healed: it has no
    Morale hits").
    """
    if state.destroyed:
        raise RallyError("it is destroyed")
    if state.morale_hits == 0:
        raise RallyError("it has no Morale hits; Casualty hits are the medics' work")
    if not morale_hits_healable(state):
        raise RallyError(
            "it is in the combat zone: its last Morale hit heals only by R&R out of it"
        )
    return state.but(morale_hits=state.morale_hits - 1)


def rally_blocked(state: CampaignUnitState) -> str:
    """Why a Strategist cannot rally this unit now ("" when one can), asked of the rule itself."""
    try:
        rally(state)
    except RallyError as error:
        return str(error)
    return ""
