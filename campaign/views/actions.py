"""The GM's actions (and a player's medics): each a POST that works with or without htmx.

Each view guards in the same order: login (302), the campaign and object lookups (404 for
outsiders), the right to act (403), then the form. A service's ``ValidationError`` lands next to
the field it names; a success goes back to the page with a message.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaign.access import campaign_for_viewer, force_for_viewer, require_manage, unit_for_viewer
from campaign.forms import (
    AdvanceForm,
    CampaignForm,
    ForceForm,
    MedicalForm,
    MemberForm,
    QuickResolveForm,
    SettingsForm,
    TrainForm,
    UnitAddForm,
    UnitEditForm,
    add_service_errors,
)
from campaign.services import (
    calendar_advance,
    campaign_create,
    campaign_update,
    force_create,
    medical_apply,
    membership_set,
    quick_resolve_run,
    unit_create,
    unit_edit,
    unit_train,
)
from campaign.views._common import action_done, form_invalid
from campaign.views.pages import (
    campaign_list_context,
    dashboard_context,
    force_context,
    unit_context,
)

DASHBOARD = "campaign/dashboard.html"
FORCE = "campaign/force.html"
UNIT = "campaign/unit.html"


@login_required
@require_POST
def calendar_advance_view(request: HttpRequest, pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    require_manage(viewer)
    form = AdvanceForm(request.POST)
    if form.is_valid():
        try:
            calendar_advance(
                campaign=viewer.campaign,
                days=form.cleaned_data["days"],
                reason=form.cleaned_data["reason"],
                actor=request.user,
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            viewer.campaign.refresh_from_db(fields=["day"])
            url = reverse("campaign:dashboard", args=[pk])
            return action_done(request, url, f"It is now day {viewer.campaign.day}.")
    context = dashboard_context(viewer, advance_form=form)
    return form_invalid(request, DASHBOARD, "advance-form", context)


@login_required
@require_POST
def quick_resolve_view(request: HttpRequest, pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    require_manage(viewer)
    form = QuickResolveForm(request.POST, campaign=viewer.campaign)
    if form.is_valid():
        data = form.cleaned_data
        attacker_stance, defender_stance = form.stances()
        try:
            record = quick_resolve_run(
                campaign=viewer.campaign,
                attacker=data["attacker"],
                defender=data["defender"],
                attacker_stance=attacker_stance,
                defender_stance=defender_stance,
                round_limit=data["round_limit"],
                seed=data["seed"],
                reason=data["reason"],
                actor=request.user,
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            winner = record.get_winner_display().lower()
            message = f"Quick resolve fought over {record.rounds} rounds; winner: {winner}."
            return action_done(request, reverse("campaign:dashboard", args=[pk]), message)
    context = dashboard_context(viewer, quick_form=form)
    return form_invalid(request, DASHBOARD, "quick-form", context)


@login_required
@require_POST
def unit_add_view(request: HttpRequest, pk: int, force_pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    force = force_for_viewer(viewer, force_pk)
    require_manage(viewer)
    form = UnitAddForm(request.POST, campaign=viewer.campaign)
    if form.is_valid():
        data = form.cleaned_data
        try:
            unit = unit_create(
                force=force,
                unit_type=data["unit_type"],
                name=data["name"],
                quality=data["quality"],
                equipment=data["equipment"],
                specialties=data["specialties"],
                actor=request.user,
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            url = reverse("campaign:force", args=[pk, force.pk])
            return action_done(request, url, f"{unit.name} joins {force.name}.")
    context = force_context(viewer, force, add_form=form)
    return form_invalid(request, FORCE, "add-form", context)


@login_required
@require_POST
def medical_view(request: HttpRequest, pk: int, force_pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    force = force_for_viewer(viewer, force_pk)
    if not viewer.may_direct(force):
        raise PermissionDenied("only the force's owner or the GM directs its medics")
    form = MedicalForm(request.POST)
    if form.is_valid():
        try:
            entries = medical_apply(
                force=force, reason=form.cleaned_data["reason"], actor=request.user
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            saved = sum(entry.details.get("saved", 0) for entry in entries)
            url = reverse("campaign:force", args=[pk, force.pk])
            return action_done(request, url, f"The medics saved {saved} Casualty hits.")
    context = force_context(viewer, force, medical_form=form)
    return form_invalid(request, FORCE, "medical-form", context)


@login_required
@require_POST
def unit_edit_view(request: HttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    unit = unit_for_viewer(viewer, unit_pk)
    require_manage(viewer)
    form = UnitEditForm(request.POST, initial=UnitEditForm.initial_for(unit))
    if form.is_valid():
        changes = form.changes(unit)
        if not changes:
            form.add_error(None, "Nothing was changed.")
        else:
            try:
                unit_edit(
                    unit=unit,
                    changes=changes,
                    reason=form.cleaned_data["reason"],
                    actor=request.user,
                )
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                url = reverse("campaign:unit", args=[pk, unit.pk])
                return action_done(request, url, f"{unit.name} corrected.")
    context = unit_context(viewer, unit, edit_form=form)
    return form_invalid(request, UNIT, "edit-form", context)


@login_required
@require_POST
def unit_train_view(request: HttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    unit = unit_for_viewer(viewer, unit_pk)
    require_manage(viewer)
    form = TrainForm(request.POST)
    if form.is_valid():
        try:
            unit_train(
                unit=unit,
                trainer=form.cleaned_data["trainer"],
                reason=form.cleaned_data["reason"],
                actor=request.user,
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            url = reverse("campaign:unit", args=[pk, unit.pk])
            return action_done(request, url, f"{unit.name} has been trained.")
    context = unit_context(viewer, unit, train_form=form)
    return form_invalid(request, UNIT, "train-form", context)


@login_required
@require_POST
def campaign_create_view(request: HttpRequest) -> HttpResponse:
    """Anyone may start a campaign; whoever does is its GM."""
    form = CampaignForm(request.POST)
    if form.is_valid():
        try:
            campaign = campaign_create(
                name=form.cleaned_data["name"],
                gm=request.user,
                ruleset=form.cleaned_data["ruleset"],
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            url = reverse("campaign:dashboard", args=[campaign.pk])
            return action_done(request, url, f"{campaign.name} begins on day 1.")
    context = campaign_list_context(request, create_form=form)
    if request.htmx:
        return render(request, "campaign/list.html#create-form", context)
    return render(request, "campaign/list.html", context, status=400)


@login_required
@require_POST
def settings_view(request: HttpRequest, pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    require_manage(viewer)
    form = SettingsForm(request.POST)
    if form.is_valid():
        try:
            campaign_update(campaign=viewer.campaign, actor=request.user, **form.cleaned_data)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            url = reverse("campaign:dashboard", args=[pk])
            return action_done(request, url, "Settings saved.")
    context = dashboard_context(viewer, settings_form=form)
    return form_invalid(request, DASHBOARD, "settings-form", context)


@login_required
@require_POST
def member_set_view(request: HttpRequest, pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    require_manage(viewer)
    form = MemberForm(request.POST)
    if form.is_valid():
        user = form.cleaned_data["username"]
        try:
            membership_set(
                campaign=viewer.campaign,
                user=user,
                role=form.cleaned_data["role"],
                actor=request.user,
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            url = reverse("campaign:dashboard", args=[pk])
            return action_done(request, url, f"{user.get_username()} is in the campaign.")
    context = dashboard_context(viewer, member_form=form)
    return form_invalid(request, DASHBOARD, "member-form", context)


@login_required
@require_POST
def force_create_view(request: HttpRequest, pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    require_manage(viewer)
    form = ForceForm(request.POST)
    if form.is_valid():
        try:
            force = force_create(
                campaign=viewer.campaign,
                owner=form.cleaned_data["owner"],
                name=form.cleaned_data["name"],
                actor=request.user,
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            url = reverse("campaign:force", args=[pk, force.pk])
            return action_done(request, url, f"{force.name} is raised.")
    context = dashboard_context(viewer, force_form=form)
    return form_invalid(request, DASHBOARD, "force-form", context)
