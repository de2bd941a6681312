"""The battle log's events: plain data, one small class per kind, with to_dict/from_dict.

Every change to the battle state is an event (``state.BattleState.apply`` is the only mutator),
so replaying the events from the initial state rebuilds every intermediate state without dice.
Floats are rounded to ``geometry.PRECISION`` decimals when an event is made, so the state the
engine goes on from is exactly the state a replay reaches.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Any, ClassVar


class RollPurpose(StrEnum):
    """Why a die was rolled."""

    INITIATIVE = "initiative"
    TO_HIT = "to_hit"
    PENETRATION = "penetration"
    ARMOUR = "armour"
    TERRAIN = "terrain"
    BREACHING = "breaching"
    COLLAPSE = "collapse"


class RollOutcome(StrEnum):
    """What a die (or an opposed pair) came to."""

    SUCCESS = "success"
    FAILURE = "failure"
    WIN = "win"
    LOSE = "lose"
    TIE = "tie"


OPPOSED_WORDS: dict[str, dict[str, str]] = {
    RollPurpose.INITIATIVE: {"win": "wins", "lose": "loses", "tie": "a tie, rolled again"},
    RollPurpose.PENETRATION: {"win": "gets through", "lose": "stopped"},
    RollPurpose.ARMOUR: {"win": "holds", "lose": "pierced"},
}
"""What an opposed die came to, in plain words, by purpose and outcome: the log's "win"/"lose"
says only which of the pair rolled higher (armour wins ties; initiative ties are rolled again).
A battle's story and the command line's account both say them."""


def roll_came_to(purpose: str, outcome: str) -> str:
    """A die's outcome in words (`OPPOSED_WORDS`), or as the log has it ("success")."""
    return OPPOSED_WORDS.get(purpose, {}).get(outcome, outcome)


class AttackKind(StrEnum):
    """The three kinds of attack, plus the return blow of a ram."""

    SHOOT = "shoot"
    MELEE = "melee"
    RAM = "ram"
    RAM_BACK = "ram_back"


class AttackOutcome(StrEnum):
    """How an attack ended: missed the Skill roll, damaged, or failed to penetrate."""

    MISS = "miss"
    DAMAGE = "damage"
    NO_DAMAGE = "no_damage"


class Removal(StrEnum):
    """How a unit left the battle; false for a unit that did not (``if final.removed:`` reads
    as it says), though it is the word ``none``."""

    NONE = "none"
    DESTROYED = "destroyed"
    DEMORALISED = "demoralised"

    def __bool__(self) -> bool:
        return self is not Removal.NONE


class RevealCause(StrEnum):
    """Why a unit stopped being concealed."""

    FIRED = "fired"
    SENSOR = "sensor"
    SPOTTED = "spotted"


class EndReason(StrEnum):
    """Why the battle ended."""

    TURN_LIMIT = "turn_limit"
    SIDE_ELIMINATED = "side_eliminated"


@dataclass(frozen=True, slots=True)
class Event:
    """Base of all events; ``KIND`` names the event in the log."""

    KIND: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.KIND}
        # A slotted dataclass's own slots are its fields, in order (events add to no base's).
        names: tuple[str, ...] = self.__slots__  # type: ignore[assignment]
        for name in names:
            v = getattr(self, name)
            # Most fields are plain values, written as they are: only the rest are asked about.
            if type(v) not in _AS_IS:
                if isinstance(v, Enum):
                    v = v._value_  # (``value`` is a property, dearer to read)
                elif isinstance(v, tuple):
                    v = _plain(v)
            out[name] = v
        return out

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Event:
        cls = EVENT_TYPES[data["kind"]]
        kind = cls.KIND
        # Its slots are its fields, as in to_dict (``dataclasses.fields`` builds them anew
        # on every call, which reading a long log felt).
        names: tuple[str, ...] = cls.__slots__  # type: ignore[assignment]
        return cls(**{name: _READ.get((kind, name), _same)(data[name]) for name in names})


_AS_IS = frozenset({str, int, float, bool, type(None)})
"""The types of field values a log writes as they are (an enum is a subclass of one of them,
not one of them)."""


