"""Writes for battle outcomes: apply the bridge to every unit that fought, or undo it.

The battles app (or a GM entering a battle fought at a real table) calls `outcome_apply` inside
its own transaction, after claiming the battle so that an outcome is applied exactly once.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import transaction

from battles.engine.events import Removal
from campaign.models import Campaign, Character, Force, HistoryEntry, Leader, Unit
from campaign.rules.bridge import (
    CASUALTY_FROM,
    LEADER_DIED,
    LEFT_THE_TABLE,
    Damage,
    UnitOutcome,
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
from campaign.rules.history import (
    fight_named,
    plural,
    possessive,
    taken_text,
    took_text,
    undone_text,
)
from campaign.rules.orders import HOURS_PER_DAY, clock_hour, clock_text, clock_time
from campaign.rules.recovery import (
    MEDICAL_WINDOW_HOURS,
    casualties_die,
    casualties_found_too_late,
    found_too_late,
    medical_window_closes,
    state_problems,
)
from campaign.rules.state import SNAPSHOT_FIELDS, CampaignUnitState, Status, snapshot_replay
from campaign.selectors import (
    campaign_now,
    leader_most_hit_points,
    undo_blockers,
    undo_refused,
    units_joined,
)
from campaign.services._record import (
    SAME_CHARACTER,
    SameCharacter,
    locked,
    require_manager,
    text_given,
    unit_change,
)
from campaign.services.notices import notices_after_commit
from campaign.services.roster import unit_move_problems, unit_zone_refusal
from units.bucs import Equipment
from units.models import new_version
from units.words import a_or_an, given, or_words, value_shown

if TYPE_CHECKING:
    from campaign.services.going_in import GoingInto

Kind = HistoryEntry.Kind
UNREVERTABLE = frozenset({Kind.CREATED, *HistoryEntry.ASIDE})


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


def battle_fate_text(reason: str, removed: str) -> str:
    """How a unit left a battle, in words: "taken out at Second Crossing", "at the Ford"."""
    if removed == Removal.DESTROYED:
        return f"taken out at {reason}"
    if removed == Removal.DEMORALISED:
        return f"broken at {reason}"
    return f"at {reason}"


def _blows_text(dice: tuple[int, ...], card_hits: int) -> str:
    """How the Hits lost became BUCS hits, in words (`bridge.blow_hits`): "a d6 for each Hit
    lost rolled 6 and 5, divided by the card's 4 Hits, rounded up"; blows held to the most one
    battle's deal (`bridge.blows_held`) say so: "…, rounded up, 8 in all, held to 6, the most
    a card's blows deal"."""
    rolled = " and ".join(", ".join(str(d) for d in dice).rsplit(", ", 1))
    each = "the Hit lost" if len(dice) == 1 else "each Hit lost"
    if card_hits == 1:
        return f"a d6 for {each} rolled {rolled}"
    text = f"a d6 for {each} rolled {rolled}, divided by the card's {card_hits} Hits, rounded up"
    if (dealt := blows_dealt(dice, card_hits)) > (held := blows_held(dice, card_hits)):
        text += f", {dealt} in all, held to {held}, the most a card's blows deal"
    return text


def _split_text(dice: tuple[int, ...], split: tuple[int, int], taken: tuple[int, int]) -> str:
    """How the BUCS hits split into Morale and Casualty, with the die that split each
    (`bridge.CASUALTY_FROM`): "3 BUCS hits, a d6 each rolled 5, 2 and 4 (Casualty on 4 or
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
            f"{_split_text(damage.split_dice, damage.split, taken)}"
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
    later day (``joined``: `selectors.units_joined`)."""
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
    # Imported here: the Orders' module reaches this one (through the calendar's).
    from campaign.services.going_in import units_going_in

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


REVERT_REASON_NEEDED = "say why the change is undone: it goes into every unit's history"
"""What a revert without a reason is refused with, by the service and by its forms."""


Fight = tuple[str, str, str | None]
"""A fight as a revert names it (`undone_text`): "battle" or "engagement", its name, and the
units an engagement the GM did not name is named by ("" for a fight named otherwise; None for
an engagement's entry saved before it kept them)."""


