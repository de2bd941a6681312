"""Campaign battles: field persistent units through the bridge, then apply the outcome once.

A battle is fought by the engine on a worker (``campaign_battle_launch``) or at a real table
(``campaign_battle_record``); either way its outcome reaches the units through the same bridge
(``campaign_battle_apply``), exactly once: the state column moves by conditional updates inside
the transaction that writes the history, so a second attempt finds nothing to do.
"""

from __future__ import annotations

import contextlib
import copy
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.text import slugify

from battles.engine import parse_scenario
from battles.engine.events import Removal
from battles.models import Battle, OddsRun
from battles.names import scenario_names
from battles.odds import ODDS_DEFAULT_BATTLES, odds_launch
from battles.refusals import WorkRefused
from battles.services import BattleInputError, battle_launch
from campaign.models import AskedOdds, Campaign, CampaignBattle, HistoryEntry, Unit
from campaign.pages.left_out import still_in_battle
from campaign.pages.sides import battle_sides, scenario_side_names
from campaign.rules.bridge import fought_card, fought_kit, paradrops
from campaign.rules.damage import TableResult, UnitOutcome, outcome_problems
from campaign.rules.history import sentence
from campaign.rules.orders import clock_hour
from campaign.rules.state import CampaignUnitState, Status, quality_name, snapshot_diff
from campaign.selectors.battle_setup import campaign_battle_launched
from campaign.selectors.roster import campaign_now, engaged_units, units_joined
from campaign.services._record import (
    forces_on_both_sides,
    made_once,
    require_manager,
    review_changed,
    review_token,
    text_given,
    units_stored,
)
from campaign.services.deployment import deployment_place, deployment_spots, deployment_words
from campaign.services.going_in import GoingInto, units_going_in
from campaign.services.outcomes import (
    battle_time,
    battle_time_problems,
    joined_later,
    opposing_equipment_by_side,
    outcome_apply,
    outcome_steps,
)
from campaign.services.reverts import Fight, outcome_revert
from units.words import given, possessive, value_shown

NOTIFY_TASK = "campaign.tasks.campaign_battle_finished"


@dataclass(frozen=True)
class Deployment:
    """One persistent unit placed on a side of a battle."""

    unit: Unit
    side: str
    position: tuple[float, float] | None
    """None: the first free deployment spot of its side that it may stand on, facing as the
    spot does (`deployment_place`)."""
    facing: float = 0.0
    order: dict[str, Any] | None = field(default_factory=lambda: {"kind": "attack"})
    """The set-up's standing Order; None: it goes in without one (Raw and Green then hold in
    place). A character's Order under way for the unit takes its place (`deployment_order`)."""


def campaign_battle_launch(
    *,
    campaign: Campaign,
    base: Mapping[str, Any],
    deployments: Sequence[Deployment],
    name: str = "",
    turn_limit: int | None = None,
    seed: int | None = None,
    request_key: uuid.UUID | None = None,
    actor: Any = None,
    queued: bool = True,
) -> CampaignBattle:
    """Print each unit's battle card into the base scenario and launch it on the workers
    (``queued`` False: the caller fights it itself, `battle_launch`).

    ``base`` gives the table, terrain, buildings, objectives and the two sides (their units are
    replaced by the deployments). A repeated request with the same ``request_key`` returns the
    battle the first one launched.
    """
    require_manager(campaign, actor)
    launched = partial(
        campaign_battle_launched, campaign=campaign, user=actor, request_key=request_key
    )
    if existing := launched():
        return existing
    with _launch_refusals(), transaction.atomic():
        # Its day as stored, not as last seen; gone, if a deletion took it while the GM set up.
        held = campaign_held(campaign.pk)
        if held is None:
            raise ValidationError(f"{campaign} is deleted: the battle was not launched.")
        campaign = held
        try:
            # Each unit as stored, locked until the battle holds it: never the caller's copy.
            scenario, sides, engine_units, orders = campaign_battle_scenario(
                campaign, base, deployments, turn_limit, lock=True
            )
        except ValidationError:
            # The same request, launched a moment ago by another: its units are in battle now.
            if existing := launched():
                return existing
            raise
        battle = battle_launch(
            name=name or scenario["name"],
            scenario=scenario,
            seed=seed,
            created_by=actor,
            notify_task=NOTIFY_TASK,
            # The campaign's own budget counts every battle launched for it.
            campaign_battles=Battle.objects.filter(
                id__in=CampaignBattle.objects.filter(campaign=campaign).values("battle_id")
            ),
            request_key=request_key,
            queued=queued,
        )
        # The battle's request key is the launch's: a battle found by it (the same request
        # at the same moment) is the other request's campaign battle.
        if existing := CampaignBattle.objects.filter(battle=battle).first():
            return existing
        return CampaignBattle.objects.create(
            campaign=campaign,
            name=battle.name,
            day=campaign.day,
            hour=campaign.hour,
            battle=battle,
            sides=sides,
            engine_units=engine_units,
            orders=orders,
            created_by=actor,
        )


