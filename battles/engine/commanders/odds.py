"""The exact odds of ``probability``, as cached floats a commander can afford to ask every decision.

``probability`` answers in Fractions, which is right for the balance table and too slow for a
policy asked thousands of times a battle. Here every (attacker card, attacker Skill, target card,
ruleset) is worked out once, exactly, then kept as floats. Cards are frozen and shared by every
unit built from them, so the cache is keyed by identity and keeps the cards it names alive.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import BuildingCard, UnitCard
from ..events import AttackKind
from ..probability import attack_options, option_outcome, ram_back_outcome
from ..rulesets import Ruleset

_LIMIT = 50_000
"""Entries kept before the cache starts afresh (tests build many one-off cards)."""


@dataclass(frozen=True, slots=True)
class Shot:
    """One attack a card could make on a target card, with its chances as floats."""

    weapon: str
    """Weapon name, or ``CLOSE_COMBAT``."""
    range: float
    """Reach in inches."""
    power: int
    """Power of the attack (Size when ramming)."""
    limited: bool
    """A weapon with printed uses (missiles, Charges): spend it where it pays."""
    damage: float
    """Chance of 1 damage."""
    suppress: float
    """Chance of a suppression (a hit that fails to damage, Power at least Resistance)."""
    ram: bool
    """Ramming: no Skill roll, and the target rams back."""
    blow_back: tuple[float, float]
    """(damage, suppress) chances of the ram back on the attacker; zeros otherwise."""


_SHOTS: dict[tuple[int, int, int, str], tuple[Shot, ...]] = {}
_PINNED: dict[tuple, tuple[object, object]] = {}
"""The cards behind every cached key: while an entry lives, its cards' ids cannot be reused."""


def shots(
    attacker: UnitCard, skill: int, target: UnitCard | BuildingCard, ruleset: Ruleset
) -> tuple[Shot, ...]:
    """Every attack the attacker's card allows against the target card (range aside)."""
    key = (id(attacker), skill, id(target), ruleset.name)
    found = _SHOTS.get(key)
    if found is not None:
        return found
    _make_room()
    out = []
    for option in attack_options(attacker, target, ruleset):
        outcome = option_outcome(option, target, skill)
        ram = option.kind is AttackKind.RAM
        back = (0.0, 0.0)
        if ram and isinstance(target, UnitCard):
            b = ram_back_outcome(attacker, target)
            back = (float(b.damage), float(b.suppress))
        out.append(
            Shot(
                option.weapon,
                option.range,
                option.power,
                option.uses is not None,
                float(outcome.damage),
                float(outcome.suppress),
                ram,
                back,
            )
        )
    found = tuple(out)
    _SHOTS[key] = found
    _PINNED[key] = (attacker, target)  # Keeps the ids in the key from being reused.
    return found


_DAMAGES: dict[tuple[int, int, int, str], bool] = {}


def can_damage(
    attacker: UnitCard, skill: int, target: UnitCard | BuildingCard, ruleset: Ruleset
) -> bool:
    """Whether any attack on the attacker's card has a chance of damaging the target card."""
    key = (id(attacker), skill, id(target), ruleset.name)
    found = _DAMAGES.get(key)
    if found is None:
        found = any(s.damage > 0 for s in shots(attacker, skill, target, ruleset))
        _DAMAGES[key] = found  # ``shots`` has pinned the cards behind this key.
    return found


_REACHES: dict[int, tuple[UnitCard, float]] = {}


def weapon_reach(card: UnitCard) -> float:
    """The card's longest weapon range, never under the 1" of close combat."""
    found = _REACHES.get(id(card))
    if found is None or found[0] is not card:
        found = (card, max(max((w.range for w in card.weapons), default=0.0), 1.0))
        if len(_REACHES) > _LIMIT:
            _REACHES.clear()
        _REACHES[id(card)] = found  # The card is kept with its answer: its id stays its own.
    return found[1]


def _make_room() -> None:
    """Start every cache afresh once they grow large (tests build many one-off cards). All at
    once: a key's card ids stay unique only while its cards are pinned."""
    if len(_PINNED) > _LIMIT:
        _SHOTS.clear()
        _DAMAGES.clear()
        _REACH.clear()
        _BEST.clear()
        _PINNED.clear()


