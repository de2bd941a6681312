"""A small campaign for the campaign page tests: its whole cast, two forces, two battles.

Import the ``world`` fixture into a test module (``from tests.web.campaign_world import world``);
``tests/web/conftest.py`` belongs to the battle pages.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth import get_user_model

from battles.services import battle_resolve
from campaign.models import Campaign, CampaignBattle, Force, Unit
from campaign.services import campaign_create, force_create, membership_set, unit_create
from campaign.services.battles import (
    Deployment,
    campaign_battle_launch,
    campaign_battle_record,
    campaign_battle_settle,
)
from units.cardtext import parse_card
from units.models import Ruleset, UnitType

CROSSROADS = Path(__file__).resolve().parents[2] / "battles/engine/scenarios/crossroads.json"
CARDS = {
    "Rifle Squad": "Rifle Squad\nSkill 3 · Move 5 · Resistance 1 · Hits 1 · Size 1\n"
    "Rifles — Power 2, Range 12",
    "Mech": "Mech\nSkill 4 · Move 4 · Resistance 5 · Hits 3 · Size 4\n"
    "Autocannon — Power 4, Range 12",
}
ROLES = ("anonymous", "outsider", "player", "rival", "spectator", "gm", "co_gm")
"""Everyone who may knock: the player owns ``force``, the rival owns ``enemy``."""


@dataclass
class World:
    campaign: Campaign
    users: dict[str, Any]
    force: Force
    enemy: Force
    unit: Unit
    """A unit of the player's force."""
    enemy_unit: Unit
    table_battle: CampaignBattle
    """A table result awaiting the GM's review."""
    engine_battle: CampaignBattle
    """A battle the engine fought (in-process), its outcome applied."""


def library() -> dict[str, UnitType]:
    return {
        name: UnitType.objects.create(
            name=name, ruleset=Ruleset.COMBINED_ARMS, kind=UnitType.Kind.UNIT, card=parse_card(text)
        )
        for name, text in CARDS.items()
    }


def raise_units(force: Force, card: UnitType, count: int, prefix: str = "Squad") -> list[Unit]:
    return [
        unit_create(force=force, unit_type=card, name=f"{prefix} {i}", specialties=["infantry"])
        for i in range(1, count + 1)
    ]


def build_world() -> World:
    User = get_user_model()
    users = {name: User.objects.create_user(name) for name in ROLES[1:]}
    users["anonymous"] = None
    cards = library()
    campaign = campaign_create(name="Op. Pages", gm=users["gm"], ruleset=Ruleset.COMBINED_ARMS)
    for name, role in (
        ("player", "player"),
        ("rival", "player"),
        ("spectator", "spectator"),
        ("co_gm", "co_gm"),
    ):
        membership_set(campaign=campaign, user=users[name], role=role)
    force = force_create(campaign=campaign, owner=users["player"], name="Red Company")
    enemy = force_create(campaign=campaign, owner=users["rival"], name="Blue Battalion")
    unit, second = raise_units(force, cards["Rifle Squad"], 2)
    enemy_unit = unit_create(
        force=enemy, unit_type=cards["Mech"], name="Iron Wolf", specialties=["mechanized"]
    )
    with mock.patch("battles.tasks.resolve_battle.delay"):
        engine_battle = campaign_battle_launch(
            campaign=campaign,
            base=json.loads(CROSSROADS.read_text()),
            deployments=[
                Deployment(unit=unit, side="blue", position=(6, 3)),
                Deployment(unit=second, side="blue", position=(10, 2)),
                Deployment(unit=enemy_unit, side="red", position=(20, 20)),
            ],
            name="Crossroads",
            seed=12,
            actor=users["gm"],
        )
    battle_resolve(battle_id=engine_battle.battle_id)
    with mock.patch("celery.current_app.send_task"):
        engine_battle = campaign_battle_settle(battle_id=engine_battle.battle_id)
    campaign.apply_mode = Campaign.ApplyMode.REVIEW
    campaign.save()
    fresh = {u.pk: u for u in Unit.objects.filter(force__campaign=campaign)}
    ready = [u for u in fresh.values() if u.status == "ready"]
    sides = {
        "attackers": [u for u in ready if u.force_id == force.pk][:1],
        "defenders": [u for u in ready if u.force_id == enemy.pk][:1],
    }
    if not all(sides.values()):
        # The engine battle left no one standing on a side: raise fresh units for the table.
        sides["attackers"] = raise_units(force, cards["Rifle Squad"], 1, "Reserve")
        sides["defenders"] = raise_units(enemy, cards["Rifle Squad"], 1, "Reserve")
    table_battle = campaign_battle_record(
        campaign=campaign,
        name="Skirmish at the mill",
        sides=sides,
        winner="attackers",
        outcomes={u.pk: {"hits_lost": 0, "skill_lost": 0} for s in sides.values() for u in s},
        actor=users["gm"],
    )
    return World(
        campaign=campaign,
        users=users,
        force=force,
        enemy=enemy,
        unit=fresh[unit.pk],
        enemy_unit=fresh[enemy_unit.pk],
        table_battle=table_battle,
        engine_battle=engine_battle,
    )


@pytest.fixture
def world(db) -> World:
    return build_world()


def login(client, world: World, role: str):
    """The test client as ``role`` (anonymous stays logged out)."""
    client.logout()
    if world.users[role] is not None:
        client.force_login(world.users[role])
    return client
