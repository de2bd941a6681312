"""How the pages name a unit and order names as people read them."""

from __future__ import annotations

import re

from campaign.models import Unit


def name_order(name: str) -> tuple[tuple[int, str | int], ...]:
    """A name's place in a list read by people: its numbers by their value, so "Squad 2" comes
    before "Squad 10" and "2nd Squad" before "10th Squad"; letters whatever their case."""
    return tuple(
        (0, int(part)) if part.isdecimal() else (1, part)
        for part in re.split(r"(\d+)", name.casefold())
        if part
    )


def unit_label(unit: Unit) -> str:
    """A persistent unit as every page names it: "Iron Wolf (Blue Battalion)"."""
    return f"{unit.name} ({unit.force.name})"
