"""Writes where a character meets a unit: taking command of it, leaving it, and training it.

Each service validates its inputs first (a `ValidationError` naming the field), runs in one
transaction, and records the change to the unit as a history entry.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from campaign.models import Character, HistoryEntry, Leader, Unit
from campaign.rules.characters import can_train, feats_from
from campaign.rules.experience import TrainingError, training_apply, with_quality
from campaign.rules.values import leader_value
from campaign.selectors.access import command_refused
from campaign.services._record import locked, require_manager, unit_change, units_stored
from campaign.services.notices import notices_after_commit
from units.words import possessive, quoted

Kind = HistoryEntry.Kind


@transaction.atomic
def leader_attach(
    *,
    unit: Unit,
    name: str = "",
    hit_points: int | None = None,
    character: Character | None = None,
    reason: str = "",
    actor: Any = None,
) -> Leader:
    """Put a d20 character at the head of a unit (in place of a dead one, if any).

    With ``character`` the campaign's own character joins the unit: its name and hit points
    are the leader's, and its wounds in the unit's fights are its own. A dead leader it
    replaces stays dead, with the hit points it died with: the entry keeps who led the unit and
    fell (and names the character, so a revert puts the dead back at its head). A character
    who survived the destruction of the unit it led is free to lead another: it leaves the
    destroyed unit first (`_survivor_leaves`).
    """
    unit = Unit.objects.select_for_update(of=("self",)).get(pk=unit.pk)
    require_manager(unit.force.campaign, actor)
    state = unit.state
    if state.destroyed:
        raise ValidationError({"leader": f"{unit} is destroyed: there is no one left to lead"})
    if state.leader is not None and state.leader.alive:
        raise ValidationError({"leader": f"{unit} is led by {state.leader.name} already"})
    ruins: Unit | None = None  # the destroyed unit the character survived, if any
    if character is not None:
        character = locked(character)
        if character.campaign_id != unit.force.campaign_id:
            raise ValidationError({"character": f"{character} is not of {unit.force.campaign}"})
        if not character.alive:
            raise ValidationError({"character": f"{character} is dead"})
        held = Leader.objects.filter(character=character).values_list("unit_id", flat=True)
        ruins = next(iter(units_stored(held, lock=True).values()), None)
        if ruins is not None and not ruins.state.destroyed:
            # Named, with the way out: the GM may not know which unit, nor where to free them.
            raise ValidationError(
                {
                    "character": f"{character} leads {ruins.name} ({ruins.force.name}) already: "
                    "a character leads one unit at a time; detach them on "
                    f"{possessive(ruins.name)} "
                    "page first"
                }
            )
        name, hit_points = character.name, character.hit_points
    else:
        name = (name or "").strip()
        if problem := _leader_name_taken(unit, name):
            raise ValidationError({"leader": problem})
    if hit_points is None:
        raise ValidationError({"hit_points": "a leader needs hit points"})
    try:
        leader = leader_value({"name": name, "hit_points": hit_points, "alive": True})
    except ValueError as error:
        raise ValidationError({"leader": str(error)}) from None
    if leader.hit_points < 1:
        raise ValidationError({"hit_points": "a leader takes command on their feet: 1 or more"})
    if ruins is not None:
        _survivor_leaves(ruins, character, unit, actor)
    details: dict[str, Any] = {}
    if character is not None:
        # for the history's words: "takes command (14 of 14 hit points)"
        details = {"character": character.pk, "leader_most_hit_points": character.max_hit_points}
    fallen = getattr(unit, "leader", None)
    if fallen is not None and fallen.character_id is not None:
        details["replaced"] = fallen.character_id
    unit_change(
        unit=unit,
        state=state.but(leader=leader),
        kind=Kind.LEADER,
        why=reason or f"{leader.name} takes command",
        day=unit.force.campaign.day,
        details=details,
        actor=actor,
        # The new leader is a person of its own: the row lets go of the dead character before
        # it takes the new leader's state, which would otherwise be carried onto the dead.
        character=None if character is None else character.pk,
    )
    return unit.leader


def _leader_name_taken(unit: Unit, name: str) -> str | None:
    """Why a leader named with ``unit`` may not take ``name``, if it may not: one of the
    campaign's characters has it (that character joins the unit as itself, so one person never
    stands twice on the Characters page, nor leads two units), or a leader named with another
    unit has it."""
    campaign = unit.force.campaign
    if campaign.characters.filter(name=name).exists():
        return (
            f"{campaign} has a character called {quoted(name)} already: to put them at the head of "
            f"{unit}, have them join it on the Characters page"
        )
    other = (
        Leader.objects.filter(unit__force__campaign=campaign, character=None, name=name)
        .exclude(unit=unit)
        .select_related("unit")
        .first()
    )
    if other is not None:
        return (
            f"{quoted(name)} is the name of {possessive(str(other.unit))} leader already: "
            "give this leader another"
        )
    return None


def _survivor_leaves(ruins: Unit, character: Character, to_lead: Unit, actor: Any) -> None:
    """A character who survived the destruction of ``ruins`` (locked) leaves it to lead
    ``to_lead``, as `leader_detach` would take it away: the destroyed unit's history keeps who
    led it, and names the character, so a revert of its leaving puts it back at the head only
    once it leads no other unit (`reverts._relink_problem`)."""
    unit_change(
        unit=ruins,
        state=ruins.state.but(leader=None),
        kind=Kind.LEADER,
        why=f"{character.name} survived its destruction and leaves it to lead {to_lead}",
        day=to_lead.force.campaign.day,
        details={"character": character.pk},
        actor=actor,
    )


@transaction.atomic
def leader_detach(*, unit: Unit, reason: str = "", actor: Any = None) -> HistoryEntry:
    unit = Unit.objects.select_for_update(of=("self",)).get(pk=unit.pk)
    require_manager(unit.force.campaign, actor)
    state = unit.state
    if state.leader is None:
        raise ValidationError({"leader": f"{unit} has no leader"})
    character = unit.leader.character_id
    entry = unit_change(
        unit=unit,
        state=state.but(leader=None),
        kind=Kind.LEADER,
        why=reason or f"{state.leader.name} leaves the unit",
        day=unit.force.campaign.day,
        # Which character led it, so a revert puts the same one back at its head.
        details={} if character is None else {"character": character},
        actor=actor,
    )
    assert entry is not None
    notices_after_commit(unit.force.campaign)
    return entry


@transaction.atomic
def unit_train(
    *, unit: Unit, character: Character | None, reason: str = "", actor: Any = None
) -> HistoryEntry:
    """A course of training by one of the campaign's characters, alive and Special Forces or a
    Strategist: one step up, to Experienced at most. The history names the trainer."""
    unit = Unit.objects.select_for_update(of=("self",)).get(pk=unit.pk)
    require_manager(unit.force.campaign, actor)
    if character is None:
        raise ValidationError({"character": "training is given by a character of the campaign"})
    character = locked(character)
    if character.campaign_id != unit.force.campaign_id:
        raise ValidationError({"character": f"{character} is not of {unit.force.campaign}"})
    if not character.alive:
        raise ValidationError({"character": f"{character} is dead"})
    if not can_train(feats_from(character.feats)):
        raise ValidationError(
            {"character": f"{character} is neither Special Forces nor a Strategist"}
        )
    if refused := command_refused(character=character, unit=unit, does="train"):
        raise ValidationError({"character": refused})
    trainer = character.name
    try:
        trained = training_apply(unit.state)
    except TrainingError as error:
        raise ValidationError({"quality": str(error)}) from None
    entry = unit_change(
        unit=unit,
        state=with_quality(trained, trained.quality),
        kind=Kind.TRAINING,
        why=reason or f"trained by {trainer}",
        day=unit.force.campaign.day,
        details={"trainer": trainer, "character": character.pk},
        actor=actor,
    )
    assert entry is not None
    return entry
