"""Quick resolve: one unit against another, fought as a one-against-one engagement.

There is one resolver of BUCS unit combat, `campaign.rules.engagement`; a quick resolve is that
engagement with one unit a side and the GM's few stances read as the engagement's situation:
Dug In is Dug In, Pinned Down is fire from several directions (the cause the GM sees, and the
one that pins even a dug-in unit), and Surprise is the side that tries to hide (Hide against
Spot decides whether it starts with the Momentum). Outnumbered comes from the sides' counts, as in
every engagement: one against one is even. Choices are in docs/campaign.md ("Quick resolve").
Plain Python: no Django.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from campaign.rules.engagement import (
    ROUND_LIMIT_MAX,
    Engaged,
    EngagementResult,
    engagement_fight,
)
from campaign.rules.state import CampaignUnitState

SIDES = ("attacker", "defender")
ENGAGEMENT_SIDES = {"attacker": "attackers", "defender": "defenders"}
"""Each quick-resolve side's side in the engagement it is fought as."""
STANCE_FIELDS = ("dug_in", "pinned_down", "surprise")

__all__ = ["ROUND_LIMIT_MAX", "SIDES", "Stance", "quick_resolve", "situation", "surprise_side"]


@dataclass(frozen=True)
class Stance:
    """One side's circumstances, as the GM sets them."""

    dug_in: bool = False
    pinned_down: bool = False
    """This side is Pinned Down: under fire from several directions."""
    surprise: bool = False
    """This side tries to surprise the other (Hide against Spot)."""

    def to_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in STANCE_FIELDS}


def situation(stance: Stance) -> dict[str, bool]:
    """The engagement's situation flags for a unit in this stance."""
    return {"dug_in": stance.dug_in, "several_directions": stance.pinned_down}


def surprise_side(attacker: Stance, defender: Stance) -> str | None:
    """The engagement side that tries surprise, if either does; both cannot hide from each
    other at once."""
    if attacker.surprise and defender.surprise:
        raise ValueError("only one side can try to surprise the other")
    for side, stance in (("attacker", attacker), ("defender", defender)):
        if stance.surprise:
            return ENGAGEMENT_SIDES[side]
    return None


def quick_resolve(
    attacker: CampaignUnitState,
    defender: CampaignUnitState,
    *,
    attacker_stance: Stance = Stance(),
    defender_stance: Stance = Stance(),
    round_limit: int,
    d20: Callable[[], int],
    d6: Callable[[], int],
) -> EngagementResult:
    """Fight the two out as a one-against-one engagement; its units are keyed by side."""
    sides = {
        ENGAGEMENT_SIDES[side]: [Engaged(key=side, state=state, **situation(stance))]
        for side, state, stance in (
            ("attacker", attacker, attacker_stance),
            ("defender", defender, defender_stance),
        )
    }
    return engagement_fight(
        sides,
        surprise=surprise_side(attacker_stance, defender_stance),
        round_limit=round_limit,
        d20=d20,
        d6=d6,
    )
