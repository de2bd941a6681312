"""A campaign battle set up: on a reference scenario, its sides and deployment checked as the GM
goes and its odds asked, then launched; or a table battle's result entered by hand."""

from __future__ import annotations

import copy
import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect, HttpResponseStopPolling

from battles.engine import ScenarioError, parse_scenario
from battles.forms import focus_first_error
from battles.odds_report import odds_stopped
from battles.report_context import renamed_sides
from battles.selectors import ReferenceScenario, reference_scenarios
from battles.table import table_view
from campaign.access import campaign_for_viewer, require_manage
from campaign.battle_forms import BattleSetupForm, TableResultForm, browsed
from campaign.deploy import deploy_map, side_roles
from campaign.forms import SavedMapForm, add_service_errors
from campaign.models import Campaign, SavedMap
from campaign.odds import campaign_odds_report, odds_for_viewer
from campaign.pages.left_out import battles_holding
from campaign.rules.damage import skill_restored_after
from campaign.selectors.roster import campaign_now
from campaign.services.battles import (
    campaign_battle_check,
    campaign_battle_launch,
    campaign_battle_odds,
    campaign_battle_odds_keep,
    campaign_battle_record,
)
from campaign.services.going_in import table_cards
from campaign.services.orders import orders_under_way
from campaign.templatetags.sentences import as_sentence
from campaign.units_offered import units_offered
from campaign.views._common import base_context, form_action

SETUP = "campaign/battle_setup.html"
RECORD = "campaign/battle_record.html"


SCENARIO_GONE = (
    "The scenario this set-up was for is no longer offered (a map removed since the page was "
    "drawn): nothing was launched. Set the battle up again on a scenario from the list."
)


def _chosen_scenario(slug: str | None, campaign: Campaign, maps: list[SavedMap]):
    # Only scenarios written for the campaign's ruleset: their terrain and objectives were laid
    # out for that kind of force (a landing for amphibious suits strands tanks in the sea).
    # Then the campaign's own saved maps (checked under its ruleset when saved).
    scenarios = [s for s in reference_scenarios() if s.ruleset == campaign.ruleset]
    scenarios += [
        ReferenceScenario(
            slug=f"map-{m.pk}",
            name=f"{m.name} (saved map)",
            description="",
            ruleset=campaign.ruleset,
            turn_limit=m.scenario.get("turn_limit"),
            data=m.scenario,
        )
        for m in maps
    ]
    if not scenarios:
        raise Http404("no reference scenarios are installed for this ruleset")
    chosen = next((s for s in scenarios if s.slug == slug), None)
    return scenarios, chosen or scenarios[0]


def _table(data: dict[str, Any], side_names: dict[str, str]):
    """The scenario's table drawn as the battle pages draw it, without the scenario's own units
    (the campaign's stand there instead, and the map's names keep clear of them only), its
    sides called by ``side_names``; None if the scenario does not validate (the launch then
    says why)."""
    try:
        scenario = renamed_sides(parse_scenario(data), side_names)
        return table_view(scenario, unseen=frozenset(u.id for u in scenario.units()))
    except ScenarioError:
        return None


def _setup(request: HttpRequest, pk: int):
    """The set-up's viewer, scenarios, chosen scenario, the units on offer and not, and the
    campaign's saved maps (among the scenarios, and listed to be removed)."""
    viewer = campaign_for_viewer(request.user, pk)
    require_manage(viewer)
    source = request.POST if request.method == "POST" else request.GET
    maps = list(viewer.campaign.maps.all())
    scenarios, chosen = _chosen_scenario(source.get("scenario"), viewer.campaign, maps)
    # A unit out of action, or still in a battle whose outcome is not applied, is not offered
    # (the launch would refuse it): the page names it and says why instead.
    return viewer, scenarios, chosen, units_offered(viewer.campaign, source), maps


