"""The sample card library: every ``.card`` file read and built into the engine's cards.

``units/library/`` holds one folder of cards per ruleset, in the rule text's WRITING A CARD
format, plus ``terrain.json`` (the terrain piece types, e.g. the rubble a building becomes).
``load_library`` reads them with the card-text parser and passes every card through the engine's
own scenario loader, so a library card is exactly what a battle would fight with. The balance
table, the benchmark and scenario writers all start here. Plain Python: no Django.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from units.cardfile import split_specialty_line
from units.cardtext import is_building, parse_card

from .engine.cards import BuildingCard, UnitCard
from .engine.loader import parse_scenario
from .engine.rulesets import RULESETS, Ruleset
from .engine.scenario import Scenario

LIBRARY_DIR = Path(__file__).resolve().parent.parent / "units" / "library"
"""The sample library: one folder of ``.card`` files per ruleset, plus ``terrain.json``."""


@dataclass(frozen=True, slots=True)
class Library:
    """The sample cards, read by the card-text parser and built into engine cards."""

    cards: dict[str, dict[str, dict[str, Any]]]
    """Card dicts as the parser gives them, by ruleset folder, then by file stem."""
    units: dict[str, dict[str, UnitCard]]
    """Engine unit cards by ruleset name, then by file stem."""
    buildings: dict[str, BuildingCard]
    """Engine building cards by file stem (buildings belong to no ruleset)."""
    terrain: dict[str, dict[str, Any]]
    """Terrain piece types from ``terrain.json`` by name (``woods``, ``rubble field``...)."""

    def unit(self, ruleset: str, key: str) -> UnitCard:
        """The unit card ``key`` (file stem) of a ruleset's folder."""
        return self.units[ruleset][key]


def load_library(root: Path = LIBRARY_DIR) -> Library:
    """Parse every card under ``root`` and build the engine's cards through its scenario loader."""
    terrain = json.loads((root / "terrain.json").read_text(encoding="utf-8"))
    cards: dict[str, dict[str, dict[str, Any]]] = {}
    units: dict[str, dict[str, UnitCard]] = {}
    buildings: dict[str, BuildingCard] = {}
    for name, ruleset in RULESETS.items():
        folder = root / name
        cards[name] = {
            p.stem: parse_card(split_specialty_line(p.read_text(encoding="utf-8"))[0])
            for p in _card_files(folder)
        }
        unit_dicts = {k: d for k, d in cards[name].items() if not is_building(d)}
        building_dicts = {k: d for k, d in cards[name].items() if is_building(d)}
        scenario = _library_scenario(ruleset, unit_dicts, building_dicts, terrain)
        units[name] = {u.id: u.card for u in scenario.units()}
        buildings.update({b.id: b.card for b in scenario.buildings})
    return Library(cards, units, buildings, terrain)


def _card_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.card")) if folder.is_dir() else []


def rubble_props(terrain: dict[str, dict[str, Any]], name: str) -> dict[str, Any]:
    """The terrain a building's "Becomes:" line names, as the scenario loader reads terrain."""
    if name not in terrain:
        raise ValueError(f"a building becomes {name!r}, which terrain.json does not describe")
    return {k: v for k, v in terrain[name].items() if k != "why"}


def _library_scenario(
    ruleset: Ruleset,
    units: dict[str, dict[str, Any]],
    buildings: dict[str, dict[str, Any]],
    terrain: dict[str, dict[str, Any]],
) -> Scenario:
    """Every card of a folder deployed on one table, so the engine's own loader checks them all."""
    placed = [
        {"id": key, "card": card, "position": [1.0 + 2.0 * (i % 11), 1.0 + 2.0 * (i // 11)]}
        for i, (key, card) in enumerate(units.items())
    ]
    houses = []
    for i, (key, card) in enumerate(buildings.items()):
        x = 1.0 + 3.0 * i
        engine_card = {**card, "rubble": rubble_props(terrain, card["rubble"])}
        polygon = [[x, 20.0], [x + 2.0, 20.0], [x + 2.0, 22.0], [x, 22.0]]
        houses.append({"id": key, "card": engine_card, "polygon": polygon})
    return parse_scenario(
        {
            "name": f"sample library ({ruleset.name})",
            "ruleset": ruleset.name,
            "turn_limit": 1,
            "sides": [{"id": "a", "units": placed[0::2]}, {"id": "b", "units": placed[1::2]}],
            "buildings": houses,
            "objectives": [{"id": "centre", "sides": ["a"], "point": [12, 12], "points_at_end": 1}],
        }
    )
