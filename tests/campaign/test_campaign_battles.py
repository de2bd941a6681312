"""Campaign battles: units go in through the bridge, the outcome comes back exactly once."""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path
from unittest import mock

import pytest
from django.core.exceptions import ValidationError

from battles.models import Battle
from battles.services import battle_resolve
from campaign.models import Campaign, CampaignBattle, HistoryEntry, Unit
from campaign.rules.bridge import battle_card
from campaign.rules.damage import UnitOutcome
from campaign.services import (
    campaign_create,
    campaign_update,
    force_create,
    outcome_apply,
    unit_combat_zone_set,
    unit_create,
    unit_edit,
)
from campaign.services.battles import (
    Deployment,
    campaign_battle_apply,
    campaign_battle_cards,
    campaign_battle_check,
    campaign_battle_launch,
    campaign_battle_outcome,
    campaign_battle_outcomes,
    campaign_battle_record,
    campaign_battle_revert,
    campaign_battle_settle,
    campaign_battles_settle_all,
    outcome_review,
)
from campaign.services.characters import character_create
from campaign.services.orders import clock_advance, order_give
from campaign.services.recovery import calendar_advance
from units.models import Ruleset

CROSSROADS = Path(__file__).resolve().parents[2] / "battles/engine/scenarios/crossroads.json"
pytestmark = pytest.mark.django_db


@pytest.fixture
def base() -> dict:
    return json.loads(CROSSROADS.read_text())


@pytest.fixture
def squads(make_unit, enemy):
    return {
        "blue": [
            make_unit("1st Squad", quality="experienced"),
            make_unit("2nd Squad"),
        ],
        "red": [make_unit("Red Mech", "Mech", specialties=("mechanized",), into=enemy)],
    }


def _deployments(squads) -> list[Deployment]:
    spots = {"blue": [(6, 3), (10, 2)], "red": [(20, 20)]}
    return [
        Deployment(unit=unit, side=side, position=spots[side][i])
        for side, units in squads.items()
        for i, unit in enumerate(units)
    ]


def _launch(campaign, base, squads, **kwargs) -> CampaignBattle:
    with mock.patch("battles.tasks.resolve_battle.delay"):
        return campaign_battle_launch(
            campaign=campaign, base=base, deployments=_deployments(squads), seed=12, **kwargs
        )


def _fight(campaign_battle: CampaignBattle) -> CampaignBattle:
    battle_resolve(battle_id=campaign_battle.battle_id)
    with mock.patch("celery.current_app.send_task"):
        return campaign_battle_settle(battle_id=campaign_battle.battle_id)


def _review(campaign) -> None:
    campaign_update(campaign=campaign, apply_mode=Campaign.ApplyMode.REVIEW)


def test_each_unit_goes_in_with_its_battle_card(campaign, base, squads):
    campaign_battle = _launch(campaign, base, squads)
    units = {u["id"]: u for side in campaign_battle.battle.scenario["sides"] for u in side["units"]}
    veteran, average = squads["blue"]
    assert units[f"1st-squad-{veteran.pk}"]["card"]["skill"] == 4, "Experienced: printed 3 + 1"
    assert units[f"2nd-squad-{average.pk}"]["card"]["skill"] == 3
    assert campaign_battle.engine_units[f"1st-squad-{veteran.pk}"] == veteran.pk
    assert campaign_battle.battle.scenario["ruleset"] == campaign.ruleset
    assert campaign_battle.sides == {"blue": [veteran.pk, average.pk], "red": [squads["red"][0].pk]}
    assert campaign_battle.day == campaign.day
    assert campaign_battle.state == CampaignBattle.State.FIGHTING


def test_a_unit_out_of_action_cannot_be_fielded_and_nothing_is_written(campaign, base, squads):
    Unit.objects.filter(pk=squads["blue"][1].pk).update(status="retreated")
    squads["blue"][1].refresh_from_db()
    with pytest.raises(ValidationError) as caught:
        _launch(campaign, base, squads)
    assert "deployments[1]" in caught.value.message_dict
    assert not Battle.objects.exists() and not CampaignBattle.objects.exists()


def test_a_launch_judges_and_prints_each_unit_as_stored_not_as_the_callers_copy(
    campaign, base, make_unit, enemy
):
    hero = make_unit("Hero Squad", quality="legendary")
    shaken = make_unit("Shaken Squad")
    mech = make_unit("Red Mech", "Mech", specialties=("mechanized",), into=enemy)
    # Both changed through other copies since these were loaded.
    unit_edit(unit=Unit.objects.get(pk=hero.pk), changes={"morale_hits": 4}, reason="shelled")
    unit_edit(unit=Unit.objects.get(pk=shaken.pk), changes={"status": "retreated"}, reason="ran")
    stale = {"blue": [hero, shaken], "red": [mech]}
    assert campaign_battle_check(campaign=campaign, base=base, deployments=_deployments(stale)) == {
        "deployments[1]": ["Shaken Squad is retreated in poor order: it cannot fight"]
    }
    with pytest.raises(ValidationError) as caught:
        _launch(campaign, base, stale)
    assert caught.value.message_dict == {
        "deployments[1]": ["Shaken Squad is retreated in poor order: it cannot fight"]
    }
    assert not Battle.objects.exists() and not CampaignBattle.objects.exists()
    launched = _launch(campaign, base, {"blue": [hero], "red": [mech]})
    placed = {u["id"]: u for side in launched.battle.scenario["sides"] for u in side["units"]}
    # Legendary less 4 Morale hits is Inexperienced: −2 under an Order, Skill 3 − 1.
    assert placed[f"hero-squad-{hero.pk}"]["quality"] == "inexperienced"
    assert placed[f"hero-squad-{hero.pk}"]["card"]["skill"] == 2


def test_the_odds_on_a_set_up_are_run_on_the_campaign_clock_as_stored(campaign, base, squads):
    from campaign.services.battles import campaign_battle_odds
    from campaign.services.recovery import calendar_advance

    stale = Campaign.objects.get(pk=campaign.pk)
    calendar_advance(campaign=campaign, days=3)  # day 4, through another copy of the campaign
    run = campaign_battle_odds(
        campaign=stale, base=base, deployments=_deployments(squads), battles=10
    )
    assert run.name == "Crossroads (Op. Test, day 4)"


