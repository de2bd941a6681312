"""A battle awaiting the GM's review, and the medics' wait, on the reading pages: the battle stays
on the GM's list, an applied battle's or engagement's page says whose Casualty hits await the
medics, a player's Needs attention names the battle and their units in it, a spectator's dashboard
heads them as waiting, and a unit in a battle not yet applied says so on its page, its roster line
and the Forces table, and is offered no move of the combat zone."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from campaign.models import CampaignBattle, Unit
from campaign.pages.attention import HeldInBattle
from campaign.services import unit_create, unit_edit
from campaign.services.battles import campaign_battle_apply, campaign_battle_record
from tests.web.campaign_world import login
from tests.web.test_campaign_pages_roster import _url

pytestmark = pytest.mark.django_db


def test_a_battle_awaiting_review_stays_on_the_gms_list_behind_ten_newer_ones(client, world):
    # The mill's outcome still awaits the GM when ten more battles have been fought since: it
    # is still the GM's to do, as the campaigns list counts it, if no longer among the latest.
    from campaign.services.battles import campaign_battle_apply, campaign_battle_record

    gm = world.users["gm"]
    unit, enemy = (Unit.objects.get(pk=u.pk) for u in (world.unit, world.enemy_unit))
    fresh = {"status": "ready", "morale_hits": 0, "casualty_hits": 0}
    for one in (unit, enemy):
        unit_edit(unit=one, changes=fresh, reason="rallied", actor=gm)
    for n in range(10):
        sides = {"Red": [Unit.objects.get(pk=unit.pk)], "Blue": [Unit.objects.get(pk=enemy.pk)]}
        none = {"hits_lost": 0, "skill_lost": 0, "removed": "none"}
        later = campaign_battle_record(
            campaign=world.campaign, name=f"Patrol {n}", sides=sides, winner=None,
            outcomes={unit.pk: none, enemy.pk: none}, actor=gm,
        )  # fmt: skip
        campaign_battle_apply(campaign_battle=later, actor=gm)
    page = login(client, world, "gm").get(_url("dashboard", world)).text
    assert "<strong>Skirmish at the mill</strong>: its outcome awaits your review." in page
    assert "Nothing waits on you" not in page
    assert "1 battle awaiting your review" in client.get(reverse("campaign:list")).text


def test_an_engagements_page_says_what_it_did_to_each_unit_and_whose_hits_await_the_medics(
    client, world
):
    """Fought and applied at once, an engagement's page tells what it did to each of its units
    in the words of their histories, as a battle's page does, and to the GM which of them now
    carry Casualty hits awaiting the medics, until when, with the way to send them in."""
    from campaign.services.engagements import engagement_run

    card = world.unit.unit_type
    raiders = unit_create(force=world.force, unit_type=card, name="Raiders", quality="legendary",
                          equipment="excellent", specialties=["infantry"])  # fmt: skip
    pickets = unit_create(force=world.enemy, unit_type=card, name="Pickets",
                          quality="experienced", specialties=["infantry"])  # fmt: skip
    engagement = engagement_run(
        campaign=world.campaign, sides={"attackers": [raiders], "defenders": [pickets]},
        name="Raid on the pickets", round_limit=1, seed=2, actor=world.users["gm"],
    )  # fmt: skip
    pickets = Unit.objects.get(pk=pickets.pk)
    assert (pickets.morale_hits, pickets.casualty_hits, pickets.status) == (1, 1, "ready")
    page = login(client, world, "gm").get(_url("engagement", world, engagement.pk)).text
    aftermath = page.split('id="aftermath"', 1)[1].split("</section>", 1)[0]
    assert "What it did to the units" in aftermath
    assert "Raid on the pickets: took 1 Morale hit and 1 Casualty hit" in aftermath
    assert f'<a href="{_url("unit", world, pickets.pk)}">Pickets</a>' in aftermath
    due = aftermath.split('id="medics-due"', 1)[1].split("</ul></li>", 1)[0]
    assert (
        f"<strong>{world.enemy.name}</strong>: 1 unit with Casualty hits awaiting the medics" in due
    )
    assert ">Pickets</a>: 1 Casualty hit awaits the medics. Unsaved, it dies after day " in due
    assert "Raiders" not in due
    # A spectator reads what it did, not the GM's list of what to do.
    page = login(client, world, "spectator").get(_url("engagement", world, engagement.pk)).text
    aftermath = page.split('id="aftermath"', 1)[1].split("</section>", 1)[0]
    assert "Raid on the pickets: took 1 Morale hit and 1 Casualty hit" in aftermath
    assert 'id="medics-due"' not in aftermath


def test_an_applied_battles_page_tells_the_gm_whose_casualty_hits_await_the_medics(client, world):
    """Applied, a battle's page told what it changed and no more: the GM went back to the
    dashboard to learn that its Casualty hits had 24 hours to be saved. It now says, as an
    engagement's page does, which of its units' Casualty hits await the medics, until when,
    with the force's "Send in the medics"; a spectator reads no such list."""
    card = world.unit.unit_type
    doomed = unit_create(force=world.force, unit_type=card, name="Doomed", specialties=["infantry"])
    victors = unit_create(force=world.enemy, unit_type=card, name="Victors",
                          specialties=["infantry", "medical"])  # fmt: skip
    battle = campaign_battle_record(
        campaign=world.campaign, name="Last stand", winner="defenders", actor=world.users["gm"],
        sides={"attackers": [doomed], "defenders": [victors]},
        outcomes={doomed.pk: {"hits_lost": 1, "skill_lost": 0, "removed": "destroyed"},
                  victors.pk: {"hits_lost": 0, "skill_lost": 0}},
    )  # fmt: skip
    campaign_battle_apply(campaign_battle=battle, actor=world.users["gm"])
    doomed = Unit.objects.get(pk=doomed.pk)
    assert doomed.casualty_hits > 0 and doomed.status != "destroyed"
    page = login(client, world, "gm").get(_url("battle", world, battle.pk)).text
    review = page.split('id="review"', 1)[1].split("</section>", 1)[0]
    due = review.split('id="medics-due"', 1)[1].split("</ul></li>", 1)[0]
    said = f"<strong>{world.force.name}</strong>: 1 unit with Casualty hits awaiting the medics"
    assert said in due
    assert f'<a href="{_url("unit", world, doomed.pk)}">Doomed</a>: ' in due
    assert "Unsaved, " in due and "Victors" not in due
    assert review.index('id="medics-due"') < review.index("What it changed:")
    page = login(client, world, "spectator").get(_url("battle", world, battle.pk)).text
    assert 'id="medics-due"' not in page


