"""Orders and the campaign clock in hours.

Only a character gives an Order. Every Order has a listed time in hours; the unit takes half
its quality step off it, at least 1 hour. The campaign clock counts hours within its days: the
calendar (R&R, the medics' window) still moves in whole days. Listed times the copy does not
give are the project's (docs/bucs-choices.md, "Orders"). Plain Python: no Django.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from units.bucs import Equipment, Fielded, Quality, Specialty, fielded, quality_for_order
from units.words import capfirst

HOURS_PER_DAY = 24
MIN_ORDER_HOURS = 1


class OrderKind(StrEnum):
    """The Orders the copy names; the value is the stable name used in data."""

    ATTACK = "attack"
    USE_SKILL = "use_skill"
    ESTABLISH_BEACHHEAD = "establish_beachhead"

    @property
    def row(self) -> OrderRow:
        return ORDER_TABLE[self]

    @property
    def label(self) -> str:
        return self.row.label


@dataclass(frozen=True)
class OrderRow:
    label: str
    listed_hours: int
    """The listed time; for Use Skill the GM may state the skill's own."""
    specialty: Specialty | None
    """The specialty the Order belongs to; None for the common Orders any unit can take."""
    chosen: bool
    """True where the copy gives no time and the project chose it."""


ORDER_TABLE: dict[OrderKind, OrderRow] = {
    OrderKind.ATTACK: OrderRow("Attack", 2, None, chosen=True),
    OrderKind.USE_SKILL: OrderRow("Use Skill", 2, None, chosen=True),
    OrderKind.ESTABLISH_BEACHHEAD: OrderRow(
        "Establish Beachhead", 1, Specialty.AMPHIBIOUS, chosen=False
    ),
}


def order_done_text(unit: object, kind: str, giver: str) -> str:
    """An Order done, named for a list of them: "Aid Post (Use Skill, given by Lt. Ada
    Reyes)" (the unit, the Order, the character who gave it)."""
    return f"{unit} ({OrderKind(kind).label}, given by {giver})"


def within_specialties(kind: OrderKind, specialties: tuple[Specialty, ...]) -> bool:
    """A common Order is within every unit's specialties; a specialty Order needs its specialty."""
    needs = order_needs(kind)
    return not needs or bool(needs & set(specialties))


def order_needs(kind: OrderKind) -> frozenset[Specialty]:
    """The specialty an Order belongs to, as a set (empty for a common Order)."""
    specialty = OrderKind(kind).row.specialty
    return frozenset() if specialty is None else frozenset({specialty})


def order_kit(
    kind: OrderKind, quality: Quality, equipment: Equipment, specialties: tuple[Specialty, ...]
) -> Fielded:
    """The quality and kit a unit performs the Order with: outside its specialties, as Raw with
    Poor kit ("performs as Raw"; "counts as Poor"), by the one rule `units.bucs.fielded`."""
    return fielded(quality, equipment, specialties, order_needs(kind))


def outside_specialties_text(
    kind: OrderKind, equipment: Equipment, specialties: tuple[Specialty, ...]
) -> str:
    """An Order outside the unit's specialties, in a sentence: "Establish Beachhead is outside
    its specialties: it performs as Raw, with Poor kit." (its kit named only where it changes:
    Poor kit is Poor already); "" for an Order within them."""
    kind = OrderKind(kind)
    if within_specialties(kind, tuple(specialties)):
        return ""
    kit = order_kit(kind, Quality.RAW, equipment, tuple(specialties))
    poor = f", with {kit.equipment.label} kit" if kit.equipment != equipment else ""
    return f"{kind.label} is outside its specialties: it performs as Raw{poor}."


def order_quality(kind: OrderKind, quality: Quality, specialties: tuple[Specialty, ...]) -> Quality:
    """The quality a unit performs the Order at: outside its specialties, as Raw."""
    return quality_for_order(quality, within_specialties=within_specialties(kind, specialties))


