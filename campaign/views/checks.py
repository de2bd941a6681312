"""The Checks page: skill checks, contests and Requisition rolled at the table, and the rolls each
member may read.

Every member of the campaign reads it; the GM and co-GMs roll. The views guard in the order of
`campaign.views` (login, lookup, the right to act, the form) and do the work through the
services.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from campaign.access import FULL, Viewer, campaign_for_viewer, require_manage
from campaign.keys import key_named
from campaign.models import Campaign, TableRoll, Unit
from campaign.pages.raised import requisition_refused, roll_notice
from campaign.services.checks import contest_run, requisition_run, skill_check_run
from campaign.table_forms.check_fields import CHECK_UNITS_LIST, check_units_suggested
from campaign.table_forms.checks import ContestForm, SkillCheckForm
from campaign.table_forms.requisition import RequisitionForm, requisition_asked
from campaign.views._common import base_context, form_action

CHECKS = "campaign/checks.html"
ROLLS_SHOWN = 30


def roll_units(roll: TableRoll) -> list[int]:
    """The units a check or a contest was rolled for, by pk (a Requisition's: none)."""
    if roll.kind == TableRoll.Kind.REQUISITION:
        return []
    setup = roll.setup
    return [*setup.get("units", []), *setup.get("active", []), *setup.get("resisting", [])]


def roll_forces(roll: TableRoll, force_of: dict[int, int]) -> set[int]:
    """The forces a check, a contest or a Requisition was rolled for (``force_of``: unit pk →
    its force's pk, for the units still there)."""
    if roll.kind == TableRoll.Kind.REQUISITION:
        return {roll.setup.get("force")}
    return {force_of[pk] for pk in roll_units(roll) if pk in force_of}


ROLLS_READ = 600
"""Rolls a page of a player's or a spectator's checks reads at most, looking for those they may
see: past that many it shows the ones it found, and the earlier rolls are a page further on."""


def rolls_seen(
    viewer: Viewer, limit: int = ROLLS_SHOWN, before: int | None = None
) -> tuple[list[TableRoll], int | None]:
    """The campaign's latest rolls a viewer may read (``before``: rolled before that one):
    each one rolled for a force they see in full (a contest is both sides' to read). Read a
    quarter of `ROLLS_READ` at a time (``limit`` at least), each batch with the forces of the
    units it names only, `ROLLS_READ` at most; when that many were read without finding
    ``limit``, also the last roll read (the rolls before it are still to look through), else
    None."""
    rolls = TableRoll.objects.filter(campaign=viewer.campaign)
    if before is not None:
        rolls = rolls.filter(pk__lt=before)
    if viewer.manages:
        return list(rolls[:limit]), None
    full = viewer.forces_in_full()
    if not full:
        return [], None
    seen: list[TableRoll] = []
    read, last, size = 0, before, max(limit, ROLLS_READ // 4)
    while read < ROLLS_READ:
        batch = list((rolls if last is None else rolls.filter(pk__lt=last))[:size])
        if not batch:
            return seen, None
        named = {pk for roll in batch for pk in roll_units(roll)}
        force_of = dict(
            Unit.objects.filter(force__campaign=viewer.campaign, pk__in=named).values_list(
                "pk", "force_id"
            )
        )
        for roll in batch:
            if roll_forces(roll, force_of) & full:
                # Which of its units the reader sees in full: `rolls_shown` shows only theirs.
                roll.units_in_full = {pk for pk in roll_units(roll) if force_of.get(pk) in full}
                seen.append(roll)
                if len(seen) == limit:
                    return seen, None
        read, last = read + len(batch), batch[-1].pk
    return seen, last


def rolls_shown(viewer: Viewer, rolls: list[TableRoll]) -> bool:
    """Give each roll what the reader reads of it: ``workings``, each side's working with
    whether its dice and modifiers are shown — only for a unit whose force the reader sees in
    full (`Viewer.sight`: a contest's other side, a check's unit of another force, is named
    with its total only, as on an engagement's page) — and ``seed_shown``, only to whoever sees
    every unit of it (`Viewer.sees_every_die`: the seed rolls every die again). True when some
    roll hides something."""
    everything = viewer.others_sight == FULL
    hid = False
    for roll in rolls:
        r = roll.result
        sides = (
            [r] if r.get("modifiers") else [r["active"], r["resisting"]] if r.get("active") else []
        )
        # (A unit no longer on any roster is nobody's to read of, under summary.)
        seen = set(roll_units(roll)) if everything else roll.units_in_full
        roll.workings = [(w, int(w.get("unit", 0)) in seen) for w in sides]
        roll.seed_shown = set(roll_units(roll)) <= seen
        hid = hid or not roll.seed_shown or not all(shown for _, shown in roll.workings)
    return hid


def rolls_raising(campaign: Campaign, rolls: list[TableRoll]) -> None:
    """Give each roll ``raised``: the unit a Requisition raised, as (its pk, its name now), for
    its name to link to its page; None for any other roll, or a unit no longer on a roster."""
    raised = {
        r.pk: r.result["unit"]
        for r in rolls
        if r.kind == TableRoll.Kind.REQUISITION and r.result.get("unit")
    }
    units = Unit.objects.filter(force__campaign=campaign, pk__in=raised.values())
    names = dict(units.values_list("pk", "name")) if raised else {}
    for roll in rolls:
        unit = raised.get(roll.pk)
        roll.raised = (unit, names[unit]) if unit in names else None


def checks_context(
    viewer: Viewer, before: Any = None, again: Any = None, **forms: Any
) -> dict[str, Any]:
    """The rolls, ``ROLLS_SHOWN`` a page (``before``: the rolls before that one), and the
    GM's forms; ``again``: a refused Requisition, whose asking the Requisition form is filled
    with, so the GM may roll again or ask for less without typing it all anew."""
    campaign = viewer.campaign
    before = key_named(before or "")
    rolls, read_to = rolls_seen(viewer, ROLLS_SHOWN + 1, before)
    shown = rolls[:ROLLS_SHOWN]
    rolls_raising(campaign, shown)
    context = base_context(
        viewer,
        rolls=shown,
        rolls_veiled=rolls_shown(viewer, shown),
        earlier_rolls=rolls[ROLLS_SHOWN - 1].pk if len(rolls) > ROLLS_SHOWN else read_to,
        rolls_before=before,
    )
    if viewer.manages:
        context["skill_form"] = forms.get("skill_form") or SkillCheckForm(campaign=campaign)
        context["contest_form"] = forms.get("contest_form") or ContestForm(campaign=campaign)
        context["requisition_form"] = forms.get("requisition_form") or RequisitionForm(
            campaign=campaign, initial=_asked_again(campaign, again)
        )
        context["check_units"] = check_units_suggested(campaign)
        context["check_units_list"] = CHECK_UNITS_LIST
    return context


def _asked_again(campaign: Campaign, again: Any) -> dict[str, Any] | None:
    """What the refused Requisition ``again`` (its roll's key) asked, as the form's initial
    values; None for anything else (a roll that raised its unit, another campaign's)."""
    key = key_named(again or "")
    roll = None if key is None else TableRoll.objects.filter(pk=key, campaign=campaign).first()
    if roll is None or not requisition_refused(roll):
        return None
    return requisition_asked(roll.setup)


@login_required
@require_GET
def checks_page(request: HttpRequest, pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    context = checks_context(viewer, request.GET.get("before"), request.GET.get("again"))
    return render(request, CHECKS, context)


def _checks_action(request, pk, form_class, key, partial, act):
    viewer = campaign_for_viewer(request.user, pk)
    require_manage(viewer)
    form = form_class(request.POST, campaign=viewer.campaign)

    def done(data):
        roll = act(viewer, form, data)
        url = reverse("campaign:checks", args=[pk])
        if requisition_refused(roll):
            # Back to its form filled with what was asked (`checks_context`'s ``again``).
            url += f"?again={roll.pk}#requisition-form"
        return url, *roll_notice(roll)

    return form_action(
        request, form, done, page=CHECKS, partial=partial,
        context=lambda: checks_context(viewer, **{key: form}),
    )  # fmt: skip


@login_required
@require_POST
def skill_check_view(request: HttpRequest, pk: int) -> HttpResponse:
    def act(viewer, form, data):
        return skill_check_run(
            campaign=viewer.campaign, units=form.units(), skill=data["skill"] or None,
            dc=data["dc"], seed=data["seed"], reason=data["reason"], actor=request.user,
        )  # fmt: skip

    return _checks_action(request, pk, SkillCheckForm, "skill_form", "skill-form", act)


@login_required
@require_POST
def contest_view(request: HttpRequest, pk: int) -> HttpResponse:
    def act(viewer, form, data):
        return contest_run(
            campaign=viewer.campaign, active=form.side("active"), resisting=form.side("resisting"),
            active_skill=data["active_skill"] or None,
            resisting_skill=data["resisting_skill"] or None, seed=data["seed"],
            reason=data["reason"], actor=request.user,
        )  # fmt: skip

    return _checks_action(request, pk, ContestForm, "contest_form", "contest-form", act)


@login_required
@require_POST
def requisition_view(request: HttpRequest, pk: int) -> HttpResponse:
    def act(viewer, form, data):
        return requisition_run(
            force=data["force"], unit_type=data["unit_type"], name=data["name"],
            quality=data["quality"], equipment=data["equipment"],
            specialties=data["specialties"], character=data["character"], bonus=data["bonus"],
            seed=data["seed"], actor=request.user,
        )  # fmt: skip

    return _checks_action(request, pk, RequisitionForm, "requisition_form", "requisition-form",
                          act)  # fmt: skip
