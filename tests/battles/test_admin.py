"""The admin shows a battle's record and lets only its name change."""

from __future__ import annotations

import pytest
from django.urls import reverse

from battles.models import Battle


@pytest.fixture
def battle(scenario):
    return Battle.objects.create(
        name="Crossroads",
        ruleset=scenario["ruleset"],
        scenario=scenario,
        seed=11,
        engine_version="1.16.0",
    )


@pytest.mark.django_db
def test_a_battle_s_name_changes_in_the_admin_and_its_record_does_not(admin_client, battle):
    url = reverse("admin:battles_battle_change", args=[battle.pk])
    page = admin_client.get(url)
    assert page.status_code == 200
    fields = page.context["adminform"].form.fields
    assert set(fields) == {"name"}

    response = admin_client.post(
        url,
        {"name": "Crossroads at dawn", "seed": "99", "status": "failed", "scenario": "{}",
         "engine_version": "0.1", "result": '{"winner": "blue"}'},
    )  # fmt: skip
    assert response.status_code == 302
    battle.refresh_from_db()
    assert battle.name == "Crossroads at dawn"
    assert (battle.seed, battle.status, battle.engine_version) == (11, "queued", "1.16.0")
    assert battle.scenario["name"] and battle.result is None
