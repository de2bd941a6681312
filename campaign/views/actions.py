"""The GM's actions (and a player's medics): each a POST that works with or without htmx.

Each view guards in the same order: login (302), the campaign and object lookups (404 for
outsiders), the right to act (403), then the form (``form_action``): a service's
``ValidationError`` lands next to the field it names; a success goes back to the page with a
message.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ObjectDoesNotExist, PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from campaign.access import (
    Viewer,
    campaign_for_viewer,
    force_for_viewer,
    require_manage,
    unit_for_viewer,
)
from campaign.forms import (
    AdvanceForm,
    AdvanceSummaryForm,
    ButtonForm,
    CampaignDeleteForm,
    CampaignForm,
    CombatZoneForm,
    ForceEditForm,
    ForceForm,
    HandOverForm,
    InvitationForm,
    LeaderAttachForm,
    LeaderDetachForm,
    MedicalForm,
    MemberForm,
    MemberRemoveForm,
    NoticesForm,
    ReviewedForm,
    SettingsForm,
    StoryNoteForm,
    UndoForm,
    UnitAddForm,
    UnitEditForm,
    UnitMoveForm,
    add_service_errors,
)
from campaign.keys import key_named
from campaign.models import Campaign, HistoryEntry, Order, role_phrase
from campaign.pages import (
    changes,
    engagement_sides,
    history_sentence,
    kept_in_zone_text,
    left_unsaved_text,
    medics_today,
    roster_lines,
    time_lines_ahead,
    time_lines_done,
    trained_text,
    undo_blocked,
    undo_blocked_lede,
    undo_text,
    unit_joins_text,
    unit_label,
)
from campaign.rules.history import plural, possessive, undone_name
from campaign.rules.orders import HOURS_PER_DAY, clock_text, order_done_text
from campaign.selectors import battle_setup
from campaign.selectors.access import GM, invitee_key
from campaign.selectors.reviews import (
    advance_passings,
    advance_preview,
    entries_changes,
    orders_ahead,
    orders_done,
    undo_preview,
)
from campaign.selectors.roster import campaign_now
from campaign.selectors.timeline import advance_entries
from campaign.services import (
    calendar_advance,
    campaign_create,
    campaign_hand_over,
    campaign_update,
    entry_undo,
    force_create,
    force_edit,
    invitation_accept,
    invitation_decline,
    invitation_send,
    invitation_withdraw,
    leader_attach,
    leader_detach,
    medical_apply,
    membership_remove,
    membership_set,
    quick_resolve_run,
    unit_combat_zone_set,
    unit_edit,
    unit_move,
    unit_remove,
    unit_train,
    units_raise,
)
from campaign.services.deletion import (
    campaign_contents,
    campaign_delete,
    campaign_deletion_refusal,
)
from campaign.services.engagements import EngagementPreview
from campaign.services.members import INVITED, InvitationAnswered
from campaign.services.notices import notices_set
from campaign.services.quick import quick_resolve_preview
from campaign.services.recovery import medics_text, time_reviewed
from campaign.services.story import story_note_add, story_note_remove
from campaign.table_forms.characters import UnitTrainForm
from campaign.table_forms.engagements import QuickResolveForm
from campaign.views._common import (
    action_done,
    base_context,
    form_action,
    form_invalid,
    return_path,
    said_on_top,
    sent_already,
)
from campaign.views.join import invitation_gone
from campaign.views.pages import (
    campaign_list_context,
    dashboard_context,
    force_context,
    timeline_context,
    unit_context,
)
from units.words import and_words, capfirst

DASHBOARD = "campaign/dashboard.html"
DELETE = "campaign/delete.html"
HAND_OVER = "campaign/hand_over.html"
TIMELINE = "campaign/timeline.html"
FORCE = "campaign/force.html"
UNIT = "campaign/unit.html"


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
        | _destroyed(preview),
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
        | _destroyed(rows),
    )  # fmt: skip


def _destroyed(rows) -> dict[str, list[str]]:
    return {"destroyed": [unit_label(c.unit) for c in changes(rows) if c.destroyed]}


def _quick_outcome(record, attacker, defender) -> str:
    """What a quick resolve came to, by its units' names ("Rangers 1 won after 3 rounds")."""
    winner = {"attackers": attacker.name, "defenders": defender.name}.get(record.winner)
    outcome = f"{winner} won" if winner else "no winner (the round limit)"
    return f"{outcome} after {plural(record.rounds, 'round')}"


