"""Recovery between battles: R&R, rallying, the medics' 24 hours, and the dead.

Pure functions over `CampaignUnitState`. The calendar moves in whole days; a battle is fought on a
campaign day, and its medical window is the rest of that day: advancing the calendar past it
closes the window, and every Casualty hit the medics did not save is dead and lowers the unit's
quality for good. Each day the calendar advances is a day of R&R. Choices are in
docs/campaign.md ("Recovery"), each with its test. Plain Python: no Django.
"""

from __future__ import annotations

from dataclasses import dataclass

from campaign.rules.experience import with_quality
from campaign.rules.state import CampaignUnitState, Status
from units.bucs import Equipment, Quality, Specialty

# ---------------------------------------------------------------------------------------------
# R&R
# ---------------------------------------------------------------------------------------------


def rest_day(state: CampaignUnitState) -> CampaignUnitState:
    """One day of R&R: one Morale hit healed, and a unit that retreated rallies once it can.

    A unit still in the combat zone keeps its last Morale hit. A retreated unit whose hits
    still take it below Raw is still broken: it stays retreated (out of action) until R&R has
    healed enough to bring it back onto the ladder. Nothing heals a destroyed unit.
    """
    if state.status == Status.DESTROYED:
        return state
    keep = 1 if state.in_combat_zone else 0
    morale_hits = max(min(state.morale_hits, keep), state.morale_hits - 1)
    rested = state.but(morale_hits=morale_hits)
    if state.status == Status.RETREATED and not rested.below_raw:
        return rested.but(status=Status.READY)
    return rested


# ---------------------------------------------------------------------------------------------
# The medical window
# ---------------------------------------------------------------------------------------------


def medical_window_open(state: CampaignUnitState, day: int) -> bool:
    """Whether medics may still save this unit's Casualty hits on this campaign day."""
    return (
        state.status != Status.DESTROYED
        and state.casualty_hits > 0
        and state.last_battle_day is not None
        and state.last_battle_day >= day
    )


def casualties_die(state: CampaignUnitState) -> tuple[CampaignUnitState, int]:
    """(state, dead): the window has closed, so the unsaved Casualty hits are dead.

    The unit is permanently reduced by one quality step per dead hit, and its hits are gone
    (the survivors and fresh recruits make a new, lesser unit that gains experience normally).
    More dead than its quality has steps leaves nothing: the unit is destroyed utterly.
    """
    dead = state.casualty_hits
    if dead == 0 or state.status == Status.DESTROYED:
        return state, 0
    if dead > int(state.quality):
        return state.but(casualty_hits=0, status=Status.DESTROYED, in_combat_zone=False), dead
    reduced = with_quality(state, state.quality.lowered(dead))
    return reduced.but(casualty_hits=0), dead


MEDICAL_CAPACITY_BY_QUALITY: dict[Quality, int] = {
    Quality.RAW: 0,
    Quality.GREEN: 1,
    Quality.INEXPERIENCED: 1,
    Quality.AVERAGE: 2,
    Quality.EXPERIENCED: 2,
    Quality.ELITE: 3,
    Quality.LEGENDARY: 4,
}
"""Casualty hits one Medical crew saves in a battle's window, by its effective quality."""

MEDICAL_CAPACITY_BY_EQUIPMENT: dict[Equipment, int] = {
    Equipment.POOR: -2,
    Equipment.BARELY_ADEQUATE: -1,
    Equipment.ADEQUATE: 0,
    Equipment.GOOD: 1,
    Equipment.EXCELLENT: 2,
}
"""Added to a Medical crew's capacity for its kit (half the equipment modifier)."""


def medical_capacity(state: CampaignUnitState) -> int:
    """Casualty hits this unit can save in a day: 0 unless it is a ready Medical crew."""
    if Specialty.MEDICAL not in state.specialties or state.status != Status.READY:
        return 0
    base = MEDICAL_CAPACITY_BY_QUALITY[state.effective_quality]
    return max(0, base + MEDICAL_CAPACITY_BY_EQUIPMENT[state.equipment])


@dataclass(frozen=True)
class Treatment:
    """How many Casualty hits to save on one unit."""

    unit: int
    """The unit's key (whatever the caller uses)."""
    hits: int


def medical_plan(wounded: dict[int, CampaignUnitState], capacity: int) -> list[Treatment]:
    """The medics' default triage: the best units first, then the roster order.

    Quality is what a Casualty hit destroys for good, and it is slowest to earn back at the top
    of the ladder, so the medics save the highest quality first.
    """
    plan: list[Treatment] = []
    order = sorted(wounded, key=lambda key: (-int(wounded[key].quality), key))
    for key in order:
        if capacity <= 0:
            break
        hits = min(capacity, wounded[key].casualty_hits)
        if hits:
            plan.append(Treatment(key, hits))
            capacity -= hits
    return plan


def medical_treat(state: CampaignUnitState, hits: int) -> CampaignUnitState:
    """Save `hits` of the unit's Casualty hits."""
    if not 0 <= hits <= state.casualty_hits:
        raise ValueError(f"cannot save {hits} of {state.casualty_hits} Casualty hits")
    return state.but(casualty_hits=state.casualty_hits - hits)
