"""The forms of Orders and the clock: an Order given, one called off, the clock moved on."""

from __future__ import annotations

from typing import Any

from django import forms

from battles.forms import WholeNumberField
from campaign.forms import PageForm
from campaign.models import Campaign, Order, Unit
from campaign.pages.names import unit_label
from campaign.rules.orders import HOURS_PER_DAY, OrderKind, clock_text
from campaign.selectors import roster
from campaign.services.orders import LISTED_HOURS_MAX, orders_under_way
from campaign.services.recovery import MAX_DAYS
from campaign.table_forms.campaign_form import CampaignForm, LeavesOut
from campaign.table_forms.character_fields import CharacterField, character_field
from campaign.table_forms.listed_units import UnitField
from campaign.table_forms.named_units import UnitNamed, page_lists_every_unit
from campaign.table_forms.offers import ORDER, Offer

ORDER_CHOICES = [
    (k.value, f"{k.label} ({k.row.listed_hours} h listed"
     + (f"; needs {k.row.specialty.label})" if k.row.specialty else ")"))
    for k in OrderKind
]  # fmt: skip


def order_under_way_text(order: Any) -> str:
    """An Order under way, as the Orders page names it: "Order to Use Skill, under way until
    day 2, 06:00"."""
    until = clock_text(order.finishes_at)
    return f"Order to {OrderKind(order.kind).label}, under way until {until}"


class _OrderedUnitField(UnitField):
    """A unit to give an Order to, each named with the battle not yet applied that holds it
    ("awaiting review of Battle of the Crossroads", as its status says it) and the Order under
    way it would replace. A held unit is offered: an Order is for what comes next, and the
    battle it is in went on under the Orders it took in."""

    def __init__(self, campaign: Campaign, offer: Offer, **kwargs: Any) -> None:
        super().__init__(campaign, offer, **kwargs)
        self.under_way = orders_under_way(campaign, list(self.queryset))
        self.held = roster.engaged_battles(campaign=campaign)

    def label_from_instance(self, obj: Unit) -> str:
        order, battle = self.under_way.get(obj.pk), self.held.get(obj.pk)
        label = unit_label(obj)
        if battle is not None:
            label += f", {battle.holds_unit.lower()} {battle.held_in} {battle.name}"
        return label if order is None else f"{label}: its {order_under_way_text(order)}"


class OrderForm(LeavesOut, CampaignForm):
    """The GM's, every living character to every unit; a player's (``player``), their own
    living characters to the units of their own forces (`services.orders.player_gives`)."""

    offer = ORDER

    def __init__(self, *args: Any, player: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.owner = player
        self.fields["giver"] = character_field(
            self.campaign, player, label="Given by",
            help_text="Your living characters give your units Orders." if player else
            "A living character of the campaign gives an Order (the Characters page "
            "creates them): a player's character to the units of its player's forces and the "
            "unit it leads, an NPC to any unit.",
        )  # fmt: skip
        if player is None and isinstance(self.fields["giver"], CharacterField):
            self.fields["giver"].shows_whom_it_orders()
        self._starts_on = self.initial.get("unit")
        """The unit's pk the form starts on, if any."""
        if player is None and not page_lists_every_unit(self.campaign):
            # The GM's form in a campaign too big to list its units asks the unit by name
            # (`unit_field`), and starts on the unit it was asked for by its name too.
            self.fields["unit"] = UnitNamed(
                self.campaign, ORDER, label="To unit",
                help_text="Its name, as its force's roster gives it: a new Order replaces the "
                "one under way.",
            )  # fmt: skip
            self.starts_on_unit(self._starts_on)
        else:
            self.fields["unit"] = _OrderedUnitField(
                self.campaign, ORDER, owner=player, label="To unit",
                help_text="A unit under an Order is named with it: a new Order replaces the "
                "one under way" + (", if one of your characters gave it." if player else "."),
            )  # fmt: skip
        self.fields["kind"] = forms.ChoiceField(
            choices=ORDER_CHOICES, label="Order",
            error_messages={"invalid_choice": "“%(value)s” is not one of the Orders table's "
                            "Orders; choose one from the list."},
            help_text="An Order that needs a specialty the unit lacks falls outside its "
            "specialties: it performs as Raw, with Poor kit.",
        )  # fmt: skip
        if not self.is_bound and "giver" not in self.initial:
            self.initial["giver"] = self._likely_giver()
        use_skill = OrderKind.USE_SKILL
        self.fields["listed_hours"] = WholeNumberField(
            counts="hour", min_value=1, max_value=LISTED_HOURS_MAX, required=False,
            label=f"Hours the skill takes ({use_skill.label} only)",
            help_text=f"What the skill's own rules give, before the unit's quality shortens "
            f"it. Left empty: {use_skill.row.listed_hours} hours, as the Orders table lists. "
            f"Leave it empty for other Orders: their time is the table's.",
        )  # fmt: skip
        self.fields["note"] = forms.CharField(max_length=300, required=False)

    def _likely_giver(self) -> int | None:
        """Who the form starts on: the character leading the unit it starts on, or the only
        character it offers (a player's one character), if any."""
        givers = self.fields["giver"].queryset.values_list("pk", flat=True)
        unit = self._starts_on
        if unit is not None and (leading := givers.filter(leading__unit=unit).first()):
            return leading
        return self.only_character("giver")


class CallOffForm(CampaignForm):
    """Calls off one Order under way, which the GM judges makes no sense any more: one such
    form for each Order under way on the page, its ids numbered by the Order."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["order"] = forms.ModelChoiceField(
            queryset=Order.objects.filter(campaign=self.campaign),
            widget=forms.HiddenInput,
            error_messages={"invalid_choice": "That Order is not one of this campaign's."},
        )


class ClockForm(PageForm):
    hours = WholeNumberField(
        counts="hour", min_value=1, max_value=MAX_DAYS * HOURS_PER_DAY, initial=1
    )
    reason = forms.CharField(max_length=300, required=False)