@login_required
@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def battle_setup(request: HttpRequest, pk: int) -> HttpResponse:
    viewer, scenarios, chosen, offer, maps = _setup(request, pk)
    units, engaged = offer.units, offer.engaged
    bound = request.method == "POST"
    # A set-up sent for a scenario no longer offered (its map removed in another tab, or no
    # scenario named) is fought on no other: the page comes back set up afresh, saying so.
    gone = bound and request.POST.get("scenario") != chosen.slug
    bound = bound and not gone
    form = BattleSetupForm(
        request.POST if bound else None,
        units=units,
        engaged=engaged,
        refused=offer.refused,
        paged=offer.paged,
        unfit=offer.unfit,
        scenario=chosen.data,
        under_way=orders_under_way(viewer.campaign, units),
        campaign=viewer.campaign,
    )
    browsing = bound and "browse_page" in request.POST
    if browsing:
        # Another page of units, or a search: the form comes back with every choice in it.
        browsed(form)
    table = _table(chosen.data, form.side_labels())
    context = base_context(
        viewer,
        engaged=engaged,
        held_battles=battles_holding(viewer.campaign, engaged),
        left_out=offer.left_out,
        left_out_forces=offer.out_of_action,
        no_units=offer.no_units,
        paged=offer.paged,
        scenarios=scenarios,
        chosen=chosen,
        form=form,
        table=table,
        deploy=deploy_map(form, table.height) if table else None,
        side_roles=side_roles(form, table.objectives) if table else [],
        map_form=SavedMapForm(),
        saved_maps=maps,
        scenario_gone=SCENARIO_GONE if gone else "",
    )
    if gone:
        if request.htmx:
            # The whole page again, not the form alone: the scenario list above the form still
            # offers the map removed.
            messages.error(request, SCENARIO_GONE)
            return HttpResponseClientRedirect(reverse("campaign:battle-setup", args=[pk]))
        return render(request, SETUP, context, status=400)
    if not bound or browsing:
        if request.htmx:
            # A new scenario was picked, or another page of units: redraw the deployment table.
            return render(request, f"{SETUP}#setup-form", context)
        return render(request, SETUP, context)
    if request.POST.get("action") == "odds":
        return _ask_odds(request, viewer, chosen, form, context)

    def launch(data):
        campaign_battle = campaign_battle_launch(
            campaign=viewer.campaign,
            base=copy.deepcopy(chosen.data),
            deployments=data["deployments"],
            name=data["name"],
            turn_limit=data["turn_limit"],
            seed=data["seed"],
            request_key=data["request_key"],
            actor=request.user,
        )
        url = reverse("campaign:battle", args=[pk, campaign_battle.pk])
        run = odds_for_viewer(request.user, viewer.campaign, data["odds_run"] or 0)
        if run is not None and campaign_battle_odds_keep(campaign_battle=campaign_battle, run=run):
            return url, f"{campaign_battle.name} launched; the odds you asked are kept with it."
        return url, f"{campaign_battle.name} launched."

    return form_action(
        request, form, launch, page=SETUP, partial="setup-form", context=lambda: context
    )


