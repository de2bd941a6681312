"""The rule text's BALANCE claims as a table: exact from the sample library's cards, then rolled.

Team Bravo: Combined Arms keeps no points costs, but its BALANCE section says what the sample
units do to each other ("a medium tank needs about ten shots to shoot through a mech and dies to
it in two", ...). Each claim here is data: its words, how it is measured, a stated tolerance,
and the duel that measures it. The expected value comes exactly from the cards
(``engine.probability``); the simulated values play the same duel with seeded dice twice: once
with a plain loop of the attack rules, once through the engine's own ``resolve_attack``. A card
edit, a formula slip or an engine change that breaks a claim shows up as a failed verdict.
Plain Python: no Django.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from .engine.battle import Battle
from .engine.cards import UnitCard
from .engine.combat import resolve_attack
from .engine.dice import Dice
from .engine.events import AttackKind, Damage, Removal, Remove, Suppress
from .engine.loader import parse_scenario
from .engine.probability import (
    AttackOption,
    best_single_attack,
    expected_attacks_to_remove,
    find_option,
    option_outcome,
    removal_chance,
    suppressions_to_demoralise,
)
from .engine.rulesets import RULESETS, Ruleset
from .engine.scenario import Scenario
from .engine.targeting import attack_problem
from .library import Library, load_library

MAX_ATTACKS = 10_000
"""A duel that has not removed its target by now is reported as never removing it."""


# --- claims -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Tolerance:
    """The band a measured value must fall in; ``None`` leaves that side open."""

    low: Fraction | None
    high: Fraction | None
    text: str
    """How the table states it, e.g. ``10 ± 2``."""

    def holds(self, value: Fraction | float | None) -> bool:
        if value is None:
            return False
        v = Fraction(value)
        return (self.low is None or v >= self.low) and (self.high is None or v <= self.high)


def around(target: float, spread: float) -> Tolerance:
    """``target ± spread``."""
    t, s = Fraction(str(target)), Fraction(str(spread))
    return Tolerance(t - s, t + s, f"{target:g} ± {spread:g}")


def exactly(value: float) -> Tolerance:
    v = Fraction(str(value))
    return Tolerance(v, v, f"exactly {value:g}")


def at_least(value: float) -> Tolerance:
    return Tolerance(Fraction(str(value)), None, f"≥ {value:g}")


class Metric(StrEnum):
    """What a claim measures on its duel."""

    ATTACKS_TO_REMOVE = "mean attacks until the target is removed"
    ATTACKS_PER_DAMAGE = "mean attacks per damage"
    SUPPRESSION_CHANCE = "suppression chance per attack"
    REMOVED_BY_ONE_ATTACK = "chance one activation removes the target"
    SUPPRESSIONS_TO_DEMORALISE = "suppressions until demoralised"
    DAMAGE_TO_DESTROY = "damage until destroyed"
    PRINTED_MOVE = "printed Move"


@dataclass(frozen=True, slots=True)
class Duel:
    """One unit attacking another, the same way every time, until the measure is settled."""

    ruleset: str
    """Ruleset name; also the library folder both cards come from."""
    attacker: str
    """Library key (file stem) of the attacker."""
    target: str
    """Library key of the target (the unit the claim is about)."""
    weapon: str | None
    """Weapon name or ``CLOSE_COMBAT``; ``None``: the attack likeliest to remove in one go."""
    distance: float = 6.0
    """Inches between them (1 or less allows close combat)."""


@dataclass(frozen=True, slots=True)
class Claim:
    """One sentence of BALANCE and how it is held to account."""

    key: str
    text: str
    """The claim, in the rule text's words."""
    measure: str
    """What is measured, in a player's words."""
    duel: Duel
    metric: Metric
    tolerance: Tolerance


_CA, _OYW = "combined_arms", "one_year_war"

