"""The table's pages as a member who sees other forces only in summary (the rule is
`campaign.access.Viewer.sight`; every page is walked in tests/web/test_campaign_access.py)."""

from __future__ import annotations

import html
import json

import pytest
from django.urls import reverse

from battles.engine import parse_scenario
from campaign.models import Campaign
from campaign.services import leader_attach
from campaign.services.characters import character_create
from tests.web.campaign_world import login
from tests.web.test_campaign_access import table_world

pytestmark = pytest.mark.django_db


def _summary(world) -> None:
    Campaign.objects.filter(pk=world.campaign.pk).update(other_forces_visible="summary")


def _row(page: str, name: str) -> str:
    return page.split(name, 1)[1].split("</tr>", 1)[0]


def test_a_players_own_character_leading_a_unit_they_see_in_summary_is_still_theirs(client, world):
    _summary(world)
    gm = world.users["gm"]
    vane = character_create(campaign=world.campaign, name="Capt. Vane", hit_points=11,
                            player=world.users["player"], actor=gm)  # fmt: skip
    leader_attach(unit=world.enemy_unit, character=vane, actor=gm)
    url = reverse("campaign:characters", args=[world.campaign.pk])
    page = login(client, world, "player").get(url).text
    row = _row(page, "Capt. Vane")
    assert "yours" in row and "11 of 11 hit points" in row
    # The unit is named, but its page is not theirs to open.
    assert world.enemy_unit.name in row
    unit_url = reverse("campaign:unit", args=[world.campaign.pk, world.enemy_unit.pk])
    assert unit_url not in page
    assert client.get(unit_url).status_code == 403  # its page says why, and no more
    assert "Only your own characters and those leading your units are shown here" in page
    # The rival sees who leads their own unit, with its link.
    page = login(client, world, "rival").get(url).text
    assert "11 of 11 hit points" in _row(page, "Capt. Vane") and unit_url in page
    # A spectator, who owns nothing, is told so in a spectator's words.
    page = login(client, world, "spectator").get(url).text
    assert "Capt. Vane" not in page
    assert "The GM shows spectators every force in summary only" in page
    assert "None that you can see." in page


def _engagement_page(client, world, role: str) -> str:
    url = reverse("campaign:engagement", args=[world.campaign.pk, world.engagement.pk])
    return html.unescape(login(client, world, role).get(url).text)


def _rows(page: str, name: str) -> list[str]:
    """The rows of the pairings' tables headed by the unit ``name``."""
    return [row.split("</tr>", 1)[0] for row in page.split(f'<th scope="row">{name}</th>')[1:]]


def test_an_engagement_shows_of_a_unit_seen_in_summary_its_name_and_totals_only(client, world):
    table_world(world)  # Red Scouts (the player's) against Blue Pickets (the rival's), both led
    _summary(world)
    page = _engagement_page(client, world, "player")
    # Their own squad whole: its quality and leader, every die and modifier, the hits it took.
    assert "Red Scouts</a> (" in page and "led by Lt. Rowan" in page
    red = _rows(page, "Red Scouts")
    assert red and all("Not shown" not in row and "feats (Squad/Squadron Tactics)" in row
                       for row in red)  # fmt: skip
    assert "Red Scouts took a" in page
    # The rival's squad by its name and totals: no quality, leader, Order, dice or modifiers,
    # no hits nor leader's wounds, and no seed to roll them again.
    assert "<li>Blue Pickets</li>" in page
    blue = _rows(page, "Blue Pickets")
    assert blue and all('<td class="small">Not shown</td>' in row for row in blue)
    for hidden in ("Maj. Greaves", "Establish Beachhead", "outside its specialties",
                   "Blue Pickets' leader", "Blue Pickets took a", "Blue Pickets was",
                   "Blue Pickets retreated", "Special Forces",
                   "seed <code>106</code>"):  # fmt: skip
        assert hidden not in page, hidden
    # The rival hid: their Hide check (drawn from their side) by its total, the watch whole.
    surprise = page.split('id="surprise">')[1].split("</p>")[0]
    assert " in all against Spot d20 " in surprise and "(Red Scouts)" in surprise
    assert "A unit of a force you see only in summary is named, with the totals it rolled" in page
    # The rival reads it the other way round; the GM reads everything.
    page = _engagement_page(client, world, "rival")
    assert "Blue Pickets' leader" in page and "Lt. Rowan" not in page
    assert all("Not shown" in row for row in _rows(page, "Red Scouts"))
    page = _engagement_page(client, world, "gm")
    assert "Lt. Rowan" in page and "Maj. Greaves" in page
    # Its seed under "About this record", with what it is for, as a battle's report says it.
    about = page.split("<summary>About this record</summary>", 1)[1].split("</details>", 1)[0]
    assert "Rolled from seed <code>106</code>: the same seed and set-up roll the same" in about
    assert "seed" not in page.split('<p class="meta">', 1)[1].split("</p>", 1)[0]
    assert "Not shown" not in page and 'id="lineup-seen"' not in page
    # A spectator reads that it was fought, between whom, and who won, in a spectator's words.
    page = _engagement_page(client, world, "spectator")
    rows = _rows(page, "Red Scouts") + _rows(page, "Blue Pickets")
    assert rows and all("Not shown" in row for row in rows)
    assert "took a" not in page and "led by" not in page and "took 3d6" not in page
    assert "The GM shows spectators every force in summary only: each unit is named" in page
    outcome = f"{world.engagement.name}: Red Company won after"
    timeline = login(client, world, "spectator").get(
        reverse("campaign:timeline", args=[world.campaign.pk])
    )
    assert outcome in html.unescape(timeline.text)


