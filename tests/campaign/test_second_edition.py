"""The properties of the bridge's second edition (rulings.md), proved exactly over every die.

Each test enumerates every sequence of dice the bridge could roll for an outcome — the blow dice
grouped by the BUCS hits they deal, the split dice by Morale or Casualty — so each chance below
is exact, not sampled. The cards are the shipped library's (both rulesets); property 1 holds too
on cards of Hits no shipped card prints (`ANY_HITS`), as a library may hold them. The lab
(`manage.py campaign_lab`) measures the same properties in whole campaigns of engine battles:
`test_campaign_lab.py`.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from itertools import pairwise

import pytest

from campaign.rules.damage import CASUALTY_FROM, UnitOutcome, blow_hits, outcome_damage
from campaign.rules.recovery import casualties_die, medical_treat, rest_day
from campaign.rules.state import Status
from tests.campaign.helpers import unit_state
from units.bucs import Equipment, Quality, Specialty
from units.cardfile import split_specialty_line
from units.cardtext import parse_card
from units.services import LIBRARY_DIR

Q = Quality
ARMOR = (Specialty.MECHANIZED, Specialty.ARMOR)


def shipped_cards(ruleset: str = "*") -> list[dict]:
    cards = []
    for path in sorted(LIBRARY_DIR.glob(f"{ruleset}/*.card")):
        card = parse_card(split_specialty_line(path.read_text())[0])
        if "skill" in card:
            cards.append(card)
    return cards


SHIPPED_HITS = sorted({card["hits"] for card in shipped_cards()})
ANY_HITS = sorted({*SHIPPED_HITS, 4, 5, 7, 9, 12})
"""Hits no shipped card prints but a library's own card may: 6 is no multiple of them."""
COMBINED_ARMS_HITS = sorted({card["hits"] for card in shipped_cards("combined_arms")})


class _Branch(Exception):
    pass


def outcomes_of(state, outcome, card_hits, *, restored=False):
    """Every (chance, state after) the outcome can give, each die path enumerated exactly."""
    blow_faces = defaultdict(list)
    for die in range(1, 7):
        blow_faces[blow_hits(die, card_hits)].append(die)
    blow_choices = [(faces[0], Fraction(len(faces), 6)) for faces in blow_faces.values()]
    split_choices = [(1, Fraction(CASUALTY_FROM - 1, 6)), (6, Fraction(7 - CASUALTY_FROM, 6))]
    results = []
    stack = [((), Fraction(1))]
    while stack:
        prefix, chance = stack.pop()
        used = []

        def d6(prefix=prefix, used=used):
            if len(used) == len(prefix):
                raise _Branch
            used.append(prefix[len(used)])
            return used[-1]

        try:
            after, _ = outcome_damage(
                state, outcome, card_hits=card_hits, skill_restored=restored,
                opposing_equipment=Equipment.ADEQUATE, day=1, d6=d6,
            )  # fmt: skip
        except _Branch:
            choices = blow_choices if len(prefix) < outcome.hits_lost else split_choices
            stack.extend(((*prefix, face), chance * weight) for face, weight in choices)
            continue
        results.append((chance, after))
    assert sum(chance for chance, _ in results) == 1
    return results


def lost_for_good(state, outcome, card_hits, *, saved=0, restored=False) -> Fraction:
    """The chance the unit is destroyed utterly once the medics (saving up to `saved`) are done
    and the 24 hours have passed."""
    total = Fraction(0)
    for chance, after in outcomes_of(state, outcome, card_hits, restored=restored):
        after = medical_treat(after, min(saved, after.casualty_hits))
        after, _ = casualties_die(after)
        total += chance * (after.status == Status.DESTROYED)
    return total


def taken_out(card_hits):
    return UnitOutcome(card_hits, 0, "destroyed")


# ---------------------------------------------------------------------------------------------
# 1. Quality protects
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("card_hits", ANY_HITS)
@pytest.mark.parametrize("saved", [0, 2])
@pytest.mark.parametrize("specialties", [(Specialty.INFANTRY,), ARMOR], ids=["foot", "armor"])
def test_quality_protects_the_chance_of_being_lost_for_good_falls_with_every_step(
    card_hits, saved, specialties
):
    chances = [
        lost_for_good(unit_state(quality=q, specialties=specialties), taken_out(card_hits),
                      card_hits, saved=saved)
        for q in Quality
    ]  # fmt: skip
    for lower, higher in pairwise(chances):
        assert higher < lower or higher == lower == 0, chances
    assert chances[Q.LEGENDARY] == 0


