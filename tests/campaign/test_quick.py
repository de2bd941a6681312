"""Quick resolve: one unit against another, fought as a one-against-one engagement (the same
rules and log as `campaign.rules.engagement`); and its service."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError

from campaign.models import Campaign, CampaignBattle, Engagement, HistoryEntry, Unit
from campaign.rules.engagement import Engaged, EngagementError, engagement_fight
from campaign.rules.quick import Stance, quick_resolve
from campaign.rules.state import Status
from campaign.services import campaign_update, quick_resolve_run, unit_edit
from campaign.services.battles import campaign_battle_apply, campaign_battle_record
from campaign.services.quick import quick_resolve_preview
from campaign.services.recovery import time_pass
from tests.campaign.helpers import dice, unit_state
from units.bucs import Equipment, Quality, Specialty

Q = Quality
E = Equipment


def fight(attacker=None, defender=None, *rolls, rounds=5, a_stance=None, d_stance=None, d6s=()):
    return quick_resolve(
        attacker or unit_state(name="Red"),
        defender or unit_state(name="Blue"),
        attacker_stance=a_stance or Stance(),
        defender_stance=d_stance or Stance(),
        round_limit=rounds,
        d20=dice(*rolls),
        d6=dice(*d6s),
    )


def pairings(result):
    return [e for e in result.events if e["event"] == "pairing"]


def mods(roll):
    return {name: value for name, value in roll["modifiers"]}


def test_a_quick_resolve_is_the_engagement_of_one_unit_a_side():
    red, blue = unit_state(name="Red", quality=Q.ELITE), unit_state(name="Blue")
    rolls = (14, 6, 9, 12, 17, 3)
    quick = fight(red, blue, *rolls, rounds=3)
    engagement = engagement_fight(
        {"attackers": [Engaged("attacker", red)], "defenders": [Engaged("defender", blue)]},
        round_limit=3, d20=dice(*rolls), d6=dice(),
    )  # fmt: skip
    assert quick == engagement  # the same rules, die for die, and the same log
    assert [p["attackers"]["unit"] for p in pairings(quick)] == ["attacker"] * len(pairings(quick))


def test_its_stances_are_the_engagements_situation():
    result = fight(
        None, None, 10, 10, rounds=1,
        a_stance=Stance(pinned_down=True), d_stance=Stance(dug_in=True),
    )  # fmt: skip
    (pairing,) = pairings(result)
    # Dug In is Dug In; Pinned Down is fire from several directions, which pins even a unit
    # that is dug in, and gives its opponent +2.
    assert mods(pairing["defenders"])["Dug In"] == 2
    assert mods(pairing["defenders"])["Red Pinned Down"] == 2
    (round_event,) = [e for e in result.events if e["event"] == "round"]
    assert round_event["pinned"] == {"attacker": ["fire from several directions"]}
    dug_in_and_pinned = fight(
        None, None, 10, 10, rounds=1, a_stance=Stance(dug_in=True, pinned_down=True)
    )
    assert mods(pairings(dug_in_and_pinned)[0]["defenders"])["Red Pinned Down"] == 2


def test_surprise_is_a_hide_check_against_a_spot_check():
    won = fight(None, None, 15, 2, 10, 10, rounds=1, a_stance=Stance(surprise=True))
    (surprise,) = [e for e in won.events if e["event"] == "surprise"]
    assert (surprise["hiding"], surprise["winner"]) == ("attackers", "attackers")
    assert mods(pairings(won)[0]["attackers"])["Momentum"] == 2
    spotted = fight(None, None, 2, 15, 10, 10, rounds=1, a_stance=Stance(surprise=True))
    (surprise,) = [e for e in spotted.events if e["event"] == "surprise"]
    assert (surprise["winner"], surprise["momentum"]) == ("defenders", None)
    assert "Momentum" not in mods(pairings(spotted)[0]["defenders"])
    assert "Momentum" not in mods(pairings(spotted)[0]["attackers"])
    with pytest.raises(ValueError, match="only one side"):
        fight(a_stance=Stance(surprise=True), d_stance=Stance(surprise=True))


def test_a_unit_broken_by_a_casualty_hit_is_destroyed():
    # Green holds one hit: the Morale hit first, then the Casualty hit that breaks it.
    result = fight(None, unit_state(name="Blue", quality=Q.GREEN), 20, 1, rounds=1)
    hits = [e["kind"] for e in result.events if e["event"] == "hit"]
    assert hits[:2] == ["morale", "casualty"]
    assert result.damage["defender"].removed == "destroyed"
    assert result.winner == "attackers"
    assert {"event": "broken", "round": 1, "unit": "defender", "removed": "destroyed"} in (
        result.events
    )


def test_a_unit_broken_by_a_morale_hit_retreats_in_poor_order():
    result = fight(None, unit_state(name="Blue", quality=Q.RAW), 10, 4, rounds=1)
    assert result.damage["defender"].removed == "demoralised"
    assert result.damage["defender"].morale_hits == 1


def test_it_inflicts_one_hit_per_full_five_points_of_margin():
    (first,) = pairings(fight(None, None, 15, 5, rounds=1))
    assert (first["margin"], first["hits"], first["winner"]) == (10, 2, "attackers")
    (nine,) = pairings(fight(None, None, 14, 5, rounds=1))
    assert (nine["margin"], nine["hits"]) == (9, 1)


def test_a_tie_inflicts_nothing_and_moves_no_momentum():
    # Round 1 won by 2 (no hit, +1 Momentum); round 2 a tie, the Momentum making up the die.
    result = fight(None, None, 12, 10, 8, 9, 10, 10, rounds=3)
    first, tie, third = pairings(result)
    assert (first["winner"], tie["winner"], tie["hits"]) == ("attackers", None, 0)
    # The Momentum won in round 1 is still there in round 3: the tie moved none.
    assert mods(third["attackers"])["Momentum"] == mods(tie["attackers"])["Momentum"] == 1


def test_its_hits_lower_the_quality_it_fights_at_next_round():
    result = fight(None, None, 20, 10, 10, 10, rounds=2)  # 2 hits on the defender in round 1
    first, second = pairings(result)
    quality = [name for name, _ in second["defenders"]["modifiers"] if name.startswith("quality")]
    assert quality[0].startswith("quality: Green")
    assert [n for n, _ in first["defenders"]["modifiers"] if n.startswith("quality: Average")]


def test_it_stops_at_the_gms_round_limit_with_no_winner():
    result = fight(None, None, 10, 10, 10, 10, rounds=2)
    assert result.winner is None and result.rounds == 2
    assert result.events[-1] == {"event": "end", "rounds": 2, "winner": None}


def test_it_refuses_a_round_limit_out_of_range():
    with pytest.raises(EngagementError, match="round limit"):
        fight(rounds=0)
    with pytest.raises(EngagementError, match="round limit"):
        fight(rounds=51)


def test_a_raw_unit_without_infantry_fights_with_poor_kit_as_any_other():
    # Raw may hold no specialty at all, so it is always without Infantry: Raw it is, and its
    # Excellent kit counts as Poor ("a unit pressed into a task outside its specialties").
    recruits = unit_state(name="Recruits", quality=Q.RAW, specialties=(), equipment=E.EXCELLENT)
    (pairing,) = pairings(fight(recruits, None, 10, 10, rounds=1))
    assert mods(pairing["attackers"])["equipment: Poor"] == -4
    assert "equipment: Excellent" not in mods(pairing["attackers"])
    medics = unit_state(name="Medics", specialties=(Specialty.MEDICAL,))
    (pairing,) = pairings(fight(medics, None, 10, 10, rounds=1))
    assert mods(pairing["attackers"])["equipment: Poor"] == -4


# ---------------------------------------------------------------------------------------------
# The service
# ---------------------------------------------------------------------------------------------


@pytest.fixture
def pair(make_unit, enemy):
    return make_unit("Red Rifles"), make_unit("Blue Rifles", into=enemy)


def test_the_service_stores_the_seed_and_every_roll_and_writes_history(campaign, pair):
    red, blue = pair
    record = quick_resolve_run(campaign=campaign, attacker=red, defender=blue, seed=11,
                               defender_stance={"dug_in": True})  # fmt: skip
    record.refresh_from_db()
    assert isinstance(record, Engagement) and record.seed == 11 and record.day == campaign.day
    assert record.setup["sides"] == {"attackers": [red.pk], "defenders": [blue.pk]}
    assert record.setup["situations"][str(blue.pk)]["dug_in"] is True
    assert record.events[0]["event"] == "unit" and record.events[-1]["event"] == "end"
    assert record.round_limit == campaign.quick_resolve_rounds
    assert record.name == "quick resolve, Red Rifles against Blue Rifles"
    for unit in (red, blue):
        entry = unit.history.filter(kind=HistoryEntry.Kind.ENGAGEMENT).get()
        assert entry.details["engagement"] == record.pk and entry.pk in record.applied_entries
        assert entry.after["battles_fought"] == 1 and entry.after["last_battle_day"] == 1


def test_the_service_is_reproducible_from_its_seed(campaign, pair, make_unit, enemy):
    red, blue = pair
    first = quick_resolve_run(campaign=campaign, attacker=red, defender=blue, seed=5)
    again = quick_resolve_run(
        campaign=campaign,
        attacker=make_unit("Red Twin"),
        defender=make_unit("Blue Twin", into=enemy),
        seed=5,
    )
    rolls = [[p[side]["d20"] for side in ("attackers", "defenders")] for p in first.events
             if p["event"] == "pairing"]  # fmt: skip
    assert rolls and rolls == [
        [p[side]["d20"] for side in ("attackers", "defenders")]
        for p in again.events
        if p["event"] == "pairing"
    ]
    assert (first.rounds, first.winner) == (again.rounds, again.winner)


LEADER_SEED = 3
"""A seed on which the defender's leader is wounded within three rounds."""