def test_the_gms_reason_for_an_old_quick_resolve_goes_to_whoever_sees_either_unit(client, world):
    from campaign.models import QuickResolve

    QuickResolve.objects.create(
        campaign=world.campaign, day=1, attacker=world.unit, defender=world.enemy_unit, seed=3,
        round_limit=5, setup={}, events=[{"event": "end", "rounds": 2, "winner": "attacker"}],
        rounds=2, winner="attacker", reason="Night raid on the depot",
    )  # fmt: skip
    url = reverse("campaign:dashboard", args=[world.campaign.pk])
    fought = f"{world.unit.name} against {world.enemy_unit.name}"

    def reads(role: str) -> bool:
        page = login(client, world, role).get(url).text
        assert fought in page and f"{world.unit.name} won after 2 rounds" in page, role
        return "Night raid on the depot" in page

    assert all(reads(role) for role in ("gm", "co_gm", "player", "rival", "spectator"))
    _summary(world)
    assert all(reads(role) for role in ("gm", "co_gm", "player", "rival"))
    assert not reads("spectator")


def _battle_seen(client, world, role: str) -> tuple[str, dict]:
    """The engine battle's page as ``role`` reads it, and its log's header as they download it."""
    login(client, world, role)
    args = [world.campaign.pk, world.engine_battle.pk]
    page = html.unescape(client.get(reverse("campaign:battle", args=args)).text)
    log = json.loads(client.get(reverse("campaign:battle-log", args=args)).content)
    return page, log["events"][0]


def test_an_engine_battles_seed_is_read_only_by_whoever_sees_all_of_it(client, world):
    seed = world.engine_battle.battle.seed
    shown = (f"seed <code>{seed}</code>", f"rules, seed {seed})")
    # Every force in full and no fog: every member reads the whole battle, its seed too.
    for role in ("player", "spectator", "gm"):
        page, start = _battle_seen(client, world, role)
        assert all(s in page for s in shown) and start["seed"] == seed, role
    # In summary, each player reads the battle as their side saw it, without the seed that
    # would roll it again with the rival's Orders in it; the spectator its outcome only.
    _summary(world)
    for role in ("player", "rival"):
        page, start = _battle_seen(client, world, role)
        assert not any(s in page for s in shown) and start["seed"] is None, role
        assert "its seed not shown" in page and start["kind"] == "battle_start"
        # Nor the scenario's digest: a hash of the whole set-up, the rival's hidden
        # deployment included, against which a guessed set-up could be checked.
        assert start["digest"] is None, role
    login(client, world, "spectator")
    args = [world.campaign.pk, world.engine_battle.pk]
    page = html.unescape(client.get(reverse("campaign:battle", args=args)).text)
    assert not any(s in page for s in shown) and "you see this battle's outcome only" in page
    assert client.get(reverse("campaign:battle-log", args=args)).status_code == 403
    # Under fog a player sees every force in full and yet reads the battle as their side saw
    # it: the seed would roll the dice they did not see.
    Campaign.objects.filter(pk=world.campaign.pk).update(
        other_forces_visible="full", fog_of_war=True
    )
    page, start = _battle_seen(client, world, "player")
    assert not any(s in page for s in shown) and start["seed"] is None
    assert "its seed not shown" in page and start["digest"] is None
    page, start = _battle_seen(client, world, "gm")
    assert all(s in page for s in shown) and start["seed"] == seed
    assert start["digest"] == parse_scenario(world.engine_battle.battle.scenario).digest


