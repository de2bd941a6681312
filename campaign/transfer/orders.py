"""Checks of the Orders an import's characters gave."""

from __future__ import annotations

from typing import Any

from campaign.rules.orders import OrderKind, clock_text
from campaign.rules.state import Status
from campaign.transfer.checker import Checker, check_names, check_whole
from campaign.transfer.format import LARGEST_DAY, NEWER_ORDER_VALUES, ORDER_KEYS
from units.words import given

ENDED_AS = (Status.RETREATED, Status.DESTROYED)
"""The statuses that end an Order with its unit (`services.orders_follow.orders_follow_unit`)."""


def _ended_as(order: dict[str, Any]) -> dict[str, str]:
    """What ended an Order, for an export written before it was kept: then only a unit
    destroyed ended one."""
    return {"ended_as": Status.DESTROYED if order.get("ended_at") is not None else ""}


def check_orders(
    c: Checker,
    path: str,
    data: Any,
    *,
    characters: set[str],
    units: set[tuple[str, str]],
    destroyed: set[tuple[str, str]],
    now: int | None = None,
) -> list[dict[str, Any]]:
    """The Orders characters gave: giver by name, unit by force and unit name (``destroyed``:
    those destroyed), on the clock (``now``, the export's clock hour, when it is one)."""

    def one(at: str, order: dict[str, Any]) -> None:
        if check_names(c, at, order, ("giver",)) and order["giver"] not in characters:
            c.error(f"{at}.giver", f"no character {given(order['giver'])} in the export")
        if (
            check_names(c, at, order, ("force", "unit"))
            and (order["force"], order["unit"]) not in units
        ):
            c.error(
                f"{at}.unit", f"no unit {given(order['unit'])} in force {given(order['force'])}"
            )
        if order["kind"] not in [k.value for k in OrderKind]:
            c.error(f"{at}.kind", f"unknown Order {given(order['kind'])}")
        for key in ("listed_hours", "hours"):
            check_whole(c, f"{at}.{key}", order[key], 1, 32767)
        given_at = check_whole(c, f"{at}.given_at", order["given_at"], 0, LARGEST_DAY)
        done = check_whole(c, f"{at}.finishes_at", order["finishes_at"], 0, LARGEST_DAY)
        if given_at is not None and done is not None and done < given_at:
            c.error(f"{at}.finishes_at", "before the Order was given")
        if not isinstance(order["replaced"], bool):
            c.error(f"{at}.replaced", "must be true or false")
        off = order["called_off_at"]
        if off is not None and given_at is not None and done is not None:
            # Called off while under way, as the site calls one off.
            off = check_whole(c, f"{at}.called_off_at", off, given_at, max(given_at, done - 1))
            if off is not None and order["replaced"] is True:
                c.error(f"{at}.called_off_at", "an Order is replaced or called off, not both")
            elif off is not None and now is not None and off > now:
                # Called off when the clock got there, never ahead of it.
                c.error(f"{at}.called_off_at", f"after the campaign's clock, {clock_text(now)}")
        ended = order["ended_at"]
        if ended is not None and given_at is not None and done is not None:
            # Ended while under way, when its unit retreated in poor order or was destroyed, as
            # the site ends one.
            ended = check_whole(c, f"{at}.ended_at", ended, given_at, max(given_at, done - 1))
            if ended is not None and (order["replaced"] is True or off is not None):
                c.error(f"{at}.ended_at", "an Order is replaced, called off or ended, only one")
            elif ended is not None and now is not None and ended > now:
                c.error(f"{at}.ended_at", f"after the campaign's clock, {clock_text(now)}")
            elif ended is not None:
                # Not said (an older export, or left blank): only a unit destroyed ended one.
                order["ended_as"] = order["ended_as"] or Status.DESTROYED
                if order["ended_as"] not in ENDED_AS:
                    c.error(f"{at}.ended_as", f"one of {', '.join(ENDED_AS)}, for an Order ended")
                elif order["ended_as"] == Status.DESTROYED and (
                    order["force"], order["unit"]) not in destroyed:  # fmt: skip
                    c.error(f"{at}.ended_at", f"ended with its unit, but {given(order['unit'])} is "
                            "not destroyed")  # fmt: skip
        elif ended is None and order["ended_as"] != "":
            c.error(f"{at}.ended_as", "only for an Order ended with its unit")
        if not isinstance(order["note"], str) or len(order["note"]) > 300:
            c.error(f"{at}.note", "must be text of at most 300 characters")

    if isinstance(data, list):
        newer = dict.fromkeys(NEWER_ORDER_VALUES)  # what an older export leaves out: None
        data = [newer | _ended_as(o) | o if isinstance(o, dict) else o for o in data]
    return c.records(path, data, ORDER_KEYS, one)
