"""Writes for the time between battles: the calendar (R&R, the dead) and the medics."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from campaign.models import Campaign, Force, HistoryEntry, Order, StoryEntry, Unit
from campaign.pages.medics import crews_idle_text
from campaign.rules.damage import battle_fate_text
from campaign.rules.history import (
    MEDICS_SAVED,
    UNHURT,
    fight_named,
    taken_text,
    told_why,
    took_text,
)
from campaign.rules.orders import HOURS_PER_DAY, clock_hour, clock_text, clock_time
from campaign.rules.recovery import (
    CASUALTIES,
    MEDICAL_WINDOW_HOURS,
    Passing,
    Treatment,
    casualties_die,
    crews_share,
    medical_capacity,
    medical_plan,
    medical_treat,
    medical_window_closes,
    medical_window_open,
    morale_hits_healable,
    time_passes,
)
from campaign.rules.state import CampaignUnitState, Status
from campaign.rules.window import fought_at, withdrawn_text
from campaign.selectors.access import force_can_edit
from campaign.selectors.entries import history_standing
from campaign.selectors.reviews import orders_ahead
from campaign.selectors.roster import campaign_now, medics_worked
from campaign.services._record import (
    UnitChanges,
    require_manager,
    review_changed,
    review_token,
    story_told,
    text_given,
    unit_change,
)
from campaign.services.notices import notices_after_commit
from campaign.services.roster import AWAIT_UNTIL
from campaign.templatetags.sentences import full_stop
from units.words import plural, value_shown

Kind = HistoryEntry.Kind
MAX_DAYS = 365


@transaction.atomic
def calendar_advance(
    *,
    campaign: Campaign,
    days: int = 1,
    reason: str = "",
    actor: Any = None,
    reviewed_at: int | None = None,
    reviewed: str | None = None,
) -> list[HistoryEntry]:
    """Move the calendar on by whole days (the clock keeps its hour), with what the time does
    to every unit (`time_pass`), and a line in the campaign's story on the day it arrives at
    (`time_told`). Confirmed from a review, ``reviewed_at`` is the clock hour the review was
    drawn at: refused when the clock has moved since (`clock_reviewed`); ``reviewed`` is what
    it showed (`time_reviewed`, with the Orders the days see done): refused, by name, when a
    unit changed since, or an Order given or called off since changes which are done."""
    require_manager(campaign, actor)
    errors: dict[str, list[str]] = {}
    if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= MAX_DAYS:
        errors["days"] = [
            f"The calendar moves on 1 to {MAX_DAYS} days at a time, not {value_shown(days)}."
        ]
    text_given(errors, "reason", reason)
    campaign = Campaign.objects.select_for_update(of=("self",)).get(pk=campaign.pk)
    clock_reviewed(errors, campaign, reviewed_at)
    if errors:
        raise ValidationError(errors)
    entries = time_pass(
        campaign=campaign, hours=days * HOURS_PER_DAY, reason=reason, actor=actor,
        reviewed=reviewed,
    )  # fmt: skip
    # ``campaign`` is the row as locked before the time passed; the clock keeps its hour.
    moved = f"The calendar moved on {plural(days, 'day')} to day {campaign.day + days}"
    time_told(campaign, moved, reason, actor)
    return entries


def time_told(campaign: Campaign, moved: str, reason: str, actor: Any) -> StoryEntry:
    """The campaign's story says the time moved (``moved``: "The calendar moved on 2 days to
    day 4"), with the GM's reason after a colon, on the day it arrived at: the units' histories
    tell what the time did to each, the story that it passed, and why."""
    said = reason.strip()
    text = full_stop(f"{moved}: {said}" if said else moved)
    return story_told(campaign, StoryEntry.Kind.CALENDAR, text, actor)


def clock_reviewed(errors: dict[str, list[str]], campaign: Campaign, reviewed_at: Any) -> None:
    """A move of the clock confirmed from its review goes from where the review saw the clock,
    or not at all: a second tab, or a second click, confirming the same review finds the clock
    moved on already and is refused under ``reviewed_at`` in ``errors`` (the time would pass
    twice: Casualty hits dying again, another day of R&R). ``campaign`` is the row as locked;
    None (a trusted caller, no review) checks nothing."""
    if reviewed_at is None:
        return
    now = campaign_now(campaign)
    if isinstance(reviewed_at, bool) or not isinstance(reviewed_at, int):
        errors["reviewed_at"] = [f"must be a clock hour, got {value_shown(reviewed_at)}"]
    elif reviewed_at != now:
        errors["reviewed_at"] = [
            f"The clock has moved since you reviewed this (it is now {clock_text(now)}): "
            "review again."
        ]


def time_reviewed(
    passings: Iterable[tuple[Unit, CampaignUnitState, Passing]], ahead: Iterable[Order]
) -> str:
    """What a review of the clock moving on (its ``passings``, `reviews.advance_passings`)
    showed, in short (`review_token`): each unit the hours change as it stood (the ``before``
    of its first passing), the Orders it said would be done by then (``ahead``,
    `reviews.orders_ahead`: the clock's review and the calendar's alike tell them), then
    everything the hours do to each unit. Its confirmation sends it back (`time_pass`), so a
    unit healed by the medics, corrected, fought or given an Order since is refused by name,
    and so is an Order given or called off since that the hours would see done, or no longer
    see done: the time passes as reviewed, or not at all."""
    stood: dict[int, tuple[Unit, CampaignUnitState]] = {}
    shown: dict[int, list[Any]] = {}
    for unit, before, passing in passings:
        stood.setdefault(unit.pk, (unit, before))
        shown.setdefault(unit.pk, []).append([passing.at, passing.kind, passing.state.to_json()])
    # By the unit, so the review and the confirmation agree whatever order they read them in.
    return review_token([stood[pk] for pk in sorted(stood)], sorted(shown.items()), ahead)


@transaction.atomic
def time_pass(
    *,
    campaign: Campaign,
    hours: int,
    reason: str = "",
    actor: Any = None,
    reviewed: str | None = None,
) -> list[HistoryEntry]:
    """Move the campaign clock on by `hours` (checked by the caller, inside its transaction),
    with what the time does to every unit, in order (`recovery.time_passes`). Confirmed from a
    review, ``reviewed`` is what it showed (`time_reviewed`, with the Orders done by then):
    refused under ``reviewed``, writing nothing, naming each unit that changed since, and each
    Order done by then that it did not show.

    A medical window closes 24 hours after the battle that dealt its Casualty hits: the hits
    the medics did not save die. Each midnight passed is a day of R&R: one Morale hit heals (a
    unit still in the combat zone keeps its last), and a unit that retreated in poor order
    rallies once it can.
    """
    campaign = Campaign.objects.select_for_update(of=("self",)).get(pk=campaign.pk)
    units = list(
        Unit.objects.select_for_update(of=("self",))
        .filter(force__campaign=campaign)
        .exclude(status=Status.DESTROYED)
        .select_related("leader")
        .order_by("pk")
    )
    start = campaign_now(campaign)
    end = start + hours
    said = reason.strip()
    suffix = f" ({said})" if said else ""
    # Right after "died", the bare reason would read as what killed them.
    died_suffix = f" (the clock moved on: {said})" if said else ""
    passed = [(unit, passing) for unit in units for passing in time_passes(unit.state, start, end)]
    if reviewed is not None:
        # Read under the units' locks, which hold to the end: nothing changes in between.
        # Nothing is written yet: each unit's state is where its first passing starts from.
        # The campaign's lock, taken first, holds off an Order given or called off meanwhile.
        passings = [(unit, unit.state, passing) for unit, passing in passed]
        ahead = orders_ahead(campaign, passings, start, end)
        if problems := review_changed(
            reviewed, time_reviewed(passings, ahead), units, "passing of time",
            "The time would no longer pass as you reviewed it: review it again.", ahead,
        ):  # fmt: skip
            raise ValidationError({"reviewed": problems})
    # Everything in the order it happened: by the hour, then the roster.
    passed.sort(key=lambda item: item[1].at)
    entries: list[HistoryEntry] = []
    # Written together, in a few queries however big the campaign (`UnitChanges`).
    changes = UnitChanges()
    for unit, passing in passed:
        day = clock_time(passing.at)[0]
        if passing.kind == CASUALTIES:
            if changes.pending(unit):
                changes.entries_write()  # the closing window's story reads its history
            why, kind = casualties_died_text(unit, passing.dead, died_suffix), Kind.CASUALTIES
            details = closing_details(unit)
        else:
            why, kind, details = f"a day of R&R{suffix}", Kind.RECOVERY, {}
        entry = changes.change(
            unit=unit, state=passing.state, kind=kind, why=why, day=day, actor=actor,
            hour=passing.at, details=details,
        )  # fmt: skip
        if entry is not None:
            entries.append(entry)
    changes.write()
    campaign.day, campaign.hour = clock_time(end)
    campaign.save(update_fields=["day", "hour"])
    if entries:
        notices_after_commit(campaign)
    return entries


def casualties_died_text(unit: Unit, dead: int, suffix: str = "") -> str:
    """The entry of `unit`'s Casualty hits dying as their 24 hours end (the soonest to end,
    `recovery.medical_window_closes`), for `unit` as it stands before its `dead` die: the
    fights whose hits they were (`_window_story`), the dead (`suffix` right after them), and
    what they cost beyond a step each, or short of it (`window.withdrawn_text`)."""
    why = f"{plural(dead, 'Casualty hit')} not saved within 24 hours died{suffix}"
    if cause := _window_story(unit):
        why = f"{cause}; {why}"
    if withdrawn := withdrawn_text(unit.state, _fought_by(unit.state)):
        why = f"{why}; {withdrawn}"
    return why


TOLD_BY = "told_by"
"""The details key of a closing that leaves later fights' Casualty hits awaiting the medics:
the clock hour by which the fights its story told were fought (`_window_told`), so the next
closing tells only those after them."""


def closing_details(unit: Unit) -> dict[str, Any]:
    """The details of the entry of `unit`'s soonest Casualty hits dying (`casualties_died_text`):
    when later fights' hits still await the medics, the hour by which the fights its story
    tells were fought (`TOLD_BY`); else nothing."""
    state = unit.state
    fought_by = _fought_by(state)
    if (
        fought_by is None
        or not casualties_die(state, medical_window_closes(state))[0].casualty_hits
    ):
        return {}
    return {TOLD_BY: fought_by}


def _fought_by(state: CampaignUnitState) -> int | None:
    """The clock hour by which the fights whose Casualty hits die soonest were fought."""
    closes = medical_window_closes(state)
    return None if closes is None else closes - MEDICAL_WINDOW_HOURS


FIGHTS = HistoryEntry.FIGHTS


def _window_story(unit: Unit) -> str:
    """What the closing of the soonest 24 hours of `unit`'s Casualty hits settles, for the
    history: "taken out at Second Crossing; 4 Morale hits and 3 Casualty hits; medics saved 2"
    (what dealt its Casualty hits and what came between, since they began to await the medics:
    each fight, battles, engagements and quick resolves alike, with the hits it dealt, and each GM's
    correction that added some, by its reason; then what the medics saved of them). Told up to
    the last fight or correction whose hits die now (`_window_told`)."""
    told, saved = _window_told(unit)
    if not told:
        return ""
    stories = [
        _fight_story(entry) if entry.kind in FIGHTS else _correction_story(entry) for entry in told
    ]
    return "; ".join(stories) + f"{MEDICS_SAVED}{saved}"


def _window_told(unit: Unit) -> tuple[list[HistoryEntry], int]:
    """(told, saved): the fights and corrections the closing of the soonest 24 hours of
    `unit`'s Casualty hits tells, in order, and the Casualty hits the medics saved since the
    window's last closing. The window opened with its first Casualty hits: fights before that
    are no part of it. Entries reverted since, and the reverts, are left out: a reverted fight
    was not fought, a reverted save never made. So is a battle entered after its own 24 hours:
    its Casualty hits died as it was entered (the entry that says so follows its own), not in
    this window. While later fights' hits still await the medics, a closing tells the fights
    fought by the hour its dead were dealt (and those between) and the corrections before it
    (their hits join the oldest awaiting, `recovery.window_after_correction`); the next tells
    the rest, as far as its own dead (`TOLD_BY`)."""
    since: list[HistoryEntry] = []
    for entry in history_standing().filter(unit=unit).order_by("-pk"):
        hits = entry.after.get("casualty_hits")
        if hits == 0 or entry.kind == Kind.CREATED:
            break  # the unit had no Casualty hits awaiting the medics before this
        since.insert(0, entry)
        if hits and not entry.before.get("casualty_hits"):
            break  # its first Casualty hits: the window opened here
    hours = fought_at(unit.state)
    fights = 0
    items: list[tuple[HistoryEntry, int | None]] = []  # with a fight's hour (None: a correction)
    saved = 0

    def untold(fought_by: int) -> list[tuple[HistoryEntry, int | None]]:
        return [(entry, hour) for entry, hour in items if hour is not None and hour > fought_by]

    for entry in since:
        if entry.kind in FIGHTS:
            # Its place among the window's fights gives its hour; a fight the window did not
            # keep (one kept before fights were) is told with the first closing.
            items.append((entry, hours[fights] if fights < len(hours) else -1))
            fights += 1
        elif entry.kind == Kind.CASUALTIES and TOLD_BY in entry.details:
            items, saved = untold(entry.details[TOLD_BY]), 0  # an earlier closing told them
        elif entry.kind == Kind.CASUALTIES and items:
            items.pop()  # found too late: that battle's hits are not this window's
        elif entry.kind == Kind.GM_EDIT and _added(entry, "casualty_hits"):
            items.append((entry, None))
        elif entry.kind == Kind.MEDICAL:
            saved += entry.details.get("saved", 0)
    if closing_details(unit):
        kept = untold(_fought_by(unit.state) or 0)
        items = [item for item in items if item not in kept]
    return [entry for entry, _ in items], saved


def _added(entry: HistoryEntry, field: str) -> int:
    """How many hits of ``field`` the entry added (0 when it took some away)."""
    return max(0, entry.after.get(field, 0) - entry.before.get(field, 0))


def _correction_story(entry: HistoryEntry) -> str:
    """A GM's correction that added Casualty hits to a closing window, by its reason, with the
    hits it added: "GM correction: shelled at the ford; 2 Casualty hits" (`history.taken_text`)."""
    why = told_why(entry.text, entry.before, entry.after).split(AWAIT_UNTIL)[0]
    return f"{why}; {taken_text(_added(entry, 'morale_hits'), _added(entry, 'casualty_hits'))}"


def _fight_story(entry: HistoryEntry) -> str:
    """One fight of a closing window, in the campaign's words: "taken out at Second Crossing; 4
    Morale hits and 3 Casualty hits". A battle is named by its reason, an engagement or a
    quick resolve by the name its own entry opens with ("Mill ford: took 1 Morale hit and 2
    Casualty hits; …"), which travels with the entry wherever its record stays behind. One that
    did nothing to the unit (its ``unhurt``, kept as data) is said as its entry says it
    (`history.took_text`): "Night raid: came through unhurt"."""
    damage = entry.details.get("damage", {})
    battle = entry.kind == Kind.BATTLE
    # Named as its entry keeps it (`history.fight_named`). A battle's entry that kept no reason
    # is "the battle": its sentence opens with how the unit left it ("Taken out at …"), so no
    # name is read from it.
    name = fight_named(entry.kind, entry.details, "the battle" if battle else entry.text)
    if battle:
        removed = entry.details.get("outcome", {}).get("removed", "none")
    else:
        removed = damage.get("removed", "none")
    unhurt = entry.details.get("unhurt")
    if unhurt is None:  # an entry saved before it kept that as data: read by its sentence
        why = told_why(entry.text, entry.before, entry.after)
        if why.endswith(UNHURT):
            return why
    elif unhurt:
        return took_text(name, 0, 0, unhurt=True)
    hits = taken_text(damage.get("morale_hits", 0), damage.get("casualty_hits", 0))
    return f"{battle_fate_text(name, removed)}; {hits}"


@transaction.atomic
def medical_apply(
    *,
    force: Force,
    allocation: Mapping[int, int] | None = None,
    morale: Mapping[int, int] | None = None,
    reason: str = "",
    actor: Any = None,
) -> list[HistoryEntry]:
    """The force's Medical crews save Casualty hits whose 24 hours are not over, and heal Morale
    hits with what capacity is left.

    Their capacity (docs/campaign.md, "Medical capacity") is for the whole day, Casualty and
    Morale hits alike: what they healed earlier today counts against it, in this force or
    another (each entry names the crews who did its work, `recovery.crews_share`).
    `allocation` maps unit pks to Casualty hits to save, `morale` to Morale hits to heal (never
    a unit's last while it is still in the combat zone); with neither, the crews' triage
    (`recovery.medical_plan`): whole units first, then Casualty hits, then Morale hits, the
    highest quality first.
    """
    if actor is not None and not force_can_edit(force=force, user=actor):
        raise PermissionDenied(f"only {force.owner} or the GM may direct the medics of {force}")
    # The clock as stored, not as the caller's copy of the campaign last saw it.
    day, hour = Campaign.objects.values_list("day", "hour").get(pk=force.campaign_id)
    now = clock_hour(day, hour)
    units = list(
        Unit.objects.select_for_update(of=("self",))
        .filter(force=force)
        .select_related("leader")
        .order_by("pk")
    )
    capacity = sum(medical_capacity(unit.state) for unit in units)
    crews = medics_worked([force.pk], day).left(force.pk, units)
    left = sum(crews.values())
    wounded = {unit.pk: unit.state for unit in units if medical_window_open(unit.state, now)}
    shaken = {unit.pk: unit.state for unit in units if morale_hits_healable(unit.state)}
    by_pk = {unit.pk: unit for unit in units}
    errors: dict[str, list[str]] = {}
    reason = text_given(errors, "reason", reason)
    if capacity == 0:
        # Its crews that cannot work, and why, else that it has none.
        errors["force"] = [crews_idle_text(units, now) or f"{force} has no ready Medical crew"]
    if allocation is None and morale is None:
        plan = medical_plan(wounded, left, shaken)
    else:
        saved = _chosen(
            errors, "allocation", allocation, wounded, _casualty_room,
            lambda pk: _not_awaiting(by_pk.get(pk)),
        )  # fmt: skip
        healed = _chosen(
            errors, "morale", morale, shaken, _morale_room,
            lambda pk: _no_morale_to_heal(by_pk.get(pk)),
        )  # fmt: skip
        plan = [
            Treatment(pk, saved.get(pk, 0), healed.get(pk, 0))
            for pk in dict.fromkeys([*saved, *healed])
        ]
        if not errors and not plan:
            errors["allocation"] = ["choose at least one hit to heal"]
        chosen = sum(t.total for t in plan)
        if not errors and chosen > left:
            # Says how far over the choice is, so the GM knows what to take off.
            errors["allocation"] = [
                f"the crews can heal {plural(left, 'more hit')} today, and {chosen} are chosen: "
                f"choose {chosen - left} fewer"
                if left > 0
                else "the crews can heal 0 more hits today: their day's work is done, "
                "and they heal again tomorrow"
            ]
    if errors:
        raise ValidationError(errors)

    entries: list[HistoryEntry] = []
    for treatment in plan:
        unit = by_pk[treatment.unit]
        # The crews who did the work, by pk: their day's capacity goes with them (`crews_left`).
        share = crews_share(crews, treatment.total)
        for pk, hits in share.items():
            crews[pk] -= hits
        why = f"Medical crews saved {medics_text(treatment.hits, treatment.morale_hits)}"
        entry = unit_change(
            unit=unit,
            state=medical_treat(unit.state, treatment.hits, treatment.morale_hits),
            kind=Kind.MEDICAL,
            why=f"{why} ({reason})" if reason else why,
            day=day,
            details={
                "saved": treatment.hits,
                "morale_saved": treatment.morale_hits,
                "capacity": capacity,
                "crews": {str(pk): hits for pk, hits in share.items()},
            },
            actor=actor,
        )
        assert entry is not None
        entries.append(entry)
    return entries


def medics_text(casualty: int, morale: int) -> str:
    """What the medics healed, in the campaign's words: "2 Casualty hits and 1 Morale hit"."""
    parts = [plural(casualty, "Casualty hit")] if casualty else []
    if morale:
        parts.append(plural(morale, "Morale hit"))
    return " and ".join(parts) or "nothing"


def _casualty_room(state: Any) -> tuple[int, str]:
    return state.casualty_hits, f"only {plural(state.casualty_hits, 'Casualty hit')} to save"


def _morale_room(state: Any) -> tuple[int, str]:
    room = morale_hits_healable(state)
    why = f"only {plural(room, 'Morale hit')} the medics may heal"
    if state.in_combat_zone:
        why += " (its last heals only by R&R out of the combat zone)"
    return room, why


NOT_AWAITING = "no Casualty hits awaiting the medics (within 24 hours)"
NO_MORALE_TO_HEAL = "no Morale hits the medics may heal"


def _not_awaiting(unit: Unit | None) -> str:
    """Why the medics may not save Casualty hits of `unit` (one of the force's, or None), in
    words: a form drawn before the clock moved on still offers the hits that died since."""
    if unit is None:
        return NOT_AWAITING
    last = history_standing().filter(unit=unit).order_by("-pk").first()
    if last is not None and last.kind == Kind.CASUALTIES:
        why = f"the Casualty hits of {unit.name} died when their 24 hours ran out"
    else:
        why = f"{unit.name} has {NOT_AWAITING}"
    return _gone(unit, why)


def _no_morale_to_heal(unit: Unit | None) -> str:
    if unit is None:
        return NO_MORALE_TO_HEAL
    return _gone(unit, f"{unit.name} has {NO_MORALE_TO_HEAL}")


def _gone(unit: Unit, why: str) -> str:
    if unit.status == Status.DESTROYED:
        return f"{why}; {unit.name} is destroyed"
    return why


def _chosen(
    errors: dict[str, list[str]],
    name: str,
    chosen: Any,
    units: Mapping[int, Any],
    room: Any,
    nothing: Any,
) -> dict[int, int]:
    """The hits chosen unit by unit (``allocation`` or ``morale``), checked: every problem goes
    into `errors` under ``name.<pk>``; ``nothing(pk)`` says why a unit not among `units` has
    no such hits."""
    if chosen is None:
        return {}
    if not isinstance(chosen, Mapping):
        errors[name] = ["must map units to hits"]
        return {}
    checked: dict[int, int] = {}
    for pk, hits in chosen.items():
        field = f"{name}.{pk}"
        if pk not in units:
            errors[field] = [nothing(pk)]
        elif isinstance(hits, bool) or not isinstance(hits, int) or hits < 1:
            errors[field] = [f"must be a whole number of hits, 1 or more, got {value_shown(hits)}"]
        elif hits > room(units[pk])[0]:
            errors[field] = [room(units[pk])[1]]
        else:
            checked[pk] = hits
    return checked
