"""The bridge, line by line (rulings.md, "The bridge"): the card going in, the damage coming out."""

from __future__ import annotations

import dataclasses

import pytest

from battles.engine.events import Removal
from campaign.rules.bridge import BridgeError, going_in
from campaign.rules.damage import (
    CARD_MOST_BUCS_HITS,
    UnitOutcome,
    blow_hits,
    blows_dealt,
    blows_held,
    leader_wounds,
    skill_restored_after,
)
from campaign.rules.recovery import casualties_die, rest_day
from campaign.rules.state import LeaderState, Status
from tests.campaign.helpers import come_out, dice, unit_state
from units.bucs import Equipment, Quality, Specialty, effective_quality

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
MECH = {**RIFLES, "name": "Mech", "skill": 4}
ARMOR = (Specialty.MECHANIZED, Specialty.ARMOR)


# ---------------------------------------------------------------------------------------------
# Coming out: blows and the split
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card_hits", "die", "bucs_hits"),
    [(1, 1, 1), (1, 6, 6), (2, 1, 1), (2, 2, 1), (2, 3, 2), (2, 6, 3), (3, 4, 2), (6, 6, 1)],
)
def test_each_hit_lost_is_a_blow_of_its_d6_over_the_cards_hits_rounded_up(
    card_hits, die, bucs_hits
):
    assert blow_hits(die, card_hits) == bucs_hits


def test_the_whole_of_any_card_is_never_more_than_six_bucs_hits():
    for card_hits in (1, 2, 3, 6):  # every Hits a shipped unit card prints: 6 is a multiple
        assert blows_dealt((6,) * card_hits, card_hits) == 6 == CARD_MOST_BUCS_HITS
    for card_hits in range(1, 25):  # a library may hold a card of any Hits
        assert blows_held((6,) * card_hits, card_hits) <= CARD_MOST_BUCS_HITS


@pytest.mark.parametrize(("card_hits", "dealt"), [(4, 8), (5, 10), (9, 9)])
def test_one_battles_blows_are_held_to_six_bucs_hits_whatever_the_cards_hits(card_hits, dealt):
    # Every blow die a 6: a 4-Hit card's blows deal 2 each, 8 in all; a 5-Hit card's 2 each,
    # 10; a 9-Hit card's 1 each, 9. Held to 6, split by six 6s: 6 Casualty hits, and the dead
    # leave a Legendary unit Raw, not destroyed.
    state, damage = come_out(unit_state(quality=Q.LEGENDARY), hits=card_hits, card_hits=card_hits,
                             removed="destroyed", rolls=(6,) * (card_hits + 6))  # fmt: skip
    assert blows_dealt(damage.blow_dice, card_hits) == dealt
    assert len(damage.split_dice) == 6 and damage.split == (0, 6) and state.casualty_hits == 6
    after, dead = casualties_die(state)
    assert dead == 6 and after.quality == Q.RAW and after.status != Status.DESTROYED


def test_a_card_has_a_hit_to_divide_a_blow_by():
    with pytest.raises(BridgeError, match="a card has 1 Hit or more, got 0"):
        blow_hits(4, 0)


def test_each_bucs_hit_is_casualty_on_a_d6_of_four_or_more_else_morale():
    # One Hit lost on a 1-Hit card: blow die 4 → 4 BUCS hits, split dice 1, 4, 3, 6.
    state, damage = come_out(unit_state(quality=Q.LEGENDARY), hits=1, removed="destroyed",
                             rolls=(4, 1, 4, 3, 6))  # fmt: skip
    assert damage.blow_dice == (4,) and damage.split_dice == (1, 4, 3, 6)
    assert damage.split == (2, 2)
    assert (state.morale_hits, state.casualty_hits) == (2, 2)


def test_a_two_hit_card_losing_one_hit_takes_a_smaller_blow():
    state, damage = come_out(unit_state(quality=Q.LEGENDARY), hits=1, card_hits=2,
                             rolls=(6, 5, 2, 4))  # fmt: skip
    assert damage.split == (1, 2) and state.status == Status.READY


def test_a_single_lost_hit_can_leave_casualty_hits_whatever_the_count():
    # No parity: one Hit lost is not "1 Morale, 0 Casualty" by rounding; the dice decide.
    _, one = come_out(unit_state(), hits=1, removed="destroyed", rolls=(1, 6))
    assert one.split == (0, 1)
    _, two = come_out(unit_state(quality=Q.LEGENDARY), hits=2, card_hits=2,
                      removed="destroyed", rolls=(1, 1, 1, 1))  # fmt: skip
    assert two.split == (2, 0)


@pytest.mark.parametrize(("casualty", "left"), [(1, 0), (2, 0), (3, 1)])
def test_it_lets_armor_ignore_its_first_two_casualty_hits(casualty, left):
    tank = unit_state(quality=Q.LEGENDARY, specialties=ARMOR)
    rolls = (casualty, *([6] * casualty))
    state, damage = come_out(tank, hits=1, removed="destroyed", rolls=rolls)
    assert damage.armor_ignored == casualty - left and state.casualty_hits == left