@contextlib.contextmanager
def _launch_refusals():
    """A launch the battles app refuses (over a budget, or a scenario it cannot fight), as the
    ``ValidationError`` the campaign's services raise."""
    try:
        yield
    except WorkRefused as exc:
        raise ValidationError({NON_FIELD_ERRORS: [reason for _, reason in exc.errors]}) from exc
    except BattleInputError as exc:
        raise ValidationError(
            {path or "scenario": [reason] for path, reason in exc.errors}
        ) from exc


def campaign_battle_scenario(
    campaign: Campaign,
    base: Mapping[str, Any],
    deployments: Sequence[Deployment],
    turn_limit: int | None,
    *,
    lock: bool = False,
) -> tuple[dict[str, Any], dict[str, list[int]], dict[str, int], dict[str, Any]]:
    """(scenario, side → unit pks, engine id → unit pk, unit pk → its Orders going in): each
    unit's card and Order printed into the base, Legendary command settled on each side
    (`bridge.legendary_orders`), a unit given no position on a spot of its side.

    Checks every deployment first, then the scenario with the engine's validator
    (`ValidationError` naming the unit, and what it may not stand on); writes nothing. Each
    unit is judged and printed as stored, not as the deployment's copy of it holds it;
    ``lock`` (inside the launch's transaction) holds the units until it ends.
    """
    printed = _printed(campaign, base, deployments, turn_limit, lock=lock)
    if printed.problems:
        names = {
            engine_id: printed.units[pk].name for engine_id, pk in printed.engine_units.items()
        }
        forces = {
            side: [printed.units[pk].force for pk in pks] for side, pks in printed.sides.items()
        }
        sides = scenario_side_names(printed.scenario.get("sides", []), forces)
        raise ValidationError(deployment_words(printed.scenario, printed.problems, names, sides))
    return printed.scenario, printed.sides, printed.engine_units, printed.orders


def campaign_battle_places(
    *, campaign: Campaign, base: Mapping[str, Any], placing: Sequence[tuple[Unit, str]]
) -> dict[int, tuple[float, float]]:
    """Where each unit (by pk) stands when put on its side with no position: as the launch
    would place it. Empty when the campaign cannot field these units (the launch says why).
    The set-up page asks it of the units it has just read, as they are: it writes nothing."""
    deployments = [Deployment(unit=unit, side=side, position=None) for unit, side in placing]
    try:
        printed = _printed(campaign, base, deployments, None, as_given=True)
    except ValidationError:
        return {}
    return {
        printed.engine_units[placed["id"]]: (placed["position"][0], placed["position"][1])
        for side in printed.scenario["sides"]
        for placed in side["units"]
    }


@dataclass(frozen=True)
class _Printed:
    scenario: dict[str, Any]
    sides: dict[str, list[int]]
    engine_units: dict[str, int]
    orders: dict[str, Any]
    units: dict[int, Unit]
    problems: list[tuple[str, str]]
    """The engine's problems with the scenario, as (path, reason)."""


