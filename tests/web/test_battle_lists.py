"""A user's one-off battles and odds runs: the Battles page lists the latest of each and, past
them, leads to every one, a page at a time, the latest first."""

from __future__ import annotations

import re
from unittest import mock

import pytest
from django.urls import reverse

from battles.odds import odds_launch
from battles.selectors import LISTED
from battles.services import battle_launch

pytestmark = pytest.mark.django_db


def _more_like(row, count: int, noun: str, first: int = 2, **changed) -> None:
    """``count`` more rows like ``row`` (its owner, its scenario), named "<noun> <first>" on,
    each newer than the one before, in one query."""
    fields = {f.attname: getattr(row, f.attname) for f in row._meta.concrete_fields}
    del fields["id"]
    fields["request_key"] = None
    made = [
        type(row)(**{**fields, "name": f"{noun} {n}", **changed})
        for n in range(first, first + count)
    ]
    type(row).objects.bulk_create(made)


def _names(page: str, noun: str) -> list[int]:
    """The numbers of the rows named "<noun> <n>" a page links, in its order."""
    return [int(n) for n in re.findall(rf">{noun} (\d+)</a>", page)]


def test_past_the_latest_the_battles_page_leads_to_every_one_off_battle(
    owner_client, owner, scenario
):
    first = battle_launch(name="Drill 1", scenario=scenario, seed=1, created_by=owner)
    _more_like(first, LISTED - 1, "Drill")
    # A battle fought for a campaign is the campaign's to list, never a one-off.
    _more_like(first, 1, "Raid", notify_task="campaign.tasks.campaign_battle_finished")
    battles = owner_client.get(reverse("battle-list")).text
    assert _names(battles, "Drill") == list(range(LISTED, 0, -1))
    assert "Raid" not in battles and "These are the latest" not in battles
    _more_like(first, 1, "Drill", first=LISTED + 1)
    battles = owner_client.get(reverse("battle-list")).text
    assert _names(battles, "Drill") == list(range(LISTED + 1, 1, -1))
    every = reverse("battles:one-off-list")
    assert (
        f'These are the latest {LISTED}: <a href="{every}">every one-off battle of yours</a>, '
        "page by page." in battles
    )
    one = owner_client.get(every).text
    assert f"Battles 1 to {LISTED} of {LISTED + 1}, the latest first: page 1 of 2." in one
    assert _names(one, "Drill") == list(range(LISTED + 1, 1, -1))
    assert '<a href="?page=2">Earlier battles</a>' in one and "Later battles" not in one
    two = owner_client.get(every + "?page=2").text
    assert f"Battles {LISTED + 1} to {LISTED + 1} of {LISTED + 1}" in two
    assert _names(two, "Drill") == [1] and '<a href="?page=1">Later battles</a>' in two
    assert "Raid" not in one + two
    # A page asked for that is not one is the first; one past the last, the last.
    assert _names(owner_client.get(every + "?page=first").text, "Drill") == _names(one, "Drill")
    assert _names(owner_client.get(every + "?page=9").text, "Drill") == [1]


def test_past_the_latest_the_battles_page_leads_to_every_odds_run(owner_client, owner, scenario):
    with mock.patch("battles.odds.odds_enqueue"):
        first = odds_launch(scenario=scenario, name="Odds 1", battles=4, seed=1, created_by=owner)
    _more_like(first, LISTED, "Odds")
    battles = owner_client.get(reverse("battle-list")).text
    assert _names(battles, "Odds") == list(range(LISTED + 1, 1, -1))
    every = reverse("battles:odds-list")
    assert f'<a href="{every}">every odds run of yours</a>, page by page.' in battles
    one = owner_client.get(every).text
    assert f"Odds runs 1 to {LISTED} of {LISTED + 1}, the latest first: page 1 of 2." in one
    two = owner_client.get(every + "?page=2").text
    assert _names(two, "Odds") == [1] and '<a href="?page=1">Later odds runs</a>' in two


def test_a_short_list_says_how_many_it_holds(owner_client, owner, scenario):
    battle_launch(name="Drill 1", scenario=scenario, seed=1, created_by=owner)
    one = owner_client.get(reverse("battles:one-off-list")).text
    assert "1 battle, the latest first." in one and 'class="pager"' not in one
    empty = owner_client.get(reverse("battles:odds-list")).text
    assert "No odds runs yet." in empty