def _ambush_page(client, world, role: str) -> str:
    url = reverse("campaign:engagement", args=[world.campaign.pk, world.ambush.pk])
    return html.unescape(login(client, world, role).get(url).text)


def test_a_players_own_character_is_named_where_it_leads_another_forces_unit(client, world):
    table_world(world)  # Capt. Vane, the player's, leads the GM's Grey Lancers in the ambush
    _summary(world)
    page = _ambush_page(client, world, "player")
    assert "<li>Grey Lancers, led by Capt. Vane</li>" in page
    # The unit itself stays as a force seen in summary is: no quality, Order or dice.
    assert all("Not shown" in row for row in _rows(page, "Grey Lancers"))
    # Nobody else who sees the GM's force in summary learns who led it.
    for role in ("rival", "spectator"):
        page = _ambush_page(client, world, role)
        assert "Capt. Vane" not in page and "<li>Grey Lancers</li>" in page, role
    assert "Grey Lancers</a> (Average), led by Capt. Vane" in _ambush_page(client, world, "gm")


def test_a_seen_units_rolls_do_not_name_a_legendary_ally_the_reader_does_not_see(client, world):
    table_world(world)  # the rival's Legendary Old Guard commands the player's Red Reserve
    _summary(world)
    page = _ambush_page(client, world, "player")
    rows = _rows(page, "Red Reserve")
    assert rows and all("(commanded by a Legendary unit)" in row for row in rows)
    assert "commanded by Old Guard" not in page
    assert "Red Reserve</a> (Average), under Legendary command</li>" in page
    # Whoever sees the rival's force reads its name there.
    page = _ambush_page(client, world, "gm")
    assert "(commanded by Old Guard, Legendary)" in page
    assert "commanded by a Legendary unit" not in page


def test_a_battles_orders_going_in_do_not_name_a_legendary_commander_the_reader_does_not_see(
    world,
):
    from campaign.pages.orders import orders_going_in
    from campaign.rules.bridge import COMMANDED

    unit = world.unit
    takes = {
        "order": {"kind": "attack"},
        "source": COMMANDED,
        "giver": "Old Guard",
        "text": "Under the command of Old Guard (Legendary), whose Order it takes: attacks.",
    }
    holds = {"order": None, "source": COMMANDED, "giver": "Old Guard",
             "text": "Under the command of Old Guard (Legendary): under Orders, though Old Guard "
                     "has no Order to pass on. It fights with its own judgement."}  # fmt: skip
    [(_, text)] = orders_going_in([unit], {str(unit.pk): takes})
    assert text == "went in to attack, under the command of a Legendary unit and its Order."
    [(_, text)] = orders_going_in([unit], {str(unit.pk): holds})
    assert text == (
        "went in under the command of a Legendary unit, under Orders, though that unit had no "
        "Order to pass on. It fights with its own judgement."
    )
    # Among the units the reader sees, the commander is named.
    guard = world.enemy_unit
    guard.name = "Old Guard"
    lines = orders_going_in([unit, guard], {str(unit.pk): takes})
    assert (
        lines[0][1]
        == "went in to attack, under the command of Old Guard (Legendary) and its Order."
    )


def _rolls(client, world, role: str) -> str:
    url = reverse("campaign:checks", args=[world.campaign.pk])
    return html.unescape(login(client, world, role).get(url).text)


