"""History in words: the sentences that explain each change to a persistent unit.

A history entry keeps the changed fields of a unit snapshot (`campaign.state.UnitState.to_json`)
before and after, and a sentence a player can read on the roster: why, then what changed
("took 2 hits at Factory Hold (1 Morale, 1 Casualty); Morale hits 0 → 1, ..."). Plain Python.
"""

from __future__ import annotations

from typing import Any

from campaign.state import STATUS_LABELS, Status
from units.bucs import Equipment, Quality, Specialty

FIELD_LABELS = {
    "name": "name",
    "quality": "quality",
    "equipment": "equipment",
    "specialties": "specialties",
    "morale_hits": "Morale hits",
    "casualty_hits": "Casualty hits",
    "skill_lost": "Skill lost",
    "status": "status",
    "experience": "experience",
    "battles_fought": "battles fought",
    "in_combat_zone": "in the combat zone",
    "last_battle_day": "last battle on day",
    "leader": "leader",
}


def _value(field: str, value: Any) -> str:
    """A snapshot value as a player reads it."""
    if value is None:
        return "none"
    if field == "quality":
        return Quality[value.upper()].label
    if field == "equipment":
        return Equipment(value).label
    if field == "specialties":
        return ", ".join(Specialty(s).label for s in value) or "none"
    if field == "status":
        return STATUS_LABELS[Status(value)]
    if field == "in_combat_zone":
        return "yes" if value else "no"
    if field == "leader":
        state = "" if value["alive"] else ", dead"
        return f"{value['name']} ({value['hit_points']} hit points{state})"
    return str(value)


def changes_text(before: dict[str, Any], after: dict[str, Any]) -> str:
    """'quality Average → Green, Morale hits 0 → 1' for the fields in `after`."""
    parts = [
        f"{FIELD_LABELS.get(field, field)} {_value(field, before.get(field))} → "
        f"{_value(field, value)}"
        for field, value in after.items()
    ]
    return ", ".join(parts) if parts else "no change"


def sentence(why: str, before: dict[str, Any], after: dict[str, Any]) -> str:
    """The entry's sentence: why, then what changed."""
    return f"{why}; {changes_text(before, after)}"


def hits_text(morale: int, casualty: int) -> str:
    return f"{morale} Morale, {casualty} Casualty"


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"
