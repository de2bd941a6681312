"""Saved maps: a GM's own scenario documents, checked by the engine before they are kept.

The map editor asks ``map_problems`` as the GM draws (the engine's own validator, each problem
with the piece it names); ``saved_map_create`` keeps a map only when there are none, and
``saved_map_edit`` changes one the same way.
"""

from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from battles.engine import ScenarioError, parse_scenario
from battles.services import BattleInputError, scenario_from_text
from campaign.models import Campaign, SavedMap
from campaign.rules.values import TURN_LIMIT_MAX
from campaign.services._record import locked, name_taken, require_manager, text_given
from campaign.transfer.storable import unstorable_paths

SPOT_CARD = {
    "name": "Deployment spot",
    "skill": 3,
    "move": 5,
    "resistance": 1,
    "hits": 1,
    "size": 1,
    "weapons": [{"name": "Rifles", "power": 2, "range": 12}],
}
"""The card of a unit marking a deployment spot on a drawn map: a plain Size 1 squad, so a spot
inside terrain that no ordinary unit enters is refused. The campaign's units take the spots."""

PIECES = {"terrain": "terrain", "buildings": "building", "objectives": "objective"}
_PIECE_PATH = re.compile(r"^(terrain|buildings|objectives)\[(\d+)\](?:\.polygon\[(\d+)\])?")
_SPOT_PATH = re.compile(r"^sides\[(\d+)\]\.units\[(\d+)\]")
_ZONE_PATH = re.compile(r"^sides\[(\d+)\]\.zone(?:\[(\d+)\])?")


def problem_piece(path: str) -> dict[str, Any] | None:
    """The piece a validator path names (``terrain[2].polygon[1]`` → terrain 2, corner 1), for
    the editor to pin the problem to; None for the table or the document as a whole."""
    if match := _PIECE_PATH.match(path):
        piece: dict[str, Any] = {"kind": PIECES[match[1]], "index": int(match[2])}
        if match[3] is not None:
            piece["corner"] = int(match[3])
        return piece
    if match := _SPOT_PATH.match(path):
        return {"kind": "spot", "side": int(match[1]), "index": int(match[2])}
    if match := _ZONE_PATH.match(path):
        zone: dict[str, Any] = {"kind": "zone", "side": int(match[1]), "index": 0}
        if match[2] is not None:
            zone["corner"] = int(match[2])
        return zone
    if path.startswith("sides["):
        return {"kind": "side", "index": int(path[6 : path.index("]")])}
    return None


MAP_WORDS = {
    "a side needs at least one unit": "give the side a deployment spot: its units deploy on "
    "its spots",
    "give at least one side an objective: without one, both players correctly refuse to move": (
        "give at least one side an objective: without one, neither side has a reason to move"
    ),
}
"""The engine's words for a scenario, as the map editors say them of a map: a scenario's units
are the map's deployment spots."""


def map_problems(*, campaign: Campaign, scenario: Any) -> list[dict[str, Any]]:
    """What the engine refuses in a map, as the campaign would fight it (under its ruleset):
    each problem's path, reason (in the map's words, `MAP_WORDS`) and the piece it names."""
    if not isinstance(scenario, dict):
        return [{"path": "", "reason": "must be a scenario document (an object)", "piece": None}]
    unstorable = unstorable_paths(scenario)
    if unstorable:
        return [{"path": p, "reason": r, "piece": problem_piece(p)} for p, r in unstorable]
    problems = []
    try:
        parse_scenario({**scenario, "ruleset": campaign.ruleset})
    except ScenarioError as exc:
        problems = [
            {"path": path, "reason": MAP_WORDS.get(reason, reason), "piece": problem_piece(path)}
            for path, reason in exc.problems
        ]
    limit = scenario.get("turn_limit")
    said = any(problem["path"] == "turn_limit" for problem in problems)
    if type(limit) is int and limit > TURN_LIMIT_MAX and not said:
        reason = (
            f"must be at most {TURN_LIMIT_MAX}, the most a campaign battle's set-up takes, "
            f"got {limit}"
        )
        problems.append({"path": "turn_limit", "reason": reason, "piece": None})
    return problems


def saved_map_create(*, campaign: Campaign, name: str, text: str, actor: Any = None) -> SavedMap:
    """Keep a map (scenario JSON text) for the campaign's battles; refuse it naming the field.

    The map is checked as the campaign would fight it (under the campaign's ruleset), with the
    units it deploys as the spots the set-up page offers.
    """
    require_manager(campaign, actor)
    name, scenario = map_checked(campaign, name, text)
    try:
        with transaction.atomic():
            return SavedMap.objects.create(
                campaign=campaign, name=name, scenario=scenario, created_by=actor
            )
    except IntegrityError:
        # The same map saved twice at the same moment (a double click on Save): the first
        # keeps it, and this one finds its name taken, as if sent after it.
        raise ValidationError({"name": [_name_taken(name)]}) from None


@transaction.atomic
def saved_map_edit(*, saved_map: SavedMap, name: str, text: str, actor: Any = None) -> SavedMap:
    """Change a saved map in place (its name, its table), checked as a new one is
    (`saved_map_create`). The battles fought on it keep the table they were fought on (each
    battle holds its whole scenario); the battles set up from now on take the map as it is."""
    saved_map = locked(saved_map, "campaign")
    require_manager(saved_map.campaign, actor)
    saved_map.name, saved_map.scenario = map_checked(
        saved_map.campaign, name, text, other_than=saved_map
    )
    saved_map.save(update_fields=["name", "scenario"])
    return saved_map


MAP_NAME_NEEDED = "give the map a name"
"""Said of a map sent without a name, by the service and by the forms that send one."""


def _name_taken(name: str) -> str:
    return name_taken("the campaign", "a map", name)


def map_checked(
    campaign: Campaign, name: Any, text: Any, *, other_than: SavedMap | None = None
) -> tuple[str, dict[str, Any]]:
    """A map's name and scenario document as they are kept (under the campaign's ruleset),
    or a ``ValidationError`` naming the field: a name no other map of the campaign has, a
    document the engine fights."""
    errors: dict[str, list[str]] = {}
    name = text_given(errors, "name", name, needed=MAP_NAME_NEEDED)
    others = campaign.maps.exclude(pk=other_than.pk) if other_than else campaign.maps.all()
    if name and others.filter(name=name).exists():
        errors["name"] = [_name_taken(name)]
    scenario: Any = None
    try:
        scenario = scenario_from_text(text)
    except BattleInputError as exc:
        errors["scenario"] = [
            reason if path == "scenario" else f"{path}: {reason}" for path, reason in exc.errors
        ]
    else:
        problems = map_problems(campaign=campaign, scenario=scenario)
        if problems:
            errors["scenario"] = [
                f"{p['path']}: {p['reason']}" if p["path"] else p["reason"] for p in problems
            ]
    if errors:
        raise ValidationError(errors)
    scenario["ruleset"] = campaign.ruleset
    return name, scenario


@transaction.atomic
def saved_map_remove(*, saved_map: SavedMap, actor: Any = None) -> str:
    """No longer offer the map at the set-up: the battles fought on it keep their own copy of
    its table (each battle holds its whole scenario). Its name, for the page that says so."""
    require_manager(saved_map.campaign, actor)
    saved_map.delete()
    return saved_map.name
