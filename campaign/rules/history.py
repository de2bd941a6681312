"""History in words: the sentences that explain each change to a persistent unit.

A history entry keeps the changed fields of a unit snapshot
(`campaign.rules.state.CampaignUnitState.to_json`) before and after, and a sentence a player
can read on the roster: why, then what changed
("Factory Hold: took 1 Morale hit and 1 Casualty hit — …: now carries 1 Morale hit and 1
Casualty hit"). Plain Python.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from campaign.rules.experience import BECAUSE, threshold
from campaign.rules.orders import clock_text
from campaign.rules.state import SNAPSHOT_FIELDS, STATUS_LABELS, Status, hit_point_state
from units.bucs import Equipment, Quality, Specialty
from units.words import number_text, plural, times

FIELD_LABELS = {
    "name": "name",
    "quality": "quality",
    "equipment": "equipment",
    "specialties": "specialties",
    "morale_hits": "Morale hits",
    "casualty_hits": "Casualty hits",
    "skill_lost": "Skill lost",
    "status": "status",
    "experience": "experience",
    "battles_fought": "battles fought",
    "in_combat_zone": "in the combat zone",
    "last_battle_day": "last battle on day",
    "window_from": "the medics' 24 hours from",
    "window_quality_lost": "quality steps lost to suppression within the medics' 24 hours",
    "window_quality_gained": "steps up withdrawn should its Casualty hits die",
    "window_experience": "experience kept should its dead destroy it",
    "window_fights": "fights kept in the medics' 24 hours",
    "leader": "leader",
}


def _value(field: str, value: Any, *, dead_hit_points: bool = False) -> str:
    """A snapshot value as a player reads it; a dead leader "dead" (`hit_points_shown`), or with
    the hit points it died with where ``dead_hit_points`` asks (`changes_text`)."""
    if value is None:
        return "none"
    if field == "quality":
        return Quality.of_word(value).label
    if field == "equipment":
        return Equipment(value).label
    if field == "specialties":
        return ", ".join(Specialty(s).label for s in value) or "none"
    if field == "status":
        return STATUS_LABELS[Status(value)]
    if field == "in_combat_zone":
        return "yes" if value else "no"
    if field == "window_from":
        return clock_text(value)
    if field == "window_fights":
        return str(len(value))
    if field == "leader":
        said = hit_points_text if dead_hit_points else hit_points_shown
        return f"{value['name']} ({said(value['hit_points'], alive=value['alive'])})"
    return str(value)


def changes_text(
    before: dict[str, Any], after: dict[str, Any], *, dead_hit_points: bool = False
) -> str:
    """'quality Average → Green, Morale hits 0 → 1' for the fields in `after`; a leader killed
    'leader Capt. Hero (3 hit points) → Capt. Hero (dead)'. ``dead_hit_points``: a dead leader
    with the hit points it died with ("−13 hit points, dead"), as sentences saved before said
    it, so `told_why` still finds their changes."""
    parts = [
        f"{FIELD_LABELS.get(field, field)} "
        f"{_value(field, before.get(field), dead_hit_points=dead_hit_points)} → "
        f"{_value(field, value, dead_hit_points=dead_hit_points)}"
        for field, value in after.items()
        # A fight kept in the window earning its points is the experience's own change.
        if field != "window_fights" or len(before.get(field) or ()) != len(value)
    ]
    return ", ".join(parts) if parts else "no change"


def sentence(why: str, before: dict[str, Any], after: dict[str, Any]) -> str:
    """The entry's sentence: why, then what changed."""
    return f"{why}; {changes_text(before, after)}"


def hits_text(morale: int, casualty: int) -> str:
    return f"{morale} Morale, {casualty} Casualty"


def hits_held_text(morale: int, casualty: int) -> str:
    """What a unit carries, in a table's Hits column, in its history's words (`held_text`):
    "1 Morale hit", "1 Morale hit and 2 Casualty hits"; "none" for a unit carrying nothing, as
    its page says "carries no hits now" (`carries_text`)."""
    return held_text(morale, casualty) if morale or casualty else "none"