def test_the_same_launch_request_twice_launches_one_battle(campaign, base, squads):
    key = uuid.uuid4()
    first = _launch(campaign, base, squads, request_key=key)
    again = _launch(campaign, base, squads, request_key=key)
    assert first.pk == again.pk
    assert Battle.objects.count() == 1


def test_in_review_mode_the_outcome_waits_for_the_gm(campaign, base, squads):
    _review(campaign)
    settled = _fight(_launch(campaign, base, squads))
    assert settled.state == CampaignBattle.State.AWAITING
    assert not HistoryEntry.objects.filter(kind="battle").exists()


def test_a_unit_whose_battle_awaits_review_is_not_withdrawn_nor_sent_in_until_it_is_applied(
    campaign, base, squads, cast
):
    # Withdrawn to the rear while the GM had yet to apply the battle, the outcome would put it
    # back in the combat zone without a word: it stays where it is, and the refusal names the
    # battle, as a move to another force or another battle is refused.
    veteran = squads["blue"][0]
    unit_combat_zone_set(unit=veteran, in_combat_zone=True)
    _review(campaign)
    awaiting = _fight(_launch(campaign, base, squads))
    assert awaiting.state == CampaignBattle.State.AWAITING
    before = HistoryEntry.objects.count()
    still = f"is still in {awaiting.name}, whose outcome is not applied yet"
    with pytest.raises(ValidationError) as refused:
        unit_combat_zone_set(unit=veteran, in_combat_zone=False, actor=cast.player)
    assert refused.value.message_dict == {"in_combat_zone": [f"1st Squad {still}"]}
    out = squads["blue"][1]  # never sent in: not sent in now either
    with pytest.raises(ValidationError) as refused:
        unit_combat_zone_set(unit=out, in_combat_zone=True, actor=cast.player)
    assert refused.value.message_dict == {"in_combat_zone": [f"2nd Squad {still}"]}
    assert unit_combat_zone_set(unit=veteran, in_combat_zone=True) is None  # there already
    assert HistoryEntry.objects.count() == before
    veteran.refresh_from_db()
    assert veteran.in_combat_zone
    campaign_battle_apply(campaign_battle=awaiting, actor=cast.gm)
    veteran.refresh_from_db()
    assert veteran.status == "ready"  # applied, it is withdrawn as any other
    assert unit_combat_zone_set(unit=veteran, in_combat_zone=False).after == {
        "in_combat_zone": False
    }


def test_applying_writes_history_for_every_unit_and_happens_once(campaign, base, squads, cast):
    _review(campaign)
    campaign_battle = _fight(_launch(campaign, base, squads))
    entries = campaign_battle_apply(campaign_battle=campaign_battle, actor=cast.gm)
    fielded = {pk for pks in campaign_battle.sides.values() for pk in pks}
    battle_entries = HistoryEntry.objects.filter(kind="battle", battle=campaign_battle.battle)
    assert {e.unit_id for e in battle_entries} == fielded
    assert {e.pk for e in entries} >= {e.pk for e in battle_entries}
    assert campaign_battle_apply(campaign_battle=campaign_battle, actor=cast.gm) is None
    campaign_battle.refresh_from_db()
    assert (campaign_battle.state, campaign_battle.applications) == ("applied", 1)
    assert battle_entries.count() == len(fielded)


def test_the_outcome_is_the_engines_result_per_unit(campaign, base, squads):
    _review(campaign)
    campaign_battle = _fight(_launch(campaign, base, squads))
    winner, outcomes = campaign_battle_outcomes(campaign_battle)
    result = campaign_battle.battle.result
    assert winner == result["winner"]
    for row in result["units"]:
        pk = campaign_battle.engine_units[row["unit"]]
        assert (outcomes[pk].hits_lost, outcomes[pk].skill_lost, outcomes[pk].removed) == (
            row["hits_lost"], row["skill_lost"], row["removed"],
        )  # fmt: skip


def test_in_auto_mode_a_finished_battle_is_applied_at_once(campaign, base, squads):
    campaign_update(campaign=campaign, apply_mode=Campaign.ApplyMode.AUTO)
    settled = _fight(_launch(campaign, base, squads))
    assert settled.state == CampaignBattle.State.APPLIED
    assert settled.applications == 1


def test_a_missed_notice_is_picked_up_by_the_periodic_settle(campaign, base, squads):
    campaign_battle = _launch(campaign, base, squads)
    battle_resolve(battle_id=campaign_battle.battle_id)
    with mock.patch("celery.current_app.send_task"):
        assert campaign_battles_settle_all() == [campaign_battle.pk]
        assert campaign_battles_settle_all() == []


def test_a_failed_battle_is_marked_failed_and_never_applied(campaign, base, squads):
    campaign_battle = _launch(campaign, base, squads)
    with (
        mock.patch("battles.services.run_battle", side_effect=RuntimeError("bug")),
        mock.patch("celery.current_app.send_task"),
    ):
        battle_resolve(battle_id=campaign_battle.battle_id)
        settled = campaign_battle_settle(battle_id=campaign_battle.battle_id)
    assert settled.state == CampaignBattle.State.FAILED
    assert campaign_battle_apply(campaign_battle=settled) is None
    assert not HistoryEntry.objects.filter(kind="battle").exists()


def test_a_gm_can_revert_an_applied_outcome_and_apply_it_again(campaign, base, squads, cast):
    _review(campaign)
    campaign_battle = _fight(_launch(campaign, base, squads))
    fielded = [pk for pks in campaign_battle.sides.values() for pk in pks]
    before = {u.pk: u.state.to_json() for u in Unit.objects.filter(pk__in=fielded)}
    campaign_battle_apply(campaign_battle=campaign_battle, actor=cast.gm)
    after = {u.pk: u.state.to_json() for u in Unit.objects.filter(pk__in=fielded)}
    reverted = campaign_battle_revert(
        campaign_battle=campaign_battle, reason="wrong map", actor=cast.gm
    )
    assert reverted and all(entry.kind == "revert" for entry in reverted)
    assert {u.pk: u.state.to_json() for u in Unit.objects.filter(pk__in=fielded)} == before
    campaign_battle_apply(campaign_battle=campaign_battle, actor=cast.gm)
    campaign_battle.refresh_from_db()
    assert (campaign_battle.state, campaign_battle.applications) == ("applied", 2)
    assert {u.pk: u.state.to_json() for u in Unit.objects.filter(pk__in=fielded)} == after


