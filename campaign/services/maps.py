"""Saved maps: a GM's own scenario documents, checked by the engine before they are kept."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from battles.engine import ScenarioError, parse_scenario
from battles.services import BattleInputError, scenario_from_text
from campaign.models import Campaign, SavedMap
from campaign.services._record import require_manager


def saved_map_create(*, campaign: Campaign, name: str, text: str, actor: Any = None) -> SavedMap:
    """Keep a map (scenario JSON text) for the campaign's battles; refuse it naming the field.

    The map is checked as the campaign would fight it (under the campaign's ruleset), with the
    units it deploys as the spots the set-up page offers.
    """
    require_manager(campaign, actor)
    errors: dict[str, list[str]] = {}
    name = name.strip()
    if not name:
        errors["name"] = ["give the map a name"]
    elif campaign.maps.filter(name=name).exists():
        errors["name"] = [f"the campaign already has a map called {name!r}"]
    scenario: Any = None
    try:
        scenario = scenario_from_text(text)
    except BattleInputError as exc:
        errors["scenario"] = [
            reason if path == "scenario" else f"{path}: {reason}" for path, reason in exc.errors
        ]
    if isinstance(scenario, dict):
        scenario["ruleset"] = campaign.ruleset
        try:
            parse_scenario(scenario)
        except ScenarioError as exc:
            errors["scenario"] = [
                f"{path}: {reason}" if path else reason for path, reason in exc.problems
            ]
    elif "scenario" not in errors:
        errors["scenario"] = ["must be a JSON object (a scenario document)"]
    if errors:
        raise ValidationError(errors)
    with transaction.atomic():
        return SavedMap.objects.create(
            campaign=campaign, name=name, scenario=scenario, created_by=actor
        )
