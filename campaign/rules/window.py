"""A medical window closing: its dead given back to the fights that dealt them.

Each fight's Casualty hits await the medics 24 hours from that fight (`WindowFight.at`); hits
no fight kept (a GM's correction entered them, or the window opened before fights were kept)
count from the window's hour (`window_from`). When a fight's 24 hours are over, those of its
hits the medics did not save are dead, each a quality step lost for good
(`recovery.casualties_die`). A unit that fights again while the hits of an earlier fight await
the medics keeps every such fight in its window, for each earned its experience before its dead
were known. The project's promise (docs/campaign.md §1.5): the unit ends exactly where the
same fights, entered after their 24 hours (their hits found too late at once), leave it. So a
closing runs the window's fights again, in the order they were entered, as if each fight's
dead had died with it: its quality falls there, its own points are held short of a step up
("no step back up in the battle that cost it quality for good"), and the fights after it earn
from the quality that leaves. A step up a fight without dead gave before them stands. When
later fights' hits still await, the fights stay kept, each rewritten as it now went in and its
dead kept as dead with it (`found_too_late`), so their own closing counts on from there.

Which hits are dead, when the medics saved some: they save the hits closest to dying first
(`awaiting`), so those still awaiting are the last to die. Plain Python: no Django.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from campaign.rules.experience import (
    BECAUSE,
    HELD_BACK_BROKEN,
    HELD_BACK_QUALITY_LOST,
    Earned,
    fight_points,
    points_earned,
    step_ups_withdrawn,
    with_quality,
)
from campaign.rules.orders import clock_hour
from campaign.rules.state import CampaignUnitState, Status, WindowFight
from units.bucs import Quality
from units.words import and_words, plural


def window_opens(state: CampaignUnitState) -> int | None:
    """The clock hour the unit's medical window runs from (`window_from`): the hour its
    Casualty hits no fight kept count from, and a kept fight's that kept no hour; None before
    its first battle. A battle from before the campaign kept its hour counts from 00:00 of its
    day."""
    if state.window_from is not None:
        return state.window_from
    if state.last_battle_day is not None:
        return clock_hour(state.last_battle_day, 0)
    return None


def fought_at(state: CampaignUnitState) -> list[int]:
    """The clock hour each kept fight's own Casualty hits count from: the fight's
    (`WindowFight.at`), or the window's for a fight kept before fights kept their hour."""
    opens = window_opens(state)
    since = -1 if opens is None else opens
    return [since if fight.at is None else fight.at for fight in state.window_fights]


def awaiting(state: CampaignUnitState) -> tuple[list[int], int]:
    """(by fight, unkept): how many of each kept fight's own Casualty hits still await the
    medics, and how many no fight kept. The medics save the hits closest to dying first, so
    those still awaiting are the last to die: the latest fought first (of two fought at one
    hour, the later entered), then those no fight kept, the oldest, counting from the window's
    hour."""
    fights = state.window_fights
    hours = fought_at(state)
    left = state.casualty_hits
    kept = [0] * len(fights)
    for index in sorted(range(len(fights)), key=lambda i: (hours[i], i), reverse=True):
        kept[index] = min(fights[index].casualty_hits, left)
        left -= kept[index]
    return kept, left


@dataclass(frozen=True)
class Spared:
    """Dead a battle's suppression spared a step each (Combined Arms): measured against the steps
    the unit had before it, they fall where the steps lost to suppression there already left
    the unit, at Raw."""

    count: int
    """How many of the dead cost no step."""
    steps: int
    """The steps the unit lost to suppression in that battle."""
    dealt: bool = True
    """Whether the battle dealt them all (False: some were an earlier battle's, whose dead left
    the unit fewer steps for this one's suppression to take than it took)."""
    fight: str = ""
    """The battle's name as the unit's entry of it keeps it (`WindowFight.name`): "" for hits no
    fight kept, or a fight kept before fights kept their names."""