TOOK = ": took "
"""Between a fight's name and the hits it dealt, in an engagement's (or quick resolve's) entry."""


UNHURT = ": came through unhurt"
"""After a fight's name, in the entry of a unit the fight did nothing to (`took_text`)."""


def taken_text(morale: int, casualty: int) -> str:
    """The hits a fight (or a correction) dealt, saying only the kinds it dealt, each with its
    own word, as a unit is said to carry them (`held_text`), in a fight's entry and in the
    medics' story of a closing 24 hours alike: "2 Morale hits", "1 Casualty hit", "1 Morale hit
    and 1 Casualty hit", "no hits". "1 Morale, 1 Casualty hit" read as though one hit were
    both."""
    return held_text(morale, casualty) if morale or casualty else "no hits"


def took_text(name: str, morale: int, casualty: int, *, unhurt: bool = False) -> str:
    """How a fight's entry opens: "Mill ford: took 2 Morale hits", "…: took 1 Casualty hit",
    "…: took 1 Morale hit and 2 Casualty hits" (`taken_text`); "…: took no hits" when none
    reached the unit (Armor or Excellent equipment stopped them, say); "Mill ford: came through
    unhurt" when the caller says the fight did nothing at all to the unit (``unhurt``)."""
    if unhurt and not (morale or casualty):
        return f"{name}{UNHURT}"
    return f"{name}{TOOK}{taken_text(morale, casualty)}"


WAS_UNHURT = re.compile(
    rf"(?P<name>.+){re.escape(TOOK + hits_text(0, 0))} hits(?: — 0 of \d+ Hits? lost)?"
)
"""How an entry saved before `UNHURT` said a fight did nothing to the unit, the whole of its
reason: "Mill ford: took 0 Morale, 0 Casualty hits", a battle's with "— 0 of 2 Hits lost"."""


WAS_ONE_KIND = re.compile(
    rf"{re.escape(TOOK)}(?P<morale>\d+) Morale, (?P<casualty>\d+) Casualty hits?(?=$| — |; )"
)
"""How an entry saved before `taken_text` said the hits it took, naming a kind it took none of
or both under one word: "Mill ford: took 0 Morale, 1 Casualty hit", "…: took 2 Morale, 0
Casualty hits", "…: took 1 Morale, 1 Casualty hit"."""


WAS_SPLIT = re.compile(
    r"(?:(?<=\(Casualty on \d or more\): )|(?<=BUCS hit \()|(?<=BUCS hits \())"
    r"(?P<morale>\d+) Morale, (?P<casualty>\d+) Casualty(?=$|[:;)]| —)"
)
"""How a battle's entry saved before `taken_text` said how its BUCS hits split: "5 BUCS hits, a
d6 each rolled 6, 4, 6, 6 and 5 (Casualty on 4 or more): 0 Morale, 5 Casualty", "3 BUCS hits
(1 Morale, 2 Casualty)"."""


MEDICS_SAVED = "; medics saved "
"""Where the medics' story of a closing 24 hours (the fights, each with the hits it dealt)
says what the medics saved, before the dead."""


WAS_BOTH_KINDS = re.compile(
    r"(?<=; )(?:(?P<morale>\d+) Morale, (?P<casualty>\d+) Casualty"
    r"|(?P<morale_only>\d+) Morale|(?P<casualty_only>\d+) Casualty)(?=; )"
)
"""How the medics' story of a closing 24 hours saved before `taken_text` told it said the hits
each fight or correction dealt: with a kind it dealt none of ("at Ford; 0 Morale, 5 Casualty;
medics saved 0; …"), or without the word "hit" ("…; 3 Morale, 2 Casualty; …", "…; 5
Casualty; …")."""