@transaction.atomic
def outcome_revert(
    *,
    entries: Iterable[HistoryEntry],
    reason: str,
    actor: Any = None,
    fight: Fight | None = None,
) -> list[HistoryEntry]:
    """Undo history entries (an applied outcome, say), newest first, as new revert entries.

    Each entry's fields go back to their `before` values. Nothing is written if `revert_plan`,
    judging the units held locked, finds a problem (a unit changed since in a field the entries
    touched, an entry reverted already...), or without a reason. Each revert says in words what
    it undid (`undone_text`): the entries of one ``fight`` (`Fight`: "battle" or "engagement",
    and its name) by its name; without it, the one fight the entries' own battle or engagement
    entries name, if they name one.

    Casualty hits a revert gives back (a medics' save undone, say) come back in the medical
    window they were in: if that window has closed since, they die as the clock would have had
    them die, in the same transaction, with the closing window's entry (`casualties_die`), for
    a unit never carries old Casualty hits.
    """
    chosen = sorted({entry.pk: entry for entry in entries}.values(), key=lambda e: e.pk)
    chosen.reverse()
    errors: dict[str, list[str]] = {}
    text_given(errors, "reason", reason, needed=REVERT_REASON_NEEDED)
    if not chosen:
        errors["entries"] = ["nothing to revert"]
    campaigns = {entry.unit.force.campaign_id for entry in chosen}
    if len(campaigns) > 1:
        errors["entries"] = ["entries from more than one campaign"]
    units = {
        unit.pk: unit
        for unit in Unit.objects.select_for_update(of=("self",))
        .filter(pk__in={entry.unit_id for entry in chosen})
        .select_related("leader__character", "force__campaign")
    }
    if chosen:
        require_manager(units[chosen[0].unit_id].force.campaign, actor)
    # Judged again under the lock: the page that offered the revert read the units before.
    plan = revert_plan(entries=chosen, units=units)
    for field, problems in plan.problems.items():
        errors.setdefault(field, []).extend(problems)
    if errors:
        raise ValidationError(errors)

    if fight is None:
        named = {_fight_of(entry) for entry in chosen} - {None}
        fight = named.pop() if len(named) == 1 else None
    reverted: list[HistoryEntry] = []
    for entry in chosen:
        unit = units[entry.unit_id]
        if entry.pk in plan.moved_back:
            unit.force = plan.moved_back[entry.pk]  # saved with its state, as the move saved it
            notices_after_commit(unit.force.campaign)
        state = CampaignUnitState.from_json({**unit.state.to_json(), **entry.before})
        undid = revert_undid(entry, fight, state)
        written = unit_change(
            unit=unit,
            state=state,
            kind=Kind.REVERT,
            why=f"{reason.strip()}: {undone_text(**undid)}",
            day=unit.force.campaign.day,
            # Its reason and what it undid as data, for the pages that link the fight's name.
            details={"reason": reason.strip(), "undid": undid},
            battle=entry.battle,
            actor=actor,
            reverts=entry,
            always=True,
            character=_relinked(entry, state),
        )
        assert written is not None
        reverted.append(written)
    if plan.closing:
        reverted += _casualties_given_back_die(units, plan.closing, actor)
    _crews_redrawn(chosen, units)
    return reverted


def _crews_redrawn(entries: Iterable[HistoryEntry], units: Mapping[int, Unit]) -> None:
    """The crews whose work a reverted medical entry names have their day's work back
    (`selectors.medics_worked`): a new version token, so their force's page, kept as drawn,
    is drawn again. The unit treated may be in another force by now; the units written have
    new tokens already."""
    crews = {
        int(pk)
        for entry in entries
        if entry.kind == Kind.MEDICAL and isinstance(named := entry.details.get("crews"), dict)
        for pk in named
    }
    Unit.objects.filter(pk__in=crews - set(units)).update(version=new_version())


@dataclass(frozen=True)
class RevertPlan:
    """What a revert of some entries would do, judged without writing (`revert_plan`)."""

    problems: dict[str, list[str]]
    """Why it would be refused, by "entries.<id>" (the entry refused): empty when it would not."""
    moved_back: dict[int, Force]
    """By entry: the force a move undone takes the unit back to."""
    closing: dict[int, int]
    """By unit: the clock hour now, for each unit whose Casualty hits given back die at once."""


