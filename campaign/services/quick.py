"""Writes for a quick resolve: one unit against another, fought and applied as an engagement.

A quick resolve is the GM's short form of `engagement_run`: two units, a few stances, a round
limit. It is fought by the same rules (`campaign.rules.quick`), kept as an `Engagement` with its
round-by-round log, applied through the same history and revertible like any engagement.
Quick resolves fought before that are kept as they were (`QuickResolve`), read-only.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from battles.services import seed_problem
from campaign.models import Campaign, Engagement, Unit
from campaign.rules.engagement import round_limit_problem
from campaign.rules.quick import (
    ENGAGEMENT_SIDES,
    STANCE_FIELDS,
    Stance,
    situation,
    surprise_side,
)
from campaign.rules.state import Status
from campaign.selectors.roster import engaged_units
from campaign.services._record import (
    forces_on_both_sides,
    made_once,
    require_manager,
    text_given,
    unit_on_both_sides,
)
from campaign.services.battles import still_in_battle
from campaign.services.engagements import (
    EngagementPreview,
    engagement_preview,
    engagement_run,
)
from units.words import given


def _stance(value: Stance | Mapping[str, Any] | None) -> Stance:
    if value is None:
        return Stance()
    if isinstance(value, Stance):
        stance = value
    else:
        unknown = set(value) - set(STANCE_FIELDS)
        if unknown:
            raise ValueError(f"unknown stance field {given(sorted(unknown)[0])}")
        stance = Stance(**value)
    for flag in STANCE_FIELDS:
        if not isinstance(getattr(stance, flag), bool):
            raise ValueError(f"{flag} must be true or false")
    return stance


def _quick_engagement(
    *,
    campaign: Campaign,
    attacker: Unit,
    defender: Unit,
    attacker_stance: Stance | Mapping[str, Any] | None,
    defender_stance: Stance | Mapping[str, Any] | None,
    round_limit: int | None,
    seed: int | None,
    reason: str,
) -> dict[str, Any]:
    """The quick resolve, validated, as the engagement it is (`engagement_run`'s arguments)."""
    campaign = Campaign.objects.get(pk=campaign.pk)  # its settings as stored
    round_limit = campaign.quick_resolve_rounds if round_limit is None else round_limit
    errors: dict[str, list[str]] = {}
    reason = text_given(errors, "reason", reason)
    units = {
        unit.pk: unit
        for unit in Unit.objects.filter(
            pk__in=[attacker.pk, defender.pk], force__campaign=campaign
        ).select_related("force")
    }
    in_battle = engaged_units(campaign=campaign)
    fighters: dict[str, Unit] = {}
    for side, unit in (("attacker", attacker), ("defender", defender)):
        if unit.pk not in units:
            errors[side] = [f"{unit} is not a unit of {campaign}"]
        elif units[unit.pk].status != Status.READY:
            errors[side] = [units[unit.pk].state.status.cannot_fight(str(unit))]
        elif unit.pk in in_battle:
            errors[side] = [still_in_battle(unit, in_battle[unit.pk])]
        else:
            fighters[side] = units[unit.pk]
    if attacker.pk == defender.pk:
        # Said before the force's rule: the unit, not its force, is what fights itself here.
        errors["defender"] = [unit_on_both_sides(defender)]
    else:
        for side, _, why in forces_on_both_sides({s: [unit] for s, unit in fighters.items()}):
            errors[side] = [why]
    stances: dict[str, Stance] = {}
    for side, value in (("attacker", attacker_stance), ("defender", defender_stance)):
        try:
            stances[side] = _stance(value)
        except (TypeError, ValueError) as error:
            errors[f"{side}_stance"] = [str(error)]
    surprise = None
    if len(stances) == 2:
        try:
            surprise = surprise_side(stances["attacker"], stances["defender"])
        except ValueError as error:
            errors["defender_stance"] = [str(error)]
    if problem := round_limit_problem(round_limit):
        errors["round_limit"] = [problem]
    if problem := seed_problem(seed):
        errors["seed"] = [problem]
    if errors:
        raise ValidationError(errors)

    return {
        "campaign": campaign,
        "sides": {ENGAGEMENT_SIDES[side]: [unit] for side, unit in fighters.items()},
        "situations": {fighters[side].pk: situation(stances[side]) for side in fighters},
        "surprise": surprise,
        "round_limit": round_limit,
        "seed": seed,
        # Unnamed, it is named by its units: "quick resolve, Red Rifles against Blue Rifles".
        "name": reason,
        "unnamed": "quick resolve",
    }


def quick_resolve_preview(
    *,
    campaign: Campaign,
    attacker: Unit,
    defender: Unit,
    attacker_stance: Stance | Mapping[str, Any] | None = None,
    defender_stance: Stance | Mapping[str, Any] | None = None,
    round_limit: int | None = None,
    seed: int | None = None,
    reason: str = "",
    actor: Any = None,
) -> EngagementPreview:
    """The quick resolve as `quick_resolve_run` would fight and apply it, writing nothing: the
    review a campaign whose GM reviews each outcome first shows before Apply. Its seed (a
    fresh one unless one is given) is the one Apply is to use."""
    require_manager(campaign, actor)
    return engagement_preview(
        **_quick_engagement(
            campaign=campaign, attacker=attacker, defender=defender,
            attacker_stance=attacker_stance, defender_stance=defender_stance,
            round_limit=round_limit, seed=seed, reason=reason,
        ),
        actor=actor,
    )  # fmt: skip


@transaction.atomic
def quick_resolve_run(
    *,
    campaign: Campaign,
    attacker: Unit,
    defender: Unit,
    attacker_stance: Stance | Mapping[str, Any] | None = None,
    defender_stance: Stance | Mapping[str, Any] | None = None,
    round_limit: int | None = None,
    seed: int | None = None,
    reason: str = "",
    request_key: uuid.UUID | None = None,
    actor: Any = None,
    reviewed: str | None = None,
) -> Engagement:
    """Resolve attacker against defender as a one-against-one engagement, and apply it.

    Seeded (a fresh seed unless one is given) and logged round by round; both units then carry
    the engagement like a battle: hits, the leader's wounds, the medical window, experience.
    A repeated request with the same ``request_key`` returns the engagement the first fought.
    Confirmed from its review (`quick_resolve_preview`), ``reviewed`` is what the review
    showed: refused, writing nothing, unless Apply would write exactly that (`engagement_run`).
    """
    require_manager(campaign, actor)
    if (requested := made_once(Engagement, request_key, actor, "actor")) is not None:
        return requested
    return engagement_run(
        **_quick_engagement(
            campaign=campaign, attacker=attacker, defender=defender,
            attacker_stance=attacker_stance, defender_stance=defender_stance,
            round_limit=round_limit, seed=seed, reason=reason,
        ),
        request_key=request_key,
        actor=actor,
        reviewed=reviewed,
    )  # fmt: skip
