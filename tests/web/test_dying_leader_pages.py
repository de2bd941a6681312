"""A dying leader's pages: each says, in a sentence, that the leader leads nobody until
healed, where it would otherwise say the unit is led (`state.can_act`)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign.models import Leader
from campaign.services.characters import character_create
from campaign.services.engagements import engagement_run
from campaign.services.leaders import leader_attach
from campaign.services.roster import unit_edit
from tests.web.campaign_world import login, raise_units

pytestmark = pytest.mark.django_db

SAID = "Sgt Vance is dying (\u22123 hp) and leads nobody until healed"


def test_every_page_of_a_dying_leaders_unit_says_it_leads_nobody_until_healed(client, world):
    gm = world.users["gm"]
    (squad,) = raise_units(world.force, world.unit.unit_type, 1, prefix="Fireteam")
    vance = character_create(campaign=world.campaign, name="Sgt Vance", hit_points=12, actor=gm)
    leader_attach(unit=squad, character=vance, actor=gm)
    leader = Leader.objects.get(unit=squad)
    leader.hit_points = -3
    leader.save()
    login(client, world, "gm")
    pk, unit_pk, force_pk = world.campaign.pk, squad.pk, world.force.pk
    unit_page = client.get(reverse("campaign:unit", args=[pk, unit_pk])).text
    assert (
        "Sgt Vance, \u22123 of 12 hit points, dying: <strong>leads nobody until healed</strong>, "
        f"and {squad.name} fights as if nobody led it"
    ) in unit_page
    assert f"Sgt Vance leads {squad.name}" not in unit_page
    card = client.get(reverse("campaign:unit-card", args=[pk, unit_pk])).text
    assert "(\u22123 of 12 hit points, dying): leads nobody until healed" in card
    for page in ("force", "force-cards"):
        text = client.get(reverse(f"campaign:{page}", args=[pk, force_pk])).text
        assert SAID in text, page
        assert "led by Sgt Vance" not in text, page
    setup = client.get(reverse("campaign:battle-setup", args=[pk]), {"scenario": "crossroads"})
    assert SAID in setup.text and "led by Sgt Vance" not in setup.text
    rules = client.get(reverse("campaign:rules-card")).text
    assert "Below 0 hit points a leader is dying: until healed it leads nobody" in rules
    dashboard = client.get(reverse("campaign:dashboard", args=[pk])).text
    assert f"{squad.name}</a> ({world.force.name}): {SAID}. " in dashboard
    assert "Heal on the Characters page</a>" in dashboard
    login(client, world, "player")  # the unit's player, under "Needs attention"
    dashboard = client.get(reverse("campaign:dashboard", args=[pk])).text
    assert f"{squad.name}</a> ({world.force.name}): {SAID}." in dashboard
    login(client, world, "gm")
    characters = client.get(reverse("campaign:characters", args=[pk])).text
    assert "(dying: leads nobody until healed)" in characters
    record = engagement_run(
        campaign=world.campaign,
        sides={"attackers": [squad], "defenders": [world.enemy_unit]},
        seed=3, round_limit=1, actor=gm,
    )  # fmt: skip
    log = client.get(reverse("campaign:engagement", args=[pk, record.pk])).text
    assert SAID in log and "led by Sgt Vance" not in log


def test_the_gms_list_says_a_dying_leader_once_beside_its_units_wounds(client, world):
    """A unit whose Casualty hits await the medics and whose leader is dying: the GM's "Needs
    doing" lists its wounds under its force's medics, and its leader on a line of its own with
    the way to heal them; the leader was said on both lines."""
    gm = world.users["gm"]
    vance = character_create(campaign=world.campaign, name="Sgt Vance", hit_points=12, actor=gm)
    leader_attach(unit=world.unit, character=vance, actor=gm)
    Leader.objects.filter(unit=world.unit).update(hit_points=-3)
    unit_edit(
        unit=world.unit,
        changes={"casualty_hits": 1, "window_from": 0, "last_battle_day": 1},
        reason="set up", actor=gm,
    )  # fmt: skip
    login(client, world, "gm")
    dashboard = client.get(reverse("campaign:dashboard", args=[world.campaign.pk])).text
    todo = dashboard[dashboard.index('id="todo-h"') : dashboard.index('class="dash"')]
    assert todo.count(SAID) == 1
    assert f"{world.unit.name}</a>: 1 Casualty hit awaits the medics. Unsaved, it dies" in todo
    assert f"{world.unit.name}</a> ({world.force.name}): {SAID}. " in todo
    login(client, world, "player")  # one line for the unit, the leader said in it
    dashboard = client.get(reverse("campaign:dashboard", args=[world.campaign.pk])).text
    assert dashboard.count(SAID) == 1
    login(client, world, "gm")  # beside the clock, with no line of its own, it is said there
    orders = client.get(reverse("campaign:orders", args=[world.campaign.pk])).text
    due = orders[
        orders.index('id="medics-due"') : orders.index(
            "</section>", orders.index('id="medics-due"')
        )
    ]
    assert f"{SAID}." in due


def test_the_forms_name_a_dying_character_as_such_and_an_order_it_gives_is_refused_so(
    client, world
):
    gm = world.users["gm"]
    vance = character_create(campaign=world.campaign, name="Sgt Vance", hit_points=12, actor=gm)
    (squad,) = raise_units(world.force, world.unit.unit_type, 1, prefix="Fireteam")
    leader_attach(unit=squad, character=vance, actor=gm)
    leader = Leader.objects.get(unit=squad)
    leader.hit_points = -3
    leader.save()
    login(client, world, "gm")
    pk = world.campaign.pk
    for page in ("orders", "characters"):
        text = client.get(reverse(f"campaign:{page}", args=[pk])).text
        assert ">Sgt Vance (dying, \u22123 hp)</option>" in text, page
    refused = client.post(
        reverse("campaign:order-give", args=[pk]),
        {"giver": vance.pk, "unit": squad.pk, "kind": "attack"},
    )
    assert "Sgt Vance is dying (\u22123 hp) and gives no Orders until healed" in refused.text
    assert not squad.orders.exists()


def test_a_check_by_a_unit_whose_leader_is_dying_says_the_leader_adds_no_feats(client, world):
    """The Checks page counts "its leader's feats" into a check: a dying leader adds none, and
    the roll's working says why, in the words the other pages use; led and well, the same
    leader's feats count."""
    from campaign.services.checks import skill_check_run

    gm = world.users["gm"]
    vance = character_create(campaign=world.campaign, name="Sgt Vance", hit_points=12,
                             feats=["leadership"], actor=gm)  # fmt: skip
    (squad,) = raise_units(world.force, world.unit.unit_type, 1, prefix="Fireteam")
    leader_attach(unit=squad, character=vance, actor=gm)
    checks = reverse("campaign:checks", args=[world.campaign.pk])
    skill_check_run(campaign=world.campaign, units=[squad], dc=10, seed=1, actor=gm)
    page = login(client, world, "gm").get(checks).text
    assert "leader&#x27;s feats (Leadership): +1" in page and "no leader&#x27;s feats" not in page
    leader = Leader.objects.get(unit=squad)
    leader.hit_points = -3
    leader.save()
    skill_check_run(campaign=world.campaign, units=[squad], dc=10, seed=2, actor=gm)
    page = client.get(checks).text
    assert f"Adequate equipment: 0; no leader&#x27;s feats: {SAID}: 0 = " in page
    assert "+ its leader's feats (none from a dying leader, who leads nobody until healed)" in (
        page
    )


