"""Find a unit across the campaign: a plain GET form whose address is the search, over the
forces the member sees in full only, a page at a time, in the same few queries however many
units the campaign has."""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.models import Campaign, Leader, Unit
from campaign.pages.finder import FOUND_A_PAGE
from tests.web.campaign_world import login
from tests.web.paging import fill_forces

pytestmark = pytest.mark.django_db


def _url(world, query: str = "") -> str:
    return reverse("campaign:units", args=[world.campaign.pk]) + query


def _names(page: str) -> list[str]:
    return re.findall(r'<a href="/campaigns/\d+/units/\d+/">([^<]+)</a>', page)


def test_a_gm_finds_a_unit_by_name_or_leader_in_any_force(client, world):
    fill_forces(world, 12)
    Leader.objects.create(unit=Unit.objects.get(name="Blue 07"), name="Sgt. Kane", hit_points=10)
    login(client, world, "gm")
    page = client.get(_url(world, "?q=red+1")).text
    assert _names(page) == ["Red 10", "Red 11", "Red 12"]
    assert "3 units with “red 1” in their name or their leader’s." in page
    assert 'value="red 1"' in page  # the form shows the search it made
    page = client.get(_url(world, "?q=kane")).text
    assert _names(page) == ["Blue 07"] and "led by Sgt. Kane" in page
    # Squad 9 before Squad 10, each force under its name.
    page = client.get(_url(world, f"?force={world.force.pk}")).text
    names = _names(page)
    assert names[:3] == ["Red 01", "Red 02", "Red 03"] and "Blue 01" not in names
    assert names.index("Red 09") < names.index("Red 10")


def test_a_search_ignores_the_case_of_every_letter_not_only_a_to_z(client, world):
    """SQLite's LIKE ignores the case of A to Z only: "émile" must still find "Émile", on
    either backend, by the unit's name or its leader's."""
    card = Unit.objects.get(pk=world.unit.pk).unit_type
    emile = Unit.objects.create(force=world.force, unit_type=card, name="Émile Squad",
                                specialties=["infantry"])  # fmt: skip
    strasse = Unit.objects.create(force=world.enemy, unit_type=card, name="Wache",
                                  specialties=["infantry"])  # fmt: skip
    Leader.objects.create(unit=strasse, name="Oberst Çelik", hit_points=10)
    login(client, world, "gm")
    assert _names(client.get(_url(world, "?q=émile")).text) == [emile.name]
    assert _names(client.get(_url(world, "?q=ÉMILE+sq")).text) == [emile.name]
    assert _names(client.get(_url(world, "?q=çelik")).text) == ["Wache"]