def test_the_service_applies_the_leaders_wounds(campaign, make_unit, enemy):
    red = make_unit("Red Rifles", quality="legendary")
    blue = make_unit("Blue Rifles", into=enemy, leader={"name": "Maj. Brandt", "hit_points": 30})
    record = quick_resolve_run(
        campaign=campaign, attacker=red, defender=blue, seed=LEADER_SEED, round_limit=3
    )
    blue.refresh_from_db()
    wounds = [e for e in record.events if e["event"] == "leader"]
    assert wounds and all(w["unit"] == str(blue.pk) for w in wounds)
    # 3d6 for each Casualty hit, as it lands.
    assert sum(len(w["rolls"]) for w in wounds) == 3 * blue.casualty_hits
    assert blue.leader.hit_points == 30 - sum(r for w in wounds for r in w["rolls"])


def test_a_quick_resolve_reverts_like_any_engagement(campaign, pair):
    from campaign.services.engagements import engagement_revert

    red, blue = pair
    before = [(u.morale_hits, u.casualty_hits, u.battles_fought) for u in pair]
    record = quick_resolve_run(campaign=campaign, attacker=red, defender=blue, seed=2)
    engagement_revert(engagement=record, reason="never happened")
    for unit in pair:
        unit.refresh_from_db()
    assert [(u.morale_hits, u.casualty_hits, u.battles_fought) for u in pair] == before


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"round_limit": 0}, "round_limit"),
        ({"round_limit": 51}, "round_limit"),
        ({"attacker_stance": {"units": 3}}, "attacker_stance"),
        ({"attacker_stance": {"dug_in": "yes"}}, "attacker_stance"),
        ({"defender_stance": {"flank": True}}, "defender_stance"),
        ({"attacker_stance": {"surprise": True}, "defender_stance": {"surprise": True}},
         "defender_stance"),
        ({"seed": "x"}, "seed"),
    ],
)  # fmt: skip
def test_the_service_refuses_bad_input_and_writes_nothing(campaign, pair, changes, field):
    red, blue = pair
    entries = HistoryEntry.objects.count()
    with pytest.raises(ValidationError) as refused:
        quick_resolve_run(campaign=campaign, attacker=red, defender=blue, **changes)
    assert field in refused.value.message_dict
    assert not Engagement.objects.exists() and HistoryEntry.objects.count() == entries


