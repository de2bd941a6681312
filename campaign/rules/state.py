"""A persistent unit's BUCS state as plain data: what the campaign rules read and write.

Every rule of the campaign (the bridge, recovery, experience, quick resolve) is a pure function
from one `CampaignUnitState` to the next (named apart from the engine's `UnitState`, a unit
during one battle). The services load a state from the database, call a rule, and write the
difference as a history entry, so the rules can be tested (and property-tested) without a
database, and a unit's history is a list of before/after differences of this one shape. Plain
Python: no Django.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from enum import Enum, StrEnum
from typing import Any

from units.bucs import Equipment, Quality, Specialty, effective_quality
from units.words import given, or_words


class Status(StrEnum):
    """Where a persistent unit stands between battles."""

    READY = "ready"
    RETREATED = "retreated"
    """Retreated in poor order: out of action until rallied by a day of R&R."""
    DESTROYED = "destroyed"
    """Destroyed utterly: nothing brings it back."""

    @property
    def label(self) -> str:
        return STATUS_LABELS[self]

    @property
    def fights(self) -> bool:
        """Whether a unit of this status goes into a battle, an engagement or a check: only a
        ready one does; the others are out of action (`out_of_action` says why)."""
        return self is Status.READY

    def cannot_fight(self, name: str) -> str:
        """Why a unit of this status is refused a fight, in a sentence's middle: "Sappers is
        retreated in poor order: it cannot fight"."""
        return f"{name} is {self.label.lower()}: it cannot fight"

    @property
    def out_of_action(self) -> str:
        """Why a unit of this status fights nothing and makes no check, said before the names
        of one or more such units ("Destroyed: Tiger One"); "" for a ready one."""
        return OUT_OF_ACTION.get(self, "")


STATUS_LABELS = {
    Status.READY: "Ready",
    Status.RETREATED: "Retreated in poor order",
    Status.DESTROYED: "Destroyed",
}

OUT_OF_ACTION = {
    Status.RETREATED: "Retreated in poor order, out of action until R&R rallies them",
    Status.DESTROYED: "Destroyed",
}

LEADER_DEATH_HIT_POINTS = -10
"""d20 Modern: a character whose hit points drop to −10 or lower is dead."""


def hit_point_state(hit_points: int, *, alive: bool = True) -> str:
    """Where a character stands by its hit points, in d20 Modern's words: "disabled" at 0,
    "dying" from −1 to −9, "dead" at −10 or lower (or once dead: the dead stay dead whatever
    their hit points), "" above 0."""
    if not alive or hit_points <= LEADER_DEATH_HIT_POINTS:
        return "dead"
    if hit_points < 0:
        return "dying"
    return "disabled" if hit_points == 0 else ""


def can_act(hit_points: int, *, alive: bool = True) -> bool:
    """Whether a character acts at all: leads its unit, gives or repeats an Order, trains,
    rallies or requisitions. d20 Modern: at 0 hit points a character is disabled but still acts;
    from −1 it is unconscious and dying, and does nothing until healed above 0; dead, never
    again. BUCS is silent on a leader knocked out: this is the d20 reading, one rule for every
    place a leader's part is counted (docs/campaign.md, "A dying leader leads nobody")."""
    return hit_point_state(hit_points, alive=alive) in ("", "disabled")


def quality_name(quality: Quality) -> str:
    """The stable lower-case name used in data ("average")."""
    return Quality(quality).word


def quality_from_name(name: str) -> Quality:
    try:
        return Quality.of_word(name.lower())
    except (ValueError, AttributeError):
        names = or_words([q.label for q in Quality])
        raise ValueError(f"unknown quality {given(name)}; one of {names}") from None


def ordered_specialties(specialties: Any) -> tuple[Specialty, ...]:
    """Specialties as members, in the table's order, so equal sets compare and store equal."""
    members = {s if isinstance(s, Specialty) else Specialty(s) for s in specialties}
    return tuple(s for s in Specialty if s in members)


@dataclass(frozen=True)
class LeaderState:
    """A d20 character attached to a unit."""

    name: str
    hit_points: int
    """Current hit points; may fall below zero (dead at −10)."""
    alive: bool = True

    @property
    def leads(self) -> bool:
        """Whether it leads its unit now (`can_act`): neither dying nor dead."""
        return can_act(self.hit_points, alive=self.alive)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "hit_points": self.hit_points, "alive": self.alive}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LeaderState:
        return cls(name=data["name"], hit_points=data["hit_points"], alive=data["alive"])


