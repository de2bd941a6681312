"""Campaign battles read: their list, and each one's page, watched as the engine fights it, with its
log.

The report itself is the battle pages' (``battles.report_context``), shown here behind the
campaign's own permission checks and URLs: every member may read a campaign battle's report.
Under the campaign's fog of war, or seeing some force that fought it only in summary, each member
sees what ``campaign.selectors.fog.fog_side`` says.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseStopPolling

from battles.engine.events import Removal
from battles.models import Battle
from battles.odds_report import odds_stopped
from battles.report_context import LOG_SWAP, LogUnreadable, battle_report, lost_of
from battles.selectors import battle_log
from battles.table import table_named
from campaign.access import FULL, Viewer, campaign_battle_for_viewer, campaign_for_viewer
from campaign.battle_forms import REMOVAL_LABELS
from campaign.models import CampaignBattle, Force, Membership, Unit
from campaign.odds import campaign_odds_report
from campaign.pages.changes import changes, changes_fought_for
from campaign.pages.fights import battles_page
from campaign.pages.names import unit_label
from campaign.pages.orders import orders_going_in
from campaign.pages.report import LEFT_WORDS, battle_names
from campaign.pages.sides import (
    BattleSide,
    battle_sides,
    battle_winner,
    campaign_force_colours,
    moved_since,
    paradropped,
    side_colours,
)
from campaign.pages.sight import fog_notice, units_seen_in_summary
from campaign.pages.timeline import clean_cursor
from campaign.rules.damage import TableResult
from campaign.rules.orders import clock_hour, clock_text
from campaign.selectors.battle_setup import engine_units_fought
from campaign.selectors.fog import FOG_ALL, FOG_NONE, FoggedLogUnreadable, fog_side, fogged_log
from campaign.selectors.reviews import entries_changes, outcome_entries
from campaign.selectors.roster import campaign_battle_units
from campaign.views._common import base_context, changes_for_reader, reverted_context
from campaign.views.pages import fought_medics_due
from units.words import plural, possessive

POLL_SECONDS = 1
BATTLE = "campaign/battle.html"
BATTLES = "campaign/battles.html"


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
    dict[int, Unit],
    list[BattleSide],
    tuple[dict[str, str], dict[str, str]],
    dict[int, Force],
    dict[int, str],
]
"""A battle's units, its sides, the names its report calls them by, the force each unit moved
since fought for and the campaign's forces' colours (``_names``)."""


def _names(cb: CampaignBattle) -> Named:
    """The battle's units, its sides named by their forces (in the scenario's side order, which
    the report's colours follow), the names the report calls sides and units by, and the force
    each unit moved to another since fought for (`pages.sides.moved_since`), and the colours
    of the campaign's forces, read once for the sides and the map."""
    units = campaign_battle_units(campaign_battle=cb)
    scenario = cb.battle.scenario if cb.battle is not None else {}
    fought_for = moved_since([(cb, units.values())])[cb.pk]
    colours = campaign_force_colours(cb.campaign_id)
    sides = battle_sides(cb, units, scenario.get("sides", []), fought_for, colours)
    return units, sides, battle_names(cb, units, sides), fought_for, colours


def _battle_context(request: HttpRequest, viewer: Viewer, cb: CampaignBattle, **forms: Any):
    named = _names(cb)
    units, sides, names, fought_for, _ = named
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
        paradropped=paradropped(
            cb, (u for side in sides for u in side.units if u.force_id in visible_forces)
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
    units, _, (side_names, _), _, colours = named
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
            colours=_unit_colours(report.table, fought, colours),
        )
    return report


def _unit_colours(table, fought: dict[str, Unit], colours: dict[int, str]) -> dict[str, str]:
    """Each drawn unit in its force's colour, except a colour both sides would wear: there the
    side's own colour tells friend from foe."""
    side_of = {mark.id: mark.side for mark in table.units}
    colour = {eid: colours[u.force_id] for eid, u in fought.items() if eid in side_of}
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
    units, _, names, _, _ = _names(cb)
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


@login_required
@require_GET
def battles_list(request: HttpRequest, pk: int) -> HttpResponse:
    """Every battle of the campaign, the engine's and those at the table, the latest first, a
    page at a time (``?page=2``): each member may read a battle's sides and outcome, as on the
    dashboard (fog of war hides only what a side did not see, on the battle's page)."""
    viewer = campaign_for_viewer(request.user, pk)
    page = battles_page(viewer.campaign, clean_cursor(request.GET.get("page")))
    return render(request, BATTLES, base_context(viewer, page=page))
