"""The site's pages as the access walks reach them, drawn for checks that read every page (no
repeated ids, what a screen reader needs)."""

from __future__ import annotations

from collections.abc import Iterator
from unittest import mock

from django.urls import reverse

from battles.odds import odds_launch
from tests.web.campaign_world import login
from tests.web.test_access import PAGES, _object_urls
from tests.web.test_campaign_access import ROUTES


def is_page(response, ok: int = 200) -> bool:
    """A page drawn (HTML, with the status the walk expects of it; a redirect draws none)."""
    drawn = response.status_code == ok and not 300 <= ok < 400
    return drawn and response["Content-Type"].startswith("text/html")


def campaign_pages(
    client, world, role: str, *, sent: bool = False
) -> Iterator[tuple[str, str, bool]]:
    """Every campaign page of the access walk ``role`` may read, as (its label, its HTML,
    whether it is a whole page or a part htmx swaps in). ``sent``: the forms sent with bad
    input too, as they come back with their errors beside their fields."""
    login(client, world, role)
    for route in ROUTES:
        if route.method != "get" and not sent:
            continue
        ask = client.get if route.method == "get" else client.post
        response = ask(route.url(world), route.data or {}, **(route.headers or {}))
        if is_page(response, route.ok):
            yield route.label, response.content.decode(), not route.headers


def battle_pages(client, owner, scenario, battle) -> Iterator[tuple[str, str, bool]]:
    """Every page of a one-off battle and an odds run, as their owner reads them: (its
    address, its HTML, whether it is a whole page)."""
    with mock.patch("battles.odds.odds_enqueue"):
        run = odds_launch(scenario=scenario, battles=4, seed=1, created_by=owner)
    client.force_login(owner)
    for url, headers in [(reverse(name), {}) for name in PAGES] + _object_urls(battle, run):
        response = client.get(url, **headers)
        if is_page(response):
            yield url, response.content.decode(), not headers