def _ask_odds(request, viewer, chosen, form, context) -> HttpResponse:
    """ "Who is favoured?": an odds run on the set-up as it stands, shown beside Launch."""
    status = 400
    if form.is_valid():
        data = form.cleaned_data
        try:
            run = campaign_battle_odds(
                campaign=viewer.campaign,
                base=copy.deepcopy(chosen.data),
                deployments=data["deployments"],
                turn_limit=data["turn_limit"],
                battles=data["odds_battles"] or form.fields["odds_battles"].initial,
                actor=request.user,
                request_key=data["odds_key"],
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            # The form goes back as it was, carrying the run to keep with the launch.
            form.data = form.data.copy()
            form.data["odds_run"] = str(run.pk)
            form.data["odds_key"] = str(uuid.uuid4())  # the next question is a new run
            context.update(odds_run=run, odds=None, odds_stopped=odds_stopped(run))
            status = 200
    if status == 400:
        focus_first_error(form)
    if request.htmx:
        return render(request, f"{SETUP}#setup-form", context)
    return render(request, SETUP, context, status=status)


@login_required
@require_GET
def battle_odds(request: HttpRequest, pk: int, run_pk: int) -> HttpResponse:
    """The odds panel beside Launch, polled until the run is done (then 286: stop polling);
    opened as a page, the run's own page, in the campaign's names."""
    viewer = campaign_for_viewer(request.user, pk)
    require_manage(viewer)
    run = odds_for_viewer(request.user, viewer.campaign, run_pk)
    if run is None:
        raise Http404("no such odds run")
    context = base_context(
        viewer,
        odds_run=run,
        odds=campaign_odds_report(run, viewer.campaign),
        odds_stopped=odds_stopped(run),
    )
    if not request.htmx:
        # Opened as a page (from the Battles page's odds runs, or without JavaScript).
        return render(request, "campaign/odds.html", context)
    response = render(request, "campaign/_setup_odds.html", context)
    if run.finished:
        return HttpResponseStopPolling(response.content)
    return response


@login_required
@require_POST
def battle_setup_check(request: HttpRequest, pk: int) -> JsonResponse:
    """The set-up form as it stands, checked as the launch would check it (the engine's own
    validator on the scenario with the campaign's cards printed in): each problem by the unit
    it belongs to (``units``, by pk) or for the whole set-up (``general``), and the sides as
    the units on them now take them (``sides``, `deploy.side_roles`). Nothing is written.
    """
    viewer, _, chosen, offer, _ = _setup(request, pk)
    if request.POST.get("scenario") != chosen.slug:
        # Checked on another scenario, every unit would be refused for that one's reasons.
        return JsonResponse({"units": {}, "general": [SCENARIO_GONE], "ok": False}, status=400)
    units = offer.units
    form = BattleSetupForm(
        request.POST,
        units=units,
        refused=offer.refused,
        paged=offer.paged,
        unfit=offer.unfit,
        scenario=chosen.data,
        under_way=orders_under_way(viewer.campaign, units),
        campaign=viewer.campaign,
    )
    by_unit: dict[str, list[str]] = {}
    general: list[str] = []
    problems: dict[str, list[str]] = {}
    if form.is_valid():
        problems = campaign_battle_check(
            campaign=viewer.campaign,
            base=chosen.data,
            deployments=form.cleaned_data["deployments"],
            turn_limit=form.cleaned_data["turn_limit"],
        )
    else:
        problems = {name or "": list(errors) for name, errors in form.errors.items()}
        form.cleaned_data.setdefault("deployments", [])
    for path, reasons in problems.items():
        field = form.field_for(path) if path else None
        field = field or (path if path in form.fields else None)
        if field and field.split("_", 1)[-1].isdigit():
            by_unit.setdefault(field.split("_", 1)[1], []).extend(reasons)
        elif field:
            # A field of the whole set-up by the name the page gives it ("Turn limit"), not its id.
            general.extend(f"{form[field].label}: {r}" for r in reasons)
        else:
            general.extend(reasons)
    # Each a sentence, as the form's error summary says it (the page's script shows them there).
    general = [as_sentence(reason, viewer.campaign) for reason in general]
    # The sides as the units now on them take them, for the lines under the scenario's name.
    table = _table(chosen.data, form.side_labels())
    sides = side_roles(form, table.objectives) if table else []
    return JsonResponse({"units": by_unit, "general": general, "sides": sides, "ok": not problems})


@login_required
@require_http_methods(["GET", "POST"])
def battle_record(request: HttpRequest, pk: int) -> HttpResponse:
    """A battle fought at a real table: the GM enters who fought and what each unit lost."""
    viewer = campaign_for_viewer(request.user, pk)
    require_manage(viewer)
    # As on the set-up, a unit out of action or still in a battle whose outcome is not applied
    # is not offered (the service would refuse it): the page names it and says why instead. A
    # campaign too big to list every unit offers a page of them, as the set-up does.
    bound = request.method == "POST"
    offer = units_offered(viewer.campaign, request.POST if bound else request.GET)
    form = TableResultForm(
        request.POST if bound else None,
        units=offer.units,
        engaged=offer.engaged,
        refused=offer.refused,
        paged=offer.paged,
        day=viewer.campaign.day,
        hour=viewer.campaign.hour,
        cards=table_cards(viewer.campaign, offer.units, at=campaign_now(viewer.campaign)),
        unfit=offer.unfit,
    )
    context = base_context(
        viewer,
        form=form,
        engaged=offer.engaged,
        held_battles=battles_holding(viewer.campaign, offer.engaged),
        left_out=offer.left_out,
        left_out_forces=offer.out_of_action,
        no_units=offer.no_units,
        paged=offer.paged,
        skill_restored=skill_restored_after(viewer.campaign.ruleset),
    )
    browsing = bound and "browse_page" in request.POST
    if browsing:
        # Another page of units, or a search: the form comes back with every choice in it.
        browsed(form)
    if not bound or browsing:
        if browsing and request.htmx:
            return render(request, f"{RECORD}#record-form", context)
        return render(request, RECORD, context)

    def record(data):
        campaign_battle = campaign_battle_record(
            campaign=viewer.campaign,
            name=data["name"],
            sides=data["sides"],
            winner=data["winner_name"],
            outcomes=data["outcomes"],
            day=data["day"],
            hour=data["hour"],
            request_key=data["request_key"],
            actor=request.user,
        )
        url = reverse("campaign:battle", args=[pk, campaign_battle.pk])
        return url, f"{campaign_battle.name} recorded."

    return form_action(
        request, form, record, page=RECORD, partial="record-form", context=lambda: context
    )
