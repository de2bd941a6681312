"""Writes for engagements: fight BUCS unit combat many against many, apply it, revert it.

Each unit's command (its leader, its Order, a Legendary unit's command) is read from the
campaign; the GM states the situation (sides, terrain, surprise, each unit's ground). The dice
come from one seed, so the same set-up and seed give the same engagement; the damage reaches the
units through `damage_apply` and `unit_change`, like a battle's, and reverts like one.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from battles.services import SEED_LIMIT, seed_problem
from campaign.models import Campaign, Engagement, HistoryEntry, Leader, Unit
from campaign.rules.characters import feats_from
from campaign.rules.damage import damage_apply, kit_stopped_text, leader_died_text
from campaign.rules.dice import Dice
from campaign.rules.engagement import (
    SIDES,
    Engaged,
    EngagementError,
    EngagementResult,
    engagement_fight,
    round_limit_problem,
    setup_errors,
    sides_errors,
    terrain_error,
)
from campaign.rules.experience import earned_text, experience_earn
from campaign.rules.history import sentence, took_text
from campaign.rules.orders import OrderKind
from campaign.rules.state import CampaignUnitState, Status, snapshot_diff
from campaign.selectors.roster import campaign_now
from campaign.selectors.roster import engaged_units as units_in_battle
from campaign.services._record import (
    forces_on_both_sides,
    made_once,
    require_manager,
    review_changed,
    review_token,
    text_given,
    unit_change,
)
from campaign.services.battles import still_in_battle
from campaign.services.going_in import led_units
from campaign.services.notices import notices_after_commit
from campaign.services.orders import DONE, UNDER_WAY, current_orders, order_status
from campaign.services.reverts import Fight, outcome_revert
from units.words import given, value_shown

Kind = HistoryEntry.Kind
SITUATION_FIELDS = ("dug_in", "several_directions", "cramped", "landing")


def _no_dice() -> int:
    raise AssertionError("the leader's wounds were rolled during the engagement")


def _situation(value: Any) -> dict[str, bool]:
    if not isinstance(value, Mapping):
        raise ValueError("a unit's situation is a mapping of flags")
    unknown = set(value) - set(SITUATION_FIELDS)
    if unknown:
        raise ValueError(f"unknown situation {given(sorted(unknown)[0])}")
    for flag, set_to in value.items():
        if not isinstance(set_to, bool):
            raise ValueError(f"{flag} must be true or false")
    return {flag: bool(value.get(flag, False)) for flag in SITUATION_FIELDS}


def engaged_units(
    campaign: Campaign,
    units: dict[str, list[Unit]],
    situations: Mapping[int, dict[str, bool]],
    terrain: str,
) -> dict[str, list[Engaged]]:
    """Each side's units as the engagement reads them: leader's feats, Order, beachhead."""
    everyone = [u for side in SIDES for u in units[side]]
    orders = current_orders(campaign, everyone)
    now = campaign_now(campaign)
    led = led_units(everyone)
    leading = {
        leader.character_id: leader.unit_id
        for leader in Leader.objects.filter(unit__in=everyone, character__isnull=False)
    }
    sides: dict[str, list[Engaged]] = {}
    for side in SIDES:
        # A giver repeats a Raw unit's Order only while alive at the head of a unit of this
        # side: a dead character stays linked to the unit it led, but gives no Orders.
        led_here = {u.pk for u in units[side]} & led
        sides[side] = []
        for unit in units[side]:
            leader = getattr(unit, "leader", None)
            feats = frozenset()
            if unit.pk in led and leader.character is not None:
                feats = feats_from(leader.character.feats)
            order = orders.get(unit.pk)
            status = None if order is None else order_status(order, now)
            kind = OrderKind(order.kind) if order is not None else None
            present = order is not None and leading.get(order.giver_id) in led_here
            sides[side].append(
                Engaged(
                    key=str(unit.pk),
                    state=unit.state,
                    leader_feats=feats,
                    order=kind if status == UNDER_WAY else None,
                    order_repeated=present,
                    beachhead=status == DONE
                    and kind == OrderKind.ESTABLISH_BEACHHEAD
                    and terrain == "amphibious",
                    **situations.get(unit.pk, {}),
                )
            )
    return sides


@dataclass(frozen=True)
class _Fought:
    """An engagement fought and not yet written: what Apply writes and a review shows."""

    campaign: Campaign
    units: dict[str, list[Unit]]
    situations: dict[int, dict[str, bool]]
    terrain: str
    surprise: str | None
    round_limit: int
    seed: int
    title: str
    by_units: str
    """The units' names an engagement the GM did not name is named by ("Squad 1 against Iron
    Wolf", after "engagement, " in its ``title``); "" for one the GM named."""
    result: EngagementResult


