"""A battle's sides: their names, their order, their colours and who won."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.text import capfirst

from battles.engine.geometry import Polygon
from campaign.models import CampaignBattle, Engagement, Force, Unit
from campaign.rules.damage import TableResult
from campaign.rules.engagement import SIDES
from campaign.selectors.roster import forces_then, with_moved


def battle_winner(campaign_battle: CampaignBattle) -> str | None:
    """The winning side's id, from the table result or the engine's; None for a draw or
    while the battle is still being fought."""
    if campaign_battle.table_result is not None:
        return TableResult.from_dict(campaign_battle.table_result).winner
    result = None if campaign_battle.battle is None else campaign_battle.battle.outcome
    return None if result is None else result.winner


def side_force_names(
    records: Iterable[tuple[int, Mapping[str, Iterable[int]], datetime]],
) -> dict[int, dict[str, str]]:
    """Each record's sides (unit pks by side id, as a battle or an engagement keeps them, and
    when it was set up) named by the forces their units fought for: "Blue Battalion", or "Red
    Company and Blue Battalion" where a side mixes forces; "" for a side none of whose units is
    left. A unit moved to another force since fought for the one it left (`forces_then`). By
    the record's key, from one query for all the records, and two more when a unit has moved."""
    sides = {key: ({side: list(pks) for side, pks in by_side.items()}, at)
             for key, by_side, at in records}  # fmt: skip
    pks = {pk for by_side, _ in sides.values() for side_pks in by_side.values() for pk in side_pks}
    found = list(
        with_moved(Unit.objects.filter(pk__in=pks)).values_list("pk", "force__name", "moved")
    )
    forces = {pk: name for pk, name, _ in found}
    movers = {pk for pk, _, moved in found if moved}
    then = forces_then(
        (pk, at) for by_side, at in sides.values() for side_pks in by_side.values()
        for pk in side_pks if pk in movers
    )  # fmt: skip

    def fought_for(pk: int, at: datetime) -> str:
        return then[pk, at].name if (pk, at) in then else forces[pk]

    return {
        key: {
            side: " and ".join(dict.fromkeys(fought_for(pk, at) for pk in pks if pk in forces))
            for side, pks in by_side.items()
        }
        for key, (by_side, at) in sides.items()
    }


def battles_side_names(battles: list[CampaignBattle]) -> dict[int, dict[str, str]]:
    """Each battle's sides as players call them, by campaign battle pk: the forces on each
    ("Blue Battalion"), or the side's own id when none of its units is left to name, in the
    order its page gives them (`side_order`; ``battles`` as `battles_listed` reads them). One
    query for all the battles."""
    named = side_force_names([(cb.pk, cb.sides, cb.created_at) for cb in battles])
    first = {cb.pk: cb.first_side for cb in battles}
    return {pk: {side: by_side[side] or side for side in side_order(by_side, first[pk])}
            for pk, by_side in named.items()}  # fmt: skip


def side_order(sides: Iterable[str], first: str | None = None) -> list[str]:
    """A battle's side ids in the order its page and every list of battles give them: the side
    its scenario lists first (``first``, an engine battle's; the report's colours follow the
    scenario's order, and a scenario has two sides), then the rest by id; a battle at the
    table's all by id. Not as stored: PostgreSQL's jsonb hands keys back shortest first,
    SQLite as written."""
    return sorted(sides, key=lambda side: (side != first, side))


def winner_names(battles: list[CampaignBattle]) -> dict[int, str | None]:
    """Each battle's winner as players call it (`battles_side_names`), by campaign battle pk:
    None for a draw or a battle still being fought. One query for all the battles."""
    sides = battles_side_names(battles)
    return {cb.pk: sides[cb.pk].get(won, won) if (won := battle_winner(cb)) else None
            for cb in battles}  # fmt: skip


def engagement_sides(engagements: Iterable[Engagement]) -> dict[int, dict[str, str]]:
    """Each engagement's two sides as the table calls them, by engagement pk: the forces of
    the side's units ("Red Company"), or "the attackers" / "the defenders" only when none of
    them is left to name. One query for all the engagements."""
    engagements = list(engagements)
    named = side_force_names([(e.pk, e.setup.get("sides", {}), e.created_at) for e in engagements])
    return {e.pk: {side: named[e.pk].get(side) or f"the {side}" for side in SIDES}
            for e in engagements}  # fmt: skip