def test_the_service_refuses_two_units_of_one_force_or_one_out_of_action(campaign, make_unit):
    red, other = make_unit("Red Rifles"), make_unit("Red Reserve")
    entries = HistoryEntry.objects.count()
    with pytest.raises(ValidationError) as refused:
        quick_resolve_run(campaign=campaign, attacker=red, defender=other)
    assert refused.value.message_dict == {
        "defender": [
            "Red Company is on both sides: a force cannot fight itself; "
            "choose a unit of another force"
        ]
    }
    assert not Engagement.objects.exists() and HistoryEntry.objects.count() == entries
    other.status = Status.RETREATED
    other.save()
    with pytest.raises(ValidationError, match="cannot fight"):
        quick_resolve_run(campaign=campaign, attacker=red, defender=other)


def test_the_service_refuses_a_unit_against_itself_as_a_unit_not_its_force(campaign, pair):
    red, _ = pair
    entries = HistoryEntry.objects.count()
    with pytest.raises(ValidationError) as refused:
        quick_resolve_run(campaign=campaign, attacker=red, defender=red)
    assert refused.value.message_dict == {
        "defender": [
            f"{red.name} is on both sides: a unit cannot fight itself; "
            "choose a unit of another force"
        ]
    }
    assert not Engagement.objects.exists() and HistoryEntry.objects.count() == entries