WAS_HELD = re.compile(
    r"(?P<held>held just short of the next step|from th(?:at battle is|ose battles are) withdrawn)"
    r": (?=no step)"
)
"""How an entry saved before `experience.BECAUSE` said why a step was held back or withdrawn:
after a colon ("held just short of the next step: no step up while it is broken"), beside the
colon after the fight's name."""


def told_why(text: str, before: dict[str, Any], after: dict[str, Any]) -> str:
    """Why an entry happened: its sentence ``text`` without the field changes it ends with, a
    fight that did nothing to the unit (`WAS_UNHURT`), the hits of one kind a fight took
    (`WAS_ONE_KIND`), a battle's BUCS hits split (`WAS_SPLIT`) or the hits dealt in the
    medics' story (`WAS_BOTH_KINDS`) and a step held back
    (`WAS_HELD`) in today's words."""
    # The sentence was written with the fields in snapshot order; PostgreSQL's jsonb hands
    # them back in its own.
    after = {k: after[k] for k in SNAPSHOT_FIELDS if k in after}
    why = text
    # A sentence saved before a dead leader read "dead" kept its hit points.
    for dead_hit_points in (False, True):
        tail = "; " + changes_text(before, after, dead_hit_points=dead_hit_points)
        if text.endswith(tail):
            why = text[: -len(tail)]
            break
    # A fight that did nothing to the unit, saved in the old words, reads as one now does.
    if was_unhurt := WAS_UNHURT.fullmatch(why):
        return took_text(was_unhurt["name"], 0, 0, unhurt=True)
    why = WAS_ONE_KIND.sub(
        lambda took: TOOK + taken_text(int(took["morale"]), int(took["casualty"])), why, count=1
    )
    why = WAS_SPLIT.sub(lambda split: taken_text(int(split["morale"]), int(split["casualty"])), why)
    if MEDICS_SAVED in why:
        # The medics' story saved in the old words names only the kinds each fight dealt.
        why = WAS_BOTH_KINDS.sub(_dealt_now, why)
    return WAS_HELD.sub(lambda held: held["held"] + BECAUSE, why)


def _dealt_now(dealt: re.Match[str]) -> str:
    """The hits a fight dealt, matched by `WAS_BOTH_KINDS`, in today's words (`taken_text`)."""
    morale = dealt["morale"] or dealt["morale_only"] or 0
    casualty = dealt["casualty"] or dealt["casualty_only"] or 0
    return taken_text(int(morale), int(casualty))


def fight_said(kind: str, details: Mapping[str, Any], why: str) -> tuple[str, str]:
    """A fight's own entry's reason (``why``, `told_why`) as a summary tells it: the words that
    name the fight (`fight_lead`, cut after the name the entry keeps, `fight_named`) and what
    the fight did to the unit, without the working that follows: ("Taken out at Raid: Dawn",
    "took 1 Morale hit"), "came through unhurt", "took no hits" (Armor or Excellent
    equipment stopped them). ("", "") for another entry, whatever its words: an experience
    entry, a GM's correction whose reason reads "…: took fire — …"."""
    lead, rest = fight_cut(kind, details, why)
    return lead, rest.split(" — ", 1)[0]


def fight_cut(kind: str, details: Mapping[str, Any], why: str) -> tuple[str, str]:
    """A fight's own entry's reason (``why``, `told_why`) cut after the fight's name: the
    words that name it (`fight_lead`) and what follows, the working with it ("Battle of the
    Millrace", "took 1 Morale hit — 1 of 2 Hits lost; …"); ("", "") for another entry, and
    for a fight's entry that says nothing taken (`tells_taken`)."""
    if kind not in FIGHT_KINDS:
        return "", ""
    lead, rest = fight_lead(why, fight_named(kind, details, why))
    if not lead or not tells_taken(rest):
        return "", ""  # a unit destroyed before the battle was applied: nothing taken
    return lead, rest


