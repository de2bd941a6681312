"""Writes for imports: a whole campaign, or one force into a campaign.

Everything is checked first (`campaign.transfer`); on any error nothing is written and the
`ValidationError` names every bad field by its path. The writes run in one transaction.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from battles import budget
from battles.engine import parse_scenario
from battles.jsontext import read_json
from battles.models import Battle, BattleLog
from campaign.models import (
    Campaign,
    CampaignBattle,
    Character,
    CharacterEntry,
    Engagement,
    Force,
    HistoryEntry,
    Membership,
    Order,
    SavedMap,
    TableRoll,
    Unit,
)
from campaign.rules.orders import HOURS_PER_DAY
from campaign.services._record import locked, require_manager, unit_state_save
from campaign.services.battles import NOTIFY_TASK
from campaign.transfer import (
    BATTLE_VALUES,
    CAMPAIGN_FORMAT,
    CHARACTER_DETAILS,
    ENGAGEMENT_VALUES,
    ENGINE_VALUES,
    FORCE_FORMAT,
    LARGEST_DAY,
    NEWER_SETTINGS,
    ORDER_VALUES,
    RECORD_DETAILS,
    SETTINGS,
    TABLE_ROLL_VALUES,
    Checker,
    KeyCheck,
    check_characters,
    check_engagements,
    check_force,
    check_header,
    check_maps,
    check_members,
    check_orders,
    check_record_links,
    check_ruleset,
    check_settings,
    check_table_rolls,
    refs_translate,
)
from campaign.transfer_battles import check_battles
from units.models import UnitType


def _day(c: Checker, path: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= LARGEST_DAY:
        c.error(path, f"must be a whole number, 1..{LARGEST_DAY}, got {value!r}")
        return 1
    return value


def _details_import(
    details: dict[str, Any], characters: dict[str, int], records: dict[str, list[int]] | None
) -> dict[str, Any]:
    """An entry's working numbered again: its character by name, its engagement or table roll
    by index (``records`` None: the export carried none, so the links stay behind)."""
    found = dict(details)
    for key in CHARACTER_DETAILS:
        if isinstance(found.get(key), str) and found[key] in characters:
            found[key] = characters[found[key]]
    for key, listed in RECORD_DETAILS.items():
        if found.get(key) is not None:
            found[key] = None if records is None else records[listed][found[key]]
    return found


def _write_force(
    campaign: Campaign,
    owner: Any,
    force_data: dict[str, Any],
    characters: dict[str, int] | None = None,
    records: dict[str, list[int]] | None = None,
) -> tuple[Force, list[tuple[Unit, list[HistoryEntry]]]]:
    """Write a checked force and give back its units with their entries, in order;
    ``characters`` (name → new pk) and ``records`` (list → new pks) number what its history
    names (an export names them: ids do not travel)."""
    characters = characters or {}
    made: list[tuple[Unit, list[HistoryEntry]]] = []
    force = Force.objects.create(campaign=campaign, owner=owner, name=force_data["name"])
    for checked in force_data["units"]:
        state = checked["state"]
        unit = Unit(force=force, unit_type=checked["unit_type"])
        unit_state_save(unit, state)
        entries = checked["history"] or [
            {
                "day": campaign.day,
                "kind": HistoryEntry.Kind.CREATED,
                "text": f"imported into {force} as {state.quality.label} {unit.unit_type}",
                "before": {},
                "after": state.to_json(),
            }
        ]
        written: list[HistoryEntry] = []
        for entry in entries:
            created_at = entry.get("created_at")
            reverts = entry.get("reverts")
            written.append(
                HistoryEntry.objects.create(
                    unit=unit,
                    day=entry["day"],
                    kind=entry["kind"],
                    text=entry["text"],
                    before=entry["before"],
                    after=entry["after"],
                    details=_details_import(entry.get("details", {}), characters, records),
                    reverts=None if reverts is None else written[reverts],
                    created_at=datetime.fromisoformat(created_at) if created_at else timezone.now(),
                )
            )
        made.append((unit, written))
    return force, made


def _write_records(
    campaign: Campaign,
    engagements: list[dict[str, Any]],
    rolls: list[dict[str, Any]],
    units: dict[str, Unit],
    entries: dict[str, HistoryEntry],
    characters: dict[str, Character],
    forces: dict[str, Force],
) -> None:
    """Fill in the table's records, made empty before the forces (their history points at
    them), their keys numbered again."""

    def text_pk(key: Any) -> Any:
        return None if key is None else str(units[key].pk)

    made = list(campaign.engagements.order_by("id"))
    for record, data in zip(made, engagements, strict=True):
        setup = data["setup"]
        record.setup = {
            **setup,
            "sides": {
                side: [units[key].pk for key in keys] for side, keys in setup["sides"].items()
            },
            "situations": {text_pk(key): flags for key, flags in setup["situations"].items()},
        }
        record.events = refs_translate(data["events"], text_pk)
        record.applied_entries = [entries[key].pk for key in data["applied_entries"]]
        record.save(update_fields=["setup", "events", "applied_entries"])
        Engagement.objects.filter(pk=record.pk).update(
            created_at=datetime.fromisoformat(data["created_at"])
        )
    for roll, data in zip(campaign.table_rolls.order_by("id"), rolls, strict=True):
        setup, result = dict(data["setup"]), dict(data["result"])
        if roll.kind == TableRoll.Kind.REQUISITION:
            setup["force"] = forces[setup["force"]].pk
            setup["unit_type"] = UnitType.objects.get(
                kind=UnitType.Kind.UNIT, ruleset=campaign.ruleset, name=setup["unit_type"]
            ).pk
            if setup["character"] is not None:
                setup["character"] = characters[setup["character"]].pk
            if "unit" in result:
                result["unit"] = units[result["unit"]].pk
        else:
            for side in ("units", "active", "resisting"):
                if side in setup:
                    setup[side] = [units[key].pk for key in setup[side]]
            result = refs_translate(result, text_pk)
        roll.setup, roll.result = setup, result
        roll.save(update_fields=["setup", "result"])
        TableRoll.objects.filter(pk=roll.pk).update(
            created_at=datetime.fromisoformat(data["created_at"])
        )


def _moment(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


def _write_battles(
    campaign: Campaign,
    battles: list[dict[str, Any]],
    units: dict[str, Unit],
    entries: dict[str, HistoryEntry],
) -> None:
    """Write checked battles, each with the engine's battle and log behind it, its units and
    entries by the export's keys numbered again, and its history entries linked to it."""

    def pk(key: str) -> int:
        return units[key].pk

    for data in battles:
        engine = data["engine"]
        battle = None if engine is None else _write_engine_battle(data["name"], engine)
        table = data["table_result"]
        if table is not None:
            table = {**table, "units": {str(pk(key)): won for key, won in table["units"].items()}}
        record = CampaignBattle.objects.create(
            campaign=campaign,
            battle=battle,
            **{key: data[key] for key in BATTLE_VALUES},
            sides={side: [pk(key) for key in keys] for side, keys in data["sides"].items()},
            engine_units={eid: pk(key) for eid, key in data["engine_units"].items()},
            orders={str(pk(key)): going for key, going in data["orders"].items()},
            table_result=table,
            applied_entries=[entries[key].pk for key in data["applied_entries"]],
            applied_at=_moment(data["applied_at"]),
        )
        CampaignBattle.objects.filter(pk=record.pk).update(created_at=_moment(data["created_at"]))
        if battle is not None:
            linked = [entries[key].pk for key in data["entries"]]
            HistoryEntry.objects.filter(pk__in=linked).update(battle=battle)