def test_it_gives_no_armor_reduction_without_the_armor_specialty():
    state, damage = come_out(unit_state(quality=Q.LEGENDARY), hits=1, removed="destroyed",
                             rolls=(2, 6, 6))  # fmt: skip
    assert damage.armor_ignored == 0 and state.casualty_hits == 2


def test_it_lets_excellent_equipment_ignore_the_first_morale_hit_against_worse_equipment():
    excellent = unit_state(quality=Q.LEGENDARY, equipment=Equipment.EXCELLENT)
    state, damage = come_out(excellent, hits=1, removed="destroyed", enemy="good",
                             rolls=(3, 1, 1, 6))  # fmt: skip
    assert damage.excellent_ignored == 1
    assert (state.morale_hits, state.casualty_hits) == (1, 1)


@pytest.mark.parametrize(
    ("own", "enemy"), [("excellent", "excellent"), ("good", "adequate"), ("excellent", None)]
)
def test_it_ignores_no_morale_hit_otherwise(own, enemy):
    # Excellent against Excellent; Good against anything; no Morale hit to ignore at all.
    morale = 0 if enemy is None else 1
    state, damage = come_out(
        unit_state(equipment=Equipment(own)), skill=morale, enemy=enemy or "poor"
    )
    assert damage.excellent_ignored == 0
    assert state.morale_hits == morale


# ---------------------------------------------------------------------------------------------
# Coming out: suppression is shock in both rulesets; a step lost for good only under Combined Arms
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("restored", [False, True], ids=["combined_arms", "one_year_war"])
def test_each_point_of_skill_lost_to_suppression_is_a_morale_hit_in_both_rulesets(restored):
    state, damage = come_out(unit_state(quality=Q.LEGENDARY), skill=2, restored=restored)
    assert damage.shock == 2 and state.morale_hits == 2 and state.casualty_hits == 0
    assert damage.morale_hits == 2


def test_it_restores_skill_lost_to_suppression_under_one_year_war():
    assert skill_restored_after("one_year_war") is True
    state, damage = come_out(unit_state(), skill=2, restored=True)
    assert state.quality == Q.AVERAGE and state.skill_lost == 0
    assert damage.skill_restored == 2 and damage.skill_lost_for_good == 0
    assert damage.quality_lost == 0


def test_under_one_year_war_the_shock_heals_and_the_card_prints_as_before():
    # "Restore Skill for the next scenario if the unit survives": no step is lost. The shock is
    # Morale hits, which R&R heals (the last out of the combat zone); healed, the unit's card
    # prints exactly as it did before the battle.
    def skill(state):
        effective = effective_quality(state.quality, state.morale_hits, state.casualty_hits)
        return going_in(MECH, effective=effective).skill

    start = unit_state()
    state, _ = come_out(start, skill=2, restored=True)
    assert state.morale_hits == 2 and state.status == Status.READY and state.in_combat_zone
    assert skill(state) < skill(start)
    state = rest_day(rest_day(dataclasses.replace(state, in_combat_zone=False)))
    assert (state.quality, state.morale_hits, state.skill_lost) == (Q.AVERAGE, 0, 0)
    assert skill(state) == skill(start)


def test_under_one_year_war_excellent_equipment_ignores_the_first_morale_hit_of_the_shock():
    excellent = unit_state(quality=Q.LEGENDARY, equipment=Equipment.EXCELLENT)
    state, damage = come_out(excellent, skill=2, restored=True, enemy="good")
    assert (damage.excellent_ignored, damage.morale_hits, state.morale_hits) == (1, 1, 1)
    # Against kit as good as its own it ignores nothing.
    state, damage = come_out(excellent, skill=2, restored=True, enemy="excellent")
    assert (damage.excellent_ignored, state.morale_hits) == (0, 2)


def test_it_makes_each_point_of_skill_lost_a_quality_step_lost_for_good_under_combined_arms():
    assert skill_restored_after("combined_arms") is False
    state, damage = come_out(unit_state(), skill=2, restored=False)
    assert state.quality == Q.GREEN and state.skill_lost == 2
    assert damage.quality_lost == 2


@pytest.mark.parametrize(
    ("quality", "before", "healed"),
    [(Q.AVERAGE, 4, 3), (Q.EXPERIENCED, 5, 4), (Q.ELITE, 5, 5), (Q.INEXPERIENCED, 3, 3)],
)
def test_what_never_returns_under_combined_arms_is_the_step_whatever_the_card_prints(
    quality, before, healed
):
    # One point of Skill lost costs a step for good. The card prints Skill by the step's
    # modifier ÷ 4: where the step below shifts it as much (Elite and Experienced +1,
    # Inexperienced and Green −1), the card prints the same Skill once R&R has healed the
    # Morale hit; the unit is a step weaker all the same (docs/campaign.md §1.2, item 3).
    def skill(state):
        effective = effective_quality(state.quality, state.morale_hits, state.casualty_hits)
        return going_in(MECH, effective=effective).skill

    start = unit_state(quality=quality)
    assert skill(start) == before
    state, _ = come_out(start, skill=1, restored=False)
    assert state.quality == quality.lowered() and state.morale_hits == 1
    assert skill(state) < before
    state = rest_day(dataclasses.replace(state, in_combat_zone=False))
    assert state.morale_hits == 0 and state.quality == quality.lowered()
    assert skill(state) == healed


