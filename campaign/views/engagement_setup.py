"""Fighting an engagement: the quick resolve (one unit against one, from the dashboard) and the
engagement set-up (several units a side, their situations, the terrain, surprise).

Where the GM reviews each outcome first, either goes to the same review (`engagement_review`),
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

from campaign.access import Viewer, campaign_for_viewer, require_manage
from campaign.battle_forms import browsed
from campaign.forms import add_service_errors
from campaign.models import Campaign, Engagement
from campaign.pages.changes import changes
from campaign.pages.fights import engagement_outcome
from campaign.pages.sides import engagement_sides
from campaign.rules.engagement import (
    DRIVEN_BACK,
    DRIVEN_BACK_MARGIN,
    LANDING_WINS_TO_END_PIN,
    PINNED_BY_NUMBERS,
)
from campaign.services import quick_resolve_run
from campaign.services.engagements import EngagementPreview, engagement_preview, engagement_run
from campaign.services.quick import quick_resolve_preview
from campaign.table_forms.engagements import SITUATION_LABELS, EngagementForm, QuickResolveForm
from campaign.views._common import base_context, destroyed_context, form_action, form_invalid
from campaign.views.engagements import engagement_log
from campaign.views.pages import DASHBOARD, dashboard_context
from units.bucs import (
    DUG_IN,
    HIT_MARGIN,
    MOBILE_PER_STEP,
    MOMENTUM_PER_ROUND,
    OUTNUMBERED_TABLE,
    PINNED_DOWN_OPPONENT,
    SURPRISE_MOMENTUM,
    Specialty,
)
from units.words import capfirst, number_text, plural

SETUP = "campaign/engagement_setup.html"


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
        | destroyed_context(preview.rows),
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


def engagement_rules() -> tuple[list[str], list[tuple[str, str]]]:
    """What an engagement's rounds and each of its set-up's choices do, in words, from the
    rules' own numbers (`rules.engagement`, `units.bucs`, docs/bucs-choices.md "Engagements"):
    the round's sentences, and each situation by its label on the form."""
    outnumbered = ", ".join(
        f"{number_text(value)} at {ratio.numerator} to {ratio.denominator}"
        + (" (and Pinned Down)" if ratio == PINNED_BY_NUMBERS else "")
        for ratio, value in OUTNUMBERED_TABLE
    )
    terrain = Specialty.AMPHIBIOUS.row.terrain_modifier
    rounds = [
        "Each round every unit rolls d20 + its modifiers against the enemy it is paired with: "
        f"the higher deals 1 hit per full {HIT_MARGIN} points of margin, half rounded up Morale "
        f"hits, the rest Casualty hits; a loser by {DRIVEN_BACK_MARGIN} or more is Driven Back "
        f"({number_text(DRIVEN_BACK)} next round).",
        f"Momentum: +{MOMENTUM_PER_ROUND} for each round in a row a unit won, lost when it "
        f"loses one. Outnumbered: {outnumbered}. Mobile: +{MOBILE_PER_STEP} a step of "
        "mobility over its enemy (foot, Mechanized, Armor).",
        f"Terrain — Amphibious, Arctic: +{terrain} and double Momentum for a unit with that "
        "specialty against one without; Armor enters Amphibious, Arctic, Jungle or Swamp ground "
        "only if it is Amphibious too. Surprise (Hide against Spot): the side that hides unseen "
        f"starts with +{SURPRISE_MOMENTUM} Momentum.",
        # Who the situations below never pin (rules.engagement's pinned_causes).
        "Never Pinned Down: an Armor unit facing no enemy Armor, by anything, except in cramped "
        "quarters; by numbers, a unit faster than every enemy, except in cramped quarters.",
    ]
    pinned = f"Pinned Down (its enemy +{PINNED_DOWN_OPPONENT})"
    situations = [
        (SITUATION_LABELS["dug_in"], f"+{DUG_IN} on its rolls; no Momentum nor Driven Back, "
         "for it or against it; Pinned Down only from several directions."),
        (SITUATION_LABELS["several_directions"],
         f"{pinned} for the whole engagement, dug in or not (Armor facing no Armor is not)."),
        (SITUATION_LABELS["cramped"], f"{pinned} until it wins a pairing."),
        (SITUATION_LABELS["landing"], f"{pinned} until it has won {LANDING_WINS_TO_END_PIN} "
         "pairings; an Amphibious unit lands unpinned."),
    ]  # fmt: skip
    return rounds, situations