@dataclass(frozen=True)
class _Taken:
    """What the engagement does to one unit: its hits (``hit``, the entry's ``why`` and
    ``details``), then the experience it earns (``after``)."""

    side: str
    unit: Unit
    hit: CampaignUnitState
    why: str
    details: dict[str, Any]
    after: CampaignUnitState
    earned: Any


UNNAMED = "engagement"
"""What an engagement the GM did not name is called before its units' names ("engagement, Squad
1 against Iron Wolf"); the dashboard's quick resolve calls its own "quick resolve"."""


def _fight(
    *,
    campaign: Campaign,
    sides: Mapping[str, Sequence[Unit]],
    situations: Mapping[int, Mapping[str, bool]] | None,
    terrain: str,
    surprise: str | None,
    round_limit: int | None,
    seed: int | None,
    name: str,
    requested: Callable[[], Engagement | None],
    unnamed: str = UNNAMED,
) -> _Fought | Engagement:
    """Validate the set-up, lock its units and fight it (the engagement ``requested`` finds,
    if the same request was fought meanwhile). Writes nothing. Without a ``name`` it is named
    by its units, after ``unnamed`` ("engagement, Squad 1 against Iron Wolf")."""
    campaign = Campaign.objects.get(pk=campaign.pk)  # the clock as it stands now
    round_limit = campaign.quick_resolve_rounds if round_limit is None else round_limit
    # An unknown key or an empty side first: a unit under a key that is no side would be left
    # out of the fight without a word.
    if isinstance(sides, Mapping):
        errors: dict[str, list[str]] = sides_errors(sides)
    else:
        errors = {"sides": [f"give the {' and '.join(SIDES)}, each with its units"]}
        sides = {}
    name = text_given(errors, "name", name)
    wanted: dict[str, list[Unit]] = {side: [] for side in SIDES}
    for side in SIDES:
        listed = sides.get(side, ())
        if isinstance(listed, str | bytes | Mapping) or not isinstance(listed, Iterable):
            errors.setdefault(side, []).append(f"must list the {side}' units")
            continue
        for unit in listed:
            if isinstance(unit, Unit):
                wanted[side].append(unit)
            else:
                errors.setdefault(side, []).append(f"not a unit: {value_shown(unit)}")
    pks = [u.pk for side in SIDES for u in wanted[side]]
    found = {
        unit.pk: unit
        for unit in Unit.objects.select_for_update(of=("self",))
        .filter(pk__in=pks, force__campaign=campaign)
        .select_related("leader__character", "force")
    }
    # The same request, sent a moment ago by another: its units were locked until it was fought.
    if existing := requested():
        return existing
    # A unit in a battle whose outcome is not applied yet fights nothing else: this fight would
    # change the unit under that outcome (one it took out could not have fought that battle).
    in_battle = units_in_battle(campaign=campaign)
    units: dict[str, list[Unit]] = {side: [] for side in SIDES}
    for side in SIDES:
        for unit in wanted[side]:
            if unit.pk not in found:
                errors.setdefault(side, []).append(f"{unit} is not a unit of {campaign}")
            elif found[unit.pk].status != Status.READY:
                status = found[unit.pk].state.status
                errors.setdefault(side, []).append(status.cannot_fight(str(unit)))
            elif unit.pk in in_battle:
                errors.setdefault(side, []).append(still_in_battle(unit, in_battle[unit.pk]))
            else:
                units[side].append(found[unit.pk])
    for side, _, why in forces_on_both_sides(units):
        errors.setdefault(side, []).append(why)
    parsed: dict[int, dict[str, bool]] = {}
    for pk, value in (situations or {}).items():
        if pk not in pks:
            errors[f"situation.{pk}"] = ["not a unit of this engagement"]
            continue
        try:
            parsed[pk] = _situation(value)
        except ValueError as error:
            errors[f"situation.{pk}"] = [str(error)]
    if problem := terrain_error(terrain):
        errors["terrain"] = [problem]
    if surprise not in (None, *SIDES):
        errors["surprise"] = [f"surprise is tried by attackers or defenders, not {given(surprise)}"]
    if problem := round_limit_problem(round_limit):
        errors["round_limit"] = [problem]
    if problem := seed_problem(seed):
        errors["seed"] = [problem]
    if errors:
        raise ValidationError(errors)
    engaged = engaged_units(campaign, units, parsed, terrain)
    if problems := setup_errors(engaged, terrain):
        raise ValidationError(problems)

    seed = random.SystemRandom().randrange(SEED_LIMIT) if seed is None else seed
    dice = Dice(seed)
    try:
        result = engagement_fight(
            engaged, terrain=terrain, surprise=surprise, round_limit=round_limit,
            d20=dice.d20, d6=dice.d6,
        )  # fmt: skip
    except EngagementError as error:
        raise ValidationError(error.errors) from None
    attackers, defenders = (", ".join(u.name for u in units[side]) for side in SIDES)
    by_units = "" if name else f"{attackers} against {defenders}"
    title = name or f"{unnamed}, {by_units}"
    return _Fought(
        campaign=campaign, units=units, situations=parsed, terrain=terrain, surprise=surprise,
        round_limit=round_limit, seed=seed, title=title[:200], by_units=by_units, result=result,
    )  # fmt: skip