def revert_plan(
    *, entries: Iterable[HistoryEntry], units: Mapping[int, Unit] | None = None
) -> RevertPlan:
    """Judge a revert of ``entries`` as the units stand now, writing nothing: the one judgement
    `outcome_revert` makes (with ``units`` it holds locked) before it writes, and a page makes
    (reading the units itself) to say why not before the GM presses anything.

    Refused: an entry that stays (a unit's raising, a revert), or reverted already; a unit that
    has changed since in a field the entries touched (undo the later change first); Casualty
    hits that would come back in another medical window than theirs; a leader's character who
    cannot lead the unit again (`_relink_problem`); a force or a combat zone the unit could not
    be sent to now (`_undo_problems`); a state no run of the rules leaves (`state_problems`).
    """
    chosen = sorted({entry.pk: entry for entry in entries}.values(), key=lambda e: e.pk)
    chosen.reverse()
    if units is None:
        units = {
            unit.pk: unit
            for unit in Unit.objects.filter(
                pk__in={entry.unit_id for entry in chosen}
            ).select_related("leader__character", "force__campaign")
        }
    errors: dict[str, list[str]] = {}
    current = {pk: unit.state.to_json() for pk, unit in units.items()}
    moved_back: dict[int, Force] = {}
    last_of: dict[int, HistoryEntry] = {}
    for entry in chosen:
        last_of.setdefault(entry.unit_id, entry)
        field = f"entries.{entry.pk}"
        if entry.kind in UNREVERTABLE:
            label = entry.get_kind_display()
            errors.setdefault(field, []).append(f"{a_or_an(label)} {label} entry stays")
        if HistoryEntry.objects.filter(reverts=entry).exists():
            errors.setdefault(field, []).append("reverted already")
        snapshot = current[entry.unit_id]
        if any(
            name in SNAPSHOT_FIELDS
            and snapshot.get(name) != value
            and not _only_renamed(entry, name, snapshot.get(name), value)
            for name, value in entry.after.items()
        ):
            errors.setdefault(field, []).append(
                f"{units[entry.unit_id]} has changed since: undo that first"
            )
        hits = snapshot.get("casualty_hits", 0)
        snapshot.update(entry.before)
        if snapshot.get("casualty_hits", 0) > hits and _window_moved(entry, snapshot):
            errors.setdefault(field, []).append(
                f"{possessive(str(units[entry.unit_id]))} Casualty hits would come back in "
                "another medical "
                "window than theirs (a fight since, or a correction that opened a new one): undo "
                "that first"
            )
        if problem := _relink_problem(entry, snapshot, units[entry.unit_id]):
            errors.setdefault(field, []).append(problem)
        if problems := _undo_problems(entry, units[entry.unit_id], moved_back):
            errors.setdefault(field, []).extend(problems)
    closing = {} if errors else _windows_closed_since(units, current, last_of, errors)
    return RevertPlan(problems=errors, moved_back=moved_back, closing=closing)


@transaction.atomic
def entry_undo(*, entry: HistoryEntry, reason: str, actor: Any = None) -> HistoryEntry | None:
    """The GM's Undo of a unit's latest change that came from no fight (`UNDO_KINDS`: a
    correction, the medics' work, a training, a Strategist's rally, a move to another force, a
    change of combat zone, a change of leader), as one revert entry (`outcome_revert`, which
    judges and writes it): every field it changed goes back to what it was before it (the force
    it left, the character who led it), the undone entry shown as undone.

    Only the unit's latest entry that still stands can be undone (`undo_blockers`): what came
    after it was built on it, and is undone first. An entry undone already is left as it is,
    and None says so: an Undo sent twice changes nothing the second time.
    """
    unit = locked(entry.unit, "force__campaign")  # held to the end, as the revert holds it
    require_manager(unit.force.campaign, actor)
    if HistoryEntry.objects.filter(reverts=entry).exists():
        return None
    errors: dict[str, list[str]] = {}
    text_given(errors, "reason", reason, needed=REVERT_REASON_NEEDED)
    if refused := undo_refused(entry):
        errors["entry"] = [refused]
    elif later := undo_blockers(entry=entry):
        what = "; ".join(f"{Kind(e.kind).label} on day {e.day}" for e in later)
        errors["entry"] = [f"{unit.name} has changed since ({what}): undo that first"]
    if errors:
        raise ValidationError(errors)
    return outcome_revert(entries=[entry], reason=reason, actor=actor)[0]


