"""A campaign's own actions: creating it, its settings, its timeline's story notes, deleting it."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ObjectDoesNotExist, PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from campaign.access import Viewer, campaign_for_viewer, require_manage
from campaign.forms import CampaignDeleteForm, CampaignForm, SettingsForm, StoryNoteForm
from campaign.selectors.access import GM
from campaign.services import campaign_create, campaign_update
from campaign.services.deletion import campaign_contents, campaign_delete, campaign_deletion_refusal
from campaign.services.story import story_note_add, story_note_remove
from campaign.views._common import action_done, base_context, form_action, sent_already
from campaign.views.pages import (
    DASHBOARD,
    campaign_list_context,
    dashboard_context,
    timeline_context,
)
from units.words import and_words

DELETE = "campaign/delete.html"
TIMELINE = "campaign/timeline.html"


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
