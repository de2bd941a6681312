"""A review of the clock that changes more units than a page lists gives each force's totals
and the units a page at a time; its confirmation still moves every unit on, as reviewed, and
a stale one moves none."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.models import Campaign, HistoryEntry, Unit
from campaign.selectors import battle_setup
from campaign.views import clock
from tests.web.campaign_world import login
from tests.web.paging import fill_forces

pytestmark = pytest.mark.django_db


@pytest.fixture
def shaken(world, monkeypatch):
    """Pages of 5 once more than 10 units change; 12 shaken units a force, each a Morale hit."""
    monkeypatch.setattr(battle_setup, "LIST_EVERY_UNIT", 10)
    monkeypatch.setattr(clock, "REVIEW_PAGE", 5)
    fill_forces(world, 12)
    filler = Unit.objects.filter(name__regex=r"^(Red|Blue) \d\d$")
    filler.update(morale_hits=1)
    return list(filler.values_list("pk", flat=True))


def _url(world) -> str:
    return reverse("campaign:advance", args=[world.campaign.pk])


def _shown(html: str) -> list[str]:
    return re.findall(r'<a href="/campaigns/\d+/units/\d+/">([^<]+)</a>', html)


def test_a_long_review_gives_each_forces_totals_and_pages_through_every_unit_once(
    client, world, shaken
):
    login(client, world, "gm")
    first = client.get(_url(world), {"days": "1", "reason": "rest"})
    html = first.content.decode()
    assert len(first.context["changes"]) == 5
    totals = {t["force"]: t for t in first.context["force_totals"]}
    assert totals["Red Company"]["units"] >= 12 and totals["Blue Battalion"]["units"] >= 12
    assert totals["Red Company"]["morale"] >= 12
    assert "By force: every unit that changes" in html
    count = first.context["review_page"]["count"]
    assert f"Units 1 to 5 of the {count} that change" in html
    seen, response = [], first
    while True:
        seen += [c.unit.pk for c in response.context["changes"]]
        later = response.context["review_page"]["later"]
        if not later:
            break
        assert "reason=rest" in later and "days=1" in later, "the review's own question kept"
        response = client.get(_url(world) + later)
    assert len(seen) == len(set(seen)) == count and set(shaken) <= set(seen)


def test_a_long_reviews_page_draws_only_its_units_and_their_sentences(client, world, shaken):
    """Every unit is reckoned (the confirmation moves them all), but a page draws its own."""
    Unit.objects.filter(name="Red 07").update(status="retreated")  # rallies: said in a line
    login(client, world, "gm")
    told, page = [], 1
    while page:
        response = client.get(_url(world), {"days": "1", "page": page})
        names = {c.unit.name for c in response.context["changes"]}
        assert len(names) == 5 or not response.context["review_page"]["later"]
        for line in response.context["lines"]:
            assert any(f"{name} (" in line for name in names), line
            told.append(line)
        page = page + 1 if response.context["review_page"]["later"] else None
    assert [line for line in told if "Red 07 (" in line] == [
        "Day 2, 00:00: Red 07 (Red Company): a day of R&R; rallies; carries no hits now."
    ], "once, on its own page"


def test_confirming_a_long_review_moves_every_unit_on_and_a_stale_one_none(client, world, shaken):
    login(client, world, "gm")
    review = client.get(_url(world), {"days": "1"})
    at = dict(review.context["hidden"])["reviewed_at"]
    written = HistoryEntry.objects.count()
    stale = client.post(_url(world), {"days": "1", "confirm": "yes", "reviewed_at": at + 1})
    assert stale.status_code == 400
    assert HistoryEntry.objects.count() == written
    assert Unit.objects.filter(pk__in=shaken, morale_hits=1).count() == len(shaken)
    done = client.post(_url(world), {"days": "1", "confirm": "yes", "reviewed_at": at})
    assert done.status_code == 302
    assert Campaign.objects.get(pk=world.campaign.pk).day == 2
    assert not Unit.objects.filter(pk__in=shaken, morale_hits__gt=0).exists()


def test_the_summary_after_a_long_advance_gives_each_forces_totals_and_pages_through_its_units(
    client, world, shaken, django_assert_max_num_queries
):
    login(client, world, "gm")
    review = client.get(_url(world), {"days": "1"})
    at = dict(review.context["hidden"])["reviewed_at"]
    done = client.post(_url(world), {"days": "1", "confirm": "yes", "reviewed_at": at})
    with django_assert_max_num_queries(8):
        first = client.get(done.url)
    html = first.content.decode()
    assert len(first.context["changes"]) == 5 and len(_shown(html)) == 5
    assert "By force: every unit that changed" in html and "Units that changed" in html
    count = first.context["review_page"]["count"]
    assert f"Units 1 to 5 of the {count} that changed" in html and "confirming" not in html
    totals = {t["force"]: t for t in first.context["force_totals"]}
    assert totals["Red Company"]["morale"] >= 12 and totals["Blue Battalion"]["morale"] >= 12
    seen, response = [], first
    while True:
        names = {c.unit.name for c in response.context["changes"]}
        for line in response.context["lines"]:
            assert any(f"{name} (" in line for name in names), "a page tells of its own units"
        seen += [c.unit.pk for c in response.context["changes"]]
        later = response.context["review_page"]["later"]
        if not later:
            break
        assert "after=" in later and "upto=" in later, "the summary's own question kept"
        response = client.get(reverse("campaign:advance-summary", args=[world.campaign.pk]) + later)
    assert len(seen) == len(set(seen)) == count and set(shaken) <= set(seen)


def test_the_summary_after_a_short_advance_still_lists_every_unit(client, world, monkeypatch):
    monkeypatch.setattr(clock, "REVIEW_PAGE", 5)
    fill_forces(world, 3)
    Unit.objects.filter(name__regex=r"^(Red|Blue) \d\d$").update(morale_hits=1)
    login(client, world, "gm")
    review = client.get(_url(world), {"days": "1"})
    at = dict(review.context["hidden"])["reviewed_at"]
    done = client.post(_url(world), {"days": "1", "confirm": "yes", "reviewed_at": at})
    summary = client.get(done.url)
    assert "force_totals" not in summary.context and "By force" not in summary.content.decode()
    assert len(summary.context["changes"]) >= 6


@pytest.mark.parametrize("page", ["²", "٣", "-1", "x", "9" * 30])
def test_a_page_number_no_page_could_have_opens_the_first(client, world, shaken, page):
    # "²" is a digit to str.isdigit and none to int(): it was a 500.
    login(client, world, "gm")
    first = client.get(_url(world), {"days": "1", "reason": "rest", "page": page})
    assert first.status_code == 200
    assert f"Units 1 to 5 of the {first.context['review_page']['count']}" in first.text


@pytest.mark.parametrize("page", ["advance", "clock-advance"])
def test_a_review_of_the_clock_costs_the_same_queries_for_six_units_or_a_hundred_and_thirty(
    client, world, page
):
    """Every unit the hours change is reckoned, from one read of the units: a review costs as
    many queries for a big campaign twenty evenings in as for a small one, and reads none of
    the units' histories."""
    url = reverse(f"campaign:{page}", args=[world.campaign.pk])
    asked = {"days": "1"} if page == "advance" else {"hours": "30"}
    login(client, world, "gm")

    def counted() -> tuple[int, int, str]:
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url, asked)
        assert response.status_code == 200
        histories = [q for q in queries.captured_queries if "campaign_historyentry" in q["sql"]]
        return len(queries), len(histories), response.context["lede"]

    fill_forces(world, 2)
    shaken = Unit.objects.filter(name__regex=r"^(Red|Blue) \d\d$")
    shaken.update(morale_hits=1)
    small, small_histories, _ = counted()
    card = Unit.objects.get(pk=world.unit.pk).unit_type
    Unit.objects.bulk_create(
        Unit(force=force, unit_type=card, name=f"{prefix} {n:02}", specialties=["infantry"],
             morale_hits=1)
        for force, prefix in ((world.force, "Red"), (world.enemy, "Blue"))
        for n in range(3, 66)
    )  # fmt: skip
    HistoryEntry.objects.bulk_create(
        HistoryEntry(unit=unit, day=1, kind=HistoryEntry.Kind.GM_EDIT, text=f"Note {n}",
                     before={}, after={})
        for unit in shaken for n in range(5)
    )  # fmt: skip
    large, large_histories, lede = counted()
    assert shaken.count() == 130 and "These units change" in lede
    assert large == small and large_histories == small_histories == 0
