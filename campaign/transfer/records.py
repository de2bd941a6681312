"""Checks of the table's records in an import, engagements and table rolls, which name units and
history entries by the export's own keys (`KeyCheck`), and of each history entry's link to one.
"""

from __future__ import annotations

from typing import Any

from campaign.models import Engagement, TableRoll
from campaign.rules.engagement import ROUND_LIMIT_MAX, SIDES, TERRAINS
from campaign.rules.orders import HOURS_PER_DAY
from campaign.rules.state import SNAPSHOT_FIELDS
from campaign.rules.values import NAME_LENGTH
from campaign.transfer.checker import (
    Checker,
    check_names,
    check_text,
    check_whole,
    created_at_problem,
)
from campaign.transfer.export import is_pk, refs_translate
from campaign.transfer.forces import check_value
from campaign.transfer.format import ENGAGEMENT_KEYS, LARGEST_SEED, RECORD_DETAILS, TABLE_ROLL_KEYS
from units.models import UnitType
from units.words import given


class KeyCheck:
    """The export's own keys an import may meet (`Keys`), checked against the forces read:
    every unit ``forces[i].units[j]`` and every entry of its history."""

    def __init__(self, forces: list[dict[str, Any]]) -> None:
        self.units: set[str] = set()
        self.entries: set[str] = set()
        for i, force in enumerate(forces):
            for j, unit in enumerate(force["units"]):
                key = f"forces[{i}].units[{j}]"
                self.units.add(key)
                self.entries |= {f"{key}.history[{k}]" for k in range(len(unit["history"]))}

    def unit(self, c: Checker, path: str, *, null: bool = True) -> Any:
        """A check of a unit's key at ``path``; ``null``: where no unit (None) is allowed, as a
        log's ``commanded_by``, but not a side's list."""

        def known(key: Any) -> Any:
            # A key is text: anything else (a list, say) is no key, and no set holds it.
            if (key is not None or not null) and (
                not isinstance(key, str) or key not in self.units
            ):
                c.error(path, f"{given(key)} is not a unit of the export (forces[i].units[j])")
            return key

        return known

    def entry(self, c: Checker, path: str, key: Any) -> None:
        if not isinstance(key, str) or key not in self.entries:
            c.error(path, f"{given(key)} is not a history entry of the export")


def _clock(c: Checker, path: str, record: dict[str, Any], day: int) -> None:
    check_whole(c, f"{path}.day", record["day"], 1, day)
    check_whole(c, f"{path}.hour", record["hour"], 0, HOURS_PER_DAY - 1)
    check_whole(c, f"{path}.seed", record["seed"], 0, LARGEST_SEED)
    problem = created_at_problem(record["created_at"])
    if problem:
        c.error(f"{path}.created_at", problem)


def check_engagements(
    c: Checker, path: str, data: Any, *, day: int, keys: KeyCheck
) -> list[dict[str, Any]]:
    """Engagements: their set-up, log and applied entries naming units and entries by the
    export's keys, their state, and what the fight came to."""

    def one(at: str, record: dict[str, Any]) -> None:
        check_text(c, f"{at}.name", record["name"], 200, empty=False)
        _clock(c, at, record, day)
        limit = check_whole(c, f"{at}.round_limit", record["round_limit"], 1, ROUND_LIMIT_MAX)
        rounds = check_whole(c, f"{at}.rounds", record["rounds"], 0, ROUND_LIMIT_MAX)
        if limit is not None and rounds is not None and rounds > limit:
            c.error(f"{at}.rounds", f"more than its round limit ({limit})")
        if record["winner"] not in ("", *SIDES):
            c.error(f"{at}.winner", f"must be one of {', '.join(SIDES)} or empty")
        if record["state"] not in Engagement.State.values:
            c.error(f"{at}.state", f"must be one of {', '.join(Engagement.State.values)}")
        setup = record["setup"]
        if c.mapping(f"{at}.setup", setup, ("sides", "situations", "terrain", "surprise")):
            sides = setup["sides"]
            if c.mapping(f"{at}.setup.sides", sides, SIDES):
                for side in SIDES:
                    where = f"{at}.setup.sides.{side}"
                    if not isinstance(sides[side], list) or not sides[side]:
                        c.error(where, "must be a list of units")
                        continue
                    for number, key in enumerate(sides[side]):
                        keys.unit(c, f"{where}[{number}]", null=False)(key)
            if isinstance(setup["situations"], dict):
                for key, flags in setup["situations"].items():
                    keys.unit(c, f"{at}.setup.situations")(key)
                    if not isinstance(flags, dict):
                        c.error(f"{at}.setup.situations", "each unit's situation is an object")
            else:
                c.error(f"{at}.setup.situations", "must be an object")
            if setup["terrain"] not in TERRAINS:
                c.error(f"{at}.setup.terrain", f"must be one of {', '.join(TERRAINS)}")
            if setup["surprise"] not in (None, *SIDES):
                c.error(f"{at}.setup.surprise", f"must be {' or '.join(SIDES)}, or null")
        if isinstance(record["events"], list):
            refs_translate(record["events"], keys.unit(c, f"{at}.events"))
        else:
            c.error(f"{at}.events", "must be a list")
        applied = record["applied_entries"]
        if not isinstance(applied, list):
            c.error(f"{at}.applied_entries", "must be a list")
        else:
            for number, key in enumerate(applied):
                keys.entry(c, f"{at}.applied_entries[{number}]", key)

    return c.records(path, data, ENGAGEMENT_KEYS, one)


