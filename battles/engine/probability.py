"""Exact odds of the attack rules, as fractions: the arithmetic behind the rule text's BALANCE.

Everything here is a pure function of printed numbers (or of cards and a ruleset), so the same
figures serve the balance table, a commander weighing expected damage, and a report on how lucky
a battle was. One attack has three outcomes: damage, suppress, or nothing. A duel is an absorbing
Markov chain over the target's (Hits left, current Skill); the attacker's Skill stays fixed,
because suppression lowers the *target's* Skill, never the attacker's.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .cards import BuildingCard, Keyword, UnitCard, Weapon
from .events import AttackKind
from .rulesets import Ruleset
from .targeting import CLOSE_COMBAT, CLOSE_RANGE, STRUCTURE_POWER, cannot_ram_units

FACES = 6
"""Every roll is one six-sided die."""

_ZERO = Fraction(0)
_ONE = Fraction(1)


def hit_chance(skill: int) -> Fraction:
    """Chance that a Skill roll succeeds: 1d6 equal to or under ``skill``."""
    return Fraction(min(max(skill, 0), FACES), FACES)


def penetration_chance(power: int, resistance: int) -> Fraction:
    """Chance that 1d6 + Power beats 1d6 + Resistance strictly (armour wins ties)."""
    wins = sum(
        1
        for attack in range(1, FACES + 1)
        for armour in range(1, FACES + 1)
        if attack + power > armour + resistance
    )
    return Fraction(wins, FACES * FACES)


def suppression_applies(power: int, resistance: int, *, building: bool = False) -> bool:
    """Whether a hit that fails to damage suppresses: Power at least Resistance, not a building."""
    return not building and power >= resistance


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one attack does to its target. The three chances sum to 1."""

    damage: Fraction
    """Chance of 1 damage (hit, then penetration)."""
    suppress: Fraction
    """Chance of a hit that fails to damage and costs the target 1 Skill."""

    @property
    def nothing(self) -> Fraction:
        """Chance the attack changes nothing: a miss, or a hit armour shrugs off unsuppressed."""
        return _ONE - self.damage - self.suppress

    @property
    def attacks_per_damage(self) -> Fraction | None:
        """Mean attacks for each point of damage; ``None`` when this attack can never damage."""
        return None if self.damage == 0 else 1 / self.damage


def attack_outcome(
    power: int, resistance: int, *, skill: int | None, suppressible: bool = True
) -> Outcome:
    """One attack of ``power`` against ``resistance``.

    ``skill`` is the attacker's current Skill, or ``None`` when no Skill roll is made (ramming,
    or any attack on a building, which does not dodge). ``suppressible`` is False for buildings.
    """
    hit = _ONE if skill is None else hit_chance(skill)
    pen = penetration_chance(power, resistance)
    suppress = hit * (1 - pen) if suppressible and power >= resistance else _ZERO
    return Outcome(hit * pen, suppress)


# --- removing a unit: the absorbing chain over (Hits left, current Skill) ----------------------


def suppressions_to_demoralise(skill: int, demoralise_at: int) -> int:
    """How many suppressions take a unit from ``skill`` to the ruleset's demoralisation Skill."""
    return max(skill - demoralise_at, 0)


def expected_attacks_to_remove(
    outcome: Outcome, hits: int, skill: int | None = None, demoralise_at: int = 1
) -> Fraction | None:
    """Mean number of attacks until the target is destroyed (0 Hits) or demoralised.

    ``skill`` is the target's current Skill (``None`` for a building, which is never
    demoralised); ``demoralise_at`` is the ruleset's threshold (1 Combined Arms, 0 One Year War).
    ``None`` means the target can never be removed this way. Each attack that changes nothing
    repeats the state, so E(h, s) = (1 + P(damage) E(h-1, s) + P(suppress) E(h, s-1)) /
    P(something); the chain only moves down, so filling the table upwards solves it exactly.
    """
    if hits <= 0 or (skill is not None and skill <= demoralise_at):
        return _ZERO
    moves = outcome.damage + outcome.suppress
    if moves == 0:
        return None
    if skill is None or outcome.suppress == 0:
        # Suppression never comes (or cannot matter): only damage moves the chain.
        return None if outcome.damage == 0 else hits / outcome.damage
    depth = suppressions_to_demoralise(skill, demoralise_at)
    # table[h][s]: expected attacks with h Hits left and s suppressions still to take.
    table = [[_ZERO] * (depth + 1) for _ in range(hits + 1)]
    for h in range(1, hits + 1):
        for s in range(1, depth + 1):
            table[h][s] = (
                1 + outcome.damage * table[h - 1][s] + outcome.suppress * table[h][s - 1]
            ) / moves
    return table[hits][depth]


