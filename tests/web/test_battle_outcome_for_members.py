"""A battle's page tells every member what its outcome did to the units, or who acts next."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign.models import HistoryEntry
from tests.web.campaign_world import login

pytestmark = pytest.mark.django_db


def _url(name, world, *args):
    return reverse(f"campaign:{name}", args=[world.campaign.pk, *args])


@pytest.mark.parametrize("role", ["player", "rival", "spectator"])
def test_members_see_what_an_applied_outcome_changed(client, world, role):
    battle = world.engine_battle
    changed = {
        e.unit.name
        for e in HistoryEntry.objects.filter(pk__in=battle.applied_entries).select_related("unit")
    }
    assert changed
    page = login(client, world, role).get(_url("battle", world, battle.pk)).text
    assert "What it did to the units" in page and "What it changed:" in page
    assert '<table class="changes">' in page
    for name in changed:
        assert f">{name}</a>" in page, name
    assert "Review and revert the outcome" not in page


def test_a_player_is_told_the_gm_reviews_an_outcome_first(client, world):
    page = login(client, world, "player").get(_url("battle", world, world.table_battle.pk)).text
    assert "The GM reviews the outcome before it reaches the units" in page
    assert "Review and apply the outcome" not in page
