"""Checks of an import's forces: each unit, its recorded fields, and the history that must explain
them.
"""

from __future__ import annotations

from typing import Any

from campaign.models import HistoryEntry
from campaign.rules.history import FIELD_LABELS
from campaign.rules.orders import clock_hour
from campaign.rules.recovery import state_problems
from campaign.rules.state import LATER_FIELDS, SNAPSHOT_FIELDS, CampaignUnitState, snapshot_replay
from campaign.rules.values import MAX_UNITS_PER_FORCE, leader_value, parse_field
from campaign.transfer.bounds import past_most
from campaign.transfer.checker import Checker, created_at_problem
from campaign.transfer.format import ENTRY_KEYS, LARGEST_DAY, UNIT_KEYS
from units.bucs import Quality, validate_specialties
from units.models import UnitType
from units.words import given, possessive


def check_force(
    c: Checker,
    path: str,
    data: Any,
    *,
    ruleset: str,
    day: int,
    owners: set[str],
    same_calendar: bool = True,
) -> dict[str, Any] | None:
    """A force's data, with its units read into `CampaignUnitState`s and unit types found.

    `same_calendar` is False for a force moving into another campaign: its history's days are
    its old campaign's, so only a unit still awaiting the medics is held to the new calendar.
    """
    if not c.mapping(path, data, ("name", "owner", "units")):
        return None
    name_ok = True
    try:
        parse_field("name", data["name"])
    except ValueError as error:
        c.error(f"{path}.name", str(error))
        name_ok = False
    if not isinstance(data["owner"], str) or data["owner"] not in owners:
        c.error(
            f"{path}.owner", f"{given(data['owner'])} is not the GM or a player of the campaign"
        )
    if not isinstance(data["units"], list):
        c.error(f"{path}.units", "must be a list")
        return None
    if past_most(c, f"{path}.units", data["units"], "units", "a force", MAX_UNITS_PER_FORCE):
        return None
    units = []
    names: set[str] = set()
    for index, unit in enumerate(data["units"]):
        checked = check_unit(
            c, f"{path}.units[{index}]", unit, ruleset=ruleset, day=day, same_calendar=same_calendar
        )
        if checked is not None:
            if checked["state"].name in names:
                c.error(f"{path}.units[{index}].name", "two units of the force share this name")
            names.add(checked["state"].name)
            units.append(checked)
    if not name_ok:
        return None  # its errors are recorded; a bad name cannot be compared with others
    return {"name": data["name"], "owner": data["owner"], "units": units}


def check_unit(
    c: Checker, path: str, data: Any, *, ruleset: str, day: int, same_calendar: bool = True
) -> dict | None:
    # An export from before a field was recorded (`LATER_FIELDS`) has none of it.
    if not c.mapping(path, data, UNIT_KEYS, optional=("history", *LATER_FIELDS)):
        return None
    before = len(c.errors)
    unit_type = UnitType.objects.filter(
        kind=UnitType.Kind.UNIT, ruleset=ruleset, name=data["unit_type"]
    ).first()
    if unit_type is None:
        c.error(f"{path}.unit_type", f"no unit card {given(data['unit_type'])} in the library")
    values: dict[str, Any] = {}
    named = data["name"].strip() if isinstance(data["name"], str) else ""
    for field in SNAPSHOT_FIELDS:
        value = data[field] if field in data else LATER_FIELDS[field]
        values[field] = check_value(c, f"{path}.{field}", field, value, whose=named)
    if isinstance(values["specialties"], tuple):
        # The quality limit is not checked: a unit keeps its specialties when quality falls
        # (`bucs.kept_beyond_limit`), so only the most any quality may hold bounds them.
        for problem in validate_specialties(Quality.LEGENDARY, values["specialties"]):
            c.error(f"{path}.specialties", problem)
    # The medical window is measured on the campaign's calendar: it must not lie in the future.
    held = same_calendar or bool(values["casualty_hits"])
    if held and isinstance(values["last_battle_day"], int) and values["last_battle_day"] > day:
        c.error(f"{path}.last_battle_day", f"after the campaign's day {day}")
    window_from = values["window_from"]
    if held and isinstance(window_from, int) and window_from >= clock_hour(day + 1, 0):
        c.error(f"{path}.window_from", f"after the campaign's day {day}")
    if held and isinstance(values["window_fights"], tuple):
        for index, fight in enumerate(values["window_fights"]):
            if fight.at is not None and fight.at >= clock_hour(day + 1, 0):
                c.error(f"{path}.window_fights[{index}].at", f"after the campaign's day {day}")
    history = data.get("history", [])
    entries = check_history(c, f"{path}.history", history, day=day if same_calendar else None)
    if len(c.errors) > before:
        return None
    state = CampaignUnitState(**values)
    # What the rules never leave a unit with; its medical window is measured from the start of
    # the campaign's day, the earliest its clock may stand.
    impossible = state_problems(state, clock_hour(day, 0))
    for field, problem in impossible.items():
        c.error(f"{path}.{field}", problem)
    if impossible:
        return None
    if entries:
        replayed = snapshot_replay(entry["after"] for entry in entries)
        for field in SNAPSHOT_FIELDS:
            if replayed.get(field) != state.to_json()[field]:
                c.error(
                    f"{path}.history",
                    f"does not explain {field}: it arrives at {given(replayed.get(field))}, "
                    f"the unit has {given(state.to_json()[field])}",
                )
                return None
    return {"unit_type": unit_type, "state": state, "history": entries}


