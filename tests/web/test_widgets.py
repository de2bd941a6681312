"""config.widgets writes inputs, selects and options exactly as Django's own templates do: every
form page of the site, and widgets of every kind and value, come out the same either way."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django import forms
from django.forms.renderers import DjangoTemplates
from django.test import override_settings
from django.urls import reverse
from django.utils.translation import gettext_lazy

from config.widgets import WidgetRenderer
from tests.web.campaign_world import login

DJANGO = "django.forms.renderers.DjangoTemplates"

# A CSRF token is masked afresh on every page, and a launch key is new on every set-up page.
FRESH = re.compile(r'(name="(?:csrfmiddlewaretoken|request_key)" value="|"X-CSRFToken": ")[^"]*"')


def _both(client, url: str) -> tuple[str, str]:
    ours = client.get(url)
    assert ours.status_code == 200, url
    with override_settings(FORM_RENDERER=DJANGO):
        theirs = client.get(url)
    return FRESH.sub(r'\1"', ours.text), FRESH.sub(r'\1"', theirs.text)


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["gm", "player"])
def test_every_form_page_is_drawn_as_djangos_templates_draw_it(client, world, role):
    c = world.campaign.pk
    urls = [
        reverse("campaign:dashboard", args=[c]),
        reverse("campaign:force", args=[c, world.force.pk]),
        reverse("campaign:unit", args=[c, world.unit.pk]),
        reverse("campaign:battle-setup", args=[c]) + "?scenario=crossroads",
        reverse("campaign:battle-record", args=[c]),
        reverse("campaign:characters", args=[c]),
        reverse("campaign:orders", args=[c]),
        reverse("campaign:engagement-setup", args=[c]),
        reverse("campaign:checks", args=[c]),
        reverse("battles:setup"),
        reverse("battles:odds-setup"),
    ]
    login(client, world, role)
    drawn = 0
    for url in urls:
        response = client.get(url)
        if response.status_code != 200:  # a page this role may not open
            continue
        ours, theirs = _both(client, url)
        assert ours == theirs, url
        drawn += ours.count("<select") + ours.count("<input")
    assert drawn > 20


class Every(forms.Form):
    text = forms.CharField(initial='a "quoted" <b>', help_text="x")
    number = forms.IntegerField(initial=1234567, min_value=0)
    real = forms.FloatField(initial=2.5, required=False)
    hidden = forms.CharField(widget=forms.HiddenInput, initial="h&i")
    email = forms.EmailField(required=False)
    password = forms.CharField(widget=forms.PasswordInput)
    when = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}), initial=date(2026, 1, 2))
    tick = forms.BooleanField(initial=True, required=False)
    untick = forms.BooleanField(initial=False, required=False)
    choice = forms.ChoiceField(
        choices=[("", "None"), ("a", "A & B"), (3, 3000), ("l", gettext_lazy("Lazy <x>"))],
        initial=3,
    )
    grouped = forms.ChoiceField(choices=[("G <1>", [("x", "X"), ("y", "Y")]), ("z", "Z")])
    many = forms.MultipleChoiceField(choices=[("a", "A"), ("b", "B")], initial=["a", "b"])
    area = forms.CharField(widget=forms.Textarea, initial="long\ntext")
    radio = forms.ChoiceField(widget=forms.RadioSelect, choices=[("r", "R"), ("s", "S")])


@pytest.mark.parametrize("bound", [False, True])
def test_widgets_of_every_kind_and_value_come_out_the_same(bound):
    data = {"text": "<script>", "number": "-5", "choice": "a", "many": ["b"], "tick": "on"}
    made = [
        Every(data if bound else None, renderer=r) for r in (WidgetRenderer(), DjangoTemplates())
    ]
    for name in Every.base_fields:
        ours, theirs = (str(form[name]) for form in made)
        assert ours == theirs, name
    assert str(made[0]) == str(made[1])
