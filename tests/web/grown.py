"""A campaign run over many evenings, grown from the small ``world`` a round at a time: more
players with forces of their own, more units, battles fought by the engine and at the table, a
long history.

Each ``grow(world)`` adds one round through the campaign's own services (and, for the history,
GM's notes written at once, `paging.add_notes`): ``UNITS`` units in each force (the first
round brings in four players first, each with a force), ``TABLE_BATTLES`` table results and
``ENGINE_BATTLES`` battles the engine fights in-process, ``NOTES`` entries. After one round
the campaign has six players, some 75 units, 60 battles and 1,500 history entries; after two,
the same players with twice the rest: what the page tests compare.
"""

from __future__ import annotations

import itertools
import json
from unittest import mock

from django.contrib.auth import get_user_model

from battles.services import battle_resolve
from campaign.models import Campaign, Force, Unit
from campaign.services import force_create, membership_set
from campaign.services.battles import (
    Deployment,
    campaign_battle_apply,
    campaign_battle_launch,
    campaign_battle_record,
    campaign_battle_settle,
)
from tests.web.campaign_world import CROSSROADS, World, raise_units
from tests.web.paging import add_notes

PLAYERS = 4
"""Players the first round brings in, each with a force of their own."""
UNITS = 12
"""Units each force gains a round."""
TABLE_BATTLES = 56
"""Table results a round records (applied)."""
ENGINE_BATTLES = 4
"""Battles a round has the engine fight (in-process, then settled)."""
NOTES = 1000
"""History entries a round writes: half into the world's ``unit``, half spread over ten others."""


def grow(world: World) -> None:
    """One more round of evenings in the world's campaign (see the module's docstring)."""
    User = get_user_model()
    gm = world.users["gm"]
    campaign = Campaign.objects.get(pk=world.campaign.pk)
    card = Unit.objects.get(pk=world.unit.pk).unit_type
    forces = list(Force.objects.filter(campaign=campaign).order_by("pk"))
    round_ = Unit.objects.filter(force__campaign=campaign).count()  # names unique round by round
    if len(forces) == 2:  # the first round brings the players in
        for n in range(PLAYERS):
            player = User.objects.create_user(f"player-{n}")
            membership_set(campaign=campaign, user=player, role="player")
            forces.append(force_create(campaign=campaign, owner=player, name=f"Company {n}"))
    raised = [raise_units(f, card, UNITS, prefix=f"R{round_} F{f.pk}") for f in forces]
    # Neighbouring forces fight: the n-th unit of one against the n-th of the next.
    pairs = [(a[n], b[n]) for n in range(UNITS) for a, b in itertools.pairwise(raised)]
    for n in range(TABLE_BATTLES):
        red, blue = pairs[n % len(pairs)]
        battle = campaign_battle_record(
            campaign=campaign,
            name=f"Table fight {round_}-{n}",
            sides={"attackers": [red], "defenders": [blue]},
            winner="attackers",
            outcomes={red.pk: {"hits_lost": 0, "skill_lost": 0},
                      blue.pk: {"hits_lost": 0, "skill_lost": 0}},
            actor=gm,
        )  # fmt: skip
        campaign_battle_apply(campaign_battle=battle, actor=gm)
    base = json.loads(CROSSROADS.read_text())
    for n in range(ENGINE_BATTLES):
        red, blue = pairs[-1 - 2 * n]  # no unit in two battles awaiting review
        with mock.patch("battles.tasks.resolve_battle.delay"):
            battle = campaign_battle_launch(
                campaign=campaign,
                base=base,
                deployments=[
                    Deployment(unit=red, side="blue", position=(6, 3)),
                    Deployment(unit=blue, side="red", position=(20, 20)),
                ],
                name=f"Engine fight {round_}-{n}",
                seed=n,
                actor=gm,
            )
        battle_resolve(battle_id=battle.battle_id)
        with mock.patch("celery.current_app.send_task"):
            campaign_battle_settle(battle_id=battle.battle_id)
    for n, units in enumerate(raised):
        for unit in units[:2]:
            add_notes(unit, [campaign.day] * (NOTES // 24), prefix=f"R{round_} note {n}")
    add_notes(world.unit, [campaign.day] * (NOTES // 2), prefix=f"R{round_} long")
