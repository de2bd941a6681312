"""Writes for the campaign's rosters: forces, and the units in them raised, corrected, moved
between forces, sent into or out of the combat zone and struck off.

Each service validates its inputs first (a `ValidationError` naming the field), runs in one
transaction, and records every change to a unit as a history entry.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from campaign.models import Campaign, Force, HistoryEntry, StoryEntry, TableRoll, Unit
from campaign.pages.left_out import still_in_battle
from campaign.rules.damage import LEADER_DEATH_MORALE_HITS, leader_died_text
from campaign.rules.experience import experience_refused, with_quality
from campaign.rules.orders import clock_text
from campaign.rules.recovery import (
    medical_window_closes,
    state_problems,
    window_after_correction,
    zone_problem,
)
from campaign.rules.state import (
    LEADER_DEATH_HIT_POINTS,
    UNIT_FIELDS,
    CampaignUnitState,
    LeaderState,
    Status,
)
from campaign.rules.values import MAX_UNITS_PER_FORCE, leader_value, parse_field
from campaign.selectors.access import force_can_edit
from campaign.selectors.roster import campaign_now, engaged_units, leader_most_hit_points
from campaign.services._record import (
    campaign_full,
    locked,
    name_taken,
    require_manager,
    story_told,
    text_given,
    unit_change,
)
from campaign.services.characters import HIT_POINTS_MAX
from campaign.services.notices import notices_after_commit
from units.bucs import Equipment, Quality, Specialty, validate_specialties
from units.models import UnitType
from units.words import number_text, plural, possessive, quoted, value_shown

Kind = HistoryEntry.Kind
Told = StoryEntry.Kind


@transaction.atomic
def force_create(*, campaign: Campaign, owner: Any, name: str, actor: Any = None) -> Force:
    """A force for a player (or the GM, or a co-GM) of the campaign."""
    require_manager(campaign, actor)
    campaign = locked(campaign)  # one count of its forces at a time
    if full := campaign_full(campaign, "force"):
        raise ValidationError(full)
    force = Force(campaign=campaign, owner=owner, name=name)
    force_check(force)
    force.save()
    story_told(campaign, Told.FORCE, f"{force} was raised for {owner}.", actor)
    return force


@transaction.atomic
def force_edit(*, force: Force, name: str, owner: Any, actor: Any = None) -> Force:
    """Rename the force, or give it to another player (or the GM, or a co-GM): a player who
    leaves the group hands their force on. Its units, their history and Orders stay as they
    are; from now on its new player directs its medics and reads it as theirs."""
    force = locked(force, "campaign", "owner")
    require_manager(force.campaign, actor)
    was, had = force.name, force.owner
    force.name, force.owner = name, owner
    force_check(force)
    force.save()
    given, renamed = force.owner_id != had.pk, force.name != was
    went = f"{was} went from {had} to {force.owner}"
    if given and renamed:
        story_told(force.campaign, Told.FORCE, f"{went}, renamed {force.name}.", actor)
    elif given:
        story_told(force.campaign, Told.FORCE, f"{went}.", actor)
    elif renamed:
        story_told(force.campaign, Told.FORCE, f"{was} was renamed {force.name}.", actor)
    return force


def force_check(force: Force) -> None:
    """A force as it is about to be saved: its name free in the campaign (said in the
    campaign's words; the database still refuses a second force of the same name should two be
    saved at once), its player one who plays, every field as the model wants it."""
    errors: dict[str, list[str]] = {}
    others = force.campaign.forces.exclude(pk=force.pk)
    if force.name and others.filter(name=force.name).exists():
        errors["name"] = [name_taken(str(force.campaign), "a force", force.name)]
    try:
        force.full_clean(validate_constraints=False)
    except ValidationError as error:
        errors = {**error.message_dict, **errors}
    if errors:
        raise ValidationError(errors)


STRUCK_OFF_KINDS = (HistoryEntry.Kind.CREATED, HistoryEntry.Kind.GM_EDIT)
"""A unit whose history holds nothing but these was raised and, at most, corrected: it has
done nothing in the story, and may be struck off the roster as raised by mistake."""


def unit_remove_refusal(unit: Unit) -> str:
    """Why the unit stays on the books, in a sentence ("" when it may be struck off): one that
    has done anything in the story (fought, been in a battle, an engagement or a check, been
    healed, trained, led or given an Order) stays, and is marked destroyed instead."""
    campaign = unit.force.campaign
    # A unit won by a Requisition check is that check's result, and the record names it.
    won = campaign.table_rolls.filter(kind=TableRoll.Kind.REQUISITION, result__unit=unit.pk)
    # Asked one at a time: most units have fought, and the first question settles it.
    if (
        unit.history.exclude(kind__in=STRUCK_OFF_KINDS).exists()
        or unit.orders.exists()
        or won.exists()
        or unit.pk in engaged_units(campaign=campaign)
    ):
        return (
            f"{unit.name} has a part in the story already: it stays on the books (a correction "
            "can mark it destroyed)."
        )
    return ""


@transaction.atomic
def unit_remove(*, unit: Unit, actor: Any = None) -> str:
    """Strike off the roster a unit raised by mistake (a wrong card, a name typed twice), with
    its history of being raised: only while it has done nothing in the story
    (`unit_remove_refusal`). Its name, for the page that says so."""
    unit = locked(unit, "force__campaign")
    require_manager(unit.force.campaign, actor)
    if refusal := unit_remove_refusal(unit):
        raise ValidationError(refusal)
    unit.delete()
    return unit.name


def _unit_type_errors(campaign: Campaign, unit_type: UnitType) -> list[str]:
    if unit_type.kind != UnitType.Kind.UNIT:
        return [f"{unit_type} is a {unit_type.get_kind_display().lower()} card, not a unit"]
    if unit_type.ruleset != campaign.ruleset:
        return [
            f"{unit_type} is a {unit_type.get_ruleset_display()} card; this campaign plays "
            f"{campaign.get_ruleset_display()}"
        ]
    return []


def unit_create_check(
    *,
    force: Force,
    unit_type: UnitType,
    name: str,
    quality: Quality | int | str = Quality.AVERAGE,
    equipment: Equipment | str = Equipment.ADEQUATE,
    specialties: Iterable[Specialty | str] = (),
    leader: LeaderState | Mapping[str, Any] | None = None,
) -> CampaignUnitState:
    """The new unit's state, or a `ValidationError` naming every bad field."""
    errors: dict[str, list[str]] = {}
    values: dict[str, Any] = {}
    for field, value in (
        ("name", name),
        ("quality", quality),
        ("equipment", equipment),
        ("specialties", specialties),
    ):
        try:
            values[field] = parse_field(field, value)
        except ValueError as error:
            errors[field] = [str(error)]
    if force.units.count() >= MAX_UNITS_PER_FORCE:
        errors["__all__"] = [
            f"{force} already holds {MAX_UNITS_PER_FORCE} units, the most a force may hold"
        ]
    if unit_type_errors := _unit_type_errors(force.campaign, unit_type):
        errors["unit_type"] = unit_type_errors
    if "name" in values and force.units.filter(name=values["name"]).exists():
        errors["name"] = [name_taken(str(force), "a unit", values["name"])]
    if "quality" in values and "specialties" in values:
        problems = validate_specialties(
            values["quality"], values["specialties"], values.get("name", "")
        )
        if problems:
            errors["specialties"] = problems
    try:
        values["leader"] = None if leader is None else leader_value(leader)
    except ValueError as error:
        errors["leader"] = [str(error)]
    if errors:
        raise ValidationError(errors)
    return CampaignUnitState(**values)