def _printed(
    campaign: Campaign,
    base: Mapping[str, Any],
    deployments: Sequence[Deployment],
    turn_limit: int | None,
    *,
    lock: bool = False,
    as_given: bool = False,
) -> _Printed:
    """The scenario with each unit printed in and placed, as stored (`units_stored`; with
    ``as_given``, as the deployments hold them); `ValidationError` for a unit the campaign
    cannot field."""
    errors: dict[str, list[str]] = {}
    if as_given:
        stored = {d.unit.pk: d.unit for d in deployments}
    else:
        stored = units_stored([d.unit.pk for d in deployments], lock=lock)
    scenario = copy.deepcopy(dict(base))
    scenario["ruleset"] = campaign.ruleset
    if turn_limit is not None:
        scenario["turn_limit"] = turn_limit
    side_ids = [side.get("id") for side in scenario.get("sides", [])]
    for side in scenario.get("sides", []):
        side["units"] = []
    sides: dict[str, list[int]] = {side: [] for side in side_ids}
    engine_units: dict[str, int] = {}
    orders: dict[str, Any] = {}
    engaged = engaged_units(campaign=campaign)
    fielded: list[tuple[Deployment, Unit, str]] = []
    for i, deployment in enumerate(deployments):
        unit, path = stored.get(deployment.unit.pk), f"deployments[{i}]"
        if unit is None:
            errors.setdefault(path, []).append(struck_off_text(deployment.unit.name, campaign))
            continue
        if unit.force.campaign_id != campaign.pk:
            errors.setdefault(path, []).append(f"{deployment.unit} is not in {campaign}")
            continue
        if unit.status != Status.READY:
            errors.setdefault(path, []).append(Status(unit.status).cannot_fight(str(unit)))
            continue
        if unit.pk in engaged:
            errors.setdefault(path, []).append(still_in_battle(unit, engaged[unit.pk]))
            continue
        if deployment.side not in sides:
            errors.setdefault(path, []).append(f"no side {given(deployment.side)} in the scenario")
            continue
        # Readable in the log and on the replay, unique by the pk.
        engine_id = f"{slugify(unit.name) or 'unit'}-{unit.pk}"
        if engine_id in engine_units:
            errors.setdefault(path, []).append(f"{unit} is deployed twice")
            continue
        engine_units[engine_id] = unit.pk
        sides[deployment.side].append(unit.pk)
        fielded.append((deployment, unit, engine_id))
    # A force on both sides: said at the deployment of its first unit on the later side.
    on_sides = {side: [u for d, u, _ in fielded if d.side == side] for side in side_ids}
    for side, unit, why in forces_on_both_sides(on_sides):
        i = next(i for i, d in enumerate(deployments) if d.unit.pk == unit.pk and d.side == side)
        errors.setdefault(f"deployments[{i}]", []).append(why)
    if errors:
        raise ValidationError(errors)
    going = units_going_in(
        campaign,
        on_sides,
        at=campaign_now(campaign),
        standing={u.pk: d.order for d, u, _ in fielded},
    )
    for deployment, unit, engine_id in fielded:
        side = scenario["sides"][side_ids.index(deployment.side)]
        # Quality and Order go into the scenario, so the engine's Orders rules are live.
        into = going[unit.pk]
        orders[str(unit.pk)] = into.orders.to_json()
        placed = {
            "id": engine_id,
            "card": into.card,
            "position": None if deployment.position is None else list(deployment.position),
            "facing": deployment.facing,
            "quality": quality_name(into.going.quality),
        }
        if paradrops(unit.specialties):
            placed["paradrop"] = True
        if into.orders.order is not None:
            placed["order"] = into.orders.order
        side["units"].append(placed)
    problems = deployment_place(scenario, deployment_spots(base))
    return _Printed(scenario, sides, engine_units, orders, stored, problems)


