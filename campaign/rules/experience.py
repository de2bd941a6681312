"""Experience and training: how a persistent unit's quality rises.

The BUCS copy gives no experience table, so the project chose one (docs/campaign.md, "Experience"):
a unit that survives a battle earns points, and enough points raise its quality one step. Elite
and Legendary come only this way; training by a named character reaches Experienced at most.
A unit permanently reduced "then gains experience normally (fresh recruits)".
Plain Python: no Django.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from campaign.rules.state import CampaignUnitState, Status
from units.bucs import Quality
from units.words import plural

POINTS_SURVIVED = 1
"""Every unit that survives a battle: anything but destroyed utterly."""
POINTS_WON = 1
"""More for a survivor on the winning side."""

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


def experience_refused(state: CampaignUnitState) -> str:
    """Why the unit cannot hold its experience points at its quality ("" when it can), in a
    sentence naming it: below Legendary, the point that reaches the next step's threshold
    takes the unit up a step (`points_earned`), so no unit stays a step below with that many.
    A GM who means it to rise sets its quality too."""
    needed = threshold(state.quality)
    if needed is None or state.experience < needed:
        return ""
    return (
        f"{state.name} is {state.quality.label}: at {plural(needed, 'experience point')} it "
        f"rises to {state.quality.raised().label}, so it holds at most {needed - 1} as "
        f"{state.quality.label}; to raise it, set its quality too."
    )


HELD_BACK_BROKEN = "no step up while it is broken (retreated in poor order)"
HELD_BACK_QUALITY_LOST = "no step back up in the battle that cost it quality for good"
"""Why a survivor's points stop just short of its next step, in the history's words."""

HELD_SHORT = "held just short of the next step"
"""What a survivor's points do when something holds it back (`HELD_BACK_BROKEN`)."""

BECAUSE = ", for there is "
"""Between what was held back and why (`HELD_BACK_BROKEN`), in one sentence: "held just short
of the next step, for there is no step up while it is broken". A colon there would stand
beside the one after the fight's name and the one before what the entry did to the unit."""


@dataclass(frozen=True)
class Earned:
    """What a battle taught a unit."""

    points: int
    raised: bool
    """Whether the points took it up a step."""
    held_back: str = ""
    """Why its progress stopped just below the next step ("" when it did not)."""


def experience_earn(
    state: CampaignUnitState, *, won: bool, quality_lost: bool = False
) -> tuple[CampaignUnitState, Earned]:
    """Points for surviving a battle (more for winning it), and a step up at the threshold.

    Every unit that survives earns: anything but destroyed utterly, a unit that retreated in
    poor order or lost quality for good in the battle included (a unit permanently reduced
    "then gains experience normally": its fresh recruits learn too). Two of them are not
    promoted by this battle's points, their progress capped just below the next step: a unit
    retreated in poor order is broken, and a unit that lost quality for good in the battle
    (Skill lost under Combined Arms, Casualty hits found too late) would otherwise be given
    straight back what the rules say never returns. Should Casualty hits of the fight's window
    die later, the window's closing counts the fight's points again from the quality they
    leave (`window.window_settled`).
    """
    if state.status == Status.DESTROYED:
        return state, Earned(0, raised=False)
    why = step_held_back(state, quality_lost=quality_lost)
    return points_earned(state, fight_points(won), why)


def fight_points(won: bool) -> int:
    """What surviving a fight earns: a point, and one more for winning it."""
    return POINTS_SURVIVED + (POINTS_WON if won else 0)


def step_held_back(state: CampaignUnitState, *, quality_lost: bool) -> str:
    """Why a fight's points may not take the unit a step up ("" when they may): it left the
    fight broken, or lost quality for good there."""
    if state.status == Status.RETREATED:
        return HELD_BACK_BROKEN
    return HELD_BACK_QUALITY_LOST if quality_lost else ""


