"""The unit fields of the checks' forms: listed in a small campaign, typed by name with the ready
units suggested in a bigger one, and the units helping a side.
"""

from __future__ import annotations

from typing import Any

from django import forms

from campaign.models import Campaign
from campaign.pages.names import unit_label
from campaign.table_forms.listed_units import UnitField, UnitsField, by_force_and_name
from campaign.table_forms.named_units import (
    UnitNamed,
    UnitsNamed,
    page_lists_every_unit,
    page_ready_count,
)
from campaign.table_forms.offers import CHECK, offered_units

CHECK_LISTS_AT_MOST = 20
"""Ready units a check's fields list, a choice or a box each. With more, its units are typed
by name, the ready ones suggested once for every field (`check_units_suggested`): the three
sides of the Checks page's forms would otherwise draw a choice and a box for every unit three
times over (with 128 units, some 800 of them, seconds to draw)."""


def _check_lists_units(campaign: Campaign) -> bool:
    return page_ready_count(campaign) <= CHECK_LISTS_AT_MOST


CHECK_UNITS_LIST = "check-units"
"""The id of the list of ready units' names a check's unit fields suggest."""


def check_units_suggested(campaign: Campaign) -> list[str]:
    """The ready units' names a check's typed unit fields suggest, as pages name them, by
    force and name; none when the fields list them, or when there are more than a battle's
    form lists (`battle_setup.LIST_EVERY_UNIT`)."""
    if _check_lists_units(campaign) or not page_lists_every_unit(campaign):
        return []
    ready = offered_units(campaign, CHECK)
    return [unit_label(u) for u in sorted(ready, key=by_force_and_name)]


def check_unit_field(campaign: Campaign, **kwargs: Any) -> forms.Field:
    if _check_lists_units(campaign):
        return UnitField(campaign, CHECK, **kwargs)
    if page_lists_every_unit(campaign):
        kwargs["widget"] = forms.TextInput(attrs={"list": CHECK_UNITS_LIST, "autocomplete": "off"})
        kwargs["help_text"] = "Its name: start typing and the ready units are suggested."
    return UnitNamed(campaign, CHECK, **kwargs)


def not_helping_itself(form: forms.Form, lead: str, helpers: str) -> None:
    """A unit ticked as helping the check it makes itself: said next to the helpers, not
    silently dropped."""
    unit = form.cleaned_data.get(lead)
    if unit is not None and unit in (form.cleaned_data.get(helpers) or []):
        form.add_error(
            helpers,
            f"{unit.name} makes the check itself, so it cannot also help it: untick it here.",
        )


def helpers_field(campaign: Campaign, label: str, helps: str) -> forms.Field:
    """The units helping the unit of the field ``helps``. Listed, each box names that field, so
    the unit chosen there is not offered as helping itself (campaign/check-helpers.js); the
    server refuses it all the same (`not_helping_itself`)."""
    if not _check_lists_units(campaign):
        return UnitsNamed(campaign, CHECK, required=False, label=label)
    boxes = forms.CheckboxSelectMultiple(attrs={"data-helps": helps})
    return UnitsField(campaign, CHECK, required=False, widget=boxes, label=label)
