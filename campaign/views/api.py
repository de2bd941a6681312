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

from battles.engine.events import EndReason
from battles.report_context import END_REASON_TEXT
from campaign.access import FULL, Viewer, campaign_for_viewer, force_for_viewer, unit_for_viewer
from campaign.models import CampaignBattle, Force, Unit
from campaign.pages.fights import battle_records_page
from campaign.pages.forces import force_summaries
from campaign.pages.history_words import entry_line
from campaign.pages.roster import RosterLine
from campaign.pages.sides import battle_sides, battle_winner, campaign_force_colours, moved_since
from campaign.pages.timeline import clean_cursor
from campaign.rules.orders import OrderKind, clock_text
from campaign.rules.state import Status
from campaign.selectors.entries import unit_story
from campaign.selectors.roster import campaign_now, with_moved
from campaign.services.going_in import printed_line, printed_roster
from campaign.services.orders import orders_under_way


def _unit(line: RosterLine, viewer: Viewer) -> dict[str, Any]:
    """A unit as its page gives it: ``battle_card`` is the card printed for a battle at a real
    table; where a battle fought by the engine, under the set-up's standing Order, gives it
    another, ``engine_battle_card`` is that one and ``engine_card_changes`` says what changes
    ("Skill 3, not 2"); else they are null and ""."""
    unit = line.unit
    changes = line.engine_changes
    return {
        "id": unit.pk,
        "url": reverse("campaign:unit-json", args=[viewer.campaign.pk, unit.pk]),
        "card_name": unit.unit_type.name,
        **unit.state.to_json(),
        "effective_quality": unit.effective_quality.label,
        "battle_card": line.card,
        "engine_battle_card": line.engine_card if changes else None,
        "engine_card_changes": changes,
        "needs_medics": line.needs_medics,
    }