@dataclass(frozen=True)
class Settled:
    """What a closing window leaves of a unit, and why, for the history."""

    state: CampaignUnitState
    """The unit with its dead gone back to their fights: its quality, experience and status,
    and the Casualty hits still awaiting the medics (when all are dead, the window's counts are
    for the caller to clear)."""
    withdrawn: tuple[Quality, ...] = ()
    """The quality each step up withdrawn had reached: the step a fight whose hits died gave
    (or, in a window from before fights were kept, a step counted against its hits)."""
    recounted: bool = False
    """Whether a fight after the first whose hits died, its points counted again from the
    quality the dead leave, did something else than it did (a step up more, one fewer, or to
    another quality)."""
    spared: tuple[Spared, ...] = ()
    """The battles whose suppression spared dead a step each, in the order fought: why the dead
    cost fewer steps than their number. Hits no fight kept count as one battle, against the
    steps lost before any fight was kept."""
    dead: int = 0
    """How many Casualty hits died."""


def window_settled(state: CampaignUnitState, fought_by: int | None = None) -> Settled:
    """The unit once the 24 hours of its Casualty hits dealt at or before clock hour
    ``fought_by`` are over, and those of them the medics did not save are dead (all its
    `casualty_hits` when None) (§1.5).

    Each kept fight (`window_fights`) is run again from how the unit went into it: whatever
    befell it between two fights (a GM's correction, a battle found too late) befalls the
    unit here too, as the difference it made; then the fight's steps lost to suppression, its
    own dead (more dead than the steps it had before that fight destroy it utterly, and it
    keeps the experience it had then), and its points. Hits no fight kept die first, as the
    oldest; a step up counted against them in a window from before fights were kept
    (`window_quality_gained`) is withdrawn with them, as it was then. Dead past Raw that the
    steps lost to suppression already counted cost no step, and are kept to say so (`spared`).
    While later fights' hits still await the medics, the window keeps its fights, each as the
    unit now went into it, the dead kept with the fight that dealt them (`_kept_open`).
    """
    fights = state.window_fights
    left, unkept_left = awaiting(state)
    hours = fought_at(state)
    opens = window_opens(state)
    if fought_by is None:
        dying, unkept = left, unkept_left
    else:
        dying = [hits if hour <= fought_by else 0 for hits, hour in zip(left, hours, strict=True)]
        unkept = unkept_left if opens is None or opens <= fought_by else 0
    dead = sum(dying) + unkept
    went_in = _went_in(state, fights[0]) if fights else state
    late = went_in
    withdrawn: list[Quality] = []
    spared: list[Spared] = []
    # Suppression in the kept fights, as `damage_apply` counted it (a battle found too late
    # took its own out again): what is left was lost before any fight was kept.
    kept_lost = sum(min(f.skill_lost, int(f.quality)) for f in fights if not f.found_too_late)
    lost_before = max(0, state.window_quality_lost - kept_lost)
    if unkept:
        if state.window_quality_gained:
            withdrawn += _gained(late.quality, state.window_quality_gained)
            late = step_ups_withdrawn(late)
        if unkept > int(late.quality) + lost_before:
            experience = late.experience
            if state.window_experience is not None:
                experience = state.window_experience
            destroyed = _destroyed(late.but(experience=experience))
            return Settled(destroyed, tuple(withdrawn), dead=dead)
        _spare(spared, unkept - int(late.quality), lost_before)
        late = with_quality(late, late.quality.lowered(unkept))
    saved = went_in
    died = bool(unkept)
    recounted = False
    entered: list[CampaignUnitState] = []
    for fight, fight_dead in zip(fights, dying, strict=True):
        late = _shifted(late, saved, _went_in(state, fight))
        entered.append(late)
        saved = _went_in(state, fight)
        saved, saved_lost = _suppressed(saved, fight)
        late, late_lost = _suppressed(late, fight)
        # Hits found too late died with the fight in both; the window's dead only here.
        saved = with_quality(saved, saved.quality.lowered(fight.found_too_late))
        if fight_dead + fight.found_too_late > int(late.quality) + late_lost:
            return Settled(_destroyed(late), tuple(withdrawn), recounted, dead=dead)
        # Hits found too late died first (as the battle was entered): the steps left are the
        # window's dead's to lose; those past Raw the steps lost to suppression counted. Where
        # earlier dead left the unit fewer steps for this suppression to take than it took,
        # it took those steps in their stead.
        steps_left = max(0, int(late.quality) - fight.found_too_late)
        taken = max(0, saved_lost - late_lost)
        count = max(0, fight_dead - steps_left) + taken
        dealt = fight_dead > steps_left and not taken
        _spare(spared, count, saved_lost, dealt=dealt, fight=fight.name)
        late = with_quality(late, late.quality.lowered(fight_dead + fight.found_too_late))
        points = fight_points(fight.won)
        saved, earned = points_earned(saved, points, _held_back(fight, saved_lost))
        late, counted = points_earned(late, points, _held_back(fight, late_lost + fight_dead))
        if fight_dead and earned.raised:
            withdrawn.append(saved.quality)
        elif died and _step(counted, late) != _step(earned, saved):
            recounted = True  # from the quality the dead left, its points did something else
        died = died or bool(fight_dead)
    late = _shifted(late, saved, state)
    settled = state.but(
        quality=late.quality, experience=late.experience, casualty_hits=state.casualty_hits - dead
    )
    if settled.casualty_hits and fought_by is not None:
        settled = _kept_open(settled, fought_by, entered, dying, unkept_left - unkept, lost_before)
    return Settled(settled, tuple(withdrawn), recounted, tuple(spared), dead)


