"""What the commander makes of the odds: how far an attack goes toward removing a unit.

The exact chances themselves are the scenario's (``tables.py``): every (attacker card, Skill,
target card) worked out once when the scenario is loaded, as floats. Here they are weighed
against the target's state; the answers for a pair of unit states (``Piece.state``) are kept
in the scenario's tables too, as they depend on nothing else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..tables import STATES, ScenarioTables, Shot

if TYPE_CHECKING:
    from .board import Piece

__all__ = ["Shot", "at_least", "best_shot", "harm", "harm_by_reach", "harm_within", "removal_now"]


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


def _harms(tables: ScenarioTables, attacker: int, target: int) -> list[tuple[float, Shot]]:
    """(harm, shot) of each attack of the attacker's state on the target's (state numbers),
    in card order. A ram pays for half its blow back."""
    a_card, a_skill, a_hits = tables.state_cards[attacker]
    t_card, t_skill, t_hits = tables.state_cards[target]
    dem = tables.ruleset.demoralise_at_skill
    out = []
    for s in tables.card_shots(a_card, a_skill, t_card):
        h = harm(s.damage, s.suppress, t_hits, t_skill, dem)
        if s.ram:
            h -= 0.5 * (s.blow_back[0] / max(a_hits, 1))
        out.append((h, s))
    return out


def harm_by_reach(
    tables: ScenarioTables, attacker: Piece, target: Piece
) -> tuple[tuple[float, float], ...]:
    """(range, best harm at that range or closer) for each reach of the attacker's attacks,
    longest first: a gun that reaches 18" and a ram that reaches 1" are different threats."""
    key = attacker.state * STATES + target.state
    found = tables.reaches.get(key)
    if found is None:
        pairs = [(s.range, h) for h, s in _harms(tables, attacker.state, target.state) if h > 0]
        pairs.sort(key=lambda p: -p[0])
        # Anything that reaches at least this far may be used at this distance.
        found = tables.reaches[key] = tuple(
            (r, max(h for r2, h in pairs if r2 >= r)) for r, _ in pairs
        )
    return found


def harm_within(reaches: tuple[tuple[float, float], ...], d: float, move: float = 0.0) -> float:
    """The best harm of ``harm_by_reach`` on a target ``d`` inches away, the attacker first
    moving up to ``move`` (0 out of reach). The reaches run longest first and the harm never
    falls as the range shortens: it is the last reach that still covers the distance."""
    h = 0.0
    for r, hr in reaches:
        if d > r + move:
            break
        h = hr
    return h


def best_shot(tables: ScenarioTables, attacker: Piece, target: Piece) -> tuple[float, Shot] | None:
    """The attack with the most ``harm`` on the target in its state, and that harm."""
    key = attacker.state * STATES + target.state
    if key in tables.best:
        return tables.best[key]
    best: tuple[float, Shot] | None = None
    for h, s in _harms(tables, attacker.state, target.state):
        if best is None or h > best[0]:
            best = (h, s)
    tables.best[key] = best
    return best


def at_least(needed: int, chances: list[float]) -> float:
    """Chance that at least ``needed`` of independent attempts with these chances succeed."""
    # dist[k]: chance of exactly k successes so far; the last cell holds "needed or more".
    dist = [1.0] + [0.0] * needed
    for q in chances:
        fail = 1.0 - q
        dist[needed] += dist[needed - 1] * q
        for k in range(needed - 1, 0, -1):
            dist[k] = dist[k] * fail + dist[k - 1] * q
        dist[0] *= fail
    return dist[needed]