def _force_summary(
    force: Force, units: int, ready: int | None, destroyed: int | None, viewer: Viewer
) -> dict[str, Any]:
    """A force as the dashboard lists it: ``units`` counts every unit on its roster, the
    destroyed too, and ``destroyed`` says how many of them are. How many are ready, and how
    many destroyed, is part of its roster, so ``null`` for a force the viewer sees only in
    summary (its losses untold, as on its page)."""
    full = viewer.sight(force) == FULL
    return {
        "id": force.pk,
        "name": force.name,
        "owner": force.owner.get_username(),
        "units": units,
        "ready": ready if full else None,
        "destroyed": destroyed if full else None,
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
                _force_summary(s.force, s.units, s.ready, s.destroyed, viewer)
                for s in force_summaries(campaign)
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
        return JsonResponse(_force_summary(force, force.units.count(), None, None, viewer))
    # The cards a real table prints, as on each unit's page; the engine's differences beside.
    lines = printed_roster(force)
    statuses = [line.unit.status for line in lines]
    data = _force_summary(
        force,
        len(lines),
        statuses.count(Status.READY),
        statuses.count(Status.DESTROYED),
        viewer,
    )
    data["roster"] = [_unit(line, viewer) for line in lines]
    return JsonResponse(data)


@login_required
@require_GET
def unit_json(request: HttpRequest, pk: int, unit_pk: int) -> JsonResponse:
    viewer = campaign_for_viewer(request.user, pk)
    unit = unit_for_viewer(viewer, unit_pk)
    data = _unit(printed_line(viewer.campaign, unit, campaign_now(viewer.campaign)), viewer)
    data["force"] = unit.force.name
    # The Order it is under, as its page says it (campaign terms, not ids).
    order = orders_under_way(viewer.campaign, [unit]).get(unit.pk)
    data["order"] = (
        None
        if order is None
        else {
            "kind": order.kind,
            "label": OrderKind(order.kind).label,
            "given_by": order.giver.name,
            "note": order.note,
            "until": clock_text(order.finishes_at),
        }
    )
    # A page of its history, as the unit's page reads it (`unit_story`): the latest entries,
    # or those before ``?before=``, with how many there are and the pages either side. Each
    # entry's text as the page tells it (`entry_line`), not as it was stored with its field
    # changes ("last battle on day none → 2"): those are in `before` and `after`.
    story = unit_story(unit=unit, before=clean_cursor(request.GET.get("before")))
    if not story.entries:
        story = unit_story(unit=unit)  # nothing there: the latest entries
    url = reverse("campaign:unit-json", args=[pk, unit.pk])
    now: dict[str, Any] = dict(story.was)
    data["history"] = []
    for entry in story.entries:
        now.update(entry.after)  # the unit's snapshot after this entry
        data["history"].append(
            {
                "day": entry.day,
                "kind": entry.kind,
                "text": entry_line(entry, now),
                "before": entry.before,
                "after": entry.after,
                "battle": entry.battle_id,
            }
        )
    data["history_count"] = story.total
    data["earlier"] = None if story.earlier is None else f"{url}?before={story.earlier}"
    data["later"] = {None: None, 0: url}.get(story.later, f"{url}?before={story.later}")
    return JsonResponse(data)


def _battle(
    cb: CampaignBattle,
    viewer: Viewer,
    units: dict[int, Unit],
    fought_for: dict[int, Force],
    colours: dict[int, str],
) -> dict[str, Any]:
    """A battle as its page gives it to the viewer: sides and units by their names, and what
    the battle did to a unit only where the viewer sees its force in full (`Viewer.sight`);
    a unit of a force seen in summary is named and no more, as on the page."""
    result = None if cb.battle is None else cb.battle.result
    # The sides in the engine's order, which the result keeps (the scenario is not read here),
    # or while it is fought, from the side its scenario lists first (`battles_listed`).
    order = [{"id": s["side"], "name": s["name"]} for s in (result or {}).get("sides", [])]
    order = order or [{"id": cb.first_side}]
    sides = battle_sides(cb, units, order, fought_for, colours)
    names = {side.id: side.name for side in sides}
    winner = battle_winner(cb)

    def seen(pk: int) -> bool:
        return viewer.manages or (pk in units and viewer.sight(units[pk].force) == FULL)

    if cb.state in (CampaignBattle.State.FIGHTING, CampaignBattle.State.FAILED):
        outcome = None
    else:
        outcome = f"{names.get(winner, winner)} won" if winner else "a draw"
    data: dict[str, Any] = {
        "id": cb.pk,
        "name": cb.name,
        "day": cb.day,
        "state": cb.state,
        "state_text": cb.get_state_display(),
        "sides": [
            {
                "id": side.id,
                "name": side.name,
                "players": side.players,
                "units": [
                    {
                        "id": u.pk,
                        "name": u.name,
                        # The force it fought for, and the one it is in now (moved since).
                        "force": fought_for.get(u.pk, u.force).name,
                        "now_in": u.force.name,
                        "seen": viewer.sight(u.force),
                    }
                    for u in side.units
                ],
            }
            for side in sides
        ],
        "winner": winner,
        "winner_name": names.get(winner) if winner else None,
        "outcome": outcome,
        "table_result": None,
        "engine_result": None,
        "battle_status": None if cb.battle is None else cb.battle.status,
        "url": reverse("campaign:battle", args=[viewer.campaign.pk, cb.pk]),
    }
    if cb.table_result is not None:
        data["table_result"] = {
            "winner": cb.table_result["winner"],
            "units": {
                pk: {"name": units[int(pk)].name if int(pk) in units else None, **outcome}
                for pk, outcome in cb.table_result["units"].items()
                if seen(int(pk))
            },
        }
    if result is not None:
        fought = {eid: int(pk) for eid, pk in cb.engine_units.items()}
        data["engine_result"] = {
            **result,
            "end_reason_text": END_REASON_TEXT[EndReason(result["end_reason"])],
            "sides": [{**s, "name": names.get(s["side"], s["name"])} for s in result["sides"]],
            "units": [
                {
                    **u,
                    "unit": fought.get(u["unit"]),
                    "name": units[fought[u["unit"]]].name
                    if fought.get(u["unit"]) in units
                    else None,
                    "card": u["name"],
                }
                for u in result["units"]
                if viewer.manages or (u["unit"] in fought and seen(fought[u["unit"]]))
            ],
        }
    return data


@login_required
@require_GET
def battles_json(request: HttpRequest, pk: int) -> JsonResponse:
    """The campaign's battles a page at a time (``?page=2``), as the Every battle page lists
    them (`battle_records_page`): the latest first, `FIGHTS_A_PAGE` a page, with how many
    there are and the address of the next page and the previous (null at either end)."""
    viewer = campaign_for_viewer(request.user, pk)
    battles, number, pages, count = battle_records_page(
        viewer.campaign, clean_cursor(request.GET.get("page"))
    )
    fought = {pk for cb in battles for side in cb.sides.values() for pk in side}
    found = Unit.objects.filter(pk__in=fought, force__campaign=viewer.campaign)
    units = {u.pk: u for u in with_moved(found.select_related("force__owner"))}
    fought_for = moved_since(
        (cb, [units[pk] for pk in {pk for side in cb.sides.values() for pk in side} if pk in units])
        for cb in battles
    )
    colours = campaign_force_colours(viewer.campaign.pk)
    url = reverse("campaign:battles-json", args=[pk])

    def page_url(n: int) -> str | None:
        return (url if n == 1 else f"{url}?page={n}") if 1 <= n <= pages else None

    return JsonResponse(
        {
            "battles": [_battle(cb, viewer, units, fought_for[cb.pk], colours) for cb in battles],
            "count": count,
            "page": number,
            "pages": pages,
            "next": page_url(number + 1),
            "previous": page_url(number - 1),
        }
    )
