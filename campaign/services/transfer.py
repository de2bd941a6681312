"""Writes for imports: a whole campaign, or one force into a campaign.

Everything is checked first (`campaign.transfer`); on any error nothing is written and the
`ValidationError` names every bad field by its path. The writes run in one transaction.

A campaign's import gives no one a part in it they did not accept: whoever imports it runs it,
and everyone else the file names is invited (docs/campaign.md, "Export and import").
"""

from __future__ import annotations

import uuid
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
    ROLE_WORDS,
    Campaign,
    CampaignBattle,
    Character,
    CharacterEntry,
    Engagement,
    Force,
    HistoryEntry,
    Invitation,
    Membership,
    Order,
    SavedMap,
    StoryEntry,
    TableRoll,
    Unit,
)
from campaign.rules.orders import HOURS_PER_DAY, clock_hour
from campaign.rules.state import Status
from campaign.rules.values import (
    MAX_FORCES_PER_CAMPAIGN,
    MAX_MEMBERS_PER_CAMPAIGN,
    MAX_PENDING_INVITATIONS,
    NAME_LENGTH,
)
from campaign.selectors.access import campaigns_for_user, invitee_key, invitee_keys, with_holdings
from campaign.services._record import (
    campaign_full,
    campaign_made,
    campaign_save_once,
    locked,
    require_manager,
    unit_state_save,
)
from campaign.services.battles import NOTIFY_TASK
from campaign.services.checks import contest_entries_renamed
from campaign.services.members import invitation_send
from campaign.transfer.battles import REFIGHT_MOST, check_battles, check_refought
from campaign.transfer.bounds import check_counts, past_most
from campaign.transfer.campaign_settings import check_settings
from campaign.transfer.characters import check_characters
from campaign.transfer.checker import Checker, check_ruleset, check_text
from campaign.transfer.export import refs_translate
from campaign.transfer.forces import check_force
from campaign.transfer.format import (
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
)
from campaign.transfer.header import check_header
from campaign.transfer.maps import check_maps
from campaign.transfer.members import USERNAME_LONGEST, check_invitations, check_members
from campaign.transfer.orders import check_orders
from campaign.transfer.records import (
    KeyCheck,
    check_engagements,
    check_record_links,
    check_table_rolls,
)
from campaign.transfer.story import check_story
from units.models import UnitType
from units.words import and_words, given, plural, value_shown


def _day(c: Checker, path: str, value: Any) -> int:
    """The campaign's day; a bad one is the one problem named, and everything dated in the
    file is then read against the latest day there could be, so no entry is refused for
    coming after a day the file never gave."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= LARGEST_DAY:
        c.error(
            path, f"must be the campaign's day, a whole number from 1, got {value_shown(value)}"
        )
        return LARGEST_DAY
    return value


def _details_import(
    details: dict[str, Any], characters: dict[str, int], records: dict[str, list[int]] | None
) -> dict[str, Any]:
    """An entry's working numbered again: its character by name, its engagement or table roll
    by index (``records`` None: the export carried none, so the links stay behind)."""
    found = dict(details)
    # Forces by id, which do not travel (`transfer.export._details_export`).
    found.pop("moved", None)
    found.pop("crews", None)  # units by id, likewise
    for key in CHARACTER_DETAILS:
        if isinstance(found.get(key), str) and found[key] in characters:
            found[key] = characters[found[key]]
    for key, listed in RECORD_DETAILS.items():
        if found.get(key) is not None:
            found[key] = None if records is None else records[listed][found[key]]
    return found


WRITE_BATCH = 1000
"""Rows one INSERT writes when an import writes many of a kind (history entries, a character's
record, Orders): a long history is a few statements, not one per entry."""


def _write_force(
    campaign: Campaign,
    owner: Any,
    force_data: dict[str, Any],
    characters: dict[str, int] | None = None,
    records: dict[str, list[int]] | None = None,
    later: list[list[HistoryEntry]] | None = None,
    reverting: list[tuple[HistoryEntry, HistoryEntry]] | None = None,
) -> tuple[Force, list[tuple[Unit, list[HistoryEntry]]]]:
    """Write a checked force and give back its units with their entries, in order;
    ``characters`` (name → new pk) and ``records`` (list → new pks) number what its history
    names (an export names them: ids do not travel). The entries are written (`_entries_write`)
    unless ``later`` and ``reverting`` are given, which collect them, each unit's history a
    list, and the entries that revert another, to be written with every other force's."""
    characters = characters or {}
    made: list[tuple[Unit, list[HistoryEntry]]] = []
    now = later is None
    later = [] if later is None else later
    reverting = [] if reverting is None else reverting
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
            written.append(
                HistoryEntry(
                    unit=unit,
                    day=entry["day"],
                    kind=entry["kind"],
                    text=entry["text"],
                    before=entry["before"],
                    after=entry["after"],
                    details=_details_import(entry.get("details", {}), characters, records),
                    created_at=datetime.fromisoformat(created_at) if created_at else timezone.now(),
                )
            )
            if entry.get("reverts") is not None:
                reverting.append((written[-1], written[entry["reverts"]]))
        made.append((unit, written))
        later.append(written)
    if now:
        _entries_write(later, reverting)
    return force, made