@pytest.mark.parametrize("card_hits", ANY_HITS)
@pytest.mark.parametrize("skill_lost", [0, 1, 2])
@pytest.mark.parametrize("restored", [True, False], ids=["one_year_war", "combined_arms"])
def test_a_legendary_unit_is_never_lost_for_good_to_a_single_team_bravo_hit(
    card_hits, skill_lost, restored
):
    # Suppressed too: under Combined Arms each point is a quality step lost for good, but the
    # dead are measured against the steps the unit had before the battle.
    legendary = unit_state(quality=Q.LEGENDARY)
    removed = "destroyed" if card_hits == 1 else "none"
    outcome = UnitOutcome(1, skill_lost, removed)
    assert lost_for_good(legendary, outcome, card_hits, restored=restored) == 0


def test_a_step_lost_to_suppression_is_lost_for_good_but_is_not_what_kills_the_unit():
    # Combined Arms, a Legendary unit on a 1-Hit card: suppressed once (Elite for good), then
    # taken out by its one Hit: blow 6, every split die 4+: 6 Casualty hits, none saved.
    rolls = iter((6, 6, 6, 6, 6, 6, 6))
    after, _ = outcome_damage(
        unit_state(quality=Q.LEGENDARY), UnitOutcome(1, 1, "destroyed"), card_hits=1,
        skill_restored=False, opposing_equipment=Equipment.ADEQUATE, day=1,
        d6=lambda: next(rolls),
    )  # fmt: skip
    assert (after.quality, after.casualty_hits, after.window_quality_lost) == (Q.ELITE, 6, 1)
    after, dead = casualties_die(after)
    assert dead == 6 and after.status != Status.DESTROYED
    assert (after.quality, after.window_quality_lost) == (Q.RAW, 0)
    # An Elite unit that went in Elite has only its five steps: six dead leave nothing.
    elite = unit_state(quality=Q.ELITE, casualty_hits=6)
    assert casualties_die(elite)[0].status == Status.DESTROYED


def test_a_legendary_and_a_raw_unit_taken_out_by_the_same_shot():
    # The worked example of docs/campaign.md: a 1-Hit card, taken out by one Hit, no medics.
    raw = lost_for_good(unit_state(quality=Q.RAW), taken_out(1), 1)
    legendary = lost_for_good(unit_state(quality=Q.LEGENDARY), taken_out(1), 1)
    assert raw == Fraction(1 - sum(Fraction(1, 2**n) for n in range(1, 7)) / 6)  # 0.836
    assert legendary == 0
    # The same dice for both: blow 4, split 6, 6, 1, 6 — 3 Casualty, 1 Morale.
    for quality, fate in ((Q.RAW, Status.DESTROYED), (Q.LEGENDARY, Status.READY)):
        rolls = iter((4, 6, 6, 1, 6))
        after, damage = outcome_damage(
            unit_state(quality=quality), taken_out(1), card_hits=1, skill_restored=True,
            opposing_equipment=Equipment.ADEQUATE, day=1, d6=lambda rolls=rolls: next(rolls),
        )  # fmt: skip
        assert (damage.morale_hits, damage.casualty_hits) == (1, 3)
        assert after.status == Status.RETREATED  # taken out is not dead
        after, dead = casualties_die(after)
        assert dead == 3
        after = rest_day(after)
        assert after.status == fate
    assert after.quality == Q.AVERAGE  # Legendary less 3 dead


# ---------------------------------------------------------------------------------------------
# 2. The Casualty loop lives; 4. no parity artefacts
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("card_hits", COMBINED_ARMS_HITS)
def test_most_battles_in_which_a_unit_loses_a_hit_leave_it_casualty_hits(card_hits):
    state = unit_state(quality=Q.LEGENDARY)
    removed = "destroyed" if card_hits == 1 else "none"
    chance = sum(
        c for c, after in outcomes_of(state, UnitOutcome(1, 0, removed), card_hits)
        if after.casualty_hits
    )  # fmt: skip
    assert chance > Fraction(1, 2)