def check_value(c: Checker, path: str, field: str, value: Any, *, whose: str = "") -> Any:
    """A unit's recorded field read (`parse_field`), or None with the problem said at ``path``:
    of ``whose`` field, by the unit's name and the field's words where the unit has a name
    ("1st Squad's experience must be a whole number from 0 to 1,000,000, not −5")."""
    try:
        if field == "leader":
            return None if value is None else leader_value(value)
        return parse_field(field, value)
    except ValueError as error:
        said = str(error)
        if whose:
            label = FIELD_LABELS.get(field, field.replace("_", " "))
            said = (
                f"{possessive(str(whose))} {label}{' ' if said.startswith('must ') else ': '}{said}"
            )
        c.error(path, said)
        return None


ENTRY_KINDS = frozenset(HistoryEntry.Kind.values)
"""The kinds a history entry may be (read once: each entry of a long history is checked)."""


def check_history(c: Checker, path: str, history: Any, *, day: int | None) -> list[dict[str, Any]]:
    """History entries, checked; `day` is the latest day they may carry (None: any)."""
    if not isinstance(history, list):
        c.error(path, "must be a list")
        return []
    entries = []
    for index, entry in enumerate(history):
        at = f"{path}[{index}]"
        if not c.mapping(at, entry, ENTRY_KEYS, optional=("details", "reverts", "created_at")):
            continue
        if not isinstance(entry["kind"], str) or entry["kind"] not in ENTRY_KINDS:
            c.error(f"{at}.kind", f"unknown kind {given(entry['kind'])}")
        if index == 0 and entry["kind"] != HistoryEntry.Kind.CREATED:
            c.error(f"{at}.kind", "a unit's history starts with its created entry")
        day_ok = isinstance(entry["day"], int) and not isinstance(entry["day"], bool)
        latest = LARGEST_DAY if day is None else day
        if not day_ok or not 1 <= entry["day"] <= latest:
            c.error(f"{at}.day", f"must be a campaign day, 1..{latest}")
        if not isinstance(entry["text"], str):
            c.error(f"{at}.text", "must be text")
        for side in ("before", "after"):
            if not isinstance(entry[side], dict):
                c.error(f"{at}.{side}", "must be an object")
                continue
            for field, value in entry[side].items():
                if field not in SNAPSHOT_FIELDS:
                    c.error(f"{at}.{side}.{field}", "not a recorded field")
                else:
                    check_value(c, f"{at}.{side}.{field}", field, value)
        if not isinstance(entry.get("details", {}), dict):
            c.error(f"{at}.details", "must be an object")
        reverts = entry.get("reverts")
        if reverts is not None and (not isinstance(reverts, int) or not 0 <= reverts < index):
            c.error(f"{at}.reverts", "must be the index of an earlier entry")
        created_at = entry.get("created_at")
        if created_at is not None:
            problem = created_at_problem(created_at)
            if problem:
                c.error(f"{at}.created_at", problem)
        entries.append(entry)
    return entries
