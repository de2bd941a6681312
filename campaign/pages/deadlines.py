"""When the medics' hours end, unsaved hits die and a retreated unit rallies, in words."""

from __future__ import annotations

from campaign.rules.orders import clock_text
from campaign.rules.recovery import (
    awaiting_until,
    casualties_die,
    hits_to_survive,
    medical_window_open,
)
from campaign.rules.state import CampaignUnitState
from units.bucs import Quality
from units.words import and_words, plural


def hours_hence(at: int, now: int) -> str:
    """How far clock hour ``at`` lies ahead of ``now``, in words: "24 hours from now". A page
    that gives a deadline gives this beside it, so a player need not work it out from a clock
    the page may not show (a roster gives the day alone)."""
    return f"{plural(at - now, 'hour')} from now"


def medics_deadline(closes: int, now: int, hits: int) -> str:
    """How long the medics have, at clock hour ``now``, for ``hits`` Casualty hits whose window
    closes at ``closes`` (`medical_window_closes`): the window is open through that hour, so
    at it the medics still may, for that hour only ("unsaved, it dies" of one hit)."""
    if closes > now:
        return f"the medics have {until_when(closes, now)}"
    dies = "it dies" if hits == 1 else "they die"
    return f"the medics' last hour: unsaved, {dies} when the clock moves on"


def until_when(closes: int, now: int) -> str:
    """ "until day 3, 00:00 (14 hours from now)": the last hour the medics may save Casualty
    hits whose window closes at ``closes``, a later hour than ``now``."""
    return f"until {clock_text(closes)} ({hours_hence(closes, now)})"


def dies_when(closes: int, now: int) -> str:
    """When Casualty hits the medics leave unsaved die, at clock hour ``now``, their window
    closing at ``closes`` (`medical_window_closes`): "after day 3, 14:00 (24 hours from now)",
    or, in the medics' last hour, "when the clock moves on"."""
    if closes > now:
        return f"after {clock_text(closes)} ({hours_hence(closes, now)})"
    return "when the clock moves on"


def dying_when(state: CampaignUnitState, now: int) -> str:
    """When the unit's Casualty hits the medics leave unsaved die, at clock hour ``now``, each
    battle's as its own 24 hours end (`recovery.awaiting_until`), with the verb: "dies after
    day 3, 14:00", "die when the clock moves on", "1 dies after day 2, 00:00 and 1 after day
    2, 20:00" ("" when none await)."""
    until = awaiting_until(state)
    if len(until) == 1:
        return f"{'dies' if until[0][1] == 1 else 'die'} {dies_when(until[0][0], now)}"
    pieces = [f"{hits:,} {dies_when(closes, now)}" for closes, hits in until]
    if pieces:
        count, _, when = pieces[0].partition(" ")
        pieces[0] = f"{count} {'dies' if count == '1' else 'die'} {when}"
    return and_words(pieces)


def rally_when(state: CampaignUnitState, now: int, days: int | None) -> str:
    """When a unit retreated in poor order rallies, in words, by the rule the calendar follows:
    ``days`` is `recovery.days_to_rally` of ``state`` at ``now``."""
    if days == 1:
        return "rallies after the next day of R&R"
    if days is not None:
        return f"its hits keep it below {Quality.RAW.label}; it rallies after {days} days of R&R"
    if medical_window_open(state, now) and casualties_die(state)[0].destroyed:
        # How many must be saved, as the roster's zone note says it (`recovery.zone_problem`):
        # "its Casualty hits" read as all of them where fewer will do.
        need, hits = hits_to_survive(state), state.casualty_hits
        saved = (
            f"at least {need} of its {hits} Casualty hits"
            if need < hits
            else f"its {plural(hits, 'Casualty hit')}"
        )
        return f"unless the medics save {saved}, it is destroyed when their 24 hours are over"
    return "R&R alone will not rally it"