def test_only_the_gm_may_apply(campaign, base, squads, cast):
    from django.core.exceptions import PermissionDenied

    _review(campaign)
    campaign_battle = _fight(_launch(campaign, base, squads))
    with pytest.raises(PermissionDenied):
        campaign_battle_apply(campaign_battle=campaign_battle, actor=cast.player)
    campaign_battle.refresh_from_db()
    assert campaign_battle.state == CampaignBattle.State.AWAITING


def test_a_table_battle_goes_through_the_same_bridge(campaign, squads, cast):
    campaign_update(campaign=campaign, apply_mode=Campaign.ApplyMode.AUTO)
    (veteran, average), (mech,) = squads["blue"], squads["red"]
    recorded = campaign_battle_record(
        campaign=campaign,
        name="Barn Skirmish",
        sides={"blue": [veteran, average], "red": [mech]},
        winner="red",
        outcomes={
            veteran.pk: {"hits_lost": 1, "skill_lost": 0, "removed": "destroyed"},
            # No Order: the average squad fought its card (Skill 3) at Skill 2.
            average.pk: {"hits_lost": 0, "skill_lost": 1, "removed": "demoralised"},
            mech.pk: {"hits_lost": 1, "skill_lost": 0, "removed": "none"},
        },
        actor=cast.gm,
    )
    assert recorded.state == CampaignBattle.State.APPLIED and recorded.battle is None
    veteran.refresh_from_db()
    average.refresh_from_db()
    # Taken out is not dead: the veteran retreats, its fate left to the medics' 24 hours.
    assert veteran.status == "retreated"
    assert average.status == "retreated"
    assert HistoryEntry.objects.filter(kind="battle", unit=mech).exists()


def test_excellent_kit_goes_by_the_kit_each_unit_fought_with(
    campaign, make_unit, enemy, cast, cards
):
    # A rifle squad's card needs Infantry. Medics on it fought as Raw with Poor kit, though they
    # own Excellent kit: it ignores no Morale hit for them, and against them the grunts'
    # Excellent kit faced Poor, a less well equipped enemy, so it ignores their first.
    cards["Rifle Squad"].specialty = "infantry"
    cards["Rifle Squad"].save()
    campaign_update(campaign=campaign, apply_mode=Campaign.ApplyMode.AUTO)
    medics = make_unit("Medics", quality="elite", equipment="excellent", specialties=("medical",))
    grunts = make_unit("Grunts", quality="elite", equipment="excellent", into=enemy)
    shaken = {"hits_lost": 0, "skill_lost": 1, "removed": "none"}
    # The medics' card was printed at Skill 2: one Skill lost brought them down to 1, and
    # demoralised them.
    broken = {**shaken, "removed": "demoralised"}
    campaign_battle_record(
        campaign=campaign,
        name="Ford",
        sides={"blue": [medics], "red": [grunts]},
        winner=None,
        outcomes={medics.pk: broken, grunts.pk: shaken},
        actor=cast.gm,
    )
    medics.refresh_from_db()
    grunts.refresh_from_db()
    assert (medics.morale_hits, grunts.morale_hits) == (1, 0)
    entry = HistoryEntry.objects.get(kind="battle", unit=grunts)
    assert entry.details["opposing_equipment"] == "poor"
    assert entry.details["damage"]["excellent_ignored"] == 1


def test_excellent_kit_counted_as_poor_ignores_no_morale_hit_against_a_worse_equipped_enemy(
    campaign, make_unit, enemy, cast, cards
):
    # Medics owning Excellent kit fought a rifle squad's card (it needs Infantry) as Raw with
    # Poor kit; their enemy had Adequate kit. Their own kit would have been better equipped
    # and ignored the first Morale hit; the Poor kit they counted as is not, so the one Skill
    # they lost is a Morale hit all the same.
    cards["Rifle Squad"].specialty = "infantry"
    cards["Rifle Squad"].save()
    campaign_update(campaign=campaign, apply_mode=Campaign.ApplyMode.AUTO)
    medics = make_unit("Medics", quality="elite", equipment="excellent", specialties=("medical",))
    foe = make_unit("Foe", quality="elite", equipment="adequate", into=enemy)
    campaign_battle_record(
        campaign=campaign,
        name="Ford",
        sides={"blue": [medics], "red": [foe]},
        winner="red",
        outcomes={
            # Printed at Skill 2, one Skill lost brought them to 1: demoralised.
            medics.pk: {"hits_lost": 0, "skill_lost": 1, "removed": "demoralised"},
            foe.pk: {"hits_lost": 0, "skill_lost": 0, "removed": "none"},
        },
        actor=cast.gm,
    )
    medics.refresh_from_db()
    entry = HistoryEntry.objects.get(kind="battle", unit=medics)
    assert entry.details["damage"]["excellent_ignored"] == 0
    assert medics.morale_hits == 1


