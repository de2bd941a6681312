"""The calendar and the clock: what the next days or hours do to the units, reviewed before they
pass (the dashboard's Advance, the Orders page's clock), and the summary of what they changed.

The confirmation checks what its review showed: a unit changed since, or an Order given or called
off since, is refused by name and the review drawn again.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from campaign.access import Viewer, campaign_for_viewer, require_manage
from campaign.forms import AdvanceForm, AdvanceSummaryForm, ReviewedForm, add_service_errors
from campaign.keys import key_named
from campaign.models import Order
from campaign.pages.changes import changes
from campaign.pages.time_lines import kept_in_zone_text, time_lines_ahead, time_lines_done
from campaign.rules.orders import HOURS_PER_DAY, clock_text, order_done_text
from campaign.selectors import battle_setup
from campaign.selectors.reviews import (
    advance_passings,
    advance_preview,
    entries_changes,
    orders_ahead,
    orders_done,
)
from campaign.selectors.roster import campaign_now
from campaign.selectors.timeline import advance_entries
from campaign.services import calendar_advance
from campaign.services.orders import clock_move
from campaign.services.recovery import time_reviewed
from campaign.table_forms.orders import ClockForm
from campaign.views._common import base_context, destroyed_context, form_invalid
from campaign.views.orders import ORDERS, orders_context
from campaign.views.pages import DASHBOARD, dashboard_context
from units.words import plural

TIME_PASSES = (
    "each midnight is a day of R&R, and Casualty hits the medics have not saved die when the "
    "medics' 24 hours are over: for each unit, 24 hours from the battle that dealt the oldest "
    "of its hits still awaiting them (the hits of its later battles die with those)."
)


def orders_done_words(done: list[Order], *, ahead: bool = False) -> str:
    """The Orders a move of the clock or the calendar sees done, in a sentence: after it
    ("Orders done: …"), or in its review, before (``ahead``: "Orders done by then: …")."""
    if not done:
        return "No Order is done by then. " if ahead else "No Order was done. "
    listed = "; ".join(order_done_text(o.unit.name, o.kind, o.giver.name) for o in done)
    return f"Orders done{' by then' if ahead else ''}: {listed}. "


def time_review(
    request: HttpRequest,
    viewer: Viewer,
    *,
    hours: int,
    title: str,
    confirm_url: str,
    confirm_label: str,
    hidden: list[tuple[str, Any]],
    back_url: str,
    span: str = "",
) -> HttpResponse:
    """The review before the clock moves on (the calendar's Advance and the Orders page's
    clock alike): what each unit will go through, hour by hour, the table of changes, and the
    Orders done by then, as its summary tells them after. Its confirmation carries the clock
    hour it was drawn at (`reviewed`) and what it showed (`time_reviewed`, the Orders done by
    then too): a unit changed since, or an Order given or called off since that changes them,
    is refused by name (`time_refused`)."""
    campaign = viewer.campaign
    start = campaign_now(campaign)
    passings = advance_passings(campaign=campaign, hours=hours)
    ahead = orders_ahead(campaign, passings, start, start + hours)
    showed = time_reviewed(passings, ahead)  # every unit's, a long review's other pages too
    preview = advance_preview(passings)
    kept = kept_in_zone_text(passings)  # every unit's, before a long review's paging
    span = span or f"From {clock_text(start)} to {clock_text(start + hours)}"
    shown, paging = preview, {}
    if len(preview) > battle_setup.LIST_EVERY_UNIT:
        # Too many units change to list on one page: each force's totals, and the units a
        # page at a time (the confirmation moves the clock for every one of them).
        shown, paging = _review_page(request, preview)
        on_page = {unit.pk for unit, _, _ in shown}
        passings = [row for row in passings if row[0].pk in on_page]
    return render(
        request,
        "campaign/review.html",
        base_context(
            viewer,
            title=title,
            lede=f"{span}: {TIME_PASSES} "
            + ("These units change; the others stay as they are." if preview else "No unit "
               "changes.") + " " + orders_done_words(ahead, ahead=True).strip()
            + (f" {kept}" if kept else ""),
            lines=time_lines_ahead(passings),
            changes=changes(shown),
            **paging,
            confirm_url=confirm_url,
            confirm_label=confirm_label,
            hidden=[*hidden, ("reviewed_at", start), ("reviewed", showed)],
            back_url=back_url,
        )
        | destroyed_context(preview),
    )  # fmt: skip


REVIEW_PAGE = 100
"""Units a page of a long review of the clock lists."""


def _review_page(request: HttpRequest, preview: list) -> tuple[list, dict[str, Any]]:
    """The page of a long review's units asked for (``?page=``), and each force's totals."""
    pages = -(-len(preview) // REVIEW_PAGE)
    number = request.GET.get("page", "1")
    asked = key_named(number) if len(number) < 6 else None
    number = min(asked or 1, pages)
    totals: dict[str, dict[str, int]] = {}
    for change in changes(preview):
        force = totals.setdefault(
            change.unit.force.name,
            {"units": 0, "morale": 0, "dying": 0, "rallied": 0, "destroyed": 0},
        )
        before, after = change.before, change.after
        force["units"] += 1
        force["morale"] += max(0, before.morale_hits - after.morale_hits)
        force["dying"] += max(0, before.casualty_hits - after.casualty_hits)
        force["rallied"] += before.status != after.status and after.status == "ready"
        force["destroyed"] += change.destroyed
    query = request.GET.copy()

    def link(page: int | None) -> str | None:
        if page is None:
            return None
        query["page"] = str(page)
        return f"?{query.urlencode()}"

    start = (number - 1) * REVIEW_PAGE
    return preview[start : start + REVIEW_PAGE], {
        "force_totals": [{"force": name, **counts} for name, counts in sorted(totals.items())],
        "review_page": {
            "first": start + 1,
            "last": min(start + REVIEW_PAGE, len(preview)),
            "count": len(preview),
            "earlier": link(number - 1 if number > 1 else None),
            "later": link(number + 1 if number < pages else None),
        },
    }


def reviewed(request: HttpRequest) -> int | None:
    """The clock hour a confirmation's review was drawn at; None when the POST is no review's
    confirmation (no ``confirm``, or no hour it was reviewed at): it goes to the review."""
    form = ReviewedForm(request.POST)
    if request.POST.get("confirm") != "yes" or not form.is_valid():
        return None
    return form.cleaned_data["reviewed_at"]


def time_refused(request: HttpRequest, error: ValidationError, review: str) -> HttpResponse | None:
    """A confirmation refused because a unit changed since its review (`recovery.time_pass`):
    back to the review (``review``), drawn again as the units stand now, saying which. None
    for any other refusal, which the caller's form says."""
    stale = getattr(error, "error_dict", {}).get("reviewed")
    if not stale:
        return None
    messages.error(request, " ".join(m for e in stale for m in e.messages))
    return HttpResponseClientRedirect(review) if request.htmx else redirect(review)