def test_an_engagements_hide_or_spot_working_says_a_dying_leader_leads_nobody(client, world):
    """The engagement's surprise check, rolled by a unit whose leader is dying, says in its
    working why the leader adds nothing, as its line-up does."""
    gm = world.users["gm"]
    vance = character_create(campaign=world.campaign, name="Sgt Vance", hit_points=12,
                             feats=["leadership"], actor=gm)  # fmt: skip
    (squad,) = raise_units(world.force, world.unit.unit_type, 1, prefix="Fireteam")
    leader_attach(unit=squad, character=vance, actor=gm)
    Leader.objects.filter(unit=squad).update(hit_points=-3)
    record = engagement_run(
        campaign=world.campaign,
        sides={"attackers": [squad], "defenders": [world.enemy_unit]},
        surprise="attackers", seed=3, round_limit=1, actor=gm,
    )  # fmt: skip
    page = login(client, world, "gm").get(
        reverse("campaign:engagement", args=[world.campaign.pk, record.pk])
    )
    surprise = page.text.split('<p id="surprise">', 1)[1].split("</p>", 1)[0]
    assert "Hide d20 " in surprise and f"; no leader&#x27;s feats: {SAID}: 0 = " in surprise


def test_the_gm_is_told_to_heal_a_dying_leader_whose_unit_was_destroyed(client, world):
    """The character outlives the unit it led: dying, they still need a heal, and the GM's list
    says so with the way to heal them, as for a leader whose unit fights on."""
    gm = world.users["gm"]
    (squad,) = raise_units(world.force, world.unit.unit_type, 1, prefix="Fireteam")
    vance = character_create(campaign=world.campaign, name="Sgt Vance", hit_points=12, actor=gm)
    leader_attach(unit=squad, character=vance, actor=gm)
    Leader.objects.filter(unit=squad).update(hit_points=-3)
    unit_edit(unit=squad, changes={"status": "destroyed"}, reason="overrun", actor=gm)
    login(client, world, "gm")
    dashboard = client.get(reverse("campaign:dashboard", args=[world.campaign.pk])).text
    todo = dashboard[dashboard.index('id="todo-h"') : dashboard.index('class="dash"')]
    assert f"{squad.name}</a> ({world.force.name}): {SAID}. " in todo
    assert "Heal on the Characters page</a>" in todo


def test_the_units_own_reasons_are_kept_apart_from_its_dying_leaders(world):
    """`Attention.unit_reason` is the unit's own sentences as they were built, never the whole
    reason with the leader's sentence cut off its end by its wording."""
    from campaign.pages.attention import units_needing_attention

    gm = world.users["gm"]
    vance = character_create(campaign=world.campaign, name="Sgt Vance", hit_points=12, actor=gm)
    leader_attach(unit=world.unit, character=vance, actor=gm)
    Leader.objects.filter(unit=world.unit).update(hit_points=-3)
    unit_edit(
        unit=world.unit,
        changes={"casualty_hits": 1, "window_from": 0, "last_battle_day": 1},
        reason="set up", actor=gm,
    )  # fmt: skip
    (found,) = [
        a
        for a in units_needing_attention(world.campaign, {world.force.pk})
        if a.unit.pk == world.unit.pk
    ]
    assert found.leader_down == SAID
    assert found.reason == f"{found.unit_reason} {SAID}."
    assert found.unit_reason.startswith("1 Casualty hit awaits the medics. Unsaved, it dies")
    assert SAID not in found.unit_reason
