"""The campaign's list of every battle, the engine's and those at the table: a page at a time,
linked from where its battles appear, each with its day, sides, outcome and state, in the same
few queries however many there are."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles.models import Battle
from campaign.models import CampaignBattle
from campaign.pages.fights import FIGHTS_A_PAGE
from tests.web.campaign_world import login
from tests.web.crafted import crafted_battle, crafted_scenario

pytestmark = pytest.mark.django_db


def _fight(world, count: int, engine: int = 1) -> None:
    """``count`` battles on days 1 to ``count``: the first ``engine`` of them fought by the
    engine (blue won), the rest at the table (red won, awaiting review); the world's own
    battles are gone."""
    CampaignBattle.objects.filter(campaign=world.campaign).delete()
    sides = {"blue": [world.unit.pk], "red": [world.enemy_unit.pk]}
    outcome = {"hits_lost": 0, "skill_lost": 0}
    table = {"winner": "red", "units": {str(world.unit.pk): outcome}}
    CampaignBattle.objects.bulk_create(
        CampaignBattle(
            campaign=world.campaign, name=f"Fight {n}", day=n, sides=sides,
            battle=crafted_battle(world.users["gm"]) if n <= engine else None,
            table_result=None if n <= engine else table,
            state=CampaignBattle.State.APPLIED if n <= engine else CampaignBattle.State.AWAITING,
        )
        for n in range(1, count + 1)
    )  # fmt: skip


def _url(world, query: str = "") -> str:
    return reverse("campaign:battles", args=[world.campaign.pk]) + query


def test_every_battle_is_listed_page_by_page_the_latest_first(client, world):
    count = FIGHTS_A_PAGE * 2 + 3
    _fight(world, count)
    login(client, world, "spectator")
    first = client.get(_url(world)).text
    assert f"Battles 1 to {FIGHTS_A_PAGE} of {count}, the latest first: page 1 of 3." in first
    assert (
        f'>Fight {count}</a> <span class="small">(battle at the table)</span> <span '
        'class="status status-awaiting">Awaiting review</span><br><span class="small">Day '
        f"{count} · Red Company against Blue Battalion · Blue Battalion won</span></li>" in first
    )
    assert f">Fight {count - FIGHTS_A_PAGE}<" not in first
    assert '<a href="?page=2">Earlier battles</a>' in first and "Later battles" not in first
    last = client.get(_url(world, "?page=3")).text
    # The engine's battle, its winner named by its force as the dashboard names it.
    assert (
        '>Fight 1</a> <span class="status status-applied">Applied</span><br><span class="small">'
        "Day 1 · Red Company against Blue Battalion · Red Company won</span></li>" in last
    )
    assert ">Fight 4<" not in last
    assert '<a href="?page=2">Later battles</a>' in last and "Earlier battles" not in last
    assert ">Fight 1<" in client.get(_url(world, "?page=99")).text


def test_the_battles_list_reads_the_same_few_queries_however_many_battles(client, world):
    login(client, world, "player")
    costs = []
    for count in (1, FIGHTS_A_PAGE * 4):
        _fight(world, count, engine=count)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(_url(world)).status_code == 200
        costs.append(len(queries))
    assert costs[0] == costs[1] <= 8


def test_the_dashboard_and_the_battles_page_lead_to_the_list(client, world):
    _fight(world, 1)
    login(client, world, "player")
    link = f'<a href="{_url(world)}">'
    assert link in client.get(reverse("campaign:dashboard", args=[world.campaign.pk])).text
    assert (
        f"{link}{world.campaign.name}</a>, page by page" in client.get(reverse("battle-list")).text
    )


def test_an_outsider_reads_no_battles_list(client, world):
    assert login(client, world, "outsider").get(_url(world)).status_code == 404


def test_a_table_battles_sides_come_in_one_order_on_its_page_and_in_the_list(client, world):
    # Stored "van" first; PostgreSQL's jsonb hands the shorter key back first too. The list and
    # the battle's page both give them by id: the rearguard (Blue Battalion) first.
    CampaignBattle.objects.filter(campaign=world.campaign).delete()
    outcome = {"hits_lost": 0, "skill_lost": 0}
    cb = CampaignBattle.objects.create(
        campaign=world.campaign, name="Fight at the ford", day=1,
        sides={"van": [world.unit.pk], "rearguard": [world.enemy_unit.pk]},
        table_result={"winner": "van", "units": {str(world.unit.pk): outcome}},
        state=CampaignBattle.State.AWAITING,
    )  # fmt: skip
    login(client, world, "player")
    listed = client.get(_url(world)).text
    assert "Day 1 · Blue Battalion against Red Company · Red Company won" in listed
    page = client.get(reverse("campaign:battle", args=[world.campaign.pk, cb.pk])).text
    sides = page.split('<ul class="battle-sides">', 1)[1].split("</ul>", 1)[0]
    assert sides.index("<strong>Blue Battalion</strong>") < sides.index("<strong>Red Company")


def test_an_engine_battles_sides_come_in_its_scenarios_order_on_its_page_and_in_every_list(
    client, world
):
    # The scenario lists the van first; by id the rearguard would come first. The battle's page
    # follows the scenario, as its report's colours do, and so do the lists.
    CampaignBattle.objects.filter(campaign=world.campaign).delete()
    scenario = crafted_scenario()
    scenario["sides"][0]["id"], scenario["sides"][1]["id"] = "van", "rearguard"
    battle = crafted_battle(world.users["gm"])
    Battle.objects.filter(pk=battle.pk).update(
        scenario=scenario, status=Battle.Status.RUNNING, result=None
    )
    cb = CampaignBattle.objects.create(
        campaign=world.campaign, name="Fight at the ford", day=1, battle=battle,
        sides={"van": [world.unit.pk], "rearguard": [world.enemy_unit.pk]},
        state=CampaignBattle.State.FIGHTING,
    )  # fmt: skip
    login(client, world, "player")
    page = client.get(reverse("campaign:battle", args=[world.campaign.pk, cb.pk])).text
    sides = page.split('<ul class="battle-sides">', 1)[1].split("</ul>", 1)[0]
    assert sides.index("<strong>Red Company</strong>") < sides.index("<strong>Blue Battalion")
    in_order = "Red Company against Blue Battalion"
    assert f"Day 1 · {in_order} · Being fought" in client.get(_url(world)).text
    listed = client.get(reverse("campaign:battles-json", args=[world.campaign.pk])).json()
    assert [side["name"] for side in listed["battles"][0]["sides"]] == [
        "Red Company",
        "Blue Battalion",
    ]


def _json(client, world, query: str = "") -> tuple[dict, int, int]:
    """The battles' JSON at ``query``: its data, its queries and its length."""
    url = reverse("campaign:battles-json", args=[world.campaign.pk]) + query
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    return response.json(), len(queries), len(response.content)


