"""Budgets: how much worker time one user, or one campaign, may have queued or running at once.

Every launch has a cost known before it is queued: its battles times one battle's bounded cost,
counted in unit-pair turns (``battle_cost``: the engine's time grows with the turns and with the
pairs of enemy units, bench/README.md "growth", and with the corners of water an Amphibious unit
paths over; the scenario limits bound all three). A launch that
would take its user past ``WORK_USER_LIMIT``, or its campaign past ``WORK_CAMPAIGN_LIMIT``, or a
user past ``WORK_USER_BATTLES`` battles or ``WORK_USER_ODDS_RUNS`` odds runs in flight, is refused
before anything is saved, saying why and about when to try again. Work in flight is read from
the battle and odds-run rows themselves, so there is no counter to drift.
"""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.db.models import F, QuerySet, Sum

from battles.engine import Keyword, Scenario
from battles.models import IN_FLIGHT, Battle, OddsRun
from battles.refusals import WorkRefused

PATH_CORNERS = 128
"""Corners of water that double the cost of an Amphibious unit's turns (see ``battle_cost``)."""


def battle_cost(scenario: Scenario) -> int:
    """One battle's bounded cost: turns times pairs of enemy units (at least 1), and the pathing
    over water when a unit is Amphibious.

    Water is a cost region for an Amphibious unit, so its paths are searched over a graph of
    every corner of water (``water_corners``), unpruned: building it takes about the square of
    their number (in units of work, once a battle), and every move is searched over it, which
    adds to each unit-pair turn a share of the corners over ``PATH_CORNERS``.
    """
    first, second = scenario.sides
    pairs = scenario.turn_limit * len(first.units) * len(second.units)
    wet = water_corners(scenario) if _amphibious(scenario) else 0
    return max(1, pairs * (PATH_CORNERS + wet) // PATH_CORNERS + wet * wet)


def water_corners(scenario: Scenario) -> int:
    """Corners of the water pieces, and of the buildings that fall to water: the corners an
    Amphibious unit's paths are searched over (the scenario limits bound them,
    ``MAX_WATER_CORNERS``)."""
    wet = sum(len(t.polygon.points) for t in scenario.terrain if t.props.water)
    return wet + sum(len(b.polygon.points) for b in scenario.buildings if b.card.rubble.water)


def _amphibious(scenario: Scenario) -> bool:
    """Whether a unit moves over water at a cost (Amphibious, not Aerial: an Aerial unit pays
    nothing for any terrain)."""
    return any(
        u.card.has(Keyword.AMPHIBIOUS) and not u.card.has(Keyword.AERIAL)
        for side in scenario.sides
        for u in side.units
    )


def battles_cost(battles: QuerySet[Battle]) -> int:
    """The cost of the battles among ``battles`` still queued or running."""
    return battles.filter(status__in=IN_FLIGHT).aggregate(total=Sum("cost"))["total"] or 0


def odds_cost(runs: QuerySet[OddsRun]) -> int:
    """What the runs among ``runs`` may still fight: their chunks not yet counted, up to the
    ceiling (a run that stops early, precise enough, gives the rest back as it stops)."""
    left = runs.filter(status__in=IN_FLIGHT).annotate(
        left=(F("chunks_total") - F("chunks_done")) * F("chunk_size") * F("cost")
    )
    return left.aggregate(total=Sum("left"))["total"] or 0


def user_in_flight(user: Any) -> tuple[int, int, int]:
    """(battles, odds runs, cost) ``user`` has queued or running."""
    battles = Battle.objects.filter(created_by=user)
    runs = OddsRun.objects.filter(created_by=user)
    return (
        battles.filter(status__in=IN_FLIGHT).count(),
        runs.filter(status__in=IN_FLIGHT).count(),
        battles_cost(battles) + odds_cost(runs),
    )


def _wait(cost: int) -> int:
    """About how long ``cost`` takes one worker process, in whole seconds (at least a minute)."""
    return max(60, math.ceil(cost * settings.WORK_SECONDS_PER_UNIT))


def _minutes(seconds: int) -> str:
    minutes = math.ceil(seconds / 60)
    return "a minute" if minutes == 1 else f"{minutes} minutes"


def check(
    user: Any,
    *,
    cost: int,
    odds_run: bool = False,
    campaign_battles: QuerySet[Battle] | None = None,
) -> None:
    """Raise ``WorkRefused`` if ``user`` may not start work of ``cost`` now.

    ``odds_run`` says it is an odds run (else one battle); ``campaign_battles`` are the battles
    of the campaign it is launched for, whose total has a budget of its own.
    """
    limit = settings.WORK_USER_LIMIT
    if cost > limit:
        raise WorkRefused(
            f"This is {cost:,} units of work (battles × turns × pairs of enemy units), more than "
            f"the {limit:,} one person may have in flight: fewer battles, turns or units fit.",
            retry_after=0,
        )
    if user is not None and getattr(user, "is_authenticated", False):
        battles, runs, in_flight = user_in_flight(user)
        if odds_run and runs >= settings.WORK_USER_ODDS_RUNS:
            wait = _wait(in_flight)
            raise WorkRefused(
                f"You have {runs} odds runs queued or running, the most at once. Try again when "
                f"one has finished (in about {_minutes(wait)}), or cancel one.",
                retry_after=wait,
            )
        if not odds_run and battles >= settings.WORK_USER_BATTLES:
            wait = _wait(in_flight)
            raise WorkRefused(
                f"You have {battles} battles queued or running, the most at once. Try again when "
                f"some have finished (in about {_minutes(wait)}), or cancel one.",
                retry_after=wait,
            )
        if in_flight + cost > limit:
            wait = _wait(in_flight + cost - limit)
            raise WorkRefused(
                f"You have {in_flight:,} units of work in flight; this needs {cost:,} more, past "
                f"your {limit:,}. Try again in about {_minutes(wait)}, or cancel queued work.",
                retry_after=wait,
            )
    if campaign_battles is not None:
        shared = battles_cost(campaign_battles)
        limit = settings.WORK_CAMPAIGN_LIMIT
        if shared + cost > limit:
            wait = _wait(shared + cost - limit)
            raise WorkRefused(
                f"The campaign has {shared:,} units of work in flight; this battle needs "
                f"{cost:,} more, past its {limit:,}. Try again in about {_minutes(wait)}.",
                retry_after=wait,
            )
