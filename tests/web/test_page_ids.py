"""No page carries the same element id twice.

An id names one element: a label's ``for``, a skip link, an ``aria-describedby``, htmx's
``hx-target`` and the site's own script each find the first element of that id and miss the
rest. Every page of the access walks is fetched as the GM and as a player, and as the owner of
a one-off battle.
"""

from __future__ import annotations

from collections import Counter
from html.parser import HTMLParser
from unittest import mock

import pytest
from django.urls import reverse

from battles.odds import odds_launch
from tests.web.campaign_world import login
from tests.web.test_access import PAGES, _object_urls
from tests.web.test_campaign_access import ROUTES

pytestmark = pytest.mark.django_db


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: Counter[str] = Counter()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name == "id" and value:
                self.ids[value] += 1


def repeated_ids(html: str) -> list[str]:
    parser = _Ids()
    parser.feed(html)
    return sorted(name for name, count in parser.ids.items() if count > 1)


def test_the_parser_finds_a_repeated_id():
    assert repeated_ids('<p id="a"></p><div id="b"><span id="a"></span></div>') == ["a"]
    assert repeated_ids('<p id="a"></p><p id="b"></p>') == []


def _html(response) -> bool:
    return response.status_code == 200 and response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("role", ["gm", "player"])
def test_no_campaign_page_repeats_an_id(client, world, role):
    login(client, world, role)
    looked, wrong = 0, []
    for route in ROUTES:
        if route.method != "get":
            continue
        response = client.get(route.url(world), **(route.headers or {}))
        if not _html(response):
            continue
        looked += 1
        if repeated := repeated_ids(response.content.decode()):
            wrong.append(f"{route.label}: {', '.join(repeated)}")
    assert looked > 20  # the walk reached the pages, not only refusals
    assert not wrong, "\n".join(wrong)


def test_no_battle_page_repeats_an_id(client, owner, scenario, finished_battle):
    with mock.patch("battles.odds.odds_enqueue"):
        run = odds_launch(scenario=scenario, battles=4, seed=1, created_by=owner)
    client.force_login(owner)
    urls = [(reverse(name), {}) for name in PAGES] + _object_urls(finished_battle, run)
    wrong = []
    for url, headers in urls:
        response = client.get(url, **headers)
        if _html(response) and (repeated := repeated_ids(response.content.decode())):
            wrong.append(f"{url}: {', '.join(repeated)}")
    assert not wrong, "\n".join(wrong)
