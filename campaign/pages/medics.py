"""A force's medics: what they can still do today, for whom, and why a crew cannot work."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from campaign.models import Force, Unit
from campaign.pages.deadlines import dying_when, rally_when
from campaign.pages.roster import RosterLine
from campaign.pages.time_lines import kept_last_morale_text
from campaign.rules.recovery import (
    awaiting_until,
    casualties_die,
    days_to_rally,
    medical_capacity,
    medical_window_open,
    morale_hits_healable,
)
from campaign.rules.state import Status
from campaign.selectors.roster import medics_worked
from units.bucs import Specialty
from units.words import plural, possessive


def left_unsaved_text(lines: list[RosterLine]) -> str:
    """The Casualty hits still awaiting the medics once they have done their work, unit by
    unit, and when they die: "Left unsaved: 1 Casualty hit of Hurt, which dies after day 2,
    00:00." ("" when they saved every one); those of several battles each by their own 24
    hours: "2 Casualty hits of Hurt, of which 1 dies after day 2, 00:00 and 1 after day 2,
    20:00"."""
    left = []
    for line in lines:
        until = awaiting_until(line.unit.state) if line.needs_medics else []
        if not until:
            continue
        which = "which" if len(until) == 1 else "of which"
        left.append(
            f"{plural(line.unit.casualty_hits, 'Casualty hit')} of {line.unit.name}, {which} "
            f"{dying_when(line.unit.state, line.now)}"
        )
    return f"Left unsaved: {'; '.join(left)}." if left else ""


@dataclass(frozen=True)
class MedicsToday:
    """What a force's Medical crews can still do today, and for whom."""

    capacity: int
    """Hits its ready Medical crews heal in a day, Casualty and Morale."""
    left: int
    wounded: list[Unit]
    """Units whose Casualty hits await the medics (within 24 hours), in roster order."""
    shaken: list[Unit]
    """Units with Morale hits the medics may heal (not a unit's last while it is still in the
    combat zone), in roster order."""
    idle: str = ""
    """Which of its Medical crews cannot work, why and till when (`crews_idle_text`), or ""."""
    kept: tuple[Unit, ...] = ()
    """Units in the combat zone whose one Morale hit is their last, which the medics may not
    heal (`morale_hits_healable`), in roster order."""

    @property
    def no_crew(self) -> str:
        """What a force without a ready Medical crew lacks, and how it gets one ("" when it has
        one): said before any battle too, since after it the 24 hours are short."""
        if self.capacity or self.idle:  # a crew it has but cannot work: `unavailable` says why
            return ""
        return (
            "A Medical crew is a unit holding the Medical specialty; ready, it saves hits each "
            "day, more the better its quality and kit. The GM raises one with Medical ticked, "
            "or gives a unit the specialty (Correct this unit, on its page)."
        )

    @property
    def unavailable(self) -> str:
        """Why the medics cannot be sent in now ("" when they can)."""
        if not self.wounded and not self.shaken:
            nothing = "No unit has Casualty or Morale hits the medics may heal."
            # A player who sees a Morale hit on the roster is told why the medics pass it by,
            # and what heals it.
            return f"{nothing} {kept_last_morale_text(self.kept)}".strip()
        if self.capacity == 0:
            return self.idle or "This force has no ready Medical crew."
        if self.left <= 0:
            return MEDICS_SPENT
        return ""


def medics_today(force: Force, lines: list[RosterLine]) -> MedicsToday:
    """The force's medics today, from its roster lines (one more query: what they saved)."""
    units = [line.unit for line in lines]
    capacity = sum(medical_capacity(unit.state) for unit in units)
    left = sum(medics_worked([force.pk]).left(force.pk, units).values()) if capacity else 0
    wounded = sorted((line.unit for line in lines if line.needs_medics), key=lambda u: u.pk)
    shaken = sorted(
        (line.unit for line in lines if morale_hits_healable(line.unit.state)), key=lambda u: u.pk
    )
    kept = tuple(
        sorted(
            (
                line.unit
                for line in lines
                if line.unit.status != Status.DESTROYED
                and line.unit.morale_hits
                and not morale_hits_healable(line.unit.state)
            ),
            key=lambda u: u.pk,
        )
    )
    # Its crews idle, and why, only when none works: read at the roster's clock hour.
    idle = "" if capacity or not lines else crews_idle_text([ln.unit for ln in lines], lines[0].now)
    return MedicsToday(
        capacity=capacity,
        left=left,
        wounded=wounded,
        shaken=shaken,
        idle=idle,
        kept=kept,
    )


