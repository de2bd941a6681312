"""Checks of an import's saved maps, each named once and checked by the engine."""

from __future__ import annotations

from typing import Any

from battles.engine import ScenarioError, parse_scenario
from campaign.transfer.checker import Checker, named_thing
from campaign.transfer.format import MAP_KEYS


def check_maps(c: Checker, path: str, maps: Any, *, ruleset: str) -> list[dict[str, Any]]:
    """Saved maps, each named once and checked by the engine under the campaign's ruleset."""
    if not isinstance(maps, list):
        c.error(path, "must be a list")
        return []
    found = []
    names: set[str] = set()
    for index, saved in enumerate(maps):
        at = f"{path}[{index}]"
        if not c.mapping(at, saved, MAP_KEYS):
            continue
        name = saved["name"]
        if named_thing(c, f"{at}.name", name, f"Saved map {index + 1}"):
            if name in names:
                c.error(f"{at}.name", "two maps share this name")
            names.add(name)
        scenario = saved["scenario"]
        if not isinstance(scenario, dict):
            c.error(f"{at}.scenario", "must be a scenario document (an object)")
            continue
        try:
            parse_scenario({**scenario, "ruleset": ruleset})
        except ScenarioError as error:
            for where, reason in error.problems:
                c.error(f"{at}.scenario.{where}".rstrip("."), reason)
            continue
        found.append({"name": name, "scenario": scenario})
    return found
