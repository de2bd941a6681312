"""Every battle URL as anonymous, owner, another user and a superuser.

Anonymous users are sent to log in; a battle or odds run belongs to whoever launched it, and
anyone else gets a 404 — the same answer as for a battle that does not exist.
"""

from __future__ import annotations

from unittest import mock

import pytest
from django.urls import reverse

from battles.odds import odds_launch

from .conftest import PASSWORD

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def odds_run(owner, scenario):
    with mock.patch("battles.odds.odds_enqueue"):
        return odds_launch(scenario=scenario, battles=4, seed=1, created_by=owner)


def _object_urls(battle, run) -> list[tuple[str, dict]]:
    return [
        (reverse("battles:detail", args=[battle.pk]), {}),
        (reverse("battles:detail", args=[battle.pk]) + "?unit=b-tank", HTMX),
        (reverse("battles:progress", args=[battle.pk]), HTMX),
        (reverse("battles:log-json", args=[battle.pk]), {}),
        (reverse("battles:odds-detail", args=[run.pk]), {}),
        (reverse("battles:odds-progress", args=[run.pk]), HTMX),
    ]


PAGES = [
    "battle-list",
    "battles:one-off-list",
    "battles:odds-list",
    "battles:setup",
    "battles:odds-setup",
]


def test_it_sends_anonymous_users_to_log_in_from_every_url(client, finished_battle, odds_run):
    urls = [(reverse(name), {}) for name in PAGES] + _object_urls(finished_battle, odds_run)
    for url, headers in urls:
        response = client.get(url, **headers)
        if headers:
            # htmx is told to load the login page whole (config/htmx.py), not to swap it in.
            assert response.status_code == 200, url
            assert response["HX-Redirect"].startswith(reverse("login")), url
            continue
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login")), url
    for name in ("battles:setup", "battles:odds-setup"):
        response = client.post(reverse(name), {"scenario": "crossroads"})
        assert response.status_code == 302


def test_it_shows_the_owner_everything(client, owner, finished_battle, odds_run):
    client.force_login(owner)
    for name in PAGES:
        assert client.get(reverse(name)).status_code == 200, name
    for url, headers in _object_urls(finished_battle, odds_run):
        assert client.get(url, **headers).status_code in (200, 286), url


def test_it_answers_404_to_anyone_else(client, other, finished_battle, odds_run):
    client.force_login(other)
    for name in PAGES:
        assert client.get(reverse(name)).status_code == 200, name
    for url, headers in _object_urls(finished_battle, odds_run):
        assert client.get(url, **headers).status_code == 404, url


def test_another_users_battle_looks_exactly_like_a_missing_one(client, other, finished_battle):
    client.force_login(other)
    theirs = client.get(reverse("battles:detail", args=[finished_battle.pk]))
    missing = client.get(reverse("battles:detail", args=[finished_battle.pk + 1000]))
    assert theirs.status_code == missing.status_code == 404
    assert theirs.content == missing.content


def test_a_superuser_may_open_any_battle(client, superuser, finished_battle, odds_run):
    client.force_login(superuser)
    for url, headers in _object_urls(finished_battle, odds_run):
        assert client.get(url, **headers).status_code in (200, 286), url


def test_the_lists_show_only_ones_own_battles(client, owner, other, finished_battle, odds_run):
    mine = [
        reverse("battles:detail", args=[finished_battle.pk]),
        reverse("battles:odds-detail", args=[odds_run.pk]),
    ]
    lists = ["battle-list", "battles:one-off-list", "battles:odds-list"]
    client.force_login(other)
    for name in lists:
        page = client.get(reverse(name)).text
        assert not any(url in page for url in mine), name
    client.force_login(owner)
    pages = "".join(client.get(reverse(name)).text for name in lists)
    assert pages.count(mine[0]) == 2 and pages.count(mine[1]) == 2


def test_the_pages_refuse_other_methods(client, owner, finished_battle):
    client.force_login(owner)
    assert client.post(reverse("battles:detail", args=[finished_battle.pk])).status_code == 405
    assert client.delete(reverse("battles:setup")).status_code == 405


def test_logging_in_lands_on_your_campaigns(client, owner):
    response = client.post(reverse("login"), {"username": "owner", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == reverse("campaign:list")
    # A page asked for before logging in still wins over the default.
    wanted = reverse("battle-list")
    response = client.post(
        reverse("login") + f"?next={wanted}", {"username": "owner", "password": PASSWORD}
    )
    assert response["Location"] == wanted
