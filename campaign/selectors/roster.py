"""Reads of the campaign's forces, units and characters as they stand: a roster and its
version, the campaign's day, the units held by a battle not yet applied, the Medical crews' work
of the day, and the units moved to another force.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection
from django.db.models import Exists, F, OuterRef, QuerySet

from campaign.models import (
    Campaign,
    CampaignBattle,
    Character,
    Force,
    HistoryEntry,
    Leader,
    Order,
    Unit,
)
from campaign.rules.orders import clock_hour
from campaign.rules.recovery import crews_left, medical_capacity
from campaign.rules.state import can_act
from campaign.selectors.entries import history_standing
from units.models import UnitType


def force_roster(*, force: Force) -> QuerySet[Unit]:
    """The force's units with what a roster line shows, in roster order."""
    return force.units.select_related("unit_type", "leader").order_by("id")


def campaign_now(campaign: Campaign) -> int:
    """The campaign clock's reading: hours since day 1, 00:00 (of the campaign as given)."""
    return clock_hour(campaign.day, campaign.hour)


def campaign_units(*, campaign: Campaign) -> QuerySet[Unit]:
    return (
        Unit.objects.filter(force__campaign=campaign)
        .select_related("force", "unit_type", "leader__character")
        .order_by("force__name", "id")
    )


@dataclass(frozen=True)
class CharacterLine:
    """One character of the campaign as its Characters page lists it: one of its own
    (`Character`), or a leader named with its unit only (no feats, no player)."""

    name: str
    player: Any
    """The member who plays it; None for an NPC."""
    hit_points: int
    max_hit_points: int | None
    """Full hit points; None for a leader named with its unit (never recorded)."""
    alive: bool
    feats: list[str]
    unit: Unit | None
    """The unit it leads, if any."""
    named_on_unit: bool = False
    """A leader named with its unit (when raised, or on its page), not one of the campaign's
    characters."""

    @property
    def dying(self) -> bool:
        """Alive but out cold (`state.can_act`): it leads, orders, trains, rallies and
        requisitions nothing until healed."""
        return self.alive and not can_act(self.hit_points)


def leader_most_hit_points(leader: Leader) -> int | None:
    """The most hit points a leader may have: its character's full hit points; None for a
    leader named with its unit (never recorded)."""
    return None if leader.character_id is None else leader.character.max_hit_points


def campaign_characters(*, campaign: Campaign) -> list[CharacterLine]:
    """Every character of the campaign by name: its own characters, each with the unit it leads,
    and the leaders named with a unit without being one of them (a leader is a d20
    character too, whichever way it took command)."""
    leaders = Leader.objects.filter(unit__force__campaign=campaign).select_related("unit__force")
    leading = {leader.character_id: leader.unit for leader in leaders if leader.character_id}
    lines = [
        CharacterLine(
            c.name,
            c.player,
            c.hit_points,
            c.max_hit_points,
            c.alive,
            list(c.feats),
            leading.get(c.pk),
        )
        for c in campaign.characters.select_related("player")
    ]
    lines += [
        CharacterLine(
            leader.name,
            None,
            leader.hit_points,
            None,
            leader.alive,
            [],
            leader.unit,
            named_on_unit=True,
        )
        for leader in leaders
        if leader.character_id is None
    ]
    return sorted(lines, key=lambda line: (line.name.casefold(), line.named_on_unit))


def units_joined(*, units: Iterable[Unit]) -> dict[int, int]:
    """The campaign day each unit joined it (its first "created" entry), by pk."""
    joined: dict[int, int] = {}
    entries = HistoryEntry.objects.filter(unit__in=list(units), kind=HistoryEntry.Kind.CREATED)
    for pk, day in entries.order_by("id").values_list("unit_id", "day"):
        joined.setdefault(pk, day)
    return joined