def _undo_problems(entry: HistoryEntry, unit: Unit, moved_back: dict[int, Force]) -> list[str]:
    """Why the unit cannot be put back as it was before ``entry``, beyond its fields: a move
    to another force goes back to the force it left (into ``moved_back``, by the entry) only as
    a move there could go (`roster.unit_move_problems`); a change of combat zone goes back only
    as the unit could be sent there now (`roster.unit_zone_refusal`: not while it is in a battle
    not yet applied). None when it can."""
    if (moved := entry.moved) is not None:
        left = Force.objects.filter(pk=moved.get("from"), campaign_id=unit.force.campaign_id)
        force = left.first()
        if force is None:
            return [f"the force {unit.name} left is gone from {unit.force.campaign}"]
        if unit.force_id != moved.get("to"):
            return [f"{unit.name} has moved to another force since: undo that first"]
        moved_back[entry.pk] = force
        return unit_move_problems(unit, force)
    if entry.kind == Kind.DEPLOYMENT and "in_combat_zone" in entry.before:
        refused = unit_zone_refusal(unit, bool(entry.before["in_combat_zone"]))
        return [refused] if refused else []
    return []


def _only_renamed(entry: HistoryEntry, field: str, now: Any, then: Any) -> bool:
    """Whether the unit's leader (``now``) is the one ``entry`` left (``then``) under another
    name: its character renamed since (`Character.save`), which writes no history, and no
    entry of the unit since touching its leader. Not a change to undo first."""
    if field != "leader" or not (isinstance(now, dict) and isinstance(then, dict)):
        return False
    if {**now, "name": ""} != {**then, "name": ""}:
        return False
    since = HistoryEntry.objects.filter(unit_id=entry.unit_id, pk__gt=entry.pk)
    return not since.filter(after__has_key="leader").exists()


def _window_moved(entry: HistoryEntry, snapshot: Mapping[str, Any]) -> bool:
    """Whether the unit's medical window, once ``entry`` is undone (``snapshot``), is no longer
    the one it had just before the entry: Casualty hits it gives back would come back in
    another window than theirs. A fight since is one too, though it opened none (it left no
    Casualty hits, `recovery.window_after_battle`): fought without them, it is not among the
    window's fights, whose experience its closing counts again (`window.window_settled`)."""
    then = snapshot_replay(
        HistoryEntry.objects.filter(unit_id=entry.unit_id, pk__lt=entry.pk)
        .order_by("pk")
        .values_list("after", flat=True)
    )
    window = ("window_from", "window_fights", "battles_fought")
    return any(then.get(name) != snapshot.get(name) for name in window)


def _windows_closed_since(
    units: Mapping[int, Unit],
    reverted: Mapping[int, dict[str, Any]],
    last_of: Mapping[int, HistoryEntry],
    errors: dict[str, list[str]],
) -> dict[int, int]:
    """The units whose Casualty hits the reverts give back (``reverted``: each unit's snapshot
    once they are done) in a medical window that has closed since, each with the clock hour
    now: their hits die (`_casualties_given_back_die`). What the reverts (and those deaths)
    would leave that no run of the rules leaves (`state_problems`), and the unit did not carry
    already, goes into ``errors`` at the unit's newest entry."""
    closing: dict[int, int] = {}
    for pk, snapshot in reverted.items():
        unit = units[pk]
        now = campaign_now(unit.force.campaign)
        closed = _given_back_died(CampaignUnitState.from_json(snapshot), now)
        if len(closed) > 1:  # some closed before now: they die at once
            closing[pk] = now
        state = closed[-1][0]
        had = state_problems(unit.state, now)
        for name, problem in state_problems(state, now).items():
            if had.get(name) != problem:
                errors.setdefault(f"entries.{last_of[pk].pk}", []).append(problem)
    return closing


def _given_back_died(
    state: CampaignUnitState, now: int
) -> list[tuple[CampaignUnitState, int, int]]:
    """(state, closes, dead) after each closing, in order, of the 24 hours of Casualty hits a
    revert gave back that ended before clock hour ``now`` (`casualties_die`), after the state
    as it was given back: (state, 0, 0)."""
    closed = [(state, 0, 0)]
    while (
        (closes := medical_window_closes(state)) is not None
        and closes < now
        and not state.destroyed
    ):
        state, dead = casualties_die(state, closes)
        closed.append((state, closes, dead))
    return closed