def setup_context(
    viewer: Viewer, form: EngagementForm | None = None, browse: Any = None
) -> dict[str, Any]:
    campaign = viewer.campaign
    engagements = list(Engagement.objects.filter(campaign=campaign)[:20])
    sides = engagement_sides(engagements)
    if form is None and viewer.manages:
        form = EngagementForm(campaign=campaign, browse=browse)
    rounds, situations = engagement_rules()
    return base_context(
        viewer,
        form=form,
        engagements=[(e, engagement_outcome(e, sides[e.pk])) for e in engagements],
        rules_rounds=rounds,
        rules_situations=situations,
    )


def _setup_arguments(viewer: Viewer, form: EngagementForm) -> dict[str, Any]:
    data = form.cleaned_data
    return {
        "campaign": viewer.campaign,
        "sides": form.sides(),
        "situations": form.situations(),
        "terrain": data["terrain"],
        "surprise": data["surprise"] or None,
        "round_limit": data["round_limit"],
        "seed": data["seed"],
        "name": data["name"],
    }


def _setup_preview(request: HttpRequest, viewer: Viewer, form: EngagementForm):
    """The engagement as Apply will write it (`engagement_preview`, which writes nothing), or,
    refused, the set-up again with the refusal beside its field."""
    if form.is_valid():
        try:
            return engagement_preview(**_setup_arguments(viewer, form), actor=request.user)
        except ValidationError as error:
            add_service_errors(form, error)
    return form_invalid(request, SETUP, "engagement-form", setup_context(viewer, form))


@login_required
@require_http_methods(["GET", "POST"])
def engagement_setup(request: HttpRequest, pk: int) -> HttpResponse:
    """POST: fight the engagement and apply it. Where the GM reviews each outcome first, the
    POST goes to its review instead (a GET marked ``review``, writing nothing), whose Apply (the
    POST confirmed, with what the review showed) writes exactly that, or is refused if a unit
    changed since."""
    viewer = campaign_for_viewer(request.user, pk)
    reviewing = request.method == "GET" and request.GET.get("review") == "yes"
    if request.method == "GET" and not reviewing:
        return render(request, SETUP, setup_context(viewer, browse=request.GET))
    require_manage(viewer)
    form = EngagementForm(request.GET if reviewing else request.POST, campaign=viewer.campaign)
    here = reverse("campaign:engagement-setup", args=[pk])
    if reviewing:
        preview = _setup_preview(request, viewer, form)
        if isinstance(preview, HttpResponse):
            return preview
        record = preview.engagement
        return engagement_review(
            request, viewer, preview,
            outcome=engagement_outcome(record, engagement_sides([record])[record.pk]),
            confirm_url=here, back_url=here, marks=("review",),
        )  # fmt: skip
    if "browse_page" in request.POST:
        # Another page of units, or a search: the form comes back with every choice in it.
        return render(request, SETUP, setup_context(viewer, browsed(form)))
    review_first = viewer.campaign.apply_mode == Campaign.ApplyMode.REVIEW
    confirmed = request.POST.get("confirm") == "yes" and request.POST.get("reviewed")
    if review_first and not confirmed:
        # Refused here beside its field, as when applied at once; else to the review.
        preview = _setup_preview(request, viewer, form)
        if isinstance(preview, HttpResponse):
            return preview
        return to_engagement_review(request, here, preview, review="yes")

    def run(data):
        record = engagement_run(
            **_setup_arguments(viewer, form), request_key=data["request_key"],
            actor=request.user, reviewed=request.POST.get("reviewed") if review_first else None,
        )  # fmt: skip
        outcome = engagement_outcome(record, engagement_sides([record])[record.pk])
        title = capfirst(record.name)
        message = f"{title}: {outcome}."
        return reverse("campaign:engagement", args=[pk, record.pk]), message

    return form_action(
        request, form, run, page=SETUP, partial="engagement-form",
        context=lambda: setup_context(viewer, form),
    )  # fmt: skip
