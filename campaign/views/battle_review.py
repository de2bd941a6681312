"""A campaign battle's outcome reviewed and applied to its units' histories, and reverted: only the
GM and co-GMs apply and revert."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from battles.forms import focus_first_error
from campaign.access import Viewer, campaign_battle_for_viewer, campaign_for_viewer, require_manage
from campaign.forms import RevertForm, add_service_errors
from campaign.models import CampaignBattle
from campaign.pages.changes import changes
from campaign.pages.names import unit_label
from campaign.pages.reverts import revert_blocked
from campaign.services.battles import (
    battle_named,
    campaign_battle_apply,
    campaign_battle_revert,
    outcome_review,
    outcome_reviewed,
)
from campaign.services.reverts import revert_review
from campaign.views._common import action_done, base_context
from units.words import plural, possessive

REVIEW = "campaign/review.html"


def _review(request, viewer: Viewer, *, status: int = 200, **context: Any) -> HttpResponse:
    """A review of what a GM's click will change (or a summary of what it changed); ``entries``,
    the history entries that tell it (`pages.changes.changes`)."""
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
