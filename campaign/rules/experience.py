"""Experience and training: how a persistent unit's quality rises.

The BUCS copy gives no experience table, so the project chose one (docs/campaign.md, "Experience"):
a unit that survives a battle earns points, and enough points raise its quality one step. Elite
and Legendary come only this way; training by a named character reaches Experienced at most.
Plain Python: no Django.
"""

from __future__ import annotations

from dataclasses import dataclass

from campaign.rules.state import CampaignUnitState, Status
from units.bucs import Quality

POINTS_SURVIVED = 1
"""Every unit that comes out of a battle not destroyed."""
POINTS_WON = 1
"""More for a unit on the winning side that held together (did not retreat in poor order)."""

EXPERIENCE_TABLE: dict[Quality, int] = {
    Quality.RAW: 1,
    Quality.GREEN: 2,
    Quality.INEXPERIENCED: 3,
    Quality.AVERAGE: 4,
    Quality.EXPERIENCED: 5,
    Quality.ELITE: 6,
}
"""Points a unit of this quality needs for its next step. Legendary has nowhere to go."""


def threshold(quality: Quality) -> int | None:
    """Points needed to leave this quality, None at Legendary."""
    return EXPERIENCE_TABLE.get(Quality(quality))


def with_quality(state: CampaignUnitState, quality: Quality) -> CampaignUnitState:
    """The state at a new quality, its progress capped below the new quality's threshold.

    Progress is kept when quality changes, but never so much that it would count toward two
    steps: a unit rises at most one step per battle.
    """
    quality = Quality(quality)
    needed = threshold(quality)
    experience = state.experience if needed is None else min(state.experience, needed - 1)
    return state.but(quality=quality, experience=experience)


@dataclass(frozen=True)
class Earned:
    """What a battle taught a unit."""

    points: int
    raised: bool
    """Whether the points took it up a step."""


def experience_earn(
    state: CampaignUnitState, *, won: bool, quality_lost: bool = False
) -> tuple[CampaignUnitState, Earned]:
    """Points for coming through a battle (more for winning it), and a step up at the threshold.

    Only a unit that held together learns: one destroyed or retreated in poor order earns
    nothing. Nor does a unit that lost quality for good in the battle (Skill lost under
    Combined Arms): its survivors are not the veterans the points would describe, and a step
    up would give straight back what the rules say never returns.
    """
    if state.status != Status.READY or quality_lost:
        return state, Earned(0, raised=False)
    points = POINTS_SURVIVED
    if won:
        points += POINTS_WON
    experience = state.experience + points
    needed = threshold(state.quality)
    if needed is not None and experience >= needed:
        raised = with_quality(state.but(experience=experience - needed), state.quality.raised())
        return raised, Earned(points, raised=True)
    return state.but(experience=experience), Earned(points, raised=False)


class TrainingError(ValueError):
    """Training cannot raise this unit."""


def training_apply(state: CampaignUnitState) -> CampaignUnitState:
    """One course of training: one step, into Inexperienced, Average or Experienced only.

    The unit must be ready and out of the combat zone: training is what a unit does in camp.
    """
    if state.status != Status.READY:
        raise TrainingError(f"a unit must be ready to train; this one is {state.status.label}")
    if state.in_combat_zone:
        raise TrainingError("a unit in the combat zone cannot train; withdraw it first")
    try:
        trained = state.quality.trained()
    except ValueError as error:
        raise TrainingError(str(error)) from None
    return with_quality(state, trained)


def training_blocked(state: CampaignUnitState) -> str:
    """Why training cannot raise this unit now ("" when it can), asked of the rule itself."""
    try:
        training_apply(state)
    except TrainingError as error:
        return str(error)
    return ""
