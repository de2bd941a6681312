"""The odds of a campaign battle, in campaign names: an odds run's figures
(``battles.odds_report``) with each engine unit named as its roster names it."""

from __future__ import annotations

from typing import Any

from battles.models import OddsRun
from battles.odds_report import OddsReport, odds_report
from campaign.models import Campaign, CampaignBattle, Unit


def engine_unit_pk(engine_id: str) -> int | None:
    """The persistent unit behind an engine id (``<slug>-<pk>``, as the launch names them)."""
    tail = engine_id.rsplit("-", 1)[-1]
    return int(tail) if tail.isdigit() else None


def campaign_odds_report(run: OddsRun, campaign: Campaign) -> OddsReport | None:
    """The finished run's figures with the campaign's unit names; None until it is done."""
    if run.status != OddsRun.Status.DONE or not run.result:
        return None
    units = [u for side in run.scenario.get("sides", []) for u in side.get("units", [])]
    pks = {u["id"]: engine_unit_pk(u["id"]) for u in units}
    names = dict(
        Unit.objects.filter(
            force__campaign=campaign, pk__in=[p for p in pks.values() if p]
        ).values_list("pk", "name")
    )
    named: dict[str, Any] = {
        "sides": [
            {
                "id": side["id"],
                "name": side.get("name", side["id"]),
                "units": [
                    {"id": u["id"], "card": {"name": names.get(pks[u["id"]], u["id"])}}
                    for u in side.get("units", [])
                ],
            }
            for side in run.scenario.get("sides", [])
        ]
    }
    # The sides in the scenario's order, which gives each its colour (a JSON column may hand
    # the keys back in another order).
    order = [side["id"] for side in named["sides"] if side["id"] in run.result["sides"]]
    result = {**run.result, "sides": {side: run.result["sides"][side] for side in order}}
    return odds_report(result, named)


def odds_for_viewer(user: Any, campaign: Campaign, pk: int) -> OddsRun | None:
    """A run the set-up page may show: asked for by this user, or kept with one of the
    campaign's battles."""
    run = OddsRun.objects.filter(pk=pk).first()
    if run is None:
        return None
    kept = CampaignBattle.objects.filter(campaign=campaign, odds=run).exists()
    return run if kept or run.created_by_id == user.pk else None
