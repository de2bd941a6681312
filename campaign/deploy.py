"""The set-up page's map of the campaign's own units: where each stands, in its force's colour
and with its name, and the scenario's deployment spots and zones it may be dragged onto.

Pure reads of the set-up form: the same numbers as its table, so the map drawn by the server
(with or without JavaScript) and the table always agree; ``deploy.js`` keeps them agreeing as
the GM drags.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.text import capfirst

from battles.table import ObjectiveMark, fmt, unit_radius
from campaign.pages.sides import side_force_colours, side_place

SNAP = 0.5
"""Inches: where a dragged unit comes to rest, and an arrow key's step."""


@dataclass(frozen=True, slots=True)
class ForceKey:
    name: str
    colour: str


@dataclass(frozen=True, slots=True)
class DeployMark:
    """One campaign unit on the set-up map (``x``/``y`` in SVG units; ``placed`` False when
    it is not fighting, or its position is not a number yet), marked with its number in the
    set-up's table: a name would not fit beside its neighbours, nor be legible on a phone."""

    pk: int
    number: int
    name: str
    force: str
    colour: str
    side_index: int
    r: str
    x: str
    y: str
    placed: bool
    label: str


@dataclass(frozen=True, slots=True)
class Spot:
    side_index: int
    x: str
    y: str
    label: str


@dataclass(frozen=True, slots=True)
class Zone:
    """A side's deployment zone, as SVG polygon points."""

    side_index: int
    points: str
    label: str


@dataclass(frozen=True, slots=True)
class DeployMap:
    marks: tuple[DeployMark, ...]
    spots: tuple[Spot, ...]
    forces: tuple[ForceKey, ...]
    zones: tuple[Zone, ...] = ()
    side_colours: str = ""
    """CSS custom properties (``--side-0``, ``--side-1``): each side in the colour of the first
    force the table puts on it, so its zone, rings and key wear that force's colour."""
    snap: float = SNAP


def _number(value: Any) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if number == number and abs(number) < 1e6 else None


def deploy_map(form: Any, height: float) -> DeployMap:
    """The marks of a ``BattleSetupForm``'s units at the positions its table shows now."""
    side_ids = list(form.spots)
    names = form.side_labels()
    colours = form.colours
    forces: dict[int, ForceKey] = {}
    for unit in sorted(form.units, key=lambda u: u.force_id):
        if unit.force_id not in forces:
            forces[unit.force_id] = ForceKey(unit.force.name, colours[unit.force_id])
    marks = []
    for row in form.rows():
        unit = row["unit"]
        side, x, y = (row[key].value() for key in ("side", "x", "y"))
        x, y = _number(x), _number(y)
        placed = side in side_ids and x is not None and y is not None
        r = unit_radius(unit.unit_type.card.get("size", 1))
        marks.append(
            DeployMark(
                pk=unit.pk,
                number=row["number"],
                name=unit.name,
                force=unit.force.name,
                colour=row["colour"],
                side_index=side_ids.index(side) if side in side_ids else -1,
                r=fmt(r),
                x=fmt(x if x is not None else 0),
                y=fmt(height - (y if y is not None else 0)),
                placed=placed,
                label=f"{unit.name} ({unit.force.name}, {unit.unit_type.name}), "
                f"number {row['number']}",
            )
        )
    spots = tuple(
        Spot(
            index,
            fmt(x),
            fmt(height - y),
            f"Deployment spot of {names.get(side, side)} at {fmt(x)}, {fmt(y)}",
        )
        for index, side in enumerate(side_ids)
        for (x, y), _ in form.spots[side]
    )
    return DeployMap(
        tuple(marks),
        spots,
        tuple(forces.values()),
        _zones(form.scenario, height, names),
        _side_colours(form, side_ids, colours),
    )


def _zones(scenario: dict[str, Any], height: float, names: dict[str, str]) -> tuple[Zone, ...]:
    zones = []
    for index, side in enumerate(scenario.get("sides", [])):
        corners = side.get("zone")
        if not isinstance(corners, list):
            continue
        points = " ".join(f"{fmt(x)},{fmt(height - y)}" for x, y in corners)
        name = names.get(side.get("id")) or side.get("name") or side.get("id")
        zones.append(Zone(index, points, f"Deployment zone of {name}"))
    return tuple(zones)


def _side_colours(form: Any, side_ids: list[str], by_force: dict[int, str]) -> str:
    firsts = []
    for side in side_ids:
        fielded = [row["unit"] for row in form.rows() if row["side"].value() == side]
        firsts.append((side, by_force[fielded[0].force_id] if fielded else ""))
    colours = side_force_colours(firsts)
    return "; ".join(f"--side-{i}: {colours[side]}" for i, side in enumerate(side_ids))


def side_roles(form: Any, objectives: Sequence[ObjectiveMark]) -> list[str]:
    """The scenario's sides as the campaign fights it, a sentence each: the forces that take
    each side (`side_labels`), then each objective in the map's words (its sides named alike),
    once. The scenario's own description tells of units of its own, not the campaign's."""
    forces, names = form.forces_on_sides(), form.side_labels()
    roles = []
    for index, side in enumerate(form.scenario.get("sides", [])):
        name, place = names[side["id"]], side_place(index)
        if forces.get(side["id"]):
            head = f"{name} takes {place}"
        else:
            head = f"No unit is on {name if name == place else f'{name} ({place})'} yet"
        if any(side["id"] in o.sides for o in objectives):
            roles.append(f"{capfirst(head)}.")
        else:
            roles.append(
                f"{capfirst(head)}, with no objective of its own: it scores only for the enemy "
                "units it removes."
            )
    return [*roles, *(f"{o.label}." for o in objectives)]