def tells_taken(rest: str) -> bool:
    """Whether a fight's entry's words after its name (`fight_lead`) open with what the fight
    dealt the unit (`took_text`): "took 1 Morale hit…", "came through unhurt…"."""
    return f": {rest}".startswith((TOOK, UNHURT))


def took_words(kind: str, details: Mapping[str, Any], why: str) -> str:
    """What a fight's entry (its ``kind``, ``details`` and reason, `told_why`) says the fight
    did to the unit (`fight_said`): "came through unhurt", "took no hits", "took 1 Morale
    hit"; "" for another entry."""
    return fight_said(kind, details, why)[1]


def without_working(kind: str, details: Mapping[str, Any], why: str) -> str:
    """An entry's reason (`told_why`) as a summary tells it: a fight's name and what it did to
    the unit, without the working that follows (`fight_said`): "Battle of the Millrace: took 1
    Casualty hit". Another entry's reason as it is."""
    lead, words = fight_said(kind, details, why)
    return f"{lead}: {words}" if words else why


def fight_named(kind: str, details: Mapping[str, Any], text: str) -> str:
    """The fight an entry of a fight names, as the entry keeps it as data, so the name travels
    with the entry wherever its record stays behind: a battle's entry its reason, an
    engagement's, a quick resolve's or an experience entry its ``name``, and so does the entry
    of a battle's Casualty hits found too late; an entry saved before it kept them is read by
    its sentence ``text`` (`took_name`)."""
    reason = details.get("reason") if kind == "battle" else None
    if isinstance(reason, str) and reason:
        return reason
    name = details.get("name")
    return name if isinstance(name, str) and name else took_name(text)


def fight_lead(why: str, name: str) -> tuple[str, str]:
    """A fight's entry's reason (``why``, `told_why`) cut after the fight's ``name`` (kept with
    the entry as data): the words that name the fight, the link on the unit's page ("Raid:
    Dawn", a battle's "Taken out at Raid: Dawn"), and what follows their ": " ("took 1 Morale
    hit — …"). An entry saved before it kept the name (``name`` not in ``why``) is
    cut at `took_text`'s words, else at its first ": "; ("", ``why``) when it has none."""
    at = why.find(f"{name}: ") if name else -1
    if at >= 0:
        end = at + len(name)
        return why[:end], why[end + len(": ") :]
    if (took := took_name(why)) != why:
        return took, why[len(took) + len(": ") :]
    lead, _, rest = why.partition(": ")
    return (lead, rest) if rest else ("", why)


def took_name(text: str) -> str:
    """The fight an engagement's (or quick resolve's) entry names: its sentence up to
    `took_text`'s words, so the name travels with the entry wherever its record stays behind."""
    for words in (TOOK, UNHURT):
        if words in text:
            return text.rsplit(words, 1)[0]
    return text


def applications_text(applications: int, *, applied: bool) -> str:
    """How often a battle's outcome was applied and reverted, for its state line; "" when it
    was applied once at most. An outcome is applied only when it waits or was reverted, and
    reverted only when applied, so an applied one was reverted once less than it was applied,
    a reverted one as often: "applied again after a revert", "applied 3 times, reverted twice",
    "applied twice, reverted each time"."""
    if applications < 2:
        return ""
    if not applied:
        return f"applied {times(applications)}, reverted each time"
    if applications == 2:
        return "applied again after a revert"
    return f"applied {times(applications)}, reverted {times(applications - 1)}"


HYPHEN_SIGN = re.compile(r"(?<![\w.\u2212-])-(\d+)(?![\w.])")
"""A hyphen standing as a whole number's sign: not inside a word ("T-72") or a range ("2-3")."""


def minus_signs(text: str) -> str:
    """A sentence kept with hyphens for minus signs (a roll's summary: "-1 against DC 10") as
    a page prints it, each such number by `number_text`: "−1 against DC 10"."""
    return HYPHEN_SIGN.sub(lambda match: number_text(-int(match[1])), text)