def harm(damage: float, suppress: float, hits: int, skill: int, demoralise_at: int) -> float:
    """How far one attack goes toward removing a unit, 0..1: removal now counts in full.

    Half is the chance the attack removes the unit outright (its last Hit, or the suppression
    that demoralises it), half is its share of the damage and suppression still needed. So a
    shot that finishes a damaged target is worth more than the same shot on a fresh one.
    """
    to_break = skill - demoralise_at
    now = (damage if hits <= 1 else 0.0) + (suppress if to_break <= 1 else 0.0)
    share = damage / max(hits, 1) + (suppress / to_break if to_break > 0 else 0.0)
    return min(1.0, 0.5 * (now + min(share, 1.0)))


def removal_now(damage: float, suppress: float, hits: int, skill: int, demoralise_at: int) -> float:
    """Chance that this one attack removes the unit (destroyed or demoralised)."""
    return (damage if hits <= 1 else 0.0) + (suppress if skill - demoralise_at <= 1 else 0.0)


_REACH: dict[tuple[int, int, int, int, int, int, str], tuple[tuple[float, float], ...]] = {}


def harm_by_reach(
    attacker: UnitCard,
    skill: int,
    hits: int,
    target: UnitCard,
    target_hits: int,
    target_skill: int,
    ruleset: Ruleset,
) -> tuple[tuple[float, float], ...]:
    """(range, best harm at that range or closer) for each reach of the attacker's attacks,
    longest first: a gun that reaches 18" and a ram that reaches 1" are different threats."""
    key = (id(attacker), skill, hits, id(target), target_hits, target_skill, ruleset.name)
    found = _REACH.get(key)
    if found is not None:
        return found
    _make_room()
    dem = ruleset.demoralise_at_skill
    pairs = []
    for s in shots(attacker, skill, target, ruleset):
        h = harm(s.damage, s.suppress, target_hits, target_skill, dem)
        if s.ram:
            h -= 0.5 * (s.blow_back[0] / max(hits, 1))
        if h > 0:
            pairs.append((s.range, h))
    pairs.sort(key=lambda p: -p[0])
    out = []
    for r, _ in pairs:
        # Anything that reaches at least this far may be used at this distance.
        out.append((r, max(h for r2, h in pairs if r2 >= r)))
    found = tuple(out)
    _REACH[key] = found
    _PINNED[key] = (attacker, target)  # Keeps the ids in the key from being reused.
    return found


_BEST: dict[tuple[int, int, int, int, int, int, str], tuple[float, Shot] | None] = {}


def best_shot(
    attacker: UnitCard,
    skill: int,
    hits: int,
    target: UnitCard,
    target_hits: int,
    target_skill: int,
    ruleset: Ruleset,
) -> tuple[float, Shot] | None:
    """The attack with the most ``harm`` on the target in its state, and that harm.

    A ram pays for half its blow back. Cached: the answer depends on nothing else.
    """
    key = (id(attacker), skill, hits, id(target), target_hits, target_skill, ruleset.name)
    if key in _BEST:
        return _BEST[key]
    _make_room()
    dem = ruleset.demoralise_at_skill
    best: tuple[float, Shot] | None = None
    for s in shots(attacker, skill, target, ruleset):
        h = harm(s.damage, s.suppress, target_hits, target_skill, dem)
        if s.ram:
            h -= 0.5 * (s.blow_back[0] / max(hits, 1))
        if best is None or h > best[0]:
            best = (h, s)
    _BEST[key] = best
    _PINNED[key] = (attacker, target)
    return best


def at_least(needed: int, chances: list[float]) -> float:
    """Chance that at least ``needed`` of independent attempts with these chances succeed."""
    # dist[k]: chance of exactly k successes so far; the last cell holds "needed or more".
    dist = [1.0] + [0.0] * needed
    for q in chances:
        dist[needed] += dist[needed - 1] * q
        for k in range(needed - 1, 0, -1):
            dist[k] = dist[k] * (1.0 - q) + dist[k - 1] * q
        dist[0] *= 1.0 - q
    return dist[needed]