def points_earned(
    state: CampaignUnitState, points: int, held_back: str = ""
) -> tuple[CampaignUnitState, Earned]:
    """The unit with `points` more experience: a step up at the threshold (the rest carried
    over, never toward a second step), or held just short of it when `held_back` says why.
    The arithmetic of `experience_earn`, which the closing window runs again for the fights of
    a window whose Casualty hits died (`recovery.casualties_die`)."""
    experience = state.experience + points
    needed = threshold(state.quality)
    if needed is None or experience < needed:
        return state.but(experience=experience), Earned(points, raised=False)
    if held_back:
        return state.but(experience=needed - 1), Earned(points, False, held_back=held_back)
    raised = with_quality(state.but(experience=experience - needed), state.quality.raised())
    return raised, Earned(points, raised=True)


def step_ups_withdrawn(state: CampaignUnitState) -> CampaignUnitState:
    """The unit without the steps up counted against its Casualty hits in a window from before
    its fights were kept (`window_quality_gained`): each is withdrawn as the cap would have
    held it back, progress just short of it ("no step back up in the battle that cost it
    quality for good"). What the closing window does first when those hits die
    (`window.window_settled`)."""
    if not state.window_quality_gained:
        return state
    quality = state.quality.lowered(state.window_quality_gained)
    needed = threshold(quality)
    experience = state.experience if needed is None else needed - 1
    return state.but(quality=quality, experience=experience, window_quality_gained=0)


def earned_text(occasion: str, earned: Earned) -> str:
    """The experience entry's reason: "Ford: 2 points of experience, a step up", "Ford: 2
    points of experience, held just short of the next step, for there is no step up while it is
    broken (retreated in poor order)"."""
    gain = f"{occasion}: {plural(earned.points, 'point')} of experience"
    if earned.raised:
        return f"{gain}, a step up"
    if earned.held_back:
        return f"{gain}, {HELD_SHORT}{BECAUSE}{earned.held_back}"
    return gain


EARNED_SAID = re.compile(
    rf"(?P<lead>.*): (?P<points>[\d,]+) points? of experience"
    rf"(?:(?P<up>, a step up)|, {HELD_SHORT}{BECAUSE}(?P<held>.+))?",
    re.DOTALL,
)
"""An experience entry's reason as `earned_text` keeps it."""


def earned_said(why: str) -> str:
    """An experience entry's reason (`earned_text`, as `history.told_why` reads it) as a page
    says it, in plain words of what the fight gave: "Ford: earned 2 experience points", "…,
    enough for a step up", "…, but there is no step up while it is broken (retreated in poor
    order)". What the points leave the unit at follows it (`history.experience_text`). Any
    other reason as it is."""
    said = EARNED_SAID.fullmatch(why)
    if said is None:
        return why
    points = int(said["points"].replace(",", ""))
    gain = f"{said['lead']}: earned {plural(points, 'experience point')}"
    if said["up"]:
        return f"{gain}, enough for a step up"
    if said["held"]:
        return f"{gain}, but there is {said['held']}"
    return gain


GAIN_SAID = re.compile(
    r"(?P<gain>(?:.*: )?earned [\d,]+ experience points?)(?:, but there is (?P<held>.+))?",
    re.DOTALL,
)
"""An experience entry's reason as `earned_said` says it, without a step up (on a unit's page,
without the fight's name, its link)."""


def earned_standing(said: str, has: str) -> tuple[str, str]:
    """An experience entry's reason as a page says it (`earned_said`) and what the points
    leave the unit (`history.experience_text`, "has 1 of the 2 …") in one plain sentence, as a
    GM would write it: "Ford: earned 1 experience point, and now has 1 of the 2 experience
    points it needs to rise to Inexperienced"; held back, "Ford: earned 2 experience points,
    but is held at 1 of the 2 …, as there is no step up while it is broken (retreated in poor
    order)". Returned as (reason, "") then; any other pair (a step up, more than the points)
    as it is."""
    gain = GAIN_SAID.fullmatch(said)
    if gain is None or not has.startswith("has ") or "; " in has:
        return said, has
    if gain["held"]:
        held = has.removeprefix("has ")
        return f"{gain['gain']}, but is held at {held}, as there is {gain['held']}", ""
    return f"{gain['gain']}, and now {has}", ""


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
