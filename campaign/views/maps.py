"""The campaign's own maps: the map editor (add, edit, check) and removing a map."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from battles.engine.loader import TABLE_SIDE
from battles.engine.validation import MAX_SCENARIO_TEXT, MAX_TABLE
from battles.forms import focus_first_error
from battles.jsontext import read_json
from campaign.access import Viewer, campaign_for_viewer, require_manage
from campaign.deploy import SNAP
from campaign.forms import SavedMapForm, add_service_errors
from campaign.map_numbers import MIN_TABLE, MapNumbersForm
from campaign.models import SavedMap
from campaign.rules.values import TURN_LIMIT_MAX
from campaign.services.maps import (
    SPOT_CARD,
    map_problems,
    saved_map_create,
    saved_map_edit,
    saved_map_remove,
)
from campaign.transfer.format import FORMAT_KINDS
from campaign.views._common import action_done, base_context
from units.models import UnitType

MAP_EDITOR = "campaign/map_form.html"


PALETTE = (
    ("woods", "Woods"),
    ("rubble", "Rubble field"),
    ("hill", "Hill"),
    ("river", "River"),
    ("water", "Lake"),
    ("wall", "Wall"),
    ("hazard", "Hazard"),
    ("open", "Open ground"),
)
"""The map editor's terrain palette: scenario kinds (docs/scenario.md) under their table names."""


def _library_buildings(viewer: Viewer):
    return UnitType.objects.filter(
        kind=UnitType.Kind.BUILDING, ruleset=viewer.campaign.ruleset
    ).order_by("name")


def _numbers_form(
    viewer: Viewer, data: Any = None, saved: SavedMap | None = None
) -> MapNumbersForm:
    return MapNumbersForm(
        data,
        scenario=saved.scenario if saved else None,
        palette=PALETTE,
        buildings=list(_library_buildings(viewer)),
        ruleset=viewer.campaign.ruleset,
        spot_card=SPOT_CARD,
    )


def _editor_context(
    viewer: Viewer,
    form: SavedMapForm,
    numbers: MapNumbersForm | None = None,
    saved: SavedMap | None = None,
) -> dict[str, Any]:
    """The map editor's page: for a new map, or for ``saved`` (its forms filled with it, and
    sent to its own address)."""
    buildings = _library_buildings(viewer)
    pk = viewer.campaign.pk
    return base_context(
        viewer,
        map_form=form,
        numbers_form=numbers or _numbers_form(viewer, saved=saved),
        editing=saved,
        form_url=reverse("campaign:map-edit", args=[pk, saved.pk])
        if saved
        else reverse("campaign:map-add", args=[pk]),
        palette=PALETTE,
        editor_data={
            "ruleset": viewer.campaign.ruleset,
            "palette": [kind for kind, _ in PALETTE],
            "buildings": [{"id": b.pk, "name": b.name, "card": b.card} for b in buildings],
            "spot_card": SPOT_CARD,
            "snap": SNAP,
            "table_side": TABLE_SIDE,
            # A site export chosen as a map file is told for what it is (map-editor.js).
            "exports": FORMAT_KINDS,
        },
        library_buildings=buildings,
        table_sides=(MIN_TABLE, MAX_TABLE),
        turn_limit_max=TURN_LIMIT_MAX,
    )


@login_required
@require_http_methods(["GET", "POST"])
def map_add(request: HttpRequest, pk: int) -> HttpResponse:
    """The map editor, and keeping a GM's own map; it then appears among the set-up page's
    scenarios."""
    viewer = campaign_for_viewer(request.user, pk)
    require_manage(viewer)
    return _map_editor(request, viewer, None)


@login_required
@require_http_methods(["GET", "POST"])
def map_edit(request: HttpRequest, pk: int, map_pk: int) -> HttpResponse:
    """The map editor on a saved map, and keeping it changed in place."""
    viewer = campaign_for_viewer(request.user, pk)
    require_manage(viewer)
    saved = viewer.campaign.maps.filter(pk=map_pk).first()
    if saved is None:
        raise Http404("no such map in this campaign")
    return _map_editor(request, viewer, saved)


def _map_editor(request: HttpRequest, viewer: Viewer, saved: SavedMap | None) -> HttpResponse:
    """The map editor for a new map (``saved`` None) or a saved one: drawn, as numbers or as
    a pasted document, and kept."""
    if request.method == "GET":
        return render(request, MAP_EDITOR, _editor_context(viewer, _map_form(saved), saved=saved))
    if "numbers" in request.POST:
        return _map_numbers(request, viewer, saved)
    form = SavedMapForm(request.POST)
    if form.is_valid():
        try:
            return _map_keep(request, viewer, saved, form.cleaned_data)
        except ValidationError as error:
            add_service_errors(form, error)
    focus_first_error(form)
    context = _editor_context(viewer, form, saved=saved)
    return render(request, MAP_EDITOR, context, status=400)