@pytest.mark.parametrize(
    ("outcome", "problem"),
    [
        ({"hits_lost": 2, "skill_lost": 0, "removed": "destroyed"}, "at most 1"),
        ({"hits_lost": 1, "skill_lost": 0, "removed": "none"}, "every Hit lost means taken out"),
        # 2nd Squad, Average with no Order, fought its card (Skill 3) at Skill 2.
        ({"hits_lost": 0, "skill_lost": 0, "removed": "demoralised"}, "Skill brought down to 1"),
        ({"hits_lost": 0, "skill_lost": 1, "removed": "none"}, "mark it Broken"),
        ({"hits_lost": 1, "skill_lost": 1, "removed": "destroyed"}, "leaves a battle once"),
        ({"hits_lost": 0, "skill_lost": 5, "removed": "none"}, "at most 1 Skill can be lost"),
        ({"hits_lost": -1, "skill_lost": 0, "removed": "none"}, "whole numbers"),
        ({"hits_lost": 0, "skill_lost": 0, "removed": "fled"}, "removed must be one of"),
        (None, "give its Hits lost"),
    ],
)
def test_a_table_result_that_cannot_be_is_refused_naming_the_unit(
    campaign, squads, cast, outcome, problem
):
    (veteran, average), (mech,) = squads["blue"], squads["red"]
    ok = {"hits_lost": 0, "skill_lost": 0, "removed": "none"}
    outcomes = {veteran.pk: ok, mech.pk: ok}
    if outcome is not None:
        outcomes[average.pk] = outcome
    with pytest.raises(ValidationError) as caught:
        campaign_battle_record(
            campaign=campaign, name="Bad", sides={"blue": [veteran, average], "red": [mech]},
            winner=None, outcomes=outcomes, actor=cast.gm,
        )  # fmt: skip
    # Each problem is filed under the unit's outcome, by the column it is about.
    refusals = [
        refusal
        for path, problems in caught.value.message_dict.items()
        if path.split(".")[:2] == ["outcomes", str(average.pk)]
        for refusal in problems
    ]
    assert refusals
    assert problem in " ".join(refusals)
    assert all(refusal.startswith("2nd Squad") for refusal in refusals)
    assert not CampaignBattle.objects.exists()
    assert not HistoryEntry.objects.filter(kind="battle").exists()


def test_a_table_result_at_the_demoralisation_skill_is_demoralised_in_one_year_war(cast, cards):
    # One Year War demoralises at Skill 0: a Line Suit (Skill 3, Skill 2 for an Average unit
    # with no Order) that lost 2 Skill left the battle demoralised, and a table result that
    # keeps it in the field is refused, by field.
    campaign = campaign_create(name="Loum", gm=cast.gm, ruleset=Ruleset.ONE_YEAR_WAR,
                               apply_mode="auto")  # fmt: skip
    ours, theirs = (
        unit_create(
            force=force_create(campaign=campaign, owner=cast.gm, name=force),
            unit_type=cards["Line Suit"],
            name=name,
            quality="average",
            equipment="adequate",
            specialties=["infantry"],
        )
        for force, name in (("Federation", "Ball Team"), ("Zeon", "Zaku Team"))
    )
    entries = HistoryEntry.objects.count()
    untouched = {"hits_lost": 0, "skill_lost": 0, "removed": "none"}

    def record(removed):
        return campaign_battle_record(
            campaign=campaign, name="Loum", sides={"fed": [ours], "zeon": [theirs]},
            winner="zeon", outcomes={ours.pk: {"hits_lost": 0, "skill_lost": 2,
                                               "removed": removed}, theirs.pk: untouched},
        )  # fmt: skip

    with pytest.raises(ValidationError) as caught:
        record("none")
    assert caught.value.message_dict == {
        f"outcomes.{ours.pk}.removed": ["Ball Team: Skill brought down to 0 means broken: "
                                "mark it Broken (its card's Skill 2, less the 2 lost, is 0)"]
    }  # fmt: skip
    assert not CampaignBattle.objects.exists() and HistoryEntry.objects.count() == entries
    ours.refresh_from_db()
    assert (ours.status, ours.morale_hits) == ("ready", 0)
    assert record("demoralised").state == CampaignBattle.State.APPLIED
    ours.refresh_from_db()
    assert ours.status == "retreated"


@pytest.mark.parametrize(
    ("ruleset", "card", "specialty"),
    [
        (Ruleset.ONE_YEAR_WAR, "Line Suit", "infantry"),
        (Ruleset.COMBINED_ARMS, "Mech", "mechanized"),
    ],
    ids=["one_year_war", "combined_arms"],
)
def test_a_suppressed_units_card_prints_its_skill_again_once_rested_only_under_one_year_war(
    cast, cards, ruleset, card, specialty
):
    # An Average unit, suppressed once in a battle it lost. In both rulesets the shock is a
    # Morale hit: in the combat zone the unit keeps its last, and its card prints lower. One
    # Year War: "Restore Skill for the next scenario if the unit survives": no step is lost, so
    # withdrawn and rested its card prints the Skill it printed before. Combined Arms: "lost
    # Skill never returns": a quality step for good, and its card prints lower still.
    campaign = campaign_create(name="Loum", gm=cast.gm, ruleset=ruleset, apply_mode="auto")
    ours, theirs = (
        unit_create(
            force=force_create(campaign=campaign, owner=cast.gm, name=force),
            unit_type=cards[card],
            name=name,
            quality="average",
            equipment="adequate",
            specialties=[specialty],
        )
        for force, name in (("Ours", "Ball Team"), ("Theirs", "Zaku Team"))
    )
    before = battle_card(ours)["skill"]
    untouched = {"hits_lost": 0, "skill_lost": 0, "removed": "none"}
    fought = campaign_battle_record(
        campaign=campaign, name="Loum", sides={"ours": [ours], "theirs": [theirs]},
        winner="theirs", outcomes={ours.pk: {"hits_lost": 0, "skill_lost": 1, "removed": "none"},
                                   theirs.pk: untouched},
    )  # fmt: skip
    assert fought.state == CampaignBattle.State.APPLIED
    said = HistoryEntry.objects.get(unit=ours, kind=HistoryEntry.Kind.BATTLE).text
    restored = ruleset == Ruleset.ONE_YEAR_WAR
    kept = 3 if restored else 2  # Average, or Inexperienced for good
    for days in (0, 3):  # just after the battle; after three days of R&R in the combat zone
        if days:
            calendar_advance(campaign=campaign, days=days)
        ours.refresh_from_db()
        assert ours.status == "ready" and ours.in_combat_zone
        assert (ours.quality, ours.morale_hits) == (kept, 1)  # its last Morale hit
        assert battle_card(ours)["skill"] < before
    unit_combat_zone_set(unit=ours, in_combat_zone=False)
    calendar_advance(campaign=campaign, days=1)
    ours.refresh_from_db()
    assert (ours.quality, ours.morale_hits) == (kept, 0)
    if restored:
        assert battle_card(ours)["skill"] == before
        assert "1 Skill lost to suppression: 1 Morale hit, no step lost (One Year War)" in said
        assert "took 1 Morale hit — " in said
    else:
        assert battle_card(ours)["skill"] < before
        assert "1 Skill lost to suppression: 1 Morale hit" in said
        assert "Skill lost to suppression costs 1 step" in said


