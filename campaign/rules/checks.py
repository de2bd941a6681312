"""Unit skill checks, non-combat contests between units, and raising a unit by Requisition.

A check is d20 + the quality column the unit's command gives it + its equipment (within its
specialties; a unit pressed into a task outside them counts as Poor and performs as Raw) + its
leader's feats + Strength in numbers (+2 per extra unit with the skill in common). A contest
(reconnaissance against camouflage) is two such checks, higher wins. A Requisition check is a
character's d20 + bonus against a DC set by the unit's quality and equipment. Choices are in
docs/bucs-choices.md ("Checks and Requisition"). Plain Python: no Django.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from campaign.rules.characters import Feat, feat_sum
from campaign.rules.command import Command, column
from units.bucs import (
    Equipment,
    Quality,
    Specialty,
    equipment_for_task,
    quality_for_order,
    strength_in_numbers,
)

REQUISITION_BASE_DC: dict[Quality, int] = {
    Quality.RAW: 10,
    Quality.GREEN: 12,
    Quality.INEXPERIENCED: 14,
    Quality.AVERAGE: 16,
    Quality.EXPERIENCED: 18,
}
"""The Requisition DC of a unit of each quality with Adequate equipment (chosen). Elite and
Legendary have none: "Elite and Legendary come only from combat"."""
CONTEST_SIDES = ("active", "resisting")


class CheckError(ValueError):
    """A check that cannot be made; ``errors`` names the field of each reason: ``units`` or
    ``helpers`` for a skill check, ``active``, ``resisting`` or their ``_helpers`` in a contest."""

    def __init__(self, errors: dict[str, list[str]]) -> None:
        super().__init__("; ".join(p for problems in errors.values() for p in problems))
        self.errors = errors


@dataclass(frozen=True)
class CheckUnit:
    """A unit at work, as its Orders and leader leave it."""

    key: str
    name: str
    quality: Quality
    """Effective quality."""
    equipment: Equipment
    specialties: tuple[Specialty, ...]
    command: Command
    leader_feats: frozenset[Feat] = frozenset()
    leader: str = ""
    """Its leader's name, said with the assisting column as an engagement's rolls say it."""
    leader_out: str = ""
    """Why its leader adds nothing, if dying (`history.out_cold_text`: "Sgt Vance is dying
    (−3 hp) and leads nobody until healed"): said in the working, where feats would stand."""


def has_skill(unit: CheckUnit, skill: Specialty | None) -> bool:
    """A general skill (None) is every unit's; a specialty's skill is its holders'."""
    return skill is None or skill in unit.specialties


def performs_as(unit: CheckUnit, skill: Specialty | None) -> Quality:
    """The quality it works at on a check of this skill: its own within its specialties, Raw
    outside them (a unit doing an Order outside its specialties performs as Raw)."""
    return quality_for_order(unit.quality, within_specialties=has_skill(unit, skill))


def check_errors(
    units: Sequence[CheckUnit],
    skill: Specialty | None,
    lead: str = "units",
    helpers: str = "helpers",
) -> dict[str, list[str]]:
    """Why these units cannot make a check of this skill together, each reason under the field
    of the unit it is about: ``lead`` for the unit making the check, ``helpers`` for the rest.
    Empty: they can. Each unit is judged at the quality it works at (`performs_as`), so a unit
    outside its specialties without an Order is refused as a Raw one is."""
    if not units:
        return {lead: ["a check needs at least one unit"]}
    errors: dict[str, list[str]] = {}
    for index, unit in enumerate(units):
        if unit.command != Command.WITHOUT_ORDERS or performs_as(unit, skill).can_act_alone:
            continue
        if unit.quality.can_act_alone:
            why = (
                f"{unit.name} is outside its specialties: it performs as Raw, and a Raw unit "
                "makes no check without an Order; give it an Order"
            )
        else:
            why = f"{unit.name} is {unit.quality.label}: it cannot act alone; give it an Order"
        errors.setdefault(helpers if index else lead, []).append(why)
    return errors


def check_modifiers(unit: CheckUnit, skill: Specialty | None) -> list[list[Any]]:
    """A unit's own modifiers on a check of this skill, each [name, value]: the quality column
    its command gives it, its equipment (outside its specialties as Raw, its kit Poor) and its
    leader's skill feats. Strength in numbers is the check's, not the unit's."""
    within = has_skill(unit, skill)
    quality = performs_as(unit, skill)
    equipment = equipment_for_task(unit.equipment, within_specialties=within)
    value, source = column(quality, unit.command)
    if unit.command == Command.ASSISTING and unit.leader:
        source += f" ({unit.leader})"  # whose unit it is, as an engagement's rolls say
    modifiers: list[list[Any]] = [[f"quality: {source}", value]]
    if not within:
        modifiers.append([f"outside its specialties: as Raw, kit counts {equipment.label}", 0])
    modifiers.append([f"equipment: {equipment.label}", equipment.modifier])
    if unit.command == Command.ASSISTING:
        bonus = feat_sum(unit.leader_feats, "skill")
        if bonus:
            feats = ", ".join(f.label for f in sorted(unit.leader_feats))
            modifiers.append([f"leader's feats ({feats})", bonus])
    elif unit.leader_out:
        # Said, so a GM who counted on the leader's feats sees why they added nothing.
        modifiers.append([f"no leader's feats: {unit.leader_out}", 0])
    return modifiers


def skill_check_roll(
    units: Sequence[CheckUnit], skill: Specialty | None, d20: Callable[[], int]
) -> dict[str, Any]:
    """The first unit makes the check; the others lend Strength in numbers if they share it."""
    if errors := check_errors(units, skill):
        raise CheckError(errors)
    lead = units[0]
    modifiers = check_modifiers(lead, skill)
    sharing = 1 + sum(1 for u in units[1:] if has_skill(u, skill))
    if skill is not None and (idle := [u.name for u in units[1:] if not has_skill(u, skill)]):
        # Said, so a GM who ticked them sees why they added nothing.
        modifiers.append([f"no help from {', '.join(idle)}: no {skill.label} specialty", 0])
    if sharing > 1:
        modifiers.append([f"Strength in numbers ({sharing} units)", strength_in_numbers(sharing)])
    die = d20()
    return {
        "unit": lead.key,
        "name": lead.name,
        "helpers": [u.key for u in units[1:]],
        "d20": die,
        "modifiers": modifiers,
        "total": die + sum(m[1] for m in modifiers),
    }


def skill_check(
    units: Sequence[CheckUnit], skill: Specialty | None, dc: int, d20: Callable[[], int]
) -> dict[str, Any]:
    roll = skill_check_roll(units, skill, d20)
    return {**roll, "dc": dc, "success": roll["total"] >= dc}


def contest(
    active: Sequence[CheckUnit],
    active_skill: Specialty | None,
    resisting: Sequence[CheckUnit],
    resisting_skill: Specialty | None,
    d20: Callable[[], int],
) -> dict[str, Any]:
    """Two checks against each other; a tie goes to the resisting side (it need only hold).

    Both sides are checked before any die is rolled, each reason under the side it is about.
    """
    errors: dict[str, list[str]] = {}
    sides = zip(CONTEST_SIDES, (active, resisting), (active_skill, resisting_skill), strict=True)
    for side, units, skill in sides:
        errors.update(check_errors(units, skill, side, f"{side}_helpers"))
    if errors:
        raise CheckError(errors)
    rolls = {
        "active": skill_check_roll(active, active_skill, d20),
        "resisting": skill_check_roll(resisting, resisting_skill, d20),
    }
    won = rolls["active"]["total"] > rolls["resisting"]["total"]
    return {**rolls, "winner": "active" if won else "resisting"}


def requisition_quality_problem(quality: Quality) -> str:
    """Why no unit of this quality can be requisitioned ("" when one can)."""
    if Quality(quality) in REQUISITION_BASE_DC:
        return ""
    return (
        f"no {Quality(quality).label} unit can be requisitioned: Elite and Legendary come only "
        f"from combat (requisition raises Raw to Experienced)"
    )


def requisition_dc(quality: Quality, equipment: Equipment) -> int:
    """The DC rises with quality (the project's base DCs) and equipment (the copy's modifier)."""
    return REQUISITION_BASE_DC[Quality(quality)] + Equipment(equipment).modifier


def requisition_dc_text(quality: Quality, equipment: Equipment) -> str:
    """How the DC is made, in words kept with a roll: "DC 20 (Experienced 18, Good equipment
    +2)" (a negative modifier with a hyphen, as a kept summary has it)."""
    quality, equipment = Quality(quality), Equipment(equipment)
    base = REQUISITION_BASE_DC[quality]
    return (
        f"DC {requisition_dc(quality, equipment)} ({quality.label} {base}, "
        f"{equipment.label} equipment {equipment.modifier:+d})"
    )


def requisition_roll_text(result: Mapping[str, Any]) -> str:
    """The roll against its DC's parts: "d20 11 + 5 = 16" ("d20 11 -2 = 9" with a negative
    bonus, which a page prints with a real minus)."""
    bonus = result["bonus"]
    return f"d20 {result['d20']} {'+ ' if bonus >= 0 else ''}{bonus} = {result['total']}"


def requisition_check(
    bonus: int, quality: Quality, equipment: Equipment, d20: Callable[[], int]
) -> dict[str, Any]:
    dc = requisition_dc(quality, equipment)
    die = d20()
    return {"d20": die, "bonus": bonus, "total": die + bonus, "dc": dc,
            "success": die + bonus >= dc}  # fmt: skip
