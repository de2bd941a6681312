"""A campaign run over many evenings: every page a GM or a player opens costs the same few
queries when the campaign doubles (its units, battles and history), and every page that shows
a window of something long stays the same size. The windows are made small here
(`paging.paged`, and the pages' own limits), so that both sizes are past every one of them."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.pages import fights, finder, timeline
from campaign.views import clock
from tests.web.campaign_world import login
from tests.web.grown import grow
from tests.web.test_campaign_access import ROUTES

pytestmark = pytest.mark.django_db

WHOLE = {
    "own force", "enemy force", "own force's cards", "enemy force's cards", "roster sorted (htmx)",
    "force json", "enemy force json", "own roster csv", "enemy roster csv",
    "export the campaign", "advance review",
}  # fmt: skip
"""What shows a whole force (at most `MAX_UNITS_PER_FORCE` units; every force grows here), the
whole campaign (its export), or a line of every unit: the Advance's review carries what it
showed of each unit it changes, so that Advance refuses if any has changed since. Longer as
they grow, in the same queries."""


def _more(world) -> list[tuple[str, str]]:
    """Pages beside the access walk's: the site's own, the timeline narrowed, a search that
    finds every unit, an earlier page of a unit's history, of its JSON, of the battles."""
    c, unit = world.campaign.pk, world.unit.pk
    timeline = reverse("campaign:timeline", args=[c])
    return [
        ("home", reverse("home")),
        ("every campaign's battles", reverse("battle-list")),
        ("timeline of a force", f"{timeline}?focus=force-{world.force.pk}"),
        ("timeline of a unit", f"{timeline}?focus=unit-{unit}"),
        ("find every unit", reverse("campaign:units", args=[c]) + "?q=R"),
        ("a unit's earlier history", reverse("campaign:unit", args=[c, unit]) + "?before=400"),
        ("a unit's earlier history json",
         reverse("campaign:unit-json", args=[c, unit]) + "?before=400"),
        ("every battle, page 2", reverse("campaign:battles", args=[c]) + "?page=2"),
    ]  # fmt: skip


def _measure(client, world) -> dict[tuple[str, str], tuple[int, int, int]]:
    """Each page a GM and a player open: (its status, its queries, its size)."""
    pages_read = [
        (route.label, route.url(world), route.headers or {})
        for route in ROUTES
        if route.method == "get"
    ] + [(label, url, {}) for label, url in _more(world)]
    seen = {}
    for role in ("gm", "player"):
        login(client, world, role)
        # A member who has visited before is told what is new since (a count more): each
        # size is measured as a returning member meets it.
        client.get(reverse("campaign:dashboard", args=[world.campaign.pk]))
        for label, url, headers in pages_read:
            with CaptureQueriesContext(connection) as queries:
                response = client.get(url, **headers)
            seen[role, label] = (response.status_code, len(queries), len(response.content))
    return seen


def test_every_page_costs_the_same_queries_and_a_window_the_same_size_when_the_campaign_doubles(
    client, world, paged, monkeypatch
):
    monkeypatch.setattr(finder, "FOUND_A_PAGE", 5)
    monkeypatch.setattr(fights, "FIGHTS_A_PAGE", 5)
    monkeypatch.setattr(timeline, "TIMELINE_LINES", 5)
    monkeypatch.setattr(clock, "REVIEW_PAGE", 5)
    grow(world)
    before = _measure(client, world)
    grow(world)
    after = _measure(client, world)
    grew = []
    for (role, label), (status, queries, size) in before.items():
        now_status, now_queries, now_size = after[role, label]
        assert now_status == status, (role, label)
        if now_queries > queries:
            grew.append(f"{role}'s {label}: {queries} → {now_queries} queries")
        if label not in WHOLE and now_size > size * 1.1 + 500:
            grew.append(f"{role}'s {label}: {size:,} → {now_size:,} bytes")
    assert not grew, "\n".join(grew)
