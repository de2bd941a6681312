"""A campaign with more units ready than a page lists asks a check's units by name rather than
listing every unit in each of its fields, counts the units out of action by force, and shows
its rolls a page at a time: a few queries and rows whatever its size."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from campaign.models import TableRoll, Unit
from campaign.table_forms.checks import CANNOT_ALONE_UNNAMED
from tests.web.campaign_world import login
from tests.web.paging import fill_forces, rows_read, unit_named

pytestmark = pytest.mark.django_db


def _unit_of(force, name: str) -> Unit:
    return Unit.objects.get(force=force, name=name)


def _url(world, what: str = "checks") -> str:
    return reverse(f"campaign:{what}", args=[world.campaign.pk])


@pytest.mark.parametrize("count", [20, 200])
def test_a_big_campaigns_checks_page_lists_no_unit_in_the_same_few_queries_and_rows(
    client, world, big, django_assert_max_num_queries, count
):
    fill_forces(world, count)
    Unit.objects.filter(name="Blue 03").update(status="destroyed")
    login(client, world, "gm")
    with django_assert_max_num_queries(16), rows_read() as rows:
        response = client.get(_url(world))
    assert response.status_code == 200
    html = response.content.decode()
    assert rows[0] < 80, rows[0]
    assert "Red 01" not in html and "Blue 03" not in html, "no unit listed, none named"
    assert html.count("<option") < 60, "only the skills' and cards' choices"
    roster = reverse("campaign:force", args=[world.campaign.pk, world.enemy.pk])
    assert f'Out of action in <a href="{roster}">Blue Battalion</a>: ' in html
    # Neither listed nor judged one by one: who cannot check alone is said in words, under the
    # skill check and the contest.
    assert html.count(CANNOT_ALONE_UNNAMED) == 2


def test_a_small_campaigns_checks_still_offer_every_ready_unit(client, world):
    fill_forces(world, 3)
    html = login(client, world, "gm").get(_url(world)).content.decode()
    assert re.search(r'<option value="\d+">Red 01 \(Red Company\)</option>', html)


def test_a_check_by_name_rolls_for_the_units_named(client, world, big):
    fill_forces(world, 20)
    login(client, world, "gm")
    rolled = client.post(
        _url(world, "skill-check"),
        {"lead": "red 05", "helpers": "Red 06\n  Red 07 (Red Company) \n", "dc": "12",
         "seed": "3", "reason": "Scouting"},
    )  # fmt: skip
    assert rolled.status_code == 302, rolled.context["skill_form"].errors
    roll = TableRoll.objects.latest("pk")
    assert "Red 05" in roll.summary
    assert roll.setup["units"] == [unit_named(n).pk for n in ("Red 05", "Red 06", "Red 07")]


@pytest.mark.parametrize("key", [str(2**63), str(-(2**63) - 1), "-1", "+5", "1e3", "x", "²"])
def test_a_helper_key_no_unit_could_have_is_refused_in_words_and_writes_nothing(client, world, key):
    # Listed helpers are sent by their keys; a key out of the database's range must be refused
    # before the database sees it (SQLite raised OverflowError on -2**63 - 1: a 500).
    fill_forces(world, 3)
    login(client, world, "gm")
    lead = str(unit_named("Red 01").pk)
    data = {"lead": lead, "helpers": [key], "dc": "12", "seed": "3", "reason": "Scouting"}
    refused = client.post(_url(world, "skill-check"), data)
    assert refused.status_code == 400
    assert refused.context["skill_form"].errors["helpers"] == [
        f"“{key}” names no unit of this campaign: choose one from the list."
    ]
    assert not TableRoll.objects.exists()


def test_a_name_two_forces_share_asks_for_the_force_and_bad_names_write_nothing(client, world, big):
    fill_forces(world, 20)
    card = Unit.objects.get(pk=world.unit.pk).unit_type
    for force in (world.force, world.enemy):
        Unit.objects.create(force=force, unit_type=card, name="Twin", specialties=["infantry"])
    Unit.objects.filter(name="Blue 03").update(status="destroyed")
    login(client, world, "gm")
    data = {"lead": "Twin", "helpers": "Blue 03\nNobody", "dc": "12", "seed": "3"}
    refused = client.post(_url(world, "skill-check"), data)
    assert refused.status_code == 400
    errors = refused.context["skill_form"].errors
    assert errors["lead"] == [
        "More than one unit is named “Twin”: Twin (Blue Battalion) and Twin (Red Company). "
        "Name its force too, as “Twin (Blue Battalion)”."
    ]
    assert errors["helpers"] == [
        "Blue 03 (Blue Battalion) cannot make a check: it is destroyed",
        "No unit of the campaign is named “Nobody”.",
    ]
    assert not TableRoll.objects.exists()
    data.update(lead="twin (red company)", helpers="")
    assert client.post(_url(world, "skill-check"), data).status_code == 302
    assert TableRoll.objects.get().setup["units"] == [_unit_of(world.force, "Twin").pk]


def test_a_check_by_name_finds_units_and_forces_whose_names_hold_brackets(client, world, big):
    """Any name a unit may have is found, brackets and all, typed alone or as the suggestions
    label it, "Recon (North) (Red Company)"; a label is read first, so "Recon (North)" is
    Recon of a force called North, and Red Company's Recon (North) is named by its label."""
    from campaign.services import force_create

    fill_forces(world, 20)
    card = Unit.objects.get(pk=world.unit.pk).unit_type
    north = force_create(campaign=world.campaign, owner=world.users["gm"], name="North")
    east = force_create(campaign=world.campaign, owner=world.users["gm"], name="Scouts (East)")
    made = {
        (force.name, name): Unit.objects.create(
            force=force, unit_type=card, name=name, specialties=["infantry"]
        ).pk
        for force, name in (
            (world.force, "Recon (North)"),
            (north, "Recon"),
            (east, "Pathfinders (A)"),
            (world.force, "Recon  South"),
            (world.enemy, "Lone (Wolf)"),
        )
    }
    login(client, world, "gm")
    data = {"lead": "Recon (North) (Red Company)", "dc": "12", "seed": "3",
            "helpers": "recon (north)\nPathfinders (A) (Scouts (East))\nRecon  South\n"
                       "Lone (Wolf)"}  # fmt: skip
    rolled = client.post(_url(world, "skill-check"), data)
    assert rolled.status_code == 302, rolled.context["skill_form"].errors
    assert TableRoll.objects.get().setup["units"] == [
        made[("Red Company", "Recon (North)")],
        made[("North", "Recon")],
        made[("Scouts (East)", "Pathfinders (A)")],
        made[("Red Company", "Recon  South")],
        made[("Blue Battalion", "Lone (Wolf)")],
    ]


