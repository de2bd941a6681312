"""A campaign battle speaks the campaign's names: its sides are its forces, its units are
"Iron Wolf (Blue Battalion)", each force wears one colour, and it has one home, in its
campaign."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from battles.engine import scenario as engine_scenario
from battles.engine.tables import ScenarioTables
from campaign.models import Force, Unit
from campaign.pages.sides import (
    FORCE_COLOURS,
    PALETTE,
    campaign_force_colours,
    force_colour,
    force_colours,
    scenario_side_names,
    side_force_colours,
)
from campaign.services import campaign_create, force_create
from campaign.services.battles import campaign_battle_record
from tests.web.campaign_world import login, raise_units
from tests.web.test_campaign_battles import _free_all
from tests.web.test_campaign_deploy import _zoned_map
from units.models import Ruleset

pytestmark = pytest.mark.django_db


def _battle(world):
    return reverse("campaign:battle", args=[world.campaign.pk, world.engine_battle.pk])


def test_the_report_names_sides_by_their_forces_and_units_by_name_and_force(client, world):
    page = login(client, world, "player").get(_battle(world)).text
    # Red Company fought on the scenario's "blue" side, Blue Battalion on "red".
    assert "Blue Force" not in page and "Red Force" not in page
    # Units by their own names; their force beside them where the page does not say it.
    assert "Iron Wolf" in page and "Squad 1" in page
    assert "Iron Wolf (Blue Battalion)" in page  # the map marker's description
    report = client.get(_battle(world)).context["report"]
    assert {s.id: s.name for s in report.sides} == {"blue": "Red Company", "red": "Blue Battalion"}
    assert {(u.name, u.side) for u in report.units} >= {("Iron Wolf", "Blue Battalion")}
    assert {row.luck.name for row in report.luck} == {"Red Company", "Blue Battalion"}
    assert report.frames["sides"] == ["Red Company", "Blue Battalion"]
    # The winner, if any, is a force; the objectives are held by forces.
    assert report.winner in (None, "Red Company", "Blue Battalion")
    assert all("Blue Force" not in line for line in report.objectives)


def test_each_force_wears_one_colour_and_blue_battalion_is_blue(client, world):
    assert force_colour(world.enemy) == "#1f5fa8"  # "Blue Battalion"
    assert force_colour(world.force) == "#b3261e"  # "Red Company"
    page = login(client, world, "gm").get(_battle(world)).text
    # Blue Battalion fought as the scenario's second side: the page paints side 1 blue.
    assert 'style="--side-0: #b3261e; --side-1: #1f5fa8"' in page
    dashboard = client.get(reverse("campaign:dashboard", args=[world.campaign.pk])).text
    assert 'style="background: #1f5fa8"' in dashboard and 'style="background: #b3261e"' in dashboard


def test_a_campaign_battle_has_one_home_inside_its_campaign(client, world):
    one_off = reverse("battles:detail", args=[world.engine_battle.battle_id])
    for role in ("gm", "player", "spectator"):
        response = login(client, world, role).get(one_off)
        assert response.status_code == 302, role
        assert response["Location"] == _battle(world)
    assert login(client, world, "outsider").get(one_off).status_code == 404
    # The GM launched it, but it is listed with its campaign, leading to its campaign's page,
    # and not among their one-off battles.
    listing = login(client, world, "gm").get(reverse("battle-list")).text
    assert f'href="{one_off}"' not in listing
    assert listing.count("Crossroads") == 1 and _battle(world) in listing


def test_the_battle_pages_stand_without_the_campaigns(client, world, settings):
    """Told of no home elsewhere, the battle pages show a battle to whoever may see it there:
    its launcher (here the GM) reads it in the rule texts' words; a player, not its launcher,
    is not told it exists."""
    settings.BATTLE_HOME = ""
    one_off = reverse("battles:detail", args=[world.engine_battle.battle_id])
    page = login(client, world, "gm").get(one_off)
    assert page.status_code == 200 and "Crossroads" in page.text
    assert login(client, world, "player").get(one_off).status_code == 404


def _elsewhere(world):
    """Another GM's campaign, none of the world's members in it, with a battle at the table."""
    User = get_user_model()
    gm = User.objects.create_user("elsewhere")
    campaign = campaign_create(name="Op. Elsewhere", gm=gm, ruleset=Ruleset.COMBINED_ARMS)
    card = Unit.objects.get(pk=world.unit.pk).unit_type
    ours = raise_units(force_create(campaign=campaign, owner=gm, name="Green Guard"), card, 1)
    theirs = raise_units(force_create(campaign=campaign, owner=gm, name="Grey Host"), card, 1)
    return campaign_battle_record(
        campaign=campaign,
        name="Ambush at the ford",
        sides={"attackers": ours, "defenders": theirs},
        winner="defenders",
        outcomes={u.pk: {"hits_lost": 0, "skill_lost": 0} for u in (*ours, *theirs)},
        actor=gm,
    )


def test_the_battles_page_lists_the_battles_of_ones_campaigns_leading_to_their_pages(client, world):
    elsewhere = _elsewhere(world)
    elsewhere_url = reverse("campaign:battle", args=[elsewhere.campaign_id, elsewhere.pk])
    table = reverse("campaign:battle", args=[world.campaign.pk, world.table_battle.pk])
    for role in ("gm", "co_gm", "player", "rival", "spectator"):
        page = login(client, world, role).get(reverse("battle-list")).text
        listed = page.split('id="campaign-battles-heading"')[1].split("</section>")[0]
        # Each by its name, its campaign, its day and how it went, opening its campaign's page.
        assert f'<a href="{table}">Skirmish at the mill</a>' in listed, role
        assert f'<a href="{_battle(world)}">Crossroads</a>' in listed, role
        assert "Op. Pages" in listed and "Red Company won" in listed, role
        # Never a battle of a campaign they are not in.
        assert "Ambush at the ford" not in page and elsewhere_url not in page, role
        assert "Op. Elsewhere" not in page, role
    # The other campaign's GM finds theirs, and none of the world's.
    client.force_login(elsewhere.campaign.gm)
    page = client.get(reverse("battle-list")).text
    assert f'<a href="{elsewhere_url}">Ambush at the ford</a>' in page
    assert "Grey Host won" in page and "Skirmish at the mill" not in page
    # An outsider has no campaign battles, and is told so.
    page = login(client, world, "outsider").get(reverse("battle-list")).text
    assert "No campaign battles yet." in page and "Crossroads" not in page


def test_the_battles_page_lists_the_latest_and_says_where_the_older_ones_are(
    client, world, monkeypatch
):
    from campaign.views import battles_page as views

    page = login(client, world, "gm").get(reverse("battle-list")).text
    assert "Skirmish at the mill" in page and "Crossroads" in page
    assert "These are the latest" not in page  # every one of them is here
    monkeypatch.setattr(views, "CAMPAIGN_BATTLES_LISTED", 1)
    page = client.get(reverse("battle-list")).text
    listed = page.split('id="campaign-battles-heading"')[1].split("</section>")[0]
    assert "Skirmish at the mill" in listed and "Crossroads" not in listed  # the latest
    every = reverse("campaign:battles", args=[world.campaign.pk])
    assert (
        "These are the latest 1. Every battle of a campaign is on its list of battles, page by "
        f'page, linked from its page: <a href="{every}">{world.campaign.name}</a>.' in listed
    )


def test_past_the_latest_the_battles_page_leads_to_a_campaign_whose_battles_are_all_older(
    client, world, monkeypatch
):
    """A campaign none of whose battles is among the latest listed is still linked, to its
    every battle, as is each campaign listed."""
    from datetime import timedelta

    from campaign.models import CampaignBattle
    from campaign.services import membership_set
    from campaign.views import battles_page as views

    elsewhere = _elsewhere(world)
    membership_set(campaign=elsewhere.campaign, user=world.users["player"], role="player")
    oldest = CampaignBattle.objects.order_by("created_at").first().created_at
    CampaignBattle.objects.filter(pk=elsewhere.pk).update(created_at=oldest - timedelta(days=1))
    monkeypatch.setattr(views, "CAMPAIGN_BATTLES_LISTED", 1)
    page = login(client, world, "player").get(reverse("battle-list")).text
    listed = page.split('id="campaign-battles-heading"')[1].split("</section>")[0]
    assert "Ambush at the ford" not in listed  # older than the one listed
    ours = reverse("campaign:battles", args=[world.campaign.pk])
    theirs = reverse("campaign:battles", args=[elsewhere.campaign_id])
    assert (
        "Every battle of a campaign is on its list of battles, page by page, linked from its "
        f'page: <a href="{theirs}">Op. Elsewhere</a>, <a href="{ours}">Op. Pages</a>.'
    ) in listed
    # A campaign the reader is not in is never linked.
    page = login(client, world, "rival").get(reverse("battle-list")).text
    assert theirs not in page and ours in page


def test_the_top_bar_says_its_battle_and_odds_links_are_one_offs(client, world):
    page = login(client, world, "gm").get(reverse("campaign:list")).text
    nav = page.split("<header")[1].split("</header>")[0]
    assert f'<a href="{reverse("battles:setup")}">One-off battle</a>' in nav
    assert f'<a href="{reverse("battles:odds-setup")}">One-off odds</a>' in nav
    assert "New battle" not in nav and ">Odds<" not in nav
    # The set-up page says it is outside any campaign, and where a campaign's battle is set up.
    setup = client.get(reverse("battles:setup")).text
    assert "fought outside any campaign" in setup and '"Set up a battle"' in setup
    assert f'href="{reverse("campaign:list")}"' in setup.split("</header>")[1]
    # Each tab leads to a page titled and headed in the tab's own words.
    for url, words in ((reverse("battles:setup"), "New one-off battle"),
                       (reverse("battles:odds-setup"), "One-off odds")):  # fmt: skip
        opened = client.get(url).text
        assert f"<title>{words} · Bridgehead</title>" in opened
        assert re.search(r"<h1>(.*?)</h1>", opened).group(1) == words


def test_the_dashboard_says_which_force_won(client, world):
    page = (
        login(client, world, "spectator")
        .get(reverse("campaign:dashboard", args=[world.campaign.pk]))
        .text
    )
    assert "Red Company won" in page  # the table battle: its attackers were Red Company's
    assert "attackers won" not in page


def test_the_report_has_section_links_and_every_die_opened(client, world):
    page = login(client, world, "player").get(_battle(world)).text
    nav = page.split('<nav class="report-nav"')[1].split("</nav>")[0]
    for anchor in ("#outcome-heading", "#replay-heading", "#units-heading", "#luck-heading"):
        assert anchor in nav and anchor.lstrip("#") in page, anchor
    dice = client.get(_battle(world) + "?kind=roll").text
    assert "<details open>" in dice


def test_by_default_each_force_stands_on_the_side_named_for_its_colour(client, world):
    from campaign.battle_forms import default_sides

    sides = [("blue", "Blue Force"), ("red", "Red Force")]
    colours = campaign_force_colours(world.campaign.pk)
    # Red Company is the older force, yet it does not fight as "Blue Force".
    assert default_sides([world.force, world.enemy], sides, colours) == {
        world.force.pk: "red",
        world.enemy.pk: "blue",
    }
    # Sides that name no colour are taken in turn, the emptier side first.
    plain = [("raiders", "Raid Flight"), ("garrison", "Depot Garrison")]
    third = Force(pk=world.enemy.pk + 1, name="Night Battalion")
    colours[third.pk] = PALETTE[2]
    assert default_sides([world.force, world.enemy, third], plain, colours) == {
        world.force.pk: "raiders",
        world.enemy.pk: "garrison",
        third.pk: "raiders",
    }
    setup = reverse("campaign:battle-setup", args=[world.campaign.pk])
    form = login(client, world, "gm").get(setup, {"scenario": "crossroads"}).context["form"]
    for unit in form.units:
        expected = "red" if unit.force_id == world.force.pk else "blue"
        assert form.fields[f"side_{unit.pk}"].initial == expected, unit.name


def test_the_set_up_names_each_side_by_the_forces_it_puts_on_it(client, world):
    _free_all(world)
    setup = reverse("campaign:battle-setup", args=[world.campaign.pk])
    gm = login(client, world, "gm")
    for scenario, scenario_names in (
        ("crossroads", ("Blue Force", "Red Force")),
        ("big-battle", ("Blue Army", "Red Army")),
        (f"map-{_zoned_map(world).pk}", ("Near", "Far")),
    ):
        response = gm.get(setup, {"scenario": scenario})
        page = response.text
        # The side chosen for each unit, the map's rings, zones and spots, the list of zones
        # and spots: each side by its forces, as the odds beside Launch and the battle name it.
        form = response.context["form"]
        for unit in form.units:
            side = form.fields[f"side_{unit.pk}"].initial
            assert f'<option value="{side}" selected>{unit.force.name}</option>' in page
        for force in ("Blue Battalion", "Red Company"):
            assert f"Ring: {force}" in page and f"Deployment spot of {force} at " in page
            assert f"<li>{force}: " in page, (scenario, force)
        for name in scenario_names:
            assert name not in page, (scenario, name)
        assert "Deployment spot of blue " not in page
    assert "Deployment zone of Blue Battalion" in page  # the saved map's sides have zones
    # A side the table puts no force on is called by its place, not by the scenario's name
    # for it, which no force bears; a mixed one names both forces. The page says so in words.
    data = {"scenario": "crossroads", "turn_limit": "4"}
    for unit in form.units:
        data.update({f"side_{unit.pk}": "blue", f"x_{unit.pk}": "", f"y_{unit.pk}": ""})
    refused = gm.post(setup, data)
    assert refused.context["form"].side_labels() == {
        "blue": "Blue Battalion and Red Company",
        "red": "the second side",
    }
    assert '<option value="red">The second side</option>' in refused.text
    assert "No unit is on the second side: put at least one there." in refused.text
    assert "Red Force" not in refused.text


def test_a_side_is_named_by_its_forces_else_by_its_place_and_never_twice_alike(world):
    sides = [{"id": "blue", "name": "Blue Force"}, {"id": "red", "name": "Red Force"}]
    assert scenario_side_names(sides, {"blue": [world.force]}) == {
        "blue": "Red Company",
        "red": "the second side",
    }
    assert scenario_side_names(sides, {}) == {"blue": "the first side", "red": "the second side"}
    # One force split over both sides: each side keeps the scenario's name beside the force's.
    assert scenario_side_names(sides, {"blue": [world.force], "red": [world.force]}) == {
        "blue": "Red Company (Blue Force)",
        "red": "Red Company (Red Force)",
    }


def test_the_luck_tables_differences_are_signed_with_a_real_minus(client, world):
    from battles.report_context import difference_text

    assert [difference_text(Fraction(n, 400)) for n in (192, -208, 0, -1)] == [
        "+0.48",
        "\u22120.52",
        "0.00",
        "0.00",
    ]
    page = login(client, world, "player").get(_battle(world)).text
    cells = re.findall(r'data-label="(?:Damage|Suppressions): difference">([^<]*)<', page)
    assert cells and not [c for c in cells if "-" in c], cells
    assert any(c.startswith("\u2212") for c in cells), cells  # the battle has one below par


def test_the_battles_page_offers_a_campaign_battle_only_to_those_who_set_them_up(client, world):
    setup = reverse("campaign:battle-setup", args=[world.campaign.pk])
    for role in ("gm", "co_gm"):
        page = login(client, world, role).get(reverse("battle-list")).text
        assert f'Set up a battle in <a href="{setup}">Op. Pages</a>.' in page, role
    for role in ("player", "rival", "spectator", "outsider"):
        page = login(client, world, role).get(reverse("battle-list")).text
        # Not a link to a page that would refuse them: who sets battles up, and where they land.
        assert setup not in page and "Set up a battle" not in page, role
        assert "A campaign's GM sets up its battles; each is listed here once launched." in page


def test_naming_the_sides_builds_the_scenarios_tables_once_per_report(
    client, world, monkeypatch, settings
):
    """The report calls the sides by their forces without working out the scenario's cards a
    second time (`Scenario.tables`: a third of a 40-a-side battle's outcome page)."""
    settings.PAGE_CACHE_SECONDS = 0  # every visit draws its page
    built: list[str] = []

    class Counted(ScenarioTables):
        def __init__(self, scenario):
            built.append(scenario.sides[0].name)
            super().__init__(scenario)

    monkeypatch.setattr(engine_scenario, "ScenarioTables", Counted)
    login(client, world, "gm")
    for _ in range(2):
        built.clear()
        report = client.get(_battle(world)).context["report"]
        assert [s.name for s in report.sides] == ["Red Company", "Blue Battalion"]
        assert report.frames["sides"] == ["Red Company", "Blue Battalion"]
        assert len(built) == 1


def test_no_two_forces_of_a_campaign_wear_one_colour_while_the_palette_lasts():
    """On the main line before, a colour came from a force's id alone: Dana's Dragoons, raised
    first in a new site, wore red (the palette's second), as Red Legion did by its name, and
    the battle set-up drew both sides red."""
    assert force_colours([(1, "Dana's Dragoons"), (2, "Red Legion")]) == {
        1: PALETTE[0],
        2: FORCE_COLOURS["red"],
    }
    # Names first (of two saying one colour, the one raised first), then the rest in order.
    raised = [(5, "Night Battalion"), (3, "Blue Battalion"), (4, "Blue Guard"), (9, "Hussars")]
    assert force_colours(raised) == {3: PALETTE[0], 4: PALETTE[1], 5: PALETTE[2], 9: PALETTE[3]}
    many = force_colours((pk, f"Company {pk}") for pk in range(1, 10))
    assert len(set(many.values())) == len(PALETTE) and many[8] == many[1]
    # Two sides never look alike, even where two forces do.
    assert side_force_colours([("a", PALETTE[1]), ("b", PALETTE[1])]) == {
        "a": PALETTE[1],
        "b": PALETTE[0],
    }
    assert side_force_colours([("a", PALETTE[1]), ("b", "")]) == {"a": PALETTE[1], "b": PALETTE[0]}
    assert side_force_colours([("a", ""), ("b", "")]) == {"a": PALETTE[0], "b": PALETTE[1]}
