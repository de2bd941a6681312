"""The campaign pages speak the table's words, not the code's: no raw values ("none",
"defender", "Player"), no repository paths, no hit points below zero, and a line said once
where many units share it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign.models import CampaignBattle
from campaign.pages import Change
from campaign.rules.state import CampaignUnitState, LeaderState
from campaign.views.battles import _orders_going_in
from tests.web.campaign_world import login
from units.bucs import Quality

pytestmark = pytest.mark.django_db


def _url(name, world, *args):
    return reverse(f"campaign:{name}", args=[world.campaign.pk, *args])


def test_a_dead_leader_is_dead_not_minus_23_hit_points(world):
    alive = CampaignUnitState(name="Atlas", quality=Quality.AVERAGE,
                              leader=LeaderState("Capt. Mara Holt", 8))  # fmt: skip
    dead = CampaignUnitState(name="Atlas", quality=Quality.AVERAGE,
                             leader=LeaderState("Capt. Mara Holt", -23, alive=False))  # fmt: skip
    leader = dict((what, (b, a)) for what, b, a, _ in Change(world.unit, alive, dead).cells())
    assert leader["Leader"] == ("Capt. Mara Holt, 8 hp", "Capt. Mara Holt, dead")


def test_orders_that_went_in_alike_are_said_once(client, world):
    rows = [("A (Red)", "Attacks."), ("B (Blue)", "Holds."), ("C (Red)", "Attacks.")]
    assert _orders_going_in(rows) == [("A (Red), C (Red)", "Attacks."), ("B (Blue)", "Holds.")]
    cb = world.engine_battle
    page = login(client, world, "gm").get(_url("battle", world, cb.pk)).text
    texts = [going["text"] for going in CampaignBattle.objects.get(pk=cb.pk).orders.values()]
    assert len(texts) > len(set(texts)), "the world's units went in under the same Order"
    orders = page.split('class="battle-orders"')[1].split("</ul>")[0]
    assert orders.count("<li>") == len(set(texts))


def test_a_table_result_says_how_each_unit_left_in_words(client, world):
    page = login(client, world, "gm").get(_url("battle", world, world.table_battle.pk)).text
    losses = page.split("Losses as entered")[1].split("</table>")[0]
    assert "<td>Still in the field</td>" in losses and "<td>none</td>" not in losses
    form = client.get(_url("battle-record", world)).text
    assert '<option value="none" selected>Still in the field</option>' in form
    assert ">None</option>" not in form


def test_the_dashboard_names_a_members_part_in_plain_words(client, world):
    expected = {"gm": "you are the GM", "player": "you are a player",
                "spectator": "you are a spectator"}  # fmt: skip
    for role, words in expected.items():
        assert words in login(client, world, role).get(_url("dashboard", world)).text, role


def test_the_characters_page_says_what_each_feat_does_without_a_repository_path(client, world):
    page = login(client, world, "player").get(_url("characters", world)).text
    assert "docs/" not in page
    assert "<dt>Strategist</dt><dd>" in page and "rallies Morale hits; trains units" in page
    assert "<dt>Leadership</dt><dd>+1 to the unit&#x27;s combat rolls; +1 to its skill" in page


def test_the_engagements_page_says_not_fighting_and_no_engagement_yet(client, world):
    page = login(client, world, "gm").get(_url("engagement-setup", world)).text
    assert "No engagement fought yet." in page and "None yet." not in page
    assert '<option value="" selected>Not fighting</option>' in page


def test_a_revert_gives_quality_back_and_undoes_a_promotion_rather_than_promoting(world):
    from django.template.loader import render_to_string

    average = CampaignUnitState(name="Atlas", quality=Quality.AVERAGE)
    green = CampaignUnitState(name="Atlas", quality=Quality.GREEN)
    rows = [Change(world.unit, green, average), Change(world.enemy_unit, average, green)]

    def words(**context):
        html = render_to_string(
            "campaign/_changes.html", {"changes": rows, "campaign": world.campaign, **context}
        )
        return [part.split("</strong>")[0] for part in html.split('class="change-word">')[1:]]

    assert words() == ["promoted", "reduced"]
    assert words(reverting=True) == ["quality given back", "promotion undone"]


def test_a_role_reads_as_a_sentence_says_it(client, world):
    from campaign.views._common import role_phrase

    assert [role_phrase(r) for r in ("co_gm", "player", "spectator")] == [
        "a co-GM",
        "a player",
        "a spectator",
    ]
    login(client, world, "gm")
    members = reverse("campaign:member-set", args=[world.campaign.pk])
    done = client.post(members, {"username": "spectator", "role": "co_gm"}, follow=True)
    assert "spectator is a co-GM now." in done.text


def test_an_engagement_named_by_its_units_reads_as_a_title(client, world):
    from campaign.models import Unit
    from campaign.services import unit_edit
    from campaign.services.engagements import engagement_run

    gm = world.users["gm"]
    fresh = {"status": "ready", "morale_hits": 0, "casualty_hits": 0}
    for unit in (world.unit, world.enemy_unit):
        unit_edit(unit=unit, changes=fresh, reason="fresh", actor=gm)
    attacker, defender = (Unit.objects.get(pk=u.pk) for u in (world.unit, world.enemy_unit))
    sides = {"attackers": [attacker], "defenders": [defender]}
    engagement = engagement_run(campaign=world.campaign, sides=sides, seed=3, actor=gm)
    assert engagement.name.startswith("engagement, ")  # the service's name, untouched
    page = login(client, world, "gm").get(_url("engagement", world, engagement.pk)).text
    assert f"<h1>Engagement, {attacker.name} against {defender.name}</h1>" in page
    listing = client.get(_url("engagement-setup", world)).text
    assert f">Engagement, {attacker.name} against {defender.name}</a>" in listing