def test_a_table_result_refuses_a_unit_of_another_campaign_and_writes_nothing(
    campaign, make_unit, cast, cards
):
    other = campaign_create(name="Elsewhere", gm=cast.gm, ruleset=Ruleset.COMBINED_ARMS)
    stranger = unit_create(force=force_create(campaign=other, owner=cast.gm, name="Them"),
                           unit_type=cards["Rifle Squad"], name="Stranger")  # fmt: skip
    ours = make_unit("Ours")
    with pytest.raises(ValidationError) as caught:
        campaign_battle_record(
            campaign=campaign, name="Foreign", sides={"x": [ours], "y": [stranger]}, winner="x",
            outcomes={ours.pk: {"hits_lost": 0, "skill_lost": 0, "removed": "none"},
                      stranger.pk: {"hits_lost": 1, "skill_lost": 0, "removed": "destroyed"}},
        )  # fmt: skip
    assert caught.value.message_dict == {"sides.y": ["Stranger is not a unit of Op. Test"]}
    assert not CampaignBattle.objects.exists()
    assert not HistoryEntry.objects.filter(kind="battle").exists()


def test_a_launch_with_a_force_on_both_sides_is_refused_and_nothing_is_written(
    campaign, base, squads, make_unit
):
    # Red Company fights as Blue Force and sends a unit to Red Force too: refused at that unit.
    turncoat = make_unit("Turncoat")
    deployments = [*_deployments(squads), Deployment(unit=turncoat, side="red", position=None)]
    refusal = {
        "deployments[3]": [
            "Red Company is on both sides: a force cannot fight itself; "
            "choose a unit of another force"
        ]
    }
    with pytest.raises(ValidationError) as caught, mock.patch("battles.tasks.resolve_battle.delay"):
        campaign_battle_launch(campaign=campaign, base=base, deployments=deployments, seed=12)
    assert caught.value.message_dict == refusal
    assert campaign_battle_check(campaign=campaign, base=base, deployments=deployments) == refusal
    assert not Battle.objects.exists() and not CampaignBattle.objects.exists()


def test_a_table_result_refuses_a_force_on_both_sides_and_writes_nothing(
    campaign, squads, make_unit
):
    blue, red = squads["blue"], [*squads["red"], make_unit("Turncoat")]
    ok = {"hits_lost": 0, "skill_lost": 0, "removed": "none"}
    with pytest.raises(ValidationError) as caught:
        campaign_battle_record(
            campaign=campaign, name="Barn Skirmish", sides={"blue": blue, "red": red},
            winner=None, outcomes={unit.pk: ok for unit in [*blue, *red]},
        )  # fmt: skip
    assert caught.value.message_dict == {
        "sides.red": [
            "Red Company is on both sides: a force cannot fight itself; "
            "choose a unit of another force"
        ]
    }
    assert not CampaignBattle.objects.exists()
    assert not HistoryEntry.objects.filter(kind="battle").exists()


def test_a_table_result_refuses_a_unit_whose_battle_awaits_its_outcome_and_writes_nothing(
    campaign, base, squads, make_unit
):
    # The engine battle is still being fought: its units' cards for another battle would be
    # the ones from before it, and its outcome could leave the table's never to be applied.
    pending = _launch(campaign, base, squads)
    fresh = make_unit("Fresh Squad")
    veteran, mech = squads["blue"][0], squads["red"][0]
    ok = {"hits_lost": 0, "skill_lost": 0, "removed": "none"}
    with pytest.raises(ValidationError) as caught:
        campaign_battle_record(
            campaign=campaign, name="Barn Skirmish", sides={"blue": [veteran, fresh],
            "red": [mech]}, winner=None, outcomes={u.pk: ok for u in (veteran, fresh, mech)},
        )  # fmt: skip
    still = f"is still in {pending.name}, whose outcome is not applied yet"
    assert caught.value.message_dict == {
        "sides.blue": [f"1st Squad {still}"],
        "sides.red": [f"Red Mech {still}"],
    }
    assert list(CampaignBattle.objects.all()) == [pending]
    assert not HistoryEntry.objects.filter(kind="battle").exists()


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        (lambda blue, red: {"sides": {"blue": [], "red": red}}, "sides.blue"),
        (lambda blue, red: {"sides": {"blue": [u.pk for u in blue], "red": red}}, "sides.blue"),
        (lambda blue, red: {"sides": {"blue": blue[0], "red": red}}, "sides.blue"),
        (lambda blue, red: {"sides": [blue, red]}, "sides"),
        (lambda blue, red: {"name": None}, "name"),
        (lambda blue, red: {"name": "  "}, "name"),
        (lambda blue, red: {"winner": ["blue"]}, "winner"),
        (lambda blue, red: {"outcomes": None}, "outcomes"),
    ],
)
def test_a_table_result_refuses_malformed_input_by_field_and_writes_nothing(
    campaign, squads, changes, field
):
    blue, red = squads["blue"], squads["red"]
    ok = {"hits_lost": 0, "skill_lost": 0, "removed": "none"}
    arguments = {
        "campaign": campaign,
        "name": "Barn Skirmish",
        "sides": {"blue": blue, "red": red},
        "winner": None,
        "outcomes": {unit.pk: ok for unit in red},
        **changes(blue, red),
    }
    with pytest.raises(ValidationError) as caught:
        campaign_battle_record(**arguments)
    assert field in caught.value.message_dict
    assert not CampaignBattle.objects.exists()
    assert not HistoryEntry.objects.filter(kind="battle").exists()


def test_an_edited_unit_leaves_an_auto_outcome_for_review(campaign, base, squads, cast):
    campaign_update(campaign=campaign, apply_mode=Campaign.ApplyMode.AUTO)
    campaign_battle = _launch(campaign, base, squads)
    battle_resolve(battle_id=campaign_battle.battle_id)
    Unit.objects.filter(pk=squads["blue"][0].pk).update(status="retreated")
    with mock.patch("celery.current_app.send_task"):
        settled = campaign_battle_settle(battle_id=campaign_battle.battle_id)
    assert settled.state == CampaignBattle.State.AWAITING
    assert not HistoryEntry.objects.filter(kind="battle").exists()
    # It waits for the GM, and its review says why Apply refuses it.
    rows, refusal, _, _ = outcome_review(campaign_battle=settled)
    assert rows == [] and refusal == [
        "1st Squad is Retreated in poor order: it could not have fought"
    ]


