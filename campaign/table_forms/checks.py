"""The forms of skill checks and contests, which say under them which units cannot make a check on
their own.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from django import forms

from battles.forms import SeedField, WholeNumberField
from campaign.forms import SPECIALTY_CHOICES
from campaign.models import Campaign, Unit
from campaign.pages.left_out import left_out
from campaign.services.checks import DC_MAX, units_not_alone
from campaign.table_forms.campaign_form import ROLL_SEED_HELP, CampaignForm, LeavesOut
from campaign.table_forms.check_fields import check_unit_field, helpers_field, not_helping_itself
from campaign.table_forms.named_units import page_lists_every_unit
from campaign.table_forms.offers import CHECK

SKILL_CHOICES = [("", "A general skill (every unit's)"), *SPECIALTY_CHOICES]


CANNOT_ALONE_UNNAMED = (
    "Not named in a campaign this big: a Green or Raw unit with no Order, no leader and no "
    "Legendary unit commanding it, and any unit with no Order on a skill outside its "
    "specialties (where it performs as Raw). The roll names each one it refuses."
)


class _SaysWhoCannotAlone:
    """A check's form that says under it which of the units it offers cannot make a check on
    their own as they stand, and why (`services.checks.units_not_alone`), so the GM sees it
    before the roll refuses them, whether the units are listed or typed by name."""

    campaign: Campaign

    @cached_property
    def cannot_alone(self) -> list[str]:
        if not page_lists_every_unit(self.campaign):
            # A page that names no unit reads none of their Orders and leaders either.
            return [CANNOT_ALONE_UNNAMED]
        # Read once for the page's forms, as `page_ready_count` is.
        if (known := getattr(self.campaign, "_cannot_alone", None)) is None:
            known = self.campaign._cannot_alone = left_out(blocked=units_not_alone(self.campaign))
        return known


class SkillCheckForm(_SaysWhoCannotAlone, LeavesOut, CampaignForm):
    offer = CHECK

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["lead"] = check_unit_field(self.campaign, label="Unit making the check")
        self.fields["helpers"] = helpers_field(
            self.campaign, "Units helping (Strength in numbers)", helps="lead"
        )
        self.fields["skill"] = forms.ChoiceField(choices=SKILL_CHOICES, required=False)
        self.fields["dc"] = WholeNumberField(min_value=1, max_value=DC_MAX, label="DC")
        self.fields["seed"] = SeedField(help_text=ROLL_SEED_HELP)
        self.fields["reason"] = forms.CharField(max_length=300, required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        not_helping_itself(self, "lead", "helpers")
        return data

    def units(self) -> list[Unit]:
        data = self.cleaned_data
        return [data["lead"], *(u for u in data["helpers"] if u.pk != data["lead"].pk)]

    def field_for(self, name: str) -> str | None:
        return "lead" if name == "units" else name


class ContestForm(_SaysWhoCannotAlone, LeavesOut, CampaignForm):
    """Each side is a unit and the units helping it: Strength in numbers comes from those that
    share the side's skill, as in a skill check."""

    offer = CHECK

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["active"] = check_unit_field(self.campaign, label="Active unit (e.g. recon)")
        self.fields["active_helpers"] = helpers_field(
            self.campaign, "Units helping the active unit", helps="active"
        )
        self.fields["active_skill"] = forms.ChoiceField(choices=SKILL_CHOICES, required=False)
        self.fields["resisting"] = check_unit_field(
            self.campaign, label="Resisting unit (e.g. hidden)"
        )
        self.fields["resisting_helpers"] = helpers_field(
            self.campaign, "Units helping the resisting unit", helps="resisting"
        )
        self.fields["resisting_skill"] = forms.ChoiceField(choices=SKILL_CHOICES, required=False)
        self.fields["seed"] = SeedField(help_text=ROLL_SEED_HELP)
        self.fields["reason"] = forms.CharField(max_length=300, required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        not_helping_itself(self, "active", "active_helpers")
        not_helping_itself(self, "resisting", "resisting_helpers")
        return data

    def side(self, name: str) -> list[Unit]:
        """The side's unit first, then its helpers."""
        lead = self.cleaned_data[name]
        return [lead, *(u for u in self.cleaned_data[f"{name}_helpers"] if u.pk != lead.pk)]