def _plain(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    return v


def _same(v: Any) -> Any:
    return v


def _path(v: Any) -> tuple:
    return tuple((p[0], p[1]) for p in v)


@dataclass(frozen=True, slots=True)
class BattleStart(Event):
    KIND: ClassVar[str] = "battle_start"
    engine_version: str
    """Engine version that produced the log."""
    ruleset: str
    """Ruleset name."""
    scenario: str
    """Scenario name."""
    digest: str
    """SHA-256 of the scenario document."""
    seed: int | None
    """Seed of the dice (``None`` when the dice were given, as in tests)."""


@dataclass(frozen=True, slots=True)
class TurnStart(Event):
    KIND: ClassVar[str] = "turn_start"
    turn: int
    """1-based turn number."""


@dataclass(frozen=True, slots=True)
class Roll(Event):
    KIND: ClassVar[str] = "roll"
    who: str
    """Unit id (or side id for initiative) that rolled."""
    purpose: RollPurpose
    """Why it was rolled."""
    value: int
    """The die, 1..6."""
    modifier: int
    """Added to the die (Power, Resistance), else 0."""
    against: int
    """What it was compared with: the Skill for a Skill roll, the opposing total otherwise."""
    outcome: RollOutcome
    """What it came to."""


@dataclass(frozen=True, slots=True)
class Initiative(Event):
    KIND: ClassVar[str] = "initiative"
    turn: int
    """Turn number."""
    first: str
    """Side that activates first this turn."""


@dataclass(frozen=True, slots=True)
class Activation(Event):
    KIND: ClassVar[str] = "activation"
    unit: str
    """Activated unit."""
    side: str
    """Its side."""
    number: int
    """How many activations the unit has begun, this one included."""


@dataclass(frozen=True, slots=True)
class Move(Event):
    KIND: ClassVar[str] = "move"
    unit: str
    """Unit that moved."""
    path: tuple[tuple[float, float], ...]
    """Points travelled through, first = where it stood."""
    cost: float
    """Movement spent (path length; water counts half for Amphibious units)."""
    facing: float
    """Facing after the move (degrees CCW from +x)."""
    halted: bool
    """True when a failed terrain roll stopped it at the edge."""


@dataclass(frozen=True, slots=True)
class Attack(Event):
    KIND: ClassVar[str] = "attack"
    attacker: str
    """Unit attacking (for a ram back: the rammed unit striking back)."""
    target: str
    """Unit or building attacked."""
    weapon: str
    """Weapon name, or ``Melee`` / ``Ram``."""
    attack: AttackKind
    """Shoot, Melee, Ram or the ram's blow back."""
    power: int
    """Power used."""
    distance: float
    """Distance to the target."""
    outcome: AttackOutcome
    """Missed, damaged, or failed to penetrate."""


@dataclass(frozen=True, slots=True)
class Damage(Event):
    KIND: ClassVar[str] = "damage"
    unit: str
    """Unit or building damaged."""
    by: str | None
    """Unit that dealt it (``None`` for a failed Breaching or collapse roll)."""
    hits: int
    """Hits left after the damage."""


@dataclass(frozen=True, slots=True)
class Suppress(Event):
    KIND: ClassVar[str] = "suppress"
    unit: str
    """Unit suppressed."""
    by: str
    """Unit whose attack suppressed it."""
    skill: int
    """Skill left."""


@dataclass(frozen=True, slots=True)
class Remove(Event):
    KIND: ClassVar[str] = "remove"
    unit: str
    """Unit removed."""
    how: Removal
    """Destroyed or demoralised."""


@dataclass(frozen=True, slots=True)
class Collapse(Event):
    KIND: ClassVar[str] = "collapse"
    building: str
    """Building that fell; its ground becomes its rubble piece."""
    occupants: tuple[str, ...]
    """Units inside when it fell."""


@dataclass(frozen=True, slots=True)
class Reveal(Event):
    KIND: ClassVar[str] = "reveal"
    unit: str
    """Unit no longer concealed."""
    cause: RevealCause
    """Why it was revealed."""
    until: int | None
    """Revealed through the end of its activation with this number; ``None``: until hidden."""


@dataclass(frozen=True, slots=True)
class Conceal(Event):
    KIND: ClassVar[str] = "conceal"
    unit: str
    """Unit now concealed."""


@dataclass(frozen=True, slots=True)
class Score(Event):
    KIND: ClassVar[str] = "score"
    side: str
    """Side scoring."""
    points: int
    """Points scored."""
    reason: str
    """``removed:<unit>``, ``objective:<id>`` or ``razed:<id>``."""
    total: int
    """Side's score afterwards."""


@dataclass(frozen=True, slots=True)
class End(Event):
    KIND: ClassVar[str] = "end"
    reason: EndReason
    """Why the battle ended."""
    turn: int
    """Turn in which the battle ended."""
    winner: str | None
    """Winning side, ``None`` for a draw."""


EVENT_TYPES: dict[str, type[Event]] = {
    cls.KIND: cls
    for cls in (
        BattleStart,
        TurnStart,
        Roll,
        Initiative,
        Activation,
        Move,
        Attack,
        Damage,
        Suppress,
        Remove,
        Collapse,
        Reveal,
        Conceal,
        Score,
        End,
    )
}

_READ: dict[tuple[str, str], Callable[[Any], Any]] = {
    ("move", "path"): _path,
    ("collapse", "occupants"): tuple,
    ("roll", "purpose"): RollPurpose,
    ("roll", "outcome"): RollOutcome,
    ("attack", "attack"): AttackKind,
    ("attack", "outcome"): AttackOutcome,
    ("remove", "how"): Removal,
    ("reveal", "cause"): RevealCause,
    ("end", "reason"): EndReason,
}
"""How a field of a log's event is read back: what JSON keeps as lists and strings."""