CLAIMS: tuple[Claim, ...] = (
    Claim(
        "tank_vs_mech",
        "a medium tank needs about ten shots to shoot through a mech",
        "mean Main Gun shots to remove a mech",
        Duel(_CA, "medium_tank", "mech", "Main Gun"),
        Metric.ATTACKS_TO_REMOVE,
        around(10, 2),
    ),
    Claim(
        "mech_vs_tank",
        "and dies to it in two",
        "mean Autocannon shots to remove a medium tank",
        Duel(_CA, "mech", "medium_tank", "Autocannon"),
        Metric.ATTACKS_TO_REMOVE,
        around(2, 0.5),
    ),
    Claim(
        "rifles_vs_mech",
        "a rifle squad needs two dozen attacks to penetrate mech armor",
        "mean Rifles attacks per damage on a mech",
        Duel(_CA, "rifle_squad", "mech", "Rifles"),
        Metric.ATTACKS_PER_DAMAGE,
        around(24, 3),
    ),
    Claim(
        "rifles_suppress_mech",
        "and cannot suppress it at all",
        "chance a Rifles attack suppresses a mech",
        Duel(_CA, "rifle_squad", "mech", "Rifles"),
        Metric.SUPPRESSION_CHANCE,
        exactly(0),
    ),
    Claim(
        "mech_vs_squad",
        "a mech kills a squad in a single turn",
        'chance one mech activation (best attack, at 1") removes a rifle squad',
        Duel(_CA, "mech", "rifle_squad", None, distance=1.0),
        Metric.REMOVED_BY_ONE_ATTACK,
        at_least(0.6),
    ),
    Claim(
        "mech_vs_mech",
        "and another mech in about five",
        "mean Autocannon shots to remove a mech",
        Duel(_CA, "mech", "mech", "Autocannon"),
        Metric.ATTACKS_TO_REMOVE,
        around(5, 1),
    ),
    Claim(
        "chopper_fast",
        "the chopper is fast",
        'Move (the fastest thing on a 24" table)',
        Duel(_CA, "recon_vehicle", "attack_chopper", "Heavy Machine Gun"),
        Metric.PRINTED_MOVE,
        exactly(8),
    ),
    Claim(
        "chopper_hits_hard",
        "hits reasonably hard",
        "mean Rockets shots to remove a medium tank (a mech needs 2)",
        Duel(_CA, "attack_chopper", "medium_tank", "Rockets"),
        Metric.ATTACKS_TO_REMOVE,
        around(2, 0.5),
    ),
    Claim(
        "chopper_fragile",
        "and dies to absolutely anything",
        "damage that destroys it (a recon vehicle's AA gun shooting)",
        Duel(_CA, "recon_vehicle", "attack_chopper", "Heavy Machine Gun"),
        Metric.DAMAGE_TO_DESTROY,
        exactly(1),
    ),
    Claim(
        "expendable_breaks",
        "the expendable mech breaks after one bad moment",
        "suppressions until demoralised, Combined Arms (a mech shooting)",
        Duel(_CA, "mech", "expendable_mech", "Autocannon"),
        Metric.SUPPRESSIONS_TO_DEMORALISE,
        exactly(1),
    ),
)
"""The BALANCE table of the rule text, claim by claim."""


# --- exact ------------------------------------------------------------------------------------


def duel_cards(duel: Duel, library: Library) -> tuple[UnitCard, UnitCard]:
    """The attacker's and the target's cards."""
    return library.unit(duel.ruleset, duel.attacker), library.unit(duel.ruleset, duel.target)


def duel_option(duel: Duel, library: Library) -> AttackOption:
    """The attack the duel makes: the named weapon, or the best single attack at its distance."""
    ruleset = RULESETS[duel.ruleset]
    attacker, target = duel_cards(duel, library)
    if duel.weapon is None:
        best = best_single_attack(attacker, target, ruleset, duel.distance)
        if best is None:
            raise ValueError(f"{attacker.name} has nothing that reaches {target.name}")
        return best[0]
    option = find_option(attacker, duel.weapon, target, ruleset)
    if duel.distance > option.range:
        raise ValueError(f"{duel.weapon} does not reach {duel.distance:g} inches")
    return option


def expected_value(claim: Claim, library: Library) -> Fraction | None:
    """The claim's measure computed exactly from the cards; ``None`` means never."""
    duel = claim.duel
    ruleset = RULESETS[duel.ruleset]
    target = library.unit(duel.ruleset, duel.target)
    threshold = ruleset.demoralise_at_skill
    if claim.metric is Metric.PRINTED_MOVE:
        return Fraction(str(target.move))
    if claim.metric is Metric.SUPPRESSIONS_TO_DEMORALISE:
        return Fraction(suppressions_to_demoralise(target.skill, threshold))
    if claim.metric is Metric.DAMAGE_TO_DESTROY:
        return Fraction(target.hits)
    attacker = library.unit(duel.ruleset, duel.attacker)
    outcome = option_outcome(duel_option(duel, library), target, attacker.skill)
    if claim.metric is Metric.ATTACKS_TO_REMOVE:
        return expected_attacks_to_remove(outcome, target.hits, target.skill, threshold)
    if claim.metric is Metric.ATTACKS_PER_DAMAGE:
        return outcome.attacks_per_damage
    if claim.metric is Metric.SUPPRESSION_CHANCE:
        return outcome.suppress
    return removal_chance(outcome, target.hits, target.skill, threshold, attacks=1)