@transaction.atomic
def unit_create(
    *,
    force: Force,
    unit_type: UnitType,
    name: str,
    quality: Quality | int | str = Quality.AVERAGE,
    equipment: Equipment | str = Equipment.ADEQUATE,
    specialties: Iterable[Specialty | str] = (),
    leader: LeaderState | Mapping[str, Any] | None = None,
    actor: Any = None,
    reason: str = "",
    details: Mapping[str, Any] | None = None,
) -> Unit:
    """Raise a unit in a force from a library card, with its first history entry.

    ``specialties`` are the unit's as given, none by default: on a card that names the specialty
    its unit needs (`UnitType.specialty`), a unit without it fights as Raw with Poor kit
    (docs/campaign.md §1.1). The add-unit form ticks the card's own (`bridge.card_specialties`).
    ``details`` says how it was raised (a Requisition check and its roll); without them the
    entry records that the GM raised it by fiat. The force is read as stored, and locked (one
    unit raised at a time in it); its entry is dated by the campaign's day as stored, never by
    the caller's copy, which may be from before the calendar moved.
    """
    force = locked(force, "campaign")
    if actor is not None and not force_can_edit(force=force, user=actor):
        raise PermissionDenied(f"only {force.owner} or the GM may raise units in {force}")
    state = unit_create_check(
        force=force,
        unit_type=unit_type,
        name=name,
        quality=quality,
        equipment=equipment,
        specialties=specialties,
        leader=leader,
    )
    unit = Unit.objects.create(force=force, unit_type=unit_type, name=state.name)
    labels = ", ".join(s.label for s in state.specialties) or "no specialties"
    leading = "" if state.leader is None else f", led by {state.leader.name}"
    summary = f"{state.equipment.label} equipment, {labels}{leading}"
    why = reason or f"raised in {force} as {state.quality.label} {unit_type}"
    unit_change(
        unit=unit,
        state=state,
        kind=Kind.CREATED,
        why=why,
        day=force.campaign.day,
        details=dict(details) if details is not None else {"raised_by": "gm_fiat"},
        actor=actor,
        snapshot=True,
        text=f"{why} ({summary})",
    )
    return unit