def test_a_battle_awaiting_review_applies_though_its_dead_destroyed_a_unit_since(
    campaign, make_unit, enemy, cast
):
    from campaign.selectors.roster import engaged_units
    from campaign.services import unit_edit
    from campaign.services.engagements import engagement_run
    from campaign.services.outcomes import outcome_steps

    _review(campaign)
    doomed = make_unit("Doomed", quality="green")
    steady = make_unit("Steady")
    mech = make_unit("Red Mech", "Mech", specialties=("mechanized",), into=enemy)
    # An ambush off the table: 2 Casualty hits, the medics' 24 hours from day 1, 00:00. They
    # break a Green unit; the GM holds it ready by name, and it fights at Ford.
    unit_edit(unit=doomed, changes={"casualty_hits": 2, "status": "ready"}, reason="ambushed")
    taken_out = {"hits_lost": 1, "skill_lost": 0, "removed": "destroyed"}
    ford = campaign_battle_record(
        campaign=campaign, name="Ford", sides={"blue": [doomed, steady], "red": [mech]},
        winner="red", outcomes={doomed.pk: taken_out, steady.pk: taken_out,
        mech.pk: {"hits_lost": 0, "skill_lost": 0, "removed": "none"}},
    )  # fmt: skip
    assert ford.state == CampaignBattle.State.AWAITING
    dice_then = {
        step.unit.pk: step.details["damage"]
        for step in outcome_steps(**campaign_battle_outcome(ford))
        if step.kind == HistoryEntry.Kind.BATTLE
    }
    # The medics never come: 2 dead are more than a Green unit's 1 step.
    clock_advance(campaign=campaign, hours=25)
    assert Unit.objects.get(pk=doomed.pk).status == "destroyed"
    # The review says what becomes of the dead unit, and Apply does just that.
    _, refusal, notes, _ = outcome_review(campaign_battle=ford)
    assert refusal == [] and notes == [
        "Doomed has been destroyed since Ford was fought: it takes nothing from it"
    ]
    entries = campaign_battle_apply(campaign_battle=ford, actor=cast.gm)
    ford.refresh_from_db()
    assert ford.state == CampaignBattle.State.APPLIED
    nothing = HistoryEntry.objects.get(unit=doomed, kind="battle")
    assert nothing in entries and (nothing.before, nothing.after) == ({}, {})
    assert nothing.text == (
        "Ford: destroyed since it fought there, it takes nothing from it; no change"
    )
    # The others take their damage, rolled with the very dice they had while Doomed lived.
    for unit in (steady, mech):
        fought = HistoryEntry.objects.get(unit=unit, kind="battle")
        assert fought.details["damage"] == dice_then[unit.pk]
    assert Unit.objects.get(pk=steady.pk).battles_fought == 1
    # Nobody is held in Ford any more.
    assert engaged_units(campaign=campaign) == {}
    engagement_run(campaign=campaign, seed=1, round_limit=1, sides={
        "attackers": [Unit.objects.get(pk=mech.pk)],
        "defenders": [make_unit("Fresh Squad")],
    })  # fmt: skip


@pytest.mark.parametrize("mode", [Campaign.ApplyMode.AUTO, Campaign.ApplyMode.REVIEW])
def test_an_engine_battle_applies_though_a_gm_destroyed_a_unit_while_it_was_fought(
    campaign, base, squads, cast, mode
):
    from campaign.services import unit_edit

    campaign_update(campaign=campaign, apply_mode=mode)
    fought = _launch(campaign, base, squads)
    lost = squads["blue"][1]
    unit_edit(unit=lost, changes={"status": "destroyed"}, reason="a mine on the road back")
    settled = _fight(fought)
    if mode == Campaign.ApplyMode.REVIEW:
        assert settled.state == CampaignBattle.State.AWAITING
        campaign_battle_apply(campaign_battle=settled, actor=cast.gm)
        settled.refresh_from_db()
    # Nothing is left to put right: the outcome applies, the dead unit taking nothing.
    assert settled.state == CampaignBattle.State.APPLIED
    entry = HistoryEntry.objects.get(unit=lost, kind="battle")
    assert entry.after == {} and "destroyed since it fought there" in entry.text
    for unit in (squads["blue"][0], squads["red"][0]):
        assert HistoryEntry.objects.get(unit=unit, kind="battle").details["damage"]


def test_a_unit_retreated_since_leaves_the_outcome_to_the_gm_who_may_put_it_right(
    campaign, base, squads, cast
):
    from campaign.services import unit_edit

    _review(campaign)
    fought = _fight(_launch(campaign, base, squads))
    broken = squads["blue"][0]
    unit_edit(unit=broken, changes={"status": "retreated"}, reason="routed off the table")
    rows, refusal, _, _ = outcome_review(campaign_battle=fought)
    assert rows == [] and refusal == [
        "1st Squad is Retreated in poor order: it could not have fought"
    ]
    with pytest.raises(ValidationError):
        campaign_battle_apply(campaign_battle=fought, actor=cast.gm)
    # The way out: the GM puts the unit right (or reverts the correction), then applies.
    unit_edit(unit=broken, changes={"status": "ready"}, reason="it held after all")
    assert campaign_battle_apply(campaign_battle=fought, actor=cast.gm)