def test_the_battles_json_pages_as_the_list_does_with_a_link_to_the_next_page(client, world):
    count = FIGHTS_A_PAGE * 2 + 3
    _fight(world, count, engine=count)
    login(client, world, "player")
    data, _, _ = _json(client, world)
    url = reverse("campaign:battles-json", args=[world.campaign.pk])
    assert [b["name"] for b in data["battles"]] == [f"Fight {count - n}" for n in range(25)]
    assert (data["count"], data["page"], data["pages"]) == (count, 1, 3)
    assert data["next"] == f"{url}?page=2" and data["previous"] is None
    # Following "next" to the end reads every battle once, the latest first.
    seen, page = [], data
    while True:
        seen += [b["id"] for b in page["battles"]]
        if page["next"] is None:
            break
        page = client.get(page["next"]).json()
    assert page["previous"] == f"{url}?page=2" and page["page"] == 3
    in_order = CampaignBattle.objects.filter(campaign=world.campaign)
    assert seen == list(
        in_order.order_by("-day", "-created_at", "-id").values_list("pk", flat=True)
    )
    assert _json(client, world, "?page=x")[0]["page"] == 1  # a bad page: the first


def test_the_battles_json_reads_the_same_few_queries_and_a_page_however_many_battles(client, world):
    login(client, world, "player")
    costs = []
    for count in (FIGHTS_A_PAGE, FIGHTS_A_PAGE * 8):
        _fight(world, count, engine=count)
        data, queries, size = _json(client, world)
        assert len(data["battles"]) == FIGHTS_A_PAGE
        costs.append((queries, size))
    (few, small), (many, big) = costs
    assert few == many <= 10
    assert big < small * 1.1