def removal_distribution(
    outcome: Outcome, hits: int, skill: int | None, demoralise_at: int, attacks: int
) -> list[Fraction]:
    """Chance that the target is removed by exactly the 1st, 2nd, ... ``attacks``-th attack.

    The luck report's yardstick: where a battle's actual count falls in this distribution. A
    target already removed counts as removed by the first.
    """
    if hits <= 0 or (skill is not None and skill <= demoralise_at):
        return [_ONE] + [_ZERO] * (attacks - 1) if attacks else []
    depth = None if skill is None else suppressions_to_demoralise(skill, demoralise_at)
    # Living states as (hits left, suppressions still to take) -> probability.
    alive: dict[tuple[int, int | None], Fraction] = {(hits, depth): _ONE}
    out = []
    s: int | None  # suppressions still to take; None: nothing to demoralise
    s2: int | None
    for _ in range(attacks):
        removed = _ZERO
        after: dict[tuple[int, int | None], Fraction] = {}
        steps: list[tuple[tuple[int, int | None], Fraction]]
        for (h, s), p in alive.items():
            if s is None:
                # Nothing to demoralise (a building): a suppression changes nothing.
                steps = [((h - 1, s), outcome.damage), ((h, s), 1 - outcome.damage)]
            else:
                steps = [
                    ((h - 1, s), outcome.damage),
                    ((h, s - 1), outcome.suppress),
                    ((h, s), outcome.nothing),
                ]
            for (h2, s2), q in steps:
                if q == 0:
                    continue
                if h2 == 0 or s2 == 0:
                    removed += p * q
                else:
                    after[(h2, s2)] = after.get((h2, s2), _ZERO) + p * q
        out.append(removed)
        alive = after
    return out


def removal_chance(
    outcome: Outcome, hits: int, skill: int | None = None, demoralise_at: int = 1, attacks: int = 1
) -> Fraction:
    """Chance that the target is removed within ``attacks`` attacks."""
    return sum(removal_distribution(outcome, hits, skill, demoralise_at, attacks), _ZERO)


# --- from cards -------------------------------------------------------------------------------

Target = UnitCard | BuildingCard


@dataclass(frozen=True, slots=True)
class AttackOption:
    """One attack a unit could make against a given target."""

    kind: AttackKind
    """Shoot, Melee or Ram."""
    weapon: str
    """What a commander orders: the weapon's name, or ``targeting.CLOSE_COMBAT``."""
    power: int
    """Power of the attack (Size when ramming)."""
    range: float
    """Reach in inches."""
    uses: int | None
    """Printed uses of a limited weapon; ``None`` for unlimited."""


def close_combat_option(attacker: UnitCard) -> AttackOption:
    """Close combat at Range 1: printed Melee, or Ramming with Size as Power."""
    if attacker.melee is not None:
        return AttackOption(AttackKind.MELEE, CLOSE_COMBAT, attacker.melee, CLOSE_RANGE, None)
    return AttackOption(AttackKind.RAM, CLOSE_COMBAT, attacker.size, CLOSE_RANGE, None)


def attack_options(
    attacker: UnitCard, target: Target, ruleset: Ruleset, distance: float | None = None
) -> list[AttackOption]:
    """Every attack the card's restrictions allow against ``target`` (weapons, then close combat).

    ``distance`` keeps only what reaches that far; ``None`` ignores range. Sight, concealment,
    facing and uses left are the battle's business, not the card's.
    """
    options = [
        AttackOption(AttackKind.SHOOT, w.name, w.power, w.range, w.uses)
        for w in attacker.weapons
        if _allowed(w, w.power, target, ruleset)
    ]
    close = close_combat_option(attacker)
    if _allowed(None, close.power, target, ruleset) and not (
        close.kind is AttackKind.RAM
        and isinstance(target, UnitCard)
        and cannot_ram_units(attacker, ruleset)
    ):
        options.append(close)
    if distance is None:
        return options
    return [o for o in options if distance <= o.range + 1e-9]


