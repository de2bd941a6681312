"""Recovery between battles: R&R, rallying, the medics' 24 hours, and the dead.

Pure functions over `CampaignUnitState`. The campaign clock counts hours within days. A unit's
Casualty hits await the medics for 24 hours from the battle that dealt them, each battle's its
own (open up to and including the 24th hour, closed after): when the clock passes a battle's,
every Casualty hit of it the medics did not save is dead and lowers the unit's quality for
good. Each midnight the clock passes is a day of R&R. Choices are in docs/campaign.md
("Recovery"), each with its test. Plain Python: no Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from campaign.rules.experience import experience_refused, with_quality
from campaign.rules.orders import HOURS_PER_DAY, clock_text
from campaign.rules.state import CampaignUnitState, Status
from campaign.rules.window import awaiting, fought_at, window_opens, window_settled
from units.bucs import Equipment, Quality, Specialty

# ---------------------------------------------------------------------------------------------
# R&R
# ---------------------------------------------------------------------------------------------


def rest_day(state: CampaignUnitState) -> CampaignUnitState:
    """One day of R&R: one Morale hit healed, and a unit that retreated rallies once it can.

    A unit still in the combat zone keeps its last Morale hit. A retreated unit whose hits
    still take it below Raw is still broken: it stays retreated (out of action) until R&R has
    healed enough to bring it back onto the ladder. Nothing heals a destroyed unit.
    """
    if state.status == Status.DESTROYED:
        return state
    rested = state.but(morale_hits=state.morale_hits - min(1, morale_hits_healable(state)))
    if state.status == Status.RETREATED and not rested.below_raw:
        return rested.but(status=Status.READY)
    return rested


def morale_hits_healable(state: CampaignUnitState) -> int:
    """Morale hits that may heal now: all but the last while the unit is still in the combat
    zone (under stress its last Morale hit heals only by R&R out of it)."""
    if state.status == Status.DESTROYED:
        return 0
    keep = 1 if state.in_combat_zone else 0
    return max(0, state.morale_hits - keep)


# ---------------------------------------------------------------------------------------------
# The medical window
# ---------------------------------------------------------------------------------------------

MEDICAL_WINDOW_HOURS = 24
"""Casualty hits not restored within 24 hours of the battle are dead."""


def awaiting_until(state: CampaignUnitState) -> list[tuple[int, int]]:
    """The unit's Casualty hits awaiting the medics by the last clock hour they may be saved,
    soonest first: (hour, hits). Each fight's own await the medics 24 hours from that fight,
    those no fight kept (a GM's correction's) 24 hours from the window's hour
    (`window.window_opens`); those the medics saved were the closest to dying
    (`window.awaiting`). Empty when none await, or none has a window to count from."""
    kept, unkept = awaiting(state)
    opens = window_opens(state)
    if opens is None:
        return []
    until: dict[int, int] = {}
    for hour, hits in [*zip(fought_at(state), kept, strict=True), (opens, unkept)]:
        if hits:
            closes = hour + MEDICAL_WINDOW_HOURS
            until[closes] = until.get(closes, 0) + hits
    return sorted(until.items())


def medical_window_closes(state: CampaignUnitState) -> int | None:
    """The last clock hour the medics may save the unit's Casualty hits that die soonest: 24
    hours after the fight that dealt them (at that hour the window is still open; after it,
    those hits are dead). None when it has no Casualty hits awaiting the medics."""
    until = awaiting_until(state) if state.casualty_hits else []
    return until[0][0] if until else None


def medical_window_open(state: CampaignUnitState, now: int) -> bool:
    """Whether medics may still save this unit's Casualty hits at this clock hour."""
    closes = medical_window_closes(state)
    return state.status != Status.DESTROYED and closes is not None and now <= closes


def window_after_battle(state: CampaignUnitState, at: int) -> int:
    """The unit's `window_from` after a battle at clock hour `at`: the battle's hour, unless
    Casualty hits of another battle still await the medics. Then the window keeps running from
    its oldest hits, and the battle's own await the medics 24 hours from the battle, kept with
    it (`WindowFight.at`): each battle's hits have their own 24 hours, and none outlasts them.
    A battle fought before the window opened, entered late, moves it no earlier: its own hits
    die at once if its own 24 hours are over (`found_too_late`, `casualties_found_too_late`),
    else when they are. Asked only of a battle that leaves Casualty hits awaiting the medics:
    one that leaves none opens no window (`damage.damage_apply`), for a window with none in it
    would never be read (a later battle's hits open their own, `medical_window_closes`)."""
    since = window_opens(state) if state.casualty_hits else None
    return at if since is None else since