def _quick_arguments(campaign: Campaign, form: QuickResolveForm) -> dict[str, Any]:
    data = form.cleaned_data
    attacker_stance, defender_stance = form.stances()
    return {
        "campaign": campaign,
        "attacker": data["attacker"],
        "defender": data["defender"],
        "attacker_stance": attacker_stance,
        "defender_stance": defender_stance,
        "round_limit": data["round_limit"],
        "seed": data["seed"],
        "reason": data["reason"],
    }


def _quick_preview(request: HttpRequest, viewer: Viewer, form: QuickResolveForm):
    """The quick resolve as Apply will write it (`quick_resolve_preview`, which writes
    nothing), or, refused, the dashboard's form again with the refusal beside its field."""
    if form.is_valid():
        try:
            return quick_resolve_preview(
                **_quick_arguments(viewer.campaign, form), actor=request.user
            )
        except ValidationError as error:
            add_service_errors(form, error)
    return form_invalid(
        request, DASHBOARD, "quick-form", dashboard_context(viewer, quick_form=form)
    )


def engagement_review(
    request: HttpRequest,
    viewer: Viewer,
    preview: EngagementPreview,
    *,
    outcome: str,
    confirm_url: str,
    back_url: str,
    marks: tuple[str, ...] = (),
) -> HttpResponse:
    """The review of an engagement before Apply (a quick resolve's or the engagement set-up's):
    its rounds as the engagement's page gives them and what it does to each unit. Apply sends
    the set-up back as the review's address carried it (but ``marks``, the address's own), with
    the preview's seed and what it showed (``reviewed``)."""
    from campaign.views.table import engagement_log  # table's views import this module

    record = preview.engagement
    sides = engagement_sides([record])[record.pk]
    kept = [(name, value) for name, value in request.GET.items()
            if name not in ("seed", "reviewed", "confirm", *marks)]  # fmt: skip
    return render(
        request,
        "campaign/review.html",
        base_context(
            viewer,
            title="Apply the outcome?",
            lede=f"{capfirst(record.name)}: {outcome}. Applying writes "
            "these changes into each unit's history.",
            note=f"These are the engagement's own dice (seed {record.seed}): applying writes "
            "exactly what is shown here.",
            changes=changes(preview.rows, preview.entries),
            fight="engagement",  # what the changes' sentences tell (`_changes.html`)
            log=engagement_log(record, sides, set(), set()),
            confirm_url=confirm_url,
            confirm_label="Apply",
            hidden=[*kept, ("seed", record.seed), ("reviewed", preview.reviewed)],
            back_url=back_url,
        )
        | _destroyed(preview.rows),
    )


def to_engagement_review(
    request: HttpRequest, address: str, preview: EngagementPreview, **marks: str
) -> HttpResponse:
    """To the review of the engagement just sent (a GET, writing nothing): the form's fields in
    its address, with ``marks``, and the seed drawn now, so that the review, reloaded, shows the
    same dice."""
    query = request.POST.copy()
    query.pop("csrfmiddlewaretoken", None)
    query["seed"] = str(preview.engagement.seed)
    for name, value in marks.items():
        query[name] = value
    review = f"{address}?{query.urlencode()}"
    return HttpResponseClientRedirect(review) if request.htmx else redirect(review)


def _quick_review(request: HttpRequest, viewer: Viewer, form: QuickResolveForm) -> HttpResponse:
    preview = _quick_preview(request, viewer, form)
    if isinstance(preview, HttpResponse):
        return preview
    pk, data = viewer.campaign.pk, form.cleaned_data
    return engagement_review(
        request, viewer, preview,
        outcome=_quick_outcome(preview.engagement, data["attacker"], data["defender"]),
        confirm_url=reverse("campaign:quick-resolve", args=[pk]),
        back_url=reverse("campaign:dashboard", args=[pk]),
    )  # fmt: skip


