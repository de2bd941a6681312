"""Fog of war: the battle as one side saw it.

A side does not see what an enemy unit does while that unit is concealed — its activation, its
moves, its dice. It does see the moment the unit drops out of sight (the ``conceal`` event: the
unit was visible just before) and the moment it reappears (``reveal``), and it always sees what
is public: turns, initiative, removals, scores and the end. The GM, or the owner of a one-off
battle, passes no viewer and sees everything.

Nor does a reader who may not roll the battle again read its seed (`seed_withheld`): with the
seed and the scenario every die comes back, the hidden ones too. Nor its scenario's digest: a
hash of the whole set-up, hidden deployments included, against which a guessed set-up can be
checked. Who may have them is a campaign's rule (``campaign.access.Viewer.sees_every_die``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from battles.engine import Event
from battles.engine import events as ev


def subject(e: Event) -> str | None:
    """The unit an event is about, for deciding whether an enemy could see it."""
    if isinstance(e, ev.Roll):
        return e.who
    if isinstance(e, ev.Attack):
        return e.attacker
    if isinstance(e, ev.Activation | ev.Move | ev.Damage | ev.Suppress | ev.Reveal | ev.Conceal):
        return e.unit
    return None  # public: turns, initiative, removals, collapses, scores, the end


def hidden_events(
    events: Sequence[Event], sides: Mapping[str, str], viewer: str | None
) -> frozenset[int]:
    """Indexes of the events ``viewer``'s side could not see; none when ``viewer`` is None.

    ``sides`` maps unit id to side id. An event is hidden when it is about an enemy unit that is
    concealed both before and after it.
    """
    if viewer is None:
        return frozenset()
    concealed: set[str] = set()
    hidden = set()
    for i, e in enumerate(events):
        unit = subject(e)
        before = unit in concealed
        if isinstance(e, ev.Conceal):
            concealed.add(e.unit)
        elif isinstance(e, ev.Reveal):
            concealed.discard(e.unit)
        enemy = unit is not None and sides.get(unit, viewer) != viewer
        if enemy and before and unit in concealed:
            hidden.add(i)
    return frozenset(hidden)


WITHHELD = {"seed": None, "digest": None}
"""What a battle's header gives a reader who may not roll the battle again: neither its seed
nor its scenario's digest."""


@dataclass(frozen=True)
class SeedWithheld(ev.BattleStart):
    """A battle's header as read by someone who may not have its seed (`WITHHELD`: ``seed``
    and ``digest`` are None)."""


def seed_withheld(events: Sequence[Event]) -> list[Event]:
    """The events with the battle's seed and scenario digest taken out of its header."""
    return [
        SeedWithheld(**{**asdict(e), **WITHHELD}) if isinstance(e, ev.BattleStart) else e
        for e in events
    ]


def seed_withheld_json(data: dict[str, Any]) -> dict[str, Any]:
    """A log as its JSON reads (``{"events": [...]}``) with the battle's seed and scenario
    digest taken out of its header (`WITHHELD`): ``null``, as the log's schema writes them
    for such a reader."""
    events = [
        {**e, **WITHHELD} if isinstance(e, dict) and e.get("kind") == "battle_start" else e
        for e in data["events"]
    ]
    return {**data, "events": events}
