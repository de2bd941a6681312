"""Campaign battles: set one up on a reference scenario, watch it, review and apply its outcome,
or enter a table battle's result by hand.

The report itself is the battle pages' (``battles.report_context``), shown here behind the
campaign's own permission checks and URLs: every member may read a campaign battle's report;
only the GM and co-GMs launch, apply and revert. Under the campaign's fog of war, or seeing
some force that fought it only in summary, each member sees what
``campaign.selectors.fog.fog_side`` says.
"""

from __future__ import annotations

import copy
import json
import uuid
from functools import partial
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect, HttpResponseStopPolling

from battles.engine import ScenarioError, parse_scenario
from battles.engine.events import Removal
from battles.engine.loader import TABLE_SIDE
from battles.engine.validation import MAX_SCENARIO_TEXT, MAX_TABLE
from battles.forms import focus_first_error
from battles.jsontext import read_json
from battles.models import Battle
from battles.odds_report import odds_stopped
from battles.report_context import LOG_SWAP, LogUnreadable, battle_report, lost_of, renamed_sides
from battles.selectors import ReferenceScenario, battle_log, reference_scenarios
from battles.table import table_named, table_view
from campaign.access import (
    FULL,
    Viewer,
    campaign_battle_for_viewer,
    campaign_for_viewer,
    require_manage,
)
from campaign.battle_forms import REMOVAL_LABELS, BattleSetupForm, TableResultForm, browsed
from campaign.deploy import SNAP, deploy_map, side_roles
from campaign.forms import RevertForm, SavedMapForm, add_service_errors
from campaign.map_numbers import MIN_TABLE, MapNumbersForm
from campaign.models import Campaign, CampaignBattle, Force, Membership, SavedMap, Unit
from campaign.odds import campaign_odds_report, odds_for_viewer
from campaign.pages import (
    LEFT_WORDS,
    BattleSide,
    battle_names,
    battle_sides,
    battle_winner,
    battles_holding,
    changes,
    changes_fought_for,
    fog_notice,
    force_colour,
    moved_since,
    orders_going_in,
    revert_blocked,
    side_colours,
    unit_label,
    units_seen_in_summary,
)
from campaign.rules.damage import TableResult, skill_restored_after
from campaign.rules.history import plural, possessive
from campaign.rules.orders import clock_hour, clock_text
from campaign.rules.values import TURN_LIMIT_MAX
from campaign.selectors.battle_setup import engine_units_fought
from campaign.selectors.fog import FOG_ALL, FOG_NONE, FoggedLogUnreadable, fog_side, fogged_log
from campaign.selectors.reviews import (
    entries_changes,
    outcome_entries,
    outcome_review,
    revert_review,
)
from campaign.selectors.roster import campaign_battle_units, campaign_now
from campaign.services.battles import (
    battle_named,
    campaign_battle_apply,
    campaign_battle_check,
    campaign_battle_launch,
    campaign_battle_odds,
    campaign_battle_odds_keep,
    campaign_battle_record,
    campaign_battle_revert,
    outcome_reviewed,
)
from campaign.services.going_in import table_cards
from campaign.services.maps import (
    SPOT_CARD,
    map_problems,
    saved_map_create,
    saved_map_edit,
    saved_map_remove,
)
from campaign.services.orders import orders_under_way
from campaign.templatetags.sentences import as_sentence
from campaign.transfer.format import FORMAT_KINDS
from campaign.units_offered import units_offered
from campaign.views._common import (
    action_done,
    base_context,
    changes_for_reader,
    form_action,
    reverted_context,
)
from campaign.views.pages import fought_medics_due
from units.models import UnitType

POLL_SECONDS = 1
SETUP = "campaign/battle_setup.html"
RECORD = "campaign/battle_record.html"
BATTLE = "campaign/battle.html"
REVIEW = "campaign/review.html"
MAP_EDITOR = "campaign/map_form.html"
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
    """The odds panel beside Launch, polled until the run is done (then 286: stop polling)."""
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
    response = render(request, "campaign/_setup_odds.html", context)
    if run.finished and request.htmx:
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


def _fog_side(viewer: Viewer, cb: CampaignBattle, units: dict[int, Unit]) -> str:
    forces = {u.force_id for u in units.values()}
    return fog_side(
        campaign_battle=cb,
        user=viewer.user,
        manages=viewer.manages,
        sees_all=viewer.sees_in_full(forces),
    )