def _map_keep(
    request: HttpRequest, viewer: Viewer, saved: SavedMap | None, data: dict[str, Any]
) -> HttpResponse:
    """Keep the map (a new one, or ``saved`` changed), then back to the set-up page with it
    chosen, saying so."""
    if saved is None:
        kept = saved_map_create(campaign=viewer.campaign, name=data["name"],
                                text=data["scenario"], actor=request.user)  # fmt: skip
        messages.success(request, f"Map {kept.name} saved.")
    else:
        kept = saved_map_edit(saved_map=saved, name=data["name"], text=data["scenario"],
                              actor=request.user)  # fmt: skip
        messages.success(request, f"Map {kept.name} saved; the battles fought on it before "
                                  "keep the table they were fought on.")  # fmt: skip
    url = reverse("campaign:battle-setup", args=[viewer.campaign.pk])
    return redirect(url + f"?scenario=map-{kept.pk}")


@login_required
@require_POST
def map_remove(request: HttpRequest, pk: int, map_pk: int) -> HttpResponse:
    """Take a saved map off the set-up page's list; back there, saying so."""
    viewer = campaign_for_viewer(request.user, pk)
    require_manage(viewer)
    saved = viewer.campaign.maps.filter(pk=map_pk).first()
    url = reverse("campaign:battle-setup", args=[pk])
    if saved is None:
        # Removed already (a double click, a second tab): what the page shows is so.
        return action_done(request, url, "That map is removed already.", messages.INFO)
    name = saved_map_remove(saved_map=saved, actor=request.user)
    said = f"Map {name} removed; the battles fought on it keep their table."
    return action_done(request, url, said)


def _map_numbers(request: HttpRequest, viewer: Viewer, saved: SavedMap | None) -> HttpResponse:
    """The map as numbers (the editor without JavaScript): checked by the engine, each problem
    on the field of the piece it names, and kept as the drawn editor's map would be."""
    numbers = _numbers_form(viewer, request.POST)
    if "more" in request.POST:
        more = numbers.with_more_rows()
        context = _editor_context(viewer, _map_form(saved), more, saved=saved)
        return render(request, MAP_EDITOR, context)
    if numbers.is_valid():
        scenario = numbers.scenario()
        problems = map_problems(campaign=viewer.campaign, scenario=scenario)
        for problem in problems:
            numbers.pin(problem["path"], problem["reason"])
        if not problems:
            data = {"name": numbers.cleaned_data["name"], "scenario": json.dumps(scenario)}
            try:
                return _map_keep(request, viewer, saved, data)
            except ValidationError as error:
                for field, reasons in error.message_dict.items():
                    for reason in reasons:
                        numbers.add_error("name" if field == "name" else None, reason)
    focus_first_error(numbers)
    context = _editor_context(viewer, _map_form(saved), numbers, saved=saved)
    return render(request, MAP_EDITOR, context, status=400)


def _map_form(saved: SavedMap | None) -> SavedMapForm:
    """The pasted document's form, unsent: empty for a new map, holding a saved one's."""
    initial = {"name": saved.name, "scenario": json.dumps(saved.scenario)} if saved else {}
    return SavedMapForm(initial=initial)


@login_required
@require_POST
def map_check(request: HttpRequest, pk: int) -> JsonResponse:
    """The map editor's live check: the engine's validator on the map as drawn so far, each
    problem with the piece it names. Nothing is written.

    A map document, however wrong, is answered 200 with its problems: that is the check
    working. A body that is no map document at all (too long, not JSON, not an object) is a
    bad request, 400, its one problem saying why, as the editor never sends one."""
    viewer = campaign_for_viewer(request.user, pk)
    require_manage(viewer)
    # The map is held to a pasted scenario's limit, counted before the text is read.
    text = request.body.decode("utf-8", "replace")
    if len(text) > MAX_SCENARIO_TEXT:
        reason = f"must be at most {MAX_SCENARIO_TEXT} characters of JSON, got {len(text)}"
        return _map_unread(reason)
    try:
        scenario = read_json(request.body)
    except ValueError as error:
        return _map_unread(str(error))
    problems = map_problems(campaign=viewer.campaign, scenario=scenario)
    return JsonResponse({"problems": problems}, status=200 if isinstance(scenario, dict) else 400)


def _map_unread(reason: str) -> JsonResponse:
    """The live check's answer to a body it cannot read as a map: 400, and why."""
    return JsonResponse({"problems": [{"path": "", "reason": reason, "piece": None}]}, status=400)
