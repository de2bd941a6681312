"""Builders for crafted rule situations: small scenario dicts, battles on fixed dice."""

from __future__ import annotations

import copy
from typing import Any

from battles.engine import Activate, Dice, parse_scenario
from battles.engine.battle import Battle
from battles.engine.events import Event, TurnStart

BASE_CARD: dict[str, Any] = {
    "name": "Trooper",
    "skill": 4,
    "move": 6,
    "resistance": 2,
    "hits": 2,
    "size": 2,
    "melee": None,
    "weapons": [{"name": "Gun", "power": 3, "range": 12}],
    "keywords": [],
    "enters": [],
}


def card(**kw: Any) -> dict[str, Any]:
    """A unit card dict: the base card with fields replaced."""
    c = copy.deepcopy(BASE_CARD)
    c.update(kw)
    return c


def unit(uid: str, pos: tuple[float, float], facing: float = 0, order: str = "hold", **kw: Any):
    """A unit entry for a side."""
    return {
        "id": uid,
        "position": list(pos),
        "facing": facing,
        "order": {"kind": order},
        "card": card(**kw),
    }


def square(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


def piece(pid: str, kind: str, poly: list[list[float]], **flags: Any) -> dict[str, Any]:
    return {"id": pid, "kind": kind, "polygon": poly, **flags}


def building(bid: str, poly, resistance=3, hits=2, admits=(1, 2), side=None, rubble=None):
    c: dict[str, Any] = {
        "name": "House",
        "resistance": resistance,
        "hits": hits,
        "admits": None if admits is None else {"min_size": admits[0], "max_size": admits[1]},
    }
    if rubble is not None:
        c["rubble"] = rubble
    b: dict[str, Any] = {"id": bid, "polygon": poly, "card": c}
    if side is not None:
        b["side"] = side
    return b


def scenario(
    blue: list[dict],
    red: list[dict],
    *,
    terrain: list[dict] | None = None,
    buildings: list[dict] | None = None,
    ruleset: str = "combined_arms",
    objectives: list[dict] | None = None,
    turn_limit: int = 3,
) -> dict[str, Any]:
    """A scenario dict; by default blue must hold the table's far corner (a harmless objective)."""
    return {
        "name": "Test",
        "ruleset": ruleset,
        "turn_limit": turn_limit,
        "terrain": terrain or [],
        "buildings": buildings or [],
        "objectives": objectives
        if objectives is not None
        else [
            {
                "id": "corner",
                "point": [24, 24],
                "radius": 0.5,
                "sides": ["blue"],
                "points_at_end": 1,
            }
        ],
        "sides": [
            {"id": "blue", "name": "Blue", "units": blue},
            {"id": "red", "name": "Red", "units": red},
        ],
    }


def battle(scn: dict[str, Any], faces=(), commanders=None) -> Battle:
    """A battle on fixed dice, started and at turn 1, ready for ``perform``."""
    b = Battle(parse_scenario(scn), Dice.fixed(faces), commanders or {})
    b.start()
    b.emit(TurnStart(1))
    return b


def act(b: Battle, unit_id: str, *steps: Any) -> list[Event]:
    """Perform one activation; return the events it logged."""
    n = len(b.log)
    side = b.state.units[unit_id].side
    b.perform(side, Activate(unit_id, tuple(steps)))
    return b.log[n:]


def kinds(events: list[Event]) -> list[str]:
    return [e.KIND for e in events]


def of(events: list[Event], kind: str) -> list[Any]:
    return [e for e in events if kind == e.KIND]