MAX_RAISED_AT_ONCE = 20
"""Units one form may raise at once, each named with its number."""


@transaction.atomic
def units_raise(
    *,
    force: Force,
    unit_type: UnitType,
    name: str,
    count: int = 1,
    quality: Quality | int | str = Quality.AVERAGE,
    equipment: Equipment | str = Equipment.ADEQUATE,
    specialties: Iterable[Specialty | str] = (),
    actor: Any = None,
) -> list[Unit]:
    """Raise ``count`` units alike from one card (`unit_create` for each): one is called
    ``name``; several are numbered after it, "Rifles 1", "Rifles 2"... All or none: a refusal
    of any is said of the name field or its own, and nothing is written."""
    if (
        isinstance(count, bool)
        or not isinstance(count, int)
        or not 1 <= count <= MAX_RAISED_AT_ONCE
    ):
        raise ValidationError(
            {
                "count": [
                    f"1 to {MAX_RAISED_AT_ONCE} units are raised at once, not {value_shown(count)}."
                ]
            }
        )
    names = [name] if count == 1 else [f"{str(name).strip()} {i}" for i in range(1, count + 1)]
    return [
        unit_create(
            force=force,
            unit_type=unit_type,
            name=each,
            quality=quality,
            equipment=equipment,
            specialties=list(specialties),
            actor=actor,
        )
        for each in names
    ]


EDITABLE = UNIT_FIELDS


