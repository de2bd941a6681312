"""The timeline narrowed to one force or one unit: its fights and what befell its units, told
in words on the page, paged as the whole timeline is, and only for what the reader sees in
full."""

from __future__ import annotations

import html
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.models import Campaign, Engagement, StoryEntry, Unit
from tests.web.campaign_world import login, raise_units
from tests.web.paging import add_notes, fill_forces, link, unit_named

pytestmark = pytest.mark.django_db


def _url(world, query: str = "") -> str:
    return reverse("campaign:timeline", args=[world.campaign.pk]) + query


def _engage(world, name: str, day: int, attackers: list[Unit], defenders: list[Unit]) -> None:
    sides = {"attackers": [u.pk for u in attackers], "defenders": [u.pk for u in defenders]}
    Engagement.objects.create(
        campaign=world.campaign, name=name, day=day, hour=0, seed=1, round_limit=3,
        setup={"sides": sides}, events=[], rounds=2, winner="attackers",
    )  # fmt: skip


def _setting(world, day: int = 3) -> tuple[Unit, Unit]:
    """Day ``day``: an engagement of Squad 1 against Iron Wolf, another of Reserve 1 (a third
    unit of Red Company) against Iron Wolf, a GM's note and a note on Squad 1's history."""
    world.campaign.day = day
    world.campaign.save(update_fields=["day"])
    reserve = raise_units(world.force, world.unit.unit_type, 1, "Rearguard")[0]
    _engage(world, "the ford", day, [world.unit], [world.enemy_unit])
    _engage(world, "the orchard", day, [reserve], [world.enemy_unit])
    StoryEntry.objects.create(campaign=world.campaign, day=day, kind="note", text="Rain.")
    add_notes(world.unit, [day], prefix="Squad note")
    return world.unit, reserve


def test_a_unit_followed_shows_its_fights_and_what_befell_it_only(client, world):
    squad, _ = _setting(world)
    login(client, world, "gm")
    page = client.get(_url(world, f"?focus=unit-{squad.pk}")).text
    assert (
        f"Showing the story of {squad.name} (Red Company) only: the battles and engagements it "
        "fought and what befell it, without the group's changes and the GM's notes." in page
    )
    assert f'<a href="{_url(world)}">Show the whole campaign</a>' in page
    assert "The ford: Red Company won after 2 rounds" in page
    assert "Squad note 0" in page
    assert "The orchard" not in page and "Rain." not in page
    assert "Crossroads: Blue Battalion won" in page  # day 1: it fought there
    # The choice says what it shows.
    assert f'<option value="unit-{squad.pk}" selected>{squad.name}</option>' in page
    # Its unit page leads here.
    unit_page = client.get(reverse("campaign:unit", args=[world.campaign.pk, squad.pk])).text
    assert f'href="{_url(world, f"?focus=unit-{squad.pk}")}"' in unit_page


def test_a_force_followed_shows_every_fight_of_its_units_and_not_the_groups_story(client, world):
    _setting(world)
    login(client, world, "player")
    page = client.get(_url(world, f"?focus=force-{world.force.pk}")).text
    assert "Showing the story of Red Company only: the battles and engagements its units " in page
    assert "The ford:" in page and "The orchard:" in page and "Rain." not in page
    whole = client.get(_url(world)).text
    assert "Rain." in whole and 'id="timeline-focus"' not in whole
    force_page = client.get(reverse("campaign:force", args=[world.campaign.pk, world.force.pk]))
    assert f'href="{_url(world, f"?focus=force-{world.force.pk}")}"' in force_page.text


def test_a_followed_timelines_title_and_heading_name_whose_story_it_is(client, world):
    """A tab or a bookmark of a followed timeline says whose it is, as the page's heading does;
    the whole campaign's says none."""
    squad, _ = _setting(world)
    login(client, world, "spectator")
    campaign = world.campaign.name

    def title_and_heading(query: str) -> tuple[str, str]:
        page = html.unescape(client.get(_url(world, query)).text)
        title = re.search(r"<title>(.*?)</title>", page, re.S).group(1).strip()
        heading = re.search(r"<h1>(.*?)</h1>", page, re.S).group(1).strip()
        return title, heading

    assert title_and_heading(f"?focus=unit-{squad.pk}") == (
        f"Timeline of {squad.name} (Red Company) · {campaign} · Bridgehead",
        f"{campaign}: the timeline of {squad.name} (Red Company)",
    )
    assert title_and_heading(f"?focus=force-{world.force.pk}") == (
        f"Timeline of Red Company · {campaign} · Bridgehead",
        f"{campaign}: the timeline of Red Company",
    )
    assert title_and_heading("") == (
        f"Timeline · {campaign} · Bridgehead",
        f"{campaign}: the timeline",
    )


def test_a_member_may_follow_only_what_they_see_in_full(client, world):
    _setting(world)
    Campaign.objects.filter(pk=world.campaign.pk).update(other_forces_visible="summary")
    login(client, world, "player")
    page = client.get(_url(world)).text
    assert f'value="force-{world.force.pk}"' in page
    assert f'value="force-{world.enemy.pk}"' not in page
    assert world.enemy_unit.name not in re.findall(r"<option[^>]*>([^<]+)</option>", page)
    # Asked for anyway, the enemy's force or unit is refused as one that is not there is.
    for asked in (f"force-{world.enemy.pk}", f"unit-{world.enemy_unit.pk}", "unit-999999"):
        page = client.get(_url(world, f"?focus={asked}")).text
        assert (
            "That force or unit is not one whose story you can follow here, so this is the "
            "whole campaign." in page
        )
        assert "Showing the story of" not in page and "Rain." in page
    # A spectator who sees every force in summary is offered nothing to follow.
    page = login(client, world, "spectator").get(_url(world)).text
    assert 'name="focus"' not in page