@transaction.atomic
def campaign_battle_record(
    *,
    campaign: Campaign,
    name: str,
    sides: Mapping[str, Sequence[Unit]],
    winner: str | None,
    outcomes: Mapping[int, Mapping[str, Any]],
    day: int | None = None,
    hour: int | None = None,
    request_key: uuid.UUID | None = None,
    actor: Any = None,
) -> CampaignBattle:
    """A battle fought at a real table: the GM's result, checked, then handled like any other.

    ``sides`` maps each side's name to its units (at least one, each a unit of the campaign);
    ``outcomes`` maps each unit's pk to its ``hits_lost``, ``skill_lost`` and ``removed``;
    ``day`` and ``hour`` say when it was fought (by default now; a past day without its hour,
    00:00 of it): the medics' 24 hours run from then. Everything is checked before anything is
    written; a refusal is a ``ValidationError`` by field. A repeated request with the same
    ``request_key`` (the form sent twice) returns the battle the first one recorded.
    """
    require_manager(campaign, actor)
    recorded = partial(made_once, CampaignBattle, request_key, actor, "created_by")
    if existing := recorded():
        return existing
    campaign = Campaign.objects.get(pk=campaign.pk)  # its day as stored, not as last seen
    errors: dict[str, list[str]] = {}
    name = text_given(errors, "name", name, needed="give the battle a name")
    if not isinstance(sides, Mapping):
        errors["sides"] = ["give each side by its name, with the units on it"]
        sides = {}
    elif len(sides) != 2:
        errors["sides"] = ["a battle has exactly two sides"]
    elif not all(isinstance(side, str) and side.strip() for side in sides):
        errors["sides"] = ["each side needs a name"]
    if winner is not None and (not isinstance(winner, str) or winner not in sides):
        named = ", ".join(str(side) for side in sides)
        errors["winner"] = [f"must be one of {named} or none (a draw)"]
    if not isinstance(outcomes, Mapping):
        errors["outcomes"] = ["give each unit's hits_lost, skill_lost and removed, by its pk"]
        outcomes = {}
    day, hour = battle_time(campaign, day, hour)
    errors.update(battle_time_problems(campaign, day, hour))
    given = _table_sides(sides, errors)
    # Each unit as stored, locked until the result holds it: never the caller's copy.
    stored = units_stored([unit.pk for _, unit in given], lock=True)
    if existing := recorded():
        return existing  # the same form, sent at the same moment, recorded it while we waited
    fielded = {pk: unit for pk, unit in stored.items() if unit.force.campaign_id == campaign.pk}
    result: dict[int, UnitOutcome] = {}
    engaged = engaged_units(campaign=campaign)
    going = _table_going_in(campaign, given, fielded, engaged, day, hour, errors)
    joined = units_joined(units=fielded.values())
    for side, unit in given:
        if unit.pk not in fielded:
            errors.setdefault(f"sides.{side}", []).append(f"{unit} is not a unit of {campaign}")
        elif problem := joined_later(fielded[unit.pk], joined, day):
            errors.setdefault(f"sides.{side}", []).append(problem)
        elif unit.pk in engaged:
            # Its card would be the one from before that battle, and an outcome there that takes
            # it out of the field would leave this one never to be applied.
            fought = fielded[unit.pk]
            errors.setdefault(f"sides.{side}", []).append(still_in_battle(fought, engaged[unit.pk]))
        elif problems := _table_outcome_problems(
            campaign, fielded[unit.pk], outcomes.get(unit.pk), going.get(unit.pk)
        ):
            for field, problem in problems:
                errors.setdefault(f"outcomes.{unit.pk}{field}", []).append(problem)
        else:
            result[unit.pk] = UnitOutcome.from_dict(outcomes[unit.pk])
    on_sides: dict[Any, list[Unit]] = {}
    for side, unit in given:
        if unit.pk in fielded:
            on_sides.setdefault(side, []).append(fielded[unit.pk])
    for side, _, why in forces_on_both_sides(on_sides):
        errors.setdefault(f"sides.{side}", []).append(why)
    if stray := set(outcomes) - {unit.pk for _, unit in given}:
        errors["outcomes"] = [f"units {sorted(stray, key=str)} did not fight"]
    if errors:
        raise ValidationError(errors)
    campaign_battle = CampaignBattle.objects.create(
        campaign=campaign,
        name=name,
        day=day,
        hour=hour,
        sides={side: [u.pk for on, u in given if on == side] for side in sides},
        table_result=TableResult(winner, result).to_dict(),
        # What it was judged by, kept so that its review and Apply judge it the same way.
        orders={str(unit.pk): going[unit.pk].orders.to_json() for _, unit in given},
        state=CampaignBattle.State.AWAITING,
        created_by=actor,
        request_key=request_key,
    )
    if campaign.apply_mode == Campaign.ApplyMode.AUTO:
        campaign_battle_apply(campaign_battle=campaign_battle)
    campaign_battle.refresh_from_db()
    return campaign_battle


def _table_sides(sides: Mapping[Any, Any], errors: dict[str, list[str]]) -> list[tuple[str, Unit]]:
    """(side, unit) for every unit the table result puts on a side; what is wrong with a side
    (no units, something that is not a unit, a unit on both sides) goes into ``errors`` under
    ``sides.<side>``."""
    given: list[tuple[str, Unit]] = []
    seen: set[int] = set()
    for side, units in sides.items():
        path = f"sides.{side}"
        if isinstance(units, str | bytes | Mapping) or not isinstance(units, Iterable):
            errors.setdefault(path, []).append("must list the units on the side")
            continue
        units = list(units)
        if not units:
            errors.setdefault(path, []).append("put at least one unit on each side")
        for unit in units:
            if not isinstance(unit, Unit):
                errors.setdefault(path, []).append(f"not a unit: {value_shown(unit)}")
            elif unit.pk in seen:
                errors.setdefault(path, []).append(f"{unit} is on both sides")
            else:
                seen.add(unit.pk)
                given.append((side, unit))
    return given


def _table_going_in(
    campaign: Campaign,
    given: Sequence[tuple[str, Unit]],
    fielded: Mapping[int, Unit],
    engaged: Mapping[int, str],
    day: Any,
    hour: Any,
    errors: Mapping[str, Any],
) -> dict[int, GoingInto]:
    """How each unit that could have fought went into the table battle: the bridge's card
    from its Orders under way at the battle's hour (no set-up gives a standing Order at a
    table), Legendary command settled on its side (`going_in.units_going_in`)."""
    timed = "day" not in errors and "hour" not in errors
    at = clock_hour(day, hour) if timed else campaign_now(campaign)
    on_sides: dict[str, list[Unit]] = {}
    for side, unit in given:
        fought = fielded.get(unit.pk)
        if fought is not None and fought.status == Status.READY and unit.pk not in engaged:
            on_sides.setdefault(side, []).append(fought)
    return units_going_in(campaign, on_sides, at=at)