def order_hours(listed_hours: int, quality: Quality, *, hours_saved: int = 0) -> int:
    """The listed time less half the unit's quality step (and the giver's savings), at least 1."""
    if listed_hours < MIN_ORDER_HOURS:
        raise ValueError(f"an Order's listed time is 1 hour or more, got {listed_hours}")
    return max(MIN_ORDER_HOURS, listed_hours - int(quality) // 2 - hours_saved)


def order_hours_working(
    listed_hours: int, quality: Quality, *, hours_saved: int = 0, saved_by: str = ""
) -> str:
    """How `order_hours` reckons an Order's hours, in words a GM checks against the book:
    "6 listed, less 1 for Average, half its step 3 rounded down, less 1 for a Strategist
    giving it". ``saved_by`` names who saves ``hours_saved`` ("a Strategist")."""
    parts = [f"{listed_hours} listed"]
    if half := int(quality) // 2:
        parts.append(f"less {half} for {quality.label}, half its step {int(quality)} rounded down")
    if hours_saved:
        parts.append(f"less {hours_saved} for {saved_by or 'its giver'} giving it")
    if listed_hours - half - hours_saved < MIN_ORDER_HOURS:
        parts.append(f"at least {MIN_ORDER_HOURS}")
    return ", ".join(parts)


def clock_hour(day: int, hour: int) -> int:
    """Hours since the campaign's first midnight: day 1, 00:00 is 0."""
    return (day - 1) * HOURS_PER_DAY + hour


def clock_time(hours: int) -> tuple[int, int]:
    """(day, hour) of a clock reading."""
    return hours // HOURS_PER_DAY + 1, hours % HOURS_PER_DAY


def clock_text(hours: int) -> str:
    """A clock reading: "day 3, 14:00"."""
    return f"day {clock_time(hours)[0]}, {hour_text(hours)}"


def hour_text(hours: int) -> str:
    """A clock reading's hour within its day, for a line that gives the day already: "14:00"."""
    return f"{clock_time(hours)[1]:02d}:00"


def order_named(kind: str, giver: str) -> str:
    """An Order by what it is and who gave it: "the Order to Attack from Sgt. Reyes"."""
    return f"the Order to {OrderKind(kind).label} from {giver}"


def order_given_text(
    kind: str, giver: str, given_at: int, finishes_at: int, *, replaces: str = "", note: str = ""
) -> str:
    """An Order given, as its unit's history tells it on the day it was given: "Ordered to
    Attack by Sgt. Reyes at 14:00, to be done at day 3, 16:00, in place of the Order to Use
    Skill from Lt. Ash: hold the Mill" (``replaces``: the Order under way it replaced, as
    `order_named` names it; ``note``: the giver's words)."""
    text = (
        f"Ordered to {OrderKind(kind).label} by {giver} at {hour_text(given_at)}, "
        f"to be done at {clock_text(finishes_at)}"
    )
    if replaces:
        text += f", in place of {replaces}"
    return f"{text}: {note}" if note else text


def order_called_off_text(named: str, at: int) -> str:
    """An Order called off, as its unit's history tells it that day: "The Order to Attack from
    Sgt. Reyes was called off at 15:00" (``named`` by `order_named`)."""
    return f"{capfirst(named)} was called off at {hour_text(at)}"


def order_ended_text(named: str, at: int) -> str:
    """An Order ended with its unit taken out of action, told after the entry that says how:
    "The Order to Attack from Sgt. Reyes ended with it at day 3, 15:00"."""
    return f"{capfirst(named)} ended with it at {clock_text(at)}"


def order_goes_on_text(named: str, finishes_at: int) -> str:
    """An Order that had ended with its unit, going on as what took the unit out of action is
    undone: "The Order to Attack from Sgt. Reyes goes on, what ended it undone: done at day 3,
    16:00"."""
    return f"{capfirst(named)} goes on, what ended it undone: done at {clock_text(finishes_at)}"
