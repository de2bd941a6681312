"""What every campaign view shares: the htmx answer to a finished action, and page context."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django_htmx.http import HttpResponseClientRedirect

from campaign.access import Viewer


def action_done(request: HttpRequest, url: str, message: str) -> HttpResponse:
    """After a successful POST: back to the page, which now shows the change.

    Without JavaScript that is a plain redirect (post/redirect/get); under htmx the page is
    loaded again whole, because one action changes several parts of it (roster, history,
    dashboard), and redrawing them all is simpler and safer than guessing which.
    """
    messages.success(request, message)
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def form_invalid(
    request: HttpRequest, template: str, partial: str, context: dict[str, Any]
) -> HttpResponse:
    """A form with errors: under htmx just the form (swapped in place), else the whole page.

    htmx swaps only 2xx answers by default, so the partial goes back as 200; the full page
    says 400, which is what it is.
    """
    if request.htmx:
        return render(request, f"{template}#{partial}", context)
    return render(request, template, context, status=400)


def base_context(viewer: Viewer, **extra: Any) -> dict[str, Any]:
    return {"viewer": viewer, "campaign": viewer.campaign, **extra}
