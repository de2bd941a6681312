"""The battle log as a reader wants it: turns, then activations, each event with its dice.

Pure functions of the engine's events and the scenario. A die is rolled before the event it
decides is logged (the Skill and penetration dice before their attack, a terrain roll before its
move, the initiative dice before the initiative), except the occupants' rolls when a building
collapses, which follow it; ``log_turns`` attaches every roll to the event it belongs to, so an
attack can be opened to show exactly the dice behind it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field, replace

from battles.engine import Event, Scenario
from battles.engine import events as ev
from battles.names import Names, scenario_names
from battles.narration import (
    describe,
    describe_idle,
    describe_roll,
    end_scores,
    idle_activations,
    idle_reasons,
    in_sight_reveals,
    turn_summaries,
    unseen_occupants,
)

EVENT_KINDS: dict[str, str] = {
    "battle_start": "Battle start",
    "turn_start": "Turn start",
    "initiative": "Initiative",
    "activation": "Activation",
    "move": "Move",
    "attack": "Attack",
    "roll": "Dice roll",
    "damage": "Damage",
    "suppress": "Suppression",
    "remove": "Removal",
    "collapse": "Building collapse",
    "reveal": "Reveal",
    "conceal": "Concealment",
    "score": "Score",
    "end": "End",
}
"""Every kind of event, with the name the log filter shows for it."""

_ROLLS_BEFORE = {"attack", "move", "initiative"}
"""Events whose dice are logged just before them."""


@dataclass(frozen=True, slots=True)
class Die:
    """One logged die, ready to print."""

    index: int
    """Position of the roll in the log."""
    who: str
    purpose: str
    value: int
    text: str
    outcome: str

    @property
    def face(self) -> str:
        """The die as a glyph (⚀ to ⚅)."""
        return chr(0x2680 + self.value - 1) if 1 <= self.value <= 6 else str(self.value)


@dataclass(slots=True)
class Entry:
    """One event of the log with the dice rolled for it."""

    index: int
    """Position in the log (the anchor ``ev-<index>`` on the page)."""
    kind: str
    text: str
    dice: list[Die] = field(default_factory=list)
    units: frozenset[str] = frozenset()
    """Units and buildings the event (or one of its dice) concerns: what the unit filter sees."""
    outcome: str = ""
    """An attack's outcome (miss, damage, no_damage), for styling."""
    veiled: bool = False
    """Stands in for a hidden activation under fog of war: which unit it was stays unsaid."""


@dataclass(slots=True)
class ActivationGroup:
    """One unit's activation and everything that happened during it."""

    unit: str
    side: str
    side_index: int
    """0 or 1: which side's colour it wears."""
    title: str
    entries: list[Entry] = field(default_factory=list)


@dataclass(slots=True)
class Turn:
    """One turn; turn 0 is deployment, before the first turn begins."""

    number: int
    title: str
    opening: list[Entry] = field(default_factory=list)
    """Turn start and initiative (or, for turn 0, the header and initial concealment)."""
    activations: list[ActivationGroup] = field(default_factory=list)
    closing: list[Entry] = field(default_factory=list)
    """Objective points scored after the last activation, and the end of the battle."""
    summary: str = ""
    """The score after the turn and the units it took out (`narration.turn_summaries`)."""

    @property
    def empty(self) -> bool:
        return not (self.opening or self.closing or any(a.entries for a in self.activations))


# --- what events concern ---------------------------------------------------------------------


def unit_sides(scenario: Scenario) -> dict[str, str]:
    """Side id of every unit and of every building that belongs to a side."""
    sides = {u.id: u.side for u in scenario.units()}
    sides.update({b.id: b.side for b in scenario.buildings if b.side is not None})
    return sides


def involved(e: Event) -> frozenset[str]:
    """The units and buildings an event concerns."""
    if isinstance(e, ev.Roll):
        return frozenset({e.who})
    if isinstance(e, ev.Attack):
        return frozenset({e.attacker, e.target})
    if isinstance(e, ev.Damage | ev.Suppress):
        return frozenset(x for x in (e.unit, e.by) if x)
    if isinstance(e, ev.Activation | ev.Move | ev.Remove | ev.Reveal | ev.Conceal):
        return frozenset({e.unit})
    if isinstance(e, ev.Collapse):
        return frozenset({e.building, *e.occupants})
    if isinstance(e, ev.Score):
        what, _, key = e.reason.partition(":")
        return frozenset({key}) if what in ("removed", "razed") else frozenset()
    return frozenset()


# --- the structure ------------------------------------------------------------------------------


