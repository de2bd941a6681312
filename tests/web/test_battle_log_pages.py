"""A long battle's log a few turns at a time: each page of whole turns holds at most
``LOG_PAGE_EVENTS`` events, Earlier and Later turns lead through all of it, and the replay plays
the page's turns; a battle whose log fits on one page shows it all, as before."""

from __future__ import annotations

import json
import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.web.paging import link

pytestmark = pytest.mark.django_db

PAGE = 40
"""Events a page holds in these tests: Crossroads' log fills several."""


def _page_size(monkeypatch, size: int) -> None:
    """Pages of ``size`` events from now on (the pages drawn before are not kept)."""
    monkeypatch.setattr("battles.report_context.LOG_PAGE_EVENTS", size)
    cache.clear()


def _get(client, battle, query: str = "") -> str:
    return client.get(reverse("battles:detail", args=[battle.pk]) + query).content.decode()


def _events(page: str) -> list[str]:
    """The log entries and dice the page draws, by their ids."""
    return re.findall(r'<li class="(?:entry|die)[^"]*"[^>]*id="(ev-\d+)"', page)


def _turns(page: str) -> list[str]:
    return re.findall(r'<section class="turn" aria-label="([^"]+)">', page)


def _frames(page: str) -> list[dict]:
    found = re.search(r'<script id="replay-frames" type="application/json">(.*?)</script>', page)
    return json.loads(found.group(1))["frames"]


def test_a_battle_whose_log_fits_on_a_page_shows_it_all(owner_client, finished_battle):
    page = _get(owner_client, finished_battle)
    assert "Earlier turns" not in page and "Later turns" not in page
    assert "the log is shown a few turns at a time" not in page
    total = int(re.search(r"Showing (\d+) of (\d+) events", page).group(2))
    assert len(_events(page)) == total
    assert {f["turn"] for f in _frames(page)} == {0, *range(1, finished_battle.outcome.turns + 1)}


def test_a_long_log_is_read_a_page_of_turns_at_a_time(
    owner_client, finished_battle, monkeypatch, django_assert_max_num_queries
):
    whole = _get(owner_client, finished_battle)
    everything = _events(whole)
    _page_size(monkeypatch, PAGE)
    seen: list[str] = []
    turns: list[str] = []
    query, pages = "", 0
    while query is not None:
        with django_assert_max_num_queries(12):
            page = _get(owner_client, finished_battle, query)
        shown = _events(page)
        on_page = _turns(page)
        # Whole turns, as many as hold a page's events (one turn alone may hold more).
        assert len(shown) <= PAGE or len(on_page) == 1
        assert "the log is shown a few turns at a time, the whole of it in the download" in page
        # The replay plays the page's turns, from the deployment.
        numbers = {int(t.split()[-1]) for t in on_page if t.startswith("Turn ")}
        assert {f["turn"] for f in _frames(page)} - {0} <= numbers
        seen += shown
        turns += on_page
        pages += 1
        later = link(page, "Later turns")
        query = later[later.index("?") :].split("#")[0] if later else None
        if query is not None:
            # Each page but the first leads back.
            nxt = _get(owner_client, finished_battle, query)
            assert link(nxt, "Earlier turns")
    assert pages > 2
    # Nothing is lost between pages, nothing shown twice.
    assert seen == everything
    assert turns == _turns(whole)


def test_the_earlier_link_leads_to_the_turns_before(owner_client, finished_battle, monkeypatch):
    _page_size(monkeypatch, PAGE)
    first = _get(owner_client, finished_battle)
    later = link(first, "Later turns")
    second = owner_client.get(later).content.decode()
    earlier = link(second, "Earlier turns")
    back = owner_client.get(earlier).content.decode()
    assert _turns(back)[0] == _turns(first)[0]
    assert "Earlier turns" not in back


def test_a_turn_that_is_no_turn_of_the_battle_shows_the_first_page(
    owner_client, finished_battle, monkeypatch
):
    _page_size(monkeypatch, PAGE)
    first = _get(owner_client, finished_battle)
    for query in ("?turn=999", "?turn=x", "?turn=-1"):
        assert _turns(_get(owner_client, finished_battle, query)) == _turns(first)


def test_the_campaign_battle_page_pages_its_log_too(client, monkeypatch):
    from tests.web.campaign_world import build_world

    world = build_world()
    client.force_login(world.users["gm"])
    url = reverse("campaign:battle", args=[world.campaign.pk, world.engine_battle.pk])
    whole = client.get(url).content.decode()
    _page_size(monkeypatch, 10)
    page = client.get(url).content.decode()
    if len(_turns(whole)) > 1:
        assert link(page, "Later turns")
        assert len(_turns(page)) < len(_turns(whole))
    assert "Download the log (JSON)" in page


def test_the_engines_version_stands_beside_the_logs_download(owner_client, finished_battle):
    """Not in the story's opening line: beside the log it wrote, for whoever checks it, in
    "About this record"."""
    page = _get(owner_client, finished_battle)
    version = finished_battle.engine_version
    about = " ".join(page.split()).split("Download the log (JSON)</a>")[1]
    said = r"^ · \d+ events </p> .*<summary>About this record</summary> <p>Written by engine "
    assert re.search(said + re.escape(version), about)
    assert f"engine {version})." not in page