def test_a_contest_by_name_and_its_helper_lines_are_bounded(client, world, big, monkeypatch):
    fill_forces(world, 20)
    login(client, world, "gm")
    from campaign.table_forms import named_units

    monkeypatch.setattr(named_units, "HELPERS_AT_MOST", 2)
    data = {"active": "Red 01", "active_helpers": "Red 02\nRed 03\nRed 04",
            "resisting": "Blue 01", "resisting_helpers": "", "seed": "1"}  # fmt: skip
    refused = client.post(_url(world, "contest"), data)
    assert refused.status_code == 400
    assert refused.context["contest_form"].errors["active_helpers"] == [
        "Name at most 2 units helping."
    ]
    data["active_helpers"] = "Red 02"
    assert client.post(_url(world, "contest"), data).status_code == 302
    roll = TableRoll.objects.get()
    assert roll.setup["active"] == [unit_named("Red 01").pk, unit_named("Red 02").pk]
    assert roll.setup["resisting"] == [unit_named("Blue 01").pk]


def test_the_rolls_are_shown_a_page_at_a_time(client, world, monkeypatch):
    from campaign.views import checks

    monkeypatch.setattr(checks, "ROLLS_SHOWN", 3)
    TableRoll.objects.bulk_create(
        TableRoll(campaign=world.campaign, kind="skill_check", day=1, hour=0, seed=n, setup={},
                  result={}, summary=f"Roll {n}")
        for n in range(1, 8)
    )  # fmt: skip
    login(client, world, "gm")
    seen, url = [], _url(world)
    while url:
        html = client.get(url).content.decode()
        seen += re.findall(r"Roll (\d+)", html)
        found = re.search(r'<a href="([^"]+)">Earlier rolls</a>', html)
        url = found and found[1].replace("&amp;", "&")
    assert seen == [str(n) for n in range(7, 0, -1)], "each roll once, the latest first"
    assert "Latest rolls" in html