def engaged_battles(*, campaign: Campaign) -> dict[int, CampaignBattle]:
    """Units in a battle whose outcome is not applied yet (being fought, or awaiting the GM's
    review), each with that battle: until it is, the unit stands as it went in, and its card
    for another battle would be the one from before this battle."""
    unsettled = CampaignBattle.objects.filter(
        campaign=campaign,
        state__in=CampaignBattle.UNSETTLED,
    ).only("campaign_id", "name", "day", "sides", "state")
    return {pk: battle for battle in unsettled for pks in battle.sides.values() for pk in pks}


def engaged_units(*, campaign: Campaign) -> dict[int, str]:
    """`engaged_battles`, each unit with its battle's name."""
    return {pk: battle.name for pk, battle in engaged_battles(campaign=campaign).items()}


@dataclass(frozen=True)
class MedicsWorked:
    """The Medical crews' work of a campaign day, as its medical entries still standing
    (`history_standing`) hold it: work reverted since was never done."""

    crews: dict[int, int]
    """Hits each crew healed, by its pk: its own, whichever force it worked in and whichever
    unit it treated (an entry's ``crews``, written by `medical_apply`)."""
    unnamed: dict[int, int]
    """Hits healed in entries that name no crew (written before entries named them, or
    imported: unit ids do not travel), by the force the unit treated is in now."""

    def left(self, force_id: int, units: Iterable[Unit]) -> dict[int, int]:
        """What each of the force's crews (among ``units``, the force's now) may still heal
        today, by pk (`recovery.crews_left`)."""
        capacity = {unit.pk: medical_capacity(unit.state) for unit in units}
        return crews_left(capacity, self.crews, self.unnamed.get(force_id, 0))


def medics_worked(force_ids: Collection[int], day: int | None = None) -> MedicsWorked:
    """The Medical crews' work today in the campaigns of the forces among ``force_ids`` (each on
    its campaign's day; ``day``: that one instead), in one query. A crew's capacity is for the
    whole day (``campaign.services.recovery.medical_apply``), and goes with it to another
    force: the work is read by crew, not by the force of the unit treated."""
    worked = history_standing().filter(
        kind=HistoryEntry.Kind.MEDICAL,
        unit__force__campaign_id__in=Force.objects.filter(pk__in=force_ids).values("campaign_id"),
        day=F("unit__force__campaign__day") if day is None else day,
    )
    crews: dict[int, int] = {}
    unnamed: dict[int, int] = {}
    for force_id, details in worked.values_list("unit__force_id", "details"):
        named = details.get("crews")
        if isinstance(named, dict):
            for pk, hits in named.items():
                crews[int(pk)] = crews.get(int(pk), 0) + hits
        else:
            unnamed[force_id] = unnamed.get(force_id, 0) + _healed(details)
    return MedicsWorked(crews=crews, unnamed=unnamed)


def standing_moves() -> QuerySet[HistoryEntry]:
    """Moves of a unit to another force that still stand and keep their forces
    (`HistoryEntry.moved`): one undone moved nothing, and an imported one keeps no forces."""
    return history_standing().filter(kind=HistoryEntry.Kind.GM_EDIT, details__has_key="moved")


def with_moved(units: QuerySet[Unit]) -> QuerySet[Unit]:
    """``units``, each knowing whether it has moved to another force (``moved``: a standing
    move, `standing_moves`), so that only the units that have are asked where they were
    (`forces_then`)."""
    return units.annotate(moved=Exists(standing_moves().filter(unit=OuterRef("pk"))))


