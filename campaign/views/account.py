"""A person's own account: their e-mail address, asked for and confirmed by a mailed link.

The link opens a page with one button (a GET changes nothing: mail programs open links to
look at them); confirming takes being logged in as the account that asked.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaign.forms import EmailAskForm
from campaign.models import Membership
from campaign.services.accounts import (
    CONFIRM_DAYS,
    email_ask,
    email_check,
    email_confirm,
    email_pending,
    email_remove,
)
from campaign.views._common import action_done, form_action
from config.site import site_address
from units.words import plural

ACCOUNT = "campaign/account.html"
CONFIRM = "campaign/email_confirm.html"


def account_context(request: HttpRequest, **forms: Any) -> dict[str, Any]:
    user = request.user
    return {
        "email": user.email,
        "pending": email_pending(user),
        "confirm_days": CONFIRM_DAYS,
        "ask_form": forms.get("ask_form") or EmailAskForm(),
        "notices_in": list(
            Membership.objects.filter(user=user, email_notices=True)
            .select_related("campaign")
            .order_by("campaign__name")
        ),
        # Where notices could be turned on: the campaigns whose dashboard offers them, those in
        # which the member plays a force.
        "notices_offered": list(
            Membership.objects.filter(user=user, email_notices=False, campaign__forces__owner=user)
            .select_related("campaign")
            .order_by("campaign__name")
            .distinct()
        ),
    }


@login_required
@require_GET
def account_page(request: HttpRequest) -> HttpResponse:
    return render(request, ACCOUNT, account_context(request))


@login_required
@require_POST
def email_ask_view(request: HttpRequest) -> HttpResponse:
    form = EmailAskForm(request.POST)

    def act(data: dict[str, Any]) -> tuple[str, str]:
        change = email_ask(user=request.user, address=data["address"], site=site_address(request))
        return reverse("account"), (
            f"A link to confirm {change.address} was mailed to it: open it within "
            f"{CONFIRM_DAYS} days."
        )

    return form_action(
        request,
        form,
        act,
        page=ACCOUNT,
        partial="email-form",
        context=lambda: account_context(request, ask_form=form),
    )


@login_required
@require_http_methods(["GET", "POST"])
def email_confirm_view(request: HttpRequest, key: str) -> HttpResponse:
    try:
        if request.method == "POST":
            change = email_confirm(user=request.user, key=key)
            return action_done(
                request, reverse("account"), f"{change.address} is your e-mail address now."
            )
        change = email_check(user=request.user, key=key)
    except ValidationError as error:
        context = {"refusal": " ".join(error.messages)}
        return render(request, CONFIRM, context, status=400 if request.method == "POST" else 200)
    return render(request, CONFIRM, {"change": change, "done": change.confirmed_at is not None})


@login_required
@require_POST
def email_remove_view(request: HttpRequest) -> HttpResponse:
    try:
        stopped = email_remove(user=request.user)
    except ValidationError as error:
        return action_done(request, reverse("account"), " ".join(error.messages), messages.WARNING)
    said = "Your e-mail address is removed"
    if stopped:
        said += f"; notices are off in the {plural(stopped, 'campaign')} that sent them"
    return action_done(request, reverse("account"), said + ".")


class PasswordResetView(auth_views.PasswordResetView):
    """Django's, its mail's link at the site's address (``config.site``) as every mail of the
    site: ``SITE_URL`` where it is set, not the host the request came to."""

    def form_valid(self, form):
        self.extra_email_context = {"site": site_address(self.request)}
        return super().form_valid(form)