def unit_edit_check(*, unit: Unit, changes: Mapping[str, Any], reason: str) -> CampaignUnitState:
    """The unit's state after a GM correction, or a `ValidationError` naming every bad field.

    Specialties are checked against the quality's limit when they change; a unit keeps the
    specialties it holds when its quality falls, and may give some up, but gains no new one
    beyond the limit (`validate_specialties`). Casualty hits raised with no medical window
    open get the medics' 24 hours from now (`recovery.window_after_correction`), unless the
    correction sets the window itself. Hits beyond what the quality carries are refused; hits
    that take a ready unit below Raw retreat it, unless the correction sets its status.
    """
    errors: dict[str, list[str]] = {}
    text_given(errors, "reason", reason, needed="a GM correction needs its reason")
    if not isinstance(changes, Mapping):
        errors["changes"] = ["must map each field to correct to its new value"]
        changes = {}
    values: dict[str, Any] = {}
    if LEADER_HIT_POINTS in changes:
        try:
            values["leader"] = _leader_corrected(unit, changes[LEADER_HIT_POINTS])
        except ValueError as error:
            errors[LEADER_HIT_POINTS] = [str(error)]
        changes = {k: v for k, v in changes.items() if k != LEADER_HIT_POINTS}
    for field, value in changes.items():
        if field not in EDITABLE:
            errors[field] = ["not a field a GM edit may change (leaders have their own services)"]
            continue
        try:
            values[field] = parse_field(field, value)
        except ValueError as error:
            errors[field] = [str(error)]
    if "name" in values and unit.force.units.exclude(pk=unit.pk).filter(name=values["name"]):
        errors["name"] = [name_taken(str(unit.force), "a unit", values["name"])]
    state = unit.state
    if "specialties" in values and "quality" not in errors:
        quality = values.get("quality", state.quality)
        name = values.get("name", unit.name)
        problems = validate_specialties(
            quality, values["specialties"], name, held=state.specialties
        )
        if problems:
            errors["specialties"] = problems
    if "quality" in values and "experience" not in values and "quality" not in errors:
        # Progress is kept when quality changes, capped below the new quality's next step, as
        # when a battle costs it quality (`with_quality`).
        capped = with_quality(state, values["quality"]).experience
        if capped != state.experience:
            values["experience"] = capped
    # Each check below waits only on the fields it reads: a GM who gave too many points and
    # too many hits learns of both at once, not of the second after mending the first.
    elif (
        "experience" in values
        and not errors.keys() & {"quality", "experience"}
        and (refused := experience_refused(state.but(**values)))
    ):
        errors["experience"] = [refused]
    if not errors.keys() & set(HIT_FIELDS) and (
        problem := _hits_problem(state, state.but(**values), changes)
    ):
        errors.update(problem)
    if (leader := values.get("leader")) is not None and not leader.alive:
        # The leader's death costs the unit its Morale hits at once, as in a fight
        # (`damage.damage_apply`), on top of the Morale hits the correction sets.
        values["morale_hits"] = (
            values.get("morale_hits", state.morale_hits) + LEADER_DEATH_MORALE_HITS
        )
        too_many = _hits_problem(state, state.but(**values), {"morale_hits": None})
        if not errors and too_many:
            errors[LEADER_HIT_POINTS] = [
                f"{possessive(leader.name)} death would cost {unit.name} "
                f"{plural(LEADER_DEATH_MORALE_HITS, 'Morale hit')} at once: "
                + too_many["morale_hits"][0]
            ]
    if errors:
        raise ValidationError(errors)
    now = campaign_now(unit.force.campaign)
    if "status" not in values and _breaks(state, state.but(**values)):
        # Hits that take a ready unit below Raw break it, as at the bridge (`damage_apply`):
        # it retreats in poor order, and the medics' 24 hours decide its fate. A GM who holds
        # it ready all the same says so by its status.
        values["status"] = Status.RETREATED
    if values.get("status", Status.READY) != Status.READY and "in_combat_zone" not in values:
        # A unit marked retreated or destroyed has left the combat zone, as one broken in a
        # fight does (`damage.damage_apply`).
        values["in_combat_zone"] = False
    corrected = window_after_correction(state, state.but(**values), now).but(**values)
    # A correction may set any field, but not leave the unit where the rules never could: an
    # export of the campaign must import again (`transfer.forces.check_unit` asks the same).
    if problems := state_problems(corrected, now):
        raise ValidationError({field: [problem] for field, problem in problems.items()})
    return corrected


LEADER_HIT_POINTS = "leader_hit_points"
"""The change that sets the hit points of the unit's living leader in a correction."""