def _table_outcome_problems(
    campaign: Campaign, unit: Unit, outcome: Any, going: GoingInto | None
) -> list[tuple[str, str]]:
    """What is wrong with a hand-entered outcome, judged against the card the unit fought with
    (``going``: its Orders at the battle's hour): each problem under the outcome's field it is
    about (``".hits_lost"``; ``""``, the whole)."""
    if not isinstance(outcome, Mapping):
        return [("", f"{unit}: give its Hits lost, Skill lost and how it left the battle")]
    hits_lost, skill_lost = outcome.get("hits_lost"), outcome.get("skill_lost")
    removed = outcome.get("removed", "none")
    numbers = (hits_lost, skill_lost)
    if any(isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in numbers):
        return [("", f"{unit}: Hits lost and Skill lost must be whole numbers, 0 or more")]
    if not isinstance(removed, str) or removed not in list(Removal):
        return [("", f"{unit}: removed must be one of {', '.join(Removal)}")]
    if unit.status != Status.READY or going is None:
        return [("", f"{unit} is {unit.state.status.label}: it could not have fought")]
    outcome = UnitOutcome(hits_lost, skill_lost, removed)
    return [
        (f".{field}", f"{unit}: {problem}")
        for field, problem in outcome_problems(going.card, outcome, campaign.ruleset)
    ]


def campaign_held(pk: int) -> Campaign | None:
    """The campaign as stored, locked until the transaction ends; None once deleted. Taken
    first, as its deletion takes it (`deletion.campaign_delete`), by whatever writes a battle of
    it: one racing a deletion waits for it and finds the campaign gone, never a deadlock
    between them, nor a battle written into a campaign that is no more."""
    return Campaign.objects.select_for_update(of=("self",)).filter(pk=pk).first()


def campaign_battle_settle(*, battle_id: int) -> CampaignBattle | None:
    """A battle finished on a worker: mark it for review, or apply it at once (auto mode).
    None when no campaign holds it, as when its campaign was deleted before, or while, its
    worker's notice came (`campaign_held`)."""
    campaign_id = (
        CampaignBattle.objects.filter(battle_id=battle_id)
        .values_list("campaign_id", flat=True)
        .first()
    )
    if campaign_id is None:
        return None
    with transaction.atomic():
        campaign = campaign_held(campaign_id)
        campaign_battle = CampaignBattle.objects.filter(battle_id=battle_id).first()
        if campaign is None or campaign_battle is None:
            return None
        status = Battle.objects.values_list("status", flat=True).get(id=battle_id)
        target = {
            Battle.Status.DONE: CampaignBattle.State.AWAITING,
            Battle.Status.FAILED: CampaignBattle.State.FAILED,
        }.get(status)
        if target is None:
            return campaign_battle
        moved = CampaignBattle.objects.filter(
            pk=campaign_battle.pk, state=CampaignBattle.State.FIGHTING
        ).update(state=target)
        auto = campaign.apply_mode == Campaign.ApplyMode.AUTO
        if moved and target == CampaignBattle.State.AWAITING and auto:
            # A unit that changed meanwhile (the GM edited it, say) leaves the outcome awaiting
            # the GM's review: the dashboard lists it, and its review says why Apply refuses it
            # (`outcome_review`).
            with contextlib.suppress(ValidationError):
                campaign_battle_apply(campaign_battle=campaign_battle)
    # As settled: gone, should its campaign be deleted the moment the lock is let go.
    return CampaignBattle.objects.filter(pk=campaign_battle.pk).first()


def campaign_battles_settle_all() -> list[int]:
    """Settle every finished battle still marked as being fought (a missed notice); one whose
    campaign is deleted meanwhile is left out."""
    finished = CampaignBattle.objects.filter(
        state=CampaignBattle.State.FIGHTING,
        battle__status__in=[Battle.Status.DONE, Battle.Status.FAILED],
    ).values_list("battle_id", flat=True)
    settled = (campaign_battle_settle(battle_id=battle_id) for battle_id in list(finished))
    return [campaign_battle.pk for campaign_battle in settled if campaign_battle is not None]


