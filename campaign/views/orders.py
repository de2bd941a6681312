"""The Orders page: the Orders given and under way; the GM, or a player for their own units
with their own characters, gives one or calls one off. Its clock is `campaign.views.clock`'s."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaign.access import Viewer, campaign_for_viewer, require_manage
from campaign.keys import key_named
from campaign.models import Campaign, Leader, Order
from campaign.pages.attention import units_needing_attention
from campaign.pages.left_out import still_in_battle
from campaign.rules.orders import OrderKind, clock_text, outside_specialties_text
from campaign.rules.state import ordered_specialties
from campaign.selectors.roster import campaign_now, engaged_battles
from campaign.services.going_in import deployment_order, led_units
from campaign.services.orders import (
    UNDER_WAY,
    order_call_off,
    order_give,
    order_state_text,
    order_status,
    order_working,
    orders_under_way,
    replaced_when,
)
from campaign.table_forms.orders import CallOffForm, ClockForm, OrderForm, order_under_way_text
from campaign.views._common import base_context, form_action
from campaign.views.pages import medics_due_context
from units.bucs import Equipment
from units.words import and_words

ORDERS = "campaign/orders.html"


def orders_context(viewer: Viewer, unit: int | None = None, **forms: Any) -> dict[str, Any]:
    """The Orders page; ``unit``: the unit its Order form starts on (a unit page's "Give it an
    Order"), if offered there."""
    campaign = viewer.campaign
    initial = {} if unit is None else {"unit": unit}
    now = campaign_now(campaign)
    given = Order.objects.filter(campaign=campaign)
    if not viewer.manages:
        # An Order is its unit's business: shown to those who see the unit's force in full.
        given = given.filter(unit__force__in=viewer.forces_in_full())
    listed = list(given.select_related("unit__force", "giver")[:100])
    # Each unit's status as its roster line says it: held by a battle not yet applied, it is
    # "Awaiting review" of that battle, not ready.
    held = engaged_battles(campaign=campaign) if listed else {}
    for order in listed:
        order.unit.battle = held.get(order.unit_id)
    # An Order that replaced one of these was given after it, so it is among them too.
    replaced = replaced_when(listed)
    orders = [
        (order, OrderKind(order.kind).label, clock_text(order.given_at),
         order_state_text(order, now, replaced.get(order.pk)),
         _call_off_form(campaign, order) if viewer.calls_off(order)
         and order_status(order, now) == UNDER_WAY else None)
        for order in listed
    ]  # fmt: skip
    context = base_context(
        viewer, now=clock_text(now), orders=orders, call_off_form=forms.get("call_off_form")
    )
    if viewer.manages:
        context["order_form"] = forms.get("order_form") or OrderForm(
            campaign=campaign, initial=initial
        )
        context["clock_form"] = forms.get("clock_form") or ClockForm()
        # Beside the clock, what moving it may kill: each unit whose Casualty hits await the
        # medics, and when they die, as the dashboard's "Needs doing" says it.
        every_force = set(campaign.forces.values_list("pk", flat=True))
        _, medics = medics_due_context(campaign, units_needing_attention(campaign, every_force))
        context.update(medics)
        context["no_givers"] = not campaign.characters.filter(alive=True).exists()
        if context["no_givers"]:
            context["named_leaders"] = _named_leaders(campaign)
    elif _gives_as_player(viewer):
        context["order_form"] = forms.get("order_form") or OrderForm(
            campaign=campaign, player=viewer.user, initial=initial
        )
        context["no_givers"] = not campaign.characters.filter(
            alive=True, player=viewer.user
        ).exists()
    return context


def _gives_as_player(viewer: Viewer) -> bool:
    """A player with a force of their own, whose units they give Orders."""
    return not viewer.manages and any(
        viewer.gives_orders_to(force) for force in viewer.campaign.forces.all()
    )


@login_required
@require_GET
def orders_page(request: HttpRequest, pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    return render(request, ORDERS, orders_context(viewer, key_named(request.GET.get("unit"))))


@login_required
@require_POST
def order_give_view(request: HttpRequest, pk: int) -> HttpResponse:
    viewer = campaign_for_viewer(request.user, pk)
    if not _gives_as_player(viewer):
        require_manage(viewer)
    player = None if viewer.manages else request.user
    form = OrderForm(request.POST, campaign=viewer.campaign, player=player)

    def give(data):
        unit = data["unit"]
        replacing = orders_under_way(viewer.campaign, [unit]).get(unit.pk)
        order = order_give(
            giver=data["giver"], unit=data["unit"], kind=data["kind"],
            listed_hours=data["listed_hours"], note=data["note"], actor=request.user,
        )  # fmt: skip
        message = (
            f"{order.giver.name} ordered {order.unit.name} to {OrderKind(order.kind).label}: "
            f"{order.hours} h ({order_working(order)}), done at {clock_text(order.finishes_at)}"
        )
        if replacing is not None:
            message += f"; its {order_under_way_text(replacing)}, is replaced"
        message += "."
        # Given while a battle not yet applied holds the unit, the Order is for after it.
        battle = engaged_battles(campaign=viewer.campaign).get(unit.pk)
        if battle is not None:
            message += f" {still_in_battle(unit.name, battle.name)}: the Order is for what follows."
        # The GM or player learns here, not at the battle, that the unit is pressed into it.
        outside = outside_specialties_text(
            order.kind, Equipment(order.unit.equipment), ordered_specialties(order.unit.specialties)
        )
        if outside:
            message += f" {outside}"
        # And that nobody is at its head to repeat it, where the unit performs it as Raw.
        unit = order.unit
        going = deployment_order(unit, None, {unit.pk: order}, led=unit.pk in led_units([unit]))
        if going.order is None:
            message += f" {going.notes[-1]}"
        return reverse("campaign:orders", args=[pk]), message

    return form_action(
        request, form, give, page=ORDERS, partial="order-form",
        context=lambda: orders_context(viewer, order_form=form),
    )  # fmt: skip


def _named_leaders(campaign: Campaign) -> str:
    """Leaders named on a unit's page alone, who are no characters: said where the Orders page
    says the campaign has none, or the Characters page, which lists them, seems to contradict
    it ("Sgt. Vance leads a unit by name only, as no character")."""
    names = list(
        Leader.objects.filter(unit__force__campaign=campaign, character__isnull=True, alive=True)
        .order_by("name")
        .values_list("name", flat=True)
    )
    if not names:
        return ""
    leads = "leads a unit" if len(names) == 1 else "lead units"
    return f"{and_words(names)} {leads} by name only, as no character"


def _call_off_form(campaign: Campaign, order: Order) -> CallOffForm:
    return CallOffForm(
        campaign=campaign, initial={"order": order.pk}, auto_id=f"id_call_off_{order.pk}_%s"
    )


@login_required
@require_http_methods(["GET", "POST"])
def order_call_off_view(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: the Orders page asking to confirm calling off one Order under way, as deleting a
    campaign asks first. POST: the GM calls off an Order under way: it makes no sense any more
    (a player, one their own character gave; `services.orders.order_call_off` decides)."""
    viewer = campaign_for_viewer(request.user, pk)
    if not _gives_as_player(viewer):
        require_manage(viewer)
    if request.method == "GET":
        return _call_off_confirm(request, viewer)
    form = CallOffForm(request.POST, campaign=viewer.campaign)

    def call_off(data):
        order = order_call_off(order=data["order"], actor=request.user)
        message = (
            f"The Order to {OrderKind(order.kind).label} that {order.giver.name} gave "
            f"{order.unit.name} is called off at {clock_text(order.called_off_at)}."
        )
        return reverse("campaign:orders", args=[pk]), message

    return form_action(
        request, form, call_off, page=ORDERS, partial="orders-list",
        context=lambda: orders_context(viewer, call_off_form=form),
    )  # fmt: skip


def _call_off_confirm(request: HttpRequest, viewer: Viewer) -> HttpResponse:
    """The Orders page with the question above its list; for an Order the viewer may not call
    off, or no longer under way, the page as it is."""
    campaign = viewer.campaign
    asked = CallOffForm(request.GET, campaign=campaign)
    order = asked.cleaned_data["order"] if asked.is_valid() else None
    if order is None or not (
        viewer.calls_off(order) and order_status(order, campaign_now(campaign)) == UNDER_WAY
    ):
        return redirect("campaign:orders", campaign.pk)
    confirm = {"order": order, "label": OrderKind(order.kind).label,
               "form": _call_off_form(campaign, order)}  # fmt: skip
    return render(request, ORDERS, orders_context(viewer) | {"confirm_call_off": confirm})