@login_required
@require_http_methods(["GET", "POST"])
def quick_resolve_view(request: HttpRequest, pk: int) -> HttpResponse:
    """POST: fight the quick resolve and apply it. Where the GM reviews each outcome first, the
    POST goes to its review instead (GET, writing nothing), whose Apply (the POST confirmed,
    with what the review showed) writes exactly that, or is refused if a unit changed since."""
    viewer = campaign_for_viewer(request.user, pk)
    require_manage(viewer)
    form = QuickResolveForm(
        request.GET if request.method == "GET" else request.POST, campaign=viewer.campaign
    )
    review_first = viewer.campaign.apply_mode == Campaign.ApplyMode.REVIEW
    confirmed = request.POST.get("confirm") == "yes" and request.POST.get("reviewed")
    if request.method == "GET":
        return _quick_review(request, viewer, form)
    if review_first and not confirmed:
        # Refused here beside its field, as when applied at once; else to the review, its seed
        # drawn now so that the review, reloaded, shows the same dice.
        preview = _quick_preview(request, viewer, form)
        if isinstance(preview, HttpResponse):
            return preview
        return to_engagement_review(request, reverse("campaign:quick-resolve", args=[pk]), preview)

    def resolve(data):
        record = quick_resolve_run(
            **_quick_arguments(viewer.campaign, form),
            request_key=data["request_key"],
            actor=request.user,
            reviewed=request.POST.get("reviewed") if review_first else None,
        )
        # Its round-by-round log is the engagement's page, like any engagement's.
        outcome = _quick_outcome(record, data["attacker"], data["defender"])
        return reverse("campaign:engagement", args=[pk, record.pk]), f"Quick resolve: {outcome}."

    return form_action(
        request,
        form,
        resolve,
        page=DASHBOARD,
        partial="quick-form",
        context=lambda: dashboard_context(viewer, quick_form=form),
    )


