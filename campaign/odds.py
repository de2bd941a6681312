"""The odds of a campaign battle, in campaign names: an odds run's figures
(``battles.odds_report``) with each side named by its forces and each engine unit as its roster
names it."""

from __future__ import annotations

from typing import Any

from battles.models import OddsRun
from battles.odds_report import OddsReport, odds_report
from campaign.models import Campaign, CampaignBattle, Unit
from campaign.pages.sides import campaign_force_colours, scenario_side_names, side_force_colours


def engine_unit_pk(engine_id: str) -> int | None:
    """The persistent unit behind an engine id (``<slug>-<pk>``, as the launch names them)."""
    tail = engine_id.rsplit("-", 1)[-1]
    return int(tail) if tail.isdigit() else None


def campaign_odds_report(run: OddsRun, campaign: Campaign) -> OddsReport | None:
    """The finished run's figures with the campaign's unit names; None until it is done."""
    summary = run.odds
    if run.status != OddsRun.Status.DONE or summary is None:
        return None
    units = [u for side in run.scenario.get("sides", []) for u in side.get("units", [])]
    pks = {u["id"]: engine_unit_pk(u["id"]) for u in units}
    found = {
        unit.pk: unit
        for unit in Unit.objects.filter(
            force__campaign=campaign, pk__in=[p for p in pks.values() if p]
        ).select_related("force")
    }
    # Each side by its forces, as the battle's own page names it; the scenario's name for a
    # side whose units are all gone from the campaign.
    forces = {}
    for side in run.scenario.get("sides", []):
        fielded = [found.get(pks[u["id"]]) for u in side.get("units", [])]
        forces[side["id"]] = [unit.force for unit in fielded if unit is not None]
    names = scenario_side_names(run.scenario.get("sides", []), forces)
    named: dict[str, Any] = {
        "sides": [
            {
                "id": side["id"],
                "name": names[side["id"]],
                "units": [
                    {"id": u["id"], "card": {"name": _name(found, pks[u["id"]], u["id"])}}
                    for u in side.get("units", [])
                ],
            }
            for side in run.scenario.get("sides", [])
        ]
    }
    # Each side in its first force's colour, as the battle's own page paints it.
    colours = campaign_force_colours(campaign.pk)
    firsts = [(side, colours[fs[0].pk] if fs else "") for side, fs in forces.items()]
    return odds_report(summary, named, side_force_colours(firsts))


def _name(found: dict[int, Unit], pk: int | None, engine_id: str) -> str:
    unit = found.get(pk) if pk is not None else None
    return unit.name if unit else engine_id


def odds_for_viewer(user: Any, campaign: Campaign, pk: int) -> OddsRun | None:
    """A run the set-up page may show: asked for by this user, or kept with one of the
    campaign's battles."""
    run = OddsRun.objects.filter(pk=pk).first()
    if run is None:
        return None
    kept = CampaignBattle.objects.filter(campaign=campaign, odds=run).exists()
    return run if kept or run.created_by_id == user.pk else None
