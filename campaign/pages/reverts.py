"""Why a fight's outcome cannot be reverted, or an entry undone, in words for the GM."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.text import capfirst

from campaign.models import Campaign, CampaignBattle, Engagement, Force, HistoryEntry, Unit
from campaign.pages.history_words import entry_why, history_sentence
from campaign.rules.history import revert_text, undone_name
from campaign.selectors.reviews import (
    RevertStep,
    entries_after_fight,
    fights_applied,
    revert_blockers,
    revert_chain,
    undo_blockers,
    undo_refused,
    undo_step,
    undone_by_revert,
)
from campaign.services.reverts import revert_plan
from campaign.templatetags.sentences import as_sentence
from units.words import and_words, possessive


@dataclass(frozen=True)
class RevertBlocked:
    """Why a fight's outcome cannot be reverted, for one unit: the sentence, and the unit whose
    page the GM goes to, to undo or correct what changed it since."""

    unit: Unit
    text: str

    def __str__(self) -> str:
        return self.text


def revert_blocked(
    campaign: Campaign, applied_entries: Any, fight: str = "battle"
) -> list[RevertBlocked]:
    """Why a battle's (or an engagement's, ``fight``) applied outcome cannot be reverted as its
    units stand now, a sentence per unit (`revert_blocked_lines`); none when it can be."""
    blockers = revert_blockers(applied_entries=applied_entries)
    later = [entry for _, entries in blockers for entry in entries]
    fights = fights_applied(campaign) if later else []  # read once, for every step below
    undo = undone_by_revert(campaign=campaign, entries=later, fights=fights)
    for index, (unit, shown) in enumerate(blockers):
        if any(e.pk not in undo for e in shown):
            blockers[index] = (
                unit,
                _undone_in_turn(campaign, unit, shown, undo, applied_entries, fights),
            )
    chain = revert_chain(campaign=campaign, entries=later, fights=fights)
    lines = revert_blocked_lines(blockers, undo, fight, chain)
    return [RevertBlocked(unit, text) for (unit, _), text in zip(blockers, lines, strict=True)]


def _undone_in_turn(
    campaign: Campaign,
    unit: Unit,
    shown: list[HistoryEntry],
    undo: dict[int, str],
    applied_entries: Any,
    fights: list[CampaignBattle | Engagement],
) -> list[HistoryEntry]:
    """What changed a unit since a fight, when the unit's own Undo takes back everything after
    the fight that still stands, one at a time, newest first (`reviews.undo_refused`), but
    the entries of a later fight its Revert takes back (in ``undo`` already): every one of those
    entries, each other with the Undo's words in ``undo``. Else ``shown`` as it was."""
    since = entries_after_fight(unit=unit, applied_entries=applied_entries)
    # A later fight's entries among them go with its Revert (`reviews.revert_chain`).
    undo.update(undone_by_revert(campaign=campaign, entries=since, fights=fights))
    own = [e for e in since if e.pk not in undo]
    if not own or any(undo_refused(e) for e in own):
        return shown
    them = "it" if len(own) == 1 else "them"
    page = f"undo {them} on {possessive(unit.name)} page"
    if len(own) > 1:
        page += ", newest first,"
    undo.update(dict.fromkeys((e.pk for e in own), page))
    return since


def revert_blocked_lines(
    blockers: list[tuple[Unit, list[HistoryEntry]]],
    undo: Mapping[int, str],
    fight: str = "battle",
    chain: Mapping[int, list[RevertStep]] | None = None,
) -> list[str]:
    """Why a battle's outcome (or an engagement's, ``fight``) cannot be reverted, once per
    unit, in words: what changed it since (`reviews.revert_blockers`), and what the GM can do
    about it. ``undo``: what undoes each entry that can be undone (`reviews.undone_by_revert`,
    a fight's Revert; `_undone_in_turn`, the unit's own Undo); the rest, the clock's R&R among
    them, have no undo, so the unit is corrected instead. ``chain``: for an entry a fight's
    Revert undoes, every step that Revert takes in turn (`reviews.revert_chain`): when a
    fight to revert is held up itself, the line says the whole chain, newest first."""
    chain = chain or {}
    lines = []
    for unit, later in blockers:
        name = f"{unit.name} ({unit.force.name})"
        if not later:
            lines.append(f"{name} has been corrected since; correct it back first.")
            continue
        since = since_words(later)
        kept = [e for e in later if e.pk not in undo]
        if not kept and (held := held_up_words(later, chain, unit)):
            # The whole way back, not first the Revert that would be refused.
            lines.append(
                f"{name} has changed since: {since}. {held}, then revert this {fight}. Or "
                f"correct the unit, then revert this {fight}."
            )
            continue
        if not kept:
            reverts = list(dict.fromkeys(undo[e.pk] for e in reversed(later)))
            what = and_words(reverts) + (", newest first," if len(reverts) > 1 else "")
            todo = f"{capfirst(what)} or correct the unit"
        elif len(kept) == len(later):
            todo = f"{'That' if len(later) == 1 else 'Those'} cannot be undone: correct the unit"
        else:
            kinds = list(dict.fromkeys(HistoryEntry.Kind(e.kind).label for e in kept))
            noun = "entry" if len(kept) == 1 else "entries"
            todo = f"The {and_words(kinds)} {noun} cannot be undone: correct the unit"
        lines.append(f"{name} has changed since: {since}. {todo}, then revert this {fight}.")
    return lines


