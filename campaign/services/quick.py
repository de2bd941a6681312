"""Writes for a quick resolve: fight a small engagement out and record it like a battle."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from battles.services import SEED_LIMIT
from campaign.models import Campaign, HistoryEntry, QuickResolve, Unit
from campaign.rules.bridge import REMOVAL_WORDS, Damage, damage_apply
from campaign.rules.dice import Dice
from campaign.rules.experience import experience_earn
from campaign.rules.history import hits_text, plural
from campaign.rules.quick import ROUND_LIMIT_MAX, SIDES, Stance, quick_resolve
from campaign.rules.state import Status
from campaign.services._record import require_manager, unit_change
from campaign.services.notices import notices_after_commit

Kind = HistoryEntry.Kind


def _stance(value: Stance | Mapping[str, Any] | None) -> Stance:
    if value is None:
        return Stance()
    if isinstance(value, Stance):
        stance = value
    else:
        unknown = set(value) - {"dug_in", "pinned_down", "surprise", "units"}
        if unknown:
            raise ValueError(f"unknown stance field {sorted(unknown)[0]!r}")
        stance = Stance(**value)
    for flag in ("dug_in", "pinned_down", "surprise"):
        if not isinstance(getattr(stance, flag), bool):
            raise ValueError(f"{flag} must be true or false")
    if isinstance(stance.units, bool) or not isinstance(stance.units, int) or stance.units < 1:
        raise ValueError("units must be a whole number, 1 or more")
    return stance


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
    actor: Any = None,
) -> QuickResolve:
    """Resolve attacker against defender, BUCS unit against unit, and apply the damage.

    Seeded (a fresh seed unless one is given) and logged roll by roll; both units then carry
    the engagement like a battle: hits, the leader's wounds, the medical window, experience.
    """
    require_manager(campaign, actor)
    # The campaign as stored, not as the caller last saw it: its day may have moved on.
    campaign = Campaign.objects.select_for_update(of=("self",)).get(pk=campaign.pk)
    round_limit = campaign.quick_resolve_rounds if round_limit is None else round_limit
    errors: dict[str, list[str]] = {}
    units = {
        unit.pk: unit
        for unit in Unit.objects.select_for_update(of=("self",))
        .filter(pk__in=[attacker.pk, defender.pk], force__campaign=campaign)
        .select_related("leader", "force")
    }
    fighters: dict[str, Unit] = {}
    for side, unit in (("attacker", attacker), ("defender", defender)):
        if unit.pk not in units:
            errors[side] = [f"{unit} is not a unit of {campaign}"]
        elif units[unit.pk].status != Status.READY:
            errors[side] = [f"{unit} is {units[unit.pk].state.status.label}: it cannot fight"]
        else:
            fighters[side] = units[unit.pk]
    if len(fighters) == 2 and fighters["attacker"].force_id == fighters["defender"].force_id:
        errors["defender"] = ["both units belong to the same force"]
    stances: dict[str, Stance] = {}
    for side, value in (("attacker", attacker_stance), ("defender", defender_stance)):
        try:
            stances[side] = _stance(value)
        except (TypeError, ValueError) as error:
            errors[f"{side}_stance"] = [str(error)]
    if isinstance(round_limit, bool) or not isinstance(round_limit, int):
        errors["round_limit"] = [f"must be a whole number, got {round_limit!r}"]
    elif not 1 <= round_limit <= ROUND_LIMIT_MAX:
        errors["round_limit"] = [f"must be 1..{ROUND_LIMIT_MAX}, got {round_limit}"]
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        errors["seed"] = [f"must be a whole number, got {seed!r}"]
    elif seed is not None and not 0 <= seed <= SEED_LIMIT:
        errors["seed"] = [f"must be between 0 and {SEED_LIMIT}, got {seed}"]
    if errors:
        raise ValidationError(errors)

    seed = random.SystemRandom().randint(0, SEED_LIMIT) if seed is None else seed
    dice = Dice(seed)
    result = quick_resolve(
        fighters["attacker"].state,
        fighters["defender"].state,
        attacker_stance=stances["attacker"],
        defender_stance=stances["defender"],
        round_limit=round_limit,
        d20=dice.d20,
    )
    record = QuickResolve.objects.create(
        campaign=campaign,
        day=campaign.day,
        attacker=fighters["attacker"],
        defender=fighters["defender"],
        seed=seed,
        round_limit=round_limit,
        setup={side: stances[side].to_json() for side in SIDES},
        events=[],
        rounds=result.rounds,
        winner=result.winner or "",
        reason=reason.strip(),
        actor=actor,
    )
    events = list(result.events)
    title = reason.strip() or "quick resolve, {} against {}".format(*fighters.values())
    for side in SIDES:
        unit, taken = fighters[side], result.side(side)
        state, damage = damage_apply(
            unit.state,
            morale_hits=taken.morale_hits,
            casualty_hits=taken.casualty_hits,
            removed=taken.removed,
            day=campaign.day,
            d6=dice.d6,
            damage=Damage(
                armor_ignored=taken.armor_ignored, excellent_ignored=taken.excellent_ignored
            ),
        )
        if damage.leader_rolls:
            events.append(
                {
                    "event": "leader",
                    "side": side,
                    "rolls": list(damage.leader_rolls),
                    "died": damage.leader_died,
                }
            )
        why = f"{title}: took {hits_text(taken.morale_hits, taken.casualty_hits)} hits"
        if damage.leader_died:
            why += "; the leader died: 2 Morale hits at once"
        if taken.removed != "none":
            why += "; " + REMOVAL_WORDS[taken.removed]
        unit_change(
            unit=unit,
            state=state,
            kind=Kind.QUICK_RESOLVE,
            why=why,
            day=campaign.day,
            details={"damage": damage.to_json(), "seed": seed},
            quick_resolve=record,
            actor=actor,
            always=True,
        )
        state, earned = experience_earn(state, won=result.winner == side)
        if earned.points:
            gain = f"{title}: {plural(earned.points, 'point')} of experience"
            unit_change(
                unit=unit,
                state=state,
                kind=Kind.EXPERIENCE,
                why=f"{gain}, a step up" if earned.raised else gain,
                day=campaign.day,
                details={"points": earned.points},
                quick_resolve=record,
                actor=actor,
            )
    record.events = events
    record.save(update_fields=["events"])
    notices_after_commit(campaign)
    return record