def _allowed(weapon: Weapon | None, power: int, target: Target, ruleset: Ruleset) -> bool:
    """The card-level restrictions on one attack; ``weapon`` is ``None`` for close combat."""
    if isinstance(target, BuildingCard):
        # Only Power 3+ damages a structure, and a building has no Size to meet a restriction.
        return power >= STRUCTURE_POWER and not (weapon is not None and weapon.size_limited)
    if weapon is not None:
        if weapon.buildings_only:
            return False
        if (weapon.min_size is not None and target.size < weapon.min_size) or (
            weapon.max_size is not None and target.size > weapon.max_size
        ):
            return False
    aa = weapon is not None and weapon.aa
    return not (target.has(Keyword.AERIAL) and ruleset.aerial_only_aa and not aa)


def outcome_against(target: Target, power: int, skill: int | None) -> Outcome:
    """One attack of ``power`` on a card; ``skill`` ``None`` for no Skill roll (ramming).

    A building target never rolls against Skill (it does not dodge) and is never suppressed.
    """
    if isinstance(target, BuildingCard):
        return attack_outcome(power, target.resistance, skill=None, suppressible=False)
    return attack_outcome(power, target.resistance, skill=skill)


def option_outcome(option: AttackOption, target: Target, attacker_skill: int) -> Outcome:
    """The outcome of ``option`` against ``target`` by an attacker at ``attacker_skill``."""
    rams = option.kind is AttackKind.RAM
    return outcome_against(target, option.power, None if rams else attacker_skill)


def ram_back_outcome(attacker: UnitCard, target: UnitCard) -> Outcome:
    """What the rammed unit's blow back (its Size against the rammer's Resistance) does."""
    return attack_outcome(target.size, attacker.resistance, skill=None)


def find_option(attacker: UnitCard, weapon: str, target: Target, ruleset: Ruleset) -> AttackOption:
    """The option that ``weapon`` (a weapon name or ``CLOSE_COMBAT``) gives against ``target``."""
    for option in attack_options(attacker, target, ruleset):
        if option.weapon == weapon:
            return option
    raise ValueError(f"{attacker.name} cannot attack {target.name} with {weapon!r}")


def duel_expected_attacks(
    attacker: UnitCard,
    weapon: str,
    target: Target,
    ruleset: Ruleset,
    *,
    attacker_skill: int | None = None,
    target_hits: int | None = None,
    target_skill: int | None = None,
) -> Fraction | None:
    """Mean attacks with ``weapon`` until ``target`` is removed, uses ignored (the duel table).

    Defaults are the printed numbers. ``None`` means the weapon can never remove the target.
    """
    option = find_option(attacker, weapon, target, ruleset)
    outcome = option_outcome(option, target, _or(attacker_skill, attacker.skill))
    hits = _or(target_hits, target.hits)
    if isinstance(target, BuildingCard):
        return expected_attacks_to_remove(outcome, hits)
    skill = _or(target_skill, target.skill)
    return expected_attacks_to_remove(outcome, hits, skill, ruleset.demoralise_at_skill)


def best_single_attack(
    attacker: UnitCard,
    target: Target,
    ruleset: Ruleset,
    distance: float | None = None,
    *,
    attacker_skill: int | None = None,
    target_hits: int | None = None,
    target_skill: int | None = None,
) -> tuple[AttackOption, Fraction] | None:
    """The attack most likely to remove ``target`` in one activation, and that chance.

    One activation is one attack; at ``distance`` 1 or less close combat competes with the
    guns. Ties keep card order. ``None`` when nothing on the card may attack the target.
    """
    skill = _or(attacker_skill, attacker.skill)
    hits = _or(target_hits, target.hits)
    target_state: int | None = None
    if isinstance(target, UnitCard):
        target_state = _or(target_skill, target.skill)
    best: tuple[AttackOption, Fraction] | None = None
    for option in attack_options(attacker, target, ruleset, distance):
        outcome = option_outcome(option, target, skill)
        chance = removal_chance(outcome, hits, target_state, ruleset.demoralise_at_skill)
        if best is None or chance > best[1]:
            best = (option, chance)
    return best


def _or(value: int | None, default: int) -> int:
    return default if value is None else value