def held_up_words(
    later: Iterable[HistoryEntry], chain: Mapping[int, list[RevertStep]], unit: Unit
) -> str:
    """When a fight whose Revert undoes one of ``later`` (what changed ``unit`` since, every one
    undone by a fight's Revert or the unit's own Undo) is held up in turn
    (`reviews.revert_chain`), the whole way in order, the unit's own Undos among it, to be
    followed by what it clears the way for (", then revert this battle"): "Night at the Ford
    cannot be reverted yet either: in order, newest first, undo the GM's correction of day 5
    on MG Nest's page, then revert Night at the Ford, of day 4"; else ""."""
    later = list(later)
    # A fight is held up when its chain holds more than its own Revert, which ends it.
    ended = {chain[e.pk][-1].text for e in later if len(chain.get(e.pk, [])) > 1}
    if not ended:
        return ""
    # The same step may come twice (the unit's own Undo, and in a fight's chain): once each.
    steps = {(step.text, step.newest): step for e in later for step in chain.get(e.pk, [])}
    for e in later:
        if e.pk not in chain:
            step = undo_step(e, unit)
            steps.setdefault((step.text, step.newest), step)
    order = sorted(steps.values(), key=lambda step: -step.newest)
    held = [step.fight for step in order if step.text in ended]
    what = ", then ".join(step.text for step in order)
    held_up = f"{capfirst(and_words(held))} cannot be reverted yet either"
    return f"{held_up}: in order, newest first, {what}"


def since_words(later: Iterable[HistoryEntry]) -> str:
    """What changed a unit since, entry by entry, by kind, day and reason: "GM correction on
    day 3 — a sniper; Medical on day 4 — Medical crews saved 1 Casualty hit"."""
    # A dash, not brackets: a reason may hold brackets of its own ("a day of R&R (a day)").
    return "; ".join(
        f"{HistoryEntry.Kind(e.kind).label} on day {e.day} — {entry_why(e)}" for e in later
    )


def undo_text(entry: HistoryEntry) -> str:
    """What the unit's Undo of ``entry`` gives back, as the revert's line will say it
    (`revert_text`): "back to Adequate equipment, no experience points"; a move to another
    force, "back to Red Company"."""
    if (moved := entry.moved) is not None:
        left = Force.objects.filter(pk=moved.get("from")).values_list("name", flat=True).first()
        return f"back to {left}" if left is not None else ""
    return revert_text(entry.before, {**entry.unit.state.to_json(), **entry.before})


def undo_blocked(campaign: Campaign, entry: HistoryEntry) -> list[str]:
    """Why the unit's Undo of ``entry`` is refused, as a battle's revert says it
    (`revert_blocked_lines`): what came after it that still stands (`reviews.undo_blockers`),
    and what the GM can do about it; none when it can be undone."""
    if refused := undo_refused(entry):
        return [f"{history_sentence(refused, '')}."]
    later = undo_blockers(entry=entry)
    if not later:
        return undo_problems(campaign, entry)
    unit = entry.unit
    name = f"{unit.name} ({unit.force.name})"
    fights = fights_applied(campaign)
    reverts = undone_by_revert(campaign=campaign, entries=later, fights=fights)
    # Newest first, each undone in turn: a fight by its Revert, anything else by its own Undo.
    steps = []
    for e in reversed(later):
        if e.pk in reverts:
            steps.append(reverts[e.pk])
        elif not undo_refused(e):
            steps.append(f"undo {undone_name(e.undo_kind, e.day)}")
        else:
            steps = []
            break
    # A fight's Revert undoes all its entries at once; each other entry takes an Undo of its
    # own, so two of the same day are said as two.
    counted = {step: steps.count(step) for step in steps}
    steps = [
        f"{step} ({n} of them)" if n > 1 and step.startswith("undo ") else step
        for step, n in counted.items()
    ]
    if steps:
        what = and_words(steps) + (", newest first" if len(steps) > 1 else "")
        todo = f"{capfirst(what)}, then undo this one"
        if held := held_up_words(
            later, revert_chain(campaign=campaign, entries=later, fights=fights), unit
        ):
            todo = f"{held}, then undo this one"  # the whole way back, said once
    else:
        kept = [e for e in later if e.pk not in reverts and undo_refused(e)]
        kinds = list(dict.fromkeys(HistoryEntry.Kind(e.kind).label for e in kept))
        noun = "entry" if len(kept) == 1 else "entries"
        todo = f"The {and_words(kinds)} {noun} cannot be undone: correct the unit instead"
    return [f"{name} has changed since: {since_words(later)}. {todo}."]


def undo_blocked_lede(entry: HistoryEntry) -> str:
    """The lede of the page of a refused Undo (`undo_blocked`): what came after the change, or
    its kind, refuses it; or, for the unit's latest change, where the campaign stands now."""
    unit = entry.unit
    if undo_refused(entry) or undo_blockers(entry=entry):
        return (
            f"Only {possessive(unit.name)} latest change can be undone: what came after it "
            "was built on it."
        )
    return (
        f"It is {possessive(unit.name)} latest change, but as the campaign stands now its Undo "
        "would be refused. Put right what is said below, and it can be undone."
    )


def undo_problems(campaign: Campaign, entry: HistoryEntry) -> list[str]:
    """Why the unit's Undo of ``entry``, its latest change, would be refused as the campaign
    stands now, in sentences: what the Undo itself judges before it writes
    (`reverts.revert_plan`: a unit of its name in the force it left, a battle not applied yet,
    a leader who leads another unit now...); none when it would be undone."""
    problems = revert_plan(entries=[entry]).problems
    return list(dict.fromkeys(as_sentence(p, campaign) for ps in problems.values() for p in ps))
