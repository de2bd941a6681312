"""Writes that undo: a battle's or an engagement's outcome reverted for every unit it changed
(`outcome_revert`), and one history entry undone (`entry_undo`), each refused while a later
change stands on it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from campaign.models import Character, Force, HistoryEntry, Leader, Unit
from campaign.rules.history import fight_named, sentence, undone_text
from campaign.rules.orders import clock_text, clock_time
from campaign.rules.recovery import casualties_die, medical_window_closes, state_problems
from campaign.rules.state import SNAPSHOT_FIELDS, CampaignUnitState, snapshot_diff, snapshot_replay
from campaign.selectors.reviews import revert_preview, undo_blockers, undo_refused
from campaign.selectors.roster import campaign_now
from campaign.services._record import (
    SAME_CHARACTER,
    SameCharacter,
    locked,
    require_manager,
    text_given,
    unit_change,
)
from campaign.services.notices import notices_after_commit
from campaign.services.recovery import casualties_died_text, closing_details
from campaign.services.roster import unit_move_problems, unit_zone_refusal
from units.models import new_version
from units.words import a_or_an, possessive

Kind = HistoryEntry.Kind
UNREVERTABLE = frozenset({Kind.CREATED, *HistoryEntry.ASIDE})


REVERT_REASON_NEEDED = "say why the change is undone: it goes into every unit's history"
"""What a revert without a reason is refused with, by the service and by its forms."""


Fight = tuple[str, str, str | None]
"""A fight as a revert names it (`undone_text`): "battle" or "engagement", its name, and the
units an engagement the GM did not name is named by ("" for a fight named otherwise; None for
an engagement's entry saved before it kept them)."""


@transaction.atomic
def outcome_revert(
    *,
    entries: Iterable[HistoryEntry],
    reason: str,
    actor: Any = None,
    fight: Fight | None = None,
) -> list[HistoryEntry]:
    """Undo history entries (an applied outcome, say), newest first, as new revert entries.

    Each entry's fields go back to their `before` values. Nothing is written if `revert_plan`,
    judging the units held locked, finds a problem (a unit changed since in a field the entries
    touched, an entry reverted already...), or without a reason. Each revert says in words what
    it undid (`undone_text`): the entries of one ``fight`` (`Fight`: "battle" or "engagement",
    and its name) by its name; without it, the one fight the entries' own battle or engagement
    entries name, if they name one.

    Casualty hits a revert gives back (a medics' save undone, say) come back in the medical
    window they were in: if that window has closed since, they die as the clock would have had
    them die, in the same transaction, with the closing window's entry (`casualties_die`), for
    a unit never carries old Casualty hits.
    """
    chosen = sorted({entry.pk: entry for entry in entries}.values(), key=lambda e: e.pk)
    chosen.reverse()
    errors: dict[str, list[str]] = {}
    text_given(errors, "reason", reason, needed=REVERT_REASON_NEEDED)
    if not chosen:
        errors["entries"] = ["nothing to revert"]
    campaigns = {entry.unit.force.campaign_id for entry in chosen}
    if len(campaigns) > 1:
        errors["entries"] = ["entries from more than one campaign"]
    units = {
        unit.pk: unit
        for unit in Unit.objects.select_for_update(of=("self",))
        .filter(pk__in={entry.unit_id for entry in chosen})
        .select_related("leader__character", "force__campaign")
    }
    if chosen:
        require_manager(units[chosen[0].unit_id].force.campaign, actor)
    # Judged again under the lock: the page that offered the revert read the units before.
    plan = revert_plan(entries=chosen, units=units)
    for field, problems in plan.problems.items():
        errors.setdefault(field, []).extend(problems)
    if errors:
        raise ValidationError(errors)

    if fight is None:
        named = {_fight_of(entry) for entry in chosen} - {None}
        fight = named.pop() if len(named) == 1 else None
    reverted: list[HistoryEntry] = []
    for entry in chosen:
        unit = units[entry.unit_id]
        if entry.pk in plan.moved_back:
            unit.force = plan.moved_back[entry.pk]  # saved with its state, as the move saved it
            notices_after_commit(unit.force.campaign)
        state = CampaignUnitState.from_json({**unit.state.to_json(), **entry.before})
        undid = revert_undid(entry, fight, state)
        written = unit_change(
            unit=unit,
            state=state,
            kind=Kind.REVERT,
            why=f"{reason.strip()}: {undone_text(**undid)}",
            day=unit.force.campaign.day,
            # Its reason and what it undid as data, for the pages that link the fight's name.
            details={"reason": reason.strip(), "undid": undid},
            battle=entry.battle,
            actor=actor,
            reverts=entry,
            always=True,
            character=_relinked(entry, state),
        )
        assert written is not None
        reverted.append(written)
    if plan.closing:
        reverted += _casualties_given_back_die(units, plan.closing, actor)
    _crews_redrawn(chosen, units)
    return reverted


def _crews_redrawn(entries: Iterable[HistoryEntry], units: Mapping[int, Unit]) -> None:
    """The crews whose work a reverted medical entry names have their day's work back
    (`roster.medics_worked`): a new version token, so their force's page, kept as drawn,
    is drawn again. The unit treated may be in another force by now; the units written have
    new tokens already."""
    crews = {
        int(pk)
        for entry in entries
        if entry.kind == Kind.MEDICAL and isinstance(named := entry.details.get("crews"), dict)
        for pk in named
    }
    Unit.objects.filter(pk__in=crews - set(units)).update(version=new_version())


@dataclass(frozen=True)
class RevertPlan:
    """What a revert of some entries would do, judged without writing (`revert_plan`)."""

    problems: dict[str, list[str]]
    """Why it would be refused, by "entries.<id>" (the entry refused): empty when it would not."""
    moved_back: dict[int, Force]
    """By entry: the force a move undone takes the unit back to."""
    closing: dict[int, int]
    """By unit: the clock hour now, for each unit whose Casualty hits given back die at once."""


def revert_plan(
    *, entries: Iterable[HistoryEntry], units: Mapping[int, Unit] | None = None
) -> RevertPlan:
    """Judge a revert of ``entries`` as the units stand now, writing nothing: the one judgement
    `outcome_revert` makes (with ``units`` it holds locked) before it writes, and a page makes
    (reading the units itself) to say why not before the GM presses anything.

    Refused: an entry that stays (a unit's raising, a revert), or reverted already; a unit that
    has changed since in a field the entries touched (undo the later change first); Casualty
    hits that would come back in another medical window than theirs; a leader's character who
    cannot lead the unit again (`_relink_problem`); a force or a combat zone the unit could not
    be sent to now (`_undo_problems`); a state no run of the rules leaves (`state_problems`).
    """
    chosen = sorted({entry.pk: entry for entry in entries}.values(), key=lambda e: e.pk)
    chosen.reverse()
    if units is None:
        units = {
            unit.pk: unit
            for unit in Unit.objects.filter(
                pk__in={entry.unit_id for entry in chosen}
            ).select_related("leader__character", "force__campaign")
        }
    errors: dict[str, list[str]] = {}
    current = {pk: unit.state.to_json() for pk, unit in units.items()}
    moved_back: dict[int, Force] = {}
    last_of: dict[int, HistoryEntry] = {}
    for entry in chosen:
        last_of.setdefault(entry.unit_id, entry)
        field = f"entries.{entry.pk}"
        if entry.kind in UNREVERTABLE:
            label = entry.get_kind_display()
            errors.setdefault(field, []).append(f"{a_or_an(label)} {label} entry stays")
        if HistoryEntry.objects.filter(reverts=entry).exists():
            errors.setdefault(field, []).append("reverted already")
        snapshot = current[entry.unit_id]
        if any(
            name in SNAPSHOT_FIELDS
            and snapshot.get(name) != value
            and not _only_renamed(entry, name, snapshot.get(name), value)
            for name, value in entry.after.items()
        ):
            errors.setdefault(field, []).append(
                f"{units[entry.unit_id]} has changed since: undo that first"
            )
        hits = snapshot.get("casualty_hits", 0)
        snapshot.update(entry.before)
        if snapshot.get("casualty_hits", 0) > hits and _window_moved(entry, snapshot):
            errors.setdefault(field, []).append(
                f"{possessive(str(units[entry.unit_id]))} Casualty hits would come back in "
                "another medical "
                "window than theirs (a fight since, or a correction that opened a new one): undo "
                "that first"
            )
        if problem := _relink_problem(entry, snapshot, units[entry.unit_id]):
            errors.setdefault(field, []).append(problem)
        if problems := _undo_problems(entry, units[entry.unit_id], moved_back):
            errors.setdefault(field, []).extend(problems)
    closing = {} if errors else _windows_closed_since(units, current, last_of, errors)
    return RevertPlan(problems=errors, moved_back=moved_back, closing=closing)


@transaction.atomic
def entry_undo(*, entry: HistoryEntry, reason: str, actor: Any = None) -> HistoryEntry | None:
    """The GM's Undo of a unit's latest change that came from no fight (`UNDO_KINDS`: a
    correction, the medics' work, a training, a Strategist's rally, a move to another force, a
    change of combat zone, a change of leader), as one revert entry (`outcome_revert`, which
    judges and writes it): every field it changed goes back to what it was before it (the force
    it left, the character who led it), the undone entry shown as undone.

    Only the unit's latest entry that still stands can be undone (`undo_blockers`): what came
    after it was built on it, and is undone first. An entry undone already is left as it is,
    and None says so: an Undo sent twice changes nothing the second time.
    """
    unit = locked(entry.unit, "force__campaign")  # held to the end, as the revert holds it
    require_manager(unit.force.campaign, actor)
    if HistoryEntry.objects.filter(reverts=entry).exists():
        return None
    errors: dict[str, list[str]] = {}
    text_given(errors, "reason", reason, needed=REVERT_REASON_NEEDED)
    if refused := undo_refused(entry):
        errors["entry"] = [refused]
    elif later := undo_blockers(entry=entry):
        what = "; ".join(f"{Kind(e.kind).label} on day {e.day}" for e in later)
        errors["entry"] = [f"{unit.name} has changed since ({what}): undo that first"]
    if errors:
        raise ValidationError(errors)
    return outcome_revert(entries=[entry], reason=reason, actor=actor)[0]


def _undo_problems(entry: HistoryEntry, unit: Unit, moved_back: dict[int, Force]) -> list[str]:
    """Why the unit cannot be put back as it was before ``entry``, beyond its fields: a move
    to another force goes back to the force it left (into ``moved_back``, by the entry) only as
    a move there could go (`roster.unit_move_problems`); a change of combat zone goes back only
    as the unit could be sent there now (`roster.unit_zone_refusal`: not while it is in a battle
    not yet applied). None when it can."""
    if (moved := entry.moved) is not None:
        left = Force.objects.filter(pk=moved.get("from"), campaign_id=unit.force.campaign_id)
        force = left.first()
        if force is None:
            return [f"the force {unit.name} left is gone from {unit.force.campaign}"]
        if unit.force_id != moved.get("to"):
            return [f"{unit.name} has moved to another force since: undo that first"]
        moved_back[entry.pk] = force
        return unit_move_problems(unit, force)
    if entry.kind == Kind.DEPLOYMENT and "in_combat_zone" in entry.before:
        refused = unit_zone_refusal(unit, bool(entry.before["in_combat_zone"]))
        return [refused] if refused else []
    return []


def _only_renamed(entry: HistoryEntry, field: str, now: Any, then: Any) -> bool:
    """Whether the unit's leader (``now``) is the one ``entry`` left (``then``) under another
    name: its character renamed since (`Character.save`), which writes no history, and no
    entry of the unit since touching its leader. Not a change to undo first."""
    if field != "leader" or not (isinstance(now, dict) and isinstance(then, dict)):
        return False
    if {**now, "name": ""} != {**then, "name": ""}:
        return False
    since = HistoryEntry.objects.filter(unit_id=entry.unit_id, pk__gt=entry.pk)
    return not since.filter(after__has_key="leader").exists()


def _window_moved(entry: HistoryEntry, snapshot: Mapping[str, Any]) -> bool:
    """Whether the unit's medical window, once ``entry`` is undone (``snapshot``), is no longer
    the one it had just before the entry: Casualty hits it gives back would come back in
    another window than theirs. A fight since is one too, though it opened none (it left no
    Casualty hits, `recovery.window_after_battle`): fought without them, it is not among the
    window's fights, whose experience its closing counts again (`window.window_settled`)."""
    then = snapshot_replay(
        HistoryEntry.objects.filter(unit_id=entry.unit_id, pk__lt=entry.pk)
        .order_by("pk")
        .values_list("after", flat=True)
    )
    window = ("window_from", "window_fights", "battles_fought")
    return any(then.get(name) != snapshot.get(name) for name in window)


def _windows_closed_since(
    units: Mapping[int, Unit],
    reverted: Mapping[int, dict[str, Any]],
    last_of: Mapping[int, HistoryEntry],
    errors: dict[str, list[str]],
) -> dict[int, int]:
    """The units whose Casualty hits the reverts give back (``reverted``: each unit's snapshot
    once they are done) in a medical window that has closed since, each with the clock hour
    now: their hits die (`_casualties_given_back_die`). What the reverts (and those deaths)
    would leave that no run of the rules leaves (`state_problems`), and the unit did not carry
    already, goes into ``errors`` at the unit's newest entry."""
    closing: dict[int, int] = {}
    for pk, snapshot in reverted.items():
        unit = units[pk]
        now = campaign_now(unit.force.campaign)
        closed = _given_back_died(CampaignUnitState.from_json(snapshot), now)
        if len(closed) > 1:  # some closed before now: they die at once
            closing[pk] = now
        state = closed[-1][0]
        had = state_problems(unit.state, now)
        for name, problem in state_problems(state, now).items():
            if had.get(name) != problem:
                errors.setdefault(f"entries.{last_of[pk].pk}", []).append(problem)
    return closing


def _given_back_died(
    state: CampaignUnitState, now: int
) -> list[tuple[CampaignUnitState, int, int]]:
    """(state, closes, dead) after each closing, in order, of the 24 hours of Casualty hits a
    revert gave back that ended before clock hour ``now`` (`casualties_die`), after the state
    as it was given back: (state, 0, 0)."""
    closed = [(state, 0, 0)]
    while (
        (closes := medical_window_closes(state)) is not None
        and closes < now
        and not state.destroyed
    ):
        state, dead = casualties_die(state, closes)
        closed.append((state, closes, dead))
    return closed


def _casualties_given_back_die(
    units: Mapping[int, Unit], closing: Mapping[int, int], actor: Any
) -> list[HistoryEntry]:
    """The Casualty hits the reverts gave back in a medical window that has closed since die, as
    they would have when it closed (``closing``: each unit's clock hour now), each battle's as
    its own 24 hours ended: each closing's entry, dated that day, says so and why."""
    died: list[HistoryEntry] = []
    for pk, now in closing.items():
        unit = units[pk]
        for state, closes, dead in _given_back_died(unit.state, now)[1:]:
            suffix = (
                f" (given back by a revert after their medical window closed at "
                f"{clock_text(closes)})"
            )
            entry = unit_change(
                unit=unit,
                state=state,
                kind=Kind.CASUALTIES,
                why=casualties_died_text(unit, dead, suffix),
                day=clock_time(closes)[0],
                actor=actor,
                hour=closes,
                details=closing_details(unit),
            )
            assert entry is not None
            died.append(entry)
    if died:
        notices_after_commit(units[next(iter(closing))].force.campaign)
    return died


def _fight_of(entry: HistoryEntry) -> Fight | None:
    """The fight a battle's or an engagement's own entry names: ("battle", its name, "")."""
    if entry.kind == Kind.BATTLE:
        return ("battle", entry.details.get("reason", ""), "")
    if entry.kind in (Kind.ENGAGEMENT, Kind.QUICK_RESOLVE):
        by_units = entry.details.get("by_units")
        by_units = by_units if isinstance(by_units, str) else None
        return ("engagement", fight_named(entry.kind, entry.details, entry.text), by_units)
    return None


def revert_undid(
    entry: HistoryEntry, fight: Fight | None, state: CampaignUnitState
) -> dict[str, Any]:
    """What reverting ``entry`` undoes, as `undone_text` says it (its arguments), the fight it
    came from named (``fight``, else the one ``entry`` names); of experience that changed
    nothing, the experience the unit (``state``, after the revert) keeps, as a revert that
    gives points back says them."""
    noun, name, by_units = fight or _fight_of(entry) or ("", "", "")
    kept = state.experience if "experience" not in entry.after else None
    return {"kind": entry.undo_kind, "day": entry.day, "fight": noun, "name": name,
            "kept": kept, "by_units": by_units}  # fmt: skip


def revert_review(
    *, applied_entries: Sequence[int], fight: tuple[str, str, str | None]
) -> tuple[list[tuple[Unit, CampaignUnitState, CampaignUnitState]], list[HistoryEntry]]:
    """`revert_preview`, and the revert entries Revert will write, unsaved and in its order
    (newest undone first): what the review tells each unit in the words of its history ("the
    experience from the battle of day 2, Crossroads, is undone: back to Green, 1 experience
    point"), without the reason the GM is still to give. ``applied_entries``: a battle's or an
    engagement's applied outcome; ``fight``: it as its revert names it (`reverts.Fight`)."""
    now: dict[int, dict[str, Any]] = {}
    told = []
    for entry in (
        HistoryEntry.objects.filter(pk__in=applied_entries)
        .select_related("unit__force", "unit__leader__character")
        .order_by("-pk")
    ):
        was = now.setdefault(entry.unit_id, entry.unit.state.to_json())
        state = CampaignUnitState.from_json({**was, **entry.before})
        undid = revert_undid(entry, fight, state)
        before, after = snapshot_diff(was, state.to_json())
        now[entry.unit_id] = state.to_json()
        told.append(
            HistoryEntry(
                unit=entry.unit,
                kind=HistoryEntry.Kind.REVERT,
                text=sentence(undone_text(**undid), before, after),
                before=before,
                after=after,
                details={"undid": undid},
            )
        )
    return revert_preview(applied_entries=applied_entries), told


def _relinked(entry: HistoryEntry, state: CampaignUnitState) -> int | SameCharacter | None:
    """The character a revert links the unit's leader row to: the one who led it before the
    leader entry undone (the character who left, for a detach; the dead one replaced, for a
    new leader), None for a leader who is no campaign character. `SAME_CHARACTER` for any other
    entry (a heal, a battle), or when the unit has no leader again."""
    if entry.kind != Kind.LEADER or state.leader is None:
        return SAME_CHARACTER
    before = entry.before.get("leader")
    if "leader" in entry.after and entry.after["leader"] is None:
        character = entry.details.get("character")
    elif isinstance(before, Mapping) and before.get("alive") is False:
        # A new leader in place of the dead: an entry from before the dead were named names
        # no one, and the row then links no one rather than the new leader.
        character = entry.details.get("replaced")
    else:
        return SAME_CHARACTER
    # A force imported from another campaign names its old characters: nobody to put back.
    return character if isinstance(character, int) and not isinstance(character, bool) else None


def _relink_problem(entry: HistoryEntry, restored: Mapping[str, Any], unit: Unit) -> str:
    """Why the character a reverted leader entry puts back cannot lead the unit again, or ""."""
    state = CampaignUnitState.from_json(dict(restored))
    character_pk = _relinked(entry, state)
    if character_pk is None or isinstance(character_pk, SameCharacter):
        return ""
    character = Character.objects.filter(
        pk=character_pk, campaign_id=unit.force.campaign_id
    ).first()
    if character is None:
        name = state.leader.name if state.leader is not None else "the character"
        return f"{name}, who led {unit.name}, is gone from {unit.force.campaign}"
    led = Leader.objects.filter(character=character).exclude(unit=unit)
    if (other := led.select_related("unit__force").first()) is not None:
        # Named, with the way out, as joining a unit says it (`roster.leader_attach`).
        return (
            f"{character} leads {other.unit.name} ({other.unit.force.name}) now: detach them "
            f"on {possessive(other.unit.name)} page first"
        )
    if state.leader is not None and state.leader.alive and not character.alive:
        return f"{character} is dead"
    return ""
