"""Quick resolve: BUCS unit against unit, round by round, every roll logged; and its service."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from campaign.models import HistoryEntry, QuickResolve
from campaign.rules.quick import Stance, quick_resolve
from campaign.rules.state import Status
from campaign.services import quick_resolve_run
from tests.campaign.helpers import dice, unit_state
from units.bucs import Equipment, Quality, Specialty

Q = Quality
TANK = (Specialty.MECHANIZED, Specialty.ARMOR)


def fight(attacker=None, defender=None, *rolls, rounds=5, a_stance=None, d_stance=None):
    return quick_resolve(
        attacker or unit_state(name="Red"),
        defender or unit_state(name="Blue"),
        attacker_stance=a_stance or Stance(),
        defender_stance=d_stance or Stance(),
        round_limit=rounds,
        d20=dice(*rolls),
    )


def round_events(result):
    return [e for e in result.events if e["event"] == "round"]


def test_it_rolls_d20_plus_quality_equipment_and_situation_each_round():
    veteran = unit_state(name="Red", quality=Q.ELITE, equipment=Equipment.GOOD)
    result = fight(veteran, None, 7, 9, rounds=1)
    (first,) = round_events(result)
    assert first["attacker"] == {
        "d20": 7, "quality": 4, "equipment": 2, "situational": {}, "total": 13
    }  # fmt: skip
    assert first["defender"]["total"] == 9 and first["winner"] == "attacker"


def test_it_inflicts_one_hit_per_full_five_points_and_breaks_a_unit_below_raw():
    result = fight(None, None, 15, 5, 10, 14, 20, 1)
    rounds = round_events(result)
    assert [r["hits"] for r in rounds] == [2, 0, 5]
    assert [r["attacker"]["situational"].get("momentum", 0) for r in rounds] == [0, 1, 2]
    # Average survives 3 hits: Morale, Casualty in round 1; Morale, then the Casualty that
    # takes it below Raw in round 3, so it is destroyed.
    assert result.winner == "attacker" and result.rounds == 3
    assert result.defender.removed == "destroyed"
    assert (result.defender.morale_hits, result.defender.casualty_hits) == (2, 2)
    assert result.events[-2] == {"event": "broken", "side": "defender", "removed": "destroyed"}


def test_a_unit_broken_by_a_morale_hit_retreats_in_poor_order():
    result = fight(None, unit_state(name="Blue", quality=Q.RAW), 10, 4)
    assert result.defender.removed == "demoralised" and result.defender.morale_hits == 1


def test_a_tie_inflicts_nothing_and_moves_no_momentum():
    result = fight(None, None, 12, 10, 8, 9, 3, 6, rounds=3)
    rounds = round_events(result)
    assert [r["winner"] for r in rounds] == ["attacker", None, "defender"]
    assert rounds[2]["attacker"]["situational"] == {"momentum": 1}


def test_it_stops_at_the_gms_round_limit_with_no_winner():
    result = fight(None, None, 10, 10, 10, 10, rounds=2)
    assert result.winner is None and result.rounds == 2
    assert result.events[-1] == {"event": "end", "rounds": 2, "winner": None}


def test_it_applies_dug_in_pinned_down_surprise_and_outnumbered():
    result = fight(
        None,
        None,
        10,
        10,
        rounds=1,
        a_stance=Stance(surprise=True, pinned_down=True, units=1),
        d_stance=Stance(dug_in=True, units=3),
    )
    (first,) = round_events(result)
    # Surprise starts the attacker at +2 Momentum, but a dug-in opponent is immune to it;
    # the attacker faces three units (Outnumbered 3:1, −4); the defender is Dug In (+2) and
    # its opponent is Pinned Down (+2).
    assert first["attacker"]["situational"] == {"outnumbered": -4}
    assert first["defender"]["situational"] == {"dug_in": 2, "pinned_down": 2}


def test_it_gives_the_mobile_bonus_per_step_of_mobility():
    tank = unit_state(name="Tank", specialties=TANK)
    (first,) = round_events(fight(tank, None, 10, 10, rounds=1))
    assert first["attacker"]["situational"] == {"mobile": 4}


def test_a_unit_without_a_combat_specialty_fights_as_raw_with_poor_kit():
    medics = unit_state(name="Medics", specialties=(Specialty.MEDICAL,), equipment=Equipment.GOOD)
    (first,) = round_events(fight(medics, None, 10, 10, rounds=1))
    assert (first["attacker"]["quality"], first["attacker"]["equipment"]) == (-6, -4)


def test_its_hits_lower_the_quality_it_fights_at_next_round():
    result = fight(None, None, 20, 10, 10, 10, rounds=2)  # 2 hits on the defender in round 1
    rounds = round_events(result)
    assert rounds[1]["defender"]["quality"] == Q.GREEN.alone_under_orders


def test_armor_ignores_its_first_two_casualty_hits_of_the_engagement():
    tank = unit_state(name="Blue", quality=Q.AVERAGE, specialties=TANK)
    result = fight(tank.but(name="Red"), tank, 21, 1, rounds=1)  # margin 20: 4 hits, M C M C
    hits = [e for e in result.events if e["event"] == "hit"]
    assert [h["ignored"] for h in hits] == [None, "armor", None, "armor"]
    assert (result.defender.morale_hits, result.defender.casualty_hits) == (2, 0)


def test_excellent_equipment_ignores_the_first_morale_hit_against_worse_kit():
    excellent = unit_state(name="Blue", equipment=Equipment.EXCELLENT)
    result = fight(None, excellent, 26, 1, rounds=1)  # margin 21 (Excellent is +4): 4 hits
    hits = [e for e in result.events if e["event"] == "hit"]
    assert [h["ignored"] for h in hits] == ["excellent", None, None, None]
    assert result.defender.excellent_ignored == 1


def test_it_refuses_a_round_limit_out_of_range():
    with pytest.raises(ValueError, match="round limit"):
        fight(rounds=0)


# ---------------------------------------------------------------------------------------------
# The service
# ---------------------------------------------------------------------------------------------


@pytest.fixture
def pair(make_unit, enemy):
    return make_unit("Red Rifles"), make_unit("Blue Rifles", into=enemy)


def test_the_service_stores_the_seed_and_every_roll_and_writes_history(campaign, pair):
    red, blue = pair
    record = quick_resolve_run(campaign=campaign, attacker=red, defender=blue, seed=11)
    record.refresh_from_db()
    assert record.seed == 11 and record.day == campaign.day
    assert record.events[0]["event"] == "start" and record.events[-1]["event"] == "end"
    assert record.round_limit == campaign.quick_resolve_rounds
    for unit in (red, blue):
        entry = unit.history.filter(kind=HistoryEntry.Kind.QUICK_RESOLVE).get()
        assert entry.quick_resolve == record
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
    strip = [{k: v for k, v in e.items() if k != "unit"} for e in first.events]
    assert strip == [{k: v for k, v in e.items() if k != "unit"} for e in again.events]


def test_the_service_applies_the_leaders_wounds(campaign, make_unit, enemy):
    red = make_unit("Red Rifles", quality="legendary")
    blue = make_unit("Blue Rifles", into=enemy, leader={"name": "Maj. Brandt", "hit_points": 30})
    # Seed 3 over three rounds: Blue takes 2 Morale and 1 Casualty hit and holds.
    record = quick_resolve_run(
        campaign=campaign, attacker=red, defender=blue, seed=3, round_limit=3
    )
    blue.refresh_from_db()
    assert (blue.morale_hits, blue.casualty_hits, blue.status) == (2, 1, Status.READY)
    (wounds,) = [e for e in record.events if e["event"] == "leader"]
    assert wounds["side"] == "defender" and len(wounds["rolls"]) == 3
    assert blue.leader.hit_points == 30 - sum(wounds["rolls"])


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"round_limit": 0}, "round_limit"),
        ({"round_limit": 51}, "round_limit"),
        ({"attacker_stance": {"units": 0}}, "attacker_stance"),
        ({"defender_stance": {"flank": True}}, "defender_stance"),
        ({"seed": "x"}, "seed"),
    ],
)
def test_the_service_refuses_bad_input_and_writes_nothing(campaign, pair, changes, field):
    red, blue = pair
    with pytest.raises(ValidationError) as refused:
        quick_resolve_run(campaign=campaign, attacker=red, defender=blue, **changes)
    assert field in refused.value.message_dict
    assert not QuickResolve.objects.exists()


def test_the_service_refuses_two_units_of_one_force_or_one_out_of_action(campaign, make_unit):
    red, other = make_unit("Red Rifles"), make_unit("Red Reserve")
    with pytest.raises(ValidationError, match="same force"):
        quick_resolve_run(campaign=campaign, attacker=red, defender=other)
    other.status = Status.RETREATED
    other.save()
    with pytest.raises(ValidationError, match="cannot fight"):
        quick_resolve_run(campaign=campaign, attacker=red, defender=other)


def test_a_raw_unit_fights_as_raw_with_its_own_kit():
    # Raw may hold no specialty at all: "fights as Raw" is its own −6, not −6 and Poor kit too.
    recruits = unit_state(name="Recruits", quality=Q.RAW, specialties=())
    (first,) = round_events(fight(recruits, None, 10, 10, rounds=1))
    assert (first["attacker"]["quality"], first["attacker"]["equipment"]) == (-6, 0)
