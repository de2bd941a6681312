"""The demo: known logins, and a campaign under way whose every unit its history explains."""

from __future__ import annotations

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.test import RequestFactory

from campaign.demo import DEMO_CAMPAIGN, demo_load
from campaign.models import Campaign, HistoryEntry, Unit
from campaign.selectors import unit_history_explains
from campaign.services.orders import orders_under_way
from units.models import UnitType

pytestmark = pytest.mark.django_db


def test_it_lists_the_logins_gm_first_and_they_work():
    logins = demo_load()
    assert logins[0][0] == "gm" and len(logins) == 4
    for username, password in logins:
        # The login throttle (django-axes) judges each attempt by its request.
        request = RequestFactory().post("/accounts/login/")
        assert authenticate(request, username=username, password=password) is not None


def test_it_builds_a_campaign_of_two_forces_carrying_hits_and_history():
    demo_load()
    campaign = Campaign.objects.get(name=DEMO_CAMPAIGN)
    assert campaign.forces.count() == 2
    assert {f.owner.username for f in campaign.forces.all()} == {"alice", "bob"}
    roles = {m.user.username: m.role for m in campaign.memberships.select_related("user")}
    assert roles == {"alice": "player", "bob": "player", "carol": "spectator"}
    units = Unit.objects.filter(force__campaign=campaign)
    assert any(u.morale_hits or u.casualty_hits for u in units)
    assert HistoryEntry.objects.filter(kind=HistoryEntry.Kind.BATTLE).exists()
    assert campaign.engagements.filter(name="Patrol clash at the ford").count() == 1
    for unit in units:
        assert unit_history_explains(unit=unit), unit.name
    # Alice's character leads 1st Squad and has given it an Order, under way on day 2.
    ada = campaign.characters.get()
    assert (ada.name, ada.player.username) == ("Lt. Ada Reyes", "alice")
    squad = units.get(name="1st Squad")
    assert squad.leader.character == ada
    order = orders_under_way(campaign, [squad])[squad.pk]
    assert order.giver == ada and order.kind == "attack" and order.note == "retake the ford"


def test_it_is_idempotent():
    demo_load()
    counts = [m.objects.count() for m in (Campaign, Unit, HistoryEntry, UnitType)]
    demo_load()
    assert [m.objects.count() for m in (Campaign, Unit, HistoryEntry, UnitType)] == counts


def test_the_demo_command_prints_the_logins(capsys):
    call_command("demo")
    out = capsys.readouterr().out
    assert DEMO_CAMPAIGN in out and "gm / bridgehead-gm" in out and "alice" in out


def test_the_demos_battle_outcomes_are_possible_for_their_cards():
    # Judged by the card each unit fought with: no unit had an Order.
    from campaign.demo import DEMO_FORCES, MILL_OUTCOMES
    from campaign.rules.bridge import UnitOutcome, card_needs, going_in, outcome_problems
    from units.bucs import Equipment, Quality, Specialty

    demo_load()
    roster = {unit[0]: unit[1:] for _, _, units in DEMO_FORCES for unit in units}
    for name, hits, skill, removed in MILL_OUTCOMES:
        card_name, quality, equipment, specialties, _ = roster[name]
        unit_type = UnitType.objects.get(ruleset="combined_arms", name=card_name)
        going = going_in(
            unit_type.card,
            effective=Quality.of_word(quality),
            equipment=Equipment(equipment),
            specialties=[Specialty(s) for s in specialties],
            needed=card_needs(unit_type),
            under_orders=False,
        )
        card = {**unit_type.card, "skill": going.skill}
        problems = outcome_problems(card, UnitOutcome(hits, skill, removed), "combined_arms")
        assert problems == [], name


def test_the_battle_its_units_fought_is_a_recorded_battle_of_the_campaign():
    demo_load()
    campaign = Campaign.objects.get(name=DEMO_CAMPAIGN)
    battle = campaign.battles.get()
    assert battle.name == "Battle of the Millrace" and battle.state == battle.State.APPLIED
    fought = HistoryEntry.objects.filter(
        unit__force__campaign=campaign, kind=HistoryEntry.Kind.BATTLE
    )
    assert fought.exists()
    # Every unit's entry for it is one the recorded battle wrote.
    assert set(fought.values_list("pk", flat=True)) <= set(battle.applied_entries)
    assert all(battle.name in entry.text for entry in fought)
