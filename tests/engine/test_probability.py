"""Exact odds of the attack rules: hand-worked values, dice enumeration and brute-force chains."""

from __future__ import annotations

import itertools
import subprocess
import sys
from fractions import Fraction

import pytest

from battles.engine.cards import CHARGES, Admits, BuildingCard, Keyword, UnitCard, Weapon
from battles.engine.events import AttackKind
from battles.engine.probability import (
    Outcome,
    attack_options,
    attack_outcome,
    best_single_attack,
    duel_expected_attacks,
    expected_attacks_to_remove,
    find_option,
    hit_chance,
    option_outcome,
    penetration_chance,
    ram_back_outcome,
    removal_chance,
    removal_distribution,
    suppression_applies,
    suppressions_to_demoralise,
)
from battles.engine.rulesets import COMBINED_ARMS, ONE_YEAR_WAR
from battles.engine.targeting import CLOSE_COMBAT
from battles.engine.terrain import KIND_DEFAULTS

F = Fraction
D6 = range(1, 7)


def card(name: str, skill: int, resistance: int, hits: int, size: int, *weapons: Weapon, **kw):
    return UnitCard(
        name,
        skill,
        5.0,
        resistance,
        hits,
        size,
        kw.get("melee"),
        tuple(weapons),
        frozenset(kw.get("keywords", ())),
        frozenset(),
    )


RIFLES = Weapon("Rifles", 2, 12.0)
MECH = card("Mech", 4, 5, 2, 4, Weapon("Autocannon", 5, 18.0), melee=6)
SQUAD = card("Rifle Squad", 3, 1, 1, 1, RIFLES)
TANK = card("Medium Tank", 4, 3, 1, 3, Weapon("Main Gun", 4, 18.0))
CHOPPER = card("Chopper", 4, 0, 1, 2, Weapon("Rockets", 5, 12.0), keywords={Keyword.AERIAL})
HOUSE = BuildingCard("House", 3, 4, Admits(1, 2), KIND_DEFAULTS["rubble"])


# --- single rolls ------------------------------------------------------------------------------


def test_it_hits_on_a_die_equal_to_or_under_skill():
    assert [hit_chance(s) for s in range(-1, 8)] == [
        F(0),
        F(0),
        *(F(s, 6) for s in range(1, 7)),
        F(1),
    ]


def test_it_gives_the_rule_texts_penetration_by_hand():
    # 1d6+2 against 1d6+5: the attack die must beat the armour die by 4 or more: (5,1),(6,1),(6,2).
    assert penetration_chance(2, 5) == F(3, 36)
    assert penetration_chance(0, 0) == F(15, 36)  # equal dice tie, and armour wins ties
    assert penetration_chance(5, 0) == F(35, 36)  # only 1 against 6 fails
    assert penetration_chance(0, 5) == F(0)
    assert penetration_chance(6, 0) == F(1)


def test_penetration_matches_rolling_every_pair_of_dice():
    for power, resistance in itertools.product(range(9), repeat=2):
        wins = sum(a + power > d + resistance for a in D6 for d in D6)
        assert penetration_chance(power, resistance) == F(wins, 36)


def test_it_suppresses_only_when_power_reaches_resistance_and_never_buildings():
    assert not suppression_applies(2, 5)  # rifles do not rattle a mech
    assert suppression_applies(5, 5)
    assert suppression_applies(2, 1)
    assert not suppression_applies(9, 3, building=True)


def test_rifles_against_mech_armour_need_two_dozen_attacks_and_never_suppress():
    outcome = attack_outcome(2, 5, skill=3)
    assert outcome == Outcome(F(1, 24), F(0))
    assert outcome.attacks_per_damage == 24
    assert outcome.nothing == F(23, 24)


def test_an_attack_that_cannot_damage_has_no_attacks_per_damage():
    assert attack_outcome(0, 6, skill=4).attacks_per_damage is None