def log_entries(events: Sequence[Event], names: Names, hidden: Collection[int] = ()) -> list[Entry]:
    """One entry per non-roll event (rolls attached to their event); ``hidden`` indexes left out.

    A roll that belongs to no event (none does in the engine's logs) becomes an entry of its own,
    so nothing of the log is ever dropped silently.
    """
    entries: list[Entry] = []
    pending: list[tuple[int, ev.Roll]] = []
    collapse: Entry | None = None
    idle = idle_activations(events)
    why_idle = idle_reasons(events, names, hidden)
    at_end = end_scores(events, names)
    seen = in_sight_reveals(events)

    def die(i: int, r: ev.Roll) -> Die:
        return Die(i, r.who, r.purpose, r.value, describe_roll(r, names), r.outcome)

    def flush() -> None:
        for i, r in pending:
            entries.append(Entry(i, "roll", describe_roll(r, names), units=frozenset({r.who})))
        pending.clear()

    for i, e in enumerate(events):
        if isinstance(e, ev.Roll):
            if i in hidden:
                continue
            if e.purpose == ev.RollPurpose.COLLAPSE and collapse is not None:
                collapse.dice.append(die(i, e))
                collapse.units = collapse.units | {e.who}
            else:
                pending.append((i, e))
            continue
        if e.KIND not in _ROLLS_BEFORE:
            flush()
        if i in hidden:
            pending.clear()  # the dice of a hidden event are hidden with it
            if isinstance(e, ev.Activation):
                # The enemy's turn to act is no secret; which unit acted is.
                text = f"{names.side(e.side)} activates a unit out of sight."
                entries.append(Entry(i, "activation", text, veiled=True))
            continue
        unseen = unseen_occupants(events, i, hidden)
        if i in idle:
            text = describe_idle(e, names, why_idle.get(i, ""))
        else:
            text = describe(e, names, at_end=i in at_end, in_sight=i in seen, unseen=unseen)
        # Nor does the unit filter find a unit out of sight under the building that fell on it.
        entry = Entry(i, e.KIND, text, units=involved(e) - unseen)
        if e.KIND in _ROLLS_BEFORE:
            entry.dice = [die(j, r) for j, r in pending]
            entry.units = entry.units | {r.who for _, r in pending}
            pending.clear()
        if isinstance(e, ev.Attack):
            entry.outcome = e.outcome
        collapse = entry if isinstance(e, ev.Collapse) else collapse
        entries.append(entry)
    flush()
    return entries


def log_turns(
    events: Sequence[Event],
    scenario: Scenario,
    hidden: Collection[int] = (),
    names: Names | None = None,
) -> list[Turn]:
    """The log as turns of activations: what the full-log view renders, every piece called by
    ``names`` (by default as ``battles.names`` calls them)."""
    names = names or scenario_names(scenario)
    side_index = {s.id: i for i, s in enumerate(scenario.sides)}
    turns = [Turn(0, "Deployment")]
    summaries = turn_summaries(events, names)
    for entry in log_entries(events, names, hidden):
        e = events[entry.index]
        turn = turns[-1]
        if isinstance(e, ev.TurnStart):
            summary = summaries.get(e.turn, "")
            turns.append(Turn(e.turn, f"Turn {e.turn}", opening=[entry], summary=summary))
        elif isinstance(e, ev.Activation):
            who = "a unit out of sight" if entry.veiled else names.units[e.unit]
            title = f"{names.side(e.side)}: {who}"
            unit = "" if entry.veiled else e.unit
            group = ActivationGroup(unit, e.side, side_index.get(e.side, 0), title, [entry])
            turn.activations.append(group)
        elif isinstance(e, ev.Initiative | ev.BattleStart) or (
            not turn.activations and not turn.closing
        ):
            turn.opening.append(entry)
        elif _after_activations(e) or turn.closing:
            turn.closing.append(entry)
        else:
            turn.activations[-1].entries.append(entry)
    return [t for t in turns if not t.empty]


def _after_activations(e: Event) -> bool:
    """Objective points and the end come after the turn's last activation, not inside it."""
    if isinstance(e, ev.End):
        return True
    return isinstance(e, ev.Score) and not e.reason.startswith("removed:")


def filter_turns(turns: Iterable[Turn], *, unit: str = "", kind: str = "") -> list[Turn]:
    """Only the entries about ``unit`` and of ``kind`` ("" matches all); empty groups dropped.

    Filtering by ``roll`` keeps every event that has dice, with its dice.
    """

    def keep(entry: Entry) -> bool:
        if unit and unit not in entry.units:
            return False
        if not kind:
            return True
        return entry.kind == kind or (kind == "roll" and bool(entry.dice))

    out = []
    for t in turns:
        groups = [replace(a, entries=[x for x in a.entries if keep(x)]) for a in t.activations]
        kept = replace(
            t,
            opening=[x for x in t.opening if keep(x)],
            activations=[a for a in groups if a.entries],
            closing=[x for x in t.closing if keep(x)],
        )
        if not kept.empty:
            out.append(kept)
    return out


def _entries(turns: Iterable[Turn]) -> Iterable[Entry]:
    for t in turns:
        yield from (*t.opening, *(y for a in t.activations for y in a.entries), *t.closing)


def entry_count(turns: Iterable[Turn]) -> int:
    """Events shown, dice included. An activation out of sight under fog of war is no event
    the reader's side saw (their download leaves it out too): it is counted by `veiled_count`."""
    return sum((0 if x.veiled else 1) + len(x.dice) for x in _entries(turns))


def veiled_count(turns: Iterable[Turn]) -> int:
    """The activations of units out of sight the log marks in place of what they did."""
    return sum(1 for x in _entries(turns) if x.veiled)
