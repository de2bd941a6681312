"""Battle pages: set up and launch a one-off battle, watch it, read its report; odds runs.

Thin function views: each checks login, finds the object through a selector that answers 404
for anything the user may not see, and hands the rest to services, selectors and the report
builder. htmx requests get a partial of the same template (``page.html#name``).
"""

from __future__ import annotations

import copy

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.module_loading import import_string
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseStopPolling

from battles.engine import ENGINE_VERSION, ScenarioError, parse_scenario
from battles.forms import BattleSetupForm, OddsForm, focus_first_error
from battles.models import Battle, OddsRun
from battles.odds import odds_cancel, odds_launch
from battles.odds_report import odds_report, odds_stopped
from battles.refusals import WorkRefused
from battles.report_context import LOG_SWAP, LogUnreadable, battle_report
from battles.selectors import (
    LISTED,
    battle_for_viewer,
    battles_of,
    odds_run_for_viewer,
    odds_runs_of,
    reference_scenario,
    reference_scenarios,
)
from battles.services import BattleInputError, battle_cancel, battle_launch
from battles.table import table_view
from config.pagecache import cached_page, row_key

POLL_SECONDS = 1


def _home_elsewhere(finder: str, user, pk: int) -> str | None:
    """The address of the page a battle fought, or an odds run asked, for another part of the
    site has there (a campaign's), or None for a one-off, whose page is here: ``finder`` is the
    dotted name of the function that knows (``settings.BATTLE_HOME``, ``settings.ODDS_HOME``;
    empty: none), which answers ``Http404`` to a user who may not see it."""
    return import_string(finder)(user, pk) if finder else None


# --- lists --------------------------------------------------------------------------------------
# The Battles page lists the latest of each; these lists hold every one, a page at a time.


@login_required
@require_GET
def one_off_list(request: HttpRequest) -> HttpResponse:
    """Every one-off battle of the user's, the latest first, a page at a time (``?page=2``)."""
    page = Paginator(battles_of(request.user), LISTED).get_page(request.GET.get("page"))
    return render(request, "battles/one_off_list.html", {"page": page})


@login_required
@require_GET
def odds_list(request: HttpRequest) -> HttpResponse:
    """Every odds run of the user's, the latest first, a page at a time (``?page=2``)."""
    page = Paginator(odds_runs_of(request.user), LISTED).get_page(request.GET.get("page"))
    return render(request, "battles/odds_list.html", {"page": page})


# --- set-up -------------------------------------------------------------------------------------


def _preview(slug: str | None) -> dict:
    """The chosen reference scenario and its table drawing (or why it cannot be drawn)."""
    scenarios = reference_scenarios()
    chosen = next((s for s in scenarios if s.slug == slug), scenarios[0] if scenarios else None)
    if chosen is None:
        return {"chosen": None, "table": None, "problems": []}
    try:
        parsed = parse_scenario(chosen.data)
    except ScenarioError as exc:
        return {"chosen": chosen, "table": None, "problems": exc.problems}
    return {"chosen": chosen, "table": table_view(parsed), "problems": [], "parsed": parsed}


def _setup_page(request: HttpRequest, template: str, form, slug: str | None) -> HttpResponse:
    """The set-up page; a form refused goes back as 400 with its first faulty field in focus."""
    refused = form.is_bound and bool(form.errors)
    if refused:
        focus_first_error(form)
    return render(
        request, template, {"form": form, **_preview(slug)}, status=400 if refused else 200
    )


