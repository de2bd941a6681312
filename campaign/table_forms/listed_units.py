"""Fields that list the units an `Offer` allows, in name order, and refuse one no longer offered
by its name and why.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.functional import lazy

from campaign.keys import key_named
from campaign.models import Campaign, Unit
from campaign.pages.names import name_order, unit_label
from campaign.table_forms.offers import Offer, offered_units, units_of
from campaign.units_offered import NO_UNITS


def by_force_and_name(unit: Unit) -> tuple[Any, ...]:
    return name_order(unit.force.name), name_order(unit.name)


class _InNameOrder(forms.models.ModelChoiceIterator):
    """The units by force, then name, as people read them (`pages.names.name_order`): "Squad 2"
    before "Squad 10", as the roster lists them."""

    def __iter__(self) -> Iterator[Any]:
        if self.field.empty_label is not None:
            yield ("", self.field.empty_label)
        for unit in self.field.in_name_order(self.queryset):
            yield self.choice(unit)


class _OfferedUnits:
    """A choice among the units an `Offer` allows, in name order (`_InNameOrder`). A unit of
    the campaign it does not offer (destroyed since the page was drawn, say) is refused by its
    name and the reason, as the field's error, rather than as a choice that is not there."""

    iterator = _InNameOrder
    default_error_messages = {
        "invalid_choice": "“%(value)s” names no unit of this campaign: choose one from the list."
    }
    owner: Any = None
    """Offered from the forces of this user only (`units_of`), when given."""
    same_as: _OfferedUnits | None = None
    """Another field of the form offering the very same units (the quick resolve's attacker,
    for its defender): this one's list is drawn from that one's read, not a read of its own."""
    _drawn: list[Unit] | None = None

    def in_name_order(self, queryset: Any) -> list[Unit]:
        """The units offered, as listed; read once however many times the form draws them."""
        if self.same_as is not None:
            return self.same_as.in_name_order(self.same_as.queryset)
        if self._drawn is None:
            self._drawn = sorted(queryset, key=by_force_and_name)
        return self._drawn

    def refusal(self, value: Any) -> ValidationError | None:
        key = key_named(value)
        if key is None:
            return None
        unit = units_of(self.campaign, self.owner).filter(pk=key).first()
        if unit is None:
            return None
        why = self.offer.blocked(unit) or "it is not offered here"
        return ValidationError(f"{unit_label(unit)} cannot {self.offer.doing}: {why}",
                               code="not_offered")  # fmt: skip

    def label_from_instance(self, obj: Unit) -> str:
        return unit_label(obj)


class UnitField(_OfferedUnits, forms.ModelChoiceField):
    """One of the units an `Offer` allows (of ``owner``'s forces, when given). In a campaign
    with no unit at all, the field says why its list is empty and how to fill it."""

    def __init__(self, campaign: Campaign, offer: Offer, owner: Any = None, **kwargs: Any) -> None:
        self.campaign, self.offer, self.owner = campaign, offer, owner
        kwargs.setdefault("empty_label", "Choose a unit")
        if owner is None and not kwargs.get("help_text"):
            # Read as the field is drawn, from the list it draws: no query while it offers any.
            kwargs["help_text"] = lazy(self._none_to_offer, str)()
        super().__init__(queryset=offered_units(campaign, offer, owner), **kwargs)

    def _none_to_offer(self) -> str:
        """Why the list is empty when the campaign has no unit at all; the units it has but
        does not offer are said under the form (`LeavesOut`)."""
        if self.same_as is not None:
            return ""  # said once, under the field whose list this one repeats
        if self.in_name_order(self.queryset) or units_of(self.campaign).exists():
            return ""
        return NO_UNITS

    def to_python(self, value: Any) -> Any:
        try:
            return super().to_python(value)
        except ValidationError as error:
            raise self.refusal(value) or error from None


class UnitsField(_OfferedUnits, forms.ModelMultipleChoiceField):
    """Several of the units an `Offer` allows. A value that names no key the database could
    hold (too large, negative, not digits: ``key_named``) is refused as a choice that is not
    there, before the database sees it (SQLite raises on a number out of its range).

    Only a choice of several needs this: Django answers an exact lookup (a `ModelChoiceField`,
    ``filter(pk=…)``) on an out-of-range number with no row, but sends an ``__in`` list to the
    database as it is."""

    def __init__(self, campaign: Campaign, offer: Offer, **kwargs: Any) -> None:
        self.campaign, self.offer = campaign, offer
        super().__init__(queryset=offered_units(campaign, offer), **kwargs)

    def _check_values(self, value):
        for key in value:
            if key_named(key) is None:
                raise ValidationError(
                    self.error_messages["invalid_choice"], code="invalid_choice",
                    params={"value": key},
                )  # fmt: skip
        try:
            return super()._check_values(value)
        except ValidationError as error:
            if error.code != "invalid_choice":
                raise
            raise self.refusal(error.params["value"]) or error from None
