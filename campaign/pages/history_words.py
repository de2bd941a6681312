"""A history entry in words, as every page tells it: why it happened, what it did, what a
revert gave back."""

from __future__ import annotations

import re
from typing import Any

from django.utils.text import capfirst

from campaign.models import HistoryEntry
from campaign.rules.experience import earned_said, earned_standing
from campaign.rules.history import (
    TOOK,
    experience_has_text,
    fight_cut,
    fight_named,
    lost_past_full,
    minus_signs,
    revert_text,
    story_text,
    told_why,
    undone_text,
)

_DIED = re.compile(r"; (\d+ Casualty hits? not saved within 24 hours died.*)$")
"""Where a closing window's entry says who died, after the fights it tells of."""


def dead_first(why: str) -> str:
    """A closing window's reason (`recovery.casualties_died_text`: the fights, then the dead)
    as the pages say it: the dead first, then the fights whose hits they were in one
    parenthesis, then what the dead cost beyond a step each, or short of it
    (`window.withdrawn_text`): "1 Casualty hit not saved within 24 hours died (taken out at
    Mill; 6 Morale hits and 1 Casualty hit; medics saved 0)". Told fights first, a unit's
    history read as though it was taken out again the day its hits died. Any other reason is
    returned as it is."""
    if not ((died := _DIED.search(why)) and died.start()):
        return why
    dead, _, rest = died.group(1).partition("; ")
    cause = why[: died.start()]
    if dead.endswith(")") and (head := dead[:-1].rpartition(" ("))[1]:
        # Its own parenthesis ("(the clock moved on: patrols)") takes the fights in first, one
        # parenthesis, not two side by side.
        dead, cause = head[0], f"{cause}; {head[2]}"
    return f"{dead} ({cause})" + (f"; {rest}" if rest else "")


def entry_why(entry: HistoryEntry) -> str:
    """Why an entry happened, without the field changes its sentence ends with; a closing
    window's with the dead first (`dead_first`); a revert saved in the words of its first days
    ("wrong report: undoes day 1, Battle") in today's (`undone_text`: "wrong report: the battle
    of day 1 is undone")."""
    why = told_why(entry.text, entry.before, entry.after)
    if entry.kind == HistoryEntry.Kind.CASUALTIES:
        return dead_first(why)
    if entry.kind == HistoryEntry.Kind.EXPERIENCE:
        return earned_said(why)
    if entry.kind == HistoryEntry.Kind.REVERT and (old := UNDOES.fullmatch(why)):
        kind = KIND_OF_LABEL.get(old["label"])
        if kind is not None:
            return f"{old['reason']}: {undone_text(kind, int(old['day']))}"
    return why


UNDOES = re.compile(r"(?P<reason>.*): undoes day (?P<day>\d+), (?P<label>[^;:]+)", re.DOTALL)
"""How a revert named what it undid before it said it in words: the entry's day and kind."""

KIND_OF_LABEL = {
    "Created": "created", "Battle": "battle", "Quick resolve": "quick_resolve",
    "Medical": "medical", "Casualties died": "casualties", "R&R": "recovery",
    "Experience": "experience", "Training": "training", "Deployment": "deployment",
    "Leader": "leader", "Engagement": "engagement", "Skill check": "skill_check",
    "GM edit": "gm_edit", "Revert": "revert",
}  # fmt: skip
"""The kinds as those reverts named them (`UNDOES`), each by its label of the time: frozen, so
a label reworded since leaves the old sentences read as they were written."""


def revert_words(entry: HistoryEntry, unit: dict[str, Any]) -> tuple[str, str]:
    """A revert as every page tells it: what it undid (`entry_why`) and what it gave back
    (`revert_text`; ``unit``: the unit's snapshot after it). One that gave nothing back (the
    experience undone had changed nothing, saved before such a revert said what the unit
    keeps) says so, not a sentence that stops at "is undone"."""
    why = entry_why(entry)
    what = revert_text(entry.after, unit) if why != entry.text else ""
    if not what and not entry.after and nothing_kept_said(entry, why):
        what = NOTHING_GIVEN_BACK
    return why, what


