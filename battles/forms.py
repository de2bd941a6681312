"""Forms of the battle pages: set up a one-off battle, launch an odds run, filter a log.

Each launch form carries a one-time request key (``LaunchKeyField``, kept by ``battles.queue``)
so that a double click or a resent POST launches once. Errors the services find
(``BattleInputError``) are put back on the field they name.
"""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.forms.utils import pretty_name

from battles.odds import ODDS_DEFAULT_BATTLES, ODDS_MAX_BATTLES, ODDS_PRECISIONS
from battles.selectors import reference_scenarios
from battles.services import SEED_LIMIT, BattleInputError
from units.words import number_text, plural, quoted


class LaunchKeyField(forms.UUIDField):
    """The form's one-time request key: a double submit carries the same key and launches once."""

    widget = forms.HiddenInput

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(initial=uuid.uuid4, **kwargs)
        self.error_messages["invalid"] = "This form is damaged; reload the page and try again."


class OneTimeBoundField(forms.BoundField):
    """A field as a form draws it: of a one-time form (one with a `LaunchKeyField`), marked
    ``autocomplete="off"``. Sent, such a form's page goes elsewhere, and Back draws it anew
    (the POST to its address took the browser's copy), with a new key: the browser, filling it
    with what was typed into the one already sent, had the same thing done twice."""

    def build_widget_attrs(self, attrs: Any, widget: Any = None) -> Any:
        attrs = super().build_widget_attrs(attrs, widget)
        if any(isinstance(field, LaunchKeyField) for field in self.form.fields.values()):
            attrs.setdefault("autocomplete", "off")
        return attrs


def focus_first_error(form: forms.BaseForm) -> None:
    """Put ``autofocus`` on the form's first field shown with an error: the browser scrolls to
    it on load. When the errors are the whole form's, no field is at fault and none takes the
    focus: what the form says above its fields does (``errors_take_focus``, read by the
    templates that say it), so the reader hears why and Tab goes on from there, wherever the
    form's first field is drawn. (Django marks each field at fault ``aria-invalid`` and
    describes it by its help and its errors, ``<id>_helptext`` and ``<id>_error``: the ids the
    field templates give them.)"""
    at_fault = [
        field for field in form.visible_fields() if field.errors and not field.field.disabled
    ]
    for field in at_fault[:1]:
        field.field.widget.attrs["autofocus"] = True
    form.errors_take_focus = not at_fault


class WholeNumberField(forms.IntegerField):
    """A whole number whose limits a refusal says in words, counting ``counts`` ("At least 1
    day.", "At most 30 days."), or as bare numbers when it counts nothing ("At most 60.")."""

    def __init__(self, *, counts: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)

        def amount(limit: int) -> str:
            return plural(limit, counts) if counts else number_text(limit)

        if self.min_value is not None:
            self.error_messages["min_value"] = f"At least {amount(self.min_value)}."
        if self.max_value is not None:
            self.error_messages["max_value"] = f"At most {amount(self.max_value)}."


SEED_HELP = (
    "Optional. The same seed and set-up fight the same battle again; left empty, one is drawn."
)
"""What a battle's seed does, said under every form that launches one."""


class SeedField(WholeNumberField):
    """An optional seed, 0 to ``SEED_LIMIT``: the same seed fights the same battle again."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**{"min_value": 0, "max_value": SEED_LIMIT, "required": False, **kwargs})


DJANGO_REQUIRED = forms.Field.default_error_messages["required"]
DJANGO_INVALID_CHOICES = {
    str(kind.default_error_messages["invalid_choice"])
    for kind in (forms.ChoiceField, forms.ModelChoiceField, forms.ModelMultipleChoiceField)
}
"""Django's own words for a choice its list does not hold ("Select a valid choice. That choice
is not one of the available choices."), which name neither the field nor the value."""


def required_message(field: forms.Field, name: str) -> str:
    """What a form says of a field left empty, by the label it shows: “Fill in “Name”.”,
    “Choose one for “Scenario”.”, never Django's "This field is required.", which does not say
    which field of the form it is. A field with words of its own (``error_messages["required"]``)
    keeps them."""
    label = quoted(str(field.label or pretty_name(name)))
    if isinstance(field, forms.MultipleChoiceField | forms.ModelMultipleChoiceField):
        return f"Choose at least one for {label}."
    if isinstance(field, forms.ChoiceField | forms.ModelChoiceField):
        return f"Choose one for {label}."
    if isinstance(field, forms.FileField):
        return f"Choose a file for {label}."
    if isinstance(field, forms.BooleanField):
        return f"Tick {label}."
    return f"Fill in {label}."


def invalid_choice_message(field: forms.Field, name: str) -> str:
    """What a form says of a choice its list does not hold (another campaign's force, a card
    sent from a stale or tampered page), by the label it shows: "“7” is not one of the choices
    for “Force”; choose one from its list." A field with words of its own keeps them."""
    label = quoted(str(field.label or pretty_name(name))).replace("%", "%%")
    return f"“%(value)s” is not one of the choices for {label}; choose one from its list."


def max_length_message(field: forms.Field, name: str) -> str:
    """What a form says of text too long for its field, by the label it shows: "“Reason” takes
    at most 300 characters; this one has 412.", never Django's "Ensure this value has at most
    300 characters (it has 412).", which does not say which field of the form it is."""
    label = quoted(str(field.label or pretty_name(name))).replace("%", "%%")
    return f"{label} takes at most %(limit_value)d characters; this one has %(show_value)d."


class NamesRequired(forms.BaseForm):
    """A form whose fields left empty, sent a choice their list does not hold, or sent text too
    long are named by their labels (`required_message`, `invalid_choice_message`,
    `max_length_message`)."""

    def full_clean(self) -> None:
        # Checked as the form is, so the fields its own ``__init__`` adds are named too.
        for name, field in self.fields.items():
            if str(field.error_messages.get("required")) == str(DJANGO_REQUIRED):
                field.error_messages["required"] = required_message(field, name)
            if str(field.error_messages.get("invalid_choice")) in DJANGO_INVALID_CHOICES:
                field.error_messages["invalid_choice"] = invalid_choice_message(field, name)
            if getattr(field, "max_length", None) and "max_length" not in field.error_messages:
                field.error_messages["max_length"] = max_length_message(field, name)
        super().full_clean()


class LaunchForm(NamesRequired, forms.Form):
    """What every launch asks: which scenario, an optional name and seed, and the request key."""

    bound_field_class = OneTimeBoundField

    request_key = LaunchKeyField()
    scenario = forms.ChoiceField(label="Scenario")
    name = forms.CharField(
        label="Name",
        max_length=200,
        required=False,
        help_text="Optional; the scenario's name if left empty.",
    )
    seed = SeedField(
        label="Seed",
        help_text=SEED_HELP,
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

    turn_limit = WholeNumberField(
        counts="turn",
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
    battles = WholeNumberField(
        counts="battle",
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