def _leader_corrected(unit: Unit, hit_points: Any) -> LeaderState:
    """The unit's living leader at ``hit_points``: a whole number, never above the most it may
    have (its character's full hit points); at the d20 death threshold or below, dead."""
    leader = getattr(unit, "leader", None)
    if leader is None or not leader.alive:
        raise ValueError(f"{unit.name} has no living leader whose hit points could be set")
    if isinstance(hit_points, bool) or not isinstance(hit_points, int):
        raise ValueError(
            f"A leader's hit points are a whole number, not {value_shown(hit_points)}."
        )
    most = leader_most_hit_points(leader)
    if hit_points > (HIT_POINTS_MAX if most is None else most):
        full = "" if most is None else f", {possessive(leader.name)} full hit points"
        raise ValueError(f"At most {HIT_POINTS_MAX if most is None else most}{full}.")
    if hit_points < -HIT_POINTS_MAX:
        raise ValueError(f"At least {number_text(-HIT_POINTS_MAX)}.")
    return LeaderState(leader.name, hit_points, alive=hit_points > LEADER_DEATH_HIT_POINTS)


HIT_FIELDS = ("casualty_hits", "morale_hits", "quality")
"""What a correction changes that moves the hits a unit can carry against those it carries."""


def _hits_problem(
    state: CampaignUnitState, corrected: CampaignUnitState, changes: Mapping[str, Any]
) -> dict[str, list[str]]:
    """Hits a correction gives the unit beyond what its quality can carry (BUCS: each hit
    takes a step, and the one that takes it below Raw breaks it: `Quality.hits_survived`),
    under the first of its changed fields that moves them. A correction that takes hits off is
    never refused: a battle's blows may have left more than a correction may enter."""
    limit = corrected.quality.hits_survived
    field = next((name for name in HIT_FIELDS if name in changes), None)
    if field is None or corrected.hits <= limit or not _more_to_carry(state, corrected):
        return {}
    return {
        field: [
            f"{corrected.name} is {corrected.quality.label}: it can carry at most "
            f"{plural(limit, 'hit')}, Morale and Casualty together (the last breaks it), and "
            f"was given {corrected.hits}."
        ]
    }


def _more_to_carry(before: CampaignUnitState, after: CampaignUnitState) -> bool:
    """Whether a correction weighs on the unit: more hits, or less quality to carry them."""
    return after.hits > before.hits or after.quality < before.quality


def _breaks(before: CampaignUnitState, after: CampaignUnitState) -> bool:
    """Whether a correction takes a ready unit below Raw."""
    return before.status == Status.READY and after.below_raw and _more_to_carry(before, after)


AWAIT_UNTIL = "; its Casualty hits await the medics until "
"""What a correction that adds Casualty hits says after its reason, before the hour."""


@transaction.atomic
def unit_edit(
    *, unit: Unit, changes: Mapping[str, Any], reason: str, actor: Any = None
) -> HistoryEntry | None:
    """A GM's correction of any recorded field, with the reason, as a history entry (which
    says until when the medics may save any Casualty hits it adds)."""
    unit = Unit.objects.select_for_update(of=("self",)).get(pk=unit.pk)
    campaign = unit.force.campaign
    require_manager(campaign, actor)
    before = unit.state
    state = unit_edit_check(unit=unit, changes=changes, reason=reason)
    why = f"GM correction: {reason.strip()}"
    closes = medical_window_closes(state)
    if state.casualty_hits > before.casualty_hits and closes is not None:
        why += f"{AWAIT_UNTIL}{clock_text(closes)}"
    details: dict[str, Any] = {}
    if state.leader != before.leader and state.leader is not None:
        if not state.leader.alive:
            why += f"; {leader_died_text(state.leader.name)}"
        elif (most := leader_most_hit_points(unit.leader)) is not None:
            details["leader_most_hit_points"] = most  # for the history's words: "9 of 18"
    notices_after_commit(campaign)
    return unit_change(
        unit=unit,
        state=state,
        kind=Kind.GM_EDIT,
        why=why,
        day=campaign.day,
        details=details,
        actor=actor,
    )