def test_the_service_refuses_a_unit_whose_battle_awaits_its_outcome(campaign, pair, make_unit):
    campaign_update(campaign=campaign, apply_mode=Campaign.ApplyMode.REVIEW)
    red, blue = pair
    comrade = make_unit("Red Reserve")
    untouched = {"hits_lost": 0, "skill_lost": 0, "removed": "none"}
    battle = campaign_battle_record(
        campaign=campaign, name="Hill 112", sides={"x": [comrade], "y": [blue]}, winner=None,
        outcomes={comrade.pk: untouched, blue.pk: untouched},
    )  # fmt: skip
    entries = HistoryEntry.objects.count()
    with pytest.raises(ValidationError) as refused:
        quick_resolve_run(campaign=campaign, attacker=red, defender=blue, seed=2)
    assert refused.value.message_dict == {
        "defender": ["Blue Rifles is still in Hill 112, whose outcome is not applied yet"]
    }
    assert not Engagement.objects.exists() and HistoryEntry.objects.count() == entries
    campaign_battle_apply(campaign_battle=battle)
    battle.refresh_from_db()
    assert battle.state == CampaignBattle.State.APPLIED


def test_the_service_refuses_a_reason_that_is_not_text(campaign, pair):
    red, blue = pair
    with pytest.raises(ValidationError) as refused:
        quick_resolve_run(campaign=campaign, attacker=red, defender=blue, reason=None)
    assert refused.value.message_dict == {"reason": ["must be text, got empty (null)"]}
    assert not Engagement.objects.exists()


def _rows():
    """How many rows each table holds: a preview writes none of them."""
    return {model._meta.label: model.objects.count() for model in apps.get_models()}


def test_a_reviewed_quick_resolve_applies_what_its_preview_showed(campaign, pair):
    red, blue = pair
    before = _rows()
    preview = quick_resolve_preview(campaign=campaign, attacker=red, defender=blue,
                                    defender_stance={"dug_in": True}, round_limit=4)  # fmt: skip
    assert _rows() == before  # a pure read: not a row written
    shown = preview.engagement
    assert shown.pk is None and shown.seed is not None and shown.events[-1]["event"] == "end"
    record = quick_resolve_run(campaign=campaign, attacker=red, defender=blue,
                               defender_stance={"dug_in": True}, round_limit=4, seed=shown.seed,
                               reviewed=preview.reviewed)  # fmt: skip
    # The same dice: the same rounds, hits and winner, and each unit left as the preview said.
    assert (record.events, record.rounds, record.winner) == (
        shown.events,
        shown.rounds,
        shown.winner,
    )
    for unit, _, after in preview.rows:
        assert Unit.objects.get(pk=unit.pk).state == after


def test_a_reviewed_quick_resolve_is_refused_once_a_unit_or_the_clock_moved(campaign, pair):
    red, blue = pair
    preview = quick_resolve_preview(campaign=campaign, attacker=red, defender=blue)
    apply = dict(campaign=campaign, attacker=red, defender=blue, seed=preview.engagement.seed,
                 reviewed=preview.reviewed)  # fmt: skip
    unit_edit(unit=blue, changes={"morale_hits": 1}, reason="shelled")
    rows = _rows()
    with pytest.raises(ValidationError) as refused:
        quick_resolve_run(**apply)
    assert refused.value.message_dict == {
        "reviewed": ["Blue Rifles has changed since you reviewed this engagement: review it again."]
    }
    assert _rows() == rows  # nothing written
    unit_edit(unit=blue, changes={"morale_hits": 0}, reason="rested")
    time_pass(campaign=campaign, hours=1)  # the units as they were, the clock an hour on
    rows = _rows()
    with pytest.raises(ValidationError) as refused:
        quick_resolve_run(**apply)
    assert "would no longer be fought as you reviewed it" in refused.value.messages[0]
    assert _rows() == rows
