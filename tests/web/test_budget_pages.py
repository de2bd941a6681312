"""A launch over its budget is refused on the page with 429 and when to retry; cancelling."""

from __future__ import annotations

from unittest import mock

import pytest
from django.core.exceptions import ValidationError

from battles.models import Battle, OddsRun
from battles.services import battle_launch

pytestmark = pytest.mark.django_db


def test_an_odds_run_over_the_user_s_budget_answers_429_saying_when(owner_client, owner, settings):
    settings.WORK_USER_LIMIT = 54 * 1500  # crossroads: 6 turns x 3 x 3 a battle
    data = {"scenario": "crossroads", "battles": "1000", "precision": "2", "seed": "", "name": ""}
    with mock.patch("battles.odds.odds_enqueue"):
        first = owner_client.post(
            "/battles/odds/new/", {**data, "request_key": "11111111-2222-4333-8444-555555555555"}
        )
        assert first.status_code == 302
        refused = owner_client.post(
            "/battles/odds/new/", {**data, "request_key": "66666666-7777-4888-9999-aaaaaaaaaaaa"}
        )
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) >= 60
    text = refused.content.decode()
    assert "54,000 units of work in flight" in text and "Try again in about" in text
    assert OddsRun.objects.filter(created_by=owner).count() == 1


def test_an_owner_cancels_a_queued_battle_from_its_page(owner_client, owner, other, scenario):
    with mock.patch("battles.services.battle_enqueue"):
        battle = battle_launch(name="Waiting", scenario=scenario, created_by=owner)
    page = owner_client.get(f"/battles/{battle.pk}/").content.decode()
    assert "Cancel this battle" in page
    done = owner_client.post(f"/battles/{battle.pk}/cancel/")
    assert done.status_code == 302
    battle.refresh_from_db()
    assert battle.status == Battle.Status.FAILED and "Cancelled" in battle.error
    again = owner_client.post(f"/battles/{battle.pk}/cancel/")
    assert again.status_code == 409


def test_a_campaign_over_its_budget_refuses_a_launch_saying_so(world, settings):
    import json

    from campaign.services.battles import Deployment, campaign_battle_launch
    from tests.web.campaign_world import CROSSROADS
    from tests.web.test_campaign_battles import _ready_all

    _ready_all(world)

    settings.WORK_CAMPAIGN_LIMIT = 1  # the world's battle is done: only the new one counts
    base = json.loads(CROSSROADS.read_text())
    from campaign.models import Unit

    unit = Unit.objects.get(pk=world.unit.pk)
    enemy = Unit.objects.get(pk=world.enemy_unit.pk)
    with pytest.raises(ValidationError) as refused:
        campaign_battle_launch(
            campaign=world.campaign,
            base=base,
            deployments=[
                Deployment(unit=unit, side="blue", position=(6, 3)),
                Deployment(unit=enemy, side="red", position=(20, 20)),
            ],
            actor=world.users["gm"],
        )
    assert "The campaign has" in " ".join(refused.value.messages)
