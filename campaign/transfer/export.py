"""A force or a whole campaign written as an export: users named by username, unit types by their
library name and the table's records by the export's own keys (`Keys`), so it travels between
sites; a unit carries its history.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from django.db.models import Prefetch, QuerySet

from battles.models import Battle
from battles.selectors import battle_log
from campaign.models import (
    Campaign,
    CampaignBattle,
    Engagement,
    Force,
    HistoryEntry,
    Leader,
    TableRoll,
    Unit,
)
from campaign.selectors.access import invitations_holding
from campaign.transfer.format import (
    BATTLE_VALUES,
    CAMPAIGN_FORMAT,
    CHARACTER_DETAILS,
    ENGAGEMENT_VALUES,
    ENGINE_TIMES,
    ENGINE_VALUES,
    FORCE_FORMAT,
    ORDER_VALUES,
    RECORD_DETAILS,
    SETTINGS,
    TABLE_ROLL_VALUES,
    UNIT_REFERENCES,
    VERSION,
)
from units.models import UnitType


def is_pk(value: Any) -> bool:
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
        if is_pk(found.get(key)) and found[key] in names:
            found[key] = names[found[key]]
    for key, listed in RECORD_DETAILS.items():
        if is_pk(found.get(key)):
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


def invitations_export(campaign: Campaign) -> list[dict[str, Any]]:
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
            "invitations": invitations_export(campaign),
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
