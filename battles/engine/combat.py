"""Resolving attacks: the Skill roll, penetration, damage, suppression, removal, collapse.

Shooting and Melee: Skill roll (skipped against buildings, which do not dodge), then 1d6 + Power
against 1d6 + Resistance; strictly higher deals 1 damage, armour wins ties. A hit that fails to
damage suppresses (costs 1 Skill) when Power is at least the target's Resistance. Ramming has no
Skill roll, uses Size as Power and is resolved in both directions at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import events as ev
from . import geometry
from .events import AttackKind, AttackOutcome, Removal, RevealCause, RollPurpose
from .targeting import building_aim, unit_profiles

if TYPE_CHECKING:
    from .battle import Battle
    from .state import BuildingState, UnitState
    from .targeting import AttackProfile


def resolve_attack(b: Battle, attacker: UnitState, target_id: str, weapon: str) -> None:
    """Resolve an attack the caller has already found legal (``targeting.attack_problem``)."""
    prof = unit_profiles(b, attacker)[weapon]
    # Firing reveals the unit through the end of its own next activation.
    if not attacker.aerial:
        until = attacker.activations + 1
        if attacker.concealed or attacker.revealed_until != until:
            b.emit(ev.Reveal(attacker.id, RevealCause.FIRED, until))
    bld = b.state.buildings.get(target_id)
    if bld is not None:
        _attack_building(b, attacker, bld, prof)
        return
    target = b.state.units[target_id]
    dist = geometry.rnd(geometry.distance(attacker.position, target.position))
    if prof.kind is AttackKind.RAM:
        _ram(b, attacker, target, dist)
        return
    if not b.dice.check(attacker.id, RollPurpose.TO_HIT, attacker.skill):
        b.emit(
            ev.Attack(
                attacker.id,
                target.id,
                prof.name,
                prof.kind,
                prof.power,
                dist,
                AttackOutcome.MISS,
            )
        )
        return
    won = b.dice.opposed(attacker.id, target.id, prof.power, target.card.resistance)
    b.emit(ev.Attack(attacker.id, target.id, prof.name, prof.kind, prof.power, dist, _out(won)))
    if won:
        damage(b, target, attacker.id)
    elif prof.power >= target.card.resistance:
        suppress(b, target, attacker.id)


def _ram(b: Battle, attacker: UnitState, target: UnitState, dist: float) -> None:
    """Ramming: no Skill roll, Power = Size, and the target rams back at once."""
    a_power, t_power = attacker.card.size, target.card.size
    a_won = b.dice.opposed(attacker.id, target.id, a_power, target.card.resistance)
    b.emit(ev.Attack(attacker.id, target.id, "Ram", AttackKind.RAM, a_power, dist, _out(a_won)))
    t_won = b.dice.opposed(target.id, attacker.id, t_power, attacker.card.resistance)
    b.emit(
        ev.Attack(target.id, attacker.id, "Ram", AttackKind.RAM_BACK, t_power, dist, _out(t_won))
    )
    # Both blows land together, so a unit the first one removes still strikes back.
    for struck, by, won, power in (
        (target, attacker, a_won, a_power),
        (attacker, target, t_won, t_power),
    ):
        if not struck.active:
            continue
        if won:
            damage(b, struck, by.id)
        elif power >= struck.card.resistance:
            # A ram that fails to damage counts as a hit for suppression.
            suppress(b, struck, by.id)


def _out(won: bool) -> AttackOutcome:
    return AttackOutcome.DAMAGE if won else AttackOutcome.NO_DAMAGE


def _attack_building(
    b: Battle, attacker: UnitState, bld: BuildingState, prof: AttackProfile
) -> None:
    """Buildings do not dodge (no Skill roll), are never suppressed, and never ram back. The
    distance is to the part of the walls the attack goes to (``targeting.building_aim``)."""
    aim = building_aim(b, attacker, bld, attacker.position, prof.range)
    assert aim is not None, "the attack was found legal"
    dist = geometry.rnd(geometry.distance(attacker.position, aim))
    power = prof.power
    won = b.dice.opposed(attacker.id, bld.id, power, bld.card.resistance)
    b.emit(ev.Attack(attacker.id, bld.id, prof.name, prof.kind, power, dist, _out(won)))
    if won:
        b.emit(ev.Damage(bld.id, attacker.id, bld.hits - 1))
        if bld.hits == 0:
            collapse(b, bld)


def damage(b: Battle, unit: UnitState, by: str | None) -> None:
    """One damage: lose a Hit; at 0 Hits the unit is destroyed and removed."""
    b.emit(ev.Damage(unit.id, by, unit.hits - 1))
    if unit.hits == 0:
        remove(b, unit, Removal.DESTROYED)


def suppress(b: Battle, unit: UnitState, by: str) -> None:
    """Lose 1 Skill; at the ruleset's threshold (0 at the lowest) the unit is demoralised and
    removed, and a removed unit is never attacked again, so Skill never drops below 0."""
    skill = unit.skill - 1
    b.emit(ev.Suppress(unit.id, by, skill))
    if b.ruleset.demoralised(skill):
        remove(b, unit, Removal.DEMORALISED)


def remove(b: Battle, unit: UnitState, how: Removal) -> None:
    """Take the unit out; the enemy scores its Size (demoralised counts as removed)."""
    b.emit(ev.Remove(unit.id, how))
    enemy = b.state.enemy[unit.side]
    total = b.state.scores[enemy] + unit.card.size
    b.emit(ev.Score(enemy, unit.card.size, f"removed:{unit.id}", total))


def collapse(b: Battle, bld: BuildingState) -> None:
    """At 0 Hits a building becomes its rubble; each occupant rolls Skill or takes 1 Hit: each
    unit it holds, on a wall it shares with another piece too (E34). Then whoever the fallen
    walls no longer hide is seen."""
    holds = b.sight.holds
    occupants = [
        u
        for u in b.state.units.values()
        if u.active and not u.aerial and holds(bld.id, bld.polygon, u.position)
    ]
    b.emit(ev.Collapse(bld.id, tuple(u.id for u in occupants)))
    for u in occupants:
        if not b.dice.check(u.id, RollPurpose.COLLAPSE, u.skill):
            damage(b, u, None)
    b.spot_exposed()