def hit_points_text(hit_points: int, *, alive: bool = True, most: int | None = None) -> str:
    """A character's hit points in words, with where that leaves it (`hit_point_state`):
    "9 of 12 hit points", "0 hit points, disabled", "−6 hit points, dying", "−13 hit points,
    dead"."""
    current = number_text(hit_points)
    said = f"{current} of {most} hit points" if most is not None else f"{current} hit points"
    state = hit_point_state(hit_points, alive=alive)
    return f"{said}, {state}" if state else said


def lost_past_full(lost: int, healed: int) -> str:
    """What a heal of ``healed`` hit points lost by stopping at full, for the character's record
    and its unit's history alike: "14 of the 20 healed were lost"."""
    return f"{lost} of the {healed} healed were lost"


def hit_points_shown(hit_points: int, *, alive: bool = True, most: int | None = None) -> str:
    """A character's hit points as a page shows them beside its name: `hit_points_text` while
    it lives ("−6 hit points, dying"), "dead" once dead, whose hit points mean nothing to the
    table; so do a history sentence ("Capt. Hero (dead)") and a roll's working, whose dice
    say how it came to die."""
    if hit_point_state(hit_points, alive=alive) == "dead":
        return "dead"
    return hit_points_text(hit_points, alive=alive, most=most)


def out_cold_text(name: str, hit_points: int, does: str = "leads nobody") -> str:
    """Why a dying character (`state.can_act`) plays no part, in the table's words: "Sgt Vance
    is dying (−3 hp) and leads nobody until healed"; ``does`` says which part."""
    return f"{name} is dying ({number_text(hit_points)} hp) and {does} until healed"


HITS_FIELDS = ("morale_hits", "casualty_hits")
"""What a unit carries: an entry that changes one of them keeps only that one, so what it
carries after the entry is the unit's snapshot there (`snapshot_replay` up to it)."""


def carries_text(morale: int, casualty: int) -> str:
    """What a unit carries, in words, naming only the kinds it carries: "carries no hits now",
    "now carries 1 Casualty hit", "now carries 1 Morale hit and 2 Casualty hits"."""
    if morale + casualty == 0:
        return "carries no hits now"
    return f"now carries {held_text(morale, casualty)}"


def held_text(morale: int, casualty: int) -> str:
    """The hits a unit carries, naming only the kinds it carries: "1 Casualty hit", "1 Morale
    hit and 2 Casualty hits" (`carries_text`, a table's Hits column)."""
    held = [
        plural(n, f"{kind} hit") for n, kind in ((morale, "Morale"), (casualty, "Casualty")) if n
    ]
    return " and ".join(held)


def experience_has_text(points: int, quality: Any = None) -> str:
    """The experience a unit has after an entry, as its history says it, with where that
    stands toward its next step of quality when ``quality`` (its quality then, a word or a
    `Quality`) is known (`toward_text`): "has 1 of the 4 experience points it needs to rise to
    Experienced"; else "has 3 experience points"."""
    return f"has {toward_text(points, quality)}"


def toward_text(points: int, quality: Any = None, was: int | None = None) -> str:
    """A unit's experience points and where they stand toward its next step of quality
    (`experience.EXPERIENCE_TABLE`), ``was`` the points before when fewer: "1 of the 2
    experience points it needs to rise to Inexperienced", "1 (2 before) of the 2 …"; at
    Legendary, the top step, "3 experience points, at Legendary, the top step"; without a
    ``quality``, the points alone: "3 experience points"."""

    before = "" if was is None else f" ({was} before)"
    if quality is None:
        return f"{plural(points, 'experience point')}{before}"
    quality = quality if isinstance(quality, Quality) else Quality.of_word(quality)
    needed = threshold(quality)
    if needed is None:
        return f"{plural(points, 'experience point')}{before}, at {quality.label}, the top step"
    return (
        f"{points:,}{before} of the {plural(needed, 'experience point')} it needs to rise to "
        f"{quality.raised().label}"
    )


