"""A group of boxes (a unit's specialties, a character's feats) is heard with its help and its
errors: Django points a single field to them, but a group is named by its legend only, and a
screen reader entering it heard neither the rule for leaving it empty nor why it was refused."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from campaign.models import Unit
from tests.web.campaign_world import login

pytestmark = pytest.mark.django_db


def _group(page: str, legend: str) -> str:
    """The opening tag of the fieldset whose legend is ``legend``."""
    return re.search(rf"<fieldset[^>]*>(?=<legend>{legend}</legend>)", page)[0]


def _said(page: str, element_id: str) -> str:
    return re.search(rf'id="{element_id}"[^>]*>([^<]*)<', page)[1]


def test_the_specialties_group_is_described_by_its_help_and_its_errors(client, world):
    force_page = reverse("campaign:force", args=[world.campaign.pk, world.force.pk])
    page = login(client, world, "gm").get(force_page).text
    group = _group(page, "Specialties")
    assert 'aria-describedby="id_unit_add_specialties_helptext"' in group
    assert _said(page, "id_unit_add_specialties_helptext").startswith("Left empty: the specialty")
    card = Unit.objects.get(pk=world.unit.pk).unit_type
    refused = client.post(
        reverse("campaign:unit-add", args=[world.campaign.pk, world.force.pk]),
        {"unit_type": card.pk, "name": "Odd", "quality": "average", "equipment": "adequate",
         "specialties": ["juggling"]},
    )  # fmt: skip
    assert refused.status_code == 400
    group = _group(refused.text, "Specialties")
    assert (
        'aria-describedby="id_unit_add_specialties_helptext id_unit_add_specialties_error"' in group
    )
    assert "“juggling” is not one of the choices for “Specialties”" in _said(
        refused.text, "id_unit_add_specialties_error"
    )