# --- simulated --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Trace:
    """How one rolled duel went."""

    attacks: int
    damage: int
    """Damage the target took."""
    suppressions: int
    """Skill the target lost."""
    removed: Removal | None
    """``destroyed``, ``demoralised``, or ``None`` if it was still in the fight."""


def play_duel(
    rng: random.Random,
    *,
    power: int,
    resistance: int,
    attacker_skill: int | None,
    hits: int,
    skill: int,
    demoralise_at: int,
    max_attacks: int = MAX_ATTACKS,
) -> Trace:
    """Roll one duel with the attack rules written out plainly (``None`` skill: no Skill roll)."""
    roll = rng.random
    attacks = damage = suppressions = 0
    while attacks < max_attacks:
        attacks += 1
        if attacker_skill is not None and int(roll() * 6) + 1 > attacker_skill:
            continue  # Missed: nothing happens.
        if int(roll() * 6) + 1 + power > int(roll() * 6) + 1 + resistance:
            damage += 1
            if damage == hits:
                return Trace(attacks, damage, suppressions, Removal.DESTROYED)
        elif power >= resistance:
            suppressions += 1
            if skill - suppressions <= demoralise_at:
                return Trace(attacks, damage, suppressions, Removal.DEMORALISED)
    return Trace(attacks, damage, suppressions, None)


def duel_scenario(
    ruleset: Ruleset, attacker: UnitCard, target: UnitCard, distance: float
) -> Scenario:
    """An empty table with the attacker facing the target ``distance`` inches away."""
    unit = {"id": "attacker", "card": attacker.to_dict(), "position": [4.0, 12.0], "facing": 0}
    mark = {"id": "target", "card": target.to_dict(), "position": [4.0 + distance, 12.0]}
    return parse_scenario(
        {
            "name": "balance duel",
            "ruleset": ruleset.name,
            "turn_limit": 1,
            "sides": [{"id": "a", "units": [unit]}, {"id": "b", "units": [mark]}],
            "objectives": [{"id": "centre", "sides": ["a"], "point": [12, 12], "points_at_end": 1}],
        }
    )


def play_engine_duel(
    scenario: Scenario, dice: Dice, weapon: str, max_attacks: int = MAX_ATTACKS
) -> Trace:
    """Roll one duel through the engine: a fresh battle, ``resolve_attack`` until it is over."""
    battle = Battle(scenario, dice, {})
    attacker = battle.state.units["attacker"]
    target = battle.state.units["target"]
    problem = attack_problem(battle, attacker, target.id, weapon)
    if problem:
        raise ValueError(f"the engine refuses the duel: {problem}")
    attacks = 0
    while attacks < max_attacks and target.active and attacker.active:
        resolve_attack(battle, attacker, target.id, weapon)
        attacks += 1
    log = battle.log
    damage = sum(1 for e in log if isinstance(e, Damage) and e.unit == target.id)
    suppressions = sum(1 for e in log if isinstance(e, Suppress) and e.unit == target.id)
    how = next((e.how for e in log if isinstance(e, Remove) and e.unit == target.id), None)
    return Trace(attacks, damage, suppressions, how)


def _rolled_traces(claim: Claim, library: Library, seed: str, samples: int) -> list[Trace]:
    duel = claim.duel
    ruleset = RULESETS[duel.ruleset]
    attacker, target = duel_cards(duel, library)
    option = duel_option(duel, library)
    rng = random.Random(seed)
    return [
        play_duel(
            rng,
            power=option.power,
            resistance=target.resistance,
            attacker_skill=None if option.kind is AttackKind.RAM else attacker.skill,
            hits=target.hits,
            skill=target.skill,
            demoralise_at=ruleset.demoralise_at_skill,
            max_attacks=_max_attacks(claim),
        )
        for _ in range(samples)
    ]


def _engine_traces(claim: Claim, library: Library, seed: str, samples: int) -> list[Trace]:
    duel = claim.duel
    ruleset = RULESETS[duel.ruleset]
    attacker, target = duel_cards(duel, library)
    option = duel_option(duel, library)
    scenario = duel_scenario(ruleset, attacker, target, duel.distance)
    rng = random.Random(seed).random
    dice = Dice(lambda: int(rng() * 6) + 1)
    return [
        play_engine_duel(scenario, dice, option.weapon, _max_attacks(claim)) for _ in range(samples)
    ]