def experience_text(before: dict[str, Any], after: dict[str, Any], quality: Any = None) -> str:
    """The experience a change leaves, where it stands toward the next step of quality (the
    quality ``after`` gives, else ``quality``, the unit's then), and the points before when
    they are fewer: a step up starts the count again from the points left over ("starts again
    with 0 of the 3 experience points it needs to rise to Average"); a step down holds them
    short of the next step at the new quality ("has 1 (2 before) of the 2 experience points it
    needs to rise to Inexperienced")."""
    now, was = after["experience"], before.get("experience")
    was_quality = before.get("quality")
    quality = after.get("quality", quality)
    if was is None or now >= was:
        return experience_has_text(now, quality)
    rose = "quality" in after and was_quality is not None
    if rose and Quality.of_word(after["quality"]) > Quality.of_word(was_quality):
        return f"starts again with {toward_text(now, quality)}"
    return f"has {toward_text(now, quality, was)}"


def story_text(
    before: dict[str, Any],
    after: dict[str, Any],
    unit: dict[str, Any],
    leader_most: int | None = None,
    *,
    death_told: bool = False,
    leader_named: bool = False,
    headlines: bool = True,
    ahead: bool = False,
) -> str:
    """What a change did to the unit, in plain words: "fell from Average to Green; now carries
    1 Morale hit and 2 Casualty hits; is in the combat zone". ``unit`` is the unit's snapshot
    after the entry (its hits at least): an entry holds only the fields it changed, so the hits
    it leaves alone are read there, never taken for 0. Bookkeeping (battles fought, the day of
    the last battle) is left out: the sentence already says a battle was fought. ``leader_most``:
    the most hit points its leader may have, when the entry kept them ("9 of 18 hit points").
    ``death_told``: the entry's reason says its leader died already ("Capt. Mara Holt died: 2
    Morale hits at once", `HistoryEntry.death_told`), so the story says it no more.
    ``leader_named``: the reason opens with the leader's name ("Sgt Vance healed",
    `HistoryEntry.leader_named`), so its hit points are said without it: "now at 14 of 14 hit
    points", never "Sgt Vance healed: Sgt Vance is at 14 of 14…". ``headlines``: False leaves
    out the unit destroyed and its step of quality, for a line that says them first (the
    timeline's). ``ahead``: the change is still to come (the review before the clock moves on,
    `pages.time_lines.time_lines_ahead`), told in the present tense: "is destroyed", "rallies",
    "falls from Average to Green", "loses 1 point of Skill…", where the history says what was."""
    parts = []
    if "status" in after:
        was, now = Status(before.get("status", "ready")), Status(after["status"])
        if now == Status.DESTROYED:
            if headlines:
                parts.append("is destroyed" if ahead else "was destroyed")
        elif now == Status.RETREATED:
            parts.append("retreats in poor order" if ahead else "retreated in poor order")
        elif was == Status.RETREATED:
            parts.append("rallies" if ahead else "rallied")
        else:
            parts.append(f"is {STATUS_LABELS[now].lower()} again")
    if "quality" in after and before.get("quality") is not None:
        was, now = Quality.of_word(before["quality"]), Quality.of_word(after["quality"])
        verb = ("rises" if ahead else "rose") if now > was else ("falls" if ahead else "fell")
        if headlines:
            parts.append(f"{verb} from {was.label} to {now.label}")
    elif "quality" in after:
        parts.append(f"is {_value('quality', after['quality'])}")
    # A destroyed unit carries nothing, stands nowhere and rises to nothing, worth a word.
    gone = after.get("status", unit.get("status")) == Status.DESTROYED
    hits_changed = any(field in after for field in HITS_FIELDS)
    if hits_changed and not gone:
        parts.append(carries_text(unit.get("morale_hits") or 0, unit.get("casualty_hits") or 0))
    if "experience" in after and not gone:
        parts.append(experience_text(before, after, unit.get("quality")))
    elif _rose(before, after) and isinstance(unit.get("experience"), int) and not gone:
        # The points the step up left unchanged count toward the next step now: said, as
        # the points a step up changes are, lest the sentence stop at the new quality.
        parts.append(experience_has_text(unit["experience"], after["quality"]))
    if "in_combat_zone" in after and not gone:
        parts.append(
            "is in the combat zone" if after["in_combat_zone"] else "is out of the combat zone"
        )
    if "leader" in after:
        was, now = before.get("leader"), after["leader"]
        if now is None:
            parts.append(f"{was['name']} no longer leads it" if was else "has no leader")
        elif was is None or was.get("name") != now["name"]:
            hit_points = hit_points_text(now["hit_points"], alive=now["alive"], most=leader_most)
            parts.append(f"{now['name']} takes command ({hit_points})")
        elif not now["alive"]:
            if not death_told:
                parts.append(f"{now['name']} {'is' if ahead else 'was'} killed")
        else:
            hit_points = hit_points_text(now["hit_points"], most=leader_most)
            moved = _moved_from(was.get("hit_points"), now["hit_points"])
            who = "now" if leader_named else f"{now['name']} is"
            parts.append(f"{who} at {hit_points}{moved}")
    if after.get("skill_lost"):
        lost = after["skill_lost"] - (before.get("skill_lost") or 0)
        if lost > 0:
            loses = "loses" if ahead else "lost"
            said = f"{loses} {plural(lost, 'point')} of Skill to suppression for good"
            if lost < after["skill_lost"]:
                # Beside a review's "Skill lost" column, which counts them all, "lost 2" read
                # as a miscount of its 3: the sentence says both.
                said += f", {after['skill_lost']} in all"
            parts.append(said)
    for field in ("name", "equipment", "specialties"):
        if field in after:
            was = _value(field, before.get(field))
            parts.append(f"{FIELD_LABELS[field]} {was} → {_value(field, after[field])}")
    return "; ".join(parts)