def _casualties_given_back_die(
    units: Mapping[int, Unit], closing: Mapping[int, int], actor: Any
) -> list[HistoryEntry]:
    """The Casualty hits the reverts gave back in a medical window that has closed since die, as
    they would have when it closed (``closing``: each unit's clock hour now), each battle's as
    its own 24 hours ended: each closing's entry, dated that day, says so and why."""
    # Imported here: the calendar's module imports this one.
    from campaign.services.recovery import casualties_died_text, closing_details

    died: list[HistoryEntry] = []
    for pk, now in closing.items():
        unit = units[pk]
        for state, closes, dead in _given_back_died(unit.state, now)[1:]:
            suffix = (
                f" (given back by a revert after their medical window closed at "
                f"{clock_text(closes)})"
            )
            entry = unit_change(
                unit=unit,
                state=state,
                kind=Kind.CASUALTIES,
                why=casualties_died_text(unit, dead, suffix),
                day=clock_time(closes)[0],
                actor=actor,
                hour=closes,
                details=closing_details(unit),
            )
            assert entry is not None
            died.append(entry)
    if died:
        notices_after_commit(units[next(iter(closing))].force.campaign)
    return died


def _fight_of(entry: HistoryEntry) -> Fight | None:
    """The fight a battle's or an engagement's own entry names: ("battle", its name, "")."""
    if entry.kind == Kind.BATTLE:
        return ("battle", entry.details.get("reason", ""), "")
    if entry.kind in (Kind.ENGAGEMENT, Kind.QUICK_RESOLVE):
        by_units = entry.details.get("by_units")
        by_units = by_units if isinstance(by_units, str) else None
        return ("engagement", fight_named(entry.kind, entry.details, entry.text), by_units)
    return None


def revert_undid(
    entry: HistoryEntry, fight: Fight | None, state: CampaignUnitState
) -> dict[str, Any]:
    """What reverting ``entry`` undoes, as `undone_text` says it (its arguments), the fight it
    came from named (``fight``, else the one ``entry`` names); of experience that changed
    nothing, the experience the unit (``state``, after the revert) keeps, as a revert that
    gives points back says them."""
    noun, name, by_units = fight or _fight_of(entry) or ("", "", "")
    kept = state.experience if "experience" not in entry.after else None
    return {"kind": entry.undo_kind, "day": entry.day, "fight": noun, "name": name,
            "kept": kept, "by_units": by_units}  # fmt: skip


def _relinked(entry: HistoryEntry, state: CampaignUnitState) -> int | SameCharacter | None:
    """The character a revert links the unit's leader row to: the one who led it before the
    leader entry undone (the character who left, for a detach; the dead one replaced, for a
    new leader), None for a leader who is no campaign character. `SAME_CHARACTER` for any other
    entry (a heal, a battle), or when the unit has no leader again."""
    if entry.kind != Kind.LEADER or state.leader is None:
        return SAME_CHARACTER
    before = entry.before.get("leader")
    if "leader" in entry.after and entry.after["leader"] is None:
        character = entry.details.get("character")
    elif isinstance(before, Mapping) and before.get("alive") is False:
        # A new leader in place of the dead: an entry from before the dead were named names
        # no one, and the row then links no one rather than the new leader.
        character = entry.details.get("replaced")
    else:
        return SAME_CHARACTER
    # A force imported from another campaign names its old characters: nobody to put back.
    return character if isinstance(character, int) and not isinstance(character, bool) else None


def _relink_problem(entry: HistoryEntry, restored: Mapping[str, Any], unit: Unit) -> str:
    """Why the character a reverted leader entry puts back cannot lead the unit again, or ""."""
    state = CampaignUnitState.from_json(dict(restored))
    character_pk = _relinked(entry, state)
    if character_pk is None or isinstance(character_pk, SameCharacter):
        return ""
    character = Character.objects.filter(
        pk=character_pk, campaign_id=unit.force.campaign_id
    ).first()
    if character is None:
        name = state.leader.name if state.leader is not None else "the character"
        return f"{name}, who led {unit.name}, is gone from {unit.force.campaign}"
    led = Leader.objects.filter(character=character).exclude(unit=unit)
    if (other := led.select_related("unit__force").first()) is not None:
        # Named, with the way out, as joining a unit says it (`roster.leader_attach`).
        return (
            f"{character} leads {other.unit.name} ({other.unit.force.name}) now: detach them "
            f"on {possessive(other.unit.name)} page first"
        )
    if state.leader is not None and state.leader.alive and not character.alive:
        return f"{character} is dead"
    return ""
