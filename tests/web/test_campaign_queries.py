"""Campaign pages cost the same few queries whether a force has 5 units or 50, and whether the
campaign's history holds 20 entries or 2,000."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.models import HistoryEntry, Unit
from campaign.services import campaign_create, force_create, membership_set
from campaign.services.battles import campaign_battle_record
from campaign.services.characters import character_create
from campaign.table_forms.engagements import QuickResolveForm
from tests.web.campaign_world import login, raise_units
from tests.web.paging import add_notes, rows_read
from units.models import Ruleset

pytestmark = pytest.mark.django_db

PAGES = {
    # The GM's tools list the invitations waiting; a first visit, the latest entries; the quick
    # resolve names the units it leaves out (how many are ready, then those out of action);
    # hits awaiting the medics of a force with no crew to work, its crews out of action; the
    # battles not applied yet, whose ready units the forces table counts as held.
    "dashboard": (lambda w: [], 25),
    # its window: the days with something, their lines counted, and the group's changes in it;
    # the forces and units it may be narrowed to
    "timeline": (lambda w: [], 16),
    # the battle not applied yet each unit is in; whether the library holds a card to raise;
    # the campaign's forces, whose colours its own is chosen among
    "force": (lambda w: [w.force.pk], 15),
    "force-json": (lambda w: [w.force.pk], 10),
    "campaign-json": (lambda w: [], 10),
    "battles-json": (lambda w: [], 10),
    # the whole campaign: every unit with its history, the table's records, the battles' logs,
    # the invitations waiting
    "export": (lambda w: [], 28),
    # first, whether it lists every unit or pages them; the battles holding units it leaves
    # out; the campaign's forces' colours
    "battle-setup": (lambda w: [], 13),
    "battle-record": (lambda w: [], 10),
    # The GM's tools: the forces it may move to, whether it may be struck off; for a unit out
    # of action, the Order that ended with it; the battle not applied yet it is in.
    "unit": (lambda w: [w.unit.pk], 16),
}
"""Page → (its URL arguments, the most queries it may make)."""


@pytest.mark.parametrize("units", [5, 50])
@pytest.mark.parametrize("page", sorted(PAGES))
def test_it_bounds_the_queries_whatever_the_roster_size(
    client, world, django_assert_max_num_queries, units, page
):
    card = Unit.objects.get(pk=world.unit.pk).unit_type
    raise_units(world.force, card, units, prefix="Filler")
    login(client, world, "gm")
    args, limit = PAGES[page]
    url = reverse(f"campaign:{page}", args=[world.campaign.pk, *args(world)])
    with django_assert_max_num_queries(limit):
        assert client.get(url).status_code == 200


@pytest.mark.parametrize("entries", [20, 2000])
@pytest.mark.parametrize("page", ["timeline", "unit"])
def test_it_bounds_the_queries_and_rows_whatever_the_length_of_the_history(
    client, world, django_assert_max_num_queries, entries, page
):
    """A long campaign costs a visit the same few queries, reading a window of its history:
    the timeline's latest days, the unit's latest entries, its charts a row or so a day."""
    world.campaign.day = 40
    world.campaign.save(update_fields=["day"])
    # A notable entry (a GM's note) every day, the rest crowding day 40: hits, then healed.
    add_notes(world.unit, [1 + n * 40 // entries for n in range(entries)])
    hits = [{"morale_hits": n % 3, "casualty_hits": n % 2} for n in range(entries // 2)]
    HistoryEntry.objects.bulk_create(
        HistoryEntry(unit=world.unit, day=40, kind=HistoryEntry.Kind.BATTLE, text="Shelled",
                     before={}, after=after)
        for after in hits
    )  # fmt: skip
    login(client, world, "gm")
    args, limit = PAGES[page]
    url = reverse(f"campaign:{page}", args=[world.campaign.pk, *args(world)])
    with django_assert_max_num_queries(limit + 4), rows_read() as rows:
        assert client.get(url).status_code == 200
    # The page's lines and the few rows beside them, never the whole history.
    assert rows[0] < 400, rows[0]


@pytest.mark.parametrize("campaigns", [1, 4])
@pytest.mark.parametrize("listed", [50, 1])
def test_the_battles_page_lists_ones_campaigns_battles_in_the_same_few_queries(
    client, world, django_assert_max_num_queries, campaigns, listed, monkeypatch
):
    """The top bar's Battles page lists the battles of every campaign a member is in: a few
    queries whether they are in one campaign or several, with battles in each, and whether
    or not it lists them all (past the latest, it links every campaign with a battle)."""
    from campaign.views import battles_page as views

    monkeypatch.setattr(views, "CAMPAIGN_BATTLES_LISTED", listed)
    card = Unit.objects.get(pk=world.unit.pk).unit_type
    gm = world.users["gm"]
    for n in range(1, campaigns):
        campaign = campaign_create(name=f"Op. {n}", gm=gm, ruleset=Ruleset.COMBINED_ARMS)
        red = raise_units(force_create(campaign=campaign, owner=gm, name="Red Guard"), card, 2)
        blue = raise_units(force_create(campaign=campaign, owner=gm, name="Blue Host"), card, 2)
        for attacker, defender in zip(red, blue, strict=True):
            campaign_battle_record(
                campaign=campaign,
                name=f"Fight of {attacker.name}",
                sides={"attackers": [attacker], "defenders": [defender]},
                winner="attackers",
                outcomes={u.pk: {"hits_lost": 0, "skill_lost": 0} for u in (attacker, defender)},
                actor=gm,
            )
    login(client, world, "gm")
    with django_assert_max_num_queries(8):
        page = client.get(reverse("battle-list")).text
    assert page.count("Red Guard won") == min(listed, 2 * (campaigns - 1))


@pytest.mark.parametrize("units", [5, 50])
def test_the_quick_resolve_form_offers_attacker_and_defender_from_one_read_of_the_units(
    world, units
):
    """The dashboard's quick resolve lists every ready unit twice, for the attacker and the
    defender: one read of the units draws both lists, however many there are."""
    card = Unit.objects.get(pk=world.unit.pk).unit_type
    raise_units(world.force, card, units, prefix="Filler")
    form = QuickResolveForm(campaign=world.campaign)
    with CaptureQueriesContext(connection) as queries:
        attacker, defender = str(form["attacker"]), str(form["defender"])
    assert len(queries) == 1
    options = [re.findall(r"<option[^>]*>[^<]*</option>", html) for html in (attacker, defender)]
    ready = Unit.objects.filter(force__campaign=world.campaign, status="ready").count()
    assert options[0] == options[1] and len(options[0]) == ready + 1  # and the empty choice


@pytest.mark.parametrize("forces", [0, 10])
def test_the_export_costs_the_same_few_queries_whatever_the_number_of_forces(
    client, world, django_assert_max_num_queries, forces
):
    """A campaign of a dozen forces exports in the queries of one of two: the forces are read with
    their owners, units and histories together, the characters' names once."""
    gm = world.users["gm"]
    card = Unit.objects.get(pk=world.unit.pk).unit_type
    User = get_user_model()
    for n in range(forces):
        player = User.objects.create_user(f"player{n}")
        membership_set(campaign=world.campaign, user=player, role="player")
        force = force_create(campaign=world.campaign, owner=player, name=f"Company {n}")
        raise_units(force, card, 3)
        character_create(
            campaign=world.campaign, name=f"Captain {n}", hit_points=8, player=player, actor=gm
        )
    login(client, world, "gm")
    with django_assert_max_num_queries(PAGES["export"][1]):
        response = client.get(reverse("campaign:export", args=[world.campaign.pk]))
    assert len(json.loads(response.content)["forces"]) == 2 + forces