def _taken(fought: _Fought) -> list[_Taken]:
    """What the engagement does to each of its units, side by side, as Apply writes it."""
    campaign, result = fought.campaign, fought.result
    taken: list[_Taken] = []
    for side in SIDES:
        for unit in fought.units[side]:
            hits = result.damage[str(unit.pk)]
            state, damage = damage_apply(
                unit.state.but(leader=None),
                morale_hits=hits.morale_hits,
                casualty_hits=hits.casualty_hits,
                removed=hits.removed,
                day=campaign.day,
                hour=campaign.hour,
                d6=_no_dice,
                won=result.winner == side,
                fight=fought.title,
            )
            state = state.but(leader=hits.leader)
            # The working, as a battle's says it: what its kit stopped (a unit whose hits all
            # stopped there "took no hits", not "came through unhurt"), and what its leader's
            # death cost, naming who died. How the unit ended the story of the entry says
            # (`history.story_text`, which leaves the death told here out): said here too, a page
            # would read it twice.
            working = kit_stopped_text(hits.armor_ignored, hits.excellent_ignored)
            if hits.leader_died:
                working.append(leader_died_text(hits.leader.name if hits.leader else "the leader"))
            # Unhurt: no hits, none stopped, its leader unwounded, still in the field.
            unhurt = not (working or hits.leader_rolls or hits.morale_hits or hits.casualty_hits)
            unhurt = unhurt and hits.removed == "none"
            why = took_text(fought.title, hits.morale_hits, hits.casualty_hits, unhurt=unhurt)
            if working:
                why += f" — {'; '.join(working)}"
            details = {
                "seed": fought.seed,
                "name": fought.title,  # the fight's name as data (`history.fight_named`)
                "by_units": fought.by_units,  # what a revert names it by (`history.undone_text`)
                "unhurt": unhurt,  # the fight did nothing to it (`recovery._fight_story`)
                "damage": {
                    **damage.to_json(),
                    "armor_ignored": hits.armor_ignored,
                    "excellent_ignored": hits.excellent_ignored,
                    "leader_rolls": list(hits.leader_rolls),
                    "leader_died": hits.leader_died,
                },
            }
            after, earned = experience_earn(state, won=result.winner == side)
            taken.append(_Taken(side, unit, state, why, details, after, earned))
    return taken