@transaction.atomic
def unit_move(*, unit: Unit, force: Force, reason: str, actor: Any = None) -> HistoryEntry | None:
    """Move the unit to another force of the campaign (a squad detached to another company, a
    unit handed to another player), with the GM's reason in its history. It keeps its state,
    its leader and its Orders; from then on it is on the other force's roster, its medics'
    work and its player's. Refused while it is in a battle not yet applied (the outcome is
    the force's it fought for), and for a destroyed unit, which stays with the force it fell
    in."""
    unit = locked(unit, "force__campaign")
    campaign = unit.force.campaign
    require_manager(campaign, actor)
    errors: dict[str, list[str]] = {}
    reason = text_given(errors, "reason", reason, needed="a move needs its reason")
    if problems := unit_move_problems(unit, force):
        errors["force"] = problems
    if errors:
        raise ValidationError(errors)
    was = unit.force
    unit.force = force
    notices_after_commit(campaign)
    moved = f"Moved from {was.name} to {force.name} (GM: {reason})"
    return unit_change(
        unit=unit,
        state=unit.state,
        kind=Kind.GM_EDIT,
        why=moved,
        text=moved,  # its state is as it was: the move is the whole sentence
        day=campaign.day,
        # The forces it left and joined, so its Undo moves it back (`HistoryEntry.moved`).
        details={"moved": {"from": was.pk, "to": force.pk}},
        actor=actor,
        always=True,
    )


def unit_move_problems(unit: Unit, force: Force) -> list[str]:
    """Why ``unit`` cannot be moved to ``force``, in sentences (none when it can): a force of
    its own campaign other than its own, with no unit of its name; never a destroyed unit,
    which stays with the force it fell in, nor one in a battle not applied yet, whose outcome
    is the force's it fought for. A move and its Undo ask the same."""
    campaign = unit.force.campaign
    problems = []
    if force.campaign_id != campaign.pk:
        problems.append(f"{force} is not a force of {campaign}")
    elif force.pk == unit.force_id:
        problems.append(f"{unit.name} is in {force} already")
    elif force.units.filter(name=unit.name).exists():
        problems.append(
            f"{force} already has a unit called {quoted(unit.name)}: rename one of them first"
        )
    if unit.state.destroyed:
        problems.append(f"{unit.name} was destroyed: it stays with the force it fell in")
    elif battle := engaged_units(campaign=campaign).get(unit.pk):
        problems.append(still_in_battle(unit, battle))
    return problems


def unit_zone_refusal(unit: Unit, in_combat_zone: bool) -> str:
    """Why ``unit`` cannot be sent into the combat zone (``in_combat_zone`` True) or withdrawn
    from it, in a sentence ("" when it can, or is there already): only a ready unit goes in
    (`recovery.zone_problem`), and a unit in a battle whose outcome is not applied yet stays
    where it went in, as it fights nothing else (`pages.left_out.still_in_battle`): the outcome,
    once applied, says where it stands."""
    state = unit.state
    if problem := zone_problem(state.but(in_combat_zone=in_combat_zone)):
        return problem
    if state.in_combat_zone == in_combat_zone:
        return ""
    if battle := engaged_units(campaign=unit.force.campaign).get(unit.pk):
        return still_in_battle(unit, battle)
    return ""


@transaction.atomic
def unit_combat_zone_set(
    *, unit: Unit, in_combat_zone: bool, reason: str = "", actor: Any = None
) -> HistoryEntry | None:
    """Send a unit into the combat zone or withdraw it (where R&R heals its last Morale hit).
    Only a ready unit goes in (`recovery.zone_problem`): one that retreated in poor order has
    left the combat zone until it rallies. A unit in a battle whose outcome is not applied yet
    stays where it is until it is (`unit_zone_refusal`)."""
    unit = Unit.objects.select_for_update(of=("self",)).get(pk=unit.pk)
    if actor is not None and not force_can_edit(force=unit.force, user=actor):
        raise PermissionDenied(f"only {unit.force.owner} or the GM may move {unit}")
    state = unit.state
    if state.destroyed:
        raise ValidationError({"in_combat_zone": f"{unit} is destroyed"})
    if problem := unit_zone_refusal(unit, bool(in_combat_zone)):
        raise ValidationError({"in_combat_zone": problem})
    why = reason or ("sent into the combat zone" if in_combat_zone else "withdrawn to the rear")
    return unit_change(
        unit=unit,
        state=state.but(in_combat_zone=bool(in_combat_zone)),
        kind=Kind.DEPLOYMENT,
        why=why,
        day=unit.force.campaign.day,
        actor=actor,
    )