@pytest.mark.parametrize("skill", [None, 0, 1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("suppressible", [True, False])
def test_outcomes_match_enumerating_every_die(skill, suppressible):
    for power, resistance in itertools.product(range(8), repeat=2):
        damage = suppress = 0
        for to_hit, a, d in itertools.product(D6, D6, D6):
            if skill is not None and to_hit > skill:
                continue
            if a + power > d + resistance:
                damage += 1
            elif suppressible and power >= resistance:
                suppress += 1
        outcome = attack_outcome(power, resistance, skill=skill, suppressible=suppressible)
        assert outcome == Outcome(F(damage, 216), F(suppress, 216))
        assert outcome.damage + outcome.suppress + outcome.nothing == 1


# --- the duel chain ----------------------------------------------------------------------------


def test_a_tank_needs_54_fifths_shots_for_a_mech_by_hand():
    # Skill 4, Power 4 against Resistance 5: no suppression (4 < 5); damage 2/3 x 10/36 = 5/27.
    outcome = attack_outcome(4, 5, skill=4)
    assert outcome == Outcome(F(5, 27), F(0))
    assert expected_attacks_to_remove(outcome, hits=2, skill=4, demoralise_at=1) == F(54, 5)


def test_a_mech_needs_439_216ths_shots_for_a_tank_by_hand():
    # Skill 4, Power 5 against Resistance 3: damage 2/3 x 26/36 = 13/27, suppress 2/3 x 10/36 =
    # 5/27, so something happens with 2/3. The tank (Hits 1, Skill 4) falls at the first damage
    # or the third suppression: E1 = 3/2, E2 = (1 + 5/27 E1) 3/2 = 23/12,
    # E3 = (1 + 5/27 E2) 3/2 = 439/216.
    outcome = attack_outcome(5, 3, skill=4)
    assert outcome == Outcome(F(13, 27), F(5, 27))
    assert expected_attacks_to_remove(outcome, hits=1, skill=2, demoralise_at=1) == F(3, 2)
    assert expected_attacks_to_remove(outcome, hits=1, skill=3, demoralise_at=1) == F(23, 12)
    assert expected_attacks_to_remove(outcome, hits=1, skill=4, demoralise_at=1) == F(439, 216)


def test_an_unsuppressible_target_falls_after_hits_over_damage_attacks():
    outcome = attack_outcome(3, 4, skill=3)
    assert outcome.suppress == 0
    assert expected_attacks_to_remove(outcome, hits=3, skill=5) == 3 / outcome.damage


def test_a_target_that_cannot_be_touched_is_never_removed():
    assert expected_attacks_to_remove(attack_outcome(0, 6, skill=4), hits=2, skill=4) is None
    assert expected_attacks_to_remove(Outcome(F(0), F(0)), hits=1) is None


def test_a_target_already_removed_needs_no_attack():
    outcome = attack_outcome(4, 4, skill=4)
    assert expected_attacks_to_remove(outcome, hits=0, skill=4) == 0
    assert expected_attacks_to_remove(outcome, hits=2, skill=1, demoralise_at=1) == 0
    assert removal_chance(outcome, hits=2, skill=1, demoralise_at=1) == 1
    # At the threshold already, an attack that cannot suppress needs none either.
    unsuppressing = attack_outcome(3, 4, skill=3)
    assert expected_attacks_to_remove(unsuppressing, hits=2, skill=1, demoralise_at=1) == 0


def test_the_demoralise_threshold_is_the_rulesets():
    assert suppressions_to_demoralise(2, COMBINED_ARMS.demoralise_at_skill) == 1
    assert suppressions_to_demoralise(2, ONE_YEAR_WAR.demoralise_at_skill) == 2
    assert suppressions_to_demoralise(0, COMBINED_ARMS.demoralise_at_skill) == 0
    only_suppress = Outcome(F(0), F(1, 2))
    assert expected_attacks_to_remove(only_suppress, hits=1, skill=2, demoralise_at=1) == 2
    assert expected_attacks_to_remove(only_suppress, hits=1, skill=2, demoralise_at=0) == 4


def _fundamental_matrix_expectation(outcome, hits, skill, demoralise_at):
    """E from the textbook: solve (I - Q) t = 1 over every transient state by elimination."""
    states = [(h, s) for h in range(1, hits + 1) for s in range(demoralise_at + 1, skill + 1)]
    index = {st: i for i, st in enumerate(states)}
    n = len(states)
    rows = []
    for h, s in states:
        row = [F(0)] * n + [F(1)]
        row[index[(h, s)]] += 1 - outcome.nothing
        for nxt, p in (((h - 1, s), outcome.damage), ((h, s - 1), outcome.suppress)):
            if nxt in index:
                row[index[nxt]] -= p
        rows.append(row)
    for col in range(n):  # Gauss-Jordan with exact fractions
        pivot = next(r for r in range(col, n) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        rows[col] = [x / rows[col][col] for x in rows[col]]
        for r in range(n):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col], strict=True)]
    return rows[index[(hits, skill)]][n]


OUTCOMES = [
    attack_outcome(5, 5, skill=4),
    attack_outcome(4, 3, skill=3),
    attack_outcome(6, 1, skill=2),
    attack_outcome(2, 2, skill=5),
    Outcome(F(0), F(1, 3)),
    Outcome(F(1, 3), F(2, 3)),
]


@pytest.mark.parametrize("outcome", OUTCOMES)
@pytest.mark.parametrize("demoralise_at", [0, 1])
def test_the_chain_matches_the_fundamental_matrix(outcome, demoralise_at):
    for hits, skill in itertools.product(range(1, 4), range(demoralise_at + 1, 6)):
        expected = _fundamental_matrix_expectation(outcome, hits, skill, demoralise_at)
        assert expected_attacks_to_remove(outcome, hits, skill, demoralise_at) == expected


