"""Writes for the time between battles: the calendar (R&R, the dead) and the medics."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from campaign.models import Campaign, Force, HistoryEntry, Unit
from campaign.rules.history import hits_text, plural
from campaign.rules.recovery import (
    Treatment,
    casualties_die,
    medical_capacity,
    medical_plan,
    medical_treat,
    medical_window_open,
    rest_day,
)
from campaign.rules.state import Status
from campaign.selectors import force_can_edit
from campaign.services._record import require_manager, unit_change
from campaign.services.notices import notices_after_commit
from campaign.services.outcomes import battle_fate_text

Kind = HistoryEntry.Kind
MAX_DAYS = 365


@transaction.atomic
def calendar_advance(
    *, campaign: Campaign, days: int = 1, reason: str = "", actor: Any = None
) -> list[HistoryEntry]:
    """Move the calendar on, a day at a time, with what each day does to every unit.

    Leaving a day closes the medical window of the battles fought on it: their unsaved
    Casualty hits die. Then the day is a day of R&R: one Morale hit heals (a unit still in the
    combat zone keeps its last), and a unit that retreated in poor order rallies.
    """
    require_manager(campaign, actor)
    if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= MAX_DAYS:
        raise ValidationError({"days": f"must be 1..{MAX_DAYS}, got {days!r}"})
    campaign = Campaign.objects.select_for_update(of=("self",)).get(pk=campaign.pk)
    units = list(
        Unit.objects.select_for_update(of=("self",))
        .filter(force__campaign=campaign)
        .exclude(status=Status.DESTROYED)
        .select_related("leader")
        .order_by("pk")
    )
    suffix = f" ({reason.strip()})" if reason.strip() else ""
    entries: list[HistoryEntry] = []
    for _ in range(days):
        leaving = campaign.day
        campaign.day += 1
        for unit in units:
            state = unit.state
            if state.destroyed:
                continue
            if state.casualty_hits and not medical_window_open(state, campaign.day):
                state, dead = casualties_die(state)
                why = f"{plural(dead, 'Casualty hit')} not saved within 24 hours died{suffix}"
                if cause := _window_story(unit, leaving):
                    why = f"{cause}; {why}"
                entry = unit_change(
                    unit=unit, state=state, kind=Kind.CASUALTIES, why=why, day=leaving, actor=actor
                )
                if entry is not None:
                    entries.append(entry)
            why = f"a day of R&R{suffix}"
            entry = unit_change(
                unit=unit,
                state=rest_day(state),
                kind=Kind.RECOVERY,
                why=why,
                day=campaign.day,
                actor=actor,
            )
            if entry is not None:
                entries.append(entry)
    campaign.save(update_fields=["day"])
    notices_after_commit(campaign)
    return entries


def _window_story(unit: Unit, day: int) -> str:
    """What the closing window settles, for the history: "taken out at Second Crossing; 4
    Morale, 3 Casualty; medics saved 2"."""
    battles = list(HistoryEntry.objects.filter(unit=unit, day=day, kind=Kind.BATTLE).order_by("pk"))
    if not battles:
        return ""
    parts = []
    for entry in battles:
        damage, outcome = entry.details.get("damage", {}), entry.details.get("outcome", {})
        reason = entry.details.get("reason", "the battle")
        fate = battle_fate_text(reason, outcome.get("removed", "none"))
        parts.append(
            f"{fate}; {hits_text(damage.get('morale_hits', 0), damage.get('casualty_hits', 0))}"
        )
    saved = sum(
        entry.details.get("saved", 0)
        for entry in HistoryEntry.objects.filter(unit=unit, day=day, kind=Kind.MEDICAL)
    )
    return "; ".join(parts) + f"; medics saved {saved}"


@transaction.atomic
def medical_apply(
    *,
    force: Force,
    allocation: Mapping[int, int] | None = None,
    reason: str = "",
    actor: Any = None,
) -> list[HistoryEntry]:
    """The force's Medical crews save Casualty hits of units whose battle was today.

    Their capacity (docs/campaign.md, "Medical capacity") is for the whole day: what they saved
    earlier today counts against it. `allocation` maps unit pks to hits to save; without it the
    crews save the highest quality first.
    """
    if actor is not None and not force_can_edit(force=force, user=actor):
        raise PermissionDenied(f"only {force.owner} or the GM may direct the medics of {force}")
    # The day as stored, not as the caller's copy of the campaign last saw it.
    day = Campaign.objects.values_list("day", flat=True).get(pk=force.campaign_id)
    units = list(
        Unit.objects.select_for_update(of=("self",))
        .filter(force=force)
        .select_related("leader")
        .order_by("pk")
    )
    capacity = sum(medical_capacity(unit.state) for unit in units)
    used = sum(
        entry.details.get("saved", 0)
        for entry in HistoryEntry.objects.filter(kind=Kind.MEDICAL, unit__force=force, day=day)
    )
    left = capacity - used
    wounded = {unit.pk: unit.state for unit in units if medical_window_open(unit.state, day)}
    errors: dict[str, list[str]] = {}
    if capacity == 0:
        errors["force"] = [f"{force} has no ready Medical crew"]
    if allocation is None:
        plan = medical_plan(wounded, max(0, left))
    else:
        plan = []
        for pk, hits in allocation.items():
            field = f"allocation.{pk}"
            if pk not in wounded:
                errors[field] = ["no Casualty hits awaiting the medics today"]
            elif isinstance(hits, bool) or not isinstance(hits, int) or hits < 1:
                errors[field] = [f"must be a whole number of hits, 1 or more, got {hits!r}"]
            elif hits > wounded[pk].casualty_hits:
                errors[field] = [f"only {wounded[pk].casualty_hits} Casualty hits to save"]
            else:
                plan.append(Treatment(pk, hits))
        if not errors and sum(t.hits for t in plan) > left:
            errors["allocation"] = [f"the crews can save {max(0, left)} more hits today"]
    if errors:
        raise ValidationError(errors)

    by_pk = {unit.pk: unit for unit in units}
    entries: list[HistoryEntry] = []
    for treatment in plan:
        unit = by_pk[treatment.unit]
        why = f"Medical crews saved {plural(treatment.hits, 'Casualty hit')}"
        entry = unit_change(
            unit=unit,
            state=medical_treat(unit.state, treatment.hits),
            kind=Kind.MEDICAL,
            why=f"{why} ({reason.strip()})" if reason.strip() else why,
            day=day,
            details={"saved": treatment.hits, "capacity": capacity},
            actor=actor,
        )
        assert entry is not None
        entries.append(entry)
    return entries
