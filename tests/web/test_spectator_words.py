"""What the pages say to a member who sees other forces only in summary: a spectator is told
as a spectator, and nobody is told of "units you can see" when they see none."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign.models import Campaign, HistoryEntry
from tests.web.campaign_world import login

pytestmark = pytest.mark.django_db


def _url(name, world, *args):
    return reverse(f"campaign:{name}", args=[world.campaign.pk, *args])


def _summary(world) -> None:
    Campaign.objects.filter(pk=world.campaign.pk).update(other_forces_visible="summary")


def test_a_spectator_who_sees_no_force_in_full_is_told_of_no_units_of_theirs(client, world):
    _summary(world)
    login(client, world, "spectator")
    client.get(_url("dashboard", world))  # a first visit: from now on, "since your last visit"
    page = client.get(_url("dashboard", world)).text
    assert "Since your last visit" not in page
    assert "the units you can see" not in page
    force = client.get(_url("force", world, world.force.pk)).text
    assert "The GM shows spectators only a summary of this force: " in force
    assert "other players" not in force
    # Under full rosters the spectator sees every force, and is told of them.
    Campaign.objects.filter(pk=world.campaign.pk).update(other_forces_visible="full")
    page = client.get(_url("dashboard", world)).text
    assert "Since your last visit" in page


def test_a_battle_page_says_what_it_leaves_out_without_saying_no_unit_changed(client, world):
    _summary(world)
    battle = world.engine_battle
    changed = HistoryEntry.objects.filter(pk__in=battle.applied_entries)
    units = len({e.unit_id for e in changed})
    assert units > 1
    page = login(client, world, "spectator").get(_url("battle", world, battle.pk)).text
    assert "No unit changes." not in page and '<table class="changes">' not in page
    assert (
        f"What it did to its {units} units is not shown: the GM shows spectators every force "
        "in summary only." in page
    )
    # A player sees their own units' changes, and is told how many of the others' are left out.
    page = login(client, world, "player").get(_url("battle", world, battle.pk)).text
    assert '<table class="changes">' in page and "What it changed:" in page
    assert "of forces you see only in summary" in page and "left out" in page


def test_the_timeline_links_a_quick_resolve_only_to_a_unit_the_reader_may_open(client, world):
    from campaign.models import QuickResolve

    _summary(world)
    QuickResolve.objects.create(
        campaign=world.campaign, day=1, attacker=world.enemy_unit, defender=world.unit, seed=3,
        round_limit=5, setup={}, events=[{"event": "end", "rounds": 2, "winner": "attacker"}],
        rounds=2, winner="attacker",
    )  # fmt: skip
    enemy_page = _url("unit", world, world.enemy_unit.pk)
    own_page = _url("unit", world, world.unit.pk)
    line = f"{world.enemy_unit.name} (Blue Battalion) engaged {world.unit.name} (Red Company)"
    page = login(client, world, "player").get(_url("timeline", world)).text
    assert f'<a href="{own_page}">{line}' in page and enemy_page not in page
    page = login(client, world, "spectator").get(_url("timeline", world)).text
    assert f"</span> {line}: " in page and "/units/" not in page
    page = login(client, world, "gm").get(_url("timeline", world)).text
    assert f'<a href="{enemy_page}">{line}' in page
