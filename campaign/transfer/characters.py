"""Checks of an import's characters: who plays them, their hit points and feats, the unit each leads
and their record of heals.
"""

from __future__ import annotations

from typing import Any

from campaign.rules.characters import ordered_feats
from campaign.rules.orders import HOURS_PER_DAY
from campaign.rules.values import MAX_CHARACTERS_PER_CAMPAIGN
from campaign.transfer.bounds import past_most
from campaign.transfer.checker import (
    Checker,
    check_names,
    check_text,
    check_whole,
    created_at_problem,
    named_thing,
)
from campaign.transfer.format import CHARACTER_ENTRY_KEYS, CHARACTER_KEYS
from campaign.transfer.members import USERNAME_LONGEST
from units.words import given


def check_characters(
    c: Checker, path: str, data: Any, *, day: int, players: set[str], forces: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The campaign's characters: who plays them, their hit points, feats, the unit each leads
    (a unit with a leader, by force and unit name) and their record of heals."""
    if not isinstance(data, list):
        c.error(path, "must be a list")
        return []
    if past_most(c, path, data, "characters", "a campaign", MAX_CHARACTERS_PER_CAMPAIGN):
        return []
    led = {
        (force["name"], unit["state"].name): unit["state"].leader
        for force in forces
        for unit in force["units"]
        if unit["state"].leader is not None
    }
    names: set[str] = set()
    taken: set[tuple[str, str]] = set()
    found = []
    for index, character in enumerate(data):
        at = f"{path}[{index}]"
        if not c.mapping(at, character, CHARACTER_KEYS):
            continue
        before = len(c.errors)
        name = character["name"]
        if named_thing(c, f"{at}.name", name, f"Character {index + 1}"):
            if name in names:
                c.error(f"{at}.name", "two characters share this name")
            names.add(name)
        player = character["player"]
        if (
            player is not None
            and check_text(c, f"{at}.player", player, USERNAME_LONGEST, empty=False)
            and player not in players
        ):
            c.error(f"{at}.player", f"{given(player)} is not the GM or a player of the campaign")
        full = check_whole(c, f"{at}.max_hit_points", character["max_hit_points"], 1, 999)
        now = check_whole(c, f"{at}.hit_points", character["hit_points"], -999, 999)
        if full is not None and now is not None and now > full:
            c.error(f"{at}.hit_points", f"above its full hit points ({full})")
        if not isinstance(character["alive"], bool):
            c.error(f"{at}.alive", "must be true or false")
        try:
            ordered_feats(character["feats"])
        except (TypeError, ValueError) as error:
            c.error(f"{at}.feats", str(error))
        leads = character["leads"]
        if (
            leads is not None
            and c.mapping(f"{at}.leads", leads, ("force", "unit"))
            and check_names(c, f"{at}.leads", leads, ("force", "unit"))
        ):
            key = (leads["force"], leads["unit"])
            if key not in led:
                c.error(f"{at}.leads", f"no unit {given(leads['unit'])} with a leader in force "
                                       f"{given(leads['force'])}")  # fmt: skip
            elif key in taken:
                c.error(f"{at}.leads", "another character leads this unit")
            elif (led[key].hit_points, led[key].alive) != (now, character["alive"]):
                c.error(f"{at}.leads", "the unit's leader has other hit points: they are one")
            taken.add(key)
        entries = character["entries"]
        if not isinstance(entries, list):
            c.error(f"{at}.entries", "must be a list")
        else:
            for number, entry in enumerate(entries):
                where = f"{at}.entries[{number}]"
                if not c.mapping(where, entry, CHARACTER_ENTRY_KEYS):
                    continue
                check_whole(c, f"{where}.day", entry["day"], 1, day)
                check_whole(c, f"{where}.hour", entry["hour"], 0, HOURS_PER_DAY - 1)
                if not isinstance(entry["text"], str):
                    c.error(f"{where}.text", "must be text")
                for side in ("before", "after"):
                    if not isinstance(entry[side], dict):
                        c.error(f"{where}.{side}", "must be an object")
                problem = created_at_problem(entry["created_at"])
                if problem:
                    c.error(f"{where}.created_at", problem)
        if len(c.errors) == before:
            found.append(character)
    return found
