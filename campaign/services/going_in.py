"""The cards a campaign's units take into a battle: one printing for every path that needs one.

A unit's card depends on its Orders (`bridge.battle_order`): a character's Order under way at
the battle's hour, the set-up's standing Order, a Legendary unit's command on its side, or
none. The engine's set-up, a table result's check, an outcome applied without its cards and a
battle's print sheet all print it here (`units_going_in`), so all print the same card for a
unit at an hour.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from campaign.models import Campaign, Force, Leader, Status, Unit
from campaign.pages.roster import RosterLine, printed_lines, roster_line, sorted_lines
from campaign.rules.bridge import (
    BattleOrder,
    GoingIn,
    SideUnit,
    battle_order,
    card_for,
    card_needs,
    legendary_orders,
    unit_effective_quality,
    unit_going_in,
)
from campaign.rules.state import can_act, ordered_specialties
from campaign.selectors.roster import campaign_now, force_roster
from campaign.services.orders import character_order, orders_under_way
from units.bucs import Equipment


@dataclass(frozen=True)
class GoingInto:
    """How one unit goes into a battle: its Orders, its Skill's working and its card."""

    orders: BattleOrder
    going: GoingIn
    card: dict[str, Any]


def led_units(units: Sequence[Unit]) -> set[int]:
    """The pks of those units a character leads, as stored now: one neither dying nor dead
    (`state.can_act`; a dying leader leads nobody until healed)."""
    rows = Leader.objects.filter(unit__in=units, alive=True).values_list("unit_id", "hit_points")
    return {unit for unit, hit_points in rows if can_act(hit_points)}


def deployment_order(
    unit: Unit, standing: dict[str, Any] | None, under_way: Mapping[int, Any], *, led: bool
) -> BattleOrder:
    """How the unit's Orders go into the battle: the bridge's rules on the unit as it stands."""
    return battle_order(
        effective=unit_effective_quality(unit),
        equipment=Equipment(unit.equipment),
        specialties=ordered_specialties(unit.specialties),
        standing=standing,
        character_order=character_order(under_way.get(unit.pk)),
        led=led,
        needed=card_needs(unit.unit_type),
    )


def units_going_in(
    campaign: Campaign,
    sides: Mapping[Any, Sequence[Unit]],
    *,
    at: int,
    standing: Mapping[int, dict[str, Any] | None] | None = None,
) -> dict[int, GoingInto]:
    """Each unit (by pk, every one ready) going into a battle at clock hour ``at``.

    ``sides`` lists each side's units in the set-up's order (Legendary command goes by it);
    ``standing`` gives a unit the set-up's standing Order (None: "No Order"). A unit not in it,
    as every unit of a table battle, has only a character's Order under way at ``at``, if any.
    """
    units = [unit for members in sides.values() for unit in members]
    under_way = orders_under_way(campaign, units, at=at)
    led = led_units(units)
    standing = standing or {}
    going: dict[int, GoingInto] = {}
    for members in sides.values():
        own = [
            SideUnit(
                str(unit.pk),
                unit.name,
                unit_effective_quality(unit),
                unit.pk in led,
                deployment_order(unit, standing.get(unit.pk), under_way, led=unit.pk in led),
            )
            for unit in members
        ]
        # Legendary command is settled side by side, once every unit's own Orders are known.
        commanded = legendary_orders(own)
        for unit in members:
            going[unit.pk] = unit_going_into(unit, commanded[str(unit.pk)])
    return going


def unit_going_into(unit: Unit, ordered: BattleOrder) -> GoingInto:
    """The unit's card under ``ordered``: the quality and kit it fights its Orders with."""
    going = unit_going_in(
        unit,
        under_orders=ordered.under_orders,
        quality=ordered.quality,
        equipment=ordered.equipment,
    )
    return GoingInto(ordered, going, card_for(unit.unit_type.card, going))


def table_going_into(campaign: Campaign, units: Sequence[Unit], *, at: int) -> dict[int, GoingInto]:
    """unit pk → how each ready unit of ``units`` goes into a battle fought at a real table at
    clock hour ``at``, as the table result form judges it (`battles._table_going_in`): no
    set-up gives a standing Order there, so a unit without a character's Order under way
    fights with the without-Orders column. Each force's units go in together on one side, so
    a Legendary unit among them commands as it would there."""
    sides: dict[int, list[Unit]] = {}
    for unit in units:
        if unit.status == Status.READY:
            sides.setdefault(unit.force_id, []).append(unit)
    return units_going_in(campaign, sides, at=at)


def table_cards(campaign: Campaign, units: Sequence[Unit], *, at: int) -> dict[int, dict[str, Any]]:
    """unit pk → the card each ready unit of ``units`` takes into a battle fought at a real
    table at clock hour ``at`` (`table_going_into`)."""
    return {pk: going.card for pk, going in table_going_into(campaign, units, at=at).items()}


def printed_line(campaign: Campaign, unit: Unit, now: int) -> RosterLine:
    """The unit's roster line at clock hour ``now`` with the card its printable card prints,
    as a battle at a real table judges it (`table_going_into`, beside its force's other units, for
    Legendary command), the engine's kept beside it (`pages.roster.printed_lines`). A unit out of
    action has no card: its force is not read."""
    line = roster_line(unit, now)
    if line.card is None:
        return line
    (line,) = printed_lines(
        [line], table_going_into(campaign, list(force_roster(force=unit.force)), at=now)
    )
    return line


def printed_roster(force: Force, *, sort: str = "name") -> list[RosterLine]:
    """The force's roster lines with the cards their printable cards print, the engine's beside
    them (`printed_lines`), as each unit's page shows them; sorted by a column of
    ``pages.roster.SORTS`` (`sorted_lines`), its Skill the printed one."""
    now = campaign_now(force.campaign)
    lines = [roster_line(unit, now) for unit in force_roster(force=force)]
    goings = table_going_into(force.campaign, [line.unit for line in lines], at=now)
    return sorted_lines(printed_lines(lines, goings), sort)