FORCE_COLOURS = {
    "blue": "#1f5fa8",
    "red": "#b3261e",
    "green": "#2e7d32",
    "black": "#3a3a3a",
    "grey": "#6b6b6b",
    "gray": "#6b6b6b",
    "gold": "#9a7400",
    "yellow": "#9a7400",
    "orange": "#c0560f",
    "purple": "#6a3d9a",
    "brown": "#7b4a22",
    "white": "#7d8790",
}
"""A force whose name says a colour wears it (Blue Battalion is blue)."""
PALETTE = ("#1f5fa8", "#b3261e", "#2e7d32", "#6a3d9a", "#c0560f", "#7b4a22", "#3a3a3a")
"""The rest take one in the order they were raised (the first two are the sides' own)."""


def name_colour(name: str) -> str | None:
    """The colour a name says ("Blue Battalion", "Red Force"), or None."""
    for word in name.lower().replace("-", " ").split():
        if word in FORCE_COLOURS:
            return FORCE_COLOURS[word]
    return None


def force_colours(forces: Iterable[tuple[int, str]]) -> dict[int, str]:
    """Each of a campaign's forces' colour by pk, from its forces as (pk, name): no two wear one
    while the palette lasts, so two sides never look alike. A force whose name says a colour
    wears it (of two that say one, the one raised first); the rest, in the order they were
    raised, the palette's colours no force wears yet."""
    forces = sorted(forces)
    colours: dict[int, str] = {}
    for pk, name in forces:
        said = name_colour(name)
        if said and said not in colours.values():
            colours[pk] = said
    free = [c for c in PALETTE if c not in colours.values()] or list(PALETTE)
    rest = [pk for pk, _ in forces if pk not in colours]
    colours |= {pk: free[i % len(free)] for i, pk in enumerate(rest)}
    return colours


def campaign_force_colours(campaign_id: int) -> dict[int, str]:
    """The colours of a campaign's forces (`force_colours`), by pk, in one query."""
    return force_colours(Force.objects.filter(campaign_id=campaign_id).values_list("pk", "name"))


def force_colour(force: Force) -> str:
    """The one colour a force keeps on every page, map and chart (`force_colours`): one query;
    a page drawing many forces reads `campaign_force_colours` once instead."""
    return campaign_force_colours(force.campaign_id)[force.pk]


@dataclass(frozen=True)
class BattleSide:
    """One side of a campaign battle as its players know it: the forces that fought on it."""

    id: str
    name: str
    """Its forces' names ("Blue Battalion", or "Red Company and Blue Battalion")."""
    players: str
    colour: str
    units: list[Unit]


def battle_sides(
    campaign_battle: CampaignBattle,
    units: dict[int, Unit],
    scenario_sides: Iterable[Mapping[str, Any]] = (),
    fought_for: Mapping[int, Force] | None = None,
    colours: Mapping[int, str] | None = None,
) -> list[BattleSide]:
    """Each side of the battle named by the forces its units fought for (`scenario_side_names`),
    in the order every list of battles gives them (`side_order`): ``scenario_sides`` are an
    engine battle's scenario's, in its order; ``fought_for`` the force each unit moved to
    another since fought for, by pk (`moved_since`); ``colours`` the campaign's forces' colours
    (`campaign_force_colours`), read here when not given."""
    scenario = {s.get("id"): s for s in scenario_sides}
    ids = side_order(campaign_battle.sides, next(iter(scenario), None))
    fought = {s: [units[pk] for pk in campaign_battle.sides[s] if pk in units] for s in ids}
    then = fought_for or {}
    forces = {
        side: list({f.pk: f for f in (then.get(u.pk, u.force) for u in us)}.values())
        for side, us in fought.items()
    }
    names = scenario_side_names([scenario.get(s, {"id": s}) for s in ids], forces)
    if colours is None:
        colours = campaign_force_colours(campaign_battle.campaign_id)
    sides = []
    for side in ids:
        sides.append(
            BattleSide(
                id=side,
                name=names[side],
                players=", ".join(sorted({f.owner.get_username() for f in forces[side]})),
                colour=colours.get(forces[side][0].pk, "") if forces[side] else "",
                units=fought[side],
            )
        )
    return sides