def outcome_review(
    *, campaign_battle: CampaignBattle
) -> tuple[
    list[tuple[Unit, CampaignUnitState, CampaignUnitState]], list[str], list[str],
    list[HistoryEntry],
]:  # fmt: skip
    """(rows, refusal, notes, entries). The rows: (unit, now, after) for each unit of a battle
    awaiting its outcome, as Apply will leave it: the same computation Apply makes
    (`outcome_steps`), with the same dice, writing nothing. The refusal: why Apply would refuse
    the outcome (the rest is then empty), as its sentences; empty when it would apply. A battle
    an auto-mode campaign could not apply on its own (a unit changed while it was fought) waits
    for the GM, who reads here why. The notes: what the table alone does not say, a sentence
    each (a unit destroyed since the battle takes nothing from it,
    `outcomes.destroyed_since_text`). The entries: the history entries Apply will write, unsaved
    and in order, what the review tells each unit in the words of its history."""
    try:
        # Apply's own reads lock the units; here the lock lasts only for the reading.
        with transaction.atomic():
            steps = outcome_steps(**campaign_battle_outcome(campaign_battle))
    except ValidationError as refused:
        return [], refused.messages, [], []
    preview: dict[int, tuple[Unit, CampaignUnitState, CampaignUnitState]] = {}
    entries = []
    for step in steps:
        was = preview[step.unit.pk][2] if step.unit.pk in preview else step.unit.state
        now = preview[step.unit.pk][1] if step.unit.pk in preview else step.unit.state
        preview[step.unit.pk] = (step.unit, now, step.state)
        # As `unit_change` will write it: the fields the step changes, and its sentence.
        before, after = snapshot_diff(was.to_json(), step.state.to_json())
        if after or step.always:
            entries.append(
                HistoryEntry(
                    unit=step.unit,
                    kind=step.kind,
                    text=sentence(step.why, before, after),
                    before=before,
                    after=after,
                )
            )
    rows = sorted(preview.values(), key=lambda row: (row[0].force.name, row[0].name))
    return rows, [], [step.note for step in steps if step.note], entries


def outcome_reviewed(rows: Sequence[tuple[Unit, Any, Any]], entries: Sequence[HistoryEntry]) -> str:
    """What an outcome's review (`outcome_review`: its ``rows`` and ``entries``)
    showed, in short (`review_token`): each unit as it stood, then what each would become and
    every sentence its history would get. Its Apply sends it back (`campaign_battle_apply`)."""
    shown = [[unit.pk, after.to_json()] for unit, _, after in rows]
    shown += [[entry.unit_id, entry.kind, entry.text] for entry in entries]
    return review_token([(unit, now) for unit, now, _ in rows], shown)


def _review_problems(campaign_battle: CampaignBattle, reviewed: Any) -> list[str]:
    """Why Apply would no longer write what the review sent back (``reviewed``) showed: a unit
    changed since (corrected, healed, or fought again in another tab). A refusal of the outcome
    itself is left to `outcome_apply`, which says it."""
    rows, refusal, _, entries = outcome_review(campaign_battle=campaign_battle)
    if refusal:
        return []
    return review_changed(
        reviewed, outcome_reviewed(rows, entries), [unit for unit, _, _ in rows], "outcome",
        "This outcome would no longer be applied as you reviewed it: review it again.",
    )  # fmt: skip


def campaign_battle_apply(
    *, campaign_battle: CampaignBattle, actor: Any = None, reviewed: str | None = None
) -> list[HistoryEntry] | None:
    """Apply the outcome to the persistent units; None if it is not waiting to be applied.

    Confirmed from a review, ``reviewed`` is what it showed (`outcome_reviewed`): refused,
    writing nothing, if Apply would now write anything else."""
    require_manager(campaign_battle.campaign, actor)
    with transaction.atomic():
        if campaign_held(campaign_battle.campaign_id) is None:
            return None
        claimed = CampaignBattle.objects.filter(
            pk=campaign_battle.pk,
            state__in=[CampaignBattle.State.AWAITING, CampaignBattle.State.REVERTED],
        ).update(
            state=CampaignBattle.State.APPLIED,
            applied_at=timezone.now(),
            applications=F("applications") + 1,
        )
        if not claimed:
            return None
        campaign_battle.refresh_from_db()
        # Read under the units' locks, which hold to the end: nothing changes in between.
        if reviewed is not None and (problems := _review_problems(campaign_battle, reviewed)):
            raise ValidationError({"reviewed": problems})
        entries = outcome_apply(**campaign_battle_outcome(campaign_battle), actor=actor)
        # A table battle's entries name no battle: its record keeps those of every
        # application, the reverted ones too, so they stay known as its.
        earlier = campaign_battle.table_entries if campaign_battle.battle_id is None else []
        CampaignBattle.objects.filter(pk=campaign_battle.pk).update(
            applied_entries=[entry.pk for entry in entries], earlier_entries=earlier
        )
    campaign_battle.refresh_from_db()
    return entries


def struck_off_text(name: str, campaign: Campaign) -> str:
    """Why a unit chosen for a battle is not in it: struck off the roster since the page
    choosing it was drawn."""
    return (
        f"{name} is no longer on {possessive(campaign.name)} roster: it was struck off since "
        "this page was drawn. Set up the battle without it"
    )


