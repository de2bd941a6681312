"""A campaign's members: invitations and their answers, each member's role and notices,
removing a member or leaving, and handing the campaign over to another GM."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ObjectDoesNotExist, PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from campaign.access import Viewer, campaign_for_viewer, require_manage
from campaign.forms import (
    ButtonForm,
    HandOverForm,
    InvitationForm,
    MemberForm,
    MemberRemoveForm,
    NoticesForm,
)
from campaign.models import role_phrase
from campaign.selectors.access import GM, invitee_key
from campaign.services import (
    campaign_hand_over,
    invitation_accept,
    invitation_decline,
    invitation_send,
    invitation_withdraw,
    membership_remove,
    membership_set,
)
from campaign.services.members import INVITED, InvitationAnswered
from campaign.services.notices import notices_set
from campaign.views._common import action_done, base_context, form_action, said_on_top, sent_already
from campaign.views.join import invitation_gone
from campaign.views.pages import DASHBOARD, dashboard_context
from config.site import site_address
from units.words import and_words

HAND_OVER = "campaign/hand_over.html"


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
def invitation_send_view(request: HttpRequest, pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    require_manage(viewer)
    form = InvitationForm(request.POST)

    def invite(data):
        # Refused beside the name, not reported as done: nothing is sent.
        if refusal := _in_campaign_already(viewer, data["invitee"]):
            raise ValidationError({"invitee": refusal})
        unmailed = invitation_send(
            campaign=viewer.campaign,
            invitee=data["invitee"],
            role=data["role"],
            actor=request.user,
            site=site_address(request),
        )
        return reverse("campaign:dashboard", args=[pk]), f"{INVITED} {unmailed}".strip()

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