@pytest.mark.parametrize(("card_hits", "chance"), [(1, Fraction(17, 64)), (2, Fraction(1, 24)),
                                                  (3, 0)])  # fmt: skip
def test_armor_ignoring_its_first_two_casualty_hits_comes_before_the_casualty_loop(
    card_hits, chance
):
    # "Armor ignores the first two Casualty hits" is the copy's own rule, so an Armor unit
    # carries Casualty hits to the medics only when a battle deals it three or more: on a 1-Hit
    # card a blow of d6 with a d6 each for Casualty, 17 in 64; on a 3-Hit card, never.
    tank = unit_state(quality=Q.LEGENDARY, specialties=(Specialty.MECHANIZED, Specialty.ARMOR))
    removed = "destroyed" if card_hits == 1 else "none"
    results = outcomes_of(tank, UnitOutcome(1, 0, removed), card_hits)
    assert sum(c for c, after in results if after.casualty_hits) == chance


@pytest.mark.parametrize("card_hits", [2, 3, 6])
def test_no_fate_depends_on_whether_a_count_of_hits_lost_is_odd_or_even(card_hits):
    # Expected Casualty hits grow in equal steps with each Hit lost: losing one Hit is half
    # of losing two, not "1 Morale, 0 Casualty" against "1 Morale, 1 Casualty".
    state = unit_state(quality=Q.LEGENDARY)
    means = []
    for lost in range(0, min(card_hits, 3) + 1):
        removed = "destroyed" if lost == card_hits else "none"
        results = outcomes_of(state, UnitOutcome(lost, 0, removed), card_hits)
        means.append(sum(c * after.casualty_hits for c, after in results))
    steps = [b - a for a, b in pairwise(means)]
    assert len(set(steps)) == 1 and steps[0] > 0, means


# ---------------------------------------------------------------------------------------------
# 3. Morale lives
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("restored", [False, True], ids=["combined_arms", "one_year_war"])
def test_shock_shows_as_morale_hits_that_rr_heals_the_last_only_out_of_the_combat_zone(restored):
    # In both rulesets each point of Skill lost to suppression is a Morale hit.
    ((_, after),) = outcomes_of(unit_state(quality=Q.LEGENDARY), UnitOutcome(0, 2), 1,
                                restored=restored)  # fmt: skip
    assert after.morale_hits == 2 and after.in_combat_zone
    assert rest_day(rest_day(after)).morale_hits == 1  # under stress: the last one stays
    assert rest_day(rest_day(after.but(in_combat_zone=False))).morale_hits == 0
    # Combined Arms: the Skill lost never returns, however long the rest. One Year War
    # restores it: no step is lost.
    assert rest_day(rest_day(after)).quality == (Q.LEGENDARY if restored else Q.EXPERIENCED)


@pytest.mark.parametrize("restored", [False, True], ids=["combined_arms", "one_year_war"])
def test_being_broken_shows_as_morale_hits_and_a_day_of_rr_rallies(restored):
    # A unit demoralised on the table lost its Skill to suppression: Morale hits, and it retreats
    # in poor order until a day of R&R rallies it.
    ((_, after),) = outcomes_of(unit_state(quality=Q.LEGENDARY),
                                UnitOutcome(0, 2, "demoralised"), 1, restored=restored)  # fmt: skip
    assert after.morale_hits == 2 and after.casualty_hits == 0
    assert after.status == Status.RETREATED and not after.in_combat_zone
    rallied = rest_day(after)
    assert rallied.status == Status.READY and rallied.morale_hits == 1


@pytest.mark.parametrize("restored", [True, False], ids=["one_year_war", "combined_arms"])
def test_morale_hits_are_the_same_in_both_rulesets(restored):
    # Hits lost and Skill lost to suppression become Morale and Casualty hits alike under either
    # ruleset; only the quality step the suppression costs differs. One Hit of a 2-Hit card,
    # suppressed by 1 as well: every die path enumerated.
    state = unit_state(quality=Q.LEGENDARY)
    outcome = UnitOutcome(1, 1)
    results = outcomes_of(state, outcome, 2, restored=restored)
    blows = outcomes_of(state, UnitOutcome(1, 0), 2)
    morale = sum(c * after.morale_hits for c, after in results)
    assert morale == sum(c * after.morale_hits for c, after in blows) + 1  # the shock's one
