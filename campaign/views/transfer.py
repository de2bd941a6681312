"""A campaign in and out of the site: its full export, an import into a new campaign, a force's
roster as CSV.

The export holds every force's full roster, so only the GM and co-GMs download it. An import
makes a new campaign run by whoever imports it, whatever GM the file names; everyone else it
names is invited, and joins only by accepting (`campaign_import`), so nobody puts others into
a campaign they never joined. Keeping the file's GM is for whoever runs the site:
``manage.py campaign_import``.
"""

from __future__ import annotations

import csv

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods

from battles.forms import focus_first_error
from campaign.access import campaign_for_viewer, force_roster_for_viewer, require_manage
from campaign.forms import CampaignImportForm
from campaign.services import campaign_import
from campaign.services.going_in import printed_roster
from campaign.services.transfer import campaign_import_summary
from campaign.transfer.export import campaign_export, export_text
from campaign.transfer.problems import import_problems
from campaign.transfer.roster import roster_rows
from config.security import megabytes
from config.site import site_address

IMPORT = "campaign/import.html"
SHOWN_ERRORS = 50
"""Errors listed on the page; a file this broken is best mended with the first ones."""


def _attachment(content: str, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_GET
def campaign_export_view(request: HttpRequest, pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    require_manage(viewer)
    campaign = viewer.campaign
    name = slugify(campaign.name) or "campaign"
    text = export_text(campaign_export(campaign=campaign))
    return _attachment(
        text, "application/json", f"{name}-day-{campaign.day}.bridgehead-campaign.json"
    )


@login_required
@require_GET
def force_csv(request: HttpRequest, pk: int, force_pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    force = force_roster_for_viewer(viewer, force_pk)
    response = _attachment("", "text/csv; charset=utf-8", f"{slugify(force.name) or 'force'}.csv")
    # The cards a real table prints, as on each unit's page; the engine's differences beside.
    csv.writer(response).writerows(roster_rows(printed_roster(force)))
    return response


@login_required
@require_http_methods(["GET", "POST"])
def campaign_import_view(request: HttpRequest) -> HttpResponse:
    bound = request.method == "POST"
    form = CampaignImportForm(request.POST if bound else None, request.FILES if bound else None)
    # The request is held to the import's own limit before any view reads it (a larger one is
    # refused unread, config.security.RequestBodyLimitMiddleware): the page says it.
    largest = megabytes(settings.IMPORT_FILE_LIMIT)
    context = {"form": form, "problems": [], "more": 0, "largest": largest}
    if not bound or not form.is_valid():
        if bound:
            focus_first_error(form)
        return render(request, IMPORT, context, status=400 if bound else 200)
    data = form.cleaned_data["data"]
    try:
        campaign = campaign_import(
            data=data,
            gm=request.user,
            request_key=form.cleaned_data["request_key"],
            site=site_address(request),
        )
    except ValidationError as error:
        problems = import_problems(error, data)
    else:
        messages.success(request, campaign_import_summary(campaign=campaign, data=data))
        return redirect(reverse("campaign:dashboard", args=[campaign.pk]))
    context.update(problems=problems[:SHOWN_ERRORS], more=max(0, len(problems) - SHOWN_ERRORS))
    return render(request, IMPORT, context, status=400)
