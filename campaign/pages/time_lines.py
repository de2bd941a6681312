"""What the clock did or will do to the units, in sentences: its review and its summary."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from django.utils.text import capfirst

from campaign.models import HistoryEntry, Unit
from campaign.pages.history_words import dead_first
from campaign.pages.names import unit_label
from campaign.rules.history import experience_text, story_text, told_why
from campaign.rules.orders import clock_hour, clock_text
from campaign.rules.recovery import CASUALTIES, medical_window_closes, morale_hits_healable
from campaign.rules.state import SNAPSHOT_FIELDS, CampaignUnitState, Status
from campaign.rules.window import withdrawn_text
from campaign.selectors.reviews import entries_changes
from units.words import and_words, plural


@dataclass(frozen=True)
class TimeStep:
    """One thing the clock did (or will do) to a unit: when, why, and its whole snapshot just
    before and just after."""

    unit: Unit
    when: str
    why: str
    before: dict[str, Any]
    after: dict[str, Any]
    passing: bool = False
    """It happens as the clock passes ``when`` (`dead_when`: the dead), not at it."""

    def changed(self) -> tuple[dict[str, Any], dict[str, Any]]:
        was = {k: v for k, v in self.before.items() if self.after.get(k, v) != v}
        return was, {k: self.after[k] for k in SNAPSHOT_FIELDS if k in was}

    @property
    def told(self) -> bool:
        """Worth a sentence: Casualty hits dying, a unit destroyed, rallied, losing quality,
        Skill or experience; a day's R&R healing a Morale hit only is left to the table."""
        now = self.changed()[1]
        return any(f in now for f in ("casualty_hits", "status", "quality", "skill_lost",
                                      "experience"))  # fmt: skip


def _time_lines(steps: Iterable[TimeStep], *, ahead: bool = False) -> list[str]:
    """What the clock did (or will do), one sentence per unit, in the order each unit's first
    told step came: "Day 3, 00:00: Tiger One (Red Company): a day of R&R; rallied, then after
    day 3, 00:00, 1 Casualty hit not saved within 24 hours died; fell from Average to
    Inexperienced; ...". Each step's reason, in order (its time when it differs from the
    first's: the dead `dead_when`, as the clock passes it), with its rally or fall when there
    are several (`_headed`), then what else they did to the unit together, true as of the
    last told step. Steps after it that only heal Morale hits
    follow, with what the unit carries at the end, so the sentence ends where the table of
    changes does: "...; now carries 3 Morale hits; then on each of day 4,
    00:00 and day 5, 00:00, a day of R&R: now carries 1 Morale hit". What
    the steps did to its experience follows in a sentence of its own ("It has 0 experience
    points (3 before)."). The clock's review and its summary alike (`time_lines_ahead`,
    `time_lines_done`); ``ahead``: the review's, what is still to come in the present tense
    ("rallies", "falls from Average to Inexperienced", `history.story_text`)."""
    by_unit: dict[int, list[TimeStep]] = {}
    told: list[int] = []  # the units worth a sentence, in the order their first told step came
    for step in steps:
        if not (step.told or "morale_hits" in step.changed()[1]):
            continue  # a day of R&R that found nothing to heal
        by_unit.setdefault(step.unit.pk, []).append(step)
        if step.told and step.unit.pk not in told:
            told.append(step.unit.pk)
    lines = []
    for pk in told:
        unit_steps = by_unit[pk]
        marks = [i for i, step in enumerate(unit_steps) if step.told]
        done, after = unit_steps[marks[0] : marks[-1] + 1], unit_steps[marks[-1] + 1 :]
        first, last = done[0], done[-1]
        was, now = TimeStep(first.unit, "", "", first.before, last.after).changed()
        if len(done) > 1:
            # Each step's own fall or rally said with it: after them all, "…, then on day 4,
            # a day of R&R; rallied; fell from Average to Raw" reads as though rallying cost it.
            done = [replace(step, why=_headed(step, ahead=ahead)) for step in done]
            was = {k: v for k, v in was.items() if k not in HEADLINE_FIELDS}
            now = {k: v for k, v in now.items() if k not in HEADLINE_FIELDS}
            first = done[0]
        # Its experience in a sentence of its own: at the end of the long one, after the dead,
        # their fights and its hits, it is lost.
        quality = last.after.get("quality")
        # A destroyed unit rises to nothing: its points are no one's count.
        gone = last.after.get("status") == Status.DESTROYED
        experience = experience_text(was, now, quality) if "experience" in now and not gone else ""
        now = {k: v for k, v in now.items() if k != "experience"}
        why = first.why + _then(done[1:], first.when)
        line = f"{first.when}: {first.unit.name} ({first.unit.force.name}): {why}"
        if told := story_text(was, now, last.after, ahead=ahead):  # the clock kills no leader
            line += f"; {told}"
        if after:
            # The R&R after the last told step heals on: said, so the line ends as the table.
            was, now = TimeStep(first.unit, "", "", last.after, after[-1].after).changed()
            told = story_text(was, now, after[-1].after, ahead=ahead)
            line += f";{_then(after, first.when)[1:]}: {told}"
        lines.append(f"{line}." + (f" It {experience}." if experience else ""))
    return lines