def paradropped(campaign_battle: CampaignBattle, units: Iterable[Unit]) -> list[str]:
    """A sentence for each of ``units`` (in their order) that went into the engine's battle by
    paradrop and stood outside its side's deployment zone: where the replay shows it starting,
    and why it could."""
    scenario = {} if campaign_battle.battle is None else campaign_battle.battle.scenario
    dropped: set[int] = set()
    for side in scenario.get("sides", []):
        if not side.get("zone"):
            continue  # no zone: every unit deploys anywhere, dropped or not
        inside = Polygon(tuple(map(tuple, side["zone"]))).contains
        for placed in side.get("units", []):
            if placed.get("paradrop") and not inside(tuple(placed["position"])):
                dropped.add(campaign_battle.engine_units.get(placed["id"]))
    return [
        f"{unit.name} ({unit.force.name}), Airborne, went in by paradrop, outside its side's "
        "deployment zone."
        for unit in units
        if unit.pk in dropped
    ]


def moved_since(
    battles: Iterable[tuple[CampaignBattle, Iterable[Unit]]],
) -> dict[int, dict[int, Force]]:
    """The force each unit of each battle fought for, by battle pk then unit pk, for the units
    moved to another force since the battle was set up (`forces_then`; the units read
    `with_moved`, so that those never moved cost nothing)."""
    battles = [(cb, list(units)) for cb, units in battles]
    then = forces_then((u.pk, cb.created_at) for cb, units in battles for u in units if u.moved)
    return {
        cb.pk: {u.pk: then[u.pk, cb.created_at] for u in units if (u.pk, cb.created_at) in then}
        for cb, units in battles
    }


def side_name(forces: Iterable[Force]) -> str:
    """A battle's side as its pages call it: by the forces its units come from ("Blue
    Battalion", "Red Company and Green Platoon"), each once; "" when it has none."""
    return " and ".join({f.pk: f.name for f in forces}.values())


SIDE_PLACES = ("first", "second", "third", "fourth")


def side_place(index: int) -> str:
    """A side by its place in the scenario, for a side no force stands on: "the second side"."""
    place = SIDE_PLACES[index] if index < len(SIDE_PLACES) else f"number {index + 1}"
    return f"the {place} side"


def table_side_name(typed: str, forces: Iterable[Force], index: int) -> str:
    """A side of a table result as its form's choices name it (which side a unit is on, who
    won): the name the GM gave it (``typed``), else the force its units chosen so far come from
    when they come from one (`side_name`, as the battle's page will name it), else its place
    ("First side", `side_place`). The form's script names them alike as the GM types and
    chooses (campaign/static/campaign/table-sides.js)."""
    if typed := typed.strip():
        return typed
    one = {force.pk: force for force in forces}
    if len(one) == 1:
        return side_name(one.values())
    return capfirst(side_place(index).removeprefix("the "))


def scenario_side_names(
    sides: Iterable[Mapping[str, Any]], forces: Mapping[str, Iterable[Force]]
) -> dict[str, str]:
    """A scenario's sides (its ``sides``) as a campaign battle's pages call them, by side id:
    by the forces of the campaign's units on each (``forces``, by side id; `side_name`), and a
    side with none by its place ("the second side"): the scenario's own name for it ("Red
    Force") is no force's, and would read as one. Two sides the same forces would name keep the
    scenario's names beside them, so that each reads as a side of its own."""
    scenario = {side["id"]: str(side.get("name") or side["id"]) for side in sides}
    named = {
        side: side_name(forces.get(side, ())) or side_place(i) for i, side in enumerate(scenario)
    }
    twice = {name for name in named.values() if list(named.values()).count(name) > 1}
    return {
        side: f"{name} ({scenario[side]})" if name in twice and name != scenario[side] else name
        for side, name in named.items()
    }


def side_force_colours(firsts: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Each side's colour by its id, from (side, its first force's colour) in the sides' order,
    never one a side before it wears: a side whose force's colour is worn, or with no force,
    wears its default (the palette's first two, as the pages' ``--side-0`` and ``--side-1``),
    or, that worn too, the palette's first colour free."""
    colours: dict[str, str] = {}
    for index, (side, colour) in enumerate(firsts):
        worn = set(colours.values())
        chosen = (colour, PALETTE[index % len(PALETTE)], *PALETTE)
        colours[side] = next((c for c in chosen if c and c not in worn), chosen[1])
    return colours


def side_colours(sides: list[BattleSide]) -> str:
    """The page's side colours as CSS custom properties (``--side-0``, ``--side-1``) for every
    swatch, map and chart on it."""
    shown = sides[:2]
    colours = side_force_colours((side.id, side.colour) for side in shown)
    return "; ".join(f"--side-{i}: {colours[s.id]}" for i, s in enumerate(shown))
