"""Reads for setting up a battle or recording one fought at the table: the units free to fight,
listed whole or, past `LIST_EVERY_UNIT` of them, a page at a time; the units chosen; and the
campaign unit each of a launched battle's engine units fought as.
"""

from __future__ import annotations

import uuid
from collections import Counter
from dataclasses import dataclass
from typing import Any

from django.db.models import Count

from campaign.keys import key_named
from campaign.models import Campaign, CampaignBattle, Force, Unit
from campaign.rules.state import Status
from campaign.selectors.roster import engaged_units


@dataclass(frozen=True)
class UnitsToFight:
    """The campaign's units as a battle's set-up or table result sees them, by force and name."""

    free: list[Unit]
    """Ready, and in no battle whose outcome is not applied: the units offered."""
    engaged: list[tuple[Unit, str]]
    """Ready but held back, still in a battle whose outcome is not applied (`engaged_units`),
    each with that battle's name."""
    out_of_action: list[Unit]
    """Not ready (`Status.fights`): retreated in poor order, or destroyed."""


def units_to_fight(*, campaign: Campaign) -> UnitsToFight:
    """Which of the campaign's units a battle may be set up or recorded with, and which not."""
    in_battle = engaged_units(campaign=campaign)
    units = list(
        Unit.objects.filter(force__campaign=campaign)
        .select_related("force", "unit_type", "leader")
        .order_by("force__name", "name")
    )
    ready = [unit for unit in units if Status(unit.status).fights]
    return UnitsToFight(
        free=[unit for unit in ready if unit.pk not in in_battle],
        engaged=[(unit, in_battle[unit.pk]) for unit in ready if unit.pk in in_battle],
        out_of_action=[unit for unit in units if not Status(unit.status).fights],
    )


LIST_EVERY_UNIT = 200
"""A battle's forms list every unit free to fight, a row each, up to this many; a campaign with
more lists them a page at a time (`units_page`), by force and name."""
UNITS_A_PAGE = 50
CHOSEN_AT_MOST = 200
"""Units put on a side that a paged form reads back: more than any scenario fields (40 a side)."""
FIGHTING = [status.value for status in Status if status.fights]


def lists_every_unit(*, campaign: Campaign) -> bool:
    """Whether a battle's forms list every unit ready to fight (held back or not), a row each:
    up to `LIST_EVERY_UNIT` of them; else a page at a time (`units_page`)."""
    return ready_count(campaign=campaign) <= LIST_EVERY_UNIT


def ready_count(*, campaign: Campaign) -> int:
    """How many of the campaign's units are ready to fight (held back or not)."""
    return Unit.objects.filter(force__campaign=campaign, status__in=FIGHTING).count()


@dataclass(frozen=True)
class UnitsPage:
    """A page of the units free to fight, for a campaign with more than `LIST_EVERY_UNIT` of
    them: the page the GM asked for (by force, name and number), and the units already put on
    a side on other pages, which the form carries along so that no choice is dropped."""

    shown: list[Unit]
    chosen: list[Unit]
    """Free units put on a side (``side_<pk>`` in the form's data) not on the page shown."""
    forces: list[Force]
    force: Force | None
    """The force whose units are shown; None: every force's."""
    search: str
    number: int
    pages: int
    count: int
    """Free units matching the force and the search, on every page."""
    engaged: list[tuple[Unit, str]]
    """Units the form's data put on a side that are held back in a battle, with its name."""
    held_back: list[tuple[str, int]]
    """Each battle whose outcome is not applied, with how many units it holds back."""
    refused: list[Unit]
    """Units put on a side in the form's data that are no longer ready to fight."""
    out_of_action: list[tuple[Force, list[tuple[str, int]]]]
    """Each force with units out of action: (status label, how many) by status."""
    too_many: int = 0
    """`CHOSEN_AT_MOST` when the form's data put more units than that on a side (only that
    many are read); else 0."""
    unfit: UnitsToFight | None = None
    """The units of each force with units but none free to fight: out of action, or held back
    in a battle (`units_offered` says why, as a small campaign's form does)."""

    @property
    def units(self) -> list[Unit]:
        """Every unit the form has fields for: those chosen on other pages first."""
        return [*self.chosen, *self.shown]

    @property
    def first(self) -> int:
        return (self.number - 1) * UNITS_A_PAGE + 1 if self.shown else 0

    @property
    def last(self) -> int:
        return (self.number - 1) * UNITS_A_PAGE + len(self.shown)

    @property
    def earlier(self) -> int | None:
        return self.number - 1 if self.number > 1 else None

    @property
    def later(self) -> int | None:
        return self.number + 1 if self.number < self.pages else None


def chosen_pks(data: Any) -> list[int]:
    """The units a set-up form's data puts on a side (``side_<pk>`` not blank), in order."""
    found = []
    for key in data or ():
        if key.startswith("side_") and (pk := key_named(key[5:])) is not None and data.get(key):
            found.append(pk)
    return found


