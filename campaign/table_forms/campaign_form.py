"""What the table's forms share: the form whose choices are the campaign's units and characters
(`CampaignForm`), a form that says which units it leaves out (`LeavesOut`), and what a roll's
seed does (`ROLL_SEED_HELP`).
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from battles.forms import LaunchKeyField
from campaign.forms import PageForm
from campaign.models import Campaign
from campaign.pages.left_out import left_out
from campaign.pages.names import unit_label
from campaign.table_forms.named_units import UnitNamed, page_lists_every_unit
from campaign.table_forms.offers import Offer, not_ready, units_of
from campaign.units_offered import out_of_action_by_force


class LeavesOut:
    """A form whose unit fields offer the units ``offer`` allows, and says which it leaves out
    and why (`pages.left_out.left_out`), under the form."""

    offer: Offer
    campaign: Campaign
    owner: Any = None
    """A player's form: only the units of their own forces (`units_of`)."""

    def _by_force(self) -> bool:
        # A big campaign's units out of action are counted by force; a player's own are few.
        return (
            self.owner is None
            and not page_lists_every_unit(self.campaign)
            and self.offer.blocked is not_ready
        )

    def _asks_by_name(self) -> bool:
        # A big campaign's form that asks its unit by name (`unit_field`) refuses one it
        # cannot take by its name and why when sent, rather than reading every unit to say
        # here which it leaves out.
        return not page_lists_every_unit(self.campaign) and any(
            isinstance(field, UnitNamed) for field in self.fields.values()
        )

    @cached_property
    def left_out(self) -> list[str]:
        if self._by_force():
            return []  # counted by force instead (`left_out_forces`)
        if self._asks_by_name():
            return []
        units = [u for u in units_of(self.campaign, self.owner) if self.offer.blocked(u)]
        if self.offer.left_out_as is None:
            return left_out(units)
        return left_out(blocked=[(unit, self.offer.left_out_as(unit)) for unit in units])

    @cached_property
    def left_out_forces(self) -> list[dict[str, str]]:
        """A big campaign's units out of action, counted by force (as a paged set-up does)."""
        if not self._by_force():
            return []
        return out_of_action_by_force(self.campaign)


class CampaignForm(PageForm):
    """A form whose choices are the campaign's units and characters; sent twice, it acts once
    (its one-time key, `views.form_action`)."""

    request_key = LaunchKeyField(required=False)  # a client that sends none is not kept from it
    under_the_characters = False
    """Shown on the Characters page, under its list of characters."""

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        self.campaign = campaign
        super().__init__(*args, **kwargs)

    def only_character(self, name: str = "character") -> int | None:
        """The one character field ``name`` offers, if it offers just one (a player's one
        character, the campaign's one Strategist): the form starts on it."""
        offered = getattr(self.fields[name], "queryset", None)
        if offered is None:
            return None
        pks = list(offered.values_list("pk", flat=True)[:2])
        return pks[0] if len(pks) == 1 else None

    def starts_on_the_only_character(self) -> None:
        """An unsent form whose list offers one character starts on it: nothing to choose."""
        if not self.is_bound and "character" not in self.initial:
            self.initial["character"] = self.only_character()

    def starts_on_unit(self, pk: int | None) -> None:
        """An unsent form asked for unit ``pk`` (a unit page's link to it) starts on it: its key
        in a list, its name where the unit is typed (`UnitNamed`)."""
        if self.is_bound or pk is None:
            return
        if isinstance(self.fields["unit"], UnitNamed):
            unit = units_of(self.campaign).filter(pk=pk).first()
            self.initial["unit"] = unit_label(unit) if unit else None
        else:
            self.initial["unit"] = pk


ROLL_SEED_HELP = (
    "Optional. The same seed and set-up roll the same dice again; left empty, one is drawn."
)
"""What the seed of a roll at the table does, said under each form that rolls (a battle's
forms say `battles.forms.SEED_HELP`)."""