def _valid_setup_form(request: HttpRequest, form_class, template: str, url: str):
    """The set-up pages' shared steps: the page, the htmx preview, the no-JavaScript "show the
    table" post, or a form with errors — as a response; or the valid form, ready to launch."""
    if request.method == "GET":
        slug = request.GET.get("scenario")
        if request.htmx:
            return render(request, "battles/setup.html#preview", _preview(slug))
        form = form_class(initial={"scenario": slug}, preview_url=url)
        return _setup_page(request, template, form, slug)
    slug = request.POST.get("scenario")
    if "preview" in request.POST:
        # "Show the table" without JavaScript posts the form back: nothing launches.
        form = form_class(initial=request.POST.dict(), preview_url=url)
        return _setup_page(request, template, form, slug)
    form = form_class(request.POST, preview_url=url)
    if not form.is_valid():
        return _setup_page(request, template, form, slug)
    return form


@login_required
@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def battle_setup(request: HttpRequest) -> HttpResponse:
    template, url = "battles/setup.html", reverse("battles:setup")
    form = _valid_setup_form(request, BattleSetupForm, template, url)
    if isinstance(form, HttpResponse):
        return form
    data = form.cleaned_data
    scenario = copy.deepcopy(reference_scenario(data["scenario"]).data)
    if data["turn_limit"] is not None:
        scenario["turn_limit"] = data["turn_limit"]

    try:
        battle = battle_launch(
            name=data["name"],
            scenario=scenario,
            seed=data["seed"],
            created_by=request.user,
            request_key=data["request_key"],
        )
    except BattleInputError as exc:
        form.add_service_errors(exc)
        return _refused(_setup_page(request, template, form, data["scenario"]), exc)
    return redirect("battles:detail", pk=battle.pk)


def _refused(response: HttpResponse, exc: BattleInputError) -> HttpResponse:
    """A launch over its budget answers 429 Too Many Requests, saying when to try again."""
    if isinstance(exc, WorkRefused):
        response.status_code = 429
        if exc.retry_after:
            response["Retry-After"] = str(exc.retry_after)
    return response


# --- one battle ---------------------------------------------------------------------------------


def _report(request: HttpRequest, battle: Battle, *, log_only: bool = False):
    """The report of ``battle`` for its owner, who may also look through either side's eyes."""
    return battle_report(
        battle,
        url=reverse("battles:detail", args=[battle.pk]),
        download_url=reverse("battles:log-json", args=[battle.pk]),
        unit=request.GET.get("unit", ""),
        kind=request.GET.get("kind", ""),
        turn=request.GET.get("turn", ""),
        viewer=request.GET.get("as") or None,
        viewer_choice=True,
        log_only=log_only,
    )


def _battle_context(request: HttpRequest, battle: Battle) -> dict:
    context = {"battle": battle, "report": None, "poll_seconds": POLL_SECONDS}
    if battle.status == Battle.Status.DONE:
        try:
            context["report"] = _report(request, battle)
        except LogUnreadable as exc:
            context["unreadable"] = str(exc)
    return context


@login_required
@require_GET
@vary_on_headers("HX-Request")
def battle_detail(request: HttpRequest, pk: int) -> HttpResponse:
    home = _home_elsewhere(settings.BATTLE_HOME, request.user, pk)
    if home is not None:
        return redirect(home)
    battle = battle_for_viewer(request.user, pk, lean=True)
    if battle.status != Battle.Status.DONE:
        return render(request, "battles/battle.html", _battle_context(request, battle))

    def draw(extra: dict) -> HttpResponse:
        full = battle_for_viewer(request.user, pk, with_log=True)  # the scenario and the log
        if request.htmx:
            # The log filter: only the log is redrawn.
            try:
                report = _report(request, full, log_only=True)
            except LogUnreadable:
                report = None
            if report is not None:
                context = LOG_SWAP | {"report": report} | extra
                return render(request, "battles/report.html#log", context)
        return render(request, "battles/battle.html", _battle_context(request, full) | extra)

    # A finished battle's log never changes: the report is drawn from the battle's row (the
    # scenario snapshot is fixed at launch), the engine reading it, and the query.
    return cached_page(request, (row_key(battle, skip=["scenario"]), ENGINE_VERSION), draw)


