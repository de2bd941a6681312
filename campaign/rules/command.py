"""Who commands a unit, and so which column of the quality table it fights and works with.

A unit led by a character assists that character (the *assisting* column); a unit under an Order
uses *alone, under Orders*; any other unit *alone, without Orders*, which Raw and Green units do
not have: they cannot act alone. A Legendary unit may take command of up to six lesser units not
led by a character, which then count as under Orders. Plain Python: no Django.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from units.bucs import LEGENDARY_COMMAND_LIMIT, Quality


class Command(StrEnum):
    ASSISTING = "assisting"
    UNDER_ORDERS = "under_orders"
    WITHOUT_ORDERS = "without_orders"


# The quality table's columns by their names in BUCS: a card lists all three, so the assisting
# column is named for what it is (assisting a character), led or not.
COMMAND_LABELS = {
    Command.ASSISTING: "assisting a character",
    Command.UNDER_ORDERS: "under Orders",
    Command.WITHOUT_ORDERS: "without Orders",
}


def column(quality: Quality, command: Command) -> tuple[int, str]:
    """(modifier, source) from the quality table for a unit of this quality and command."""
    quality = Quality(quality)
    if command == Command.ASSISTING:
        return quality.assisting, f"{quality.label}, assisting its leader"
    if command == Command.UNDER_ORDERS:
        return quality.alone(under_orders=True), f"{quality.label}, alone under Orders"
    if not quality.can_act_alone:
        return quality.alone(under_orders=False), f"{quality.label} without Orders cannot act alone"
    return quality.alone(under_orders=False), f"{quality.label}, alone without Orders"


@dataclass(frozen=True)
class Commandable:
    """What decides a unit's command: is it led, does it hold an Order, how good is it."""

    key: str
    led: bool
    ordered: bool
    quality: Quality
    """Its effective quality."""


def legendary_command(units: Sequence[Commandable]) -> dict[str, str]:
    """unit key → the key of the Legendary unit that takes command of it.

    Each Legendary unit, in the order given, takes up to six lesser units that are neither led
    by a character nor under an Order of their own, also in the order given.
    """
    legends = [u for u in units if u.quality == Quality.LEGENDARY]
    waiting = [u for u in units if not u.led and not u.ordered and u.quality < Quality.LEGENDARY]
    commanded: dict[str, str] = {}
    for legend in legends:
        for unit in waiting[:LEGENDARY_COMMAND_LIMIT]:
            commanded[unit.key] = legend.key
        waiting = waiting[LEGENDARY_COMMAND_LIMIT:]
    return commanded


def command_of(unit: Commandable, commanded_by: str | None = None) -> Command:
    if unit.led:
        return Command.ASSISTING
    if unit.ordered or commanded_by is not None:
        return Command.UNDER_ORDERS
    return Command.WITHOUT_ORDERS