def test_a_unit_in_a_battle_awaiting_review_is_offered_no_move_of_the_combat_zone(client, world):
    """Its player may not withdraw it to the rear (nor send it in) until the GM applies the
    battle: the outcome says where it stands. The page says why, naming the battle."""
    waiting = world.table_battle
    held = [pk for pks in waiting.sides.values() for pk in pks]
    unit = Unit.objects.filter(pk__in=held, force=world.force).first()
    login(client, world, "player")
    page = client.get(reverse("campaign:unit", args=[world.campaign.pk, unit.pk])).text
    why = f"Not now: {unit.name} is still in {waiting.name}, whose outcome is not applied yet."
    assert why in page
    assert 'disabled aria-describedby="zone-why"' in page
    campaign_battle_apply(campaign_battle=waiting, actor=world.users["gm"])
    page = client.get(reverse("campaign:unit", args=[world.campaign.pk, unit.pk])).text
    assert "zone-why" not in page


def test_a_players_needs_attention_names_the_battle_awaiting_review_and_their_units_in_it(
    client, world
):
    """A player whose units wait on the GM's review of a battle read "Nothing" under "Needs
    attention": it names the battle, their units in it (not their rival's, the rival's to
    read), and that the GM has to apply it; once it is applied, the line is gone."""
    waiting = world.table_battle
    held = [pk for pks in waiting.sides.values() for pk in pks]
    ours = [u.name for u in Unit.objects.filter(pk__in=held, force=world.force)]
    assert len(ours) == 1 and len(held) == 2
    dashboard = reverse("campaign:dashboard", args=[world.campaign.pk])
    battle_link = f'<a href="{reverse("campaign:battle", args=[world.campaign.pk, waiting.pk])}">'
    said = (
        f"{battle_link}{waiting.name}</a>: the GM has yet to review and apply its outcome. "
        f"Until then {ours[0]} is shown as it went in, and goes into no other fight."
    )
    login(client, world, "player")
    attention = client.get(dashboard).text.split("Needs attention")[1].split("</section>")[0]
    assert said in attention
    assert "Nothing: none of your units" not in attention
    campaign_battle_apply(campaign_battle=waiting, actor=world.users["gm"])
    attention = client.get(dashboard).text.split("Needs attention")[1].split("</section>")[0]
    assert battle_link not in attention
    # A battle still being fought holds its units too, and is said so.
    fought = CampaignBattle(name="Night raid", state=CampaignBattle.State.FIGHTING)
    assert HeldInBattle(fought, [Unit(name="A"), Unit(name="B")]).text == (
        "still being fought. Until its outcome is applied, A and B are shown as they went in, "
        "and go into no other fight"
    )


