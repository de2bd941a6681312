"""What a reader sees of a battle: the units left out of its tables, and whose eyes it is seen
through."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from campaign.models import Unit
from units.words import and_words, plural, possessive


def units_seen_in_summary(units: Iterable[Unit], *, spectator: bool) -> str:
    """Why a battle's tables leave out the units of forces the reader sees only in summary,
    counted by force: "Blue Battalion's 5 units are left out: you see that force only in
    summary." ("" when there are none)."""
    counts = Counter(u.force.name for u in units)
    if not counts:
        return ""
    whose = and_words([f"{possessive(name)} {plural(n, 'unit')}" for name, n in counts.items()])
    verb = "is" if sum(counts.values()) == 1 else "are"
    if spectator:
        why = "the GM shows spectators every force in summary only"
    else:
        why = f"you see {'that force' if len(counts) == 1 else 'those forces'} only in summary"
    return f"{whose} {verb} left out: {why}."


def fog_notice(
    *, side_name: str | None, fog_of_war: bool, spectator: bool, in_summary: Iterable[str]
) -> str:
    """Why a battle's page shows the reader the battle through one side's eyes (``side_name``,
    the side's name) or its outcome only (``None``), as `fog.fog_side` decides: the
    campaign's fog of war, else the forces that fought it the reader sees only in summary
    (``in_summary``, their names)."""
    if fog_of_war:
        if side_name is None:
            return (
                "Fog of war: you had no units in this battle, so you see its outcome only; "
                "its log and replay are for the sides that fought."
            )
        return (
            f"Fog of war: you see this battle as {side_name} saw it — concealed enemy units "
            "and their dice stay hidden until revealed."
        )
    if spectator:
        why = "The GM shows spectators every force in summary"
    else:
        why = f"You see {and_words(sorted(set(in_summary)))} only in summary"
    if side_name is None:
        had = "" if spectator else " and had no units in this battle"
        return f"{why}{had}: you see this battle's outcome only."
    return (
        f"{why}: you see this battle as {side_name} saw it — concealed enemy units and their "
        "dice stay hidden until revealed."
    )