def found_too_late(at: int, now: int) -> bool:
    """Whether a battle fought at clock hour `at` and entered at clock hour `now` is past its
    own 24 hours: its Casualty hits died before anyone could send the medics."""
    return now > at + MEDICAL_WINDOW_HOURS


def window_after_correction(
    before: CampaignUnitState, after: CampaignUnitState, now: int
) -> CampaignUnitState:
    """The state a GM's correction leaves (`after`), its medical window settled: a correction
    that raises the unit's Casualty hits when none await the medics within an open window
    opens the medics' 24 hours from the correction's clock hour `now`, with no quality lost
    to suppression in it. Hits added while a window is open join its oldest hits awaiting the
    medics, dying with them (a correction keeps no fight of its own in the window): the window
    then runs from the hour those count from. Otherwise hits entered by hand would have no
    window at all (a unit that never fought) or one closed long ago (a veteran), and so never
    die or die untended."""
    if after.casualty_hits <= before.casualty_hits:
        return after
    if medical_window_open(before, now):
        oldest = awaiting_until(before)[0][0] - MEDICAL_WINDOW_HOURS
        # A fight kept before fights kept their hour keeps counting from the window's.
        since = window_opens(before)
        fights = [
            fight if fight.at is not None else replace(fight, at=since)
            for fight in after.window_fights
        ]
        return after.but(window_from=oldest, window_fights=tuple(fights))
    return after.but(
        window_from=now,
        window_quality_lost=0,
        window_quality_gained=0,
        window_experience=None,
        window_fights=(),
    )


def casualties_die(
    state: CampaignUnitState, closes: int | None = None
) -> tuple[CampaignUnitState, int]:
    """(state, dead): the 24 hours of the Casualty hits whose last hour is ``closes`` or
    earlier are over (all of them, when None), so those the medics did not save are dead.

    The unit is permanently reduced by one quality step per dead hit, and they are gone
    (the survivors and fresh recruits make a new, lesser unit that gains experience normally).
    More dead than its quality has steps leaves nothing: the unit is destroyed utterly. The steps
    counted are those it had before the battles that wounded them: a step lost to suppression
    in those battles (Combined Arms) is lost for good, but it is not what kills the unit, so a
    Legendary unit is never lost for good to a single Team Bravo Hit (rulings, property 1).
    The dead go back to the fights that dealt them (`window.window_settled`): a step up such a
    fight gave is withdrawn, the experience of the fights after it counts again from the
    quality they leave, and a unit they destroy keeps the experience it had before that
    fight. So it ends where the same fights, their hits found too late at once, would have
    left it, whenever the GM entered them. Casualty hits of later fights still awaiting the
    medics keep their own 24 hours.
    """
    if state.casualty_hits == 0 or state.status == Status.DESTROYED:
        return state, 0
    fought_by = None if closes is None else closes - MEDICAL_WINDOW_HOURS
    settled = window_settled(state, fought_by)
    after = settled.state
    if after.destroyed or not after.casualty_hits:
        after = _window_closed(after)
    return after, settled.dead


def _window_closed(state: CampaignUnitState) -> CampaignUnitState:
    """The unit with no Casualty hits awaiting the medics, nor the counts of their window."""
    return state.but(
        casualty_hits=0,
        window_quality_lost=0,
        window_quality_gained=0,
        window_experience=None,
        window_fights=(),
    )