def _fog_notice(
    viewer: Viewer, side: str, units: dict[int, Unit], side_names: dict[str, str]
) -> str:
    """Why the reader sees the battle through ``side``'s eyes or its outcome only ("" when they
    see it all)."""
    if side == FOG_ALL:
        return ""
    return fog_notice(
        side_name=None if side == FOG_NONE else side_names.get(side, side),
        fog_of_war=viewer.campaign.fog_of_war,
        spectator=viewer.role == Membership.Role.SPECTATOR,
        in_summary=[u.force.name for u in units.values() if viewer.sight(u.force) != FULL],
    )


def _seed_shown(viewer: Viewer, side: str, units: dict[int, Unit]) -> bool:
    """Whether the reader may have the battle's seed (`Viewer.sees_every_die`): only through
    no fog, and seeing every force that fought it in full."""
    forces = {u.force_id for u in units.values()}
    return viewer.sees_every_die(forces, fogged=side != FOG_ALL)


Named = tuple[
    dict[int, Unit], list[BattleSide], tuple[dict[str, str], dict[str, str]], dict[int, Force]
]
"""A battle's units, its sides, the names its report calls them by and the force each unit
moved since fought for (``_names``)."""


def _names(cb: CampaignBattle) -> Named:
    """The battle's units, its sides named by their forces (in the scenario's side order, which
    the report's colours follow), the names the report calls sides and units by, and the force
    each unit moved to another since fought for (`pages.moved_since`)."""
    units = campaign_battle_units(campaign_battle=cb)
    scenario = cb.battle.scenario if cb.battle is not None else {}
    fought_for = moved_since([(cb, units.values())])[cb.pk]
    sides = battle_sides(cb, units, scenario.get("sides", []), fought_for)
    return units, sides, battle_names(cb, units, sides), fought_for


def _battle_context(request: HttpRequest, viewer: Viewer, cb: CampaignBattle, **forms: Any):
    named = _names(cb)
    units, sides, names, fought_for = named
    side = _fog_side(viewer, cb, units)
    table = {} if cb.table_result is None else TableResult.from_dict(cb.table_result).units
    side_names = names[0]
    visible_forces = {u.force_id for u in units.values() if viewer.sight(u.force) == FULL}
    context = base_context(
        viewer,
        cb=cb,
        battle=cb.battle,
        # When its outcome counts from, in the campaign's time: its units' history has it then,
        # whenever the GM applied it.
        fought_at=clock_text(clock_hour(cb.day, cb.hour)),
        seed_shown=_seed_shown(viewer, side, units),
        winner=battle_winner(cb),
        sides=sides,
        side_colours=side_colours(sides),
        visible_forces=visible_forces,
        # The card sheet holds the cards of the units the reader sees in full: offered when
        # there is one.
        cards_offered=any(u.force_id in visible_forces for side in sides for u in side.units),
        # How each unit's Orders went in: its own side's business, like its card.
        orders=orders_going_in(
            (u for side in sides for u in side.units if u.force_id in visible_forces), cb.orders
        ),
        table_units=[
            (
                unit_label(units[pk]) if pk in units else f"unit {pk}",
                # Of the Hits its card has, as an engine battle's report says them.
                lost_of(outcome.hits_lost, units[pk].unit_type.card["hits"])
                if pk in units
                else str(outcome.hits_lost),
                # Points of Skill, said so: a bare "1" beside "0 of 2" Hits reads as anything.
                plural(outcome.skill_lost, "point"),
                REMOVAL_LABELS[Removal(outcome.removed)],
            )
            for pk, outcome in table.items()
            # Losses go with a unit's roster: the table's units of forces the reader sees.
            if viewer.manages or (pk in units and units[pk].force_id in visible_forces)
        ],
        report=None,
        poll_seconds=POLL_SECONDS,
        outcome_only=False,
    )
    if cb.battle is not None and cb.battle.status == Battle.Status.DONE:
        context["outcome_only"] = side == FOG_NONE
        context["fog_notice"] = _fog_notice(viewer, side, units, side_names)
        try:
            context["report"] = _report(request, viewer, cb, side=side, named=named)
        except LogUnreadable as exc:
            context["unreadable"] = str(exc)
    if cb.state == CampaignBattle.State.APPLIED:
        # Told unit by unit in the words of their histories, from the entries written. What
        # the outcome did is in each unit's history: a member reads it for the forces they see
        # in full, as on the rosters, their own first.
        entries = outcome_entries(campaign_battle=cb)
        # Each unit under the force it fought for, and the one it is in now if it moved since.
        found = changes_fought_for(changes(entries_changes(entries), entries), fought_for)
        context["changes"], context["changes_hidden"] = changes_for_reader(viewer, found)
        if viewer.manages:
            fought = (c.unit for c in context["changes"])
            context.update(fought_medics_due(viewer.campaign, fought))
    elif cb.state == CampaignBattle.State.REVERTED:
        # What the revert gave back, who reverted it, when and why: as an engagement's page.
        said = f"{possessive(cb.name)} outcome is undone"
        context.update(reverted_context(viewer, applied=cb.applied_entries, said=said))
    if viewer.manages and cb.odds_id is not None:
        # The odds the GM asked before launching: the GM's, like the set-up page.
        context["odds_run"] = cb.odds
        context["odds"] = campaign_odds_report(cb.odds, viewer.campaign)
        context["odds_stopped"] = odds_stopped(cb.odds)
    return context