def _brute_force(outcome, hits, skill, demoralise_at, attacks):
    """Walk every sequence of outcomes: P(removed by exactly attack k) for each k."""
    by_attack = [F(0)] * attacks
    chances = {"damage": outcome.damage, "suppress": outcome.suppress, "nothing": outcome.nothing}

    def walk(k: int, p: Fraction, h: int, s: int) -> None:
        if k == attacks:
            return
        for what, q in chances.items():
            h2 = h - (what == "damage")
            s2 = s - (what == "suppress")
            if h2 == 0 or s2 <= demoralise_at:
                by_attack[k] += p * q
            else:
                walk(k + 1, p * q, h2, s2)

    walk(0, F(1), hits, skill)
    return by_attack


@pytest.mark.parametrize("outcome", OUTCOMES)
def test_removal_odds_match_enumerating_every_sequence(outcome):
    for hits, skill, threshold in [(1, 4, 1), (2, 4, 1), (2, 3, 0), (3, 2, 1)]:
        brute = _brute_force(outcome, hits, skill, threshold, 6)
        assert removal_distribution(outcome, hits, skill, threshold, 6) == brute
        assert removal_chance(outcome, hits, skill, threshold, attacks=6) == sum(brute)


def test_with_no_wasted_attacks_enumeration_gives_the_exact_expectation():
    # When every attack damages or suppresses, any duel ends within hits + depth - 1 attacks,
    # so enumerating every sequence gives the expectation exactly.
    outcome = Outcome(F(1, 3), F(2, 3))
    for hits, skill in [(1, 4), (2, 4), (3, 3)]:
        longest = hits + skill - 2
        brute = _brute_force(outcome, hits, skill, 1, longest)
        assert sum(brute) == 1
        exact = sum((k + 1) * p for k, p in enumerate(brute))
        assert expected_attacks_to_remove(outcome, hits, skill, 1) == exact


def test_a_building_is_only_worn_down():
    outcome = attack_outcome(4, 3, skill=None, suppressible=False)
    assert outcome == Outcome(F(21, 36), F(0))
    assert expected_attacks_to_remove(outcome, hits=4) == F(48, 7)
    assert removal_distribution(outcome, 2, None, 1, 2) == [F(0), outcome.damage**2]
    # Without a Skill to lose, a suppression is just an attack that changed nothing.
    unit_shot = attack_outcome(4, 3, skill=4)
    assert removal_chance(unit_shot, 1, None, attacks=2) == 1 - (1 - unit_shot.damage) ** 2


# --- from cards --------------------------------------------------------------------------------


def test_close_combat_is_printed_melee_or_ramming():
    melee = find_option(MECH, CLOSE_COMBAT, SQUAD, COMBINED_ARMS)
    assert (melee.kind, melee.power, melee.range) == (AttackKind.MELEE, 6, 1.0)
    ram = find_option(TANK, CLOSE_COMBAT, SQUAD, COMBINED_ARMS)
    assert (ram.kind, ram.power, ram.range) == (AttackKind.RAM, 3, 1.0)
    assert CLOSE_COMBAT not in [o.weapon for o in attack_options(TANK, SQUAD, COMBINED_ARMS, 1.5)]
    # Ramming rolls no Skill and suppresses on a failed ram when Size reaches Resistance.
    assert option_outcome(ram, SQUAD, attacker_skill=2) == attack_outcome(3, 1, skill=None)
    assert ram_back_outcome(TANK, SQUAD) == attack_outcome(1, 3, skill=None)


def test_only_aa_weapons_reach_aerial_units_under_combined_arms():
    hmg = Weapon("Heavy Machine Gun", 3, 12.0, aa=True)
    recon = card("Recon", 4, 2, 1, 2, hmg, RIFLES)
    assert [o.weapon for o in attack_options(recon, CHOPPER, COMBINED_ARMS)] == [hmg.name]
    assert [o.weapon for o in attack_options(recon, CHOPPER, ONE_YEAR_WAR)] == [
        hmg.name,
        RIFLES.name,
        CLOSE_COMBAT,
    ]


def test_a_flier_without_melee_may_ram_a_building_but_no_unit_under_combined_arms():
    # E31: the blow back of a ram on a unit could not strike a flier, so under Combined Arms a
    # flier rams no unit; a building never strikes back, so it may ram one with its Size.
    gunship = card("Gunship", 4, 2, 2, 3, Weapon("Rockets", 5, 12.0), keywords={Keyword.AERIAL})
    options = attack_options(gunship, HOUSE, COMBINED_ARMS)
    assert [(o.weapon, o.kind, o.power) for o in options] == [
        ("Rockets", AttackKind.SHOOT, 5),
        (CLOSE_COMBAT, AttackKind.RAM, 3),
    ]
    assert [o.weapon for o in attack_options(gunship, TANK, COMBINED_ARMS)] == ["Rockets"]