def casualties_found_too_late(
    state: CampaignUnitState, hits: int, quality_lost: int = 0
) -> tuple[CampaignUnitState, int]:
    """(state, dead): a battle entered after its own 24 hours (`found_too_late`) has its `hits`
    new Casualty hits die at once, and only them. Casualty hits of another battle still
    awaiting the medics stay in their window, its hour and count untouched. The dead are
    measured against the steps the unit had before that battle (`quality_lost`: steps it lost
    there to suppression, which `damage_apply` counted into the window), as `casualties_die`
    measures a window's."""
    if hits == 0 or state.status == Status.DESTROYED:
        return state, 0
    if hits == state.casualty_hits:
        # The window is that battle's alone, and it has not earned yet: nothing to count again.
        return casualties_die(state.but(window_fights=()))
    others = state.but(
        casualty_hits=state.casualty_hits - hits,
        window_quality_lost=state.window_quality_lost - quality_lost,
    )
    fights = state.window_fights
    if fights and fights[-1].casualty_hits >= hits:
        # The battle (the window's last fight) stays among its fights, for its experience to
        # count with theirs; its hits no longer await the medics: they died with it.
        died = replace(
            fights[-1],
            casualty_hits=fights[-1].casualty_hits - hits,
            found_too_late=fights[-1].found_too_late + hits,
        )
        others = others.but(window_fights=(*fights[:-1], died))
    if hits > int(state.quality) + quality_lost:
        destroyed = others.but(status=Status.DESTROYED, in_combat_zone=False)
        return _window_closed(destroyed), hits
    return with_quality(others, state.quality.lowered(hits)), hits


@dataclass(frozen=True)
class Passing:
    """One thing the clock's moving on does to a unit: the 24 hours of some of its Casualty hits
    ending (the dead), or a day of R&R at midnight."""

    kind: str
    """``casualties`` or ``rest``."""
    at: int
    """The clock hour it happens: the dead's last hour (or the start, for hits found past it
    already), or the midnight."""
    state: CampaignUnitState
    """The unit after it."""
    dead: int = 0


CASUALTIES, REST = "casualties", "rest"


