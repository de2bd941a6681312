"""The cast of the web tests — an owner, another user, a superuser — and battles to look at."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from battles.models import Battle
from battles.services import battle_launch, battle_resolve
from tests.web.browser import (  # noqa: F401 - the browser tests' fixtures
    cast,
    chromium,
    page_for,
    playwright_ready,
    worker,
)
from tests.web.browser_world import browser_world  # noqa: F401 - the campaign in a browser
from tests.web.campaign_world import world  # noqa: F401 - the campaign pages' shared fixture
from tests.web.paging import big, paged  # noqa: F401 - the paged forms' small pages, or none

SCENARIOS = Path(__file__).resolve().parents[2] / "battles" / "engine" / "scenarios"
PASSWORD = "a-long-test-password"


@pytest.fixture
def scenario() -> dict:
    return json.loads((SCENARIOS / "crossroads.json").read_text())


@pytest.fixture
def owner(django_user_model):
    return django_user_model.objects.create_user("owner", password=PASSWORD)


@pytest.fixture
def other(django_user_model):
    return django_user_model.objects.create_user("other", password=PASSWORD)


@pytest.fixture
def superuser(django_user_model):
    return django_user_model.objects.create_superuser("admin", password=PASSWORD)


def client_for(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def owner_client(client, owner):
    return client_for(client, owner)


@pytest.fixture
def finished_battle(owner, scenario) -> Battle:
    """Crossroads with seed 1, resolved in-process (the queue is not what these tests test)."""
    battle = battle_launch(name="Crossroads", scenario=scenario, seed=1, created_by=owner)
    return battle_resolve(battle_id=battle.id)


@pytest.fixture
def queued_battle(owner, scenario) -> Battle:
    return battle_launch(name="Waiting", scenario=scenario, seed=2, created_by=owner)