@login_required
@require_GET
@vary_on_headers("HX-Request")
def battle_progress(request: HttpRequest, pk: int) -> HttpResponse:
    """What the battle page polls: the progress, or — once finished — the report, which also
    tells htmx to stop polling (status 286)."""
    battle = battle_for_viewer(request.user, pk, with_log=True)
    if not request.htmx:
        return redirect("battles:detail", pk=pk)
    response = render(request, "battles/battle.html#body", _battle_context(request, battle))
    if battle.finished:
        return HttpResponseStopPolling(response.content)
    return response


@login_required
@require_GET
def battle_log_json(request: HttpRequest, pk: int) -> HttpResponse:
    """The stored log exactly as the engine wrote it (canonical JSON), as a download."""
    battle = battle_for_viewer(request.user, pk, with_log=True)
    if battle.status != Battle.Status.DONE:
        return HttpResponse("The battle has no log yet.", status=404, content_type="text/plain")
    response = HttpResponse(battle.log.events, content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="battle-{battle.pk}-log.json"'
    return response


# --- odds ---------------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def odds_setup(request: HttpRequest) -> HttpResponse:
    template, url = "battles/odds_setup.html", reverse("battles:odds-setup")
    form = _valid_setup_form(request, OddsForm, template, url)
    if isinstance(form, HttpResponse):
        return form
    data = form.cleaned_data

    try:
        run = odds_launch(
            scenario=reference_scenario(data["scenario"]).data,
            battles=data["battles"],
            precision=data["precision"],
            seed=data["seed"],
            name=data["name"],
            created_by=request.user,
            request_key=data["request_key"],
        )
    except BattleInputError as exc:
        form.add_service_errors(exc)
        return _refused(_setup_page(request, template, form, data["scenario"]), exc)
    return redirect("battles:odds-detail", pk=run.pk)


def _odds_context(run: OddsRun) -> dict:
    # The odds so far while it runs (they narrow as chunks land), the final odds once done.
    odds = None
    if run.status != OddsRun.Status.FAILED and (summary := run.odds) is not None:
        odds = odds_report(summary, run.scenario)
    return {"run": run, "odds": odds, "stopped": odds_stopped(run), "poll_seconds": POLL_SECONDS}


@login_required
@require_GET
def odds_detail(request: HttpRequest, pk: int) -> HttpResponse:
    home = _home_elsewhere(settings.ODDS_HOME, request.user, pk)
    if home is not None:
        return redirect(home)
    run = odds_run_for_viewer(request.user, pk)
    return render(request, "battles/odds.html", _odds_context(run))


@login_required
@require_GET
@vary_on_headers("HX-Request")
def odds_progress(request: HttpRequest, pk: int) -> HttpResponse:
    """What the odds page polls; once finished, the result and status 286 (stop polling)."""
    run = odds_run_for_viewer(request.user, pk)
    if not request.htmx:
        return redirect("battles:odds-detail", pk=pk)
    response = render(request, "battles/odds.html#body", _odds_context(run))
    if run.finished:
        return HttpResponseStopPolling(response.content)
    return response


# --- cancelling one's own queued work ----------------------------------------------------------


@login_required
@require_POST
def battle_cancel_view(request: HttpRequest, pk: int) -> HttpResponse:
    battle = battle_for_viewer(request.user, pk, lean=True)
    if not battle_cancel(battle_id=battle.pk, user=request.user):
        return HttpResponse(
            "Only a one-off battle of your own still waiting for a worker can be cancelled.",
            status=409,
            content_type="text/plain",
        )
    return redirect("battles:detail", pk=pk)


@login_required
@require_POST
def odds_cancel_view(request: HttpRequest, pk: int) -> HttpResponse:
    run = odds_run_for_viewer(request.user, pk)
    if not odds_cancel(run_id=run.pk, user=request.user):
        return HttpResponse(
            "Only an odds run of your own still in progress can be cancelled.",
            status=409,
            content_type="text/plain",
        )
    return redirect("battles:odds-detail", pk=pk)
