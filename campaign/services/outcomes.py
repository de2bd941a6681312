"""Writes for battle outcomes: apply the bridge to every unit that fought (`reverts` undoes it).

The battles app (or a GM entering a battle fought at a real table) calls `outcome_apply` inside
its own transaction, after claiming the battle so that an outcome is applied exactly once.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from campaign.models import Campaign, HistoryEntry, Unit
from campaign.rules.damage import (
    CASUALTY_FROM,
    LEADER_DIED,
    LEFT_THE_TABLE,
    Damage,
    UnitOutcome,
    battle_fate_text,
    blows_dealt,
    blows_held,
    kit_stopped_text,
    leader_died_text,
    outcome_damage,
    outcome_problems,
    skill_restored_after,
)
from campaign.rules.dice import Dice
from campaign.rules.experience import earned_text, experience_earn
from campaign.rules.history import taken_text, took_text
from campaign.rules.orders import HOURS_PER_DAY, clock_hour, clock_text
from campaign.rules.recovery import MEDICAL_WINDOW_HOURS, casualties_found_too_late, found_too_late
from campaign.rules.state import CampaignUnitState, Status
from campaign.selectors.roster import campaign_now, leader_most_hit_points, units_joined
from campaign.services._record import require_manager, text_given, unit_change
from campaign.services.going_in import GoingInto, units_going_in
from campaign.services.notices import notices_after_commit
from units.bucs import Equipment
from units.words import given, or_words, plural, value_shown

Kind = HistoryEntry.Kind


def best_equipment(equipment: Iterable[Equipment | str]) -> Equipment:
    """The best rating among a side's units: what Excellent equipment is measured against.

    A side with no BUCS record (say, the scenario's own opposition) counts as Adequate.
    """
    ratings = [Equipment(e) for e in equipment]
    return max(ratings, key=lambda e: e.modifier, default=Equipment.ADEQUATE)


def opposing_equipment_by_side(
    sides: Mapping[str, Iterable[Unit]], kits: Mapping[int, Equipment] | None = None
) -> dict[int, Equipment]:
    """For each unit, the best equipment among the units on every other side: the kit each
    fought with (``kits``, `bridge.fought_kit`), else its own."""
    units = {side: list(members) for side, members in sides.items()}
    kits = kits or {}
    return {
        unit.pk: best_equipment(
            kits.get(u.pk, u.equipment) for s, us in units.items() if s != side for u in us
        )
        for side, members in units.items()
        for unit in members
    }


def _blows_text(dice: tuple[int, ...], card_hits: int) -> str:
    """How the Hits lost became BUCS hits, in words (`damage.blow_hits`): "a d6 for each Hit
    lost rolled 6 and 5, divided by the card's 4 Hits, rounded up"; blows held to the most one
    battle's deal (`damage.blows_held`) say so: "…, rounded up, 8 in all, held to 6, the most
    a card's blows deal"."""
    rolled = " and ".join(", ".join(str(d) for d in dice).rsplit(", ", 1))
    each = "the Hit lost" if len(dice) == 1 else "each Hit lost"
    if card_hits == 1:
        return f"a d6 for {each} rolled {rolled}"
    text = f"a d6 for {each} rolled {rolled}, divided by the card's {card_hits} Hits, rounded up"
    if (dealt := blows_dealt(dice, card_hits)) > (held := blows_held(dice, card_hits)):
        text += f", {dealt} in all, held to {held}, the most a card's blows deal"
    return text


def split_text(dice: tuple[int, ...], split: tuple[int, int], taken: tuple[int, int]) -> str:
    """How the BUCS hits split into Morale and Casualty, with the die that split each
    (`damage.CASUALTY_FROM`): "3 BUCS hits, a d6 each rolled 5, 2 and 4 (Casualty on 4 or
    more)". The split is said in words (`taken_text`) only when it differs from the hits the
    unit took (``taken``), which the entry opens with (Armor stopped some, say): "…: 1 Morale
    hit and 1 Casualty hit"; a working kept without its dice says it in brackets: "3 BUCS hits
    (1 Morale hit and 2 Casualty hits)"."""
    hits = plural(sum(split), "BUCS hit")
    said = "" if split == taken else taken_text(*split)
    if not dice:
        return f"{hits} ({said})" if said else hits
    rolled = " and ".join(", ".join(str(d) for d in dice).rsplit(", ", 1))
    each = "its d6" if len(dice) == 1 else "a d6 each"
    text = f"{hits}, {each} rolled {rolled} (Casualty on {CASUALTY_FROM} or more)"
    return f"{text}: {said}" if said else text


def _battle_sentence(
    reason: str,
    outcome: UnitOutcome,
    damage: Damage,
    state: CampaignUnitState,
    card_hits: int,
    after: CampaignUnitState | None = None,
) -> tuple[str, bool]:
    """What a battle did to a unit, said first ("Ford: took 1 Morale hit"), then
    the working that made it: the Hits lost, the dice, what Armor or the leader took, and, of a
    unit the table left standing that retreats all the same (``after``: the unit after the
    battle), the hits that broke it. A unit the battle did nothing to "came through unhurt",
    with no working to show: whether it did, as data, beside the sentence."""
    head = f"{LEFT_THE_TABLE[outcome.removed]} at {reason}" if outcome.removed else reason
    parts = [f"{outcome.hits_lost} of {plural(card_hits, 'Hit')} lost"]
    if outcome.hits_lost:
        taken = damage.morale_hits, damage.casualty_hits
        parts.append(
            f"{_blows_text(damage.blow_dice, card_hits)}: "
            f"{split_text(damage.split_dice, damage.split, taken)}"
        )
    if damage.shock:
        restored = ", no step lost (One Year War)" if damage.skill_restored else ""
        parts.append(
            f"{damage.shock} Skill lost to suppression: {taken_text(damage.shock, 0)}{restored}"
        )
    parts += kit_stopped_text(damage.armor_ignored, damage.excellent_ignored)
    if damage.leader_rolls and state.leader is not None:
        # The leader's wounds and, when they killed, the death and its cost, in one clause.
        rolls = "+".join(str(r) for r in damage.leader_rolls)
        took = f"{state.leader.name} took {sum(damage.leader_rolls)} damage ({rolls})"
        parts.append(f"{took} and {LEADER_DIED}" if damage.leader_died else took)
    elif damage.leader_died:
        parts.append(leader_died_text(state.leader.name if state.leader else "the leader"))
    if damage.quality_lost:
        parts.append(f"Skill lost to suppression costs {plural(damage.quality_lost, 'step')}")
    if after is not None and not outcome.removed and after.status == Status.RETREATED:
        # Still in the field at the table's end, yet out of action: BUCS's ladder broke it.
        quality = after.quality
        parts.append(
            f"{plural(after.hits, 'hit')} now break it, for {quality.article} {quality.label} "
            f"unit sustains {quality.hits_survived}, the last breaking it"
        )
    # No Hit lost and nothing else to tell: the whole working would be "0 of 2 Hits lost".
    unhurt = (
        not (outcome.removed or outcome.hits_lost or damage.morale_hits or damage.casualty_hits)
        and len(parts) == 1
    )
    took = took_text(head, damage.morale_hits, damage.casualty_hits, unhurt=unhurt)
    return (took if unhurt else f"{took} — {'; '.join(parts)}"), unhurt


def _equipment_for(
    opposing_equipment: Equipment | str | Mapping[int, Equipment | str], pk: int
) -> Equipment:
    if isinstance(opposing_equipment, Mapping):
        return Equipment(opposing_equipment.get(pk, Equipment.ADEQUATE))
    return Equipment(opposing_equipment)


def battle_time(campaign: Campaign, day: int | None, hour: int | None) -> tuple[int, int]:
    """(day, hour) a battle was fought: now by default; a battle entered for an earlier day
    without its hour counts from 00:00 of that day."""
    if day is None:
        return campaign.day, campaign.hour if hour is None else hour
    if hour is None:
        return day, campaign.hour if day == campaign.day else 0
    return day, hour


def battle_day_problem(today: int, day: Any) -> str:
    """Why ``day`` cannot be the day of a battle in a campaign on day ``today`` ("": it can)."""
    # `type(...) is int`, not isinstance: a bool is no day.
    if type(day) is int and 1 <= day <= today:
        return ""
    reached = {1: "day 1", 2: "day 1 or day 2"}.get(today, f"day 1 to day {today}")
    shown = f"day {day}" if type(day) is int else value_shown(day)
    return f"The battle's day must be a day the campaign has reached: {reached}, not {shown}."


def battle_hour_problem(hour: Any) -> str:
    """Why ``hour`` is no hour of a day ("": it is one)."""
    if type(hour) is int and 0 <= hour < HOURS_PER_DAY:  # a bool is no hour
        return ""
    return (
        f"The battle's hour must be an hour of the day, 0 to {HOURS_PER_DAY - 1}, "
        f"not {value_shown(hour)}."
    )


def battle_time_problems(campaign: Campaign, day: Any, hour: Any) -> dict[str, list[str]]:
    """What is wrong with the (day, hour) a battle was fought: it must be a time so far."""
    errors: dict[str, list[str]] = {}
    if problem := battle_day_problem(campaign.day, day):
        errors["day"] = [problem]
    if problem := battle_hour_problem(hour):
        errors["hour"] = [problem]
    elif not errors and clock_hour(day, hour) > campaign_now(campaign):
        now = clock_text(campaign_now(campaign))
        errors["hour"] = [
            f"The battle cannot have been fought after now ({now}): "
            f"{clock_text(clock_hour(day, hour))} is still to come."
        ]
    return errors


def joined_later(unit: Unit, joined: Mapping[int, int], day: Any) -> str:
    """Why ``unit`` cannot have fought on ``day`` ("" when it can): it joined the campaign on a
    later day (``joined``: `roster.units_joined`)."""
    came = joined.get(unit.pk)
    if came is None or not isinstance(day, int) or day >= came:
        return ""
    return f"{unit} joined the campaign on day {came}: it cannot have fought on day {day}"


def _validated_units(
    campaign: Campaign,
    outcomes: Mapping[int, UnitOutcome],
    winners: Any,
    opposing_equipment: Any,
    day: int,
    hour: int,
    reason: str,
    cards: Mapping[int, dict[str, Any]] | None,
    kits: Any = None,
    fought_ready: bool = False,
) -> tuple[list[Unit], dict[int, dict[str, Any]], dict[int, Equipment], set[int]]:
    """The units the outcome is for (locked), the card and kit each fought with, and the
    winners' pks; a ``ValidationError`` by field for anything wrong. ``fought_ready``: every
    unit was ready when the battle was set up, so one destroyed now was destroyed since
    (`outcome_steps`): it is no refusal, and its card is the one it fought with, or its
    library card's Hits (the bridge never changes a card's Hits)."""
    errors: dict[str, list[str]] = {}
    if not isinstance(outcomes, Mapping):
        errors["outcomes"] = ["must map each unit's pk to its UnitOutcome"]
        outcomes = {}
    elif not outcomes:
        errors["outcomes"] = ["no unit fought"]
    fought_kits = _checked_kits(errors, kits, outcomes)
    text_given(errors, "reason", reason, needed="say which battle, for the history")
    errors.update(battle_time_problems(campaign, day, hour))
    units = list(
        Unit.objects.select_for_update(of=("self",))
        .filter(pk__in=list(outcomes), force__campaign=campaign)
        .select_related("leader__character", "force")
        .order_by("pk")
    )
    found = {unit.pk for unit in units}
    for pk, outcome in outcomes.items():
        if pk not in found:
            errors.setdefault(f"outcomes.{pk}", []).append(f"no unit {pk} in {campaign}")
        if not isinstance(outcome, UnitOutcome):
            errors.setdefault(f"outcomes.{pk}", []).append("must be a UnitOutcome")
    fought_with: dict[int, dict[str, Any]] = {}
    printed = _cards_at(campaign, units, cards, day, hour, timed=not {"day", "hour"} & set(errors))
    joined = units_joined(units=units)
    for unit in units:
        if problem := joined_later(unit, joined, day):
            errors.setdefault(f"outcomes.{unit.pk}", []).append(problem)
            continue
        if fought_ready and unit.status == Status.DESTROYED:
            fought_with[unit.pk] = (cards or {}).get(unit.pk) or unit.unit_type.card
            continue
        if unit.status != Status.READY:
            errors.setdefault(f"outcomes.{unit.pk}", []).append(
                f"{unit} is {unit.state.status.label}: it could not have fought"
            )
            continue
        if cards and unit.pk in cards:
            card = cards[unit.pk]
        else:
            card = printed[unit.pk].card
            # "Counts as Poor": the kit it fought its Orders with, unless the caller said.
            fought_kits.setdefault(unit.pk, printed[unit.pk].going.equipment)
        fought_with[unit.pk] = card
        outcome = outcomes[unit.pk]
        if isinstance(outcome, UnitOutcome):
            for _, problem in outcome_problems(card, outcome, campaign.ruleset):
                errors.setdefault(f"outcomes.{unit.pk}", []).append(f"{unit}: {problem}")
        try:
            _equipment_for(opposing_equipment, unit.pk)
        except ValueError:
            errors.setdefault("opposing_equipment", []).append(f"unknown rating for {unit}")
    won_by = _winner_pks(winners, errors)
    if stray := won_by - set(outcomes):
        errors["winners"] = [f"units {sorted(stray)} have no outcome"]
    if errors:
        raise ValidationError(errors)
    return units, fought_with, fought_kits, won_by


def _cards_at(
    campaign: Campaign,
    units: list[Unit],
    cards: Mapping[int, dict[str, Any]] | None,
    day: int,
    hour: int,
    *,
    timed: bool,
) -> dict[int, GoingInto]:
    """How each ready unit not in ``cards`` went into the battle: the bridge's card and kit,
    from its Orders under way at the battle's hour (`going_in.units_going_in`). No side is
    known here, so each unit goes in on its own, under no Legendary unit's command."""
    at = clock_hour(day, hour) if timed else campaign_now(campaign)
    alone = {
        unit.pk: [unit]
        for unit in units
        if unit.status == Status.READY and not (cards and unit.pk in cards)
    }
    return units_going_in(campaign, alone, at=at)


def _winner_pks(winners: Any, errors: dict[str, list[str]]) -> set[int]:
    """The pks of the winning side's units; anything else is refused under ``winners``."""
    if isinstance(winners, str | bytes | Mapping) or not isinstance(winners, Iterable):
        errors["winners"] = ["must list the pks of the winning side's units"]
        return set()
    pks = list(winners)
    if any(isinstance(pk, bool) or not isinstance(pk, int) for pk in pks):
        errors["winners"] = ["must list the pks of the winning side's units"]
        return set()
    return set(pks)


def _checked_kits(
    errors: dict[str, list[str]], kits: Any, outcomes: Mapping[int, Any]
) -> dict[int, Equipment]:
    """The kit each unit fought with (``kits``), each a rating, for a unit with an outcome:
    every problem goes into `errors` under ``kits`` or ``kits.<pk>``."""
    if kits is None:
        return {}
    if not isinstance(kits, Mapping):
        errors["kits"] = ["must map units to the equipment rating each fought with"]
        return {}
    checked: dict[int, Equipment] = {}
    ratings = or_words([e.label for e in Equipment])
    for pk, kit in kits.items():
        if pk not in outcomes:
            errors.setdefault(f"kits.{pk}", []).append(f"unit {pk} has no outcome")
        try:
            checked[pk] = Equipment(kit)
        except ValueError:
            errors.setdefault(f"kits.{pk}", []).append(
                f"not an equipment rating: {given(kit)}; one of {ratings}"
            )
    return checked


@dataclass(frozen=True)
class OutcomeStep:
    """One change an outcome makes to a unit: the state after it, and its history entry."""

    unit: Unit
    state: CampaignUnitState
    kind: str
    why: str
    details: dict[str, Any] | None = None
    always: bool = False
    note: str = ""
    """What the GM's review says of the unit beside the table ("" for nothing): a unit
    destroyed since the battle was fought takes nothing from it."""
    at: int | None = None
    """The clock hour it happened, when not the battle's: its Casualty hits found too late died
    as their 24 hours ran out."""


def destroyed_since_text(unit: Unit, battle: str) -> str:
    """Why a unit takes nothing from a battle it fought: it was destroyed since, in a sentence
    naming it ("Doomed has been destroyed since Ford was fought: it takes nothing from it")."""
    return f"{unit} has been destroyed since {battle} was fought: it takes nothing from it"


def outcome_seed(
    *,
    day: int,
    reason: str,
    battle: Any,
    units: Iterable[Unit],
    outcomes: Mapping[int, UnitOutcome],
) -> str:
    """The default seed of a battle's outcome dice, from the battle itself: its day, its name,
    its engine seed (a table battle has none) and each unit that fought, by force and name,
    with its outcome. Never a database id, so the same campaign built again, or exported and
    imported, rolls the same dice."""
    engine_seed = getattr(battle, "seed", None)
    fought = [(unit.force.name, unit.name, outcomes[unit.pk]) for unit in units]
    return f"{day}:{reason.strip()}:{engine_seed}:{fought!r}"


def outcome_steps(
    *,
    campaign: Campaign,
    outcomes: Mapping[int, UnitOutcome],
    winners: Collection[int] = (),
    opposing_equipment: Equipment | str | Mapping[int, Equipment | str] = Equipment.ADEQUATE,
    day: int | None = None,
    hour: int | None = None,
    reason: str,
    battle: Any = None,
    seed: int | str | None = None,
    cards: Mapping[int, dict[str, Any]] | None = None,
    kits: Mapping[int, Equipment | str] | None = None,
    fought_ready: bool = False,
) -> list[OutcomeStep]:
    """What applying an outcome does to each unit, step by step, without writing anything.

    The one computation behind `outcome_apply` and the review a GM reads before it: the dice
    come from `seed` (by default `outcome_seed`, from the battle and the units that fought), so
    the review shows exactly what Apply will then do. Refuses (``ValidationError``) what
    `outcome_apply` refuses. ``fought_ready``: see `outcome_apply`.
    """
    day, hour = battle_time(campaign, day, hour)
    now = campaign_now(campaign)
    units, fought_with, fought_kits, won_by = _validated_units(
        campaign, outcomes, winners, opposing_equipment, day, hour, reason, cards, kits,
        fought_ready,
    )  # fmt: skip
    # The dice go round the units in an order of their own names, not of their row ids.
    units.sort(key=lambda unit: (unit.force.name, unit.name))
    if seed is None:
        seed = outcome_seed(day=day, reason=reason, battle=battle, units=units, outcomes=outcomes)
    d6 = Dice(seed).d6

    restored = skill_restored_after(campaign.ruleset)
    steps: list[OutcomeStep] = []
    for unit in units:
        outcome = outcomes[unit.pk]
        faced = _equipment_for(opposing_equipment, unit.pk)
        before = unit.state
        card_hits = fought_with[unit.pk]["hits"]
        gone = before.destroyed  # since the battle was fought (`_validated_units`)
        won = unit.pk in won_by
        state, damage = outcome_damage(
            # The dead take nothing, but their dice are rolled all the same: every other unit
            # takes the dice it had while they lived, whenever the GM applies the battle.
            before.but(status=Status.READY) if gone else before,
            outcome,
            card_hits=card_hits,
            skill_restored=restored,
            opposing_equipment=faced,
            day=day,
            hour=hour,
            d6=d6,
            equipment=fought_kits.get(unit.pk),
            won=won,
            fight=reason.strip(),
        )
        if gone:
            note = destroyed_since_text(unit, reason.strip())
            why = f"{reason.strip()}: destroyed since it fought there, it takes nothing from it"
            details = {"outcome": outcome.to_dict(), "reason": reason.strip(), "won": won,
                       "unhurt": False}  # fmt: skip
            steps.append(OutcomeStep(unit, before, Kind.BATTLE, why, details, True, note))
            continue
        why, unhurt = _battle_sentence(
            reason.strip(), outcome, damage, before, card_hits, after=state
        )
        details = {
            "outcome": outcome.to_dict(),
            "reason": reason.strip(),
            "card_hits": card_hits,
            "opposing_equipment": faced.value,
            "won": won,
            "damage": damage.to_json(),
            "seed": str(seed),
            "unhurt": unhurt,  # the battle did nothing to it (`recovery._fight_story`)
        }
        leader = getattr(unit, "leader", None)
        if leader is not None and (most := leader_most_hit_points(leader)) is not None:
            # For the words of its history and its battle's changes, whoever leads it later:
            # "3 of 14 hit points".
            details["leader_most_hit_points"] = most
        steps.append(OutcomeStep(unit, state, Kind.BATTLE, why, details, always=True))
        dead = 0
        if damage.casualty_hits and found_too_late(clock_hour(day, hour), now):
            # Only this battle's: hits of a later one awaiting the medics keep their 24 hours.
            state, dead = casualties_found_too_late(
                state, damage.casualty_hits, damage.quality_lost
            )
            fate = battle_fate_text(reason.strip(), outcome.removed)
            why = f"{fate}; {plural(dead, 'Casualty hit')} found too late died"
            closed = clock_hour(day, hour) + MEDICAL_WINDOW_HOURS
            # The battle's name as data: where a unit its dead destroyed fell (`destroyed_where`).
            details = {"name": reason.strip()}
            steps.append(OutcomeStep(unit, state, Kind.CASUALTIES, why, details, at=closed))
        state, earned = experience_earn(
            state,
            won=won,
            quality_lost=damage.quality_lost > 0 or dead > 0,
        )
        if earned.points:
            # Always told: points held just short of a step the unit already stood at change
            # nothing, yet its player should read that it learnt and why it did not rise.
            why = earned_text(reason.strip(), earned)
            # The battle's name as data, the link on the unit's page (`history.fight_lead`).
            details = {"points": earned.points, "name": reason.strip()}
            steps.append(OutcomeStep(unit, state, Kind.EXPERIENCE, why, details, always=True))
    return steps


@transaction.atomic
def outcome_apply(
    *,
    campaign: Campaign,
    outcomes: Mapping[int, UnitOutcome],
    winners: Collection[int] = (),
    opposing_equipment: Equipment | str | Mapping[int, Equipment | str] = Equipment.ADEQUATE,
    day: int | None = None,
    hour: int | None = None,
    reason: str,
    battle: Any = None,
    seed: int | str | None = None,
    actor: Any = None,
    cards: Mapping[int, dict[str, Any]] | None = None,
    kits: Mapping[int, Equipment | str] | None = None,
    fought_ready: bool = False,
) -> list[HistoryEntry]:
    """Apply a battle's outcome to every persistent unit that fought, with history entries.

    `outcomes` maps unit pks to what happened to each; `winners` holds the pks of the units on
    the winning side (empty for a draw); `opposing_equipment` is the best rating each unit
    faced (one rating for all, or a mapping by pk; see `best_equipment`). `day` and `hour` (when
    it was fought) default to now (a past day without its hour: 00:00 of it); a battle entered
    more than 24 hours late finds its medical window closed, so its Casualty hits die at once
    (only its own: a later battle's awaiting the medics keep their window).
    The dice come from `seed` (by default derived from the inputs), so the
    same inputs always give the same result. `cards` maps unit pks to the card each fought
    with (as the battle's scenario printed it); a unit not in it is judged by the card the
    bridge prints for it at the battle's hour, from the Orders under way then. `kits` maps unit
    pks to the kit each fought with (`bridge.fought_kit`; a rating or its name), what Excellent
    kit's special goes by; a unit not in it, its own.
    Every outcome must be possible on its card.
    ``fought_ready``: every unit was ready when the battle was set up (a campaign battle,
    launched or recorded, `campaign_battle_outcome`), so a unit destroyed now was destroyed
    since it fought: its dead fight no more, and it takes nothing from the battle (its entry
    says so, `destroyed_since_text`), while the others take theirs. Otherwise a unit out of
    action could not have fought, and the outcome is refused.
    """
    require_manager(campaign, actor)
    # The campaign as stored, not as the caller last saw it: its day may have moved on.
    campaign = Campaign.objects.select_for_update(of=("self",)).get(pk=campaign.pk)
    steps = outcome_steps(
        campaign=campaign,
        outcomes=outcomes,
        winners=winners,
        opposing_equipment=opposing_equipment,
        day=day,
        hour=hour,
        reason=reason,
        battle=battle,
        seed=seed,
        cards=cards,
        kits=kits,
        fought_ready=fought_ready,
    )
    day, hour = battle_time(campaign, day, hour)
    entries: list[HistoryEntry] = []
    for step in steps:
        entry = unit_change(
            unit=step.unit,
            state=step.state,
            kind=step.kind,
            why=step.why,
            day=day,
            battle=battle,
            actor=actor,
            details=step.details,
            always=step.always,
            hour=clock_hour(day, hour) if step.at is None else step.at,
        )
        if entry is not None:
            entries.append(entry)
    notices_after_commit(campaign)
    return entries