def units_page(
    *, campaign: Campaign, data: Any = None, force: str = "", search: str = "", page: Any = 1
) -> UnitsPage:
    """The page of the campaign's free units a paged set-up shows, and what its ``data`` (the
    form as sent) already put on a side: a few bounded queries whatever the campaign's size."""
    in_battle = engaged_units(campaign=campaign)
    forces = list(Force.objects.filter(campaign=campaign).order_by("name", "pk"))
    shown_force = next((f for f in forces if str(f.pk) == str(force)), None)
    search = (search or "").strip()[:100]
    free = Unit.objects.filter(force__campaign=campaign, status__in=FIGHTING).exclude(
        pk__in=list(in_battle)
    )
    if shown_force is not None:
        free = free.filter(force=shown_force)
    if search:
        free = free.filter(name__icontains=search)
    count = free.count()
    pages = max(1, -(-count // UNITS_A_PAGE))
    try:
        number = min(max(1, int(page)), pages)
    except (TypeError, ValueError):
        number = 1
    start = (number - 1) * UNITS_A_PAGE
    # The leader's character too: its hit points are said out of its full ones.
    related = ("force", "unit_type", "leader__character")
    shown = list(
        free.select_related(*related).order_by("force__name", "name", "pk")[
            start : start + UNITS_A_PAGE
        ]
    )
    on_page = {unit.pk for unit in shown}
    asked = chosen_pks(data)
    too_many = CHOSEN_AT_MOST if len(asked) > CHOSEN_AT_MOST else 0
    wanted = [pk for pk in asked[:CHOSEN_AT_MOST] if pk not in on_page]
    held = [pk for pk in asked[:CHOSEN_AT_MOST] if pk in in_battle]
    found = Unit.objects.filter(force__campaign=campaign, pk__in=[*wanted, *held])
    found = found.select_related(*related).in_bulk()
    chosen = [
        found[pk]
        for pk in wanted
        if pk in found and Status(found[pk].status).fights and pk not in in_battle
    ]
    refused = [found[pk] for pk in wanted if pk in found and not Status(found[pk].status).fights]
    engaged = [(found[pk], in_battle[pk]) for pk in held if Status(found[pk].status).fights]
    return UnitsPage(
        shown=shown,
        chosen=chosen,
        forces=forces,
        force=shown_force,
        search=search,
        number=number,
        pages=pages,
        count=count,
        engaged=engaged,
        held_back=list(Counter(in_battle.values()).items()),
        refused=refused,
        out_of_action=out_of_action_counts(campaign=campaign, forces=forces),
        too_many=too_many,
        unfit=_unfit_forces_units(campaign, forces, in_battle),
    )


def _unfit_forces_units(
    campaign: Campaign, forces: list[Force], in_battle: dict[int, str]
) -> UnitsToFight:
    """The units of the forces with none free to fight (`UnitsPage.unfit`): two queries
    whatever the campaign's size, the second reading only those forces' units."""
    free = Unit.objects.filter(force__campaign=campaign, status__in=FIGHTING).exclude(
        pk__in=list(in_battle)
    )
    fit = set(free.order_by().values_list("force_id", flat=True).distinct())
    units = list(
        Unit.objects.filter(force__in=[force for force in forces if force.pk not in fit])
        .select_related("force")
        .order_by("force__name", "name")
    )
    ready = [unit for unit in units if Status(unit.status).fights]
    return UnitsToFight(
        free=[],
        engaged=[(unit, in_battle[unit.pk]) for unit in ready if unit.pk in in_battle],
        out_of_action=[unit for unit in units if not Status(unit.status).fights],
    )


def out_of_action_counts(
    *, campaign: Campaign, forces: list[Force] | None = None
) -> list[tuple[Force, list[tuple[str, int]]]]:
    """Each force with units out of action, by name: (status label, how many) by status."""
    by_force: dict[int, list[tuple[str, int]]] = {}
    counted = (
        Unit.objects.filter(force__campaign=campaign)
        .exclude(status__in=FIGHTING)
        .values_list("force_id", "status")
        .annotate(n=Count("pk"))
        .order_by("force_id", "status")
    )
    for force_id, status, n in counted:
        by_force.setdefault(force_id, []).append((Status(status).label, n))
    if forces is None:
        forces = list(Force.objects.filter(pk__in=by_force).order_by("name", "pk"))
    return [(force, by_force[force.pk]) for force in forces if force.pk in by_force]


def campaign_battle_launched(
    *, campaign: Campaign, user: Any, request_key: uuid.UUID | str | None
) -> CampaignBattle | None:
    """The battle ``user`` launched with this request key (a set-up form's), if any."""
    if request_key is None:
        return None
    try:
        key = uuid.UUID(str(request_key))
    except ValueError:
        return None
    return CampaignBattle.objects.filter(
        campaign=campaign, battle__request_key=key, battle__created_by=user
    ).first()


def engine_units_fought(*, campaign_battle: CampaignBattle) -> dict[str, Unit]:
    """Engine unit id → the campaign unit that fought as it (with its force), if it still
    exists."""
    pks = campaign_battle.engine_units or {}
    units = Unit.objects.filter(pk__in=pks.values()).select_related("force").in_bulk()
    return {engine_id: units[pk] for engine_id, pk in pks.items() if pk in units}
