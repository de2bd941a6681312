"""Reading a unit's recorded fields from loose input: forms, GM edits and imported JSON.

Each reader returns the typed value the campaign rules use, or raises `ValueError` with a
message fit to put beside the field's name. Plain Python: no Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any

from campaign.rules.orders import HOURS_PER_DAY
from campaign.rules.state import (
    LEADER_DEATH_HIT_POINTS,
    LeaderState,
    Status,
    WindowFight,
    ordered_specialties,
    quality_from_name,
)
from units.bucs import Equipment, Quality, Specialty
from units.words import given, number_text, or_words, quoted, value_shown

MAX_HITS = 99
"""Far more hits than a Legendary unit survives, so any real value fits."""
MAX_COUNT = 1_000_000
NAME_LENGTH = 200
MAX_UNITS_PER_FORCE = 100
"""Units one force may hold: two and a half times the most a side may field in one battle
(``battles.engine.validation.MAX_UNITS_PER_SIDE``), so reserves and the wounded fit."""
TURN_LIMIT_MAX = 50
"""The most turns a campaign battle is set up for (the engine fights up to 100): the set-up
takes no more, and the map editor keeps no map with more, so a map is offered with a turn
limit its Launch takes."""
MAX_PENDING_INVITATIONS = 50
"""Invitations one campaign may have waiting: more than a gaming group has members, and a cap
because an invitation to a name nobody has is kept like any other."""
MAX_FORCES_PER_CAMPAIGN = 50
"""Forces one campaign may have: a table's campaign has a few, one or two a player, and its
dashboard lists every one. Fifty full forces are 5,000 units, far past an import's 2,000."""
MAX_MEMBERS_PER_CAMPAIGN = 100
"""Co-GMs, players and spectators one campaign may have: twice the invitations it may have
waiting, and many times a gaming group."""
MAX_CHARACTERS_PER_CAMPAIGN = 500
"""Characters one campaign may have, player characters and NPCs: a leader for every unit of
five full forces. The Characters page lists them a page at a time."""


def whole_number(value: Any, low: int, high: int) -> int:
    """``value`` as a whole number from ``low`` to ``high``, or `ValueError` saying what is
    allowed and what it was: "must be a whole number from 0 to 1,000,000, not −5"."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(
            f"must be a whole number from {number_text(low)} to {number_text(high)}, "
            f"not {value_shown(value)}"
        )
    return value


def _name(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError("must be a non-empty name")
    if len(value.strip()) > NAME_LENGTH:
        raise ValueError(f"must be at most {NAME_LENGTH} characters")
    return value.strip()


def _quality(value: Any) -> Quality:
    if isinstance(value, str):
        return quality_from_name(value)
    return Quality(whole_number(value, int(Quality.RAW), int(Quality.LEGENDARY)))


def _file_words(choices: type[Enum]) -> str:
    """What a field takes, listed as a campaign file and a recorded value write it ("poor",
    "barely_adequate"): the one who reads this refusal is writing those words, not the
    pages' names."""
    return or_words([quoted(c.value) for c in choices])


def _equipment(value: Any) -> Equipment:
    try:
        return Equipment(value)
    except ValueError:
        names = _file_words(Equipment)
        raise ValueError(f"unknown equipment {given(value)}; one of {names}") from None


def _specialties(value: Any) -> tuple[Specialty, ...]:
    if isinstance(value, str | bytes | Mapping) or not hasattr(value, "__iter__"):
        raise ValueError("must be a list of specialties")
    items = list(value)
    for item in items:
        try:
            Specialty(item)
        except ValueError:
            names = _file_words(Specialty)
            raise ValueError(f"unknown specialty {given(item)}; one of {names}") from None
    specialties = ordered_specialties(items)
    if len(specialties) != len(items):
        raise ValueError("a specialty is listed twice")
    return specialties


def _status(value: Any) -> Status:
    try:
        return Status(value)
    except ValueError:
        names = _file_words(Status)
        raise ValueError(f"unknown status {given(value)}; one of {names}") from None


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"must be true or false, got {value_shown(value)}")
    return value


WINDOW_FIGHT_KEYS = (
    "quality", "experience", "casualty_hits", "skill_lost", "found_too_late", "won", "broken",
)  # fmt: skip
WINDOW_FIGHT_NAME = "name"
"""A kept fight's name (`WindowFight.name`): kept only when it has one, so a fight kept before
fights kept their names has none."""
WINDOW_FIGHT_AT = "at"
"""A kept fight's clock hour (`WindowFight.at`): kept only when it has one, so a fight kept
before fights kept their hour has none."""
FIGHT_NAME_LENGTH = 300
"""A fight's name is its entry's reason (`HistoryEntry.reason`), and as long at most."""