def test_quality_and_order_go_into_the_scenario(campaign, base, make_unit, enemy):
    veteran = make_unit("Veterans", quality="experienced")
    recruits = make_unit("Recruits", quality="raw", specialties=())
    mech = make_unit("Red Mech", "Mech", specialties=("mechanized",), into=enemy)
    deployments = [
        Deployment(unit=veteran, side="blue", position=(6, 3), order={"kind": "hold"}),
        Deployment(unit=recruits, side="blue", position=(10, 2), order=None),
        Deployment(unit=mech, side="red", position=(20, 20)),
    ]
    with mock.patch("battles.tasks.resolve_battle.delay"):
        campaign_battle = campaign_battle_launch(
            campaign=campaign, base=base, deployments=deployments, seed=12
        )
    units = {u["id"]: u for side in campaign_battle.battle.scenario["sides"] for u in side["units"]}
    placed = units[f"veterans-{veteran.pk}"]
    assert (placed["quality"], placed["order"]) == ("experienced", {"kind": "hold"})
    assert placed["card"]["skill"] == 4  # Experienced under Orders: +2, a shift of +1
    raw = units[f"recruits-{recruits.pk}"]
    assert raw["quality"] == "raw" and "order" not in raw
    assert raw["card"]["skill"] == 2  # Raw: −6, a shift of −2 from printed 3, clamped at 2
    assert units[f"red-mech-{mech.pk}"]["order"] == {"kind": "attack"}


def test_a_raw_unit_without_an_order_holds_in_place(campaign, base, make_unit, enemy):
    from battles.engine import parse_scenario, run_battle

    moved = {}
    for order in (None, {"kind": "attack"}):
        recruits = make_unit(f"Recruits {order is None}", quality="raw", specialties=())
        mech = make_unit(
            f"Red Mech {order is None}", "Mech", specialties=("mechanized",), into=enemy
        )
        deployments = [
            Deployment(unit=recruits, side="blue", position=(6, 3), order=order),
            Deployment(unit=mech, side="red", position=(20, 20), order={"kind": "hold"}),
        ]
        with mock.patch("battles.tasks.resolve_battle.delay"):
            campaign_battle = campaign_battle_launch(
                campaign=campaign, base=base, deployments=deployments, seed=12
            )
        record = run_battle(parse_scenario(campaign_battle.battle.scenario), seed=12)
        engine_id = next(k for k, pk in campaign_battle.engine_units.items() if pk == recruits.pk)
        moves = [e for e in record.events if e.KIND == "move" and e.unit == engine_id]
        moved[order is None] = len(moves)
    assert moved[True] == 0, "Raw without an Order holds in place"
    assert moved[False] > 0, "the same Raw unit under an Attack Order moves"


def test_a_table_result_is_judged_by_the_card_its_units_orders_print(
    campaign, make_unit, enemy, cast
):
    # A Green unit on the Ace Squad card (Skill 5) with no Order cannot act alone: −6, a shift
    # of −2, Skill 3. Under an Order it would be −4, Skill 4: not the card it fought with.
    aces = make_unit("Aces", "Ace Squad", quality="green")
    foe = make_unit("Foe", quality="experienced", into=enemy)

    def record(skill_lost):
        return campaign_battle_record(
            campaign=campaign, name="Ridge", sides={"blue": [aces], "red": [foe]}, winner="red",
            outcomes={aces.pk: {"hits_lost": 0, "skill_lost": skill_lost,
                                "removed": "demoralised"},
                      foe.pk: {"hits_lost": 0, "skill_lost": 0, "removed": "none"}},
            actor=cast.gm,
        )  # fmt: skip

    with pytest.raises(ValidationError) as caught:
        record(3)
    assert caught.value.message_dict == {
        f"outcomes.{aces.pk}.skill_lost": [
            "Aces: at most 2 Skill can be lost: its card's Skill 3 down to 1, where it is broken"
        ]
    }
    assert not CampaignBattle.objects.exists()
    battle = record(2)
    # The Orders it was judged by are kept, so its review and Apply judge it the same way.
    assert battle.orders[str(aces.pk)]["source"] == "none"
    assert campaign_battle_cards(battle)[aces.pk]["skill"] == 3
    campaign_battle_apply(campaign_battle=battle, actor=cast.gm)  # unless applied already
    aces.refresh_from_db()
    assert aces.status == "retreated"
    # Out of action now, it keeps the card it fought with.
    assert campaign_battle_cards(battle)[aces.pk]["skill"] == 3


def test_a_table_result_for_an_earlier_hour_goes_by_the_orders_under_way_then(
    campaign, make_unit, enemy, cast
):
    aces = make_unit("Aces", "Ace Squad", quality="green")
    foe = make_unit("Foe", quality="experienced", into=enemy)
    holt = character_create(campaign=campaign, name="Capt. Holt", hit_points=12)
    order_give(giver=holt, unit=aces, kind="attack")  # under way 00:00 to 02:00
    clock_advance(campaign=campaign, hours=5)
    battle = campaign_battle_record(
        campaign=campaign, name="Dawn", sides={"blue": [aces], "red": [foe]}, winner="red",
        outcomes={aces.pk: {"hits_lost": 0, "skill_lost": 3, "removed": "demoralised"},
                  foe.pk: {"hits_lost": 0, "skill_lost": 0, "removed": "none"}},
        day=1, hour=1, actor=cast.gm,
    )  # fmt: skip
    # At 01:00 it was under the Order: Skill 4, and 3 Skill lost brought it down to 1.
    assert battle.orders[str(aces.pk)]["source"] == "character"
    assert campaign_battle_cards(battle)[aces.pk]["skill"] == 4


def test_a_table_result_entered_late_is_judged_on_the_unit_as_it_stands_when_entered(
    campaign, make_unit, enemy, cast
):
    # Chosen: outcomes reach a unit in the order they are entered. The Aces were shelled at
    # 04:00 (2 Morale hits, two steps off); a fight of 01:00 entered after it is judged on the
    # card they print now, with the Orders of 01:00 (none).
    aces = make_unit("Aces", quality="experienced")
    foe = make_unit("Foe", into=enemy)
    fresh = battle_card(aces, under_orders=False)["skill"]
    clock_advance(campaign=campaign, hours=5)
    unit_edit(unit=aces, changes={"morale_hits": 2}, reason="shelled at 04:00")
    aces.refresh_from_db()
    shaken = battle_card(aces, under_orders=False)["skill"]
    assert shaken < fresh
    held = {"hits_lost": 0, "skill_lost": 0, "removed": "none"}
    battle = campaign_battle_record(
        campaign=campaign, name="Dawn", sides={"blue": [aces], "red": [foe]}, winner=None,
        outcomes={aces.pk: held, foe.pk: held}, day=1, hour=1, actor=cast.gm,
    )  # fmt: skip
    assert campaign_battle_cards(battle)[aces.pk]["skill"] == shaken