def nothing_kept_said(entry: HistoryEntry, why: str) -> bool:
    """Whether a revert's sentence (``why``, `entry_why`) stops at what it undid, saying
    nothing of what the unit keeps: read from what it undid (its ``undid``, as
    `history.undone_parts` words it), or, of a revert saved before it kept that, from its
    sentence's end."""
    undid = entry.details.get("undid")
    if isinstance(undid, dict):
        return undid.get("kept") is None and undid.get("kind") != "casualties"
    return why.endswith(" is undone")


NOTHING_GIVEN_BACK = "nothing to give back"
"""What a revert of an entry that changed nothing gave back (`revert_words`)."""


def entry_words(entry: HistoryEntry, unit: dict[str, Any]) -> tuple[str, str]:
    """An entry as every page tells it: why it happened (`entry_why`), and what it did to the
    unit in plain words (`story_text`; "" for a sentence that ends with no field changes), the
    bookkeeping (battles fought, the day of the last battle, the medics' 24 hours) left out.
    ``unit`` is the unit's snapshot after the entry (its hits at least). Not for a revert,
    which says what it gave back (`revert_text`)."""
    why = entry_why(entry)
    most = entry.details.get("leader_most_hit_points")
    what = (
        story_text(
            entry.before,
            entry.after,
            unit,
            most,
            death_told=entry.death_told,
            leader_named=entry.leader_named,
        )
        if why != entry.text
        else ""
    )
    if what and (lost := entry.details.get("lost")):
        # A leader's heal past full: what was lost, as its character's record says it.
        what += f" (full: {lost_past_full(lost, entry.details.get('healed', 0) + lost)})"
    if entry.kind == HistoryEntry.Kind.EXPERIENCE and not what and "experience" in unit:
        # Points held just short of a step it stood at already change nothing: what it has is
        # said all the same, as of points that change it.
        what = experience_has_text(unit["experience"], unit.get("quality"))
    if entry.kind in (HistoryEntry.Kind.SKILL_CHECK, HistoryEntry.Kind.CONTEST):
        why = minus_signs(why)  # the roll's summary, kept as it was written
    return why, what


def entry_line(entry: HistoryEntry, unit: dict[str, Any]) -> str:
    """An entry in one sentence, as the unit's history tells it: why, then what it did
    (`entry_words`), or for a revert what it gave back (`revert_text`). ``unit``: the unit's
    snapshot after the entry."""
    if entry.kind == HistoryEntry.Kind.REVERT:
        why, what = revert_words(entry, unit)
    else:
        why, what = told_together(entry, *without_repeats(*entry_words(entry, unit)))
    return entry_sentence(entry, why, what)


def told_together(entry: HistoryEntry, why: str, what: str) -> tuple[str, str]:
    """An entry's reason and what it did, an experience entry's in one sentence
    (`earned_standing`): "earned 1 experience point, and now has 1 of the 2 …", not "earned 1
    experience point: has 1 of the 2 …". A notice lists what it did apart, and reads them
    as they are."""
    if entry.kind == HistoryEntry.Kind.EXPERIENCE:
        return earned_standing(why, what)
    return why, what


def history_sentence(why: str, what: str) -> str:
    """An entry's reason and what it did as the unit's history says them: one sentence, its
    first letter a capital ("A day of R&R: rallied; carries no hits now")."""
    return capfirst(why) + (f": {what}" if what else "")


def entry_sentence(entry: HistoryEntry, why: str, what: str) -> str:
    """An entry's reason and what it did in one sentence (`history_sentence`), a fight's in
    the order it is read (`fight_told`): "Ford: took 1 Morale hit; is in the combat zone — 1 of
    2 Hits lost; …", not "…(Casualty on 4 or more): is in the combat zone"."""
    lead, took = fight_cut(entry.kind, entry.details, why)
    if not lead:
        return history_sentence(why, what)
    return capfirst(f"{lead}: {fight_told(took, what)}")