def _engagement_row(fought: _Fought) -> dict[str, Any]:
    """The `Engagement` row's fields, as the engagement's page reads them."""
    return {
        "campaign": fought.campaign,
        "name": fought.title,
        "day": fought.campaign.day,
        "hour": fought.campaign.hour,
        "seed": fought.seed,
        "round_limit": fought.round_limit,
        "setup": {
            "sides": {side: [u.pk for u in fought.units[side]] for side in SIDES},
            "situations": {str(pk): value for pk, value in fought.situations.items()},
            "terrain": fought.terrain,
            "surprise": fought.surprise,
        },
        "events": fought.result.events,
        "rounds": fought.result.rounds,
        "winner": fought.result.winner or "",
    }


def _reviewed(fought: _Fought, taken: list[_Taken]) -> str:
    """What a review read and showed (`review_token`): each unit as it stood, then the whole
    outcome (the clock, every event, what each unit takes and earns). Apply, given it, fights
    again from the same seed and writes only if both are still the same."""
    shown = {
        "engagement": _engagement_row(fought) | {"campaign": fought.campaign.pk},
        "taken": [[t.why, t.details, t.hit.to_json(), t.after.to_json()] for t in taken],
    }
    return review_token([(t.unit, t.unit.state) for t in taken], shown)


def _review_problems(reviewed: Any, fought: _Fought, taken: list[_Taken]) -> list[str]:
    """Why the outcome reviewed (``reviewed``, `_reviewed`) is no longer what Apply would
    write, in sentences; none when it still is."""
    return review_changed(
        reviewed, _reviewed(fought, taken), [t.unit for t in taken], "engagement",
        "This engagement would no longer be fought as you reviewed it (the clock, an Order or a "
        "leader has changed since): review it again.",
    )  # fmt: skip


@dataclass(frozen=True)
class EngagementPreview:
    """An engagement as Apply would write it, written nowhere: ``engagement`` is an unsaved
    row (its page's log reads it), ``rows`` each unit's (unit, now, after), ``reviewed`` what
    the Apply confirming it sends back (`engagement_run`), ``entries`` the history entries
    Apply will write, unsaved and in order, so the review tells each unit in their words."""

    engagement: Engagement
    rows: list[tuple[Unit, CampaignUnitState, CampaignUnitState]]
    reviewed: str
    entries: list[HistoryEntry]


def _steps(
    fought: _Fought, t: _Taken
) -> list[tuple[str, CampaignUnitState, CampaignUnitState, str, dict[str, Any]]]:
    """What `engagement_run` records of one unit, in order: its fight, then the experience it
    earned, each as (kind, state before, state after, sentence, details)."""
    steps = [(Kind.ENGAGEMENT, t.unit.state, t.hit, t.why, t.details)]
    if t.earned.points:
        earned = earned_text(fought.title, t.earned)
        details = {"points": t.earned.points, "name": fought.title}
        steps.append((Kind.EXPERIENCE, t.hit, t.after, earned, details))
    return steps


def _entries_ahead(fought: _Fought, taken: list[_Taken]) -> list[HistoryEntry]:
    """The history entries `engagement_run` writes for ``taken`` (`_steps`), unsaved, in the
    sentences `unit_change` gives them."""
    entries = []
    for t in taken:
        for kind, was, now, why, details in _steps(fought, t):
            before, after = snapshot_diff(was.to_json(), now.to_json())
            text = sentence(why, before, after)
            entries.append(
                HistoryEntry(
                    unit=t.unit, kind=kind, text=text, before=before, after=after, details=details
                )
            )
    return entries


def engagement_preview(
    *,
    campaign: Campaign,
    sides: Mapping[str, Sequence[Unit]],
    situations: Mapping[int, Mapping[str, bool]] | None = None,
    terrain: str = "open",
    surprise: str | None = None,
    round_limit: int | None = None,
    seed: int | None = None,
    name: str = "",
    actor: Any = None,
    unnamed: str = UNNAMED,
) -> EngagementPreview:
    """The engagement `engagement_run` would fight and apply, from the same set-up and seed (a
    fresh seed unless one is given: the preview's seed is then the one to apply), writing
    nothing. Bad input is refused as `engagement_run` refuses it."""
    require_manager(campaign, actor)
    # Apply's own reads lock the units; here the lock lasts only for the reading.
    with transaction.atomic():
        fought = _fight(
            campaign=campaign, sides=sides, situations=situations, terrain=terrain,
            surprise=surprise, round_limit=round_limit, seed=seed, name=name,
            requested=lambda: None, unnamed=unnamed,
        )  # fmt: skip
    assert isinstance(fought, _Fought)
    taken = _taken(fought)
    return EngagementPreview(
        engagement=Engagement(**_engagement_row(fought)),
        rows=[(t.unit, t.unit.state, t.after) for t in taken],
        reviewed=_reviewed(fought, taken),
        entries=_entries_ahead(fought, taken),
    )