def test_restrictions_are_absolute():
    missile = Weapon("Missile", 6, 18.0, min_size=2, max_size=5, uses=2)
    team = card("Team", 3, 1, 1, 1, RIFLES, missile, CHARGES)
    assert [o.weapon for o in attack_options(team, SQUAD, COMBINED_ARMS)] == [
        "Rifles",
        CLOSE_COMBAT,
    ]
    assert [o.weapon for o in attack_options(team, TANK, COMBINED_ARMS)] == [
        "Rifles",
        "Missile",
        CLOSE_COMBAT,
    ]
    # Buildings: Power 3+ only, and a Size restriction cannot be met by a building.
    assert [o.weapon for o in attack_options(team, HOUSE, COMBINED_ARMS)] == ["Charges"]
    assert [o.weapon for o in attack_options(team, TANK, COMBINED_ARMS, distance=12)] == [
        "Rifles",
        "Missile",
    ]
    with pytest.raises(ValueError, match="cannot attack"):
        find_option(team, "Missile", SQUAD, COMBINED_ARMS)
    # The limits themselves are allowed: Size 2 and Size 5 targets, like the Size 3 tank.
    for size in (2, 5):
        target = card("Target", 4, 3, 1, size)
        assert "Missile" in [o.weapon for o in attack_options(team, target, COMBINED_ARMS)]


def test_the_best_single_attack_on_a_squad_is_the_mechs_melee_at_close_range():
    option, chance = best_single_attack(MECH, SQUAD, COMBINED_ARMS, distance=1)
    assert (option.kind, chance) == (AttackKind.MELEE, F(2, 3) * F(35, 36))
    option, chance = best_single_attack(MECH, SQUAD, COMBINED_ARMS, distance=6)
    assert (option.weapon, chance) == ("Autocannon", F(2, 3) * F(33, 36))
    assert best_single_attack(SQUAD, CHOPPER, COMBINED_ARMS) is None
    # Two guns alike: the tie keeps card order.
    twin = card("Twin", 4, 3, 1, 3, Weapon("Left Gun", 4, 18.0), Weapon("Right Gun", 4, 18.0))
    option, _ = best_single_attack(twin, SQUAD, COMBINED_ARMS, distance=6)
    assert option.weapon == "Left Gun"


def test_one_attack_can_demoralise_a_unit_one_suppression_from_breaking():
    shaky = card("Expendable", 2, 5, 2, 4)
    _, chance = best_single_attack(MECH, shaky, COMBINED_ARMS, distance=6)
    assert chance == attack_outcome(5, 5, skill=4).suppress
    _, chance = best_single_attack(MECH, shaky, ONE_YEAR_WAR, distance=6)
    assert chance == 0
    # A squad suppressed to Skill 2 is as shaky: told so, the odds count the suppression.
    outcome = attack_outcome(4, 1, skill=4)
    _, chance = best_single_attack(TANK, SQUAD, COMBINED_ARMS, distance=6)
    assert chance == outcome.damage
    _, chance = best_single_attack(TANK, SQUAD, COMBINED_ARMS, distance=6, target_skill=2)
    assert chance == outcome.damage + outcome.suppress


def test_duels_use_printed_numbers_unless_told_otherwise():
    assert duel_expected_attacks(TANK, "Main Gun", MECH, COMBINED_ARMS) == F(54, 5)
    assert duel_expected_attacks(TANK, "Main Gun", MECH, COMBINED_ARMS, target_hits=1) == F(27, 5)
    assert duel_expected_attacks(MECH, "Autocannon", HOUSE, COMBINED_ARMS) == 4 / F(26, 36)
    veteran = duel_expected_attacks(TANK, "Main Gun", MECH, COMBINED_ARMS, attacker_skill=5)
    assert veteran == 2 / (F(5, 6) * F(10, 36))
    # Suppression breaks the Skill 3 squad at the ruleset's Skill: after two suppressions under
    # Combined Arms, after three under One Year War.
    outcome = attack_outcome(4, 1, skill=4)
    for ruleset, at in ((COMBINED_ARMS, 1), (ONE_YEAR_WAR, 0)):
        expected = expected_attacks_to_remove(outcome, hits=1, skill=3, demoralise_at=at)
        assert duel_expected_attacks(TANK, "Main Gun", SQUAD, ruleset) == expected
    assert duel_expected_attacks(TANK, "Main Gun", SQUAD, ONE_YEAR_WAR) > duel_expected_attacks(
        TANK, "Main Gun", SQUAD, COMBINED_ARMS
    )


def test_it_needs_no_django():
    code = "import sys, battles.engine.probability; print('django' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