def test_a_battle_before_a_unit_joined_the_campaign_is_refused_by_its_name(
    campaign, make_unit, enemy, cast
):
    foe = make_unit("Foe", into=enemy)
    calendar_advance(campaign=campaign, days=3)
    campaign.refresh_from_db()
    recruits = make_unit("Recruits")  # joined on day 4
    held = {"hits_lost": 0, "skill_lost": 0, "removed": "none"}
    record = {
        "campaign": campaign, "name": "Ford", "sides": {"blue": [recruits], "red": [foe]},
        "winner": None, "outcomes": {recruits.pk: held, foe.pk: held}, "actor": cast.gm,
    }  # fmt: skip
    said = "Recruits joined the campaign on day 4: it cannot have fought on day 1"
    with pytest.raises(ValidationError) as refused:
        campaign_battle_record(**record, day=1)
    assert refused.value.message_dict == {"sides.blue": [said]}
    with pytest.raises(ValidationError) as refused:
        outcome_apply(
            campaign=campaign, outcomes={recruits.pk: UnitOutcome(0, 0)}, reason="Ford", day=1
        )
    assert refused.value.message_dict == {f"outcomes.{recruits.pk}": [said]}
    assert not CampaignBattle.objects.exists() and recruits.history.count() == 1
    # The day it joined, it may have fought.
    assert campaign_battle_record(**record, day=4).day == 4


def test_a_table_unit_under_an_order_outside_its_specialties_is_judged_raw_with_poor_kit(
    campaign, make_unit, enemy, cast
):
    # Establish Beachhead needs Amphibious: the Elite rifle squad with Excellent kit performs it
    # as Raw with Poor kit, −10, Skill 2 on its card (Skill 3). Its kit counts as Poor too: it
    # ignores no Morale hit, and the enemy's Excellent kit ignores its first against it.
    marines = make_unit("Marines", quality="elite", equipment="excellent")
    grunts = make_unit("Grunts", quality="elite", equipment="excellent", into=enemy)
    holt = character_create(campaign=campaign, name="Capt. Holt", hit_points=12)
    order_give(giver=holt, unit=marines, kind="establish_beachhead")
    shaken = {"hits_lost": 0, "skill_lost": 1, "removed": "none"}

    def record(marines_lost):
        return campaign_battle_record(
            campaign=campaign, name="Beach", sides={"blue": [marines], "red": [grunts]},
            winner=None, outcomes={marines.pk: marines_lost, grunts.pk: shaken}, actor=cast.gm,
        )  # fmt: skip

    with pytest.raises(ValidationError) as caught:
        record(shaken)
    assert caught.value.message_dict == {
        f"outcomes.{marines.pk}.removed": [
            "Marines: Skill brought down to 1 means broken: mark it Broken (its card's Skill 2, "
            "less the 1 lost, is 1)"
        ]
    }
    battle = record({**shaken, "removed": "demoralised"})
    assert battle.orders[str(marines.pk)]["equipment"] == "poor"
    campaign_battle_apply(campaign_battle=battle, actor=cast.gm)  # unless applied already
    marines.refresh_from_db()
    grunts.refresh_from_db()
    assert (marines.morale_hits, grunts.morale_hits) == (1, 0)
    entry = HistoryEntry.objects.get(kind="battle", unit=grunts)
    assert entry.details["opposing_equipment"] == "poor"


def test_the_same_table_result_sent_twice_is_recorded_and_applied_once(campaign, squads, cast):
    """A double click, or the form sent again from the browser's history: the second finds the
    battle the first recorded, and the units carry its outcome once."""
    campaign_update(campaign=campaign, apply_mode=Campaign.ApplyMode.AUTO)
    (veteran, _), (mech,) = squads["blue"], squads["red"]
    key = uuid.uuid4()
    record = {
        "campaign": campaign,
        "name": "Hill 203",
        "sides": {"blue": [veteran], "red": [mech]},
        "winner": "blue",
        "outcomes": {
            veteran.pk: {"hits_lost": 0, "skill_lost": 0, "removed": "none"},
            mech.pk: {"hits_lost": 0, "skill_lost": 0, "removed": "none"},
        },
        "request_key": key,
        "actor": cast.gm,
    }
    first = campaign_battle_record(**record)
    again = campaign_battle_record(**record)
    assert again == first and first.applications == again.applications == 1
    assert CampaignBattle.objects.filter(name="Hill 203").count() == 1
    assert HistoryEntry.objects.filter(kind="battle", unit=veteran).count() == 1
    veteran.refresh_from_db()
    assert veteran.battles_fought == 1
    # A new form (a new key) is a new battle.
    campaign_battle_record(**{**record, "request_key": uuid.uuid4()})
    assert CampaignBattle.objects.filter(name="Hill 203").count() == 2


def test_a_table_results_entry_tells_a_leaders_death_once_with_its_morale_hits(
    campaign, squads, make_unit
):
    """A leader killed at the table: the working names the wounds, the death and its 2 Morale
    hits in one clause, and the story says the death no more (before, "…; the leader died: 2
    Morale hits at once; …; Lt. Ada Reyes was killed")."""
    from campaign.pages.history_words import entry_words

    led = make_unit("Reyes's Squad", leader={"name": "Lt. Ada Reyes", "hit_points": 1})
    enemy = squads["red"]
    outcomes = {u.pk: {"hits_lost": 0, "skill_lost": 0, "removed": "none"} for u in enemy}
    outcomes[led.pk] = {"hits_lost": 1, "skill_lost": 0, "removed": "destroyed"}
    campaign_battle_record(
        campaign=campaign, name="Barn Skirmish", sides={"blue": [led], "red": enemy},
        winner="red", outcomes=outcomes,
    )  # fmt: skip
    led.refresh_from_db()
    entry = led.history.get(kind="battle")
    why, what = entry_words(entry, led.state.to_json())
    wounds = re.search(
        r"; Lt\. Ada Reyes took \d+ damage \([\d+]+\) and died: 2 Morale hits at once$", why
    )
    assert wounds, why
    assert "the leader died" not in why and "killed" not in what and "Reyes" not in what
    assert led.morale_hits == entry.after["morale_hits"] and led.morale_hits >= 2