@dataclass(frozen=True)
class WindowFight:
    """One fight a unit fought while Casualty hits awaited the medics (its own, or an earlier
    fight's): what the closing window needs to end the unit where the same fights, entered
    after their 24 hours, would have left it (`recovery.casualties_die`)."""

    quality: Quality
    """Its quality as it went into the fight (after whatever befell it since the fight before:
    a GM's correction, say)."""
    experience: int
    """Its experience then."""
    casualty_hits: int = 0
    """The fight's own Casualty hits left awaiting the medics."""
    skill_lost: int = 0
    """Skill lost to suppression for good in the fight (Combined Arms), each a quality step
    lost as far as Raw: the fight's dead are measured against the steps it had before."""
    found_too_late: int = 0
    """The fight's own Casualty hits that died as it was entered, after their 24 hours
    (`recovery.casualties_found_too_late`): they never awaited the medics."""
    won: bool = False
    """Whether its side won: the experience it earned (`experience.fight_points`)."""
    broken: bool = False
    """Whether it left the fight retreated in poor order: no step up from its points."""
    name: str = ""
    """The fight's name as the unit's entry of it keeps it (`history.fight_named`): a battle's
    reason, an engagement's title; "" in a window kept before fights kept their names."""
    at: int | None = None
    """The clock hour it was fought: its own Casualty hits await the medics 24 hours from it
    (`recovery.awaiting`). None in a window kept before fights kept their hour: they count
    from the window's (`CampaignUnitState.window_from`)."""

    def to_json(self) -> dict[str, Any]:
        data = {
            "quality": quality_name(self.quality),
            "experience": self.experience,
            "casualty_hits": self.casualty_hits,
            "skill_lost": self.skill_lost,
            "found_too_late": self.found_too_late,
            "won": self.won,
            "broken": self.broken,
        }
        # Only when kept: a fight kept before names were has the shape it was stored with.
        if self.name:
            data["name"] = self.name
        if self.at is not None:
            data["at"] = self.at
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> WindowFight:
        return cls(
            quality=quality_from_name(data["quality"]),
            experience=data["experience"],
            casualty_hits=data["casualty_hits"],
            skill_lost=data["skill_lost"],
            found_too_late=data["found_too_late"],
            won=data["won"],
            broken=data["broken"],
            name=data.get("name", ""),
            at=data.get("at"),
        )


def window_fights(data: Any) -> tuple[WindowFight, ...]:
    """Fights as the state holds them, from their snapshot (a list of mappings) or as they are."""
    return tuple(f if isinstance(f, WindowFight) else WindowFight.from_json(f) for f in data)