def forces_then(since: Iterable[tuple[int, datetime]]) -> dict[tuple[int, datetime], Force]:
    """The force each unit was in at a moment, by (unit pk, moment) as ``since`` gives them,
    for the units moved to another force after it: the force the first standing move after it
    left (`standing_moves`), with its owner. A unit not moved since is in its force still, and
    not given. One query, and one more for the forces when a unit has moved."""
    asked = set(since)
    if not asked:
        return {}
    moves: dict[int, list[tuple[datetime, int]]] = {}
    found = standing_moves().filter(unit_id__in={pk for pk, _ in asked}).order_by("pk")
    for unit_id, at, details in found.values_list("unit_id", "created_at", "details"):
        left = details["moved"].get("from")
        if isinstance(left, int):
            moves.setdefault(unit_id, []).append((at, left))
    then = {}
    for pk, when in asked:
        if (left := next((f for at, f in moves.get(pk, ()) if at > when), None)) is not None:
            then[pk, when] = left
    forces = Force.objects.select_related("owner").in_bulk(set(then.values()))
    return {key: forces[force] for key, force in then.items() if force in forces}


def _healed(details: dict[str, Any]) -> int:
    """Hits one medical entry healed: Casualty hits saved and Morale hits healed."""
    return details.get("saved", 0) + details.get("morale_saved", 0)


def campaign_battle_units(*, campaign_battle: CampaignBattle) -> dict[int, Unit]:
    """The persistent units that fought in the battle, by pk, with their forces, owners and cards,
    each knowing whether it has moved to another force since (`with_moved`)."""
    pks = [pk for side in campaign_battle.sides.values() for pk in side]
    units = with_moved(Unit.objects.filter(pk__in=pks).select_related("force__owner", "unit_type"))
    return {u.pk: u for u in units}


def campaign_battle_of(*, battle_id: int) -> CampaignBattle | None:
    """The campaign battle an engine battle was fought for, if any."""
    return CampaignBattle.objects.select_related("campaign").filter(battle_id=battle_id).first()


def roster_version(force: Force) -> tuple:
    """What the force's roster page is drawn from beyond the campaign and force rows: the sums
    of the version tokens of its units (a leader's change moves its unit's), of their cards,
    and of the library cards of the campaign's ruleset (a GM's add-unit form offers them); and
    of its units' Orders with their givers (each Order's line names the character who gave it);
    and the campaign's battles whose outcome is not applied yet, by their state (a unit's line
    names the one it is in, `engaged_battles`).

    Every save gives a row a new random token (``units.models.Versioned``), so the sums change
    with any saved change, a unit, card or Order added or removed, a card reloaded or a
    character renamed. One fixed SQL statement: the roster is the page read most, and the ORM
    takes longer to build this aggregate than the database takes to answer it.
    """
    with connection.cursor() as cursor:
        fighting, awaiting = CampaignBattle.UNSETTLED
        unsettled = [force.campaign_id, fighting, force.campaign_id, fighting]
        unsettled += [force.campaign_id, awaiting]
        cursor.execute(
            _ROSTER_VERSION_SQL,
            [force.campaign.ruleset, force.pk, force.pk, *unsettled, force.pk],
        )
        return tuple(cursor.fetchone())


_ROSTER_VERSION_SQL = f"""
    SELECT COUNT(u.id), SUM(u.version), SUM(t.version),
           (SELECT SUM(version) FROM {UnitType._meta.db_table} WHERE ruleset = %s),
           (SELECT SUM(o.version) FROM {Order._meta.db_table} o
            JOIN {Unit._meta.db_table} ou ON ou.id = o.unit_id WHERE ou.force_id = %s),
           (SELECT SUM(version) FROM {Character._meta.db_table} WHERE id IN (
               SELECT o.giver_id FROM {Order._meta.db_table} o
               JOIN {Unit._meta.db_table} ou ON ou.id = o.unit_id WHERE ou.force_id = %s)),
           (SELECT COUNT(id) FROM {CampaignBattle._meta.db_table}
            WHERE campaign_id = %s AND state = %s),
           (SELECT SUM(id) FROM {CampaignBattle._meta.db_table}
            WHERE campaign_id = %s AND state = %s),
           (SELECT SUM(id) FROM {CampaignBattle._meta.db_table}
            WHERE campaign_id = %s AND state = %s)
    FROM {Unit._meta.db_table} u JOIN {UnitType._meta.db_table} t ON t.id = u.unit_type_id
    WHERE u.force_id = %s
"""