def test_it_loses_skill_for_good_only_as_far_as_raw():
    state, damage = come_out(unit_state(quality=Q.GREEN), skill=3)
    assert state.quality == Q.RAW and damage.quality_lost == 1 and state.skill_lost == 3


def test_it_refuses_an_unknown_ruleset():
    with pytest.raises(BridgeError):
        skill_restored_after("chess")


# ---------------------------------------------------------------------------------------------
# Coming out: taken out is not dead; retreated; the leader
# ---------------------------------------------------------------------------------------------


def test_a_unit_taken_out_retreats_in_poor_order_and_its_fate_waits_for_the_medics():
    state, _ = come_out(unit_state(quality=Q.LEGENDARY), hits=1, removed="destroyed",
                        rolls=(2, 6, 6))  # fmt: skip
    assert state.status == Status.RETREATED and not state.in_combat_zone
    assert state.casualty_hits == 2 and state.last_battle_day == 1


def test_it_retreats_a_demoralised_unit_in_poor_order_keeping_its_hits():
    state, _ = come_out(unit_state(quality=Q.LEGENDARY), skill=3, removed="demoralised")
    assert state.status == Status.RETREATED
    assert (state.morale_hits, state.casualty_hits) == (3, 0)
    assert not state.in_combat_zone  # it ran: out of the combat zone


def test_under_one_year_war_a_demoralised_unit_retreats_with_its_shock_and_rallies_by_rr():
    # Its Skill is restored, no step lost; the shock of being broken is Morale hits, and it is
    # out of action, as under Combined Arms, until a day of R&R rallies it.
    state, _ = come_out(unit_state(), skill=2, removed="demoralised", restored=True)
    assert state.status == Status.RETREATED and not state.in_combat_zone
    assert (state.quality, state.morale_hits, state.casualty_hits) == (Q.AVERAGE, 2, 0)
    rested = rest_day(state)
    assert rested.status == Status.READY and rested.morale_hits == 1


def test_it_retreats_a_unit_left_on_the_table_whose_hits_take_it_below_raw():
    # Green survives one hit; two leave it below Raw, though the table never removed it.
    state, _ = come_out(unit_state(quality=Q.GREEN), hits=1, card_hits=2, rolls=(3, 1, 1))
    assert state.below_raw and state.status == Status.RETREATED


def test_it_keeps_a_unit_that_fought_in_the_combat_zone_and_counts_the_battle():
    state, _ = come_out(unit_state(), hits=1, card_hits=2, rolls=(1, 2))
    assert state.status == Status.READY and state.in_combat_zone
    assert state.battles_fought == 1 and state.last_battle_day == 1


def test_it_wounds_the_leader_3d6_per_casualty_hit():
    led = unit_state(quality=Q.LEGENDARY, leader=LeaderState("Sgt. Kay", 30))
    state, damage = come_out(led, hits=1, removed="destroyed",
                             rolls=(3, 1, 4, 5, 1, 2, 3, 4, 5, 6))  # fmt: skip
    assert damage.split == (1, 2)
    assert damage.leader_rolls == (1, 2, 3, 4, 5, 6)
    assert state.leader == LeaderState("Sgt. Kay", 30 - 21, alive=True)
    assert state.morale_hits == 1  # the leader lives: no extra Morale hits


def test_it_spares_the_leader_when_the_unit_takes_only_morale_hits():
    led = unit_state(leader=LeaderState("Sgt. Kay", 5))
    state, damage = come_out(led, hits=1, card_hits=2, rolls=(1, 3))
    assert damage.leader_rolls == () and state.leader.hit_points == 5


def test_it_gives_the_unit_2_morale_hits_at_once_when_its_leader_dies():
    led = unit_state(quality=Q.LEGENDARY, leader=LeaderState("Sgt. Kay", 5))
    state, damage = come_out(led, hits=1, card_hits=2, rolls=(3, 1, 6, 6, 6, 6))
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
    state, _ = come_out(led, hits=1, card_hits=2, rolls=(2, 6, 4, 4, 4))
    assert state.hits == 3 and state.status == Status.RETREATED


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


def test_an_outcome_reads_its_removal_as_the_engine_names_it_and_writes_the_same_text():
    outcome = UnitOutcome(1, 0, "destroyed")
    assert outcome.removed is Removal.DESTROYED
    assert UnitOutcome.from_dict(outcome.to_dict()) == outcome
    assert UnitOutcome.from_dict({"hits_lost": 0, "skill_lost": 0}).removed is Removal.NONE
    # The dice of an applied outcome are seeded from this text; it reads as it always has.
    assert repr(outcome) == "UnitOutcome(hits_lost=1, skill_lost=0, removed='destroyed')"
