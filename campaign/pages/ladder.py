"""The BUCS quality ladder, as the rules card shows it."""

from __future__ import annotations

from dataclasses import dataclass

from campaign.rules.experience import threshold
from units.bucs import Quality, skill_shift


@dataclass(frozen=True)
class LadderStep:
    """One step of the BUCS quality ladder, as the rules card shows it."""

    quality: Quality
    experience: int | None
    """Points it needs for the next step (None at the top)."""

    @property
    def trainable(self) -> bool:
        return self.quality.can_be_trained

    @property
    def skill_shift_alone(self) -> int:
        """The Skill shift of a unit going in without an Order, Adequate kit (`going_in`):
        Raw and Green, who cannot act alone, at the table's worst value."""
        return skill_shift(self.quality.alone(under_orders=False))


def quality_ladder() -> list[LadderStep]:
    """Raw to Legendary, with what each step means on the table and in the campaign."""
    return [LadderStep(q, threshold(q)) for q in Quality]
