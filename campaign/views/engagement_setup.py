"""The quick resolve: one unit against one, from the dashboard. Where the GM reviews each outcome
first, it goes to the engagement's review (`engagement_review`, the engagement set-up's too),
writing nothing; its Apply writes exactly the outcome shown, or is refused if a unit changed since.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from campaign.access import (
    Viewer,
    campaign_for_viewer,
    require_manage,
)
from campaign.forms import (
    add_service_errors,
)
from campaign.models import Campaign
from campaign.pages import (
    changes,
    engagement_sides,
)
from campaign.rules.history import plural
from campaign.services import (
    quick_resolve_run,
)
from campaign.services.engagements import EngagementPreview
from campaign.services.quick import quick_resolve_preview
from campaign.table_forms.engagements import QuickResolveForm
from campaign.views._common import (
    _destroyed,
    base_context,
    form_action,
    form_invalid,
)
from campaign.views.pages import (
    DASHBOARD,
    dashboard_context,
)
from units.words import capfirst


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
