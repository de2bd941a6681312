"""How the units' Orders went into a campaign battle, a line per way in."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.text import capfirst

from campaign.models import Unit
from campaign.rules.bridge import commander_unnamed, went_in_for_each, went_in_text
from units.words import and_words


def orders_going_in(
    units: Iterable[Unit], orders: Mapping[str, Mapping[str, Any]]
) -> list[tuple[str, str]]:
    """(who, how their Orders went in) for a campaign battle's page, a line per way in:
    ``units`` are the battle's units the reader sees, in side order, and ``orders`` the
    battle's (unit pk → how its Orders went in), read as a record of the launch
    (`bridge.went_in_text`). Units whose Orders went in alike share a line, said of each of them
    (`bridge.went_in_for_each`), which names them
    in as few words as say who, as the subject of the sentence the line reads as: the others by
    name with their force ("Atlas and Tiger One (Red Company)"), then all of a force's units by
    the force ("every unit of Blue Battalion and Red Company"), "Atlas (Red Company) and every
    unit of Blue Battalion" and, when a part names several itself, "Aid Post and Tiger One (Red
    Company), and every unit of Blue Battalion" (`units_said`). A Legendary unit in command of
    one of them is named only if it is one of ``units`` (`bridge.commander_unnamed`)."""
    units = list(units)
    in_force = Counter(u.force_id for u in units)
    seen = {u.name for u in units}
    alike: dict[str, list[Unit]] = {}
    for unit in units:
        if (going := orders.get(str(unit.pk))) is not None:
            text = going["text"] if going.get("giver") in seen else commander_unnamed(going)
            text = went_in_text(text, going.get("giver") or "")
            alike.setdefault(text, []).append(unit)
    lines = []
    for text, group in alike.items():
        by_force: dict[int, list[Unit]] = {}
        for unit in group:
            by_force.setdefault(unit.force_id, []).append(unit)
        whole = [us[0].force.name for f, us in by_force.items() if len(us) == in_force[f] > 1]
        parts = [
            f"{and_words([u.name for u in us])} ({us[0].force.name})"
            for f, us in by_force.items()
            if not len(us) == in_force[f] > 1
        ]
        parts += [f"every unit of {and_words(whole)}"] if whole else []
        lines.append((units_said(parts), went_in_for_each(text) if len(group) > 1 else text))
    return lines


def units_said(parts: list[str]) -> str:
    """The parts of a line's units (`orders_going_in`) as one subject: "Atlas (Red Company)
    and every unit of Blue Battalion"; a part that names several units itself is set off by a
    comma, so its "and" is not read as the list's: "Aid Post and Tiger One (Red Company), and
    Iron Wolf (Blue Battalion)". Its first letter a capital."""
    if len(parts) > 1 and any(" and " in part for part in parts):
        said = ", ".join(parts[:-1]) + f", and {parts[-1]}"
    else:
        said = and_words(parts)
    return capfirst(said)
