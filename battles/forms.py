"""Forms of the battle pages: set up a one-off battle, launch an odds run, filter a log.

Each launch form carries a one-time request key (``LaunchKeyField``, kept by ``battles.queue``)
so that a double click or a resent POST launches once. Errors the services find
(``BattleInputError``) are put back on the field they name.
"""

from __future__ import annotations

import uuid
from typing import Any

from django import forms

from battles.odds import ODDS_DEFAULT_BATTLES, ODDS_MAX_BATTLES, ODDS_PRECISIONS
from battles.selectors import reference_scenarios
from battles.services import SEED_LIMIT, BattleInputError


class LaunchKeyField(forms.UUIDField):
    """The form's one-time request key: a double submit carries the same key and launches once."""

    widget = forms.HiddenInput

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(initial=uuid.uuid4, **kwargs)
        self.error_messages["invalid"] = "This form is damaged; reload the page and try again."


class LaunchForm(forms.Form):
    """What every launch asks: which scenario, an optional name and seed, and the request key."""

    request_key = LaunchKeyField()
    scenario = forms.ChoiceField(label="Scenario")
    name = forms.CharField(
        label="Name",
        max_length=200,
        required=False,
        help_text="Optional; the scenario's name if left empty.",
    )
    seed = forms.IntegerField(
        label="Seed",
        required=False,
        min_value=0,
        max_value=SEED_LIMIT,
        help_text="Optional. The same seed fights the same battle again; empty picks one.",
    )

    def __init__(self, *args, preview_url: str | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        scenario = self.fields["scenario"]
        scenario.choices = [(s.slug, s.name) for s in reference_scenarios()]
        if preview_url:
            # With htmx, choosing a scenario redraws the table preview at once.
            scenario.widget.attrs.update(
                {"hx-get": preview_url, "hx-target": "#table-preview", "hx-swap": "outerHTML"}
            )

    def add_service_errors(self, exc: BattleInputError) -> None:
        """Put each (path, reason) the service reported on its field, or above the form."""
        for path, reason in exc.errors:
            field = path.split(".", 1)[0].split("[", 1)[0]
            if field in self.fields and field not in {"request_key", "scenario"}:
                self.add_error(field, reason)
            else:
                self.add_error(None, f"{path}: {reason}" if path else reason)


class BattleSetupForm(LaunchForm):
    """A one-off battle of a reference scenario."""

    turn_limit = forms.IntegerField(
        label="Turn limit",
        required=False,
        min_value=1,
        max_value=100,
        help_text="Optional; the scenario's own limit if left empty.",
    )

    field_order = ["scenario", "name", "seed", "turn_limit", "request_key"]


class OddsForm(LaunchForm):
    """Battles of one reference scenario with consecutive seeds, until the odds are known."""

    precision = forms.TypedChoiceField(
        label="Precision",
        choices=[(f"{p:g}", f"±{p:g} {'point' if p == 1 else 'points'}") for p in ODDS_PRECISIONS],
        coerce=float,
        initial=f"{ODDS_PRECISIONS[0]:g}",
        help_text="It stops once every outcome's 95% interval is this narrow.",
    )
    battles = forms.IntegerField(
        label="At most",
        min_value=1,
        max_value=ODDS_MAX_BATTLES,
        initial=ODDS_DEFAULT_BATTLES,
        help_text=f"Battles, 1 to {ODDS_MAX_BATTLES:,}: it stops here if not precise by then.",
    )

    field_order = ["scenario", "precision", "battles", "seed", "name", "request_key"]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields[
            "seed"
        ].help_text = "Optional. Battle i is fought with seed + i, so any one can be fought again."

    def clean(self) -> dict:
        cleaned = super().clean()
        seed, battles = cleaned.get("seed"), cleaned.get("battles")
        if seed is not None and battles is not None and seed > SEED_LIMIT - battles:
            self.add_error(
                "seed", f"With {battles} battles the seed may be at most {SEED_LIMIT - battles}."
            )
        return cleaned