def crew_idle_text(unit: Unit, now: int) -> str:
    """Why a Medical crew saves no hits today, and when it can again, in a clause: "Aid Post is
    retreated in poor order, and works again once it has rallied (rallies after the next day of
    R&R)" (`rally_when`); "" when it can work."""
    state = unit.state
    if Specialty.MEDICAL not in state.specialties or medical_capacity(state):
        return ""
    if state.status == Status.RETREATED:
        days = days_to_rally(state, now)
        when = rally_when(state, now, days)
        said = f"{unit.name} is {state.status.label.lower()}"
        if days is None:
            # Time alone never rallies it: "works again once it has rallied (unless the medics
            # save its Casualty hits, it is destroyed …)" promised a return it will not make.
            said = f"{said}, and R&R alone will not bring it back to work"
            destroyed = medical_window_open(state, now) and casualties_die(state)[0].destroyed
            return f"{said}: {when}" if destroyed else said
        return f"{said}, and works again once it has rallied ({when})"
    if state.status == Status.DESTROYED:
        return f"{unit.name} is destroyed, and works no more"
    return (
        f"{unit.name} saves no hits as {state.effective_quality.label} with "
        f"{state.equipment.label} kit, and works once its quality or kit is better"
    )


def crews_idle_text(units: Iterable[Unit], now: int, whose: str = "Its") -> str:
    """Why a force's Medical crews save no hits today, crew by crew (`crew_idle_text`), in
    sentences, ``whose`` the force's ("Its", or "Red Company's" where the force is not named
    just before); "" when it has none, or one can work."""
    said = [text for unit in units if (text := crew_idle_text(unit, now))]
    if not said:
        return ""
    crews = "Medical crew cannot" if len(said) == 1 else "Medical crews cannot"
    return f"{whose} {crews} work today: {'; '.join(said)}."


def forces_crews_idle(forces: Iterable[Force], now: int) -> dict[int, str]:
    """`crews_idle_text` of each of ``forces`` whose Medical crews cannot work today, by its pk,
    each named (one query, whatever the forces)."""
    by_pk = {force.pk: force for force in forces}
    units: dict[int, list[Unit]] = {}
    for unit in Unit.objects.filter(force_id__in=by_pk).select_related("leader").order_by("pk"):
        units.setdefault(unit.force_id, []).append(unit)
    said = {
        pk: crews_idle_text(units.get(pk, []), now, possessive(force.name))
        for pk, force in by_pk.items()
    }
    return {pk: text for pk, text in said.items() if text}


def medics_left(force_ids: set[int]) -> dict[int, int]:
    """The forces among ``force_ids`` with a ready Medical crew, and the hits their crews may
    still save today (0 once they have saved all they can). Two queries, whatever the forces."""
    if not force_ids:
        return {}
    ready = Unit.objects.filter(force_id__in=force_ids, status=Status.READY)
    crews: dict[int, list[Unit]] = {}
    for unit in ready.select_related("leader"):
        if medical_capacity(unit.state):
            crews.setdefault(unit.force_id, []).append(unit)
    if not crews:
        return {}
    worked = medics_worked(crews)
    return {pk: sum(worked.left(pk, units).values()) for pk, units in crews.items()}


def forces_with_medics(force_ids: set[int]) -> set[int]:
    """The forces among ``force_ids`` whose ready Medical crews may still save hits today: a
    link to send them in leads somewhere they can be sent."""
    return {pk for pk, left in medics_left(force_ids).items() if left}


MEDICS_SPENT = "The Medical crews have saved all they can today."