def _report(
    request: HttpRequest,
    viewer: Viewer,
    cb: CampaignBattle,
    *,
    side: str,
    named: Named,
    log_only: bool = False,
):
    pk = viewer.campaign.pk
    # The outcome only: no log or replay to draw, nor a log to read.
    outcome_only = side == FOG_NONE
    # The download (``battle_log_json``) is the log as the reader's fog side saw it; the page
    # too, but for the GM, who may look through either side's eyes.
    download_viewer = None if side in (FOG_ALL, FOG_NONE) else side
    as_side = (request.GET.get("as") or None) if viewer.manages else download_viewer
    units, _, (side_names, _), _ = named
    fought = engine_units_fought(campaign_battle=cb)
    # A unit of a force the reader sees only in summary is named, as a roster names its force,
    # and no more: neither its card nor what the battle did to it (`Viewer.sight`).
    in_summary = {eid: u for eid, u in fought.items() if viewer.sight(u.force) != FULL}
    report = battle_report(
        cb.battle,
        url=reverse("campaign:battle", args=[pk, cb.pk]),
        download_url=reverse("campaign:battle-log", args=[pk, cb.pk]),
        unit=request.GET.get("unit", ""),
        kind=request.GET.get("kind", ""),
        turn=request.GET.get("turn", ""),
        viewer=as_side,
        viewer_choice=viewer.manages,
        download_viewer=download_viewer,
        log_only=log_only,
        outcome_only=outcome_only,
        side_names=side_names,
        unit_names={eid: u.name for eid, u in fought.items()},
        left=LEFT_WORDS,
        seed_shown=_seed_shown(viewer, side, units),
        units_left_out=set(in_summary),
        why_left_out=units_seen_in_summary(
            in_summary.values(), spectator=viewer.role == Membership.Role.SPECTATOR
        ),
    )
    if report is not None and report.table is not None and cb.engine_units:
        # The drawn map's markers are named and coloured as the rosters name them.
        report.table = table_named(
            report.table,
            {eid: u.name for eid, u in fought.items()},
            labels={eid: unit_label(u) for eid, u in fought.items()},
            side_names=side_names,
            colours=_unit_colours(report.table, fought),
        )
    return report


def _unit_colours(table, fought: dict[str, Unit]) -> dict[str, str]:
    """Each drawn unit in its force's colour, except a colour both sides would wear: there the
    side's own colour tells friend from foe."""
    side_of = {mark.id: mark.side for mark in table.units}
    colour = {eid: force_colour(u.force) for eid, u in fought.items() if eid in side_of}
    worn: dict[str, set[str]] = {}
    for eid, c in colour.items():
        worn.setdefault(c, set()).add(side_of[eid])
    return {eid: c for eid, c in colour.items() if len(worn[c]) == 1}