def _kept_open(
    state: CampaignUnitState,
    fought_by: int,
    entered: list[CampaignUnitState],
    dying: list[int],
    unkept: int,
    lost_before: int,
) -> CampaignUnitState:
    """The window once the hits of the fights fought by clock hour ``fought_by`` are dead
    (``dying``, by fight) or saved, while others still await the medics (``unkept`` of them no
    fight kept). Each kept fight now went in as the run again left it (``entered``), so its
    hits' own closing counts on from the quality the dead left; a fight whose 24 hours are
    over has no hits awaiting any more, and keeps its dead as dying with it
    (`found_too_late`), as the unit now stands. The window runs from its oldest hits still
    awaiting; the suppression it counts is that of the fights whose hits did not die, and of
    hits no fight kept while some still await (``lost_before``)."""
    hours = fought_at(state)
    fights = tuple(
        replace(
            fight,
            quality=went.quality,
            experience=went.experience,
            casualty_hits=0 if hour <= fought_by else fight.casualty_hits,
            found_too_late=fight.found_too_late + dead,
            at=hour,
        )
        for fight, went, dead, hour in zip(state.window_fights, entered, dying, hours, strict=True)
    )
    kept = state.but(window_fights=fights)
    if not unkept:
        left, _ = awaiting(kept)
        kept = kept.but(
            window_from=min(hour for hour, hits in zip(hours, left, strict=True) if hits),
            window_quality_gained=0,
            window_experience=fights[0].experience,
        )
        lost_before = 0
    kept_lost = sum(min(f.skill_lost, int(f.quality)) for f in fights if not f.found_too_late)
    return kept.but(window_quality_lost=lost_before + kept_lost)


def _spare(
    spared: list[Spared], count: int, steps: int, *, dealt: bool = True, fight: str = ""
) -> None:
    """Count ``count`` dead as costing no step, for a battle that lost ``steps`` to suppression
    (``dealt``: it dealt them all; ``fight``: its name)."""
    if count > 0:
        spared.append(Spared(count, steps, dealt, fight))


def _step(earned: Earned, state: CampaignUnitState) -> Quality | None:
    """The quality a fight's points raised the unit to (None: no step up)."""
    return state.quality if earned.raised else None


def _went_in(state: CampaignUnitState, fight: WindowFight) -> CampaignUnitState:
    return state.but(quality=fight.quality, experience=fight.experience)


def _suppressed(state: CampaignUnitState, fight: WindowFight) -> tuple[CampaignUnitState, int]:
    """(state, steps lost): the fight's Skill lost for good, a step each as far as Raw, as
    `damage.outcome_damage` takes it."""
    lost = min(fight.skill_lost, int(state.quality))
    return with_quality(state, state.quality.lowered(fight.skill_lost)), lost


def _held_back(fight: WindowFight, quality_lost: int) -> str:
    """Why the fight's points stop short of a step up, as `experience_earn` says it."""
    if fight.broken:
        return HELD_BACK_BROKEN
    return HELD_BACK_QUALITY_LOST if quality_lost or fight.found_too_late else ""


