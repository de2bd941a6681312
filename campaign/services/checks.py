"""Writes for the table's rolls: unit skill checks, contests between units, Requisition.

Each is seeded (`campaign.rules.dice.Dice`) and kept as a `TableRoll`; a check or contest also goes
into the history of every unit that made it, and a unit raised by Requisition enters history
with its roll (a unit the GM raises by fiat says so in its first entry).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from battles.services import SEED_LIMIT, seed_problem
from campaign.models import Campaign, Character, Force, HistoryEntry, TableRoll, Unit
from campaign.rules.characters import feats_from
from campaign.rules.checks import (
    CheckError,
    CheckUnit,
    check_errors,
    contest,
    requisition_check,
    requisition_dc_text,
    requisition_quality_problem,
    requisition_roll_text,
    skill_check,
)
from campaign.rules.command import Commandable, command_of, legendary_command
from campaign.rules.dice import Dice
from campaign.rules.history import out_cold_text
from campaign.rules.state import Status, can_act
from campaign.selectors.roster import campaign_now
from campaign.services._record import (
    forces_on_both_sides,
    locked,
    require_manager,
    text_given,
    unit_change,
    unit_on_both_sides,
)
from campaign.services.going_in import led_units
from campaign.services.orders import UNDER_WAY, current_orders, order_status
from campaign.services.roster import unit_create, unit_create_check
from units.bucs import Specialty
from units.models import UnitType
from units.words import given, quoted, value_shown

Kind = HistoryEntry.Kind
DC_MAX = 60
BONUS_LIMIT = 40


def _seed(seed: Any, errors: dict[str, list[str]]) -> None:
    if problem := seed_problem(seed):
        errors["seed"] = [problem]


def _skill(value: str | None, field: str, errors: dict[str, list[str]]) -> Specialty | None:
    if not value:
        return None
    try:
        return Specialty(value)
    except ValueError:
        errors[field] = [
            f"unknown skill {given(value)}: a specialty's, or none for a general skill"
        ]
        return None


def _side_name(units: Sequence[Unit]) -> str:
    """A contest's side as its sentence names it: "Scouts (helped by Rangers, Pickets)"."""
    helped = f" (helped by {', '.join(u.name for u in units[1:])})" if len(units) > 1 else ""
    return f"{units[0].name}{helped}"


def _check_units(
    campaign: Campaign, units: Sequence[Unit], field: str, errors: dict[str, list[str]]
) -> list[Unit]:
    found = {
        u.pk: u
        for u in Unit.objects.select_for_update(of=("self",))
        .filter(pk__in=[u.pk for u in units], force__campaign=campaign)
        .select_related("leader__character")
    }
    chosen = []
    if not units:
        errors[field] = ["choose at least one unit"]
    for unit in units:
        if unit.pk not in found:
            errors.setdefault(field, []).append(f"{unit} is not a unit of {campaign}")
        elif found[unit.pk].status != Status.READY:
            errors.setdefault(field, []).append(f"{unit} is not ready: it cannot work")
        else:
            chosen.append(found[unit.pk])
    return chosen


def check_units(campaign: Campaign, units: list[Unit]) -> list[CheckUnit]:
    """The units as a check reads them: command from leader, Order or a Legendary unit."""
    orders = current_orders(campaign, units)
    now = campaign_now(campaign)
    led = led_units(units)
    commandables = []
    for unit in units:
        order = orders.get(unit.pk)
        ordered = order is not None and order_status(order, now) == UNDER_WAY
        commandables.append(
            Commandable(str(unit.pk), unit.pk in led, ordered, unit.state.effective_quality)
        )
    commanded = legendary_command(commandables)
    made = []
    for unit, commandable in zip(units, commandables, strict=True):
        leader = getattr(unit, "leader", None)
        feats = frozenset()
        if commandable.led and leader.character is not None:
            feats = feats_from(leader.character.feats)
        made.append(
            CheckUnit(
                key=commandable.key,
                name=unit.name,
                quality=commandable.quality,
                equipment=unit.state.equipment,
                specialties=unit.state.specialties,
                command=command_of(commandable, commanded.get(commandable.key)),
                leader_feats=feats,
                leader="" if leader is None else leader.name,
                leader_out="" if leader is None else leader.leads_nobody,
            )
        )
    return made


def units_not_alone(campaign: Campaign) -> list[tuple[Unit, str]]:
    """The campaign's units able to make a check (`Status.fights`) that the rule refuses on
    their own as they stand now, each with why, for the page to say before the roll: asked of
    the rule itself (`rules.checks.check_errors`), on a general skill (a Green or Raw unit with
    no Order, no leader and no Legendary unit commanding it makes none) and on a skill outside
    its specialties (where every unit so placed performs as Raw, and makes none either)."""
    units = list(
        Unit.objects.filter(force__campaign=campaign, status__in=[s for s in Status if s.fights])
        .select_related("force", "leader__character")
        .order_by("force__name", "name")
    )
    refused = []
    for unit, checked in zip(units, check_units(campaign, units), strict=True):
        outside = [s for s in Specialty if s not in checked.specialties]
        if check_errors([checked], None):
            why = (
                f"{checked.quality.label} with no Order, so they cannot act alone and make no "
                "check until given one"
            )
        elif outside and check_errors([checked], outside[0]):
            why = (
                "With no Order, outside their specialties they perform as Raw and make no check "
                "(a general skill or one of their own specialties they may)"
            )
        else:
            continue
        refused.append((unit, why))
    return refused