def _rolls(world, names: list[str]) -> None:
    """A check for each unit named, in order: "Roll 0", "Roll 1"..."""
    TableRoll.objects.bulk_create(
        TableRoll(campaign=world.campaign, kind="skill_check", day=1, hour=0, seed=n,
                  setup={"units": [unit_named(name).pk]}, result={}, summary=f"Roll {n}")
        for n, name in enumerate(names)
    )  # fmt: skip


@pytest.fixture
def fogged(world):
    """Other players' forces seen in summary only: a player reads their own forces' rolls."""
    world.campaign.other_forces_visible = "summary"
    world.campaign.save(update_fields=["other_forces_visible"])


@pytest.mark.parametrize("count", [20, 200])
def test_a_players_rolls_are_found_in_the_same_few_queries_and_rows(
    client, world, big, fogged, django_assert_max_num_queries, count
):
    fill_forces(world, count)
    _rolls(world, ["Red 01", *[f"Blue {n:02}" for n in range(1, 21)], "Red 02"])
    login(client, world, "player")
    with django_assert_max_num_queries(14), rows_read() as rows:
        response = client.get(_url(world))
    html = response.content.decode()
    assert re.findall(r"Roll (\d+)", html) == ["21", "0"], "their own rolls, the latest first"
    assert rows[0] < 80, rows[0]


def test_a_player_pages_through_a_long_run_of_others_rolls_to_every_one_of_theirs_once(
    client, world, fogged, monkeypatch
):
    """Past ``ROLLS_READ`` rolls read, a page shows what it found and leads on to the rest."""
    from campaign.views import checks

    monkeypatch.setattr(checks, "ROLLS_SHOWN", 2)
    monkeypatch.setattr(checks, "ROLLS_READ", 4)
    fill_forces(world, 12)
    names = ["Red 01", "Red 02", *[f"Blue {n:02}" for n in range(1, 11)], "Red 03", "Blue 11"]
    _rolls(world, names)
    TableRoll.objects.create(
        campaign=world.campaign, kind="contest", day=1, hour=0, seed=1, result={},
        setup={"active": [unit_named("Blue 12").pk], "resisting": [unit_named("Red 12").pk]},
        summary="Roll contest",
    )  # fmt: skip
    login(client, world, "player")
    seen, url, pages, said = [], _url(world), [], []
    while url:
        html = client.get(url).content.decode()
        said.append("No roll here is for units you can see" in html)
        pages.append(re.findall(r"Roll (\w+)", html))
        seen += pages[-1]
        found = re.search(r'<a href="([^"]+)">Earlier rolls</a>', html)
        url = found and found[1].replace("&amp;", "&")
    assert seen == ["contest", "12", "1", "0"], "each of theirs once, the latest first"
    assert [page == [] for page in pages] == said and any(said), (
        "a page of others' rolls only says so and leads on"
    )


def test_a_campaign_of_128_units_checks_page_suggests_each_unit_once_rather_than_six_times(
    client, world
):
    """Above `CHECK_LISTS_AT_MOST` ready units a check's units are typed by name: every ready
    unit is suggested once, in one list all three sides share, rather than as a choice and a box
    in each side's fields (some 800 of them, the page seconds to draw)."""
    fill_forces(world, 64)
    Unit.objects.filter(name="Blue 03").update(status="destroyed")
    html = login(client, world, "gm").get(_url(world)).content.decode()
    ready = Unit.objects.filter(force__campaign=world.campaign, status="ready")
    assert ready.count() > 128
    suggested = re.search(r'<datalist id="check-units">(.*?)</datalist>', html, re.S)[1]
    named = re.findall(r'<option value="([^"]*)">', suggested)
    assert sorted(named) == sorted(f"{u.name} ({u.force.name})" for u in ready)
    assert named.index("Red 09 (Red Company)") + 1 == named.index("Red 10 (Red Company)")
    assert html.count("<option") < len(named) + 60, "only the skills' and cards' choices besides"
    assert 'type="checkbox"' not in html.split('id="skill-form"')[1].split('id="requisition')[0]
    for field in ("lead", "active", "resisting"):
        assert re.search(rf'<input type="text" name="{field}" list="check-units"', html), field
    # The unit destroyed is not suggested: it is named among those left out, and why.
    assert "Blue 03 (Blue Battalion)" not in named
    assert "Destroyed: Blue 03 (Blue Battalion)" in html