def check_table_rolls(
    c: Checker,
    path: str,
    data: Any,
    *,
    day: int,
    keys: KeyCheck,
    forces: set[str],
    characters: set[str],
    ruleset: str,
) -> list[dict[str, Any]]:
    """Skill checks, contests and Requisition checks: units by the export's keys, a
    Requisition's force, card and character by name."""
    shapes = {
        TableRoll.Kind.SKILL_CHECK: ("units", "skill", "dc"),
        TableRoll.Kind.CONTEST: ("active", "resisting", "active_skill", "resisting_skill"),
        TableRoll.Kind.REQUISITION: ("force", "unit_type", "unit", "character", "bonus"),
    }
    cards = set(
        UnitType.objects.filter(kind=UnitType.Kind.UNIT, ruleset=ruleset).values_list(
            "name", flat=True
        )
    )

    def one(at: str, roll: dict[str, Any]) -> None:
        _clock(c, at, roll, day)
        check_text(c, f"{at}.summary", roll["summary"], 400)
        if not isinstance(roll["kind"], str) or roll["kind"] not in shapes:
            c.error(f"{at}.kind", f"must be one of {', '.join(TableRoll.Kind.values)}")
            return
        setup, result = roll["setup"], roll["result"]
        if not c.mapping(f"{at}.setup", setup, shapes[roll["kind"]]):
            return
        if not isinstance(result, dict):
            c.error(f"{at}.result", "must be an object")
            return
        if roll["kind"] == TableRoll.Kind.REQUISITION:
            if check_names(c, f"{at}.setup", setup, ("force",)) and setup["force"] not in forces:
                c.error(f"{at}.setup.force", f"no force {given(setup['force'])} in the export")
            if not isinstance(setup["unit_type"], str) or setup["unit_type"] not in cards:
                c.error(f"{at}.setup.unit_type", f"no unit card {given(setup['unit_type'])} in the "
                                                 "library")  # fmt: skip
            if (
                setup["character"] is not None
                and check_names(c, f"{at}.setup", setup, ("character",))
                and setup["character"] not in characters
            ):
                c.error(f"{at}.setup.character", f"no character {given(setup['character'])} in the "
                                                 "export")  # fmt: skip
            # The unit asked for, as its state was written (`CampaignUnitState.to_json`).
            if not isinstance(setup["unit"], dict):
                c.error(f"{at}.setup.unit", "must be the unit asked for, an object")
            else:
                for field, value in setup["unit"].items():
                    if field in SNAPSHOT_FIELDS:
                        check_value(c, f"{at}.setup.unit.{field}", field, value)
            if "unit" in result:
                keys.unit(c, f"{at}.result.unit", null=False)(result["unit"])
        else:
            for key in ("skill", "active_skill", "resisting_skill"):
                if key in setup:
                    check_text(c, f"{at}.setup.{key}", setup[key], NAME_LENGTH)  # "": none
            for side in ("units", "active", "resisting"):
                if side not in setup:
                    continue
                if not isinstance(setup[side], list) or not setup[side]:
                    c.error(f"{at}.setup.{side}", "must be a list of units")
                    continue
                for number, key in enumerate(setup[side]):
                    keys.unit(c, f"{at}.setup.{side}[{number}]", null=False)(key)
            refs_translate(result, keys.unit(c, f"{at}.result"))

    return c.records(path, data, TABLE_ROLL_KEYS, one)


def check_record_links(
    c: Checker, forces: list[dict[str, Any]], counts: dict[str, int] | None
) -> None:
    """Each history entry's link to an engagement or table roll is an index into the export's
    list of them; ``counts`` None: the export carries no such lists (links dropped)."""
    for i, force in enumerate(forces):
        for j, unit in enumerate(force["units"]):
            for k, entry in enumerate(unit["history"]):
                details = entry.get("details", {})
                for key, listed in RECORD_DETAILS.items():
                    value = details.get(key)
                    if value is None or counts is None:
                        continue
                    if not is_pk(value) or not 0 <= value < counts[listed]:
                        c.error(f"forces[{i}].units[{j}].history[{k}].details.{key}",
                                f"must be the index of one of the export's {listed}")  # fmt: skip