@login_required
@require_POST
def unit_add_view(request: HttpRequest, pk: int, force_pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    force = force_for_viewer(viewer, force_pk)
    require_manage(viewer)
    form = UnitAddForm(request.POST, campaign=viewer.campaign)

    def add(data):
        units = units_raise(
            force=force,
            unit_type=data["unit_type"],
            name=data["name"],
            count=data["count"],
            quality=data["quality"],
            equipment=data["equipment"],
            specialties=data["specialties"],
            actor=request.user,
        )
        return reverse("campaign:force", args=[pk, force.pk]), unit_joins_text(units, force)

    return form_action(
        request,
        form,
        add,
        page=FORCE,
        partial="add-form",
        context=lambda: force_context(viewer, force, add_form=form),
    )


@login_required
@require_POST
def medical_view(request: HttpRequest, pk: int, force_pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    force = force_for_viewer(viewer, force_pk)
    if not viewer.may_direct(force):
        raise PermissionDenied("only the force's owner or the GM directs its medics")
    medics = medics_today(force, roster_lines(force))
    form = MedicalForm(request.POST, wounded=medics.wounded, shaken=medics.shaken)

    def send_medics(data):
        # The default triage unless the unit-by-unit button was pressed.
        allocation = morale = None
        if request.POST.get("how") == "allocate":
            allocation, morale = form.allocation()
        entries = medical_apply(
            force=force,
            allocation=allocation,
            morale=morale,
            reason=data["reason"],
            actor=request.user,
        )
        url = reverse("campaign:force", args=[pk, force.pk])
        if not entries:
            return url, "The medics found no hits they could heal today."
        said = [
            (f"{medics_text(entry.details['saved'], entry.details['morale_saved'])} of "
             f"{entry.unit.name}", bool(entry.details["saved"] and entry.details["morale_saved"]))
            for entry in entries
        ]  # fmt: skip
        # A unit's part that holds an "and" of its own (both kinds of hit) sets the units
        # apart with semicolons, as "Left unsaved" does, so no sentence says "and" twice.
        parts = [part for part, _ in said]
        both = len(parts) > 1 and any(two for _, two in said)
        saved = "; ".join(parts) if both else and_words(parts)
        # What they could not save, and when it dies, read from the units as they are now.
        left = left_unsaved_text(roster_lines(force))
        return url, f"The medics saved {saved}. {left}".strip()

    return form_action(
        request,
        form,
        send_medics,
        page=FORCE,
        partial="medical-form",
        # The refused form is swapped in alone: the roster beside it goes with it, drawn as
        # the units are now (the clock may have moved on since the page was drawn).
        context=lambda: {
            **force_context(viewer, force, medical_form=form),
            "roster_again": bool(request.htmx),
        },
    )


@login_required
@require_POST
def unit_edit_view(request: HttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    unit = unit_for_viewer(viewer, unit_pk)
    require_manage(viewer)
    form = UnitEditForm(request.POST, unit=unit)

    def correct(data):
        changes = form.changes(unit)
        if not changes:
            raise ValidationError("Nothing was changed.")
        unit_edit(unit=unit, changes=changes, reason=data["reason"], actor=request.user)
        return reverse("campaign:unit", args=[pk, unit.pk]), f"{unit.name} corrected."

    return form_action(
        request,
        form,
        correct,
        page=UNIT,
        partial="edit-form",
        context=lambda: unit_context(viewer, unit, edit_form=form),
    )


@login_required
@require_http_methods(["GET", "POST"])
def unit_undo_view(request: HttpRequest, pk: int, unit_pk: int, entry_pk: int) -> HttpResponse:
    """GET: what the GM's Undo of the unit's latest change will give back, with the reason to
    give, or why it cannot be undone. POST with a reason: undo it, back to the unit's page."""
    viewer = campaign_for_viewer(request.user, pk)
    unit = unit_for_viewer(viewer, unit_pk)
    require_manage(viewer)
    entry = HistoryEntry.objects.filter(pk=entry_pk, unit=unit).select_related("unit").first()
    if entry is None:
        raise Http404("no such entry in the unit's history")
    entry.unit = unit
    url = reverse("campaign:unit", args=[pk, unit.pk])
    back_to = return_path(request, pk)  # the revert its change refused, when it came from one
    this = undone_name(entry.undo_kind, entry.day)
    named = history_sentence(this, "")  # "The GM's correction of day 3"
    if HistoryEntry.objects.filter(reverts=entry).exists():
        # Sent twice (a double click, a page drawn before): the first Undo is the answer.
        messages.info(request, f"{named} is undone already; nothing changed.")
        return redirect(back_to or url)
    form = UndoForm(request.POST if request.method == "POST" else None)
    context = {"unit": unit, "force": unit.force, "back_url": url}
    # What the Undo itself would refuse (`pages.undo_blocked`), said before any button.
    refusal = undo_blocked(viewer.campaign, entry)
    if not refusal and request.method == "POST" and form.is_valid():
        try:
            done = entry_undo(entry=entry, reason=form.cleaned_data["reason"], actor=request.user)
        except ValidationError as error:
            # The unit changed between the page and the press: said as the page says it now.
            refusal = undo_blocked(viewer.campaign, entry)
            add_service_errors(form, error)
        else:
            said = "is undone" if done is not None else "is undone already; nothing changed"
            messages.success(request, f"{named} {said}.")
            return redirect(back_to or url)
    if refusal:
        # Nothing to confirm: the Undo would refuse it.
        title = f"{named} cannot be undone"
        return render(
            request,
            "campaign/review.html",
            base_context(
                viewer, title=title, refusal=refusal, changes=[],
                lede=undo_blocked_lede(entry),
                back_label=f"Back to {unit.name}", **context,
            ),
            status=200 if request.method == "GET" else 400,
        )  # fmt: skip
    return render(
        request,
        "campaign/review.html",
        base_context(
            viewer, title=f"Undo {this}?", form=form,
            changes=changes(undo_preview(entry=entry)),
            lede=f"Undoing it gives {unit.name} back every field it changed, as it was "
            "before, in a new history entry; the entry undone stays, struck through.",
            note=f"{unit.name} goes {back}." if (back := undo_text(entry)) else "",
            confirm_url=reverse("campaign:unit-undo", args=[pk, unit.pk, entry.pk]),
            confirm_label=f"Undo {this}", hidden=[("next", back_to)] if back_to else [],
            **context,
        ),
        status=200 if request.method == "GET" else 400,
    )  # fmt: skip


@login_required
@require_POST
def unit_move_view(request: HttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    """The GM or a co-GM moves a unit to another force; back to its page, saying so."""
    viewer = campaign_for_viewer(request.user, pk)
    unit = unit_for_viewer(viewer, unit_pk)
    require_manage(viewer)
    form = UnitMoveForm(request.POST, unit=unit)

    def move(data):
        unit_move(unit=unit, force=data["force"], reason=data["reason"], actor=request.user)
        said = f"{unit.name} is in {data['force'].name} now."
        return reverse("campaign:unit", args=[pk, unit.pk]), said

    return form_action(
        request,
        form,
        move,
        page=UNIT,
        partial="move-form",
        context=lambda: unit_context(viewer, unit, move_form=form),
    )


@login_required
@require_POST
def unit_remove_view(request: HttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    """Strike off the roster a unit raised by mistake; back to its force, saying so."""
    viewer = campaign_for_viewer(request.user, pk)
    unit = unit_for_viewer(viewer, unit_pk)
    require_manage(viewer)
    form = ButtonForm(request.POST)

    def strike(data):
        try:
            name = unit_remove(unit=unit, actor=request.user)
        except ValidationError as refusal:
            # Sent from a page drawn before the unit's first part in the story, which its page
            # no longer offers.
            return said_on_top(reverse("campaign:unit", args=[pk, unit.pk]), refusal)
        url = reverse("campaign:force", args=[pk, unit.force_id])
        return (
            url,
            f"{name} is struck off {possessive(unit.force.name)} roster, as raised by mistake.",
        )

    return form_action(
        request,
        form,
        strike,
        page=UNIT,
        partial="remove-form",
        context=lambda: unit_context(viewer, unit, remove_form=form),
    )


@login_required
@require_POST
def unit_train_view(request: HttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    unit = unit_for_viewer(viewer, unit_pk)
    require_manage(viewer)
    form = UnitTrainForm(request.POST, campaign=viewer.campaign)

    def train(data):
        entry = unit_train(
            unit=unit, character=data["character"], reason=data["reason"], actor=request.user
        )
        return (
            reverse("campaign:unit", args=[pk, unit.pk]),
            trained_text(data["character"].name, unit.name, entry),
        )

    return form_action(
        request,
        form,
        train,
        page=UNIT,
        partial="train-form",
        context=lambda: unit_context(viewer, unit, train_form=form),
    )


@login_required
@require_POST
def campaign_create_view(request: HttpRequest) -> HttpResponse:
    """Anyone may start a campaign; whoever does is its GM."""
    form = CampaignForm(request.POST)

    def begin(data):
        campaign = campaign_create(
            name=data["name"],
            gm=request.user,
            ruleset=data["ruleset"],
            request_key=data["request_key"],
        )
        url = reverse("campaign:dashboard", args=[campaign.pk])
        return url, f"{campaign.name} begins on day 1."

    return form_action(
        request,
        form,
        begin,
        page="campaign/list.html",
        partial="create-form",
        context=lambda: campaign_list_context(request, create_form=form),
    )


@login_required
@require_http_methods(["GET", "POST"])
def campaign_delete_view(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: what deleting the campaign takes with it, and its name to type. POST: delete it,
    then back to the campaigns list, saying so. The GM's alone (403 for everyone else)."""
    form = CampaignDeleteForm(request.POST if request.method == "POST" else None)
    if done := sent_already(request, form):
        return done
    viewer = campaign_for_viewer(request.user, pk)
    if viewer.role != GM:
        raise PermissionDenied("only the campaign's GM may delete it")
    if request.method == "GET":
        return render(request, DELETE, delete_context(viewer, form))

    def delete(data):
        name = campaign_delete(campaign=viewer.campaign, actor=request.user, name=data["name"])
        return reverse("campaign:list"), f"{name} is deleted, with everything in it."

    return form_action(
        request,
        form,
        delete,
        page=DELETE,
        partial="delete-form",
        context=lambda: delete_context(viewer, form),
    )


def delete_context(viewer: Viewer, form: CampaignDeleteForm) -> dict[str, Any]:
    campaign = viewer.campaign
    form.fields["name"].help_text = f"Type {campaign.name} to show it is the one you mean."
    members = campaign.memberships.select_related("user").order_by("user__username")
    return base_context(
        viewer,
        form=form,
        contents=campaign_contents(campaign),
        members=and_words([m.user.username for m in members]) if members else "",
        fighting=campaign_deletion_refusal(campaign),
    )


@login_required
@require_http_methods(["GET", "POST"])
def campaign_hand_over_view(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: whom the campaign may go to, and what its GM stays as. POST: hand it on, then back
    to the dashboard (the one who sent it sees it as they now are), saying so. The GM's alone
    (403 for everyone else)."""
    posted = request.method == "POST"
    # Sent again once done, it is no longer the sender's to hand on: what the first one said.
    if posted and (done := sent_already(request, ButtonForm(request.POST))):
        return done
    viewer = campaign_for_viewer(request.user, pk)
    if viewer.role != GM:
        raise PermissionDenied("only the campaign's GM may hand it on")
    form = HandOverForm(request.POST if posted else None, campaign=viewer.campaign)
    if not posted:
        return render(request, HAND_OVER, base_context(viewer, form=form))

    def hand_over(data):
        to, stay_as = data["to"], data["stay_as"]
        went = campaign_hand_over(
            campaign=viewer.campaign, to=to, stay_as=stay_as,
            with_forces=data.get("with_forces", False), actor=request.user,
        )  # fmt: skip
        forces = f" {and_words(went)} went with it." if went else ""
        message = f"{to} runs {viewer.campaign} now; you stay in it as {role_phrase(stay_as)}."
        return reverse("campaign:dashboard", args=[pk]), message + forces

    return form_action(
        request,
        form,
        hand_over,
        page=HAND_OVER,
        partial="hand-over-form",
        context=lambda: base_context(viewer, form=form),
    )


@login_required
@require_POST
def story_note_view(request: HttpRequest, pk: int) -> HttpResponse:
    """The GM (or a co-GM) writes a note in the campaign's story; back to the timeline."""
    viewer = campaign_for_viewer(request.user, pk)
    require_manage(viewer)
    form = StoryNoteForm(request.POST)

    def write(data):
        note = story_note_add(campaign=viewer.campaign, text=data["text"], actor=request.user)
        url = reverse("campaign:timeline", args=[pk])
        return url, f"The note is in the story, on day {note.day}."

    return form_action(
        request,
        form,
        write,
        page=TIMELINE,
        partial="note-form",
        context=lambda: timeline_context(viewer, note_form=form),
    )


@login_required
@require_POST
def story_note_remove_view(request: HttpRequest, pk: int, note_pk: int) -> HttpResponse:
    """Take a GM's note out of the story; back to the timeline, saying so."""
    viewer = campaign_for_viewer(request.user, pk)
    require_manage(viewer)
    url = reverse("campaign:timeline", args=[pk])
    try:
        text = story_note_remove(campaign=viewer.campaign, note_pk=note_pk, actor=request.user)
    except ObjectDoesNotExist:
        # Taken out already (a double click, a second tab): what the page shows is so.
        return action_done(request, url, "That note is out of the story already.", messages.INFO)
    return action_done(request, url, f"The note \u201c{text:.60}\u201d is out of the story.")


@login_required
@require_POST
def settings_view(request: HttpRequest, pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    require_manage(viewer)
    form = SettingsForm(request.POST, campaign=viewer.campaign)

    def save(data):
        was = viewer.campaign.name
        campaign = campaign_update(campaign=viewer.campaign, actor=request.user, **form.changes())
        renamed = f" {was} is called {campaign.name} now." if campaign.name != was else ""
        return reverse("campaign:dashboard", args=[pk]), "Settings saved." + renamed

    return form_action(
        request,
        form,
        save,
        page=DASHBOARD,
        partial="settings-form",
        context=lambda: dashboard_context(viewer, settings_form=form),
    )


@login_required
@require_POST
def invitation_send_view(request: HttpRequest, pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    require_manage(viewer)
    form = InvitationForm(request.POST)

    def invite(data):
        # Refused beside the name, not reported as done: nothing is sent.
        if refusal := _in_campaign_already(viewer, data["invitee"]):
            raise ValidationError({"invitee": refusal})
        invitation_send(
            campaign=viewer.campaign,
            invitee=data["invitee"],
            role=data["role"],
            actor=request.user,
        )
        return reverse("campaign:dashboard", args=[pk]), INVITED

    return form_action(
        request,
        form,
        invite,
        page=DASHBOARD,
        partial="invitation-form",
        context=lambda: dashboard_context(viewer, invitation_form=form),
    )


def _in_campaign_already(viewer: Viewer, invitee: str) -> str:
    """Why an invitation to the GM or a member by username is refused: the inviter sees the
    members already, so this tells nothing new. An e-mail address gets the one answer
    (`INVITED`): who owns which address is not the inviter's to learn."""
    key = invitee_key(invitee)
    if not key or "@" in key:
        return ""
    campaign = viewer.campaign
    if campaign.gm.get_username() == key:
        return f"No invitation was sent: {key} is this campaign's GM."
    username = f"user__{get_user_model().USERNAME_FIELD}"
    member = campaign.memberships.filter(**{username: key}).first()
    if member is None:
        return ""
    return (
        f"No invitation was sent: {key} is in the campaign already, as "
        f"{member.get_role_display().lower()}. To change their role, use “Change a member's "
        "role”."
    )


@login_required
@require_POST
def notices_set_view(request: HttpRequest, pk: int) -> HttpResponse:
    """A member turns their own email notices on or off."""
    viewer = campaign_for_viewer(request.user, pk)
    form = NoticesForm(request.POST)

    def choose(data):
        on = data["email_notices"]
        notices_set(campaign=viewer.campaign, user=request.user, on=on)
        url = reverse("campaign:dashboard", args=[pk])
        if on:
            return url, f"Notices of your units will be mailed to {request.user.email}."
        return url, "You will get no more notices by email."

    return form_action(
        request,
        form,
        choose,
        page=DASHBOARD,
        partial="notices-form",
        context=lambda: dashboard_context(viewer, notices_form=form),
    )


@login_required
@require_POST
def invitation_withdraw_view(request: HttpRequest, pk: int, invitation_pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    require_manage(viewer)
    try:
        invitee = invitation_withdraw(
            campaign=viewer.campaign, invitation_pk=invitation_pk, actor=request.user
        )
    except ObjectDoesNotExist:
        raise Http404("no such invitation") from None
    url = reverse("campaign:dashboard", args=[pk])
    return action_done(request, url, f"The invitation to {invitee} is withdrawn.")


@login_required
@require_POST
def invitation_answer_view(request: HttpRequest, invitation_pk: int, answer: str) -> HttpResponse:
    """The invitee accepts (and is a member from now on) or declines. Answered already (a
    second click, a second tab): the campaign (or the campaigns page) says so; anyone else's
    invitation is not found."""
    try:
        if answer == "accept":
            membership = invitation_accept(invitation_pk=invitation_pk, user=request.user)
            url = reverse("campaign:dashboard", args=[membership.campaign_id])
            message = f"You are in {membership.campaign.name} as {role_phrase(membership.role)}."
        else:
            campaign = invitation_decline(invitation_pk=invitation_pk, user=request.user)
            url = reverse("campaign:list")
            message = f"You declined the invitation to {campaign.name}."
    except ObjectDoesNotExist:
        return invitation_gone(request)  # withdrawn while the page was open, or not theirs
    except InvitationAnswered as answered:
        messages.info(request, " ".join(answered.messages))
        url = (
            reverse("campaign:dashboard", args=[answered.campaign.pk])
            if answered.joined
            else reverse("campaign:list")
        )
        return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("campaign:list")
    return action_done(request, url, message)


@login_required
@require_POST
def member_set_view(request: HttpRequest, pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    require_manage(viewer)
    form = MemberForm(request.POST, campaign=viewer.campaign)

    def enrol(data):
        user = data["username"]
        membership_set(campaign=viewer.campaign, user=user, role=data["role"], actor=request.user)
        membership = viewer.campaign.memberships.get(user=user)
        url = reverse("campaign:dashboard", args=[pk])
        return url, f"{user.get_username()} is {role_phrase(membership.role)} now."

    return form_action(
        request,
        form,
        enrol,
        page=DASHBOARD,
        partial="member-form",
        context=lambda: dashboard_context(viewer, member_form=form),
    )


@login_required
@require_POST
def member_remove_view(request: HttpRequest, pk: int) -> HttpResponse:
    """The GM or a co-GM takes a member out of the campaign."""
    viewer = campaign_for_viewer(request.user, pk)
    require_manage(viewer)
    form = MemberRemoveForm(request.POST, campaign=viewer.campaign)

    def remove(data):
        user = data["username"]
        npcs = membership_remove(campaign=viewer.campaign, user=user, actor=request.user)
        said = f"{user.get_username()} is no longer in the campaign."
        return reverse("campaign:dashboard", args=[pk]), said + _npcs_now(npcs)

    return form_action(
        request,
        form,
        remove,
        page=DASHBOARD,
        partial="member-remove-form",
        context=lambda: dashboard_context(viewer, member_remove_form=form),
    )


@login_required
@require_POST
def campaign_leave_view(request: HttpRequest, pk: int) -> HttpResponse:
    """A member (not the GM) leaves the campaign, and is back at their campaigns list."""
    form = ButtonForm(request.POST)
    if done := sent_already(request, form):
        return done
    viewer = campaign_for_viewer(request.user, pk)

    def leave(data):
        try:
            npcs = membership_remove(
                campaign=viewer.campaign, user=request.user, actor=request.user
            )
        except ValidationError as refusal:
            return said_on_top(reverse("campaign:dashboard", args=[pk]), refusal)
        said = f"You have left {viewer.campaign.name}."
        return reverse("campaign:list"), said + _npcs_now(npcs)

    return form_action(
        request,
        form,
        leave,
        page=DASHBOARD,
        partial="leave-form",
        context=lambda: dashboard_context(viewer, leave_form=form),
    )


def _npcs_now(names: list[str]) -> str:
    """What became of the characters a member played, once they are out: the GM's to play."""
    if not names:
        return ""
    return f" {and_words(names)} {'is an NPC' if len(names) == 1 else 'are NPCs'} now."


@login_required
@require_POST
def force_edit_view(request: HttpRequest, pk: int, force_pk: int) -> HttpResponse:
    """The GM or a co-GM renames a force or gives it to another player."""
    viewer = campaign_for_viewer(request.user, pk)
    force = force_for_viewer(viewer, force_pk)
    require_manage(viewer)
    form = ForceEditForm(request.POST, force=force)
    old_name, old_owner = force.name, force.owner_id

    def edit(data):
        edited = force_edit(force=force, **form.changes(), actor=request.user)
        said = []
        if edited.name != old_name:
            said.append(f"{old_name} is called {edited.name} now.")
        if edited.owner_id != old_owner:
            said.append(f"{edited.name} is {possessive(edited.owner.get_username())} force now.")
        return reverse("campaign:force", args=[pk, force.pk]), " ".join(said) or "Nothing changed."

    return form_action(
        request,
        form,
        edit,
        page=FORCE,
        partial="force-edit-form",
        context=lambda: force_context(viewer, force, force_edit_form=form),
    )


@login_required
@require_POST
def force_create_view(request: HttpRequest, pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    require_manage(viewer)
    form = ForceForm(request.POST, campaign=viewer.campaign)

    def raise_force(data):
        force = force_create(
            campaign=viewer.campaign, owner=data["owner"], name=data["name"], actor=request.user
        )
        return reverse("campaign:force", args=[pk, force.pk]), f"{force.name} is raised."

    return form_action(
        request,
        form,
        raise_force,
        page=DASHBOARD,
        partial="force-form",
        context=lambda: dashboard_context(viewer, force_form=form),
    )


@login_required
@require_POST
def unit_combat_zone_view(request: HttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    """Withdraw a unit from the combat zone, or send it back in (its owner or the GM)."""
    viewer = campaign_for_viewer(request.user, pk)
    unit = unit_for_viewer(viewer, unit_pk)
    if not viewer.may_direct(unit.force):
        raise PermissionDenied("only the force's owner or the GM moves its units")
    form = CombatZoneForm(request.POST)

    def move(data):
        going = data["in_combat_zone"]
        entry = unit_combat_zone_set(
            unit=unit, in_combat_zone=going, reason=data["reason"], actor=request.user
        )
        url = reverse("campaign:unit", args=[pk, unit.pk])
        where = "in the combat zone" if going else "out of the combat zone"
        if entry is None:
            return url, f"{unit.name} is {where} already."
        if going:
            return url, f"{unit.name} is sent into the combat zone."
        return url, f"{unit.name} is withdrawn to the rear: R&R now heals its last Morale hit."

    return form_action(
        request,
        form,
        move,
        page=UNIT,
        partial="zone-form",
        context=lambda: unit_context(viewer, unit, zone_form=form),
    )


@login_required
@require_POST
def leader_attach_view(request: HttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    unit = unit_for_viewer(viewer, unit_pk)
    require_manage(viewer)
    form = LeaderAttachForm(request.POST)

    def attach(data):
        leader = leader_attach(
            unit=unit,
            name=data["name"],
            hit_points=data["hit_points"],
            reason=data["reason"],
            actor=request.user,
        )
        url = reverse("campaign:unit", args=[pk, unit.pk])
        return url, f"{leader.name} takes command of {unit.name}."

    return form_action(
        request,
        form,
        attach,
        page=UNIT,
        partial="leader-form",
        context=lambda: unit_context(viewer, unit, leader_form=form),
    )


@login_required
@require_POST
def leader_detach_view(request: HttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    unit = unit_for_viewer(viewer, unit_pk)
    require_manage(viewer)
    form = LeaderDetachForm(request.POST)

    def detach(data):
        leader = getattr(unit, "leader", None)
        leader_detach(unit=unit, reason=data["reason"], actor=request.user)
        url = reverse("campaign:unit", args=[pk, unit.pk])
        return url, f"{leader.name} leaves {unit.name}."

    return form_action(
        request,
        form,
        detach,
        page=UNIT,
        partial="detach-form",
        context=lambda: unit_context(viewer, unit, detach_form=form),
    )
