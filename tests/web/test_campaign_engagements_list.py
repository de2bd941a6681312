"""The campaign's list of every engagement: a page at a time, linked from where engagements
appear, each with its sides and outcome, in the same few queries however many there are."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.models import Engagement
from campaign.pages.fights import FIGHTS_A_PAGE as ENGAGEMENTS_A_PAGE
from tests.web.campaign_world import login

pytestmark = pytest.mark.django_db


def _fight(world, count: int) -> None:
    sides = {"attackers": [world.unit.pk], "defenders": [world.enemy_unit.pk]}
    Engagement.objects.bulk_create(
        Engagement(
            campaign=world.campaign, name=f"Clash {n}", day=n, hour=0, seed=n, round_limit=3,
            setup={"sides": sides}, events=[], rounds=2, winner="attackers",
        )
        for n in range(1, count + 1)
    )  # fmt: skip


def _url(world, query: str = "") -> str:
    return reverse("campaign:engagements", args=[world.campaign.pk]) + query


def test_every_engagement_is_listed_page_by_page_the_latest_first(client, world):
    count = ENGAGEMENTS_A_PAGE * 2 + 3
    _fight(world, count)
    login(client, world, "spectator")
    first = client.get(_url(world)).text
    assert f"Engagements 1 to {ENGAGEMENTS_A_PAGE} of {count}, the latest first: page 1 of 3." in (
        first
    )
    assert (
        f'>Clash {count}</a><br><span class="small">Day {count} · Red Company against Blue '
        "Battalion · Red Company won after 2 rounds</span></li>" in first
    )
    assert f">Clash {count - ENGAGEMENTS_A_PAGE}<" not in first
    assert '<a href="?page=2">Earlier engagements</a>' in first and "Later engagements" not in first
    last = client.get(_url(world, "?page=3")).text
    assert ">Clash 1</a><br>" in last and ">Clash 4<" not in last
    assert '<a href="?page=2">Later engagements</a>' in last and "Earlier engagements" not in last
    # A page past the last, or no page at all, is still a page of the list.
    assert ">Clash 1<" in client.get(_url(world, "?page=99")).text
    assert f">Clash {count}<" in client.get(_url(world, "?page=x")).text


def test_the_list_reads_the_same_few_queries_however_many_engagements(client, world):
    login(client, world, "player")
    costs = []
    for count in (1, ENGAGEMENTS_A_PAGE * 4):
        Engagement.objects.all().delete()
        _fight(world, count)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(_url(world)).status_code == 200
        costs.append(len(queries))
    assert costs[0] == costs[1] <= 8


def test_the_dashboard_and_the_engagements_page_lead_to_the_list(client, world):
    _fight(world, 1)
    login(client, world, "player")
    link = f'<a href="{_url(world)}">'
    assert link in client.get(reverse("campaign:dashboard", args=[world.campaign.pk])).text
    assert link in client.get(reverse("campaign:engagement-setup", args=[world.campaign.pk])).text


def test_an_outsider_reads_no_list(client, world):
    assert login(client, world, "outsider").get(_url(world)).status_code == 404