def _moved_from(was: int | None, now: int) -> str:
    """Where a leader's hit points came from, for the reader who has no full hit points to
    measure them by (a leader named with its unit): ", up from 3", ", down from 9"."""
    if was is None or was == now:
        return ""
    return f", {'up' if now > was else 'down'} from {number_text(was)}"


UNDONE = {
    "created": "the unit's raising",
    "medical": "the medics' work",
    "recovery": "the R&R",
    "training": "the training",
    "deployment": "the deployment",
    "leader": "the change of leader",
    "skill_check": "the skill check",
    "contest": "the contest",
    "gm_edit": "the GM's correction",
    "move": "the move between forces",
}
"""How a revert names an entry it undoes that came from no fight, by the entry's kind."""

FIGHT_KINDS = ("battle", "engagement", "quick_resolve")


def undone_text(
    kind: str,
    day: int,
    fight: str = "",
    name: str = "",
    kept: int | None = None,
    by_units: str | None = None,
) -> str:
    """What a revert undoes, in words, by the undone entry's kind and day, and the fight it came
    from (``fight``, "battle" or "engagement", and its ``name``): "the battle of day 4, Second
    Ford, is undone", "the experience from the engagement of day 2, Mill ford, is undone", "the
    Casualty hits lost after the battle of day 4, Second Ford, are given back", "the GM's
    correction of day 3 is undone". An engagement the GM did not name ("engagement, Squad 1
    against Iron Wolf") is named by its units alone (``by_units``, kept with its entries: "Squad
    1 against Iron Wolf"; "" for a fight named otherwise). ``kept``: the experience a unit keeps
    when the experience undone had changed nothing (points held just short of a step it stood
    at already), which the revert then has nothing to give back to say: "…, is undone: still 3
    experience points"."""
    return "".join(undone_parts(kind, day, fight, name, kept, by_units))


