"""Luck: what each side's attacks actually did against what they were expected to do.

For every attack a side made, ``battles.engine.probability`` gives the exact chance that it
damages and that it suppresses, from the attacker's Skill at that moment, the Power used and the
target's Resistance. Summed over the battle they are the side's expected damage and suppression;
set beside what the dice gave, they say whether the dice or the plan decided the battle. Exact
throughout: expectations are Fractions, and the chance of doing at least as well as the dice did
is computed over the whole distribution, not approximated.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from battles.engine import Event, Scenario
from battles.engine import events as ev
from battles.engine.probability import Outcome, attack_outcome


@dataclass(frozen=True, slots=True)
class SideLuck:
    """One side's attacks: dealt, expected, and how likely doing that well was."""

    side: str
    name: str
    attacks: int
    """Attacks made (a rammed unit's blow back counts for its own side)."""
    damage: int
    """Damage its attacks dealt."""
    expected_damage: Fraction
    suppressions: int
    """Suppressions its attacks caused."""
    expected_suppressions: Fraction
    damage_at_least: Fraction
    """Chance of dealing at least ``damage`` with the same attacks: small means lucky dice."""
    damage_at_most: Fraction
    """Chance of dealing at most ``damage``: small means unlucky dice."""
    suppressions_at_least: Fraction
    suppressions_at_most: Fraction
    """Chance of causing at most ``suppressions``: small means unlucky dice."""

    @property
    def damage_difference(self) -> Fraction:
        return self.damage - self.expected_damage

    @property
    def suppression_difference(self) -> Fraction:
        return self.suppressions - self.expected_suppressions


def attack_odds(scenario: Scenario, events: Sequence[Event]) -> list[tuple[int, str, Outcome]]:
    """(index, attacking side, exact outcome chances) for every attack in the log.

    The attacker's Skill is followed through the log (suppression lowers it); a ram, a ram
    back and any attack on a building make no Skill roll, and a building is never suppressed.
    """
    cards = {u.id: u.card for u in scenario.units()}
    side_of = {u.id: u.side for u in scenario.units()}
    buildings = {b.id: b.card for b in scenario.buildings}
    skill = {uid: card.skill for uid, card in cards.items()}
    odds = []
    for i, e in enumerate(events):
        if isinstance(e, ev.Suppress):
            skill[e.unit] = e.skill
        if not isinstance(e, ev.Attack):
            continue
        if e.target in buildings:
            outcome = attack_outcome(
                e.power, buildings[e.target].resistance, skill=None, suppressible=False
            )
        else:
            rolls_skill = e.attack not in (ev.AttackKind.RAM, ev.AttackKind.RAM_BACK)
            outcome = attack_outcome(
                e.power,
                cards[e.target].resistance,
                skill=skill[e.attacker] if rolls_skill else None,
            )
        odds.append((i, side_of[e.attacker], outcome))
    return odds


def luck_table(scenario: Scenario, events: Sequence[Event]) -> list[SideLuck]:
    """Luck per side, in scenario order."""
    side_of = {u.id: u.side for u in scenario.units()}
    odds = attack_odds(scenario, events)
    rows = []
    for side in scenario.sides:
        mine = [o for _, s, o in odds if s == side.id]
        damage = sum(
            1
            for e in events
            if isinstance(e, ev.Attack)
            and side_of[e.attacker] == side.id
            and e.outcome == ev.AttackOutcome.DAMAGE
        )
        suppressions = sum(
            1 for e in events if isinstance(e, ev.Suppress) and side_of.get(e.by) == side.id
        )
        rows.append(
            SideLuck(
                side=side.id,
                name=side.name,
                attacks=len(mine),
                damage=damage,
                expected_damage=sum((o.damage for o in mine), Fraction(0)),
                suppressions=suppressions,
                expected_suppressions=sum((o.suppress for o in mine), Fraction(0)),
                damage_at_least=at_least([o.damage for o in mine], damage),
                damage_at_most=1 - at_least([o.damage for o in mine], damage + 1),
                suppressions_at_least=at_least([o.suppress for o in mine], suppressions),
                suppressions_at_most=1 - at_least([o.suppress for o in mine], suppressions + 1),
            )
        )
    return rows


def at_least(chances: Sequence[Fraction], k: int) -> Fraction:
    """Chance that at least ``k`` of independent events with these chances happen.

    The Poisson-binomial tail, exactly. Every chance is put over one common denominator and the
    chance of *fewer* than ``k`` is convolved in integers, keeping only counts below ``k``: fast
    for thousands of attacks, where Fractions would grow slow.
    """
    if k <= 0:
        return Fraction(1)
    used = [c for c in chances if c != 0]  # an attack that can never succeed changes nothing
    if k > len(used):
        return Fraction(0)
    denominator = math.lcm(*(c.denominator for c in used))
    below = [1] + [0] * (k - 1)  # below[j]: weight of exactly j successes, over denominator**n
    for c in used:
        w = c.numerator * (denominator // c.denominator)
        miss = denominator - w
        for j in range(k - 1, 0, -1):
            below[j] = below[j] * miss + below[j - 1] * w
        below[0] *= miss
    return 1 - Fraction(sum(below), denominator ** len(used))
