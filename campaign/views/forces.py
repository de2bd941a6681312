"""The GM's actions on forces and their units (and a player's medics): add, edit, move, train,
remove and undo, combat zones and leaders."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from campaign.access import campaign_for_viewer, force_for_viewer, require_manage, unit_for_viewer
from campaign.forms import (
    ButtonForm,
    CombatZoneForm,
    ForceEditForm,
    ForceForm,
    LeaderAttachForm,
    LeaderDetachForm,
    MedicalForm,
    UndoForm,
    UnitAddForm,
    UnitEditForm,
    UnitMoveForm,
    add_service_errors,
)
from campaign.models import HistoryEntry
from campaign.pages.changes import changes
from campaign.pages.done_words import trained_text
from campaign.pages.history_words import history_sentence
from campaign.pages.medics import left_unsaved_text, medics_today
from campaign.pages.raised import unit_joins_text
from campaign.pages.reverts import undo_blocked, undo_blocked_lede, undo_text
from campaign.pages.roster import roster_lines
from campaign.rules.history import undone_name
from campaign.selectors.reviews import undo_preview
from campaign.services import (
    entry_undo,
    force_create,
    force_edit,
    leader_attach,
    leader_detach,
    medical_apply,
    unit_combat_zone_set,
    unit_edit,
    unit_move,
    unit_remove,
    unit_train,
    units_raise,
)
from campaign.services.recovery import medics_text
from campaign.table_forms.characters import UnitTrainForm
from campaign.views._common import base_context, form_action, return_path, said_on_top
from campaign.views.pages import DASHBOARD, dashboard_context, force_context, unit_context
from units.words import and_words, possessive

FORCE = "campaign/force.html"
UNIT = "campaign/unit.html"


@login_required
@require_POST
def unit_add_view(request: HttpRequest, pk: int, force_pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    force = force_for_viewer(viewer, force_pk)
    require_manage(viewer)
    form = UnitAddForm(request.POST, campaign=viewer.campaign)

    def add(data):
        units = units_raise(
            force=force,
            unit_type=data["unit_type"],
            name=data["name"],
            count=data["count"],
            quality=data["quality"],
            equipment=data["equipment"],
            specialties=data["specialties"],
            actor=request.user,
        )
        return reverse("campaign:force", args=[pk, force.pk]), unit_joins_text(units, force)

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
    medics = medics_today(force, roster_lines(force))
    form = MedicalForm(request.POST, wounded=medics.wounded, shaken=medics.shaken)

    def send_medics(data):
        # The default triage unless the unit-by-unit button was pressed.
        allocation = morale = None
        if request.POST.get("how") == "allocate":
            allocation, morale = form.allocation()
        entries = medical_apply(
            force=force,
            allocation=allocation,
            morale=morale,
            reason=data["reason"],
            actor=request.user,
        )
        url = reverse("campaign:force", args=[pk, force.pk])
        if not entries:
            return url, "The medics found no hits they could heal today."
        said = [
            (f"{medics_text(entry.details['saved'], entry.details['morale_saved'])} of "
             f"{entry.unit.name}", bool(entry.details["saved"] and entry.details["morale_saved"]))
            for entry in entries
        ]  # fmt: skip
        # A unit's part that holds an "and" of its own (both kinds of hit) sets the units
        # apart with semicolons, as "Left unsaved" does, so no sentence says "and" twice.
        parts = [part for part, _ in said]
        both = len(parts) > 1 and any(two for _, two in said)
        saved = "; ".join(parts) if both else and_words(parts)
        # What they could not save, and when it dies, read from the units as they are now.
        left = left_unsaved_text(roster_lines(force))
        return url, f"The medics saved {saved}. {left}".strip()

    return form_action(
        request,
        form,
        send_medics,
        page=FORCE,
        partial="medical-form",
        # The refused form is swapped in alone: the roster beside it goes with it, drawn as
        # the units are now (the clock may have moved on since the page was drawn).
        context=lambda: {
            **force_context(viewer, force, medical_form=form),
            "roster_again": bool(request.htmx),
        },
    )


@login_required
@require_POST
def unit_edit_view(request: HttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    unit = unit_for_viewer(viewer, unit_pk)
    require_manage(viewer)
    form = UnitEditForm(request.POST, unit=unit)

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
@require_http_methods(["GET", "POST"])
def unit_undo_view(request: HttpRequest, pk: int, unit_pk: int, entry_pk: int) -> HttpResponse:
    """GET: what the GM's Undo of the unit's latest change will give back, with the reason to
    give, or why it cannot be undone. POST with a reason: undo it, back to the unit's page."""
    viewer = campaign_for_viewer(request.user, pk)
    unit = unit_for_viewer(viewer, unit_pk)
    require_manage(viewer)
    entry = HistoryEntry.objects.filter(pk=entry_pk, unit=unit).select_related("unit").first()
    if entry is None:
        raise Http404("no such entry in the unit's history")
    entry.unit = unit
    url = reverse("campaign:unit", args=[pk, unit.pk])
    back_to = return_path(request, pk)  # the revert its change refused, when it came from one
    this = undone_name(entry.undo_kind, entry.day)
    named = history_sentence(this, "")  # "The GM's correction of day 3"
    if HistoryEntry.objects.filter(reverts=entry).exists():
        # Sent twice (a double click, a page drawn before): the first Undo is the answer.
        messages.info(request, f"{named} is undone already; nothing changed.")
        return redirect(back_to or url)
    form = UndoForm(request.POST if request.method == "POST" else None)
    context = {"unit": unit, "force": unit.force, "back_url": url}
    # What the Undo itself would refuse (`pages.reverts.undo_blocked`), said before any button.
    refusal = undo_blocked(viewer.campaign, entry)
    if not refusal and request.method == "POST" and form.is_valid():
        try:
            done = entry_undo(entry=entry, reason=form.cleaned_data["reason"], actor=request.user)
        except ValidationError as error:
            # The unit changed between the page and the press: said as the page says it now.
            refusal = undo_blocked(viewer.campaign, entry)
            add_service_errors(form, error)
        else:
            said = "is undone" if done is not None else "is undone already; nothing changed"
            messages.success(request, f"{named} {said}.")
            return redirect(back_to or url)
    if refusal:
        # Nothing to confirm: the Undo would refuse it.
        title = f"{named} cannot be undone"
        return render(
            request,
            "campaign/review.html",
            base_context(
                viewer, title=title, refusal=refusal, changes=[],
                lede=undo_blocked_lede(entry),
                back_label=f"Back to {unit.name}", **context,
            ),
            status=200 if request.method == "GET" else 400,
        )  # fmt: skip
    return render(
        request,
        "campaign/review.html",
        base_context(
            viewer, title=f"Undo {this}?", form=form,
            changes=changes(undo_preview(entry=entry)),
            lede=f"Undoing it gives {unit.name} back every field it changed, as it was "
            "before, in a new history entry; the entry undone stays, struck through.",
            note=f"{unit.name} goes {back}." if (back := undo_text(entry)) else "",
            confirm_url=reverse("campaign:unit-undo", args=[pk, unit.pk, entry.pk]),
            confirm_label=f"Undo {this}", hidden=[("next", back_to)] if back_to else [],
            **context,
        ),
        status=200 if request.method == "GET" else 400,
    )  # fmt: skip