@login_required
@require_GET
@vary_on_headers("HX-Request")
def battle_detail(request: HttpRequest, pk: int, battle_pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    cb = campaign_battle_for_viewer(viewer, battle_pk)
    done = cb.battle is not None and cb.battle.status == Battle.Status.DONE
    if request.htmx and done:
        # The report's log filter: only the log is redrawn.
        named = _names(cb)
        side = _fog_side(viewer, cb, named[0])
        if side != FOG_NONE:
            try:
                report = _report(request, viewer, cb, side=side, named=named, log_only=True)
            except LogUnreadable:
                report = None
            if report is not None:
                return render(request, "battles/report.html#log", LOG_SWAP | {"report": report})
    return render(request, BATTLE, _battle_context(request, viewer, cb))


@login_required
@require_GET
def battle_progress(request: HttpRequest, pk: int, battle_pk: int) -> HttpResponse:
    """What the battle page polls while the worker fights; once finished, the whole body,
    with status 286 so htmx stops polling."""
    viewer = campaign_for_viewer(request.user, pk)
    cb = campaign_battle_for_viewer(viewer, battle_pk)
    if not request.htmx:
        return redirect("campaign:battle", pk=pk, battle_pk=battle_pk)
    # Poll on after the engine is done until the campaign has taken the outcome in (settled,
    # or applied in auto mode), then swap the report in and refresh the outcome state and the
    # GM's review panel above it out of band, so the page is right without a reload.
    settled = cb.state != CampaignBattle.State.FIGHTING
    over = cb.battle is None or cb.battle.status == Battle.Status.FAILED
    over = over or (cb.battle.finished and settled)
    context = _battle_context(request, viewer, cb)
    context["oob"] = over
    response = render(request, f"{BATTLE}#body", context)
    if over:
        return HttpResponseStopPolling(response.content)
    return response


@login_required
@require_GET
def battle_log_json(request: HttpRequest, pk: int, battle_pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    cb = campaign_battle_for_viewer(viewer, battle_pk)
    log = None if cb.battle is None else battle_log(cb.battle)
    if log is None:
        raise Http404("the battle has no log")
    units, _, names, _ = _names(cb)
    side = _fog_side(viewer, cb, units)
    if side == FOG_NONE:
        # As on the page: a member whose units did not fight sees the outcome only, and why.
        raise PermissionDenied(_fog_notice(viewer, side, units, names[0]))
    try:
        content = fogged_log(
            campaign_battle=cb, log=log, side=side, seed_shown=_seed_shown(viewer, side, units)
        )
    except FoggedLogUnreadable as exc:
        raise Http404(str(exc)) from None
    response = HttpResponse(content, content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="battle-{cb.battle_id}-log.json"'
    return response


def _review(request, viewer: Viewer, *, status: int = 200, **context: Any) -> HttpResponse:
    """A review of what a GM's click will change (or a summary of what it changed); ``entries``,
    the history entries that tell it (`pages.changes`)."""
    rows = changes(context.pop("rows"), context.pop("entries", ()))
    destroyed = [unit_label(c.unit) for c in rows if c.destroyed]
    return render(
        request,
        REVIEW,
        base_context(viewer, changes=rows, destroyed=destroyed, **context),
        status=status,
    )


@login_required
@require_http_methods(["GET", "POST"])
def battle_apply(request: HttpRequest, pk: int, battle_pk: int) -> HttpResponse:
    """GET: what applying the outcome will do to each unit, and a button to confirm. POST with
    the confirmation: apply it; the battle page then shows what it changed."""
    viewer = campaign_for_viewer(request.user, pk)
    cb = campaign_battle_for_viewer(viewer, battle_pk)
    require_manage(viewer)
    url = reverse("campaign:battle", args=[pk, cb.pk])
    here = reverse("campaign:battle-apply", args=[pk, cb.pk])
    waiting = cb.state in (CampaignBattle.State.AWAITING, CampaignBattle.State.REVERTED)
    if request.method == "GET" or request.POST.get("confirm") != "yes":
        if not waiting:
            messages.error(request, "This outcome is not waiting to be applied.")
            return redirect(url)
        rows, refusal, notes, entries = outcome_review(campaign_battle=cb)
        if refusal:
            # Nothing to confirm: Apply would refuse it (a unit changed since it fought).
            return _review(
                request,
                viewer,
                cb=cb,
                title="The outcome cannot be applied",
                lede=f"{possessive(cb.name)} outcome awaits your review, but it cannot be applied "
                "as the "
                "units stand now: correct them (or revert what changed them), then apply it.",
                refusal=refusal,
                rows=rows,
                back_url=url,
                back_label="Back to the battle",
            )
        return _review(
            request,
            viewer,
            cb=cb,
            title="Apply the outcome?",
            lede=f"Applying {possessive(cb.name)} outcome gives each unit below the hits, "
            "quality, status and experience shown in its row, and its leader the wounds shown "
            "there, and tells why in the unit's history.",
            note="Nothing is rolled when you apply: the battle rolled every die already, each "
            "leader's 3d6 for every Casualty hit its unit takes among them, so applying writes "
            "exactly what is shown here.",
            lines=[f"{line}." for line in notes],
            rows=rows,
            entries=entries,
            confirm_url=here,
            confirm_label="Apply these changes",
            hidden=[("reviewed", outcome_reviewed(rows, entries))],
            back_url=url,
        )
    try:
        entries = campaign_battle_apply(
            campaign_battle=cb, actor=request.user, reviewed=request.POST.get("reviewed")
        )
    except ValidationError as error:
        if stale := getattr(error, "error_dict", {}).get("reviewed"):
            # Drawn before a unit changed: the review again, as the units stand now.
            messages.error(request, " ".join(m for e in stale for m in e.messages))
            return action_done_error(request, here)
        messages.error(request, "The outcome could not be applied: " + "; ".join(error.messages))
        return action_done_error(request, url)
    if entries is None:
        messages.error(request, "This outcome is not waiting to be applied.")
        return action_done_error(request, url)
    units = len({entry.unit_id for entry in entries})
    return action_done(
        request, url + "#review", f"Outcome applied to {plural(units, 'unit')}: see below."
    )


def action_done_error(request: HttpRequest, url: str) -> HttpResponse:
    """Back to the battle page, where the message says what went wrong."""
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@login_required
@require_http_methods(["GET", "POST"])
def battle_revert(request: HttpRequest, pk: int, battle_pk: int) -> HttpResponse:
    """GET: what reverting the outcome will give back to each unit, with the reason to give.
    POST with a reason: revert, and a summary of what changed."""
    viewer = campaign_for_viewer(request.user, pk)
    cb = campaign_battle_for_viewer(viewer, battle_pk)
    require_manage(viewer)
    url = reverse("campaign:battle", args=[pk, cb.pk])
    if cb.state != CampaignBattle.State.APPLIED and request.method == "GET":
        messages.error(request, _not_applied(cb))
        return redirect(url)
    form = RevertForm(request.POST if request.method == "POST" else None)
    review = {
        "cb": cb,
        "title": "Revert the outcome?",
        "lede": f"Reverting {cb.name} gives every unit back what its outcome changed, as new "
        "history entries; the outcome may then be applied again.",
        "confirm_url": reverse("campaign:battle-revert", args=[pk, cb.pk]),
        "confirm_label": "Revert these changes",
        "back_url": url,
        "form": form,
        "reverting": True,
    }
    applied = cb.state == CampaignBattle.State.APPLIED
    # A revert sent again finds the outcome undone already: that is the answer, not the
    # units it changed, which the first revert changed again.
    blocked = revert_blocked(cb.campaign, cb.applied_entries) if applied else []
    if blocked:
        # Nothing to confirm: Revert would refuse it (a unit changed since the outcome).
        return _review(
            request,
            viewer,
            status=200 if request.method == "GET" else 400,
            cb=cb,
            title="The outcome cannot be reverted",
            lede=f"{possessive(cb.name)} outcome cannot be reverted as the units stand now: "
            + ("a unit it changed has" if len(blocked) == 1 else "units it changed have")
            + " changed again since.",
            refusal=blocked,
            rows=[],
            back_url=url,
            back_label="Back to the battle",
        )
    told = partial(revert_review, applied_entries=cb.applied_entries, fight=battle_named(cb))
    if request.method == "GET":
        rows, entries = told()
        return _review(request, viewer, rows=rows, entries=entries, **review)
    if form.is_valid():
        try:
            reverted = campaign_battle_revert(
                campaign_battle=cb, reason=form.cleaned_data["reason"], actor=request.user
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            if reverted is not None:
                # Post, then redirect: the battle's page shows what the revert gave back.
                messages.success(
                    request, f"{possessive(cb.name)} outcome is undone; it may be applied again."
                )
                return redirect(url)
            form.add_error(None, _not_applied(cb))
    elif not applied:
        form.add_error(None, _not_applied(cb))
    rows, entries = told() if applied else ([], [])
    focus_first_error(form)
    return _review(request, viewer, status=400, rows=rows, entries=entries, **review)


def _not_applied(cb: CampaignBattle) -> str:
    """Why a revert finds nothing to undo: the outcome was undone already (a revert sent twice),
    or was never applied."""
    cb.refresh_from_db(fields=["state"])
    if cb.state == CampaignBattle.State.REVERTED:
        return f"{possessive(cb.name)} outcome is undone already; it may be applied again."
    return "Only an applied outcome can be reverted."


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