HEADLINE_FIELDS = ("status", "quality")
"""What one step of the clock's did to a unit that a line of several says with that step: its
rally or its end, its step of quality."""


def _headed(step: TimeStep, *, ahead: bool = False) -> str:
    """``step``'s reason with what it did to the unit's status and quality, if anything: "a day
    of R&R; rallied", "3 Casualty hits not saved within 24 hours died; fell from Average to
    Raw"; ``ahead``, what it will do: "a day of R&R; rallies"."""
    was, now = step.changed()
    now = {k: v for k, v in now.items() if k in HEADLINE_FIELDS}
    if not now:
        return step.why
    return f"{step.why}; {story_text(was, now, step.after, ahead=ahead)}"


def _then(steps: list[TimeStep], first_when: str) -> str:
    """The steps after a unit's first, in order, each with its time when it differs from the
    first's: ", then on day 4, 00:00, a day of R&R"; a run of steps with one reason is said once,
    with each time: ", then on each of day 4, 00:00 and day 5, 00:00, a day of R&R"."""
    said = ""
    runs: list[list[TimeStep]] = []
    for step in steps:
        if runs and runs[-1][-1].why == step.why and not _after(step) and not _after(runs[-1][-1]):
            runs[-1].append(step)
        else:
            runs.append([step])
    for run in runs:
        whens = [f"{step.when[:1].lower()}{step.when[1:]}" for step in run]
        if len(run) > 1:
            at = f"on each of {and_words(whens)}, "
        elif run[0].when == first_when:
            at = ""
        else:
            at = f"{whens[0]}, " if _after(run[0]) else f"on {whens[0]}, "
        said += f", then {at}{run[0].why}"
    return said


def dead_when(at: int) -> str:
    """When Casualty hits the medics left unsaved die, their window's last hour at clock hour
    ``at`` (`Passing.at`): as the clock passes it, "After day 2, 00:00", as `dies_when` tells
    it ahead, the review and the summary of the clock alike."""
    return f"After {clock_text(at)}"


def _after(step: TimeStep) -> bool:
    """Whether ``step`` happens as the clock passes its time (`dead_when`), not at it."""
    return step.passing