def time_passes(state: CampaignUnitState, start: int, end: int) -> list[Passing]:
    """What the clock moving on from `start` to `end` (clock hours) does to the unit, in order.

    Each battle's Casualty hits die once the clock is past their 24th hour, those the medics did
    not save. Each midnight passed is a day of R&R; a window closed before that
    midnight closes first (a window still open at midnight, its 24th hour, closes after).
    """
    events: list[Passing] = []
    midnight = (start // HOURS_PER_DAY + 1) * HOURS_PER_DAY

    def close(before: int) -> None:
        nonlocal state
        # Each battle's hits die as their own 24 hours end, the soonest first.
        while (closes := medical_window_closes(state)) is not None and closes < before:
            if state.destroyed:
                break
            state, dead = casualties_die(state, closes)
            events.append(Passing(CASUALTIES, max(closes, start), state, dead))

    while midnight <= end and not state.destroyed:
        close(midnight)
        if state.destroyed:
            break
        rested = rest_day(state)
        events.append(Passing(REST, midnight, rested))
        state = rested
        midnight += HOURS_PER_DAY
    close(end)
    return events


def days_to_rally(state: CampaignUnitState, now: int) -> int | None:
    """Days of R&R until a unit retreated in poor order rallies, if nothing but time passes from
    clock hour `now` (no medics, no battle, no Strategist): 1 when the next midnight's R&R
    rallies it. None when time alone never does: its Casualty hits die and destroy it, or it is
    still in the combat zone, where its last Morale hit keeps it below Raw. The same days
    `time_passes` gives the calendar, so what a page promises is what the Advance does."""
    if state.status != Status.RETREATED:
        return None
    # Each day heals a Morale hit or nothing ever will: a day more than its hits is enough.
    first_midnight = (now // HOURS_PER_DAY + 1) * HOURS_PER_DAY
    end = first_midnight + state.hits * HOURS_PER_DAY
    days = 0
    for passing in time_passes(state, now, end):
        if passing.kind == REST:
            days += 1
            if passing.state.status == Status.READY:
                return days
    return None


def zone_problem(state: CampaignUnitState) -> str:
    """Why the unit cannot be where its `in_combat_zone` puts it ("" when it can): only a ready
    unit is in the combat zone. One that retreated in poor order has left it
    (`damage.damage_apply`) and goes back in once it has rallied; a destroyed one is out of
    it for good. Of one whose Casualty hits await the medics, it says what their 24 hours
    decide (`casualties_die`): how many the medics must save for it to live
    (`hits_to_survive`), or the quality the dead leave it for good should none be saved."""
    if not state.in_combat_zone or state.status == Status.READY:
        return ""
    if state.status == Status.DESTROYED:
        return f"{state.name} is destroyed: it has left the combat zone for good"
    said = (
        f"{state.name} retreated in poor order: it has left the combat zone, and goes back in "
        "once it has rallied"
    )
    if medical_window_closes(state) is None:
        return said
    hours = f"within their {MEDICAL_WINDOW_HOURS} hours"
    after, _dead = casualties_die(state)
    if after.destroyed:
        return (
            f"{said}, if the medics save at least {hits_to_survive(state)} of its "
            f"{state.casualty_hits} Casualty hits {hours}; if not, it is destroyed"
        )
    # The worst the dead can do: each saved spares the unit a step.
    return (
        f"{said}; Casualty hits the medics do not save {hours} die, each a step lost for "
        f"good: none saved, it is reduced to {after.quality.label}"
    )


def state_problems(state: CampaignUnitState, now: int) -> dict[str, str]:
    """What no run of the campaign's rules leaves a unit with at clock hour `now`, by the field
    at fault, each in a sentence naming the unit (empty: nothing). Both a GM's correction and an
    import ask it, so whatever a campaign holds exports and imports again. The rules keep these
    true:

    - only a ready unit is in the combat zone (`zone_problem`);
    - below Legendary, a unit holds fewer experience points than its next step needs: the
      point that reaches it raises the unit (`experience_refused`);
    - a unit not destroyed carries Casualty hits only within their medical window, open at
      `now`: a battle or a GM's correction gives them 24 hours (`window_after_battle`,
      `window_after_correction`), and they die when the clock passes it (`time_passes`), so a
      unit never carries old Casualty hits.

    A GM may still hold a unit ready whose hits take it below Raw: a correction is the GM's
    word, and an import keeps it.
    """
    problems: dict[str, str] = {}
    if problem := zone_problem(state):
        problems["in_combat_zone"] = problem
    if problem := experience_refused(state):
        problems["experience"] = problem
    if state.casualty_hits and not state.destroyed:
        closes = medical_window_closes(state)
        if closes is None:
            problems["casualty_hits"] = (
                f"{state.name} carries Casualty hits with no medical window (no battle nor "
                "correction opened one): they would never be saved nor die"
            )
        elif closes < now:
            problems["casualty_hits"] = (
                f"{state.name} carries Casualty hits whose medical window closed at "
                f"{clock_text(closes)}: those the medics did not save died then, and a unit "
                "never carries old Casualty hits"
            )
    return problems


MEDICAL_CAPACITY_BY_QUALITY: dict[Quality, int] = {
    Quality.RAW: 0,
    Quality.GREEN: 1,
    Quality.INEXPERIENCED: 1,
    Quality.AVERAGE: 2,
    Quality.EXPERIENCED: 2,
    Quality.ELITE: 3,
    Quality.LEGENDARY: 4,
}
"""Hits (Casualty and Morale) one Medical crew heals in a day, by its effective quality."""

MEDICAL_CAPACITY_BY_EQUIPMENT: dict[Equipment, int] = {
    Equipment.POOR: -2,
    Equipment.BARELY_ADEQUATE: -1,
    Equipment.ADEQUATE: 0,
    Equipment.GOOD: 1,
    Equipment.EXCELLENT: 2,
}
"""Added to a Medical crew's capacity for its kit (half the equipment modifier)."""


def medical_capacity(state: CampaignUnitState) -> int:
    """Hits this unit can heal in a day: 0 unless it is a ready Medical crew."""
    if Specialty.MEDICAL not in state.specialties or state.status != Status.READY:
        return 0
    base = MEDICAL_CAPACITY_BY_QUALITY[state.effective_quality]
    return max(0, base + MEDICAL_CAPACITY_BY_EQUIPMENT[state.equipment])


def crews_left(
    capacity: Mapping[int, int], worked: Mapping[int, int], unnamed: int = 0
) -> dict[int, int]:
    """Hits each of a force's Medical crews may still heal today, by its key: its capacity less
    what it healed today (``worked``, by crew), never below 0. The day's capacity is the crew's:
    work it did in another force, or on a unit moved away since, counts against it all the same.
    ``unnamed``: hits healed today by the force's medics in entries that name no crew (written
    before entries named them), taken off its crews as `crews_share` would have shared them."""
    left = {key: max(0, hits - worked.get(key, 0)) for key, hits in capacity.items()}
    taken = crews_share(left, unnamed)
    return {key: hits - taken.get(key, 0) for key, hits in left.items()}


def crews_share(left: Mapping[int, int], hits: int) -> dict[int, int]:
    """Which crews heal ``hits``, and how many each, of those that heal any: each crew in the
    order it was raised (by key) takes all it has ``left`` before the next takes any, so the
    work of the day is written against fixed crews whoever asks."""
    share: dict[int, int] = {}
    for key in sorted(left):
        if (taken := min(hits, left[key])) > 0:
            share[key] = taken
            hits -= taken
    return share


@dataclass(frozen=True)
class Treatment:
    """What the medics heal on one unit: Casualty hits saved, Morale hits healed."""

    unit: int
    """The unit's key (whatever the caller uses)."""
    hits: int
    """Casualty hits saved."""
    morale_hits: int = 0
    """Morale hits healed."""

    @property
    def total(self) -> int:
        """Hits healed in all: what the treatment takes of the crews' capacity."""
        return self.hits + self.morale_hits


def hits_to_survive(state: CampaignUnitState) -> int:
    """The fewest of its Casualty hits the medics must save for the unit to outlive their 24
    hours (`casualties_die`): 0 when the dead would not destroy it (or nothing is left to)."""
    return next(
        (
            hits
            for hits in range(state.casualty_hits + 1)
            if not casualties_die(medical_treat(state, hits))[0].destroyed
        ),
        0,
    )


def medical_plan(
    wounded: Mapping[int, CampaignUnitState],
    capacity: int,
    shaken: Mapping[int, CampaignUnitState] | None = None,
) -> list[Treatment]:
    """The medics' default triage: Casualty hits first, Morale hits with what is left.

    Casualty hits die when their 24 hours are over, Morale hits only wait for rest, so the
    crews save Casualty hits (of `wounded`, the units whose window is open) before they heal any
    Morale hit (of `shaken`), and never a unit's last Morale hit while it is still in the combat
    zone (only R&R heals that one). First of all they keep whole units: a unit whose dead would
    destroy it utterly has saved the fewest hits that keep it on the ladder (`hits_to_survive`),
    those needing fewest first, so the most units live — a whole unit is worth more than a step
    of another. Then, within each kind, the best units first, then the roster order: quality is
    what a Casualty hit destroys for good and what a Morale hit takes off the unit's fighting,
    and it is slowest to earn back at the top of the ladder.
    """
    saved: dict[int, int] = {}
    healed: dict[int, int] = {}
    needs = {key: hits_to_survive(state) for key, state in wounded.items()}
    for key in sorted(
        (key for key, hits in needs.items() if hits),
        key=lambda key: (needs[key], -int(wounded[key].quality), key),
    ):
        if needs[key] <= capacity:
            saved[key] = needs[key]
            capacity -= needs[key]
    for units, count, treated in (
        (wounded, lambda state: state.casualty_hits, saved),
        (shaken or {}, morale_hits_healable, healed),
    ):
        for key in sorted(units, key=lambda key: (-int(units[key].quality), key)):
            hits = min(capacity, count(units[key]) - treated.get(key, 0))
            if hits > 0:
                treated[key] = treated.get(key, 0) + hits
                capacity -= hits
    return [
        Treatment(key, saved.get(key, 0), healed.get(key, 0))
        for key in dict.fromkeys([*saved, *healed])
    ]


def medical_treat(state: CampaignUnitState, hits: int, morale_hits: int = 0) -> CampaignUnitState:
    """Save `hits` of the unit's Casualty hits and heal `morale_hits` of its Morale hits (never
    the last while it is still in the combat zone)."""
    if not 0 <= hits <= state.casualty_hits:
        raise ValueError(f"cannot save {hits} of {state.casualty_hits} Casualty hits")
    if not 0 <= morale_hits <= morale_hits_healable(state):
        raise ValueError(
            f"cannot heal {morale_hits} Morale hits: {morale_hits_healable(state)} may heal now"
        )
    return state.but(
        casualty_hits=state.casualty_hits - hits, morale_hits=state.morale_hits - morale_hits
    )
