"""The forms of engagements: a quick resolve, an engagement set up, one reverted."""

from __future__ import annotations

from typing import Any

from django import forms

from battles.forms import LaunchKeyField, SeedField, WholeNumberField
from campaign.battle_forms import chosen_problems, not_a_choice
from campaign.forms import PageForm, revert_reason
from campaign.models import Campaign, Unit
from campaign.rules.engagement import ROUND_LIMIT_MAX, SIDES, TERRAINS, terrain_label
from campaign.services.engagements import SITUATION_FIELDS
from campaign.table_forms.campaign_form import ROLL_SEED_HELP, CampaignForm, LeavesOut
from campaign.table_forms.named_units import page_lists_every_unit, unit_field
from campaign.table_forms.offers import FIGHT
from campaign.units_offered import units_offered

SITUATION_LABELS = {
    "dug_in": "dug in",
    "several_directions": "fire from several directions",
    "cramped": "cramped quarters",
    "landing": "landing",
}


class QuickResolveForm(LeavesOut, PageForm):
    """An engagement between two units, fought out BUCS unit against unit."""

    offer = FIGHT

    attacker = forms.ModelChoiceField(queryset=Unit.objects.none())  # offered in __init__
    defender = forms.ModelChoiceField(queryset=Unit.objects.none())
    attacker_dug_in = forms.BooleanField(required=False, label="Attacker dug in")
    attacker_surprise = forms.BooleanField(required=False, label="Attacker has surprise")
    defender_dug_in = forms.BooleanField(required=False, label="Defender dug in")
    defender_pinned_down = forms.BooleanField(required=False, label="Defender pinned down")
    round_limit = WholeNumberField(
        counts="round", min_value=1, max_value=ROUND_LIMIT_MAX, required=False
    )
    seed = SeedField(help_text=ROLL_SEED_HELP)
    reason = forms.CharField(max_length=300, required=False, label="What happened")
    request_key = LaunchKeyField(required=False)  # a client that sends none is not kept from it
    under_the_characters = False
    """Shown on the Characters page, under its list of characters."""

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        # Only a ready unit fights, as on the engagement page: a retreated or destroyed one is
        # not offered, and one that is no longer ready when the form comes back (destroyed in
        # another tab since the dashboard was drawn) is refused by its name and why (`FIGHT`).
        # A campaign too big to list its units asks them by name, as the checks do: two
        # lists of every ready unit would be most of the dashboard, and read every unit.
        for field in ("attacker", "defender"):
            self.fields[field] = unit_field(campaign, FIGHT, label=field.capitalize())
        if page_lists_every_unit(campaign):
            # Both lists offer the same ready units: one read draws the two.
            self.fields["defender"].same_as = self.fields["attacker"]
        self.fields["round_limit"].initial = campaign.quick_resolve_rounds

    def stances(self) -> tuple[dict[str, bool], dict[str, bool]]:
        data = self.cleaned_data
        return (
            {"dug_in": data["attacker_dug_in"], "surprise": data["attacker_surprise"]},
            {"dug_in": data["defender_dug_in"], "pinned_down": data["defender_pinned_down"]},
        )


class EngagementForm(CampaignForm):
    """Who fights on which side, and the situation the GM states."""

    name = forms.CharField(max_length=200, required=False, label="What happened")
    terrain = forms.ChoiceField(choices=[(t, terrain_label(t)) for t in TERRAINS])
    surprise = forms.ChoiceField(
        choices=[("", "No one hides"), *((s, f"The {s} try to hide") for s in SIDES)],
        required=False,
    )
    round_limit = WholeNumberField(counts="round", min_value=1, max_value=ROUND_LIMIT_MAX)
    seed = SeedField(help_text=ROLL_SEED_HELP)
    request_key = LaunchKeyField(required=False)  # a client that sends none is not kept from it
    under_the_characters = False
    """Shown on the Characters page, under its list of characters."""

    def __init__(self, *args: Any, browse: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["round_limit"].initial = self.campaign.quick_resolve_rounds
        # Only a unit that may fight has a row, as on a battle's set-up: one out of action or
        # still in a battle whose outcome is not applied is named under the form instead. A
        # campaign with more units than a page lists shows a page of them (``browse``: the
        # page asked for), the units already put on a side carried along first.
        offered = units_offered(self.campaign, self.data if self.is_bound else browse or {})
        self.units = offered.units
        self.engaged = offered.engaged
        self.refused = offered.refused
        self.paged = offered.paged
        self.left_out = offered.left_out
        self.left_out_forces = offered.out_of_action
        self.no_units = offered.no_units
        self.rows = []
        for unit in self.units:
            side = f"side_{unit.pk}"
            self.fields[side] = forms.ChoiceField(
                choices=[("", "Not fighting"), *((s, s.capitalize()) for s in SIDES)],
                required=False,
                label=f"{unit.name} ({unit.force.name})",
                error_messages=not_a_choice(unit, "a side of an engagement"),
            )  # fmt: skip
            flags = []
            for flag in SITUATION_FIELDS:
                name = f"{flag}_{unit.pk}"
                self.fields[name] = forms.BooleanField(required=False,
                                                       label=SITUATION_LABELS[flag])  # fmt: skip
                flags.append(name)
            self.rows.append((unit, side, flags))

    def bound_rows(self):
        return [(unit, self[side], [self[f] for f in flags]) for unit, side, flags in self.rows]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        chosen_problems(self)
        return data

    def sides(self) -> dict[str, list[Unit]]:
        data = self.cleaned_data
        return {s: [u for u in self.units if data.get(f"side_{u.pk}") == s] for s in SIDES}

    def situations(self) -> dict[int, dict[str, bool]]:
        data = self.cleaned_data
        chosen = {u.pk for units in self.sides().values() for u in units}
        return {
            u.pk: {flag: bool(data.get(f"{flag}_{u.pk}")) for flag in SITUATION_FIELDS}
            for u in self.units
            if u.pk in chosen
        }


class RevertEngagementForm(PageForm):
    """Sent twice, it reverts once and says so again (its one-time key)."""

    reason = revert_reason()
    request_key = LaunchKeyField(required=False)  # a client that sends none is not kept from it
    under_the_characters = False
    """Shown on the Characters page, under its list of characters."""