@transaction.atomic
def engagement_run(
    *,
    campaign: Campaign,
    sides: Mapping[str, Sequence[Unit]],
    situations: Mapping[int, Mapping[str, bool]] | None = None,
    terrain: str = "open",
    surprise: str | None = None,
    round_limit: int | None = None,
    seed: int | None = None,
    name: str = "",
    request_key: uuid.UUID | None = None,
    actor: Any = None,
    reviewed: str | None = None,
    unnamed: str = UNNAMED,
) -> Engagement:
    """Fight the engagement and apply it to every unit in it, in one transaction. A repeated
    request with the same ``request_key`` returns the engagement the first one fought. One
    given no ``name`` is named by its units after ``unnamed`` ("engagement, Squad 1 against
    Iron Wolf"; the dashboard's quick resolve: "quick resolve, …").

    Confirmed from a review (`engagement_preview`), ``reviewed`` is what it showed: refused,
    writing nothing, unless the same seed still gives exactly that outcome (a unit changed
    since, the clock moved, an Order or a leader changed: review it again)."""
    require_manager(campaign, actor)
    requested = partial(made_once, Engagement, request_key, actor, "actor")
    if existing := requested():
        return existing
    fought = _fight(
        campaign=campaign, sides=sides, situations=situations, terrain=terrain,
        surprise=surprise, round_limit=round_limit, seed=seed, name=name, requested=requested,
        unnamed=unnamed,
    )  # fmt: skip
    if isinstance(fought, Engagement):
        return fought
    taken = _taken(fought)
    if reviewed is not None and (problems := _review_problems(reviewed, fought, taken)):
        raise ValidationError({"reviewed": problems})
    campaign = fought.campaign
    record = Engagement.objects.create(
        **_engagement_row(fought), actor=actor, request_key=request_key
    )
    entries: list[int] = []
    for t in taken:
        # Always recorded: a unit that came through untouched, or earned points short of a
        # step, is still told.
        for kind, _was, now, why, details in _steps(fought, t):
            entry = unit_change(
                unit=t.unit, state=now, kind=kind, why=why, day=campaign.day,
                details={"engagement": record.pk, **details}, actor=actor, always=True,
            )  # fmt: skip
            entries.append(entry.pk)
    record.applied_entries = entries
    record.save(update_fields=["applied_entries"])
    notices_after_commit(campaign)
    return record


def engagement_named(
    engagement: Engagement, entries: Iterable[HistoryEntry] | None = None
) -> Fight:
    """The engagement as its revert names it, in its entries and before
    (`reverts.revert_review`): one the GM did not name by its units, as its entries (its
    applied ones, read when not given) keep them; None for entries saved before they did."""
    if entries is None:
        entries = HistoryEntry.objects.filter(pk__in=engagement.applied_entries).only("details")
    by_units = next(
        (e.details["by_units"] for e in entries if isinstance(e.details.get("by_units"), str)),
        None,
    )
    return ("engagement", engagement.name, by_units)


@transaction.atomic
def engagement_revert(
    *, engagement: Engagement, reason: str, actor: Any = None
) -> list[HistoryEntry]:
    """Undo an applied engagement as revert entries, like a battle's outcome."""
    engagement = Engagement.objects.select_for_update().get(pk=engagement.pk)
    require_manager(engagement.campaign, actor)
    if engagement.state != Engagement.State.APPLIED:
        raise ValidationError({"engagement": "this engagement is reverted already"})
    entries = HistoryEntry.objects.filter(pk__in=engagement.applied_entries).select_related(
        "unit__force__campaign"
    )
    reverted = outcome_revert(
        entries=entries, reason=reason, actor=actor, fight=engagement_named(engagement, entries)
    )
    engagement.state = Engagement.State.REVERTED
    engagement.save(update_fields=["state"])
    return reverted
