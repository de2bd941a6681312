"""The Characters page's forms: a new character, a character joining a unit, training, heals and
rallies.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import F

from battles.forms import WholeNumberField
from campaign.forms import ListedName, PageForm, UserField, people_choices
from campaign.models import Campaign
from campaign.rules.characters import Feat, can_rally, can_train
from campaign.services.characters import (
    HEALED_TODAY,
    HEALED_TODAY_LEFT_OUT,
    HIT_POINTS_MAX,
    heal_text,
    rallied_today,
)
from campaign.table_forms.campaign_form import CampaignForm, LeavesOut
from campaign.table_forms.character_fields import (
    NO_CHARACTERS,
    CharacterField,
    character_field,
    characters_who,
)
from campaign.table_forms.named_units import unit_field
from campaign.table_forms.offers import JOIN, RALLY, TRAIN, Offer, not_rallied

FEAT_CHOICES = [(f.value, f.label) for f in Feat]


class CharacterForm(PageForm):
    name = forms.CharField(max_length=200)
    hit_points = WholeNumberField(counts="hit point", min_value=1, max_value=HIT_POINTS_MAX)
    feats = forms.MultipleChoiceField(
        choices=FEAT_CHOICES, required=False, widget=forms.CheckboxSelectMultiple,
        label="Feats and classes",
    )  # fmt: skip
    player = ListedName(max_length=150, required=False, label="Played by")

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        _, *people = people_choices(campaign, who_play=True)
        self.fields["player"].widget.choices = [("", "Nobody: an NPC"), *people]

    def clean_player(self) -> Any:
        username = self.cleaned_data.get("player", "").strip()
        if not username:
            return None
        field = UserField(max_length=150)
        field.campaign = self.campaign
        return field.clean(username)


class JoinForm(LeavesOut, CampaignForm):
    under_the_characters = True
    offer = JOIN

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["character"] = character_field(self.campaign, nobody=NO_CHARACTERS)
        if isinstance(self.fields["character"], CharacterField):
            self.fields["character"].shows_unit_led()
        self.fields["unit"] = unit_field(self.campaign, JOIN, label="Joins unit")
        self.starts_on_unit(self.initial.get("unit"))
        self.starts_on_the_only_character()


TRAINER_NOT = "is neither Special Forces nor a Strategist, so trains no unit"


RALLIER_NOT = "is not a Strategist, so heals no Morale hits"


NOBODY_TRAINS = (
    "Training is given by a Special Forces or Strategist character of the campaign, and it has "
    "none alive: create one under New character."
)


NOBODY_RALLIES = (
    "A Morale hit is healed so by a Strategist character of the campaign, and it has none "
    "alive: create one under New character."
)


TRAINING_HELP = (
    "A course of training by a Special Forces or Strategist character: one quality step up, to "
    "Experienced at most, for a ready unit out of the combat zone. The course takes the time "
    "your table rules: the campaign's clock does not move for it (advance the calendar on the "
    "campaign's page)."
)
"""What training does, said above each training form."""


class TrainByForm(LeavesOut, CampaignForm):
    under_the_characters = True
    help = TRAINING_HELP
    offer = TRAIN

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["character"] = characters_who(
            self.campaign, can_train, TRAINER_NOT, NOBODY_TRAINS, label="Trainer"
        )
        self.fields["unit"] = unit_field(self.campaign, TRAIN, label="Trains unit")
        self.starts_on_the_only_character()


class UnitTrainForm(CampaignForm):
    """Training from the unit's page: the trainer is one of the campaign's living Special
    Forces or Strategist characters."""

    help = TRAINING_HELP

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["character"] = characters_who(
            self.campaign, can_train, TRAINER_NOT, label="Trainer", empty_label=None
        )
        self.fields["reason"] = forms.CharField(max_length=300, required=False)


class HealForm(CampaignForm):
    under_the_characters = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["character"] = character_field(
            self.campaign, nobody=NO_CHARACTERS, label="Heals"
        )
        self.fields["character"].shows_hit_points = True
        self.starts_on_the_only_character()
        self.fields["hit_points"] = WholeNumberField(
            counts="hit point",
            min_value=1,
            max_value=HIT_POINTS_MAX,
            label="Hit points healed (as the d20 table worked out)",
        )
        # The heal's record reads the words after the character's name ("Capt. Holt rests a
        # night: hit points 3 → 8 of 14", `services.characters.heal_text`), so the example is
        # a verb, not a noun ("Capt. Holt a night's rest" is no sentence).
        self.fields["reason"] = forms.CharField(
            max_length=300,
            required=False,
            label="How, read after their name (rests a night, is treated by the medic…)",
            help_text=self.example(),
        )

    def example(self) -> str:
        """How the record keeps the words, said of one of the campaign's own characters the GM
        may heal (the first by name, healed half what it lacks), never a name the campaign does
        not have; with none hurt, of no name at all."""
        hurt = (
            self.campaign.characters.filter(alive=True, hit_points__lt=F("max_hit_points"))
            .order_by("name")
            .first()
        )
        if hurt is None:
            return "Kept after the character's name: “… rests a night: hit points 3 → 8 of 14.”"
        lacks = hurt.max_hit_points - hurt.hit_points
        after = hurt.hit_points + (lacks + 1) // 2
        said = heal_text(hurt.name, "rests a night", hurt.hit_points, after, hurt.max_hit_points)
        return f"Kept as “{said}.”"


class RallyForm(LeavesOut, CampaignForm):
    under_the_characters = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["character"] = characters_who(
            self.campaign, can_rally, RALLIER_NOT, NOBODY_RALLIES, label="Strategist"
        )
        # Once a day for each unit: one rallied today is not offered, as the service refuses it.
        rallied = rallied_today(self.campaign)
        self.offer = Offer(
            RALLY.doing,
            lambda unit: HEALED_TODAY if unit.pk in rallied else RALLY.blocked(unit),
            lambda unit: HEALED_TODAY_LEFT_OUT if unit.pk in rallied else not_rallied(unit),
        )
        self.fields["unit"] = unit_field(self.campaign, self.offer, label="Heals a Morale hit of")
        self.starts_on_the_only_character()
