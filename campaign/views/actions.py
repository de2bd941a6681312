"""The GM's actions (and a player's medics): each a POST that works with or without htmx.

Each view guards in the same order: login (302), the campaign and object lookups (404 for
outsiders), the right to act (403), then the form (``form_action``): a service's
``ValidationError`` lands next to the field it names; a success goes back to the page with a
message.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
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
from campaign.views._common import form_action
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

    def advance(data):
        calendar_advance(
            campaign=viewer.campaign, days=data["days"], reason=data["reason"], actor=request.user
        )
        viewer.campaign.refresh_from_db(fields=["day"])
        return reverse("campaign:dashboard", args=[pk]), f"It is now day {viewer.campaign.day}."

    return form_action(
        request,
        form,
        advance,
        page=DASHBOARD,
        partial="advance-form",
        context=lambda: dashboard_context(viewer, advance_form=form),
    )


@login_required
@require_POST
def quick_resolve_view(request: HttpRequest, pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    require_manage(viewer)
    form = QuickResolveForm(request.POST, campaign=viewer.campaign)

    def resolve(data):
        attacker_stance, defender_stance = form.stances()
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
        winner = record.get_winner_display().lower()
        message = f"Quick resolve fought over {record.rounds} rounds; winner: {winner}."
        return reverse("campaign:dashboard", args=[pk]), message

    return form_action(
        request,
        form,
        resolve,
        page=DASHBOARD,
        partial="quick-form",
        context=lambda: dashboard_context(viewer, quick_form=form),
    )


@login_required
@require_POST
def unit_add_view(request: HttpRequest, pk: int, force_pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    force = force_for_viewer(viewer, force_pk)
    require_manage(viewer)
    form = UnitAddForm(request.POST, campaign=viewer.campaign)

    def add(data):
        unit = unit_create(
            force=force,
            unit_type=data["unit_type"],
            name=data["name"],
            quality=data["quality"],
            equipment=data["equipment"],
            specialties=data["specialties"],
            actor=request.user,
        )
        return reverse("campaign:force", args=[pk, force.pk]), f"{unit.name} joins {force.name}."

    return form_action(
        request,
        form,
        add,
        page=FORCE,
        partial="add-form",
        context=lambda: force_context(viewer, force, add_form=form),
    )


@login_required
@require_POST
def medical_view(request: HttpRequest, pk: int, force_pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    force = force_for_viewer(viewer, force_pk)
    if not viewer.may_direct(force):
        raise PermissionDenied("only the force's owner or the GM directs its medics")
    form = MedicalForm(request.POST)

    def send_medics(data):
        entries = medical_apply(force=force, reason=data["reason"], actor=request.user)
        saved = sum(entry.details.get("saved", 0) for entry in entries)
        url = reverse("campaign:force", args=[pk, force.pk])
        return url, f"The medics saved {saved} Casualty hits."

    return form_action(
        request,
        form,
        send_medics,
        page=FORCE,
        partial="medical-form",
        context=lambda: force_context(viewer, force, medical_form=form),
    )


@login_required
@require_POST
def unit_edit_view(request: HttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    unit = unit_for_viewer(viewer, unit_pk)
    require_manage(viewer)
    form = UnitEditForm(request.POST, initial=UnitEditForm.initial_for(unit))

    def correct(data):
        changes = form.changes(unit)
        if not changes:
            raise ValidationError("Nothing was changed.")
        unit_edit(unit=unit, changes=changes, reason=data["reason"], actor=request.user)
        return reverse("campaign:unit", args=[pk, unit.pk]), f"{unit.name} corrected."

    return form_action(
        request,
        form,
        correct,
        page=UNIT,
        partial="edit-form",
        context=lambda: unit_context(viewer, unit, edit_form=form),
    )


@login_required
@require_POST
def unit_train_view(request: HttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    unit = unit_for_viewer(viewer, unit_pk)
    require_manage(viewer)
    form = TrainForm(request.POST)

    def train(data):
        unit_train(unit=unit, trainer=data["trainer"], reason=data["reason"], actor=request.user)
        return reverse("campaign:unit", args=[pk, unit.pk]), f"{unit.name} has been trained."

    return form_action(
        request,
        form,
        train,
        page=UNIT,
        partial="train-form",
        context=lambda: unit_context(viewer, unit, train_form=form),
    )


@login_required
@require_POST
def campaign_create_view(request: HttpRequest) -> HttpResponse:
    """Anyone may start a campaign; whoever does is its GM."""
    form = CampaignForm(request.POST)

    def begin(data):
        campaign = campaign_create(name=data["name"], gm=request.user, ruleset=data["ruleset"])
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
@require_POST
def settings_view(request: HttpRequest, pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    require_manage(viewer)
    form = SettingsForm(request.POST)

    def save(data):
        campaign_update(campaign=viewer.campaign, actor=request.user, **data)
        return reverse("campaign:dashboard", args=[pk]), "Settings saved."

    return form_action(
        request,
        form,
        save,
        page=DASHBOARD,
        partial="settings-form",
        context=lambda: dashboard_context(viewer, settings_form=form),
    )


@login_required
@require_POST
def member_set_view(request: HttpRequest, pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    require_manage(viewer)
    form = MemberForm(request.POST)

    def enrol(data):
        user = data["username"]
        membership_set(campaign=viewer.campaign, user=user, role=data["role"], actor=request.user)
        url = reverse("campaign:dashboard", args=[pk])
        return url, f"{user.get_username()} is in the campaign."

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
def force_create_view(request: HttpRequest, pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    require_manage(viewer)
    form = ForceForm(request.POST)

    def raise_force(data):
        force = force_create(
            campaign=viewer.campaign, owner=data["owner"], name=data["name"], actor=request.user
        )
        return reverse("campaign:force", args=[pk, force.pk]), f"{force.name} is raised."

    return form_action(
        request,
        form,
        raise_force,
        page=DASHBOARD,
        partial="force-form",
        context=lambda: dashboard_context(viewer, force_form=form),
    )
