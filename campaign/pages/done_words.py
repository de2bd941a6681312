"""What a training and a Strategist's rally did, in words."""

from __future__ import annotations

from campaign.models import HistoryEntry
from campaign.pages.deadlines import rally_when
from campaign.rules.recovery import days_to_rally
from campaign.rules.state import CampaignUnitState, Status
from units.bucs import Quality


def trained_text(trainer: str, unit: str, entry: HistoryEntry) -> str:
    """What a training did, in words (`unit_train`'s history entry): "Col. Vance trained
    Sappers, which rose from Green to Inexperienced."."""
    before = Quality.of_word(entry.before["quality"]).label
    after = Quality.of_word(entry.after["quality"]).label
    return f"{trainer} trained {unit}, which rose from {before} to {after}."


def rallied_text(strategist: str, unit: str, state: CampaignUnitState, now: int) -> str:
    """What a Strategist's rally did, in words, ``state`` the unit's after it: a Morale hit
    healed, and, of a unit retreated in poor order, that it still is and when R&R rallies it
    (`rally_when`): the rally itself brings no unit back into action. The Strategist's part is
    said in the copy's verb ("heal"), so "rallies" names only the unit's return to action."""
    said = f"{strategist} healed one Morale hit of {unit}"
    if state.status != Status.RETREATED:
        return f"{said}."
    when = rally_when(state, now, days_to_rally(state, now))
    return f"{said}; {unit} is still retreated in poor order: {when}."
