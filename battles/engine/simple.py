"""SimpleCommander: a deterministic, obvious policy for tests and as a baseline.

It activates its units in scenario order. Each attacks the nearest target it legally can with
its best weapon (highest Power; an unlimited weapon before a limited one); otherwise it moves
toward where its order sends it — and, with Move and Fire or Split Movement, attacks after
moving if it then can. Hold: stay put (a Fixed Mount turns toward a target in range). Advance
and Screen: go to the order's objective (or the nearest one the side scores). Attack: go for
the nearest visible enemy, or the objective when none is seen. It attacks a building only when
the side scores for razing it or a seen enemy is inside it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import geometry
from .actions import Activate, AttackStep, MoveStep, RevealStep
from .cards import Keyword
from .scenario import ObjectiveKind, OrderKind
from .targeting import CLOSE_COMBAT, attack_profile

if TYPE_CHECKING:
    from .commander import BattleView, UnitInfo
    from .geometry import Point


class SimpleCommander:
    """Deterministic baseline policy (see the module docstring)."""

    def choose(self, view: BattleView) -> Activate:
        unit = view.ready_units()[0]
        attack = self._best_attack(view, unit, None)
        if attack is not None:
            return Activate(unit.id, (AttackStep(*attack),))
        if unit.card.has(Keyword.SENSOR):
            found = view.sensor_targets(unit.id)
            if found:
                return Activate(unit.id, (RevealStep(found[0]),))
        if unit.card.has(Keyword.FIXED_MOUNT):
            turn = self._turn_toward(view, unit)
            if turn is not None:
                return Activate(unit.id, (MoveStep((), turn),))
        goal = self._goal(view, unit)
        if goal is None or unit.card.move <= 0:
            return Activate(unit.id)
        path = view.plan_path(unit.id, goal)
        if path is None or len(path) < 2:
            return Activate(unit.id)
        steps: list = [MoveStep(tuple(path[1:]))]
        if unit.card.has(Keyword.MOVE_AND_FIRE) or unit.card.has(Keyword.SPLIT_MOVEMENT):
            facing = (
                geometry.bearing(path[-2], path[-1]) if unit.card.has(Keyword.FIXED_MOUNT) else None
            )
            after = self._best_attack(view, unit, path[-1], facing)
            if after is not None:
                steps.append(AttackStep(*after))
        return Activate(unit.id, tuple(steps))

    def _wanted_buildings(self, view: BattleView, enemies: list[UnitInfo]) -> set[str]:
        wanted = {
            o.building
            for o in view.objectives
            if o.kind is ObjectiveKind.RAZE and view.side in o.sides and o.building
        }
        standing = {b.id for b in view.buildings if not b.collapsed}
        if standing:
            # Standing buildings are among the sight-blocking pieces holding a point.
            for e in enemies:
                wanted.update(standing.intersection(view.cover_at(e.position)))
        return wanted

    def _best_attack(
        self, view: BattleView, unit: UnitInfo, origin: Point | None, facing: float | None = None
    ) -> tuple[str, str] | None:
        pos = origin or unit.position
        seen = view.enemies()
        wanted = self._wanted_buildings(view, seen)
        enemies = {e.id: e.position for e in seen}
        best = None
        candidates = [*enemies, *sorted(wanted)]
        for target, weapon in view.legal_attacks(unit.id, origin, facing, candidates):
            if target in enemies:
                dist = geometry.distance(pos, enemies[target])
            elif target in wanted:
                b = next(b for b in view.buildings if b.id == target)
                dist = geometry.distance(pos, b.polygon.centroid)
            else:
                continue
            w = unit.card.weapon(weapon) if weapon != CLOSE_COMBAT else None
            power = w.power if w else _close_power(unit)
            limited = 1 if (w is not None and w.uses is not None) else 0
            key = (round(dist, 6), -power, limited)
            if best is None or key < best[0]:
                best = (key, (target, weapon))
        return None if best is None else best[1]

    def _turn_toward(self, view: BattleView, unit: UnitInfo) -> float | None:
        for e in sorted(view.enemies(), key=lambda e: geometry.distance(unit.position, e.position)):
            facing = geometry.bearing(unit.position, e.position)
            if view.legal_attacks(unit.id, None, facing, [e.id]):
                return round(facing, 3)
        return None

    def _goal(self, view: BattleView, unit: UnitInfo) -> Point | None:
        order = unit.order
        kind = order.kind if order else OrderKind.HOLD
        if kind is OrderKind.HOLD:
            return None
        if kind is OrderKind.ATTACK:
            enemies = view.enemies()
            if enemies:
                e = min(enemies, key=lambda e: (geometry.distance(unit.position, e.position), e.id))
                return e.position
        obj = None
        if order and order.objective:
            obj = next(o for o in view.objectives if o.id == order.objective)
        candidates = [o for o in view.objectives if view.side in o.sides]
        if obj is None and candidates:
            obj = min(candidates, key=lambda o: _distance_to(view, unit.position, o))
        if obj is None:
            return None
        if obj.kind is ObjectiveKind.RAZE:
            b = next(b for b in view.buildings if b.id == obj.building)
            return None if b.collapsed else b.polygon.centroid
        assert obj.point is not None
        if geometry.distance(unit.position, obj.point) <= obj.radius * 0.5:
            return None
        return obj.point


def _close_power(unit: UnitInfo) -> int:
    prof = attack_profile(unit.card, CLOSE_COMBAT)
    return prof.power if prof else 0


def _distance_to(view: BattleView, p: Point, obj) -> float:
    if obj.point is not None:
        return geometry.distance(p, obj.point)
    b = next(b for b in view.buildings if b.id == obj.building)
    return geometry.distance(p, b.polygon.centroid)
