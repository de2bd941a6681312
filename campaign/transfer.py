"""Export a force or a whole campaign as JSON, and check such JSON before an import.

The format (docs/campaign.md, "Export and import") names users by username and unit types by
their library name, so it travels between sites; a unit carries its history, and an import
checks that the history explains the unit. `check_*` collect every error, each named by its
path ("forces[0].units[2].quality"); the writes are `campaign.services.campaign_import` and
`force_import`.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db.models import Prefetch, QuerySet

from battles.engine import (
    ScenarioError,
    parse_scenario,
)
from battles.models import Battle
from battles.selectors import battle_log
from campaign.models import (
    CAMPAIGN_SETTINGS,
    STORY_TEXT,
    Campaign,
    CampaignBattle,
    Engagement,
    Force,
    HistoryEntry,
    Invitation,
    Leader,
    Membership,
    StoryEntry,
    TableRoll,
    Unit,
)
from campaign.pages import card_text
from campaign.rules.characters import ordered_feats
from campaign.rules.engagement import ROUND_LIMIT_MAX, SIDES, TERRAINS
from campaign.rules.history import FIELD_LABELS, possessive
from campaign.rules.orders import HOURS_PER_DAY, OrderKind, clock_hour, clock_text
from campaign.rules.recovery import state_problems
from campaign.rules.state import (
    LATER_FIELDS,
    SNAPSHOT_FIELDS,
    CampaignUnitState,
    Status,
    snapshot_replay,
)
from campaign.rules.values import (
    MAX_CHARACTERS_PER_CAMPAIGN,
    MAX_MEMBERS_PER_CAMPAIGN,
    MAX_PENDING_INVITATIONS,
    MAX_UNITS_PER_FORCE,
    NAME_LENGTH,
    leader_value,
    parse_field,
    value_shown,
    whole_number,
)
from campaign.selectors.access import invitations_holding, invitee_key
from units.bucs import Quality, validate_specialties
from units.models import Ruleset, UnitType
from units.words import given

CAMPAIGN_FORMAT = "bridgehead.campaign"
FORCE_FORMAT = "bridgehead.force"
VERSION = 1
SETTINGS = CAMPAIGN_SETTINGS
NEWER_SETTINGS = ("fog_of_war",)
"""Settings an export written before they existed leaves out: the import gives their default."""
MAP_KEYS = ("name", "scenario")
LARGEST_DAY = 2**31 - 1
"""The largest number the database's day columns hold."""
UNIT_KEYS = ("unit_type", *SNAPSHOT_FIELDS, "history")
ENTRY_KEYS = ("day", "kind", "text", "before", "after", "details", "reverts", "created_at")
CHARACTER_KEYS = ("name", "player", "hit_points", "max_hit_points", "alive", "feats", "leads",
                  "entries")  # fmt: skip
CHARACTER_ENTRY_KEYS = ("day", "hour", "text", "before", "after", "created_at")
ORDER_VALUES = ("kind", "listed_hours", "hours", "given_at", "finishes_at", "replaced",
                "called_off_at", "ended_at", "ended_as", "note")  # fmt: skip
NEWER_ORDER_VALUES = ("called_off_at", "ended_at", "ended_as")
"""Order fields an export written before they existed leaves out: the import reads None."""
ORDER_KEYS = ("giver", "force", "unit", *ORDER_VALUES)
INVITATION_KEYS = ("invitee", "role", "forces", "characters")
"""An invitation waiting in an export: to whom (as the GM typed it), in which role, and what
accepting it hands over, by name. Its link's secret (``link_key``) is not among them."""
ENGAGEMENT_VALUES = ("name", "day", "hour", "seed", "round_limit", "rounds", "winner", "state")
ENGAGEMENT_KEYS = (*ENGAGEMENT_VALUES, "setup", "events", "applied_entries", "created_at")
TABLE_ROLL_VALUES = ("kind", "day", "hour", "seed", "summary")
TABLE_ROLL_KEYS = (*TABLE_ROLL_VALUES, "setup", "result", "created_at")
CHARACTER_DETAILS = ("character", "rallied_by", "replaced")
"""A history entry's working that names a character (by pk in the database, by name in an
export)."""
RECORD_DETAILS = {"engagement": "engagements", "table_roll": "table_rolls"}
"""A history entry's working that points at a record of the table: in an export, the index of
that record in the export's own list (a force export carries none: the link stays behind)."""
UNIT_REFERENCES = ("unit", "commanded_by", "driven_back")
"""Where an engagement's log or a check's result names a unit by its key; ``helpers`` holds a
list of keys and ``pinned`` is keyed by them."""
LARGEST_SEED = 2**63 - 1
"""The largest seed the database's seed columns hold."""
BATTLE_VALUES = ("name", "day", "hour", "state", "applications")
BATTLE_KEYS = (*BATTLE_VALUES, "sides", "engine_units", "orders", "table_result",
               "applied_entries", "entries", "applied_at", "created_at", "engine")  # fmt: skip
ENGINE_VALUES = ("ruleset", "scenario", "seed", "engine_version", "status", "turn_limit", "result",
                 "error")  # fmt: skip
ENGINE_TIMES = ("created_at", "started_at", "finished_at")
ENGINE_KEYS = (*ENGINE_VALUES, *ENGINE_TIMES, "log", "log_sha256")

# ---------------------------------------------------------------------------------------------
# Export
# ---------------------------------------------------------------------------------------------


