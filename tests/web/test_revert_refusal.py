"""A battle whose outcome cannot be reverted says so up front, once per unit, in words."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign.models import CampaignBattle, HistoryEntry
from campaign.rules.history import FIELD_LABELS
from campaign.services import unit_edit
from tests.web.campaign_world import login

pytestmark = pytest.mark.django_db


def _url(name, world, *args):
    return reverse(f"campaign:{name}", args=[world.campaign.pk, *args])


def test_a_revert_that_would_be_refused_says_why_per_unit_and_offers_no_button(client, world):
    login(client, world, "gm")
    battle = world.table_battle
    assert (
        client.post(_url("battle-apply", world, battle.pk), {"confirm": "yes"}).status_code == 302
    )
    battle.refresh_from_db()
    assert battle.state == CampaignBattle.State.APPLIED
    entries = HistoryEntry.objects.filter(pk__in=battle.applied_entries)
    unit = next(e.unit for e in entries if "in_combat_zone" in e.after)
    # A later correction of the unit: the outcome cannot go back over it.
    unit_edit(unit=unit, changes={"in_combat_zone": False}, reason="a sniper",
              actor=world.users["gm"])  # fmt: skip
    page = client.get(_url("battle-revert", world, battle.pk))
    assert page.status_code == 200
    text = page.text
    assert "The outcome cannot be reverted" in text
    assert "Revert these changes" not in text and 'name="confirm"' not in text
    said = f"{unit.name} ({unit.force.name}) has changed since: GM edit on day"
    assert text.count(said) == 1 and "a sniper" in text
    for field in (f for f in FIELD_LABELS if "_" in f):
        assert field not in text, field
    refused = client.post(_url("battle-revert", world, battle.pk), {"reason": "wrong map"})
    assert refused.status_code == 400 and refused.text.count(said) == 1
    battle.refresh_from_db()
    assert battle.state == CampaignBattle.State.APPLIED
