"""The BUCS tables as the rules card shows them: the quality ladder, equipment, specialties."""

from __future__ import annotations

from dataclasses import dataclass

from campaign.rules.experience import threshold
from units.bucs import Equipment, Quality, skill_shift


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


@dataclass(frozen=True)
class KitLine:
    """One rating of the equipment table, as the rules card shows it."""

    equipment: Equipment

    @property
    def does(self) -> str:
        """What it does beyond its modifier, in words ("" for nothing). A heavy unit's extra
        hit is left out: the copy does not say which unit is heavy, so no unit loses one."""
        row = self.equipment.row
        if row.loses_mobility:
            return (
                "Mechanized and Armor units lose their mobility: in an engagement they count as "
                "on foot."
            )
        if row.ignores_first_morale_hit:
            return "Ignores its first Morale hit from a less well equipped enemy."
        return ""


def equipment_lines() -> list[KitLine]:
    """Poor to Excellent."""
    return [KitLine(e) for e in Equipment]
