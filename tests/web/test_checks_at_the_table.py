"""The Checks and Requisition page as a GM uses it at the table: who cannot make a check alone
is said before the roll, a refusal keeps the page at its address, and a Requisition refused
keeps what was asked."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from campaign.models import TableRoll
from tests.web.campaign_world import login

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
TABLE_FORMS = {
    "checks": ("skill-form", "contest-form", "requisition-form"),
    "characters": ("character-form", "join-form", "train-form", "heal-form", "rally-form"),
    "orders": ("order-form", "clock-form"),
}


def _form(page: str, form_id: str) -> str:
    return page.split(f'id="{form_id}"')[1].split("</form>")[0]


def test_every_table_form_is_sent_by_htmx_so_a_refusal_stays_at_the_pages_address(client, world):
    """A refused check drawn whole at /checks/contest/ left the GM at that address, where a
    reload asks to send the form again: each table form is sent as the site's other forms are
    (htmx), and a refusal comes back as the form alone, swapped in place on the page."""
    login(client, world, "gm")
    c = world.campaign.pk
    for page, forms in TABLE_FORMS.items():
        html = client.get(reverse(f"campaign:{page}", args=[c])).text
        for form_id in forms:
            tag = re.search(rf'<form id="{form_id}"[^>]*>', html).group(0)
            action = re.search(r' action="([^"]+)"', tag).group(1)
            assert f'hx-post="{action}"' in tag, form_id
            assert 'hx-target="this"' in tag and 'hx-swap="outerHTML"' in tag, form_id
    unit = world.enemy_unit
    refused = client.post(
        reverse("campaign:contest", args=[c]),
        {"active": unit.pk, "resisting": unit.pk, "seed": ""},
        **HTMX,
    )
    assert refused.status_code == 200
    assert refused.text.lstrip().startswith('<form id="contest-form"')
    assert f"{unit.name} is on both sides" in refused.text
    assert not TableRoll.objects.exists()