def _fresh_seed(seed: int | None) -> int:
    return random.SystemRandom().randrange(SEED_LIMIT) if seed is None else seed


ROLL_ENTRY_KINDS = {
    TableRoll.Kind.SKILL_CHECK: Kind.SKILL_CHECK,
    TableRoll.Kind.CONTEST: Kind.CONTEST,
}
"""The history entry a roll at the table leaves in each unit's history that made it, by the
roll's kind (a Requisition's raised unit enters history as raised: `unit_create`)."""


def contest_entries_renamed(rolls: Iterable[int]) -> int:
    """Call a contest's entries contests: a contest's entries were once written as skill checks
    (an older site's export carries them so). ``rolls``: table roll pks; how many it renamed."""
    contests = TableRoll.objects.filter(pk__in=list(rolls), kind=TableRoll.Kind.CONTEST)
    return HistoryEntry.objects.filter(
        kind=Kind.SKILL_CHECK, details__table_roll__in=list(contests.values_list("pk", flat=True))
    ).update(kind=Kind.CONTEST)


def _record_for_units(
    units: Iterable[Unit], roll: TableRoll, why: str, actor: Any, maker: Unit | None = None
) -> None:
    """The roll in the history of each of ``units``. ``maker``: the unit whose name ``why``
    opens with ("Recon 1: Reconnaissance check, …"), the one that made the check; its entry
    keeps that name as data (``maker``; "" in the others'), so a line naming the unit first
    leaves it out whatever the unit is called since (`pages.events.without_maker`)."""
    for unit in units:
        details = {"table_roll": roll.pk, "seed": roll.seed}
        details["maker"] = unit.name if unit == maker else ""
        unit_change(
            unit=unit, state=unit.state, kind=ROLL_ENTRY_KINDS[TableRoll.Kind(roll.kind)], why=why,
            day=roll.day, details=details, actor=actor, always=True,
        )  # fmt: skip


@transaction.atomic
def skill_check_run(
    *,
    campaign: Campaign,
    units: Sequence[Unit],
    dc: int,
    skill: str | None = None,
    seed: int | None = None,
    reason: str = "",
    actor: Any = None,
) -> TableRoll:
    """The first unit makes the check against the DC; the rest lend Strength in numbers."""
    require_manager(campaign, actor)
    campaign = Campaign.objects.get(pk=campaign.pk)  # the clock as it stands now
    errors: dict[str, list[str]] = {}
    reason = text_given(errors, "reason", reason)
    chosen = _check_units(campaign, units, "units", errors)
    specialty = _skill(skill, "skill", errors)
    if isinstance(dc, bool) or not isinstance(dc, int) or not 1 <= dc <= DC_MAX:
        errors["dc"] = [f"The DC is 1 to {DC_MAX}, not {value_shown(dc)}."]
    _seed(seed, errors)
    if errors:
        raise ValidationError(errors)
    seed = _fresh_seed(seed)
    try:
        result = skill_check(check_units(campaign, chosen), specialty, dc, Dice(seed).d20)
    except CheckError as error:
        raise ValidationError(error.errors) from None
    what = specialty.label if specialty else "a general skill"
    verdict = "succeeds" if result["success"] else "fails"
    summary = f"{chosen[0].name}: {what} check, {result['total']} against DC {dc}: {verdict}"
    if reason:
        summary += f" ({reason})"
    roll = TableRoll.objects.create(
        campaign=campaign, kind=TableRoll.Kind.SKILL_CHECK, day=campaign.day, hour=campaign.hour,
        seed=seed, setup={"units": [u.pk for u in chosen], "skill": skill or "", "dc": dc},
        result=result, summary=summary[:400], actor=actor,
    )  # fmt: skip
    _record_for_units(chosen, roll, summary, actor, maker=chosen[0])
    return roll