def time_lines_ahead(passings: Iterable[tuple[Unit, CampaignUnitState, Any]]) -> list[str]:
    """What the clock moving on will do, unit by unit, in sentences (`advance_passings`):
    Casualty hits dying as a medical window closes, a unit destroyed, rallied, losing quality,
    in the present tense: "3 Casualty hits not saved within 24 hours die; is destroyed"."""
    steps = []
    for unit, before, passing in passings:
        if passing.kind == CASUALTIES:
            verb = "dies" if passing.dead == 1 else "die"
            why = f"{plural(passing.dead, 'Casualty hit')} not saved within 24 hours {verb}"
            if withdrawn := withdrawn_text(before):
                why = f"{why}; {withdrawn}"
        else:
            why = "a day of R&R"
        dead = passing.kind == CASUALTIES
        when = dead_when(passing.at) if dead else clock_text(passing.at)
        when = capfirst(when)
        steps.append(TimeStep(unit, when, why, before.to_json(), passing.state.to_json(), dead))
    return _time_lines(steps, ahead=True)


def kept_in_zone_text(passings: Iterable[tuple[Unit, CampaignUnitState, Any]]) -> str:
    """The units whose days of R&R in ``passings`` (`advance_passings`) leave them their last
    Morale hit, in a sentence: still in the combat zone, under stress, that one heals only by
    R&R out of it (`recovery.morale_hits_healable`), so the GM who wants it healed withdraws
    them first; "" when no day of R&R leaves any so."""
    kept: dict[int, Unit] = {}
    for unit, _, passing in passings:
        if passing.kind == CASUALTIES:
            continue
        state = passing.state
        if state.in_combat_zone and state.morale_hits and not morale_hits_healable(state):
            kept[unit.pk] = unit
        else:
            kept.pop(unit.pk, None)
    return kept_last_morale_text(sorted(kept.values(), key=lambda u: (u.force.name, u.name)))


def kept_last_morale_text(units: list[Unit] | tuple[Unit, ...]) -> str:
    """``units``, each in the combat zone with its one Morale hit its last, in a sentence: under
    stress that one heals only by R&R out of the zone (`recovery.morale_hits_healable`), so
    whoever wants it healed withdraws them first; "" for none. The review of the time says it
    of the days of R&R ahead (`kept_in_zone_text`), the medics' box of their work today."""
    if not units:
        return ""
    one = len(units) == 1
    return (
        f"Still in the combat zone, {and_words([unit_label(u) for u in units])} "
        f"{'keeps its' if one else 'keep their'} last Morale hit: under stress it heals only by "
        f"R&R out of the zone (withdraw {'it' if one else 'them'} to the rear on "
        f"{'its page' if one else 'their pages'} first)."
    )


def time_lines_done(entries: list[HistoryEntry], start: int = 0) -> list[str]:
    """What the clock moving on did, unit by unit, in sentences, from the history entries it
    wrote (oldest first), moving on from clock hour ``start``: the same sentences as
    `time_lines_ahead`, in the past tense, each at the time its review told."""
    snapshots = {unit.pk: before.to_json() for unit, before, _ in entries_changes(entries)}
    steps = []
    for entry in entries:
        snapshot = snapshots[entry.unit_id]
        before = dict(snapshot)
        snapshot.update(entry.after)
        why = dead_first(told_why(entry.text, entry.before, entry.after))
        at = _entry_at(entry, before, start)
        dead = at is not None and entry.kind == HistoryEntry.Kind.CASUALTIES
        if at is None:
            when = f"Day {entry.day}"
        elif dead:
            when = dead_when(at)
        else:
            when = clock_text(at).capitalize()
        steps.append(TimeStep(entry.unit, when, why, before, dict(snapshot), dead))
    return _time_lines(steps)


def _entry_at(entry: HistoryEntry, before: dict[str, Any], start: int) -> int | None:
    """The clock hour the clock's moving on from ``start`` wrote ``entry`` at (``before``: the
    unit's snapshot just before it), as `recovery.time_passes` dated it: a day of R&R at its
    midnight, the dead at their window's last hour (None: no window to tell it by)."""
    if entry.kind != HistoryEntry.Kind.CASUALTIES:
        return clock_hour(entry.day, 0)
    closes = medical_window_closes(CampaignUnitState.from_json(before))
    return None if closes is None else max(closes, start)