def _write_engine_battle(name: str, engine: dict[str, Any]) -> Battle:
    """The engine's battle as it was fought there: over, so no worker, lease or request key of
    that site comes with it; its cost is worked out here, as a launch would."""
    battle = Battle.objects.create(
        name=name,
        **{key: engine[key] for key in ENGINE_VALUES},
        cost=budget.battle_cost(parse_scenario(engine["scenario"])),
        notify_task=NOTIFY_TASK,
        started_at=_moment(engine["started_at"]),
        finished_at=_moment(engine["finished_at"]),
    )
    Battle.objects.filter(pk=battle.pk).update(created_at=_moment(engine["created_at"]))
    if engine["log"] is not None:
        BattleLog.objects.create(
            battle=battle,
            events=engine["log"],
            sha256=engine["log_sha256"],
            event_count=len(read_json(engine["log"])["events"]),
        )
    return battle


@transaction.atomic
def campaign_import(*, data: Any, gm: Any = None) -> Campaign:
    """A new campaign from an export; `gm` runs it (by default the export's GM, by username)."""
    c = Checker()
    table = ("engagements", "table_rolls")
    top = ("campaign", "forces", "maps", "characters", "orders", *table, "battles")
    later = ("maps", "characters", "orders", *table, "battles")  # not in older exports
    if not check_header(c, data, CAMPAIGN_FORMAT, top, later):
        raise ValidationError(c.errors)
    info = data["campaign"]
    keys = ("name", "ruleset", "day", "hour", "gm", *SETTINGS, "members")
    if not c.mapping("campaign", info, keys, optional=(*NEWER_SETTINGS, "hour")):
        raise ValidationError(c.errors)
    try:
        Campaign._meta.get_field("name").clean(info["name"], None)
    except ValidationError as error:
        c.error("campaign.name", "; ".join(error.messages))
    ruleset_ok = check_ruleset(c, "campaign.ruleset", info["ruleset"])
    day = _day(c, "campaign.day", info["day"])
    settings = check_settings(c, "campaign", info)
    if gm is None:
        gm = c.user("campaign.gm", info["gm"])
    gm_name = gm.get_username() if gm is not None else info["gm"]
    if not isinstance(gm_name, str):
        gm_name = ""  # c.user has said what is wrong with it
    members = check_members(c, "campaign.members", info["members"], gm_name)
    playing = {gm_name} | {name for name, (_, role) in members.items() if role != "spectator"}
    forces = []
    if not isinstance(data["forces"], list):
        c.error("forces", "must be a list")
    elif ruleset_ok:
        names: set[Any] = set()
        for index, force in enumerate(data["forces"]):
            path = f"forces[{index}]"
            checked = check_force(c, path, force, ruleset=info["ruleset"], day=day, owners=playing)
            if checked is not None:
                if checked["name"] in names:
                    c.error(f"{path}.name", "two forces share this name")
                names.add(checked["name"])
                forces.append(checked)
    maps = (
        check_maps(c, "maps", data.get("maps", []), ruleset=info["ruleset"]) if ruleset_ok else []
    )
    hour = info.get("hour", 0)
    if isinstance(hour, bool) or not isinstance(hour, int) or not 0 <= hour < HOURS_PER_DAY:
        c.error("campaign.hour", f"must be a whole hour, 0..{HOURS_PER_DAY - 1}, got {hour!r}")
    characters = check_characters(
        c, "characters", data.get("characters", []), day=day, players=playing, forces=forces
    )
    orders = check_orders(
        c, "orders", data.get("orders", []),
        characters={character["name"] for character in characters},
        units={(f["name"], u["state"].name) for f in forces for u in f["units"]},
    )  # fmt: skip
    engagements: list[dict[str, Any]] = []
    rolls: list[dict[str, Any]] = []
    battles: list[dict[str, Any]] = []
    if not c.errors:  # the keys are the forces' places: only read once every force is
        keys = KeyCheck(forces)
        engagements = check_engagements(
            c, "engagements", data.get("engagements", []), day=day, keys=keys
        )
        rolls = check_table_rolls(
            c, "table_rolls", data.get("table_rolls", []), day=day, keys=keys,
            forces={f["name"] for f in forces}, characters={ch["name"] for ch in characters},
            ruleset=info["ruleset"],
        )  # fmt: skip
        battles = check_battles(
            c, "battles", data.get("battles", []), day=day, keys=keys, ruleset=info["ruleset"]
        )
        carried = all(key in data for key in table)
        counts = {"engagements": len(engagements), "table_rolls": len(rolls)}
        check_record_links(c, forces, counts if carried else None)
    if c.errors:
        raise ValidationError(c.errors)

    campaign = Campaign.objects.create(
        name=info["name"], ruleset=info["ruleset"], day=day, hour=hour, gm=gm, **settings
    )
    users = {gm_name: gm}
    for name, (user, role) in members.items():
        Membership.objects.create(campaign=campaign, user=user, role=role)
        users[name] = user
    written = {
        character["name"]: Character.objects.create(
            campaign=campaign,
            name=character["name"],
            player=users.get(character["player"]) if character["player"] else None,
            hit_points=character["hit_points"],
            max_hit_points=character["max_hit_points"],
            alive=character["alive"],
            feats=list(character["feats"]),
        )
        for character in characters
    }
    pks = {name: character.pk for name, character in written.items()}
    # The table's records first, empty, so the history can point at them; filled in below.
    records = None
    if all(key in data for key in table):
        records = {
            "engagements": [
                Engagement.objects.create(
                    campaign=campaign, setup={}, events=[],
                    **{key: record[key] for key in ENGAGEMENT_VALUES},
                ).pk
                for record in engagements
            ],
            "table_rolls": [
                TableRoll.objects.create(
                    campaign=campaign, setup={}, result={},
                    **{key: roll[key] for key in TABLE_ROLL_VALUES},
                ).pk
                for roll in rolls
            ],
        }  # fmt: skip
    units: dict[tuple[str, str], Unit] = {}
    by_key: dict[str, Unit] = {}
    entry_keys: dict[str, HistoryEntry] = {}
    made_forces: dict[str, Force] = {}
    for i, force in enumerate(forces):
        made, written_units = _write_force(campaign, users[force["owner"]], force, pks, records)
        made_forces[made.name] = made
        for j, (unit, entries) in enumerate(written_units):
            units[made.name, unit.name] = unit
            by_key[f"forces[{i}].units[{j}]"] = unit
            for k, entry in enumerate(entries):
                entry_keys[f"forces[{i}].units[{j}].history[{k}]"] = entry
    for character in characters:
        if character["leads"] is not None:
            leader = units[character["leads"]["force"], character["leads"]["unit"]].leader
            leader.character = written[character["name"]]
            leader.save()
        for entry in character["entries"]:
            CharacterEntry.objects.create(
                character=written[character["name"]],
                day=entry["day"],
                hour=entry["hour"],
                text=entry["text"],
                before=entry["before"],
                after=entry["after"],
                created_at=datetime.fromisoformat(entry["created_at"]),
            )
    for order in orders:
        Order.objects.create(
            campaign=campaign,
            giver=written[order["giver"]],
            unit=units[order["force"], order["unit"]],
            **{key: order[key] for key in ORDER_VALUES},
        )
    for saved in maps:
        SavedMap.objects.create(campaign=campaign, created_by=gm, **saved)
    _write_records(campaign, engagements, rolls, by_key, entry_keys, written, made_forces)
    _write_battles(campaign, battles, by_key, entry_keys)
    return campaign