def gone_units_text(campaign_battle: CampaignBattle, units: Mapping[int, Unit]) -> list[str]:
    """Why the outcome cannot be applied to each unit of the battle gone from the campaign's
    records (``units``: those still there, by pk), never by a database id: by the name the
    battle's report gives it (its card's, an engine battle's) and by its side, as the battle's
    page names the sides (`pages.sides.battle_sides`)."""
    battle = campaign_battle.battle
    scenario = battle.scenario.get("sides", []) if battle is not None else []
    sides = {
        side.id: side.name if side.name.startswith("the ") else f"the side of {side.name}"
        for side in battle_sides(campaign_battle, dict(units), scenario)
    }
    called: dict[int, str] = {}
    if battle is not None:
        names = scenario_names(parse_scenario(battle.scenario, fought=True)).units
        called = {
            pk: names[eid] for eid, pk in campaign_battle.engine_units.items() if eid in names
        }
    records = f"{possessive(campaign_battle.campaign.name)} records"
    said = []
    for side, pks in campaign_battle.sides.items():
        gone = [pk for pk in pks if pk not in units]
        for pk in gone:
            if pk in called:
                said.append(
                    f"{called[pk]}, on {sides[side]}, is gone from {records}, so the outcome "
                    "cannot be applied: ask whoever runs the site to restore it from a backup"
                )
        if unnamed := len([pk for pk in gone if pk not in called]):
            one = unnamed == 1
            said.append(
                f"{'A unit' if one else f'{unnamed} units'} on {sides[side]} "
                f"{'is' if one else 'are'} gone from {records}, so the outcome cannot be "
                f"applied: ask whoever runs the site to restore {'it' if one else 'them'} from "
                "a backup"
            )
    return said


def campaign_battle_outcome(campaign_battle: CampaignBattle) -> dict[str, Any]:
    """The battle's outcome as `outcome_apply` (and `outcome_steps`, for the review before it)
    take it: the same arguments, so the review shows what Apply does, die for die. A unit of
    the battle gone from the campaign's records is refused by its name (`gone_units_text`)."""
    winner, outcomes = campaign_battle_outcomes(campaign_battle)
    sides = {
        side: list(Unit.objects.filter(pk__in=pks).select_related("unit_type", "force__owner"))
        for side, pks in campaign_battle.sides.items()
    }
    if gone := gone_units_text(
        campaign_battle, {unit.pk: unit for units in sides.values() for unit in units}
    ):
        raise ValidationError(gone)
    # "Counts as Poor": the kit each fought with, as its card and its Order sent it in.
    kits = {
        unit.pk: fought_kit(unit, campaign_battle.orders.get(str(unit.pk)))
        for units in sides.values()
        for unit in units
    }
    return {
        "campaign": campaign_battle.campaign,
        "outcomes": outcomes,
        "winners": campaign_battle.sides.get(winner, []) if winner else (),
        "opposing_equipment": opposing_equipment_by_side(sides, kits),
        "kits": kits,
        "day": campaign_battle.day,
        "hour": campaign_battle.hour,
        "reason": campaign_battle.name,
        "battle": campaign_battle.battle,
        "cards": campaign_battle_cards(campaign_battle),
        # Its units were ready when it was launched or recorded: one destroyed now was
        # destroyed since, and takes nothing from it (`outcome_apply`).
        "fought_ready": True,
    }


def campaign_battle_cards(campaign_battle: CampaignBattle) -> dict[int, dict[str, Any]]:
    """The card each persistent unit fought with: as the engine battle's scenario printed it,
    or, for a table battle, as the bridge printed it from the Orders it was judged by
    (`bridge.fought_card`). A table battle recorded before its Orders were kept gets the card
    its units would have taken at its hour, those still ready (`going_in.units_going_in`)."""
    if campaign_battle.battle is not None:
        return {
            campaign_battle.engine_units[unit["id"]]: unit["card"]
            for side in campaign_battle.battle.scenario.get("sides", [])
            for unit in side.get("units", [])
            if unit.get("id") in campaign_battle.engine_units
        }
    fought = Unit.objects.filter(
        pk__in=[pk for pks in campaign_battle.sides.values() for pk in pks]
    ).select_related("unit_type")
    by_pk = {unit.pk: unit for unit in fought}
    # Each side in the order the result listed it: Legendary command goes by it.
    sides = {
        side: [by_pk[pk] for pk in pks if pk in by_pk]
        for side, pks in campaign_battle.sides.items()
    }
    if all(str(u.pk) in campaign_battle.orders for units in sides.values() for u in units):
        return {
            unit.pk: fought_card(unit, campaign_battle.orders[str(unit.pk)])
            for units in sides.values()
            for unit in units
        }
    ready = {
        side: [unit for unit in units if unit.status == Status.READY]
        for side, units in sides.items()
    }
    at = clock_hour(campaign_battle.day, campaign_battle.hour)
    going = units_going_in(campaign_battle.campaign, ready, at=at)
    return {pk: into.card for pk, into in going.items()}


