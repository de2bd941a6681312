"""The bridge, line by line (rulings.md, "The bridge"): the card going in, the damage coming out."""

from __future__ import annotations

import pytest

from campaign.bridge import (
    BridgeError,
    UnitOutcome,
    leader_wounds,
    outcome_damage,
    skill_restored_after,
)
from campaign.state import LeaderState, Status
from tests.campaign.helpers import dice, unit_state
from units.bucs import Equipment, Quality, Specialty

Q = Quality
RIFLES = {
    "name": "Rifle Squad",
    "skill": 3,
    "move": 5,
    "resistance": 1,
    "hits": 1,
    "size": 1,
    "melee": None,
    "weapons": [
        {
            "name": "Rifles",
            "power": 2,
            "range": 12,
            "aa": False,
            "buildings_only": False,
            "min_size": None,
            "max_size": None,
            "uses": None,
        }
    ],
    "keywords": [],
    "enters": [],
}
ARMOR = (Specialty.MECHANIZED, Specialty.ARMOR)


def come_out(
    state=None, *, hits=0, skill=0, removed="none", restored=False, enemy="adequate", rolls=()
):
    return outcome_damage(
        state or unit_state(),
        UnitOutcome(hits, skill, removed),
        skill_restored=restored,
        opposing_equipment=Equipment(enemy),
        day=1,
        d6=dice(*rolls),
    )


# ---------------------------------------------------------------------------------------------
# Coming out: damage
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hits", "morale", "casualty"), [(0, 0, 0), (1, 1, 0), (2, 1, 1), (3, 2, 1), (4, 2, 2)]
)
def test_it_splits_hits_half_rounded_up_morale_half_rounded_down_casualty(hits, morale, casualty):
    state, damage = come_out(unit_state(quality=Q.LEGENDARY), hits=hits)
    assert damage.split == (morale, casualty)
    assert (state.morale_hits, state.casualty_hits) == (morale, casualty)


@pytest.mark.parametrize(("hits", "casualty_left"), [(2, 0), (4, 0), (6, 1)])
def test_it_lets_armor_ignore_its_first_two_casualty_hits(hits, casualty_left):
    tank = unit_state(quality=Q.LEGENDARY, specialties=ARMOR)
    state, damage = come_out(tank, hits=hits)
    assert damage.armor_ignored == hits // 2 - casualty_left
    assert state.casualty_hits == casualty_left
    assert state.morale_hits == (hits + 1) // 2  # Armor shrugs off no Morale


def test_it_gives_no_armor_reduction_without_the_armor_specialty():
    state, damage = come_out(unit_state(quality=Q.LEGENDARY), hits=4)
    assert damage.armor_ignored == 0 and state.casualty_hits == 2


def test_it_lets_excellent_equipment_ignore_the_first_morale_hit_against_worse_equipment():
    excellent = unit_state(quality=Q.LEGENDARY, equipment=Equipment.EXCELLENT)
    state, damage = come_out(excellent, hits=3, enemy="good")
    assert damage.excellent_ignored == 1
    assert (state.morale_hits, state.casualty_hits) == (1, 1)


@pytest.mark.parametrize(
    ("own", "enemy"), [("excellent", "excellent"), ("good", "adequate"), ("excellent", None)]
)
def test_it_ignores_no_morale_hit_otherwise(own, enemy):
    # Excellent against Excellent; Good against anything; no Morale hit to ignore at all.
    hits = 0 if enemy is None else 1
    state, damage = come_out(unit_state(equipment=Equipment(own)), hits=hits, enemy=enemy or "poor")
    assert damage.excellent_ignored == 0
    assert state.morale_hits == hits


def test_it_restores_skill_lost_to_suppression_under_one_year_war():
    assert skill_restored_after("one_year_war") is True
    state, damage = come_out(unit_state(), skill=2, restored=True)
    assert state.quality == Q.AVERAGE and state.skill_lost == 0
    assert damage.skill_restored == 2


def test_it_makes_each_point_of_skill_lost_a_quality_step_lost_for_good_under_combined_arms():
    assert skill_restored_after("combined_arms") is False
    state, damage = come_out(unit_state(), skill=2, restored=False)
    assert state.quality == Q.GREEN and state.skill_lost == 2
    assert damage.quality_lost == 2


