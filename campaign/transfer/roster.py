"""A force's roster as the rows of a CSV file, with the cards printed for its units."""

from __future__ import annotations

from typing import Any

from campaign.pages.cards import card_text

ROSTER_COLUMNS = (
    "name",
    "card",
    "quality",
    "effective quality",
    "equipment",
    "specialties",
    "morale hits",
    "casualty hits",
    "skill lost",
    "status",
    "experience",
    "battles fought",
    "in combat zone",
    "last battle day",
    "leader",
    "leader hit points",
    "battle card",
    "engine skill",
    "engine card changes",
)
"""A roster's CSV columns. Its "battle card" is the card printed for a battle at a real table,
as the unit's page and printable card show it; where a battle fought by the engine (under the
set-up's standing Order) gives another, "engine skill" is that card's Skill and "engine card
changes" says what changes ("Skill 3, not 2"), else both are blank. New columns go last, so a
script that reads the old ones by position still reads them."""


def csv_cell(value: Any) -> Any:
    """A text cell a spreadsheet shows as text: one that starts like a formula gets a quote
    (a unit named "=HYPERLINK(...)" stays a name)."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def roster_rows(lines: list[Any]) -> list[list[Any]]:
    """A force's roster lines with their printed cards (``campaign.pages.roster.printed_lines``) as
    CSV rows, header first."""
    rows: list[list[Any]] = [list(ROSTER_COLUMNS)]
    for line in lines:
        unit = line.unit
        state = unit.state
        leader = state.leader
        rows.append(
            [
                csv_cell(unit.name),
                csv_cell(unit.unit_type.name),
                state.quality.label,
                state.effective_quality.label,
                state.equipment.label,
                line.specialties,
                state.morale_hits,
                state.casualty_hits,
                state.skill_lost,
                unit.get_status_display(),
                state.experience,
                state.battles_fought,
                "yes" if state.in_combat_zone else "no",
                "" if state.last_battle_day is None else state.last_battle_day,
                "" if leader is None else csv_cell(leader.name),
                "" if leader is None else leader.hit_points,
                csv_cell(" / ".join(card_text(line.card).splitlines())) if line.card else "",
                line.engine_card["skill"] if line.engine_changes else "",
                line.engine_changes,
            ]
        )
    return rows