def test_a_followed_timeline_pages_through_its_days_and_keeps_its_focus(client, world):
    world.campaign.day = 40
    world.campaign.save(update_fields=["day"])
    add_notes(world.unit, list(range(2, 41)), prefix="Own")
    add_notes(world.enemy_unit, list(range(2, 41)), prefix="Other")
    login(client, world, "gm")
    focus = f"focus=unit-{world.unit.pk}"
    first = client.get(_url(world, "?" + focus)).text
    earlier = link(first, "Earlier days")
    assert earlier is not None and earlier.endswith("&" + focus)
    second = client.get(earlier).text
    assert "Showing the story of Squad 1 (Red Company) only" in second
    assert "Own " in second and "Other " not in second
    later = link(second, "Later days")
    assert later is not None and later.endswith("?" + focus)
    assert client.get(later).text.count(": Own ") == first.count(": Own ")


def test_a_followed_timeline_reads_the_same_few_queries_however_big_the_campaign(client, world):
    login(client, world, "gm")
    costs = []
    card = world.unit.unit_type
    for prefix, more in (("Extra", 1), ("More", 90)):
        # One engagement, then 40 more, and 90 more units.
        for n, unit in enumerate(raise_units(world.force, card, more, prefix)[:40]):
            _engage(world, f"clash {prefix} {n}", 1, [unit], [world.enemy_unit])
        with CaptureQueriesContext(connection) as queries:
            page = client.get(_url(world, f"?focus=force-{world.force.pk}")).text
        assert "Showing the story of Red Company only" in page
        costs.append(len(queries))
    assert costs[0] == costs[1]


@pytest.mark.parametrize("page", ["timeline", "dashboard"])
def test_the_whole_timeline_and_the_dashboard_read_no_query_an_engagement(client, world, page):
    login(client, world, "gm")
    url = reverse(f"campaign:{page}", args=[world.campaign.pk])
    costs = []
    for count in (1, 11):
        Engagement.objects.all().delete()
        for n in range(count):
            _engage(world, f"clash {n}", 1, [world.unit], [world.enemy_unit])
        client.get(url)  # the first visit's own reads are not counted
        with CaptureQueriesContext(connection) as queries:
            assert "clash" in client.get(url).text.lower()
        costs.append(len(queries))
    assert costs[0] == costs[1]


def _visit(client, world, query: str = "") -> tuple[str, int]:
    with CaptureQueriesContext(connection) as queries:
        page = client.get(_url(world, query)).text
    return page, len(queries)


def test_a_big_campaigns_timeline_lists_its_forces_and_follows_a_unit_by_its_name(
    client, world, big
):
    fill_forces(world, 20)  # "Red 01"… and "Blue 01"…: more units than a list offers
    login(client, world, "gm")
    page, _ = _visit(client, world)
    assert 'value="unit-' not in page
    assert f'<option value="force-{world.force.pk}">All of Red Company</option>' in page
    assert '<input type="search" name="unit" id="id_unit" value=""' in page
    # Typed as it comes, the case of its letters aside: that unit's story, its pages narrowed.
    red = unit_named("Red 07")
    followed, _ = _visit(client, world, "?unit=  red   07 ")
    assert "Showing the story of Red 07 (Red Company) only" in followed
    assert 'name="unit" id="id_unit" value="Red 07 (Red Company)"' in followed
    # A name two forces share asks for its force; named with it, that unit is followed.
    twin = Unit.objects.create(force=world.enemy, unit_type=red.unit_type, name="Red 07")
    asked, _ = _visit(client, world, "?unit=Red+07")
    assert (
        "More than one unit is named “Red 07”: Red 07 (Blue Battalion) and Red 07 (Red "
        "Company). Name its force too, as “Red 07 (Blue Battalion)”. This is the whole campaign."
        in asked
    )
    told, _ = _visit(client, world, "?unit=red 07 (blue battalion)")
    assert "Showing the story of Red 07 (Blue Battalion) only" in told
    assert 'value="Red 07 (Blue Battalion)"' in told and f"focus=unit-{twin.pk}" not in asked
    nobody, _ = _visit(client, world, "?unit=Nobody")
    assert "No unit whose story you can follow is named “Nobody”. This is the whole campaign." in (
        nobody
    )
    # A force chosen from the list wins over a name left in the field.
    chosen, _ = _visit(client, world, f"?focus=force-{world.enemy.pk}&unit=Red+07")
    assert "Showing the story of Blue Battalion only" in chosen


def test_a_unit_another_reader_sees_in_summary_is_not_followed_by_its_name(client, world, big):
    fill_forces(world, 20)
    Campaign.objects.filter(pk=world.campaign.pk).update(other_forces_visible="summary")
    login(client, world, "player")
    page, _ = _visit(client, world, "?unit=Blue 03")
    assert "No unit whose story you can follow is named “Blue 03”." in page
    assert "All of Blue Battalion" not in page


def test_the_timelines_choice_stays_the_same_size_however_many_units(client, world, big):
    login(client, world, "gm")
    costs = []
    for count in (20, 400):
        Unit.objects.filter(name__regex=r"^(Red|Blue) \d+$").delete()
        fill_forces(world, count)
        client.get(_url(world))
        page, queries = _visit(client, world)
        choice = page.split('class="timeline-follow"', 1)[1].split("</form>", 1)[0]
        costs.append((queries, len(page), len(choice)))
    (few, small, small_choice), (many, large, large_choice) = costs
    assert few == many
    assert small_choice == large_choice and large < small * 1.05