def test_a_spectators_dashboard_heads_the_units_waiting_as_such_not_as_needing_attention(
    client, world
):
    """A spectator can do nothing about a unit awaiting the medics or a battle's review: the
    list is headed with what it holds, not as something needing their attention."""
    dashboard = reverse("campaign:dashboard", args=[world.campaign.pk])
    page = login(client, world, "spectator").get(dashboard).text
    assert "Needs attention" not in page
    waiting = page.split('<h2 id="attention-h">Units waiting</h2>')[1].split("</section>")[0]
    said = f"{escape(world.table_battle.name)}</a>: the GM has yet to review and apply its outcome."
    assert said in waiting
    player = login(client, world, "player").get(dashboard).text
    assert '<h2 id="attention-h">Needs attention</h2>' in player and "Units waiting" not in player


def test_a_unit_in_a_battle_not_yet_applied_says_so_on_its_page_and_its_roster_line(client, world):
    """A player checking their squad between sessions read "Ready" on a unit whose battle
    awaits the GM's review: its status says what it awaits instead ("Awaiting review" of the
    battle, "Fighting" in one being fought), its page and its roster line name that battle and
    its state, and say no more once the outcome is applied. A battle recorded since the roster
    was drawn shows at once, though it changed no unit yet."""
    waiting = world.table_battle
    held = [pk for pks in waiting.sides.values() for pk in pks]
    unit = Unit.objects.filter(pk__in=held, force=world.force).first()
    assert unit is not None
    in_it = f'In <a href="{reverse("campaign:battle", args=[world.campaign.pk, waiting.pk])}">'
    said = f"{in_it}{waiting.name}</a>, awaiting review"
    login(client, world, "player")
    unit_url = reverse("campaign:unit", args=[world.campaign.pk, unit.pk])
    roster_url = reverse("campaign:force", args=[world.campaign.pk, world.force.pk])
    page = client.get(unit_url).text
    assert f"{said}: until its outcome is applied, {unit.name} is shown here as it went in." in page
    assert '<span class="status status-awaiting">Awaiting review</span>' in page
    status = '<span class="status status-awaiting">Awaiting review</span>'
    of_it = f'of <a href="{reverse("campaign:battle", args=[world.campaign.pk, waiting.pk])}">'

    def cell(name: str) -> str:
        roster = client.get(roster_url).text
        row = roster.split(f">{name}</a>")[1].split("</tr>")[0]
        return row.split('data-label="Status">')[1].split("</td>")[0]

    assert cell(unit.name).startswith(status) and f"{of_it}{waiting.name}</a>" in cell(unit.name)
    assert ">Ready<" not in cell(unit.name)
    fresh = unit_create(force=world.force, unit_type=unit.unit_type, name="Fresh Squad")
    foe = unit_create(force=world.enemy, unit_type=unit.unit_type, name="Fresh Foe")
    assert "Fresh Squad" in client.get(roster_url).text  # drawn, and kept
    later = campaign_battle_record(
        campaign=world.campaign,
        name="Night raid",
        sides={"attackers": [fresh], "defenders": [foe]},
        winner="attackers",
        outcomes={u.pk: {"hits_lost": 0, "skill_lost": 0} for u in (fresh, foe)},
        actor=world.users["gm"],
    )
    assert cell("Fresh Squad").startswith(status) and "Night raid</a>" in cell("Fresh Squad")
    CampaignBattle.objects.filter(pk=later.pk).update(state=CampaignBattle.State.FIGHTING)
    fighting = '<span class="status status-fighting">Fighting</span>'
    assert cell("Fresh Squad").startswith(fighting) and "in <a" in cell("Fresh Squad")
    campaign_battle_apply(campaign_battle=waiting, actor=world.users["gm"])
    assert in_it not in client.get(unit_url).text
    assert of_it not in client.get(roster_url).text
    assert cell(unit.name).startswith('<span class="status unit-ready">Ready</span>')
    assert later.name in client.get(roster_url).text


def test_the_forces_table_says_how_many_ready_units_a_battle_not_yet_applied_holds(client, world):
    """The Forces table counted a unit in a battle awaiting review as ready, while the list
    under it said it goes into no other fight: the count says how many of them are still in a
    battle, and no longer once its outcome is applied."""
    from campaign.selectors.roster import engaged_battles

    held = Unit.objects.filter(
        pk__in=list(engaged_battles(campaign=world.campaign)), force=world.force, status="ready"
    ).count()
    assert held  # the table battle awaiting review holds the player's attacker
    login(client, world, "player")

    def ready_cell() -> str:
        page = client.get(_url("dashboard", world)).text
        row = page.split(f">{world.force.name}</a>")[1].split("</tr>")[0]
        return row.split('data-label="Ready">')[1].split("</td>")[0]

    assert f'<span class="small nowrap">({held} still in a battle)</span>' in ready_cell()
    campaign_battle_apply(campaign_battle=world.table_battle, actor=world.users["gm"])
    assert "still in a battle" not in ready_cell()