@dataclass(frozen=True)
class CampaignUnitState:
    """Everything about a persistent unit that its history records."""

    name: str
    quality: Quality
    """The permanent quality step; outstanding hits lower the effective one."""
    equipment: Equipment = Equipment.ADEQUATE
    specialties: tuple[Specialty, ...] = ()
    morale_hits: int = 0
    """Shock: healed by R&R, one a day."""
    casualty_hits: int = 0
    """Dead and wounded awaiting the medics; whatever they do not save dies with the window."""
    skill_lost: int = 0
    """Skill lost to suppression for good (Combined Arms), each point a quality step lost."""
    status: Status = Status.READY
    experience: int = 0
    """Progress toward the next quality step (see `campaign.rules.experience`)."""
    battles_fought: int = 0
    in_combat_zone: bool = False
    """Still under stress: R&R cannot heal its last Morale hit."""
    last_battle_day: int | None = None
    """The campaign day of its last battle."""
    window_from: int | None = None
    """The clock hour (hours since day 1, 00:00) its medical window runs from: the hour its oldest
    Casualty hits awaiting the medics count from, those no fight kept (a GM's correction's) dying
    24 hours after it (`campaign.rules.recovery`); each kept fight's own count from the fight
    (`WindowFight.at`). The battle or correction that opened the window, or the oldest fight
    whose hits still await once older ones died. None before its first battle, and for a battle
    from before the campaign kept the hour (the window then runs from 00:00 of
    `last_battle_day`)."""
    window_quality_lost: int = 0
    """Quality steps lost to suppression (Combined Arms) in the battles whose Casualty hits await
    the medics: when the window closes, the dead are measured against the steps the unit had
    before them (`recovery.casualties_die`)."""
    window_quality_gained: int = 0
    """Quality steps gained by experience in the fights whose own Casualty hits await the
    medics: should any of those hits die, the steps are withdrawn before the dead reduce the
    unit (no step back up in the battle that cost it quality for good), so it ends where it
    would have, had the hits been found too late at once (`recovery.casualties_die`)."""
    window_experience: int | None = None
    """The unit's experience before the fights whose Casualty hits await the medics earned any
    (None until a fight leaves hits awaiting them): a unit their dead destroy earned nothing in
    them, as one whose hits were found too late earns nothing."""
    window_fights: tuple[WindowFight, ...] = ()
    """Every fight since its window opened, in the order entered, each with its own Casualty
    hits and what it earned: when the window closes, the dead go back to the fights that dealt
    them and the fights' experience counts again from there, so the unit ends where the same
    fights entered after their 24 hours leave it (`recovery.casualties_die`). Empty for a
    window a GM's correction opened, or one opened before fights were kept; hits no fight
    kept count as the window's first."""
    leader: LeaderState | None = field(default=None)

    @property
    def hits(self) -> int:
        """Outstanding hits, Morale and Casualty together."""
        return self.morale_hits + self.casualty_hits

    @property
    def effective_quality(self) -> Quality:
        return effective_quality(self.quality, self.morale_hits, self.casualty_hits)

    @property
    def below_raw(self) -> bool:
        """More hits than its quality survives: the unit is broken until they heal."""
        return self.hits > int(self.quality)

    @property
    def destroyed(self) -> bool:
        return self.status == Status.DESTROYED

    def but(self, **changes: Any) -> CampaignUnitState:
        """A copy with some fields changed (a short name for `dataclasses.replace`)."""
        return replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        """The snapshot stored in history: stable names, plain JSON values."""
        snapshot = {name: _plain(name, getattr(self, name)) for name in UNIT_FIELDS}
        snapshot["leader"] = None if self.leader is None else self.leader.to_json()
        return snapshot

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CampaignUnitState:
        leader = data.get("leader")
        return cls(
            **{name: _TYPED.get(name, _same)(data[name]) for name in UNIT_FIELDS},
            leader=None if leader is None else LeaderState.from_json(leader),
        )

    @classmethod
    def from_row(cls, row: Any, leader: LeaderState | None) -> CampaignUnitState:
        """The state of a row holding each of `UNIT_FIELDS` (the `Unit` model, quality a step)."""
        typed = {**_TYPED, "quality": Quality}
        return cls(
            **{name: typed.get(name, _same)(getattr(row, name)) for name in UNIT_FIELDS},
            leader=leader,
        )

    def row_values(self) -> dict[str, Any]:
        """Each of `UNIT_FIELDS` as the `Unit` model stores it (quality as its step)."""
        values = {name: _plain(name, getattr(self, name)) for name in UNIT_FIELDS}
        values["quality"] = int(self.quality)
        return values


UNIT_FIELDS = tuple(f.name for f in fields(CampaignUnitState) if f.name != "leader")
"""A persistent unit's own fields, in order (its leader is a row of its own): the `Unit` model's
columns, and what a GM may correct."""

SNAPSHOT_FIELDS = (*UNIT_FIELDS, "leader")
"""The keys of a unit snapshot, in order: what history entries record."""

_TYPED = {
    "quality": quality_from_name,
    "equipment": Equipment,
    "specialties": ordered_specialties,
    "status": Status,
    "window_fights": window_fights,
}
"""How a snapshot's plain value of a typed field becomes its member again."""


def _same(value: Any) -> Any:
    return value


def _plain(name: str, value: Any) -> Any:
    """A field's value as JSON holds it: quality by its name, other members by their value."""
    if name == "quality":
        return quality_name(value)
    if name == "specialties":
        return [s.value for s in value]
    if name == "window_fights":
        return [fight.to_json() for fight in value]
    return value.value if isinstance(value, Enum) else value


def snapshot_diff(
    before: dict[str, Any], after: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(before, after) restricted to the fields that differ."""
    changed = [key for key in SNAPSHOT_FIELDS if before.get(key) != after.get(key)]
    return {k: before.get(k) for k in changed}, {k: after.get(k) for k in changed}


LATER_FIELDS: dict[str, Any] = {
    "window_from": None,
    "window_quality_lost": 0,
    "window_quality_gained": 0,
    "window_experience": None,
    "window_fights": [],
}
"""Recorded fields added after units had histories, with the value every unit had until then:
an entry written before a field existed holds none of it, so a replay starts it here."""


def snapshot_replay(changes: Any) -> dict[str, Any]:
    """The snapshot reached by applying each entry's `after` in order, from nothing (but the
    `LATER_FIELDS`, at the value they had before they were recorded)."""
    snapshot: dict[str, Any] = dict(LATER_FIELDS)
    for after in changes:
        snapshot.update(after)
    return snapshot