@transaction.atomic
def force_import(*, campaign: Campaign, data: Any, owner: Any = None, actor: Any = None) -> Force:
    """A force from an export into an existing campaign of the same ruleset.

    `owner` takes it over (by default the export's owner, who must play in the campaign).
    """
    require_manager(campaign, actor)
    campaign = locked(campaign)  # its day as stored, not as the caller's copy last saw it
    c = Checker()
    if not check_header(c, data, FORCE_FORMAT, ("ruleset", "force")):
        raise ValidationError(c.errors)
    if data["ruleset"] != campaign.ruleset:
        c.error("ruleset", f"the force plays {data['ruleset']!r}; the campaign, {campaign.ruleset}")
        raise ValidationError(c.errors)
    playing = {campaign.gm.get_username()} | set(
        campaign.memberships.exclude(role=Membership.Role.SPECTATOR).values_list(
            "user__username", flat=True
        )
    )
    force_data = data["force"]
    if owner is not None and isinstance(force_data, dict):
        if owner.get_username() not in playing:
            c.error("owner", f"{owner} is not the GM or a player of {campaign}")
        force_data = {**force_data, "owner": owner.get_username()}
    checked = check_force(
        c,
        "force",
        force_data,
        ruleset=campaign.ruleset,
        day=campaign.day,
        owners=playing,
        same_calendar=False,
    )
    if checked is not None and campaign.forces.filter(name=checked["name"]).exists():
        c.error("force.name", f"{campaign} has a force of this name already")
    if c.errors or checked is None:
        raise ValidationError(c.errors)
    user = owner if owner is not None else c.user("force.owner", checked["owner"])
    return _write_force(campaign, user, checked)[0]