@transaction.atomic
def contest_run(
    *,
    campaign: Campaign,
    active: Sequence[Unit],
    resisting: Sequence[Unit],
    active_skill: str | None = None,
    resisting_skill: str | None = None,
    seed: int | None = None,
    reason: str = "",
    actor: Any = None,
) -> TableRoll:
    """A non-combat contest, unit against unit (reconnaissance against camouflage, say)."""
    require_manager(campaign, actor)
    campaign = Campaign.objects.get(pk=campaign.pk)  # the clock as it stands now
    errors: dict[str, list[str]] = {}
    reason = text_given(errors, "reason", reason)
    one = _check_units(campaign, active, "active", errors)
    other = _check_units(campaign, resisting, "resisting", errors)
    both = [u for u in one if u.pk in {o.pk for o in other}]
    for unit in both:
        # Named, as a quick resolve names a unit on both sides, so the GM sees which to change.
        errors.setdefault("resisting", []).append(unit_on_both_sides(unit, "contest"))
    if not both:
        # The sides are opponents: a force's units are all on one of them, as in a fight.
        for _, _, why in forces_on_both_sides({"active": one, "resisting": other}, "contest"):
            errors.setdefault("resisting", []).append(why)
    skills = (_skill(active_skill, "active_skill", errors),
              _skill(resisting_skill, "resisting_skill", errors))  # fmt: skip
    _seed(seed, errors)
    if errors:
        raise ValidationError(errors)
    seed = _fresh_seed(seed)
    try:
        result = contest(
            check_units(campaign, one), skills[0], check_units(campaign, other), skills[1],
            Dice(seed).d20,
        )  # fmt: skip
    except CheckError as error:
        raise ValidationError(error.errors) from None
    winner = _side_name(one if result["winner"] == "active" else other)
    summary = (
        f"{_side_name(one)} ({result['active']['total']}) against {_side_name(other)} "
        f"({result['resisting']['total']}): {winner} wins"
    )
    if reason:
        summary += f" ({reason})"
    roll = TableRoll.objects.create(
        campaign=campaign, kind=TableRoll.Kind.CONTEST, day=campaign.day, hour=campaign.hour,
        seed=seed,
        setup={"active": [u.pk for u in one], "resisting": [u.pk for u in other],
               "active_skill": active_skill or "", "resisting_skill": resisting_skill or ""},
        result=result, summary=summary[:400], actor=actor,
    )  # fmt: skip
    _record_for_units([*one, *other], roll, summary, actor)
    return roll


@transaction.atomic
def requisition_run(
    *,
    force: Force,
    unit_type: UnitType,
    name: str,
    quality: Any = "average",
    equipment: Any = "adequate",
    specialties: Iterable[str] = (),
    character: Character | None = None,
    bonus: int = 0,
    seed: int | None = None,
    actor: Any = None,
) -> TableRoll:
    """A Requisition check for a new unit: on success the unit is raised, its roll in history.

    The check is the requisitioning character's (``bonus`` is their Requisition bonus as the
    GM reads it from their sheet); the DC comes from the unit's quality and equipment. The
    force and the character are judged as stored, locked, not as the caller's copies hold them:
    a character killed at a unit's head since is dead.
    """
    force = locked(force, "campaign")
    campaign = force.campaign
    require_manager(campaign, actor)
    character = None if character is None else locked(character)
    errors: dict[str, list[str]] = {}
    try:
        state = unit_create_check(
            force=force, unit_type=unit_type, name=name, quality=quality, equipment=equipment,
            specialties=specialties,
        )  # fmt: skip
    except ValidationError as error:
        errors.update(error.message_dict)
        state = None
    if state is not None and (problem := requisition_quality_problem(state.quality)):
        errors["quality"] = [problem]
    if character is not None and character.campaign_id != campaign.pk:
        errors["character"] = [f"{character} cannot requisition for {campaign}"]
    elif character is not None and not character.alive:
        errors["character"] = [f"{character} is dead: the dead requisition nothing"]
    elif character is not None and not can_act(character.hit_points):
        errors["character"] = [
            out_cold_text(character.name, character.hit_points, "requisitions nothing")
        ]
    if isinstance(bonus, bool) or not isinstance(bonus, int) or abs(bonus) > BONUS_LIMIT:
        errors["bonus"] = [f"the bonus must be a whole number within ±{BONUS_LIMIT}"]
    _seed(seed, errors)
    if errors:
        raise ValidationError(errors)
    assert state is not None
    seed = _fresh_seed(seed)
    result = requisition_check(bonus, state.quality, state.equipment, Dice(seed).d20)
    who = character.name if character is not None else "the force"
    verdict = "raised" if result["success"] else "refused"
    summary = (
        f"Requisition by {who} for {state.quality.label} {unit_type} {quoted(state.name)} "
        f"({state.equipment.label} equipment): {requisition_roll_text(result)} against "
        f"{requisition_dc_text(state.quality, state.equipment)}, {verdict}"
    )
    roll = TableRoll.objects.create(
        campaign=campaign, kind=TableRoll.Kind.REQUISITION, day=campaign.day,
        hour=campaign.hour, seed=seed,
        setup={"force": force.pk, "unit_type": unit_type.pk, "unit": state.to_json(),
               "character": None if character is None else character.pk, "bonus": bonus},
        result=result, summary=summary[:400], actor=actor,
    )  # fmt: skip
    if result["success"]:
        unit = unit_create(
            force=force, unit_type=unit_type, name=state.name, quality=state.quality,
            equipment=state.equipment, specialties=state.specialties, actor=actor,
            reason=f"raised in {force} by Requisition ({who}: {requisition_roll_text(result)} "
            f"against {requisition_dc_text(state.quality, state.equipment)})",
            details={"raised_by": "requisition", "table_roll": roll.pk, "seed": seed, **result},
        )  # fmt: skip
        roll.result = {**result, "unit": unit.pk}
        roll.save(update_fields=["result"])
    return roll
