"""A campaign battle's report in the campaign's names: its sides, its units, how units left."""

from __future__ import annotations

from campaign.models import CampaignBattle, Unit
from campaign.pages.names import unit_label
from campaign.pages.sides import BattleSide
from campaign.rules.damage import LEFT_THE_TABLE

LEFT_WORDS = {removal: words.lower() for removal, words in LEFT_THE_TABLE.items()}
"""How a unit left a campaign battle, as its report, its story and its replay say it: "Iron
Wolf is taken out", "Sappers is broken and withdraws" (`battles.names.scenario_names`)."""


def battle_names(
    campaign_battle: CampaignBattle, units: dict[int, Unit], sides: list[BattleSide]
) -> tuple[dict[str, str], dict[str, str]]:
    """(side names, unit names) by engine id, for the report of a campaign battle."""
    side_names = {side.id: side.name for side in sides}
    unit_names = {
        engine_id: unit_label(units[pk])
        for engine_id, pk in campaign_battle.engine_units.items()
        if pk in units
    }
    return side_names, unit_names