def undone_parts(
    kind: str,
    day: int,
    fight: str = "",
    name: str = "",
    kept: int | None = None,
    by_units: str | None = None,
) -> tuple[str, str, str]:
    """`undone_text` in three parts: the words before the fight's name, the name ("" when it
    names none) and the words after it, so a page can make the name a link without looking
    for it in the sentence."""
    still = "" if kept is None else f": still {plural(kept, 'experience point')}"
    if by_units is not None:
        name = by_units or name
    else:
        # Saved before an engagement kept the units it is named by: its default name is known
        # by how it starts.
        for default in ("engagement, ", "quick resolve, "):
            if name.lower().startswith(default):
                name = name[len(default) :]
    if fight:
        words = f"the {fight} of day {day}" + (", " if name else "")
        after = "," if name else ""
        if kind in FIGHT_KINDS:
            return words, name, f"{after} is undone"
        if kind == "experience":
            return f"the experience from {words}", name, f"{after} is undone{still}"
        if kind == "casualties":
            return f"the Casualty hits lost after {words}", name, f"{after} are given back"
        return f"what {words}", name, f"{after} did is undone"
    if kind == "casualties":
        return f"the Casualty hits that died on day {day} are given back", "", ""
    return f"{undone_name(kind, day)} is undone" + (still if kind == "experience" else ""), "", ""


def undone_name(kind: str, day: int) -> str:
    """An entry that came from no fight as a revert or an Undo names it, by its kind and day
    (`UNDONE`): "the GM's correction of day 3"."""
    what = UNDONE.get(kind, f"the {kind.replace('_', ' ')}")
    return f"{what} of day {day}"


REVERT_ORDER = (
    "quality", "status", "morale_hits", "casualty_hits", "experience", "battles_fought",
    "in_combat_zone", "skill_lost", "leader", "name", "equipment", "specialties",
)  # fmt: skip
"""The fields a revert says it gave back, in the order a sentence tells them; the rest (the day
of the last battle, when the medics' 24 hours began, the steps lost within them) only the
campaign's bookkeeping reads."""


def revert_text(after: dict[str, Any], unit: dict[str, Any]) -> str:
    """What a revert gave back, in plain words: "back to Elite, ready, no hits, 2 battles
    fought". ``unit`` is the unit's snapshot after it (its hits). Bookkeeping is left out
    (`REVERT_ORDER`): the sentence says which fight was undone."""
    parts = []
    for field in [field for field in REVERT_ORDER if field in after]:
        value = after[field]
        if field == "quality":
            parts.append(Quality.of_word(value).label)
        elif field == "status":
            parts.append(STATUS_LABELS[Status(value)].lower())
        elif field in HITS_FIELDS:
            morale, casualty = unit.get("morale_hits") or 0, unit.get("casualty_hits") or 0
            hits = " and ".join(
                plural(count, word)
                for count, word in ((morale, "Morale hit"), (casualty, "Casualty hit"))
                if count
            )
            if (hits or "no hits") not in parts:
                parts.append(hits or "no hits")
        elif field == "experience":
            parts.append(plural(value, "experience point"))
        elif field == "battles_fought":
            parts.append(f"{plural(value, 'battle')} fought")
        elif field == "in_combat_zone":
            parts.append("in the combat zone" if value else "out of the combat zone")
        elif field == "skill_lost":
            parts.append(f"{plural(value, 'point')} of Skill lost" if value else "no Skill lost")
        elif field == "leader":
            parts.append("no leader" if value is None else f"led by {_value(field, value)}")
        else:
            parts.append(f"{FIELD_LABELS[field]} {_value(field, value)}")
    return f"back to {', '.join(parts)}" if parts else ""


def _rose(before: dict[str, Any], after: dict[str, Any]) -> bool:
    """Whether a change raised the unit's quality (both qualities known)."""
    if "quality" not in after or before.get("quality") is None:
        return False
    return Quality.of_word(after["quality"]) > Quality.of_word(before["quality"])
