"""Read-only JSON for players' own tools: a campaign, a force, a unit with its history, battles.

Behind the same lookups as the pages (anonymous users are sent to log in, outsiders get 404), and
a force another player may see only in summary comes back as its summary.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, JsonResponse
from django.urls import reverse
from django.views.decorators.http import require_GET

from campaign.access import FULL, Viewer, campaign_for_viewer, force_for_viewer, unit_for_viewer
from campaign.models import CampaignBattle, Force, Unit
from campaign.pages import battle_winner, force_summaries, roster_line, roster_lines
from campaign.selectors import campaign_now, unit_history


def _unit(unit: Unit, viewer: Viewer) -> dict[str, Any]:
    line = roster_line(unit, campaign_now(viewer.campaign))
    return {
        "id": unit.pk,
        "url": reverse("campaign:unit-json", args=[viewer.campaign.pk, unit.pk]),
        "card_name": unit.unit_type.name,
        **unit.state.to_json(),
        "effective_quality": unit.effective_quality.label,
        "battle_card": line.card,
        "needs_medics": line.needs_medics,
    }


def _force_summary(force: Force, units: int, ready: int, viewer: Viewer) -> dict[str, Any]:
    return {
        "id": force.pk,
        "name": force.name,
        "owner": force.owner.get_username(),
        "units": units,
        "ready": ready,
        "visible": viewer.sight(force),
        "url": reverse("campaign:force-json", args=[viewer.campaign.pk, force.pk]),
    }


@login_required
@require_GET
def campaign_json(request: HttpRequest, pk: int) -> JsonResponse:
    viewer = campaign_for_viewer(request.user, pk)
    campaign = viewer.campaign
    return JsonResponse(
        {
            "id": campaign.pk,
            "name": campaign.name,
            "ruleset": campaign.ruleset,
            "day": campaign.day,
            "gm": campaign.gm.get_username(),
            "your_role": viewer.role,
            "apply_mode": campaign.apply_mode,
            "other_forces_visible": campaign.other_forces_visible,
            "forces": [
                _force_summary(s.force, s.units, s.ready, viewer) for s in force_summaries(campaign)
            ],
            "battles_url": reverse("campaign:battles-json", args=[pk]),
        }
    )


@login_required
@require_GET
def force_json(request: HttpRequest, pk: int, force_pk: int) -> JsonResponse:
    viewer = campaign_for_viewer(request.user, pk)
    force = force_for_viewer(viewer, force_pk)
    if viewer.sight(force) != FULL:
        ready = force.units.filter(status="ready").count()
        return JsonResponse(_force_summary(force, force.units.count(), ready, viewer))
    lines = roster_lines(force)
    data = _force_summary(
        force, len(lines), sum(line.unit.status == "ready" for line in lines), viewer
    )
    data["roster"] = [_unit(line.unit, viewer) for line in lines]
    return JsonResponse(data)


@login_required
@require_GET
def unit_json(request: HttpRequest, pk: int, unit_pk: int) -> JsonResponse:
    viewer = campaign_for_viewer(request.user, pk)
    unit = unit_for_viewer(viewer, unit_pk)
    data = _unit(unit, viewer)
    data["force"] = unit.force.name
    data["history"] = [
        {
            "day": entry.day,
            "kind": entry.kind,
            "text": entry.text,
            "before": entry.before,
            "after": entry.after,
            "battle": entry.battle_id,
        }
        for entry in unit_history(unit=unit)
    ]
    return JsonResponse(data)


@login_required
@require_GET
def battles_json(request: HttpRequest, pk: int) -> JsonResponse:
    viewer = campaign_for_viewer(request.user, pk)
    battles = CampaignBattle.objects.filter(campaign=viewer.campaign).select_related("battle")
    return JsonResponse(
        {
            "battles": [
                {
                    "id": cb.pk,
                    "name": cb.name,
                    "day": cb.day,
                    "state": cb.state,
                    "sides": cb.sides,
                    "winner": battle_winner(cb),
                    "table_result": cb.table_result,
                    "engine_result": None if cb.battle is None else cb.battle.result,
                    "battle_status": None if cb.battle is None else cb.battle.status,
                    "url": reverse("campaign:battle", args=[pk, cb.pk]),
                }
                for cb in battles.defer("battle__scenario")
            ]
        }
    )