def _sides(world, card, size: int, attackers: str, defenders: str) -> dict[str, list[Unit]]:
    """``size`` new units of ``card`` a side: the attackers of the world's force, the
    defenders of its enemy, named by their side's prefix and the size."""
    return {
        "attackers": raise_units(world.force, card, size, prefix=f"{attackers}{size}"),
        "defenders": raise_units(world.enemy, card, size, prefix=f"{defenders}{size}"),
    }


def _won_unhurt(world, name: str, sides: dict[str, list[Unit]]):
    """A table battle the GM records between ``sides``: the attackers win, and no unit loses
    a Hit or a point of Skill."""
    return campaign_battle_record(
        campaign=world.campaign, name=name, sides=sides, winner="attackers",
        outcomes={u.pk: {"hits_lost": 0, "skill_lost": 0} for s in sides.values() for u in s},
        actor=world.users["gm"],
    )  # fmt: skip


def test_a_table_battles_page_costs_the_same_queries_whatever_its_number_of_units(client, world):
    """Its losses name each unit's Hits lost of the Hits its card has: the cards are read with
    the units, not one query a unit."""
    card = Unit.objects.get(pk=world.unit.pk).unit_type
    login(client, world, "gm")
    counts = []
    for size in (1, 6):
        sides = _sides(world, card, size, "Raid", "Hold")
        battle = _won_unhurt(world, f"Skirmish {size}", sides)
        url = reverse("campaign:battle", args=[world.campaign.pk, battle.pk])
        with CaptureQueriesContext(connection) as queries:
            page = client.get(url)
        assert page.status_code == 200 and f"0 of {card.card['hits']}" in page.text
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_a_battles_review_reads_its_leaders_characters_with_its_units(client, world):
    """The Apply review's Leader column gives a character's hit points out of its full ones: each
    leader's character is read with its unit, not one query a leader."""
    from campaign.services.leaders import leader_attach

    card = Unit.objects.get(pk=world.unit.pk).unit_type
    gm = world.users["gm"]
    login(client, world, "gm")
    counts = []
    for size in (1, 4):
        sides = _sides(world, card, size, "Led", "Foe")
        for i, unit in enumerate(sides["attackers"]):
            hero = character_create(
                campaign=world.campaign, name=f"Lt. {size}-{i}", hit_points=12, actor=gm
            )
            leader_attach(unit=unit, character=hero, actor=gm)
        battle = _won_unhurt(world, f"Led skirmish {size}", sides)
        url = reverse("campaign:battle-apply", args=[world.campaign.pk, battle.pk])
        with CaptureQueriesContext(connection) as queries:
            page = client.get(url)
        assert page.status_code == 200 and "of 12 hit points" in page.text
        counts.append(len(queries))
    assert counts[0] == counts[1]