def test_a_search_by_status_and_the_page_it_is_on_are_kept_in_the_address(client, world):
    fill_forces(world, FOUND_A_PAGE)
    Unit.objects.filter(name__in=["Red 03", "Blue 04"]).update(status="destroyed")
    login(client, world, "gm")
    page = client.get(_url(world, "?status=destroyed")).text
    assert {"Red 03", "Blue 04"} <= set(_names(page))
    assert "Red 02" not in _names(page) and ", destroyed." in page
    first = client.get(_url(world, "?q=e")).text
    count = Unit.objects.filter(name__icontains="e").count()
    pages = -(-count // FOUND_A_PAGE)
    assert pages > 1 and len(_names(first)) == FOUND_A_PAGE
    assert (
        f"{count} units with “e” in their name or their leader’s. Page 1 of {pages}: units 1 "
        f"to {FOUND_A_PAGE}." in first
    )
    assert '<a href="?q=e&amp;page=2">Later units</a>' in first
    last = client.get(_url(world, f"?q=e&page={pages}")).text
    assert len(_names(last)) == count - (pages - 1) * FOUND_A_PAGE
    assert f'<a href="?q=e&amp;page={pages - 1}">Earlier units</a>' in last
    assert "Later units" not in last


def test_a_player_finds_only_units_of_forces_they_see_in_full(client, world):
    Campaign.objects.filter(pk=world.campaign.pk).update(other_forces_visible="summary")
    login(client, world, "player")
    page = client.get(_url(world)).text
    assert world.unit.name in _names(page) and "Iron Wolf" not in page
    assert "Not searched: Blue Battalion. The GM shows other players only that force's" in page
    # Asking for the hidden force by its id finds nothing of it, nor names it as searched.
    page = client.get(_url(world, f"?force={world.enemy.pk}&q=iron")).text
    assert "Iron Wolf" not in page and "No unit with “iron” in its name or its leader’s." in page
    # Under full rosters every force is searched.
    Campaign.objects.filter(pk=world.campaign.pk).update(other_forces_visible="full")
    assert "Iron Wolf" in _names(client.get(_url(world, "?q=iron")).text)


def test_a_spectator_under_summary_has_nothing_to_search_and_is_told_why(client, world):
    Campaign.objects.filter(pk=world.campaign.pk).update(other_forces_visible="summary")
    login(client, world, "spectator")
    page = client.get(_url(world, "?q=squad")).text
    assert _names(page) == [] and 'name="q"' not in page
    assert "The GM shows spectators every force in summary only" in page
    dashboard = client.get(reverse("campaign:dashboard", args=[world.campaign.pk])).text
    assert "Find a unit" not in dashboard


def test_the_dashboard_offers_the_search_and_an_outsider_gets_nothing(client, world):
    login(client, world, "player")
    dashboard = client.get(reverse("campaign:dashboard", args=[world.campaign.pk])).text
    assert f'action="{_url(world)}" role="search"' in dashboard
    # A force's roster searches that force.
    force = client.get(reverse("campaign:force", args=[world.campaign.pk, world.force.pk])).text
    assert f'<input type="hidden" name="force" value="{world.force.pk}">' in force
    assert login(client, world, "outsider").get(_url(world, "?q=iron")).status_code == 404


def test_it_reads_the_same_few_queries_whatever_the_campaigns_size(client, world):
    login(client, world, "gm")
    costs = []
    for more in (0, 64):
        fill_forces(world, more)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(_url(world, "?q=e")).status_code == 200
        costs.append(len(queries))
    assert costs[0] == costs[1] <= 10


def test_a_unit_held_by_a_battle_not_yet_applied_is_found_with_that_battle(client, world):
    """Found "Ready", a unit in a battle awaiting the GM's review read as free to fight, though
    it goes into no other fight until that outcome is applied: its status says what it awaits,
    the battle named after it, as its roster line does, and no longer once it is applied."""
    from campaign.services.battles import campaign_battle_apply

    battle = world.table_battle
    held = Unit.objects.get(pk=next(iter(battle.sides.values()))[0])
    login(client, world, "gm")
    link = reverse("campaign:battle", args=[world.campaign.pk, battle.pk])
    said = '"status status-awaiting">Awaiting review</span> <span class="small in-battle">of '
    said += f'<a href="{link}">{battle.name}</a>'
    page = client.get(_url(world, f"?q={quote(held.name)}")).text
    line = page.split(f">{held.name}</a>")[1].split("</li>")[0]
    assert said in line and ">Ready<" not in line
    free = Unit.objects.filter(force__campaign=world.campaign).exclude(
        pk__in=[pk for pks in battle.sides.values() for pk in pks]
    )
    page = client.get(_url(world)).text
    for unit in free:
        if unit.pk not in {b for bs in world.engine_battle.sides.values() for b in bs}:
            line = page.split(f">{unit.name}</a>")[1].split("</li>")[0]
            assert "Awaiting review" not in line, unit.name
    campaign_battle_apply(campaign_battle=battle, actor=world.users["gm"])
    page = client.get(_url(world, f"?q={quote(held.name)}")).text
    assert link not in page and "Awaiting review</span>" not in page


def test_ready_finds_no_unit_a_battle_not_yet_applied_holds(client, world):
    """A unit held by a battle awaiting the GM's review shows "Awaiting review of …" in place of
    "Ready" (`_unit_status.html`): the "Ready" search agrees with it, leaving it out, until the
    battle's outcome is applied; any status still finds it."""
    from campaign.services.battles import campaign_battle_apply

    battle = world.table_battle
    held = Unit.objects.get(pk=next(iter(battle.sides.values()))[0])
    assert held.status == "ready"
    login(client, world, "gm")
    page = client.get(_url(world, "?status=ready")).text
    assert held.name not in _names(page) and "Awaiting review</span>" not in page
    free = Unit.objects.filter(force__campaign=world.campaign, status="ready").exclude(
        pk__in=[pk for pks in battle.sides.values() for pk in pks]
    )
    assert sorted(_names(page)) == sorted(unit.name for unit in free)
    assert f"{len(free)} unit" in page
    assert held.name in _names(client.get(_url(world)).text)
    campaign_battle_apply(campaign_battle=battle, actor=world.users["gm"])
    assert held.name in _names(client.get(_url(world, "?status=ready")).text)


def test_a_unit_is_found_by_the_battle_it_waits_on_as_its_status_shows(client, world):
    """The status search offers what a held unit's status shows in place of "Ready": "Awaiting
    review" finds the units of a battle awaiting the GM's review, and says so in its summary."""
    battle = world.table_battle
    held = sorted(
        Unit.objects.filter(pk__in=[pk for pks in battle.sides.values() for pk in pks]).values_list(
            "name", flat=True
        )
    )
    login(client, world, "player")
    page = client.get(_url(world, "?status=awaiting")).text
    assert '<option value="awaiting" selected>Awaiting review</option>' in page
    assert '<option value="fighting">Fighting</option>' in page
    assert sorted(_names(page)) == held
    assert f"{len(held)} units, awaiting review." in page
    assert "No unit, fighting." in client.get(_url(world, "?status=fighting")).text
