"""Reads for the battle pages: who may see which battle or odds run, logs, reference scenarios.

Every lookup of a battle or an odds run for a page goes through ``battle_for_viewer`` or
``odds_run_for_viewer``: one place decides visibility, and anything not visible is a 404, so a
stranger cannot even learn that a battle exists. Campaign pages decide visibility of campaign
battles with their own checks and then reuse the report (``battles.report_context``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404

from battles.engine import Event, log_from_dict
from battles.models import ONE_OFF, Battle, BattleLog, OddsRun

SCENARIO_DIR = Path(__file__).resolve().parent / "engine" / "scenarios"
"""The reference scenarios shipped with the engine: one JSON file each."""


# --- visibility ---------------------------------------------------------------------------------


def battles_visible_to(user) -> QuerySet[Battle]:
    """Battles ``user`` may open: their own one-off battles; everything for a superuser."""
    if not user.is_authenticated:
        return Battle.objects.none()
    if user.is_superuser:
        return Battle.objects.all()
    return Battle.objects.filter(created_by=user)


def battle_for_viewer(user, pk: int, *, with_log: bool = False, lean: bool = False) -> Battle:
    """The battle if ``user`` may see it, else ``Http404`` (never a hint that it exists).

    ``with_log`` joins the log in the same query, for the report; ``lean`` leaves the scenario
    snapshot to be read only if asked for (a kept report page needs neither).
    """
    battles = battles_visible_to(user)
    if with_log:
        battles = battles.select_related("log")
    if lean:
        battles = battles.defer("scenario")
    return get_object_or_404(battles, pk=pk)


def odds_runs_visible_to(user) -> QuerySet[OddsRun]:
    """Odds runs ``user`` may open: their own; everything for a superuser."""
    if not user.is_authenticated:
        return OddsRun.objects.none()
    if user.is_superuser:
        return OddsRun.objects.all()
    return OddsRun.objects.filter(created_by=user)


def odds_run_for_viewer(user, pk: int) -> OddsRun:
    """The odds run if ``user`` may see it, else ``Http404``."""
    return get_object_or_404(odds_runs_visible_to(user), pk=pk)


LISTED = 50
"""How many of a user's one-off battles, or odds runs, a list of them shows at a time."""


def battles_of(user) -> QuerySet[Battle]:
    """The user's own one-off battles for a list, the latest first, without the scenario
    snapshot: those fought for no other part of the site (`ONE_OFF`; a campaign lists its
    own)."""
    return Battle.objects.filter(ONE_OFF, created_by=user).defer("scenario")


def odds_runs_of(user) -> QuerySet[OddsRun]:
    """The user's own odds runs for a list, the latest first, without the scenario snapshot."""
    return OddsRun.objects.filter(created_by=user).defer("scenario")


# --- logs ---------------------------------------------------------------------------------------


def battle_log(battle: Battle) -> BattleLog | None:
    """The stored log of a finished battle, or None (queued, running, failed)."""
    try:
        return battle.log
    except BattleLog.DoesNotExist:
        return None


def log_events(log: BattleLog) -> list[Event]:
    """The log's events, back as engine events."""
    return log_from_dict(json.loads(log.events))


# --- reference scenarios ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ReferenceScenario:
    """A scenario shipped with the engine, offered on the set-up pages."""

    slug: str
    """The file's name without ``.json``."""
    name: str
    description: str
    ruleset: str
    turn_limit: int | None
    data: dict[str, Any]
    """The document itself, unvalidated (``parse_scenario`` checks it at launch)."""


def reference_scenarios() -> list[ReferenceScenario]:
    """Every reference scenario, by name. Read on each call: the files are few and small, and a
    scenario added to the folder appears without a restart."""
    found = []
    for path in sorted(SCENARIO_DIR.glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue  # a broken file is the engine tests' business; the page offers the rest
        if not isinstance(data, dict):
            continue
        limit = data.get("turn_limit")
        found.append(
            ReferenceScenario(
                slug=path.stem,
                name=str(data.get("name") or path.stem),
                description=str(data.get("description") or ""),
                ruleset=str(data.get("ruleset") or ""),
                turn_limit=limit if isinstance(limit, int) else None,
                data=data,
            )
        )
    return sorted(found, key=lambda s: s.name)


def reference_scenario(slug: str) -> ReferenceScenario:
    """One reference scenario by slug, or ``Http404``."""
    for scenario in reference_scenarios():
        if scenario.slug == slug:
            return scenario
    raise Http404("no such scenario")
