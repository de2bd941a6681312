"""Helpers for the pure campaign rules' tests: a unit state to start from, and scripted dice."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from campaign.rules.damage import UnitOutcome, outcome_damage
from campaign.rules.state import CampaignUnitState
from units.bucs import Equipment, Quality, Specialty


def unit_state(**changes: Any) -> CampaignUnitState:
    """A ready Average infantry unit, with any fields changed: the pure rules' test subject."""
    base = CampaignUnitState(
        name="Test Squad", quality=Quality.AVERAGE, specialties=(Specialty.INFANTRY,)
    )
    return base.but(**changes)


def dice(*rolls: int) -> Callable[[], int]:
    """A die that returns these results in order, and fails loudly when they run out."""
    queue = list(rolls)

    def roll() -> int:
        if not queue:
            raise AssertionError("the test ran out of scripted dice")
        return queue.pop(0)

    return roll


def come_out(
    state=None,
    *,
    hits=0,
    skill=0,
    removed="none",
    restored=False,
    enemy="adequate",
    rolls=(),
    card_hits=1,
):
    """The outcome through the bridge; `rolls` are the d6s in the order the bridge rolls them:
    a blow die per Hit lost, a split die per BUCS hit (4+ Casualty), then the leader's 3d6s."""
    return outcome_damage(
        state or unit_state(),
        UnitOutcome(hits, skill, removed),
        card_hits=card_hits,
        skill_restored=restored,
        opposing_equipment=Equipment(enemy),
        day=1,
        d6=dice(*rolls),
    )