def fight_told(took: str, what: str) -> str:
    """What a fight did to a unit, after the fight's name: what it dealt (``took``, the working
    after its " — "), then what that left the unit (``what``), then the working, so a colon
    does not follow the working's own: "took 1 Morale hit; retreated in poor order — 1 of 1
    Hit lost; a d6 for the Hit lost rolled 5: …"."""
    dealt, dash, working = took.partition(" — ")
    return dealt + (f"; {what}" if what else "") + (f" — {working}" if dash else "")


def unit_event(label: str, sentence: str) -> str:
    """A line of the timeline (or the dashboard, or a notice) about one unit: the unit, then
    its history's sentence as it stands on its own ("Sappers (Blue Battalion) — A day of R&R:
    rallied"). A dash, not a colon: the sentence keeps its capital, and a reason that starts
    with a name keeps its own."""
    return f"{label} — {sentence}"


def without_repeats(why: str, what: str) -> tuple[str, str]:
    """An entry's reason and what it did, neither saying the other again: a part of ``what``
    the reason already says is left out ("retreated in poor order: retreated in poor order"),
    and a reason ``what`` says more fully gives way to it ("Cpl. Nox takes command: Cpl. Nox
    takes command (8 hit points)" is "Cpl. Nox takes command (8 hit points)"); "was destroyed"
    after a reason ending "; destroyed" is left out too, and so are the hits a unit "now
    carries" when they are just those a fight's reason opens with having taken ("Ford: took 1
    Morale hit", not "…: now carries 1 Morale hit")."""
    said = why.strip().lower()
    parts = [part for part in what.split("; ") if part] if what else []
    for index, part in enumerate(parts):
        if said and part.lower().startswith(said):
            why = part
            del parts[index]
            said = part.lower()
            break
    # An engagement's reason ends "…; destroyed", which "was destroyed" says again.
    clauses = said.split("; ")
    kept = [
        part
        for part in parts
        if part.lower() not in said
        and part.lower().removeprefix("was ") not in clauses
        and not _carried_as_taken(why, part)
    ]
    return why, "; ".join(kept)


def _carried_as_taken(why: str, part: str) -> bool:
    """Whether ``part`` of what an entry did ("now carries 1 Morale hit") says the hits its
    reason ``why`` says the fight dealt, all the unit carries ("Ford: took 1 Morale hit — …"; on
    the unit's page, the fight's name a link before it, "took 1 Morale hit — …")."""
    held = part.removeprefix("now carries ")
    took = re.escape(TOOK.removeprefix(": ") + held)
    return held != part and re.search(rf"(?:^|: ){took}(?: — |$)", why) is not None


def step_why(entry: HistoryEntry, battle: str | None) -> str:
    """Why a unit was destroyed or rose or fell a step, as the end of its timeline line: the
    fight that did it (" at Battle of the Millrace"), the medics' 24 hours running out, or the
    entry's own reason (" (trained by Sgt. Kane)", " (GM correction: shelled at the ford)")."""
    if entry.kind in (HistoryEntry.Kind.ENGAGEMENT, HistoryEntry.Kind.QUICK_RESOLVE):
        battle = fight_named(entry.kind, entry.details, entry.text)  # as its entry names it
    elif entry.kind == HistoryEntry.Kind.EXPERIENCE and not battle:
        # A step earned in an engagement, named as its entry keeps the fight's name (one that
        # kept none is told by its reason, below).
        battle = entry.details.get("name") if isinstance(entry.details.get("name"), str) else None
    at = f" at {battle}" if battle else ""
    if entry.kind == HistoryEntry.Kind.CASUALTIES:
        return f"{at}, when the medics' 24 hours were over"
    if at or entry.kind == HistoryEntry.Kind.BATTLE:
        # A battle's entry whose battle is not known (a table battle's application reverted
        # before its record kept them all) tells its whole working: too much for the line.
        return at
    why = entry_why(entry)
    return f" ({why})" if why else ""