def _window_fights(value: Any) -> tuple[WindowFight, ...]:
    """The fights kept in a medical window (`WindowFight`): a list of mappings, each with every
    one of `WINDOW_FIGHT_KEYS`, and its name (`WINDOW_FIGHT_NAME`) and hour (`WINDOW_FIGHT_AT`)
    when it keeps them."""
    if isinstance(value, str | bytes | Mapping) or not hasattr(value, "__iter__"):
        raise ValueError("must be a list of the fights kept in the medical window")
    fights = []
    for index, fight in enumerate(value):
        if isinstance(fight, WindowFight):
            fight = fight.to_json()
        at = f"fight {index + 1}"
        if not isinstance(fight, Mapping) or set(fight) - {
            WINDOW_FIGHT_NAME,
            WINDOW_FIGHT_AT,
        } != set(WINDOW_FIGHT_KEYS):
            keys = ", ".join(WINDOW_FIGHT_KEYS)
            raise ValueError(
                f"{at} must have exactly {keys}, and may have {WINDOW_FIGHT_NAME} and "
                f"{WINDOW_FIGHT_AT}"
            )
        try:
            fights.append(
                WindowFight(
                    quality=_quality(fight["quality"]),
                    experience=whole_number(fight["experience"], 0, MAX_COUNT),
                    casualty_hits=whole_number(fight["casualty_hits"], 0, MAX_HITS),
                    skill_lost=whole_number(fight["skill_lost"], 0, MAX_HITS),
                    found_too_late=whole_number(fight["found_too_late"], 0, MAX_HITS),
                    won=_flag(fight["won"]),
                    broken=_flag(fight["broken"]),
                    name=_fight_name(fight.get(WINDOW_FIGHT_NAME, "")),
                    at=_clock(fight.get(WINDOW_FIGHT_AT)),
                )
            )
        except ValueError as error:
            raise ValueError(f"{at}: {error}") from None
    return tuple(fights)


def _fight_name(value: Any) -> str:
    """A kept fight's name: "" for none, else its words as its entry keeps them."""
    if not isinstance(value, str):
        raise ValueError(f"its name must be text, got {value_shown(value)}")
    if len(value.strip()) > FIGHT_NAME_LENGTH:
        raise ValueError(f"its name must be at most {FIGHT_NAME_LENGTH} characters")
    return value.strip()


def _day(value: Any) -> int | None:
    return None if value is None else whole_number(value, 1, MAX_COUNT)


def _clock(value: Any) -> int | None:
    """A clock reading: hours since day 1, 00:00."""
    return None if value is None else whole_number(value, 0, MAX_COUNT * HOURS_PER_DAY)


READERS = {
    "name": _name,
    "quality": _quality,
    "equipment": _equipment,
    "specialties": _specialties,
    "morale_hits": lambda v: whole_number(v, 0, MAX_HITS),
    "casualty_hits": lambda v: whole_number(v, 0, MAX_HITS),
    "skill_lost": lambda v: whole_number(v, 0, MAX_HITS),
    "status": _status,
    "experience": lambda v: whole_number(v, 0, MAX_COUNT),
    "battles_fought": lambda v: whole_number(v, 0, MAX_COUNT),
    "in_combat_zone": _flag,
    "last_battle_day": _day,
    "window_from": _clock,
    "window_quality_lost": lambda v: whole_number(v, 0, MAX_HITS),
    "window_quality_gained": lambda v: whole_number(v, 0, MAX_HITS),
    "window_experience": lambda v: None if v is None else whole_number(v, 0, MAX_COUNT),
    "window_fights": _window_fights,
}


def parse_field(field: str, value: Any) -> Any:
    """The typed value of one recorded field; `ValueError` says what is wrong with it."""
    return READERS[field](value)


def leader_value(data: LeaderState | Mapping[str, Any]) -> LeaderState:
    """A leader from a mapping with name, hit_points and (optionally) alive."""
    if isinstance(data, LeaderState):
        data = data.to_json()
    if not isinstance(data, Mapping):
        raise ValueError("a leader is a mapping with name and hit_points")
    unknown = set(data) - {"name", "hit_points", "alive"}
    if unknown:
        raise ValueError(f"unknown leader field {given(sorted(unknown)[0])}")
    if "name" not in data or "hit_points" not in data:
        raise ValueError("a leader needs a name and hit_points")
    name = _name(data["name"])
    hit_points = whole_number(data["hit_points"], -MAX_COUNT, MAX_COUNT)
    alive = _flag(data.get("alive", True))
    if alive and hit_points <= LEADER_DEATH_HIT_POINTS:
        raise ValueError(
            f"a leader at {LEADER_DEATH_HIT_POINTS} hit points or fewer is dead, not alive"
        )
    return LeaderState(name, hit_points, alive)
