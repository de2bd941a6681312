"""Helpers for the pure campaign rules' tests: a unit state to start from, and scripted dice."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from campaign.rules.state import CampaignUnitState
from units.bucs import Quality, Specialty


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
