"""The form of a Requisition check, and the unit it asks for."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from battles.forms import SeedField, WholeNumberField
from campaign.forms import (
    SPECIALTIES_LEFT_EMPTY,
    SPECIALTY_CHOICES,
    card_label,
    specialties_left_empty,
)
from campaign.models import Force
from campaign.rules.checks import REQUISITION_BASE_DC, requisition_quality_problem
from campaign.rules.state import CampaignUnitState, quality_from_name, quality_name
from campaign.table_forms.campaign_form import ROLL_SEED_HELP, CampaignForm
from campaign.table_forms.character_fields import character_field
from campaign.templatetags.working import signed
from units.bucs import Equipment
from units.models import UnitType
from units.words import capfirst

NO_FORCES = "The campaign has no force yet: raise one on the campaign's page."


class RequisitionQualityField(forms.ChoiceField):
    """The qualities a Requisition may raise; an Elite or Legendary one sent all the same is
    refused with the rule's reason (`rules.checks.requisition_quality_problem`), not as an
    unknown choice."""

    def validate(self, value: Any) -> None:
        try:
            problem = requisition_quality_problem(quality_from_name(value))
        except ValueError:
            problem = ""
        if problem:
            raise ValidationError(f"{capfirst(problem)}.", code="invalid_choice")
        super().validate(value)


class RequisitionForm(CampaignForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        forces = Force.objects.filter(campaign=self.campaign).order_by("name")
        self.fields["force"] = forms.ModelChoiceField(
            queryset=forces,
            empty_label="Choose a force",
            help_text="" if forces.exists() else NO_FORCES,
        )
        self.fields["unit_type"] = forms.ModelChoiceField(
            queryset=UnitType.objects.filter(
                ruleset=self.campaign.ruleset, kind=UnitType.Kind.UNIT
            ).order_by("name"),
            label="Card",
            empty_label="Choose a card",
        )
        # Each card names the specialty it needs, as on its force's page (`card_label`).
        self.fields["unit_type"].label_from_instance = card_label
        self.fields["name"] = forms.CharField(max_length=200)
        # Elite and Legendary come only from combat: the form offers what a roll may raise.
        self.fields["quality"] = RequisitionQualityField(
            # Each with its DC, and each kit with what it adds to it, so the GM sees the DC
            # before the roll (`rules.checks.requisition_dc`).
            choices=[
                (quality_name(q), f"{q.label} (DC {dc})") for q, dc in REQUISITION_BASE_DC.items()
            ],
            initial="average",
            help_text="Raw to Experienced: Elite and Legendary come only from combat.",
        )
        self.fields["equipment"] = forms.ChoiceField(
            choices=[(e.value, f"{e.label} ({signed(e.modifier)} to the DC)") for e in Equipment],
            initial="adequate",
        )
        self.fields["specialties"] = forms.MultipleChoiceField(
            choices=SPECIALTY_CHOICES,
            required=False,
            widget=forms.CheckboxSelectMultiple,
            help_text=SPECIALTIES_LEFT_EMPTY,
        )
        self.fields["character"] = character_field(
            self.campaign, required=False, label="Requisitioned by"
        )
        self.fields["bonus"] = WholeNumberField(
            min_value=-40, max_value=40, initial=0, label="Their Requisition bonus"
        )
        self.fields["seed"] = SeedField(help_text=ROLL_SEED_HELP)

    def clean(self) -> dict[str, Any]:
        return specialties_left_empty(super().clean())


def requisition_asked(setup: dict[str, Any]) -> dict[str, Any]:
    """A kept Requisition's asking (its roll's ``setup``) as the form's fields hold it: its
    force, card, name, quality, equipment, specialties, character and bonus; not its seed,
    which would roll the same die again."""
    unit = CampaignUnitState.from_json(setup["unit"])
    return {
        "force": setup["force"],
        "unit_type": setup["unit_type"],
        "name": unit.name,
        "quality": quality_name(unit.quality),
        "equipment": Equipment(unit.equipment).value,
        "specialties": [s.value for s in unit.specialties],
        "character": setup.get("character"),
        "bonus": setup.get("bonus", 0),
    }