def _shifted(
    late: CampaignUnitState, was: CampaignUnitState, now: CampaignUnitState
) -> CampaignUnitState:
    """``late`` moved as the unit moved from ``was`` to ``now`` outside its fights (a GM's
    correction, say): the same steps and points, within the ladder."""
    steps = int(now.quality) - int(was.quality)
    points = now.experience - was.experience
    if not steps and not points:
        return late
    quality = Quality(min(max(int(late.quality) + steps, Quality.RAW), Quality.LEGENDARY))
    return with_quality(late.but(experience=max(0, late.experience + points)), quality)


def _destroyed(state: CampaignUnitState) -> CampaignUnitState:
    return state.but(status=Status.DESTROYED, in_combat_zone=False)


def _gained(quality: Quality, steps: int) -> list[Quality]:
    """The qualities `steps` steps up reached, the last being `quality`, lowest first."""
    return [quality.lowered(n) for n in reversed(range(steps))]


def withdrawn_text(state: CampaignUnitState, fought_by: int | None = None) -> str:
    """What the dead cost beyond a step each, or short of it, should the unit's Casualty hits
    dealt by clock hour ``fought_by`` (all of them, when None) die now, in the history's words
    ("" for nothing): dead that cost no step (`spared_text`); "the step up to Experienced from
    that battle is withdrawn, for there is no step back up in the battle that cost it quality
    for good", and when fights came after: "the experience of the fights since counts again
    from the quality left", with the steps the dead cost and those the fights won back when the
    quality alone would not show them ("the dead cost it 1 step; …: 1 step won back")."""
    if not state.casualty_hits or state.destroyed:
        return ""
    settled = window_settled(state, fought_by)
    parts = []
    # Never more than the dead: a step up withdrawn may be what a later suppression took.
    spared = min(sum(each.count for each in settled.spared), settled.dead)
    if spared and not settled.state.destroyed:
        parts.append(spared_text(settled.dead, spared, settled.spared))
    labels = [quality.label for quality in settled.withdrawn]
    if len(labels) == 1:
        parts.append(f"the step up to {labels[0]} from that battle is withdrawn")
    elif labels:
        steps = ", ".join(labels[:-1]) + f" and {labels[-1]}"
        parts.append(f"the steps up to {steps} from those battles are withdrawn")
    if labels:
        parts[-1] += f"{BECAUSE}{HELD_BACK_QUALITY_LOST}"
    if settled.recounted and not settled.state.destroyed:
        recount = "the experience of the fights since counts again from the quality left"
        # A step each dead hit costs, and a step each withdrawn, are what the fights since
        # start again from: what they won back (or fell short of) is the rest of the change,
        # which the quality alone would not show (a step lost and won back reads as none).
        cost = settled.dead - spared
        moved = int(settled.state.quality) - int(state.quality) + cost + len(settled.withdrawn)
        if moved:
            if cost:
                parts.append(f"the dead cost it {plural(cost, 'step')}")
            recount += (
                f": {plural(moved, 'step')} won back"
                if moved > 0
                else f": {plural(-moved, 'step')} up fewer"
            )
        parts.append(recount)
    return "; ".join(parts)


def spared_text(dead: int, spared: int, battles: tuple[Spared, ...]) -> str:
    """Why ``spared`` of ``dead`` Casualty hits cost no step, in the history's words: the dead
    are measured against the steps the unit had before the suppression of the ``battles``
    (`Settled.spared`), so past Raw the steps lost to suppression there counted them: "it
    costs no further step: the step lost to suppression at Battle of the Crossroads already
    counted those men"; "1 of them costs no further step: …". The battles are named as the
    unit's entries of them keep them; when one kept no name (hits no fight kept, a window kept
    before fights kept their names), none is: "… in the battle that dealt it …"."""
    if spared == dead:
        who = "it costs" if dead == 1 else "they cost"
    else:
        who = f"{spared:,} of them {'costs' if spared == 1 else 'cost'}"
    steps = sum(each.steps for each in battles)
    lost = "the step" if steps == 1 else "the steps"
    names = list(dict.fromkeys(each.fight for each in battles))  # in the order fought, once each
    if all(names):
        where = f"at {and_words(names)}"
    elif all(each.dealt for each in battles):
        where = "in the battle that dealt" if len(battles) == 1 else "in the battles that dealt"
        where += " it" if spared == 1 else " them"
    else:
        where = "in those battles"  # the earlier battle whose dead left this one less to take
    return f"{who} no further step: {lost} lost to suppression {where} already counted those men"
