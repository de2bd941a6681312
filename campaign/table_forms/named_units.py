"""Units typed by name, as a big campaign's forms ask them rather than list every unit
(`page_lists_every_unit`), and the unit field that asks one either way (`unit_field`).
"""

from __future__ import annotations

import re
from functools import reduce
from operator import or_
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import Q

from campaign.models import Campaign, Unit
from campaign.pages.names import unit_label
from campaign.selectors import battle_setup
from campaign.selectors.battle_setup import ready_count
from campaign.table_forms.listed_units import UnitField
from campaign.table_forms.offers import Offer, units_of
from units.words import and_words, quoted


def unit_field(campaign: Campaign, offer: Offer, **kwargs: Any) -> forms.Field:
    """One of the units ``offer`` allows: chosen from a list where the campaign's forms list
    every unit, else typed by name (`UnitNamed`), as the checks ask them, rather than a list
    of every unit on each form of the page."""
    if page_lists_every_unit(campaign):
        return UnitField(campaign, offer, **kwargs)
    return UnitNamed(campaign, offer, **kwargs)


HELPERS_AT_MOST = 40
"""Units a check's side names as helping it, when they are typed by name."""


def _by_name(campaign: Campaign, offer: Offer, typed: str) -> Unit:
    """The campaign's unit named ``typed`` ("Squad 7", or "Squad 7 (Red Company)" where two
    forces have a Squad 7), if ``offer`` allows it; else a refusal in the campaign's words."""
    units = units_of(campaign)
    # As typed (a name may hold two spaces running), or with its spaces tidied.
    said = dict.fromkeys((typed.strip(), " ".join(typed.split())))
    # A unit's label, as the suggestions give it, first: "Recon (North) (Red Company)" is
    # Recon (North) of Red Company, "Recon (North)" Recon of North if a force is so called.
    # Either name may hold brackets, so every way to split it is tried, in one query.
    labels = [
        Q(name__iexact=text[: split.start()], force__name__iexact=text[split.end() : -1])
        for text in said
        if text.endswith(")")
        for split in re.finditer(r" \(", text)
    ]
    found = list(units.filter(reduce(or_, labels))[:6]) if labels else []
    if not found:
        found = list(units.filter(reduce(or_, (Q(name__iexact=text) for text in said)))[:6])
    typed = " ".join(typed.split())
    if not found:
        raise ValidationError(f"No unit of the campaign is named {quoted(typed)}.", code="no_unit")
    if len(found) > 1:
        names = and_words([unit_label(unit) for unit in found[:5]])
        raise ValidationError(
            f"More than one unit is named {quoted(typed)}: {names}. Name its force too, as "
            f"{quoted(unit_label(found[0]))}.",
            code="ambiguous",
        )
    unit = found[0]
    if why := offer.blocked(unit):
        raise ValidationError(f"{unit_label(unit)} cannot {offer.doing}: {why}", code="not_offered")
    return unit


class UnitNamed(forms.CharField):
    """One of the units an `Offer` allows, typed by name: a big campaign's forms ask this
    rather than list every unit (`battle_setup.lists_every_unit`)."""

    def __init__(self, campaign: Campaign, offer: Offer, **kwargs: Any) -> None:
        self.campaign, self.offer = campaign, offer
        kwargs.setdefault("help_text", "Its name, as its force's roster gives it.")
        super().__init__(max_length=300, **kwargs)

    def clean(self, value: Any) -> Any:
        typed = super().clean(value)
        return _by_name(self.campaign, self.offer, typed) if typed else None


class UnitsNamed(forms.CharField):
    """Several of the units an `Offer` allows, typed by name, one a line."""

    def __init__(self, campaign: Campaign, offer: Offer, **kwargs: Any) -> None:
        self.campaign, self.offer = campaign, offer
        kwargs.setdefault("help_text", "Their names, one a line.")
        super().__init__(
            max_length=HELPERS_AT_MOST * 310,
            widget=forms.Textarea(attrs={"rows": 3}),
            **kwargs,
        )

    def clean(self, value: Any) -> Any:
        lines = [line for line in (super().clean(value) or "").splitlines() if line.strip()]
        if len(lines) > HELPERS_AT_MOST:
            raise ValidationError(f"Name at most {HELPERS_AT_MOST} units helping.")
        units, errors = [], []
        for line in lines:
            try:
                unit = _by_name(self.campaign, self.offer, line)
            except ValidationError as error:
                errors.extend(error.messages)
            else:
                if unit not in units:
                    units.append(unit)
        if errors:
            raise ValidationError(errors)
        return units


def page_ready_count(campaign: Campaign) -> int:
    """`battle_setup.ready_count`, asked once for the page's forms."""
    if (known := getattr(campaign, "_ready_count", None)) is None:
        known = campaign._ready_count = ready_count(campaign=campaign)
    return known


def page_lists_every_unit(campaign: Campaign) -> bool:
    """`battle_setup.lists_every_unit`, asked once for the page's forms."""
    return page_ready_count(campaign) <= battle_setup.LIST_EVERY_UNIT
