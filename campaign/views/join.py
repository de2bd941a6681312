"""Joining a campaign by an invitation's link: the page the GM's link opens.

The GM invites by a name and sends the invitation's link to the player (a message, a chat, a
note at the table). Whoever opens it sees the campaign, the GM and the part they are asked to
take; logged in, they join with one button; with no account, they make one there and are in,
logged in. The link is the invitation: used or withdrawn, it leads nowhere.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from campaign.forms import NewAccountForm, add_service_errors
from campaign.models import Invitation, Membership, role_phrase
from campaign.selectors.access import with_holdings
from campaign.services import account_join, invitation_join
from campaign.services.accounts import email_normal
from campaign.services.members import join_refusal
from config.site import site_address

LOGIN_BACKEND = "django.contrib.auth.backends.ModelBackend"
"""The backend a new account is logged in with: its password was just set, not checked."""


@require_http_methods(["GET", "POST"])
def join_view(request: HttpRequest, link_key: str) -> HttpResponse:
    invitation = with_holdings(
        Invitation.objects.filter(link_key=link_key).select_related("campaign__gm")
    ).first()
    if invitation is None:
        return invitation_gone(request)
    if request.user.is_authenticated:
        return _join_logged_in(request, invitation)
    return _join_new_account(request, invitation)


def _join_logged_in(request: HttpRequest, invitation: Invitation) -> HttpResponse:
    """One button; the GM or a member is told why not before pressing anything."""
    refusal = join_refusal(invitation.campaign, request.user)
    if request.method == "POST" and not refusal:
        try:
            membership = invitation_join(link_key=invitation.link_key, user=request.user)
        except ObjectDoesNotExist:
            return invitation_gone(request)  # used or withdrawn while the page was open
        except ValidationError as error:
            refusal = " ".join(error.messages)
        else:
            return _welcome(request, membership)
    return _page(request, invitation, refusal=refusal)


def _join_new_account(request: HttpRequest, invitation: Invitation) -> HttpResponse:
    """The account form, the name the invitation was sent to filled in."""
    if request.method == "GET":
        named = "email" if "@" in invitation.invitee else "username"
        return _page(request, invitation, form=NewAccountForm(initial={named: invitation.invitee}))
    form = NewAccountForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            user, membership = account_join(
                link_key=invitation.link_key,
                username=data["username"],
                password=data["password"],
                email=data["email"],
                site=site_address(request),
            )
        except ObjectDoesNotExist:
            return invitation_gone(request)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            login(request, user, backend=LOGIN_BACKEND)
            welcome = _welcome(request, membership)
            if data["email"]:
                messages.info(
                    request,
                    f"A link to confirm {email_normal(data['email'])} was mailed to it: your "
                    "notices go there once you open it.",
                )
            return welcome
    return _page(request, invitation, form=form)


def _page(
    request: HttpRequest,
    invitation: Invitation,
    *,
    form: NewAccountForm | None = None,
    refusal: str = "",
) -> HttpResponse:
    context = {"invitation": invitation, "form": form, "refusal": refusal}
    status = 400 if request.method == "POST" else 200  # a POST drawn again was refused
    return TemplateResponse(request, "campaign/join.html", context, status=status)


def invitation_gone(request: HttpRequest) -> HttpResponse:
    """An invitation not waiting (used, or withdrawn while its page was open): a page that says
    so and what to do (ask the GM), not a bare "not found"; anyone else's reads the same."""
    return TemplateResponse(request, "campaign/join_gone.html", status=404)


def _welcome(request: HttpRequest, membership: Membership) -> HttpResponse:
    campaign = membership.campaign
    messages.success(request, f"You are in {campaign.name} as {role_phrase(membership.role)}.")
    return redirect(reverse("campaign:dashboard", args=[campaign.pk]))
