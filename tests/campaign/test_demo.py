"""The demo: known logins, and a campaign under way whose every unit its history explains."""

from __future__ import annotations

from unittest import mock

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.test import RequestFactory

from battles.models import Battle, BattleLog
from campaign.demo import DEMO_CAMPAIGN, demo_load
from campaign.models import Campaign, HistoryEntry, Unit
from campaign.selectors.entries import unit_history_explains
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
    models = (Campaign, Unit, HistoryEntry, UnitType, Battle)
    counts = [m.objects.count() for m in models]
    demo_load()
    assert [m.objects.count() for m in models] == counts


def test_the_demo_command_prints_the_logins(capsys):
    call_command("demo")
    out = capsys.readouterr().out
    assert DEMO_CAMPAIGN in out and "gm / bridgehead-gm" in out and "alice" in out


def test_the_demos_battle_outcomes_are_possible_for_their_cards():
    # Judged by the card each unit fought with: no unit had an Order.
    from campaign.demo import DEMO_FORCES, MILL_OUTCOMES
    from campaign.rules.bridge import card_needs, going_in
    from campaign.rules.damage import UnitOutcome, outcome_problems
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
    battle = campaign.battles.get(name="Battle of the Millrace")
    assert battle.battle is None and battle.state == battle.State.APPLIED
    fought = HistoryEntry.objects.filter(
        unit__force__campaign=campaign, kind=HistoryEntry.Kind.BATTLE
    )
    assert fought.exists()
    # Every unit's entry for it is one the recorded battle wrote: the engine's battle, still
    # awaiting the GM's review, has written none yet.
    assert set(fought.values_list("pk", flat=True)) <= set(battle.applied_entries)
    assert all(battle.name in entry.text for entry in fought)


def test_the_engine_fights_a_battle_of_the_demos_units_left_for_the_gms_review():
    from campaign.demo import CROSSROADS
    from campaign.services.battles import campaign_battle_apply, campaign_battle_outcomes

    name, _, sides, seed = CROSSROADS
    demo_load()
    campaign = Campaign.objects.get(name=DEMO_CAMPAIGN)
    assert campaign.apply_mode == Campaign.ApplyMode.REVIEW
    crossroads = campaign.battles.get(name=name)
    # Fought to the end when the demo returns, from its seed, its log stored: no worker needed.
    battle = crossroads.battle
    assert (battle.status, battle.seed, battle.name) == (Battle.Status.DONE, seed, name)
    log = BattleLog.objects.get(battle=battle)
    assert log.event_count > 0 and log.sha256 and battle.result["turns"] > 0
    # Fought on day 2 by the demo's units, after Lt. Ada Reyes sent 1st Squad to attack.
    assert crossroads.day == 2
    fielded = {
        side: sorted(Unit.objects.filter(pk__in=pks).values_list("name", flat=True))
        for side, pks in crossroads.sides.items()
    }
    assert fielded == {side: sorted(names) for side, names in sides.items()}
    squad = Unit.objects.get(force__campaign=campaign, name="1st Squad")
    assert crossroads.orders[str(squad.pk)]["giver"] == "Lt. Ada Reyes"
    # Its outcome waits for the GM: nothing is written into a unit's history until Apply.
    assert crossroads.state == crossroads.State.AWAITING
    winner, outcomes = campaign_battle_outcomes(crossroads)
    assert winner in crossroads.sides and len(outcomes) == 4
    assert not HistoryEntry.objects.filter(text__contains=name).exists()
    entries = campaign_battle_apply(campaign_battle=crossroads)
    assert {entry.unit.name for entry in entries} == {n for names in sides.values() for n in names}
    assert all(name in entry.text for entry in entries)
    for unit in Unit.objects.filter(force__campaign=campaign):
        assert unit_history_explains(unit=unit), unit.name


def test_the_demo_fights_its_battle_itself_and_sends_the_workers_nothing_to_launch(
    django_capture_on_commit_callbacks,
):
    from battles import services as battle_services
    from battles.tasks import resolve_battle
    from campaign.demo import CROSSROADS

    with (
        mock.patch("battles.tasks.resolve_battle.delay") as sent,
        django_capture_on_commit_callbacks(execute=True),
    ):
        demo_load()
    assert not sent.called
    battle = Campaign.objects.get(name=DEMO_CAMPAIGN).battles.get(name=CROSSROADS[0]).battle
    assert battle.status == Battle.Status.DONE and not battle.enqueue_error
    # A message for it sent all the same (the sweep, a resent launch) finds it fought.
    with mock.patch.object(battle_services, "run_battle") as fought:
        resolve_battle.apply(args=[battle.pk])
    assert not fought.called
    assert Battle.objects.get(pk=battle.pk).status == Battle.Status.DONE