def test_it_loses_skill_for_good_only_as_far_as_raw():
    state, damage = come_out(unit_state(quality=Q.GREEN), skill=3)
    assert state.quality == Q.RAW and damage.quality_lost == 1 and state.skill_lost == 3


def test_it_refuses_an_unknown_ruleset():
    with pytest.raises(BridgeError):
        skill_restored_after("chess")


# ---------------------------------------------------------------------------------------------
# Coming out: destroyed, retreated, the leader
# ---------------------------------------------------------------------------------------------


def test_it_destroys_utterly_a_unit_destroyed_in_battle():
    state, _ = come_out(unit_state(quality=Q.LEGENDARY), hits=1, removed="destroyed")
    assert state.status == Status.DESTROYED and not state.in_combat_zone


def test_it_retreats_a_demoralised_unit_in_poor_order_keeping_its_hits():
    state, _ = come_out(unit_state(), hits=2, skill=1, removed="demoralised")
    assert state.status == Status.RETREATED
    assert (state.morale_hits, state.casualty_hits) == (1, 1)
    assert not state.in_combat_zone  # it ran: out of the combat zone


def test_it_retreats_a_unit_left_on_the_table_whose_hits_take_it_below_raw():
    # Green survives one hit; two leave it below Raw, though the table never removed it.
    state, _ = come_out(unit_state(quality=Q.GREEN), hits=2)
    assert state.below_raw and state.status == Status.RETREATED


def test_it_keeps_a_unit_that_fought_in_the_combat_zone_and_counts_the_battle():
    state, _ = come_out(unit_state(), hits=1)
    assert state.status == Status.READY and state.in_combat_zone
    assert state.battles_fought == 1 and state.last_battle_day == 1


def test_it_wounds_the_leader_3d6_per_casualty_hit():
    led = unit_state(quality=Q.LEGENDARY, leader=LeaderState("Sgt. Kay", 30))
    state, damage = come_out(led, hits=4, rolls=(1, 2, 3, 4, 5, 6))
    assert damage.leader_rolls == (1, 2, 3, 4, 5, 6)
    assert state.leader == LeaderState("Sgt. Kay", 30 - 21, alive=True)
    assert state.morale_hits == 2  # the leader lives: no extra Morale hits


def test_it_spares_the_leader_when_the_unit_takes_only_morale_hits():
    led = unit_state(leader=LeaderState("Sgt. Kay", 5))
    state, damage = come_out(led, hits=1)
    assert damage.leader_rolls == () and state.leader.hit_points == 5


def test_it_gives_the_unit_2_morale_hits_at_once_when_its_leader_dies():
    led = unit_state(quality=Q.LEGENDARY, leader=LeaderState("Sgt. Kay", 5))
    state, damage = come_out(led, hits=2, rolls=(6, 6, 6))
    assert damage.leader_died and not state.leader.alive
    assert state.leader.hit_points == -13
    assert (state.morale_hits, state.casualty_hits) == (1 + 2, 1)


def test_it_kills_a_leader_at_minus_ten_hit_points_not_before():
    leader = LeaderState("Sgt. Kay", 5)
    assert leader_wounds(leader, 1, dice(5, 5, 4))[0].alive  # −9: dying, not dead
    assert not leader_wounds(leader, 1, dice(5, 5, 5))[0].alive  # −10: dead


def test_it_wounds_a_dead_leader_no_more():
    dead = LeaderState("Sgt. Kay", -12, alive=False)
    assert leader_wounds(dead, 3, dice()) == (dead, (), False)


def test_the_leaders_death_can_break_the_unit():
    led = unit_state(quality=Q.INEXPERIENCED, leader=LeaderState("Sgt. Kay", 1))
    state, _ = come_out(led, hits=2, rolls=(4, 4, 4))
    assert state.hits == 4 and state.status == Status.RETREATED


def test_it_refuses_an_outcome_for_a_unit_out_of_action():
    with pytest.raises(BridgeError, match="could not have fought"):
        come_out(unit_state(status=Status.RETREATED), hits=1)


@pytest.mark.parametrize(
    "fields",
    [(-1, 0, "none"), (0, -1, "none"), (1, 0, "fled"), (True, 0, "none"), (1.5, 0, "none")],
)
def test_it_refuses_a_malformed_outcome(fields):
    with pytest.raises(BridgeError):
        UnitOutcome(*fields)