def time_moved(request: HttpRequest, pk: int, entries: list, query: dict[str, Any]) -> HttpResponse:
    """Post, then redirect: the summary page reads what the time wrote back from the history
    (``query`` says how far it went)."""
    ids = [entry.pk for entry in entries]
    after, upto = (min(ids) - 1, max(ids)) if ids else (0, 0)
    query = {**query, "after": after, "upto": upto}
    done = f"{reverse('campaign:advance-summary', args=[pk])}?{urlencode(query)}"
    return HttpResponseClientRedirect(done) if request.htmx else redirect(done)


@login_required
@require_http_methods(["GET", "POST"])
def calendar_advance_view(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: who heals, rallies and dies over the next days, and a button to confirm. POST with
    the confirmation: advance, and a summary of what changed (without it: to the review; after
    the clock has moved since the review, a second tab or click: refused, moving nothing)."""
    viewer = campaign_for_viewer(request.user, pk)
    require_manage(viewer)
    form = AdvanceForm(request.POST if request.method == "POST" else request.GET)
    dashboard = reverse("campaign:dashboard", args=[pk])
    url = reverse("campaign:advance", args=[pk])
    if not form.is_valid():
        return form_invalid(
            request, DASHBOARD, "advance-form", dashboard_context(viewer, advance_form=form)
        )
    days, reason = form.cleaned_data["days"], form.cleaned_data["reason"]
    campaign = viewer.campaign
    start = campaign_now(campaign)
    if request.method == "GET":
        return time_review(
            request,
            viewer,
            hours=days * HOURS_PER_DAY,
            title=f"Advance the calendar {plural(days, 'day')}?",
            confirm_url=url,
            confirm_label=f"Advance to day {campaign.day + days}",
            hidden=[("days", days), ("reason", reason)],
            back_url=dashboard,
            span=f"From day {campaign.day} to day {campaign.day + days}",
        )
    reviewed_at = reviewed(request)
    review = f"{url}?{urlencode({'days': days, 'reason': reason})}"
    if reviewed_at is None:
        return HttpResponseClientRedirect(review) if request.htmx else redirect(review)
    try:
        entries = calendar_advance(
            campaign=campaign, days=days, reason=reason, actor=request.user,
            reviewed_at=reviewed_at, reviewed=request.POST.get("reviewed"),
        )  # fmt: skip
    except ValidationError as error:
        if again := time_refused(request, error, review):
            return again
        add_service_errors(form, error)
        return form_invalid(
            request, DASHBOARD, "advance-form", dashboard_context(viewer, advance_form=form)
        )
    campaign.refresh_from_db(fields=["day"])
    return time_moved(request, pk, entries, {"days": days, "to": campaign.day, "start": start})


@login_required
@require_GET
def calendar_advance_summary(request: HttpRequest, pk: int) -> HttpResponse:
    """What an Advance or a move of the clock changed: the same table as its review, from the
    history it wrote (the entries after ``after`` up to ``upto``, which its redirect names), and
    the Orders done meanwhile (from ``start``, the clock hour it moved on from), as its review
    told them ahead."""
    viewer = campaign_for_viewer(request.user, pk)
    require_manage(viewer)
    form = AdvanceSummaryForm(request.GET)
    if not form.is_valid():
        raise Http404("No such advance of the calendar")
    data = form.cleaned_data
    entries = advance_entries(
        campaign=viewer.campaign, after_id=data["after"], upto_id=data["upto"]
    )
    rows = entries_changes(entries)
    shown, paging = rows, {}
    if len(rows) > battle_setup.LIST_EVERY_UNIT:
        # Too many units changed to list on one page: each force's totals, and the units a
        # page at a time, as the review before it.
        shown, paging = _review_page(request, rows)
        on_page = {unit.pk for unit, _, _ in shown}
        entries = [entry for entry in entries if entry.unit_id in on_page]
    start = data["start"]
    if data["hours"]:
        end = start + data["hours"]
        title = f"It is now {clock_text(end)}"
        moved = f"The clock moved on {plural(data['hours'], 'hour')}, to {clock_text(end)}. "
        back, back_label = reverse("campaign:orders", args=[pk]), "Back to Orders and the clock"
    else:
        end = start + data["days"] * HOURS_PER_DAY
        title = f"It is now day {data['to']}"
        moved = f"The calendar moved on {plural(data['days'], 'day')}, to day {data['to']}. "
        back, back_label = reverse("campaign:dashboard", args=[pk]), "Back to the campaign"
    moved += orders_done_words(orders_done(campaign=viewer.campaign, start=start, end=end))
    return render(
        request,
        "campaign/review.html",
        base_context(
            viewer,
            title=title,
            lede=moved + ("What changed:" if rows else "No unit changed."),
            lines=time_lines_done(entries, start),
            changes=changes(shown),
            **paging,
            back_url=back,
            back_label=back_label,
        )
        | destroyed_context(rows),
    )  # fmt: skip


@login_required
@require_http_methods(["GET", "POST"])
def clock_advance_view(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: what the next hours do to the units, and a button to confirm (the calendar's
    review, `time_review`). POST with the confirmation: move the clock on, and a summary of
    what changed and the Orders done (without it: to the review; after the clock has moved
    since the review, a second tab or click: refused, moving nothing)."""
    viewer = campaign_for_viewer(request.user, pk)
    require_manage(viewer)
    form = ClockForm(request.POST if request.method == "POST" else request.GET)
    if not form.is_valid():
        return form_invalid(request, ORDERS, "clock-form", orders_context(viewer, clock_form=form))
    hours, reason = form.cleaned_data["hours"], form.cleaned_data["reason"]
    campaign = viewer.campaign
    url = reverse("campaign:clock-advance", args=[pk])
    start = campaign_now(campaign)
    if request.method == "GET":
        return time_review(
            request,
            viewer,
            hours=hours,
            title=f"Move the clock on {plural(hours, 'hour')}?",
            confirm_url=url,
            confirm_label=f"Move on to {clock_text(start + hours)}",
            hidden=[("hours", hours), ("reason", reason)],
            back_url=reverse("campaign:orders", args=[pk]),
        )
    reviewed_at = reviewed(request)
    review = f"{url}?{urlencode({'hours': hours, 'reason': reason})}"
    if reviewed_at is None:
        return HttpResponseClientRedirect(review) if request.htmx else redirect(review)
    try:
        _, entries = clock_move(
            campaign=campaign, hours=hours, reason=reason, actor=request.user,
            reviewed_at=reviewed_at, reviewed=request.POST.get("reviewed"),
        )  # fmt: skip
    except ValidationError as error:
        if again := time_refused(request, error, review):
            return again
        add_service_errors(form, error)
        return form_invalid(request, ORDERS, "clock-form", orders_context(viewer, clock_form=form))
    return time_moved(request, pk, entries, {"hours": hours, "start": start})
