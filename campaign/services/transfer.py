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

from campaign.models import (
    Campaign,
    Character,
    CharacterEntry,
    Force,
    HistoryEntry,
    Membership,
    Order,
    SavedMap,
    Unit,
)
from campaign.rules.orders import HOURS_PER_DAY
from campaign.services._record import require_manager, unit_state_save
from campaign.transfer import (
    CAMPAIGN_FORMAT,
    FORCE_FORMAT,
    LARGEST_DAY,
    NEWER_SETTINGS,
    ORDER_VALUES,
    SETTINGS,
    Checker,
    check_characters,
    check_force,
    check_header,
    check_maps,
    check_members,
    check_orders,
    check_ruleset,
    check_settings,
)


def _day(c: Checker, path: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= LARGEST_DAY:
        c.error(path, f"must be a whole number, 1..{LARGEST_DAY}, got {value!r}")
        return 1
    return value


def _details_import(details: dict[str, Any], characters: dict[str, int]) -> dict[str, Any]:
    character = details.get("character")
    if isinstance(character, str) and character in characters:
        return {**details, "character": characters[character]}
    return details


def _write_force(
    campaign: Campaign,
    owner: Any,
    force_data: dict[str, Any],
    characters: dict[str, int] | None = None,
) -> Force:
    """Write a checked force; ``characters`` (name → new pk) numbers the characters its history
    names (an export names them: ids do not travel)."""
    characters = characters or {}
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
                    details=_details_import(entry.get("details", {}), characters),
                    reverts=None if reverts is None else written[reverts],
                    created_at=datetime.fromisoformat(created_at) if created_at else timezone.now(),
                )
            )
    return force


@transaction.atomic
def campaign_import(*, data: Any, gm: Any = None) -> Campaign:
    """A new campaign from an export; `gm` runs it (by default the export's GM, by username)."""
    c = Checker()
    top = ("campaign", "forces", "maps", "characters", "orders")
    if not check_header(c, data, CAMPAIGN_FORMAT, top, ("maps", "characters", "orders")):
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
    units: dict[tuple[str, str], Unit] = {}
    for force in forces:
        made = _write_force(campaign, users[force["owner"]], force, pks)
        units.update({(made.name, unit.name): unit for unit in made.units.all()})
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
    return campaign


@transaction.atomic
def force_import(*, campaign: Campaign, data: Any, owner: Any = None, actor: Any = None) -> Force:
    """A force from an export into an existing campaign of the same ruleset.

    `owner` takes it over (by default the export's owner, who must play in the campaign).
    """
    require_manager(campaign, actor)
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
    return _write_force(campaign, user, checked)