def _is_pk(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _details_export(
    details: dict[str, Any], names: dict[int, str], records: dict[str, dict[int, int]] | None
) -> dict[str, Any]:
    """An entry's working, its character named rather than numbered and its engagement or table
    roll by its index in the export (ids do not travel); ``records`` None: a force's export,
    which leaves those links behind."""
    found = dict(details)
    # The forces a move left and joined, by id, which do not travel: a copy's move is undone by
    # moving the unit back (`reviews.undo_refused`).
    found.pop("moved", None)
    # The crews who did the medics' work, by unit id: the copy's entry counts its work by the
    # force of the unit treated, as one written before entries named them (`medics_worked`).
    found.pop("crews", None)
    for key in CHARACTER_DETAILS:
        if _is_pk(found.get(key)) and found[key] in names:
            found[key] = names[found[key]]
    for key, listed in RECORD_DETAILS.items():
        if _is_pk(found.get(key)):
            found[key] = None if records is None else records[listed].get(found[key])
    return found


def _entry_export(
    entry: HistoryEntry,
    index_of: dict[int, int],
    names: dict[int, str],
    records: dict[str, dict[int, int]] | None = None,
) -> dict[str, Any]:
    return {
        "day": entry.day,
        "kind": entry.kind,
        "text": entry.text,
        "before": entry.before,
        "after": entry.after,
        "details": _details_export(entry.details, names, records),
        "reverts": index_of.get(entry.reverts_id) if entry.reverts_id else None,
        "created_at": entry.created_at.isoformat(),
    }


def unit_export(
    unit: Unit,
    names: dict[int, str] | None = None,
    records: dict[str, dict[int, int]] | None = None,
) -> dict[str, Any]:
    entries = _history(unit)
    index_of = {entry.pk: index for index, entry in enumerate(entries)}
    names = _character_names(unit.force.campaign) if names is None else names
    return {
        "unit_type": unit.unit_type.name,
        **unit.state.to_json(),
        "history": [_entry_export(entry, index_of, names, records) for entry in entries],
    }


def _character_names(campaign: Campaign) -> dict[int, str]:
    return dict(campaign.characters.values_list("pk", "name"))


def _units_read() -> QuerySet[Unit]:
    # Each unit's history is read with the roster: exporting costs the same few queries
    # whether a force holds 5 units or 50.
    return (
        Unit.objects.select_related("unit_type", "leader", "force__campaign")
        .prefetch_related(Prefetch("history", queryset=HistoryEntry.objects.order_by("id")))
        .order_by("id")
    )


def _force_units(force: Force) -> list[Unit]:
    """The force's units in the order they were made, read with the campaign's forces if
    `_campaign_forces` read them."""
    if (read := getattr(force, "exported_units", None)) is not None:
        return read
    return list(_units_read().filter(force=force))


def _campaign_forces(campaign: Campaign) -> list[Force]:
    """The campaign's forces by name, each with its owner and its units (`_force_units`): the
    same few queries whether the campaign has 2 forces or 30."""
    return list(
        campaign.forces.select_related("owner")
        .prefetch_related(Prefetch("units", queryset=_units_read(), to_attr="exported_units"))
        .order_by("name")
    )


def _history(unit: Unit) -> list[HistoryEntry]:
    """The unit's history in the order it was made, read with its roster if `_force_units`
    read it."""
    return sorted(unit.history.all(), key=lambda entry: entry.pk)


def _force_data(
    force: Force,
    records: dict[str, dict[int, int]] | None = None,
    names: dict[int, str] | None = None,
) -> dict[str, Any]:
    names = _character_names(force.campaign) if names is None else names
    return {
        "name": force.name,
        "owner": force.owner.get_username(),
        "units": [unit_export(unit, names, records) for unit in _force_units(force)],
    }


def _characters_export(campaign: Campaign) -> list[dict[str, Any]]:
    leading = {
        leader.character_id: {"force": leader.unit.force.name, "unit": leader.unit.name}
        for leader in Leader.objects.filter(unit__force__campaign=campaign, character__isnull=False)
        .select_related("unit__force")
    }  # fmt: skip
    found = campaign.characters.select_related("player").prefetch_related("entries")
    return [
        {
            "name": character.name,
            "player": character.player.get_username() if character.player else None,
            "hit_points": character.hit_points,
            "max_hit_points": character.max_hit_points,
            "alive": character.alive,
            "feats": list(character.feats),
            "leads": leading.get(character.pk),
            "entries": [
                {
                    "day": entry.day,
                    "hour": entry.hour,
                    "text": entry.text,
                    "before": entry.before,
                    "after": entry.after,
                    "created_at": entry.created_at.isoformat(),
                }
                for entry in sorted(character.entries.all(), key=lambda e: e.pk)
            ],
        }
        for character in found.order_by("name")
    ]


def _orders_export(campaign: Campaign) -> list[dict[str, Any]]:
    orders = campaign.orders.select_related("giver", "unit__force").order_by("id")
    return [
        {
            "giver": order.giver.name,
            "force": order.unit.force.name,
            "unit": order.unit.name,
            **{key: getattr(order, key) for key in ORDER_VALUES},
        }
        for order in orders
    ]


def _invitations_export(campaign: Campaign) -> list[dict[str, Any]]:
    """The invitations waiting for an answer, each with what accepting it hands over
    (`invitations_holding`). Its link stays behind: a file is no key to the campaign, and the
    import gives each invitation a link of its own."""
    return [
        {
            "invitee": invitation.invitee,
            "role": invitation.role,
            "forces": sorted(force.name for force in invitation.held),
            "characters": sorted(character.name for character in invitation.unplayed),
        }
        for invitation in invitations_holding(campaign)
    ]


def force_export(*, force: Force) -> dict[str, Any]:
    """One force, its units and their history."""
    return {
        "format": FORCE_FORMAT,
        "version": VERSION,
        "ruleset": force.campaign.ruleset,
        "force": _force_data(force),
    }


class Keys:
    """The export's own keys for what the table's records name by database id: a unit is
    ``forces[i].units[j]`` and a history entry ``forces[i].units[j].history[k]``, their places
    in the export (forces by name, units and entries in the order they were made)."""

    def __init__(self, forces: list[Force]) -> None:
        self.units: dict[int, str] = {}
        self.entries: dict[int, str] = {}
        for i, force in enumerate(forces):
            for j, unit in enumerate(_force_units(force)):
                key = f"forces[{i}].units[{j}]"
                self.units[unit.pk] = key
                for k, entry in enumerate(_history(unit)):
                    self.entries[entry.pk] = f"{key}.history[{k}]"

    def unit(self, pk: Any) -> Any:
        """The key of a unit named by pk (an int, or its text in a log); None stays None."""
        return None if pk is None else self.units[int(pk)]


def refs_translate(data: Any, unit: Any) -> Any:
    """A log or result with every unit key it holds (`UNIT_REFERENCES`, ``helpers``, the keys of
    ``pinned``) passed through ``unit``; everything else as it is."""
    if isinstance(data, list):
        return [refs_translate(item, unit) for item in data]
    if not isinstance(data, dict):
        return data
    found: dict[str, Any] = {}
    for key, value in data.items():
        if key in UNIT_REFERENCES and (value is None or isinstance(value, str)):
            found[key] = unit(value)
        elif key == "helpers" and isinstance(value, list):
            found[key] = [unit(item) for item in value]
        elif key == "pinned" and isinstance(value, dict):
            found[key] = {unit(name): causes for name, causes in value.items()}
        else:
            found[key] = refs_translate(value, unit)
    return found


def _engagement_export(record: Engagement, keys: Keys) -> dict[str, Any]:
    setup = record.setup
    return {
        **{key: getattr(record, key) for key in ENGAGEMENT_VALUES},
        "setup": {
            **setup,
            "sides": {side: [keys.unit(pk) for pk in pks] for side, pks in setup["sides"].items()},
            "situations": {keys.unit(pk): flags for pk, flags in setup["situations"].items()},
        },
        "events": refs_translate(record.events, keys.unit),
        "applied_entries": [keys.entries[pk] for pk in record.applied_entries],
        "created_at": record.created_at.isoformat(),
    }


def _table_roll_export(roll: TableRoll, keys: Keys, names: dict[int, str]) -> dict[str, Any]:
    setup, result = dict(roll.setup), dict(roll.result)
    if roll.kind == TableRoll.Kind.REQUISITION:
        force = Force.objects.filter(pk=setup["force"]).values_list("name", flat=True).first()
        card = UnitType.objects.filter(pk=setup["unit_type"]).values_list("name", flat=True)
        setup["force"], setup["unit_type"] = force, card.first()
        setup["character"] = None if setup["character"] is None else names[setup["character"]]
        if "unit" in result:
            result["unit"] = keys.unit(result["unit"])
    else:
        for side in ("units", "active", "resisting"):
            if side in setup:
                setup[side] = [keys.unit(pk) for pk in setup[side]]
        result = refs_translate(result, keys.unit)
    return {
        **{key: getattr(roll, key) for key in TABLE_ROLL_VALUES},
        "setup": setup,
        "result": result,
        "created_at": roll.created_at.isoformat(),
    }


def _moment(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def _battle_entries(campaign: Campaign, keys: Keys) -> dict[int, list[str]]:
    """By engine battle id, the keys of the history entries that name the battle (its outcome's
    entries, from every time it was applied, and their reverts), in the export's order."""
    named = HistoryEntry.objects.filter(unit__force__campaign=campaign, battle__isnull=False)
    battle_of = dict(named.values_list("pk", "battle_id"))
    found: dict[int, list[str]] = {}
    for pk, key in keys.entries.items():
        if pk in battle_of:
            found.setdefault(battle_of[pk], []).append(key)
    return found


def _engine_export(battle: Battle) -> dict[str, Any]:
    log = battle_log(battle)
    return {
        **{key: getattr(battle, key) for key in ENGINE_VALUES},
        **{key: _moment(getattr(battle, key)) for key in ENGINE_TIMES},
        # The stored text, not its data: byte for byte what the engine wrote, as its sha256 says.
        "log": None if log is None else log.events,
        "log_sha256": None if log is None else log.sha256,
    }


def _battle_export(
    record: CampaignBattle, keys: Keys, entries: dict[int, list[str]]
) -> dict[str, Any]:
    """A campaign battle, its units by the export's keys. Its scenario and log keep the engine's
    unit ids as fought ("squad-1-12"): the log's digest and its replay rest on them, and
    ``engine_units`` says which unit of the export each one is."""
    table = record.table_result
    if table is not None:
        table = {**table, "units": {keys.unit(pk): won for pk, won in table["units"].items()}}
    return {
        **{key: getattr(record, key) for key in BATTLE_VALUES},
        "sides": {side: [keys.unit(pk) for pk in pks] for side, pks in record.sides.items()},
        "engine_units": {eid: keys.unit(pk) for eid, pk in record.engine_units.items()},
        "orders": {keys.unit(pk): going for pk, going in record.orders.items()},
        "table_result": table,
        "applied_entries": [keys.entries[pk] for pk in record.applied_entries],
        # A table battle's entries name no battle: its record lists them, every application's.
        "entries": (
            [keys.entries[pk] for pk in record.table_entries]
            if record.battle_id is None
            else entries.get(record.battle_id, [])
        ),
        "applied_at": _moment(record.applied_at),
        "created_at": record.created_at.isoformat(),
        "engine": None if record.battle is None else _engine_export(record.battle),
    }


def campaign_export(*, campaign: Campaign) -> dict[str, Any]:
    """The whole campaign: settings, members and the invitations waiting, forces, units and
    their history, saved maps, the d20 side (characters, Orders), the table's records
    (engagements, checks, Requisition) and the battles (a battle still being fought too: the
    import refuses it by name)."""
    members = campaign.memberships.select_related("user").order_by("user__username")
    forces = _campaign_forces(campaign)
    keys = Keys(forces)
    names = _character_names(campaign)
    engagements = list(campaign.engagements.order_by("id"))
    rolls = list(campaign.table_rolls.order_by("id"))
    battles = campaign.battles.select_related("battle__log").order_by("id")
    entries = _battle_entries(campaign, keys)
    records = {
        "engagements": {record.pk: index for index, record in enumerate(engagements)},
        "table_rolls": {roll.pk: index for index, roll in enumerate(rolls)},
    }
    return {
        "format": CAMPAIGN_FORMAT,
        "version": VERSION,
        "campaign": {
            "name": campaign.name,
            "ruleset": campaign.ruleset,
            "day": campaign.day,
            "hour": campaign.hour,
            "gm": campaign.gm.get_username(),
            **{field: getattr(campaign, field) for field in SETTINGS},
            "members": [{"user": m.user.get_username(), "role": m.role} for m in members],
            "invitations": _invitations_export(campaign),
        },
        "forces": [_force_data(force, records, names) for force in forces],
        "maps": [
            {"name": saved.name, "scenario": saved.scenario}
            for saved in campaign.maps.order_by("name")
        ],
        "story": [
            {"day": s.day, "kind": s.kind, "text": s.text, "created_at": s.created_at.isoformat()}
            for s in campaign.story.order_by("id")
        ],
        "characters": _characters_export(campaign),
        "orders": _orders_export(campaign),
        "engagements": [_engagement_export(record, keys) for record in engagements],
        "table_rolls": [_table_roll_export(roll, keys, names) for roll in rolls],
        "battles": [_battle_export(record, keys, entries) for record in battles],
    }


def export_text(data: dict[str, Any]) -> str:
    """An export as the file the site and ``manage.py campaign_export`` write: the same data
    gives the same bytes."""
    return json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True) + "\n"


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
    """A force's roster lines with their printed cards (``campaign.pages.printed_lines``) as
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


# ---------------------------------------------------------------------------------------------
# Checking
# ---------------------------------------------------------------------------------------------


class Checker:
    """Collects errors by path, so one pass reports every bad field."""

    def __init__(self) -> None:
        self.errors: dict[str, list[str]] = {}

    def error(self, path: str, message: str) -> None:
        self.errors.setdefault(path or "data", []).append(message)

    def mapping(
        self, path: str, data: Any, keys: tuple[str, ...], optional: tuple[str, ...] = ()
    ) -> bool:
        """Whether `data` is a mapping with exactly these keys (`optional` may be missing)."""
        if not isinstance(data, dict):
            self.error(path, f"must be an object, got {type(data).__name__}")
            return False
        ok = True
        for key in keys:
            if key not in data and key not in optional:
                self.error(f"{path}.{key}".lstrip("."), "missing")
                ok = False
        for key in data:
            if key not in keys:
                self.error(f"{path}.{key}".lstrip("."), "unknown field")
                ok = False
        return ok

    def records(
        self,
        path: str,
        data: Any,
        keys: tuple[str, ...],
        check: Callable[[str, dict[str, Any]], None],
    ) -> list[dict[str, Any]]:
        """The records of the list `data` that are mappings with exactly these keys and that
        `check(path, record)` finds no fault in."""
        if not isinstance(data, list):
            self.error(path, "must be a list")
            return []
        found = []
        for index, record in enumerate(data):
            at = f"{path}[{index}]"
            if not self.mapping(at, record, keys):
                continue
            before = len(self.errors)
            check(at, record)
            if len(self.errors) == before:
                found.append(record)
        return found

    def user(self, path: str, username: Any) -> Any:
        if not isinstance(username, str):
            self.error(path, f"must be a username, got {type(username).__name__}")
            return None
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            self.error(path, f"no user {given(username)} on this site")
        return user


def _unstorable(value: str) -> str | None:
    if "\x00" in value:
        return "must not contain a NUL character"
    if any("\ud800" <= char <= "\udfff" for char in value):
        return "must not contain a lone surrogate (not a character)"
    return None


def unstorable_paths(data: Any, path: str = "") -> list[tuple[str, str]]:
    """Where ``data`` holds what no database text or JSON column stores or gives back: a NUL
    character, half of a surrogate pair, a number that is not finite (NaN, Infinity)."""
    found: list[tuple[str, str]] = []
    if isinstance(data, str):
        problem = _unstorable(data)
        return [(path or "data", problem)] if problem else []
    if isinstance(data, float) and not math.isfinite(data):
        return [(path or "data", f"must be a finite number, got {value_shown(data)}")]
    if isinstance(data, dict):
        for key, value in data.items():
            at = f"{path}.{key}".lstrip(".") if isinstance(key, str) else path
            problem = _unstorable(key) if isinstance(key, str) else None
            found += [(at, problem)] if problem else unstorable_paths(value, at)
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += unstorable_paths(value, f"{path}[{index}]")
    return found


PATH_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def _named(path: str, data: Any) -> str:
    """The names along ``path`` in ``data`` ("forces[1].units[0].quality" → "Blue Battalion ›
    Scout Car"): each thing in a list that has a name, so a problem reads by what it is about,
    not only by its place in the file."""
    names: list[str] = []
    here = data
    for key, index in PATH_STEP.findall(path):
        if index:
            if not isinstance(here, list) or int(index) >= len(here):
                break
            here = here[int(index)]
            # A thing in a list is told by its name; an invitation, by whom it invites.
            name = here.get("name", here.get("invitee")) if isinstance(here, dict) else None
            if isinstance(name, str) and name.strip():
                names.append(name.strip())
        elif isinstance(here, dict) and key in here:
            here = here[key]
        else:
            break
    return " › ".join(names)


def import_problems(error: ValidationError, data: Any) -> list[dict[str, str]]:
    """Each problem with where it is in the file (``path``, and the names along it); one about
    the whole file (that it is no export of ours at all) has no path: it is a sentence."""
    if not hasattr(error, "error_dict"):
        return [{"problem": problem} for problem in error.messages]
    return [
        {"problem": problem}
        if path == NON_FIELD_ERRORS
        else {"path": path, "named": _named(path, data), "problem": problem}
        for path, problems in error.message_dict.items()
        for problem in problems
    ]


def import_problem_text(problem: dict[str, str]) -> str:
    """One of `import_problems` as a line of text (the command line's; the import page marks the
    same parts up): "forces[0].units[1].experience (Red Company › 1st Squad): …"."""
    if "path" not in problem:
        return problem["problem"]
    named = f" ({problem['named']})" if problem["named"] else ""
    return f"{problem['path']}{named}: {problem['problem']}"


FORMAT_KINDS = {CAMPAIGN_FORMAT: "campaign", FORCE_FORMAT: "force"}
"""What each of our exports is of, by its ``format``."""


def check_header(
    c: Checker, data: Any, format_name: str, keys: tuple[str, ...], optional: tuple[str, ...] = ()
) -> bool:
    """Whether ``data`` is an export of ``format_name``'s kind this site reads, with exactly
    these top-level keys (``optional`` may be missing); if not, ``c`` says why. A file that
    is not that kind of export at all is told so in one sentence, not field by field."""
    marked = data.get("format") if isinstance(data, dict) else None
    if marked != format_name:
        kind = FORMAT_KINDS[format_name]
        if isinstance(marked, str) and marked in FORMAT_KINDS:
            other = FORMAT_KINDS[marked]
            c.error(NON_FIELD_ERRORS, f"This is a Bridgehead {other} export, not a {kind} export.")
        else:
            c.error(
                NON_FIELD_ERRORS,
                f"This is not a Bridgehead {kind} export (it has no "
                f'"format": "{format_name}" field).',
            )
        return False
    unstorable = unstorable_paths(data)
    for path, problem in unstorable:
        c.error(path, problem)
    if unstorable or not c.mapping("", data, ("format", "version", *keys), optional):
        return False
    if data["version"] != VERSION:
        c.error("version", f"this site reads version {VERSION}, got {value_shown(data['version'])}")
        return False
    return True


IMPORT_MOST = {
    "units": 2_000,
    "history entries": 50_000,
    "battles": 250,
    "other records": 10_000,
}
"""The most a campaign's import holds of each (history entries: the units' and the characters';
other records: engagements, checks, characters, Orders and saved maps), so that any file within
them is checked and written well inside a web request (docs/deploy.md, "Upload limits"). Each is
far past a campaign played at a table: twenty forces of a full `MAX_UNITS_PER_FORCE`, fifty
entries a unit, a battle every day for most of a year. A battle's log has its own limit,
`LOG_EVENTS_MOST` (campaign.transfer_battles)."""


def _count(data: Any, key: str) -> list[Any]:
    found = data.get(key) if isinstance(data, dict) else None
    return found if isinstance(found, list) else []


def import_counts(data: dict[str, Any]) -> dict[str, int]:
    """How much of each `IMPORT_MOST` counts an export holds, read before anything is checked
    (what is not a list counts as nothing: the checks say what is wrong with it)."""
    units = [unit for force in _count(data, "forces") for unit in _count(force, "units")]
    characters = _count(data, "characters")
    return {
        "units": len(units),
        "history entries": sum(len(_count(unit, "history")) for unit in units)
        + sum(len(_count(character, "entries")) for character in characters),
        "battles": len(_count(data, "battles")),
        "other records": sum(
            len(_count(data, key))
            for key in (
                "engagements",
                "table_rolls",
                "characters",
                "orders",
                "maps",
                "story",
            )
        ),
    }


def check_counts(c: Checker, data: dict[str, Any]) -> bool:
    """Whether the export is within `IMPORT_MOST`; if not, one sentence for each count past it,
    said before any of it is read further."""
    ok = True
    for what, count in import_counts(data).items():
        if count > IMPORT_MOST[what]:
            c.error(NON_FIELD_ERRORS, f"This export holds {count:,} {what}; an import takes at "
                    f"most {IMPORT_MOST[what]:,}.")  # fmt: skip
            ok = False
    return ok


def past_most(c: Checker, path: str, listed: list[Any], what: str, holder: str, most: int) -> bool:
    """Whether ``listed`` holds more than ``holder`` may (``most``), said by its path before any
    of it is read: "holds 101 units; a force holds at most 100"."""
    if len(listed) <= most:
        return False
    c.error(path, f"holds {len(listed):,} {what}; {holder} holds at most {most:,}")
    return True


def check_ruleset(c: Checker, path: str, value: Any) -> bool:
    if value not in Ruleset.values:
        c.error(path, f"must be one of {', '.join(Ruleset.values)}, got {value_shown(value)}")
        return False
    return True


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


def created_at_problem(value: Any) -> str | None:
    """What keeps ``value`` from being a history entry's time that reads back: it must be an
    ISO date and time with its offset, and lie within the years 1..9999 in UTC too, which is how
    the database keeps it (year 1 at +14:00 is year 0 in UTC: stored, but never read again)."""
    try:
        moment = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        return f"must be an ISO date and time, got {value_shown(value)}"
    if moment.utcoffset() is None:
        example = "2026-05-01T19:30:00+00:00"
        return f"must give its offset from UTC (as in {example}), got {value_shown(value)}"
    try:
        moment.astimezone(UTC)
    except OverflowError:
        return f"must lie within the years 1..9999 in UTC, got {value_shown(value)}"
    return None


SETTING_TYPES = {
    "apply_mode": str,
    "other_forces_visible": str,
    "quick_resolve_rounds": int,
    "fog_of_war": bool,
}


def check_settings(c: Checker, path: str, data: dict[str, Any]) -> dict[str, Any]:
    """The campaign's settings, each of its own type and within the table's constraints; a
    setting newer than the export takes its default."""
    fields = {field.name: field for field in Campaign._meta.get_fields() if field.name in SETTINGS}
    settings: dict[str, Any] = {}
    for name in SETTINGS:
        field = fields[name]
        value = data.get(name, field.default) if name in NEWER_SETTINGS else data[name]
        kind = SETTING_TYPES[name]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            c.error(f"{path}.{name}", f"must be {kind.__name__}, got {value_shown(value)}")
            continue
        try:
            settings[name] = field.clean(value, None)
        except ValidationError as error:
            c.error(f"{path}.{name}", "; ".join(error.messages))
    if "quick_resolve_rounds" in settings:
        # The table's own check (campaign_quick_resolve_rounds_1_50), said before any write.
        try:
            Campaign(**settings).validate_constraints()
        except ValidationError:
            c.error(f"{path}.quick_resolve_rounds", "must be 1..50")
    return settings


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
        if _named_thing(c, f"{at}.name", name, f"Saved map {index + 1}"):
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


STORY_KEYS = ("day", "kind", "text", "created_at")


def check_story(c: Checker, path: str, data: Any, *, day: int) -> list[dict[str, Any]]:
    """The lines of the campaign's own story (`StoryEntry`: its people's changes, the GM's
    notes), each a sentence of its kind on a day of the campaign."""

    def one(at: str, line: dict[str, Any]) -> None:
        _whole(c, f"{at}.day", line["day"], 1, day)
        if not isinstance(line["kind"], str) or line["kind"] not in StoryEntry.Kind.values:
            c.error(f"{at}.kind", f"must be one of {', '.join(StoryEntry.Kind.values)}")
        _text(c, f"{at}.text", line["text"], STORY_TEXT, empty=False)
        if problem := created_at_problem(line["created_at"]):
            c.error(f"{at}.created_at", problem)

    return c.records(path, data, STORY_KEYS, one)


USERNAME_LONGEST = 150
"""The longest username an account has (Django's)."""


def check_members(
    c: Checker, path: str, members: Any, gm_name: str, *, look_up: bool = True
) -> dict[str, Any]:
    """Members by username, each with its role and its user on this site (``look_up`` False:
    None, and no one is looked up, so the check tells nothing of which accounts exist)."""
    if not isinstance(members, list):
        c.error(path, "must be a list")
        return {}
    if past_most(c, path, members, "members", "a campaign", MAX_MEMBERS_PER_CAMPAIGN):
        return {}
    found: dict[str, Any] = {}
    for index, member in enumerate(members):
        at = f"{path}[{index}]"
        if not c.mapping(at, member, ("user", "role")):
            continue
        if not isinstance(member["user"], str):
            c.error(f"{at}.user", f"must be a username, got {type(member['user']).__name__}")
            continue
        if member["role"] not in Membership.Role.values:
            c.error(f"{at}.role", f"must be one of {', '.join(Membership.Role.values)}")
        name = member["user"]
        if not name.strip() or len(name) > USERNAME_LONGEST:
            c.error(f"{at}.user", f"must be a username of 1..{USERNAME_LONGEST} characters")
            continue
        if name == gm_name:
            c.error(f"{at}.user", "the GM is not also a member")
        elif name in found:
            c.error(f"{at}.user", "listed twice")
        user = c.user(f"{at}.user", name) if look_up else None
        if user is not None or not look_up:
            found[name] = (user, member["role"])
    return found


INVITEE_LONGEST = Invitation._meta.get_field("invitee").max_length


def _held(
    c: Checker, path: str, listed: Any, what: str, waiting: dict[str, str], taken: set[str]
) -> None:
    """The names of the forces or characters (``what``) an invitation holds, each one of the
    export's that may wait for an invitee (``waiting``: by name, "" or why it may not) and held
    for no other (``taken``, the names held so far)."""
    if not isinstance(listed, list):
        c.error(path, f"must be a list of {what} names")
        return
    for number, name in enumerate(listed):
        at = f"{path}[{number}]"
        if not _text(c, at, name, NAME_LENGTH, empty=False):
            continue
        if name not in waiting:
            c.error(at, f"no {what} {given(name)} in the export")
        elif waiting[name]:
            c.error(at, f"{given(name)} {waiting[name]}")
        elif name in taken:
            c.error(at, f"{given(name)} is listed twice: a {what} waits for one invitee")
        taken.add(name)


def check_invitations(
    c: Checker,
    path: str,
    data: Any,
    *,
    gm_name: str,
    named: set[str],
    forces: list[dict[str, Any]],
    characters: list[dict[str, Any]],
) -> list[dict[str, Any]]:
    """The invitations waiting in the export, as the site keeps them: each to someone the file
    does not name already (``named``: its GM and members) and invited once, in a role, holding
    forces the file's GM (``gm_name``) holds and characters nobody plays, each for one of them.
    No more wait than a campaign keeps (`MAX_PENDING_INVITATIONS`)."""
    if isinstance(data, list) and len(data) > MAX_PENDING_INVITATIONS:
        c.error(path, f"holds {len(data):,} invitations; at most {MAX_PENDING_INVITATIONS} wait "
                "at once")  # fmt: skip
        return []
    gm_forces = {
        force["name"]: ""
        if force["owner"] == gm_name
        else f"is {possessive(str(force['owner']))} force: only a force the GM holds waits for an "
        "invitee"
        for force in forces
    }
    unplayed = {
        character["name"]: ""
        if character["player"] is None
        else f"is played by {character['player']}: only a character nobody plays waits for an "
        "invitee"
        for character in characters
    }
    invitees: set[str] = set()
    taken: dict[str, set[str]] = {"force": set(), "character": set()}

    def one(at: str, invitation: dict[str, Any]) -> None:
        invitee = invitation["invitee"]
        if _text(c, f"{at}.invitee", invitee, INVITEE_LONGEST, empty=False):
            key = invitee_key(invitee)
            if key in named:
                c.error(f"{at}.invitee", f"{given(invitee)} is the campaign's GM or a member "
                        "in the file already: only someone not in it is invited")  # fmt: skip
            elif key in invitees:
                c.error(f"{at}.invitee", f"{given(invitee)} is invited twice")
            invitees.add(key)
        if invitation["role"] not in Membership.Role.values:
            c.error(f"{at}.role", f"must be one of {', '.join(Membership.Role.values)}, got "
                    f"{value_shown(invitation['role'])}")  # fmt: skip
        _held(c, f"{at}.forces", invitation["forces"], "force", gm_forces, taken["force"])
        _held(c, f"{at}.characters", invitation["characters"], "character", unplayed,
              taken["character"])  # fmt: skip

    return c.records(path, data, INVITATION_KEYS, one)


def _whole(c: Checker, path: str, value: Any, low: int, high: int) -> int | None:
    try:
        return whole_number(value, low, high)
    except ValueError as error:
        c.error(path, str(error))
        return None


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
        if _named_thing(c, f"{at}.name", name, f"Character {index + 1}"):
            if name in names:
                c.error(f"{at}.name", "two characters share this name")
            names.add(name)
        player = character["player"]
        if (
            player is not None
            and _text(c, f"{at}.player", player, USERNAME_LONGEST, empty=False)
            and player not in players
        ):
            c.error(f"{at}.player", f"{given(player)} is not the GM or a player of the campaign")
        full = _whole(c, f"{at}.max_hit_points", character["max_hit_points"], 1, 999)
        now = _whole(c, f"{at}.hit_points", character["hit_points"], -999, 999)
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
            and _names(c, f"{at}.leads", leads, ("force", "unit"))
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
                _whole(c, f"{where}.day", entry["day"], 1, day)
                _whole(c, f"{where}.hour", entry["hour"], 0, HOURS_PER_DAY - 1)
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


ENDED_AS = (Status.RETREATED, Status.DESTROYED)
"""The statuses that end an Order with its unit (`services.orders.orders_follow_unit`)."""


def _ended_as(order: dict[str, Any]) -> dict[str, str]:
    """What ended an Order, for an export written before it was kept: then only a unit
    destroyed ended one."""
    return {"ended_as": Status.DESTROYED if order.get("ended_at") is not None else ""}


def check_orders(
    c: Checker,
    path: str,
    data: Any,
    *,
    characters: set[str],
    units: set[tuple[str, str]],
    destroyed: set[tuple[str, str]],
    now: int | None = None,
) -> list[dict[str, Any]]:
    """The Orders characters gave: giver by name, unit by force and unit name (``destroyed``:
    those destroyed), on the clock (``now``, the export's clock hour, when it is one)."""

    def one(at: str, order: dict[str, Any]) -> None:
        if _names(c, at, order, ("giver",)) and order["giver"] not in characters:
            c.error(f"{at}.giver", f"no character {given(order['giver'])} in the export")
        if _names(c, at, order, ("force", "unit")) and (order["force"], order["unit"]) not in units:
            c.error(
                f"{at}.unit", f"no unit {given(order['unit'])} in force {given(order['force'])}"
            )
        if order["kind"] not in [k.value for k in OrderKind]:
            c.error(f"{at}.kind", f"unknown Order {given(order['kind'])}")
        for key in ("listed_hours", "hours"):
            _whole(c, f"{at}.{key}", order[key], 1, 32767)
        given_at = _whole(c, f"{at}.given_at", order["given_at"], 0, LARGEST_DAY)
        done = _whole(c, f"{at}.finishes_at", order["finishes_at"], 0, LARGEST_DAY)
        if given_at is not None and done is not None and done < given_at:
            c.error(f"{at}.finishes_at", "before the Order was given")
        if not isinstance(order["replaced"], bool):
            c.error(f"{at}.replaced", "must be true or false")
        off = order["called_off_at"]
        if off is not None and given_at is not None and done is not None:
            # Called off while under way, as the site calls one off.
            off = _whole(c, f"{at}.called_off_at", off, given_at, max(given_at, done - 1))
            if off is not None and order["replaced"] is True:
                c.error(f"{at}.called_off_at", "an Order is replaced or called off, not both")
            elif off is not None and now is not None and off > now:
                # Called off when the clock got there, never ahead of it.
                c.error(f"{at}.called_off_at", f"after the campaign's clock, {clock_text(now)}")
        ended = order["ended_at"]
        if ended is not None and given_at is not None and done is not None:
            # Ended while under way, when its unit retreated in poor order or was destroyed, as
            # the site ends one.
            ended = _whole(c, f"{at}.ended_at", ended, given_at, max(given_at, done - 1))
            if ended is not None and (order["replaced"] is True or off is not None):
                c.error(f"{at}.ended_at", "an Order is replaced, called off or ended, only one")
            elif ended is not None and now is not None and ended > now:
                c.error(f"{at}.ended_at", f"after the campaign's clock, {clock_text(now)}")
            elif ended is not None:
                # Not said (an older export, or left blank): only a unit destroyed ended one.
                order["ended_as"] = order["ended_as"] or Status.DESTROYED
                if order["ended_as"] not in ENDED_AS:
                    c.error(f"{at}.ended_as", f"one of {', '.join(ENDED_AS)}, for an Order ended")
                elif order["ended_as"] == Status.DESTROYED and (
                    order["force"], order["unit"]) not in destroyed:  # fmt: skip
                    c.error(f"{at}.ended_at", f"ended with its unit, but {given(order['unit'])} is "
                            "not destroyed")  # fmt: skip
        elif ended is None and order["ended_as"] != "":
            c.error(f"{at}.ended_as", "only for an Order ended with its unit")
        if not isinstance(order["note"], str) or len(order["note"]) > 300:
            c.error(f"{at}.note", "must be text of at most 300 characters")

    if isinstance(data, list):
        newer = dict.fromkeys(NEWER_ORDER_VALUES)  # what an older export leaves out: None
        data = [newer | _ended_as(o) | o if isinstance(o, dict) else o for o in data]
    return c.records(path, data, ORDER_KEYS, one)


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


def _text(c: Checker, path: str, value: Any, longest: int, *, empty: bool = True) -> bool:
    """Whether ``value`` is text of at most ``longest`` characters (not blank, unless
    ``empty``); if not, ``c`` says so at ``path``. A name is read this way before it is looked
    up, so a list or an object where a name belongs is refused in words, not looked up."""
    if not isinstance(value, str) or len(value) > longest or (not empty and not value.strip()):
        c.error(path, f"must be text of {0 if empty else 1}..{longest} characters")
        return False
    return True


def _named_thing(c: Checker, path: str, name: Any, what: str) -> bool:
    """Whether ``name`` is a name of 1 to `NAME_LENGTH` characters; if not, ``c`` says so at
    ``path``, of ``what`` ("Saved map 2": a thing without a name is told by its place)."""
    if not isinstance(name, str):
        said = f"{what}'s name must be text, not {value_shown(name)}"
    elif not name.strip():
        said = f"{what} has no name: give it one of 1 to {NAME_LENGTH} characters"
    elif len(name) > NAME_LENGTH:
        said = f"{what}'s name is {len(name):,} characters long; a name takes at most {NAME_LENGTH}"
    else:
        return True
    c.error(path, said)
    return False


def _names(c: Checker, path: str, record: dict[str, Any], keys: tuple[str, ...]) -> bool:
    """Whether each of ``keys`` in ``record`` is a name (`_text`, 1..`NAME_LENGTH`), each
    wrong one said at ``path.key``: what an import looks a thing up by must be text."""
    named = [_text(c, f"{path}.{key}", record[key], NAME_LENGTH, empty=False) for key in keys]
    return all(named)


def _clock(c: Checker, path: str, record: dict[str, Any], day: int) -> None:
    _whole(c, f"{path}.day", record["day"], 1, day)
    _whole(c, f"{path}.hour", record["hour"], 0, HOURS_PER_DAY - 1)
    _whole(c, f"{path}.seed", record["seed"], 0, LARGEST_SEED)
    problem = created_at_problem(record["created_at"])
    if problem:
        c.error(f"{path}.created_at", problem)


def check_engagements(
    c: Checker, path: str, data: Any, *, day: int, keys: KeyCheck
) -> list[dict[str, Any]]:
    """Engagements: their set-up, log and applied entries naming units and entries by the
    export's keys, their state, and what the fight came to."""

    def one(at: str, record: dict[str, Any]) -> None:
        _text(c, f"{at}.name", record["name"], 200, empty=False)
        _clock(c, at, record, day)
        limit = _whole(c, f"{at}.round_limit", record["round_limit"], 1, ROUND_LIMIT_MAX)
        rounds = _whole(c, f"{at}.rounds", record["rounds"], 0, ROUND_LIMIT_MAX)
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
        _text(c, f"{at}.summary", roll["summary"], 400)
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
            if _names(c, f"{at}.setup", setup, ("force",)) and setup["force"] not in forces:
                c.error(f"{at}.setup.force", f"no force {given(setup['force'])} in the export")
            if not isinstance(setup["unit_type"], str) or setup["unit_type"] not in cards:
                c.error(f"{at}.setup.unit_type", f"no unit card {given(setup['unit_type'])} in the "
                                                 "library")  # fmt: skip
            if (
                setup["character"] is not None
                and _names(c, f"{at}.setup", setup, ("character",))
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
                    _text(c, f"{at}.setup.{key}", setup[key], NAME_LENGTH)  # "": none
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
                    if not _is_pk(value) or not 0 <= value < counts[listed]:
                        c.error(f"forces[{i}].units[{j}].history[{k}].details.{key}",
                                f"must be the index of one of the export's {listed}")  # fmt: skip