def test_a_roll_shows_of_a_unit_seen_in_summary_its_name_and_total_only(client, world):
    """A contest between the two forces, and a check one force's unit makes with the other's
    help: each reader reads the die and modifiers of the units they see in full only, and the
    seed, which would roll the other's die again, not at all."""
    from campaign.models import TableRoll
    from campaign.services import unit_create
    from campaign.services.checks import skill_check_run
    from units.models import UnitType

    table_world(world)
    _summary(world)
    card = UnitType.objects.get(name="Rifle Squad")
    waders = [
        unit_create(force=f, unit_type=card, name=name, specialties=["infantry"])
        for f, name in ((world.enemy, "Blue Waders"), (world.force, "Red Waders"))
    ]
    skill_check_run(campaign=world.campaign, units=waders, dc=10, seed=77,
                    reason="Ford the weir together", actor=world.users["gm"])  # fmt: skip
    contest = TableRoll.objects.get(kind="contest").result
    check = TableRoll.objects.get(seed=77).result
    working = {
        "red": f"Red Scouts: d20 {contest['active']['d20']};",
        "blue": f"Blue Pickets: d20 {contest['resisting']['d20']};",
        "check": f"Blue Waders: d20 {check['d20']};",
    }
    for role, own, other in (("player", "red", "blue"), ("rival", "blue", "red")):
        page = _rolls(client, world, role)
        assert working[own] in page, role
        assert working[other] not in page, role
        other_name = "Blue Pickets" if other == "blue" else "Red Scouts"
        total = contest["resisting" if other == "blue" else "active"]["total"]
        assert f"{other_name}: {total} (its die and modifiers not shown)" in page, role
        assert "(seed 3)" not in page, role
        assert "A unit of a force you see only in summary is named" in page, role
    # The check was Blue Waders's, Red Waders helping: the player reads it, its working not.
    page = _rolls(client, world, "player")
    assert "Ford the weir together" in page and working["check"] not in page
    assert "(seed 77)" not in page
    # The rival sees both units of the rival's own scouting check: its seed too.
    assert "(seed 2)" in _rolls(client, world, "rival")
    # The GM, and anyone under full rosters, reads every die and seed.
    page = _rolls(client, world, "gm")
    assert all(w in page for w in working.values()) and "(seed 3)" in page
    assert "(seed 77)" in page and "not shown" not in page
    Campaign.objects.filter(pk=world.campaign.pk).update(other_forces_visible="full")
    page = _rolls(client, world, "player")
    assert all(w in page for w in working.values()) and "(seed 3)" in page
    assert "A unit of a force you see only in summary" not in page


def test_a_members_old_link_to_a_unit_now_seen_in_summary_says_why_and_nothing_of_it(client, world):
    url = reverse("campaign:unit", args=[world.campaign.pk, world.enemy_unit.pk])
    assert login(client, world, "player").get(url).status_code == 200
    _summary(world)
    for role in ("player", "spectator"):
        response = login(client, world, role).get(url)
        page = html.unescape(response.text)
        assert response.status_code == 403, role
        assert "This unit's force is shown to you in summary only" in page, role
        assert reverse("campaign:dashboard", args=[world.campaign.pk]) in page
        assert "ask its GM to add you" not in page
        # Nothing the summary does not show: not the unit's name, nor its force's.
        assert world.enemy_unit.name not in page and world.enemy.name not in page, role
    # Another campaign's unit, or none, is still not found.
    missing = reverse("campaign:unit", args=[world.campaign.pk, 999999])
    assert client.get(missing).status_code == 404


def test_a_battles_card_sheet_says_whose_cards_it_leaves_out_and_refuses_a_sheet_of_none(
    client, world
):
    _summary(world)
    url = reverse("campaign:battle-cards", args=[world.campaign.pk, world.table_battle.pk])
    response = login(client, world, "spectator").get(url)
    page = html.unescape(response.text)
    assert response.status_code == 403 and "No units." not in page
    assert "This battle's cards are not yours to print" in page
    assert "the GM shows spectators every force in summary only" in page
    # A player prints their own units' cards, told why the rival's are not there.
    page = html.unescape(login(client, world, "player").get(url).text)
    assert page.count('<article class="unit-card">') == 1
    assert "<p>Red Company · " in page and "<p>Blue Battalion · " not in page
    assert "Blue Battalion's 1 unit is left out: you see that force only in summary." in page


def test_only_the_gms_read_an_engagements_revert_form_or_why_it_cannot_be_reverted(client, world):
    from tests.web.test_campaign_access import ENGAGEMENT

    url = reverse("campaign:engagement", args=[world.campaign.pk, ENGAGEMENT(world)])
    for role in ("gm", "co_gm"):
        page = login(client, world, role).get(url).text
        assert 'id="revert-form"' in page or "cannot be reverted as its units stand" in page
    for role in ("player", "rival", "spectator"):
        page = login(client, world, role).get(url).text
        assert 'id="revert-form"' not in page, role
        assert "cannot be reverted as its units stand" not in page, role