def _entries_write(
    histories: list[list[HistoryEntry]], reverting: list[tuple[HistoryEntry, HistoryEntry]]
) -> None:
    """Write the units' histories in batches (`WRITE_BATCH`) in the order their entries were
    made, whatever their unit or force, then point each that reverts another at it: the
    timeline and "since your last visit" tell a day's entries by the order they were written,
    so a copy's days read as the campaign's did. Each unit's own entries keep their order."""
    placed = []
    for history in histories:
        latest = None
        for entry in history:
            # An entry goes after those before it in its unit's history, whatever its time says.
            latest = entry.created_at if latest is None else max(latest, entry.created_at)
            placed.append((latest, len(placed), entry))
    placed.sort(key=lambda item: item[:2])
    HistoryEntry.objects.bulk_create([entry for *_, entry in placed], batch_size=WRITE_BATCH)
    for entry, reverted in reverting:
        entry.reverts = reverted
    HistoryEntry.objects.bulk_update(
        [entry for entry, _ in reverting], ["reverts"], batch_size=WRITE_BATCH
    )


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
        applied = data["applied_entries"]
        # A table battle's entries name no battle: its record lists those of its applications
        # since reverted too (an engine battle's are linked to it below).
        earlier = [] if battle is not None else [k for k in data["entries"] if k not in applied]
        record = CampaignBattle.objects.create(
            campaign=campaign,
            battle=battle,
            **{key: data[key] for key in BATTLE_VALUES},
            sides={side: [pk(key) for key in keys] for side, keys in data["sides"].items()},
            engine_units={eid: pk(key) for eid, key in data["engine_units"].items()},
            orders={str(pk(key)): going for key, going in data["orders"].items()},
            table_result=table,
            applied_entries=[entries[key].pk for key in applied],
            earlier_entries=[entries[key].pk for key in earlier],
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
        cost=budget.battle_cost(parse_scenario(engine["scenario"], fought=True)),
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


def import_name(name: str, gm: Any) -> str:
    """The name an imported campaign takes: the export's, unless its GM has a campaign of that
    name already (running it or a member), so "My campaigns" would list two alike; then the
    day of the import is added, "Op. X (imported 2026-12-03)", and a number after it should
    that be taken too, "Op. X (imported 2026-12-03, 2)"."""
    taken = set(campaigns_for_user(user=gm).values_list("name", flat=True))
    if name not in taken:
        return name
    longest = Campaign._meta.get_field("name").max_length
    day = timezone.localdate().isoformat()
    number = 1
    while True:
        mark = f" (imported {day})" if number == 1 else f" (imported {day}, {number})"
        found = name[: longest - len(mark)].rstrip() + mark
        if found not in taken:
            return found
        number += 1


def _invite(campaign: Campaign, name: str, role: str, gm: Any, site: str) -> Invitation | None:
    """An invitation to ``name`` from the GM, as "Invite a player" sends one (whether or not
    such an account exists, mailed to an address at ``site``); None once the campaign's
    invitations are at their cap."""
    try:
        invitation_send(campaign=campaign, invitee=name, role=role, actor=gm, site=site)
    except ValidationError:
        return None  # the cap: `campaign_import_summary` names who was not invited
    return campaign.invitations.filter(invitee=invitee_key(name)).first()


@transaction.atomic
def campaign_import(
    *,
    data: Any,
    gm: Any = None,
    keep_members: bool = False,
    request_key: uuid.UUID | None = None,
    refight_most: int | None = REFIGHT_MOST,
    site: str = "",
) -> Campaign:
    """A new campaign from an export, run by ``gm``: the import page passes whoever imports;
    by default (the site's commands) it is the export's own GM, by username.

    Its battles' logs are checked by fighting each again (`check_refought`), within
    ``refight_most`` (None, for whoever runs the site: no bound).

    Everyone else the export names is invited in their role there, by the invitation's own rules
    (`invitation_send`), and made a member only by accepting: its members, and its GM when
    someone else runs the new campaign (as a co-GM). Each invitation carries the forces and the
    characters the export gave its invitee; until they accept, the GM holds those forces and
    nobody plays those characters. ``keep_members`` makes them members at once instead, as the
    export had them (a backup restored by whoever runs the site: each needs an account here).
    The invitations waiting in the export are sent again either way, each with a new link and
    holding what it held there (`check_invitations`); one to whoever imports (by any name it may
    carry: `invitee_keys`) is dropped, as they run the campaign now, and the characters it held
    are theirs to play. An invitation to an e-mail address mails its new link there, at ``site``
    (`services.invitation_mail`).
    A name the GM has a campaign of already is told apart (`import_name`).

    A repeated request with the same ``request_key`` (the import form's) is the campaign the
    first one made, unread, as a second click on "Start a campaign" is (`campaign_made`).
    """
    if existing := campaign_made(request_key, gm):
        return existing
    c = Checker()
    table = ("engagements", "table_rolls")
    top = ("campaign", "forces", "maps", "story", "characters", "orders", *table, "battles")
    # Not in older exports:
    later = ("maps", "story", "characters", "orders", *table, "battles")
    if not check_header(c, data, CAMPAIGN_FORMAT, top, later) or not check_counts(c, data):
        raise ValidationError(c.errors)
    info = data["campaign"]
    keys = ("name", "ruleset", "day", "hour", "gm", *SETTINGS, "members", "invitations")
    later_keys = (*NEWER_SETTINGS, "hour", "invitations")  # not in older exports
    if not c.mapping("campaign", info, keys, optional=later_keys):
        raise ValidationError(c.errors)
    if check_text(c, "campaign.name", info["name"], NAME_LENGTH, empty=False):
        try:
            Campaign._meta.get_field("name").clean(info["name"], None)
        except ValidationError as error:
            c.error("campaign.name", "; ".join(error.messages))
    ruleset_ok = check_ruleset(c, "campaign.ruleset", info["ruleset"])
    day = _day(c, "campaign.day", info["day"])
    settings = check_settings(c, "campaign", info)
    named_gm = info["gm"] if isinstance(info["gm"], str) else ""
    if gm is None:
        gm = c.user("campaign.gm", info["gm"])
    elif not named_gm.strip() or len(named_gm) > USERNAME_LONGEST:
        c.error("campaign.gm", f"must be a username of 1..{USERNAME_LONGEST} characters")
    gm_name = gm.get_username() if gm is not None else named_gm  # c.user says what is wrong
    members = check_members(c, "campaign.members", info["members"], named_gm, look_up=keep_members)
    # Everyone but the new GM, with their user here (keep_members) and their role: the export's
    # GM, when someone else runs the campaign now, as a co-GM.
    people: dict[str, tuple[Any, str]] = {}
    if named_gm and named_gm != gm_name:
        user = c.user("campaign.gm", named_gm) if keep_members else None
        people[named_gm] = (user, Membership.Role.CO_GM)
    people.update({name: found for name, found in members.items() if name != gm_name})
    if keep_members and len(people) > MAX_MEMBERS_PER_CAMPAIGN:
        # The file's members fit (`check_members`), but its GM, who runs this copy no longer,
        # is one more.
        most = MAX_MEMBERS_PER_CAMPAIGN
        c.error("campaign.members", f"holds {len(people)} members with {named_gm}, the file's "
                f"GM, a co-GM here; a campaign holds at most {most}")  # fmt: skip
    playing = {gm_name} | {
        name for name, (_, role) in people.items() if role != Membership.Role.SPECTATOR
    }
    forces = []
    if not isinstance(data["forces"], list):
        c.error("forces", "must be a list")
    elif (
        not past_most(c, "forces", data["forces"], "forces", "a campaign", MAX_FORCES_PER_CAMPAIGN)
        and ruleset_ok
    ):
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
    told = check_story(c, "story", data.get("story", []), day=day)
    hour = info.get("hour", 0)
    if isinstance(hour, bool) or not isinstance(hour, int) or not 0 <= hour < HOURS_PER_DAY:
        c.error(
            "campaign.hour",
            f"must be a whole hour, 0..{HOURS_PER_DAY - 1}, got {value_shown(hour)}",
        )
    characters = check_characters(
        c, "characters", data.get("characters", []), day=day, players=playing, forces=forces
    )
    invitations = check_invitations(
        c, "campaign.invitations", info.get("invitations", []), gm_name=named_gm,
        named={named_gm, *members}, forces=forces, characters=characters,
    )  # fmt: skip
    clock_ok = type(hour) is int and 0 <= hour < HOURS_PER_DAY  # its day is checked above
    orders = check_orders(
        c, "orders", data.get("orders", []),
        characters={character["name"] for character in characters},
        units={(f["name"], u["state"].name) for f in forces for u in f["units"]},
        destroyed={(f["name"], u["state"].name) for f in forces for u in f["units"]
                   if u["state"].status == Status.DESTROYED},
        now=clock_hour(day, hour) if clock_ok else None,
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
    if not c.errors:
        check_refought(c, "battles", data.get("battles", []), most=refight_most)
    if c.errors:
        raise ValidationError(c.errors)

    made = Campaign(
        name=import_name(info["name"], gm),
        ruleset=info["ruleset"],
        day=day,
        hour=hour,
        gm=gm,
        request_key=request_key,
        **settings,
    )
    campaign = campaign_save_once(made)
    if campaign is not made:
        return campaign  # the same request, at the same moment, imported it first
    users = {gm_name: gm}
    held: dict[str, Invitation] = {}
    for name, (user, role) in people.items():
        if keep_members:
            Membership.objects.create(campaign=campaign, user=user, role=role)
            users[name] = user
        else:
            invitation = _invite(campaign, name, role, gm, site)
            if invitation is not None:
                held[name] = invitation
    # The file's invitations are sent again, each with a new link, holding what they held there:
    # their forces held by whoever runs the campaign now, their characters unplayed. One to
    # whoever imports, by any name it may carry (their username, their e-mail), is dropped, as
    # they run the campaign now; what it held is theirs at once, as accepting it would have
    # handed it over: its forces they hold anyway, its characters they play. Those characters
    # were the invitee's to play, not the GM's NPCs: their own, they stay with them should they
    # hand the campaign on (`campaign_hand_over` gives the new GM the NPCs).
    importer = set(invitee_keys(gm))
    forces_for: dict[str, str] = {}
    characters_for: dict[str, str] = {}
    for waiting in invitations:
        name = invitee_key(waiting["invitee"])
        forces_for |= dict.fromkeys(waiting["forces"], name)
        characters_for |= dict.fromkeys(waiting["characters"], name)
        invitation = (
            None if name in importer else _invite(campaign, name, waiting["role"], gm, site)
        )
        if invitation is not None:
            held[name] = invitation

    def player(character: dict[str, Any]) -> Any:
        """Who plays ``character``: whoever imports, if a dropped invitation to them held it;
        else whoever plays it in the file (nobody, for one another invitation holds)."""
        if characters_for.get(character["name"]) in importer:
            return gm
        return users.get(character["player"]) if character["player"] else None

    written = {
        character["name"]: Character.objects.create(
            campaign=campaign,
            name=character["name"],
            player=player(character),
            hit_points=character["hit_points"],
            max_hit_points=character["max_hit_points"],
            alive=character["alive"],
            feats=list(character["feats"]),
        )
        for character in characters
    }
    for character in characters:
        holder = held.get(characters_for.get(character["name"], character["player"]))
        if holder is not None:
            holder.characters.add(written[character["name"]])
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
    histories: list[list[HistoryEntry]] = []
    reverting: list[tuple[HistoryEntry, HistoryEntry]] = []
    for i, force in enumerate(forces):
        waits_for = forces_for.get(force["name"])
        # Held by the GM until its owner, or the invitee it waits for, accepts.
        owner = gm if waits_for else users.get(force["owner"], gm)
        made, written_units = _write_force(
            campaign, owner, force, pks, records, histories, reverting
        )
        holder = held.get(waits_for or force["owner"])
        if holder is not None:
            holder.forces.add(made)
        made_forces[made.name] = made
        for j, (unit, entries) in enumerate(written_units):
            units[made.name, unit.name] = unit
            by_key[f"forces[{i}].units[{j}]"] = unit
            for k, entry in enumerate(entries):
                entry_keys[f"forces[{i}].units[{j}].history[{k}]"] = entry
    _entries_write(histories, reverting)
    for character in characters:
        if character["leads"] is not None:
            leader = units[character["leads"]["force"], character["leads"]["unit"]].leader
            leader.character = written[character["name"]]
            leader.save()
    CharacterEntry.objects.bulk_create(
        [
            CharacterEntry(
                character=written[character["name"]],
                day=entry["day"],
                hour=entry["hour"],
                text=entry["text"],
                before=entry["before"],
                after=entry["after"],
                created_at=datetime.fromisoformat(entry["created_at"]),
            )
            for character in characters
            for entry in character["entries"]
        ],
        batch_size=WRITE_BATCH,
    )
    Order.objects.bulk_create(
        [
            Order(
                campaign=campaign,
                giver=written[order["giver"]],
                unit=units[order["force"], order["unit"]],
                **{key: order[key] for key in ORDER_VALUES},
            )
            for order in orders
        ],
        batch_size=WRITE_BATCH,
    )
    for saved in maps:
        SavedMap.objects.create(campaign=campaign, created_by=gm, **saved)
    StoryEntry.objects.bulk_create(
        StoryEntry(
            campaign=campaign, day=line["day"], kind=line["kind"], text=line["text"],
            created_at=datetime.fromisoformat(line["created_at"]),
        )
        for line in told
    )  # fmt: skip
    _write_records(campaign, engagements, rolls, by_key, entry_keys, written, made_forces)
    if records is not None:
        contest_entries_renamed(records["table_rolls"])  # an older export's contests
    _write_battles(campaign, battles, by_key, entry_keys)
    return campaign


def _by_role(named: list[tuple[str, str]]) -> str:
    """People with their roles, "alice and bob as players, carol as a spectator"."""
    groups = []
    for role, (one, many) in ROLE_WORDS.items():
        names = [name for name, theirs in named if theirs == role]
        if names:
            groups.append(f"{and_words(names)} as {one if len(names) == 1 else many}")
    return ", ".join(groups)


def _things(kind: str, names: list[str]) -> str:
    """ "their force A", "their characters B and C"."""
    return f"their {kind}{'s' if len(names) > 1 else ''} {and_words(names)}"


def _came_across(campaign: Campaign) -> list[str]:
    """What the import wrote, counted in the campaign's words, leaving out what it has none of:
    "2 forces", "14 units", "3 characters", "2 maps", "5 engagements", "4 battles"."""
    # Counted one by one: counted in one query, the joins would multiply every row by every other.
    counts = {
        "force": campaign.forces.count(),
        "unit": Unit.objects.filter(force__campaign=campaign).count(),
        "character": campaign.characters.count(),
        "map": campaign.maps.count(),
        "engagement": campaign.engagements.count(),
        "battle": campaign.battles.count(),
    }
    return [plural(count, word) for word, count in counts.items() if count]


def _people(named: list[tuple[str, str]], what: str) -> str:
    """People counted by role, "2 players and 1 spectator invited"."""
    counts = [(role, sum(theirs == role for _, theirs in named)) for role in ROLE_WORDS]
    said = [plural(count, ROLE_WORDS[role][1].removesuffix("s")) for role, count in counts if count]
    return f"{and_words(said)} {what}" if said else ""


def campaign_import_summary(*, campaign: Campaign, data: Any, you: bool = True) -> str:
    """What an import did, in sentences, for its success message: what came across, counted
    ("Imported Op. Test: 2 forces, 14 units, 1 map; 2 players invited."), why the campaign's
    name differs from the export's, who was invited in which role and what the GM holds for
    them, who was not invited (past the cap). ``you``: said to the GM, else naming them.

    Whether an account exists is not said, as "Invite a player" never says it: an invitation
    to a name nobody has here is sent all the same."""
    gm = campaign.gm.get_username()
    has, hold = ("you have", "you hold") if you else (f"{gm} has", f"{gm} holds")
    named = data["campaign"]["name"]
    members = list(campaign.memberships.select_related("user").order_by("user__username"))
    joined = [(m.user.get_username(), m.role) for m in members]
    invitations = list(with_holdings(campaign.invitations.order_by("created_at", "pk")))
    invited = [(invitation.invitee, invitation.role) for invitation in invitations]
    people = [_people(joined, "made members"), _people(invited, "invited")]
    came = ", ".join(_came_across(campaign))
    told = "; ".join(filter(None, [came, *people]))
    said = [f"Imported {campaign.name}{': ' + told if told else ''}."]
    if campaign.name != named:
        said.append(f"Its name tells it apart from {named}, which {has} already.")
    members = list(campaign.memberships.select_related("user").order_by("user__username"))
    if members:
        said.append(f"Members as in the file: {_by_role(joined)}.")
    if invitations:
        said.append(
            f"Each is invited in their role in the file: {_by_role(invited)}. If an account by "
            "that name exists, it has been invited; no one joins until they accept."
        )
    for invitation in invitations:
        forces = sorted(force.name for force in invitation.held)
        characters = sorted(character.name for character in invitation.unplayed)
        parts = [_things("force", forces)] if forces else []
        parts += [_things("character", characters)] if characters else []
        if parts:
            said.append(f"Until {invitation.invitee} accepts, {hold} {' and '.join(parts)}.")
    left = []
    if not members and len(invitations) >= MAX_PENDING_INVITATIONS:
        info = data["campaign"]
        keys = {invitation.invitee for invitation in invitations}
        people = [info["gm"], *(member["user"] for member in info["members"])]
        people += [waiting["invitee"] for waiting in info.get("invitations", [])]
        keys |= set(invitee_keys(campaign.gm))  # one to the GM is dropped, not left out
        left = [name for name in people if invitee_key(name) not in keys]
    if left:
        said.append(
            f"Not invited, since at most {MAX_PENDING_INVITATIONS} invitations wait at once: "
            f"{and_words(left)}; invite them from the campaign's page once some have answered."
        )
    return " ".join(said)


@transaction.atomic
def force_import(*, campaign: Campaign, data: Any, owner: Any = None, actor: Any = None) -> Force:
    """A force from an export into an existing campaign of the same ruleset.

    `owner` takes it over (by default the export's owner, who must play in the campaign).
    """
    require_manager(campaign, actor)
    campaign = locked(campaign)  # its day and its forces as stored, one count at a time
    if full := campaign_full(campaign, "force"):
        raise ValidationError(full)
    c = Checker()
    if not check_header(c, data, FORCE_FORMAT, ("ruleset", "force")):
        raise ValidationError(c.errors)
    if data["ruleset"] != campaign.ruleset:
        c.error(
            "ruleset", f"the force plays {given(data['ruleset'])}; the campaign, {campaign.ruleset}"
        )
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