@login_required
@require_POST
def unit_move_view(request: HttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    """The GM or a co-GM moves a unit to another force; back to its page, saying so."""
    viewer = campaign_for_viewer(request.user, pk)
    unit = unit_for_viewer(viewer, unit_pk)
    require_manage(viewer)
    form = UnitMoveForm(request.POST, unit=unit)

    def move(data):
        unit_move(unit=unit, force=data["force"], reason=data["reason"], actor=request.user)
        said = f"{unit.name} is in {data['force'].name} now."
        return reverse("campaign:unit", args=[pk, unit.pk]), said

    return form_action(
        request,
        form,
        move,
        page=UNIT,
        partial="move-form",
        context=lambda: unit_context(viewer, unit, move_form=form),
    )


@login_required
@require_POST
def unit_remove_view(request: HttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    """Strike off the roster a unit raised by mistake; back to its force, saying so."""
    viewer = campaign_for_viewer(request.user, pk)
    unit = unit_for_viewer(viewer, unit_pk)
    require_manage(viewer)
    form = ButtonForm(request.POST)

    def strike(data):
        try:
            name = unit_remove(unit=unit, actor=request.user)
        except ValidationError as refusal:
            # Sent from a page drawn before the unit's first part in the story, which its page
            # no longer offers.
            return said_on_top(reverse("campaign:unit", args=[pk, unit.pk]), refusal)
        url = reverse("campaign:force", args=[pk, unit.force_id])
        return (
            url,
            f"{name} is struck off {possessive(unit.force.name)} roster, as raised by mistake.",
        )

    return form_action(
        request,
        form,
        strike,
        page=UNIT,
        partial="remove-form",
        context=lambda: unit_context(viewer, unit, remove_form=form),
    )


@login_required
@require_POST
def unit_train_view(request: HttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    unit = unit_for_viewer(viewer, unit_pk)
    require_manage(viewer)
    form = UnitTrainForm(request.POST, campaign=viewer.campaign)

    def train(data):
        entry = unit_train(
            unit=unit, character=data["character"], reason=data["reason"], actor=request.user
        )
        return (
            reverse("campaign:unit", args=[pk, unit.pk]),
            trained_text(data["character"].name, unit.name, entry),
        )

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
def force_edit_view(request: HttpRequest, pk: int, force_pk: int) -> HttpResponse:
    """The GM or a co-GM renames a force or gives it to another player."""
    viewer = campaign_for_viewer(request.user, pk)
    force = force_for_viewer(viewer, force_pk)
    require_manage(viewer)
    form = ForceEditForm(request.POST, force=force)
    old_name, old_owner = force.name, force.owner_id

    def edit(data):
        edited = force_edit(force=force, **form.changes(), actor=request.user)
        said = []
        if edited.name != old_name:
            said.append(f"{old_name} is called {edited.name} now.")
        if edited.owner_id != old_owner:
            said.append(f"{edited.name} is {possessive(edited.owner.get_username())} force now.")
        return reverse("campaign:force", args=[pk, force.pk]), " ".join(said) or "Nothing changed."

    return form_action(
        request,
        form,
        edit,
        page=FORCE,
        partial="force-edit-form",
        context=lambda: force_context(viewer, force, force_edit_form=form),
    )


@login_required
@require_POST
def force_create_view(request: HttpRequest, pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    require_manage(viewer)
    form = ForceForm(request.POST, campaign=viewer.campaign)

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


@login_required
@require_POST
def unit_combat_zone_view(request: HttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    """Withdraw a unit from the combat zone, or send it back in (its owner or the GM)."""
    viewer = campaign_for_viewer(request.user, pk)
    unit = unit_for_viewer(viewer, unit_pk)
    if not viewer.may_direct(unit.force):
        raise PermissionDenied("only the force's owner or the GM moves its units")
    form = CombatZoneForm(request.POST)

    def move(data):
        going = data["in_combat_zone"]
        entry = unit_combat_zone_set(
            unit=unit, in_combat_zone=going, reason=data["reason"], actor=request.user
        )
        url = reverse("campaign:unit", args=[pk, unit.pk])
        where = "in the combat zone" if going else "out of the combat zone"
        if entry is None:
            return url, f"{unit.name} is {where} already."
        if going:
            return url, f"{unit.name} is sent into the combat zone."
        return url, f"{unit.name} is withdrawn to the rear: R&R now heals its last Morale hit."

    return form_action(
        request,
        form,
        move,
        page=UNIT,
        partial="zone-form",
        context=lambda: unit_context(viewer, unit, zone_form=form),
    )


@login_required
@require_POST
def leader_attach_view(request: HttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    unit = unit_for_viewer(viewer, unit_pk)
    require_manage(viewer)
    form = LeaderAttachForm(request.POST)

    def attach(data):
        leader = leader_attach(
            unit=unit,
            name=data["name"],
            hit_points=data["hit_points"],
            reason=data["reason"],
            actor=request.user,
        )
        url = reverse("campaign:unit", args=[pk, unit.pk])
        return url, f"{leader.name} takes command of {unit.name}."

    return form_action(
        request,
        form,
        attach,
        page=UNIT,
        partial="leader-form",
        context=lambda: unit_context(viewer, unit, leader_form=form),
    )


@login_required
@require_POST
def leader_detach_view(request: HttpRequest, pk: int, unit_pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    unit = unit_for_viewer(viewer, unit_pk)
    require_manage(viewer)
    form = LeaderDetachForm(request.POST)

    def detach(data):
        leader = getattr(unit, "leader", None)
        leader_detach(unit=unit, reason=data["reason"], actor=request.user)
        url = reverse("campaign:unit", args=[pk, unit.pk])
        return url, f"{leader.name} leaves {unit.name}."

    return form_action(
        request,
        form,
        detach,
        page=UNIT,
        partial="detach-form",
        context=lambda: unit_context(viewer, unit, detach_form=form),
    )
