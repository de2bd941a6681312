"""Where a campaign battle's units stand: the scenario's deployment spots, each unit given no
place put on the first free spot of its side that the engine lets it stand on, and the engine's
refusal of a place said in the campaign's words.

Whether a unit may stand somewhere is the engine's question alone (``parse_scenario`` refuses a
unit deployed in woods it may not enter, in a building that does not admit it, outside its
side's zone or off the table): this module asks it, on the scenario as printed for the battle,
and never judges ground itself.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from battles.engine import ScenarioError, parse_scenario
from battles.engine.loader import TABLE_SIDE
from battles.table import fmt

Spot = tuple[list[float], float]
"""A deployment spot: its position [x, y] in inches and the facing of the unit put there."""

MAX_ROUNDS = 50
"""At most this many times the engine is asked while spots are handed out."""
INLAND_STEPS = 12
"""Inches: how far in from its side's spots a unit that may stand on none of them is looked
for (a tank on a landing whose spots are all in the bay), an inch at a time."""
SNAP = 0.5
"""Inches: such a place is rounded to this, as a unit dragged on the set-up map is."""

_PLACE = re.compile(r"^sides\[(\d+)\]\.units\[(\d+)\]\.position$")
_WOODS = re.compile(r"^deployed inside impassable (?P<kind>.+) '(?P<piece>.*)'$")
_BUILDING = re.compile(r"^deployed inside building '(?P<piece>.*)', which does not admit it$")
_ZONE = re.compile(r"^outside the deployment zone of (?P<side>.+)$")
_OFF_TABLE = re.compile(r"^\(.*\) is off the (?P<table>.+) table$")


def deployment_spots(scenario: Mapping[str, Any]) -> dict[str, list[Spot]]:
    """Each side's deployment spots: where the scenario's own units stood, and their facing."""
    spots: dict[str, list[Spot]] = {}
    for side in scenario.get("sides", []):
        spots[side.get("id")] = [
            (list(u.get("position", [0, 0])), float(u.get("facing", 0)))
            for u in side.get("units", [])
        ]
    return spots


def spot(spots: Sequence[Spot], index: int) -> Spot:
    """The index-th spot of a side; past the last, the spots again two inches along, so a
    larger force than the scenario's still stands somewhere sensible."""
    if not spots:
        return [1.0 + 2 * index, 1.0], 0.0
    (x, y), facing = spots[index % len(spots)]
    return [x + 2.0 * (index // len(spots)), y], facing


def deployment_place(
    scenario: dict[str, Any], spots: Mapping[str, Sequence[Spot]]
) -> list[tuple[str, str]]:
    """Put each unit of ``scenario`` whose position is None on a spot of its side, in the
    side's order: the first spot that no unit before it (nor one the GM placed) has taken and
    that the engine lets it stand on. A unit that may stand on none takes the first free spot,
    and the engine's refusal says why. Changes ``scenario`` in place.

    Returns the engine's problems with the scenario as placed, as (path, reason); none when it
    validates.
    """
    sides = scenario.get("sides", [])
    table = scenario.get("table") or {}
    middle = (table.get("width", TABLE_SIDE) / 2, table.get("height", TABLE_SIDE) / 2)
    placing: list[tuple[int, int]] = []
    standing: dict[int, set[int]] = {}
    candidates: dict[int, list[Spot]] = {}
    for s, side in enumerate(sides):
        units = side.get("units", [])
        candidates[s] = _candidates(spots.get(side.get("id"), []), len(units), middle)
        placed = {tuple(u["position"]) for u in units if u.get("position") is not None}
        standing[s] = {i for i, (at, _) in enumerate(candidates[s]) if tuple(at) in placed}
        placing += [(s, u) for u, unit in enumerate(units) if unit.get("position") is None]
    # The engine is asked about every unit at once; a spot it refuses a unit is struck from
    # that unit's list and the spots handed out again, until it refuses nothing new.
    refused: dict[tuple[int, int], set[int]] = {key: set() for key in placing}
    problems: list[tuple[str, str]] = []
    for _ in range(MAX_ROUNDS):
        taken = {s: set(spots_of) for s, spots_of in standing.items()}
        index: dict[tuple[int, int], int] = {}
        for s, u in placing:
            free = [i for i in range(len(candidates[s])) if i not in taken[s]] or [0]
            index[s, u] = next((i for i in free if i not in refused[s, u]), free[0])
            taken[s].add(index[s, u])
            position, facing = candidates[s][index[s, u]]
            sides[s]["units"][u].update(position=list(position), facing=facing)
        problems = _problems(scenario)
        new = [key for key in _refused(problems) & index.keys() if index[key] not in refused[key]]
        if not new:
            break
        for key in new:
            refused[key].add(index[key])
    return problems


def _candidates(own: Sequence[Spot], units: int, middle: tuple[float, float]) -> list[Spot]:
    """A side's places, in the order they are handed out: its spots; past them, the spots
    again two inches along (a force larger than the scenario's); then points an inch, two, …
    in from each spot towards the middle of the table."""
    places = [spot(own, i) for i in range(2 * len(own) + units)]
    for step in range(1, INLAND_STEPS + 1):
        for (x, y), facing in own:
            dx, dy = middle[0] - x, middle[1] - y
            length = (dx * dx + dy * dy) ** 0.5
            if length > step:
                at = [_snap(x + dx * step / length), _snap(y + dy * step / length)]
                places.append((at, facing))
    seen: set[tuple[float, ...]] = set()
    return [p for p in places if not (tuple(p[0]) in seen or seen.add(tuple(p[0])))]


def _snap(value: float) -> float:
    return round(value / SNAP) * SNAP


def _problems(scenario: Mapping[str, Any]) -> list[tuple[str, str]]:
    try:
        parse_scenario(scenario)
    except ScenarioError as error:
        return list(error.problems)
    return []


def _refused(problems: Sequence[tuple[str, str]]) -> set[tuple[int, int]]:
    """The (side, unit) indexes of the units the engine refuses to stand where they are."""
    return {
        (int(found[1]), int(found[2]))
        for path, _ in problems
        if (found := _PLACE.match(path or ""))
    }


def off_table(
    scenario: Mapping[str, Any], position: Sequence[Any] | None
) -> list[tuple[str, float]]:
    """The coordinates of ``position`` that lie off the scenario's table, each with the table's
    length that way: ``[("y", 24.0)]`` for (3, 30) on a 24″ × 24″ table (``TABLE_SIDE`` unless
    the scenario says otherwise, as the engine reads it)."""
    table = scenario.get("table") or {}
    try:
        lengths = (float(table.get("width", TABLE_SIDE)), float(table.get("height", TABLE_SIDE)))
        return [
            (name, length)
            for name, value, length in zip("xy", position or (), lengths, strict=True)
            if not 0 <= float(value) <= length
        ]
    except (TypeError, ValueError):
        return []


def deployment_words(
    scenario: Mapping[str, Any],
    problems: Sequence[tuple[str, str]],
    names: Mapping[str, str],
    sides: Mapping[str, str] | None = None,
) -> dict[str, list[str]]:
    """The engine's problems by path, a refused place said in the campaign's words: the unit
    by ``names`` (engine id → its name), a side by ``sides`` (side id → the set-up's name for
    it, its forces'), the ground by what it is ("Scout Car cannot stand in the woods at (17,
    6.5): it may not enter woods")."""
    worded: dict[str, list[str]] = {}
    for path, reason in problems:
        found = _PLACE.match(path or "")
        if found:
            reason = _place_words(scenario, int(found[1]), int(found[2]), reason, names, sides)
        worded.setdefault(path or "scenario", []).append(reason)
    return worded


def _place_words(
    scenario: Mapping[str, Any],
    s: int,
    u: int,
    reason: str,
    names: Mapping[str, str],
    sides: Mapping[str, str] | None = None,
) -> str:
    unit = scenario["sides"][s]["units"][u]
    name = names.get(unit.get("id"), unit.get("id"))
    try:
        x, y = unit["position"]
        at = f"({fmt(float(x))}, {fmt(float(y))})"
    except (TypeError, ValueError):
        at = "there"
    if found := _WOODS.match(reason):
        kind = found["kind"]
        return f"{name} cannot stand in the {kind} at {at}: it may not enter {kind}"
    if found := _BUILDING.match(reason):
        building = next(
            (b for b in scenario.get("buildings", []) if b.get("id") == found["piece"]), {}
        )
        card = building.get("card") or {}
        what = card.get("name") or "building"
        admits = card.get("admits")
        size = (unit.get("card") or {}).get("size", "?")
        if not admits:
            why = f"the {what} admits no unit"
        elif admits["min_size"] == admits["max_size"]:
            why = f"the {what} admits Size {admits['min_size']} only, and {name} is Size {size}"
        else:
            why = (
                f"the {what} admits Size {admits['min_size']} to {admits['max_size']}, "
                f"and {name} is Size {size}"
            )
        return f"{name} cannot stand in the {what} at {at}: {why}"
    if found := _ZONE.match(reason):
        # The unit's own side's zone, which the engine names by the scenario's name for it.
        side = (sides or {}).get(scenario["sides"][s].get("id"), found["side"])
        return (
            f"{name} at {at} is outside the deployment zone of {side} "
            "(only an Airborne unit deploys outside it, by paradrop)"
        )
    if found := _OFF_TABLE.match(reason):
        # The set-up takes x and y in boxes of their own: say which of them is off.
        ways = " and ".join(
            f"its {c} must be 0 to {fmt(length)}"
            for c, length in off_table(scenario, unit.get("position"))
        )
        return f"{name} at {at} is off the {found['table']} table" + (f": {ways}" if ways else "")
    return f"{name} at {at}: {reason}"