def _max_attacks(claim: Claim) -> int:
    return 1 if claim.metric is Metric.REMOVED_BY_ONE_ATTACK else MAX_ATTACKS


def _mean(values: Iterable[int]) -> float | None:
    values = list(values)
    return sum(values) / len(values) if values else None


def traced_value(metric: Metric, traces: list[Trace]) -> float | None:
    """The claim's measure over rolled duels; ``None`` when the dice never showed it."""
    attacks = sum(t.attacks for t in traces)
    if metric is Metric.ATTACKS_TO_REMOVE:
        if any(t.removed is None for t in traces):
            return None
        return _mean(t.attacks for t in traces)
    if metric is Metric.ATTACKS_PER_DAMAGE:
        damage = sum(t.damage for t in traces)
        return attacks / damage if damage else None
    if metric is Metric.SUPPRESSION_CHANCE:
        return sum(t.suppressions for t in traces) / attacks if attacks else None
    if metric is Metric.REMOVED_BY_ONE_ATTACK:
        return _mean(int(t.removed is not None and t.attacks == 1) for t in traces)
    if metric is Metric.SUPPRESSIONS_TO_DEMORALISE:
        return _mean(t.suppressions for t in traces if t.removed == Removal.DEMORALISED)
    if metric is Metric.DAMAGE_TO_DESTROY:
        return _mean(t.damage for t in traces if t.removed == Removal.DESTROYED)
    raise ValueError(f"{metric} is printed, not rolled")


# --- the table --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Row:
    """One claim with its exact and simulated values."""

    claim: Claim
    expected: Fraction | None
    """Exact, from the cards."""
    simulated: float | None
    """Rolled with the plain duel loop; ``None`` for a printed number (nothing to roll)."""
    engine: float | None
    """Rolled through the engine's ``resolve_attack``; ``None`` if printed, not run or never."""
    engine_ran: bool = True
    """Whether the engine's dice were rolled for this row."""

    @property
    def rolled(self) -> bool:
        return self.claim.metric is not Metric.PRINTED_MOVE

    @property
    def holds(self) -> bool:
        """Exact and every simulated value that was run fall within the tolerance."""
        tol = self.claim.tolerance
        checks = [self.expected]
        if self.rolled:
            checks.append(self.simulated)
            if self.engine_ran:
                checks.append(self.engine)
        return all(tol.holds(v) for v in checks)


def balance_table(
    *,
    samples: int = 4000,
    seed: int = 1,
    engine: bool = True,
    library: Library | None = None,
    claims: Iterable[Claim] = CLAIMS,
) -> list[Row]:
    """Measure every claim: exact, then ``samples`` duels rolled per claim (and per method)."""
    library = library or load_library()
    rows = []
    for claim in claims:
        simulated = engine_value = None
        if claim.metric is not Metric.PRINTED_MOVE:
            simulated = traced_value(
                claim.metric, _rolled_traces(claim, library, f"{seed}:{claim.key}", samples)
            )
            if engine:
                engine_value = traced_value(
                    claim.metric,
                    _engine_traces(claim, library, f"{seed}:{claim.key}:engine", samples),
                )
        rows.append(
            Row(claim, expected_value(claim, library), simulated, engine_value, engine_ran=engine)
        )
    return rows


def render_table(rows: list[Row]) -> str:
    """The table as aligned text, one claim a row, values side by side, verdict last."""
    head = ("claim", "measure", "expected", "simulated", "engine", "tolerance", "verdict")
    body = [
        (
            r.claim.text,
            r.claim.measure,
            _show_exact(r.expected),
            _show(r.simulated, r.rolled),
            _show(r.engine, r.rolled) if r.engine_ran else "not run",
            r.claim.tolerance.text,
            "holds" if r.holds else "FAILS",
        )
        for r in rows
    ]
    widths = [max(len(line[i]) for line in (head, *body)) for i in range(len(head))]

    def fmt(line: tuple[str, ...]) -> str:
        return "  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)).rstrip()

    return "\n".join([fmt(head), fmt(tuple("-" * w for w in widths)), *map(fmt, body)])


def _show_exact(value: Fraction | None) -> str:
    if value is None:
        return "never"
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.3f} ({value})"


def _show(value: float | None, rolled: bool) -> str:
    if not rolled:
        return "printed"
    return "—" if value is None else f"{value:.3f}"