def campaign_battle_outcomes(
    campaign_battle: CampaignBattle,
) -> tuple[str | None, dict[int, UnitOutcome]]:
    """The winner and each persistent unit's outcome, from the engine's result or the table's."""
    if campaign_battle.table_result is not None:
        table = TableResult.from_dict(campaign_battle.table_result)
        return table.winner, table.units
    result = campaign_battle.battle.outcome
    outcomes = {
        campaign_battle.engine_units[u.unit]: UnitOutcome(u.hits_lost, u.skill_lost, u.removed)
        for u in result.units
        if u.unit in campaign_battle.engine_units
    }
    return result.winner, outcomes


def campaign_battle_revert(
    *, campaign_battle: CampaignBattle, reason: str, actor: Any = None
) -> list[HistoryEntry] | None:
    """Undo an applied outcome (as new history entries); it may then be applied again."""
    require_manager(campaign_battle.campaign, actor)
    with transaction.atomic():
        if campaign_held(campaign_battle.campaign_id) is None:
            return None
        claimed = CampaignBattle.objects.filter(
            pk=campaign_battle.pk, state=CampaignBattle.State.APPLIED
        ).update(state=CampaignBattle.State.REVERTED)
        if not claimed:
            return None
        entries = HistoryEntry.objects.filter(pk__in=campaign_battle.applied_entries)
        reverted = outcome_revert(
            entries=entries, reason=reason, actor=actor,
            fight=battle_named(campaign_battle),
        )  # fmt: skip
    campaign_battle.refresh_from_db()
    return reverted


def battle_named(campaign_battle: CampaignBattle) -> Fight:
    """The battle as its revert names it, in its entries and before (`reverts.revert_review`):
    by its name."""
    return ("battle", campaign_battle.name, "")


def campaign_battle_check(
    *,
    campaign: Campaign,
    base: Mapping[str, Any],
    deployments: Sequence[Deployment],
    turn_limit: int | None = None,
) -> dict[str, list[str]]:
    """What the launch would refuse in this set-up, by path (``deployments[i]`` for a unit the
    campaign cannot field, the engine's ``sides[i].units[j].position`` for a spot it may not
    stand on); empty when it would launch. Nothing is written: the set-up page asks this as
    the GM drags units about."""
    campaign = Campaign.objects.get(pk=campaign.pk)  # its clock as stored, not as last seen
    try:
        campaign_battle_scenario(campaign, base, deployments, turn_limit)
    except ValidationError as error:
        return error.message_dict
    return {}


def campaign_battle_odds(
    *,
    campaign: Campaign,
    base: Mapping[str, Any],
    deployments: Sequence[Deployment],
    turn_limit: int | None = None,
    battles: int = ODDS_DEFAULT_BATTLES,
    actor: Any = None,
    request_key: uuid.UUID | None = None,
) -> OddsRun:
    """An odds run on exactly the battle this set-up would launch: the same cards printed from
    the rosters, positions, Orders and turn limit (only the seeds differ, battle by battle).
    A ``request_key`` the actor has asked with already is that run."""
    require_manager(campaign, actor)
    campaign = Campaign.objects.get(pk=campaign.pk)  # its clock as stored, not as last seen
    scenario, *_ = campaign_battle_scenario(campaign, base, deployments, turn_limit)
    with _launch_refusals(), transaction.atomic():
        run = odds_launch(
            scenario=scenario,
            battles=battles,
            name=f"{scenario.get('name') or 'Battle'} ({campaign}, day {campaign.day})",
            created_by=actor,
            request_key=request_key,
        )
        # The campaign's run, read in its names wherever it is opened (`odds.odds_home`).
        AskedOdds.objects.get_or_create(run=run, defaults={"campaign": campaign})
    return run


def campaign_battle_odds_keep(*, campaign_battle: CampaignBattle, run: OddsRun) -> bool:
    """Keep the odds with the battle if they were run on the very battle launched (the GM may
    have moved a unit since asking); True if kept."""
    if campaign_battle.battle is None or run.scenario != campaign_battle.battle.scenario:
        return False
    kept = CampaignBattle.objects.filter(pk=campaign_battle.pk, odds__isnull=True).update(odds=run)
    if kept:
        campaign_battle.odds = run
    return bool(kept)
