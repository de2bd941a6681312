"""What an attack is worth, and what standing somewhere offers the next shot.

All values are in victory points: a unit is worth its Size, because that is what the enemy
scores for removing it.

- **attack value**: the Size an attack takes off the target in expectation (``odds.harm``), plus
  the threat the target would stop posing if it is removed now — so fire goes where it can
  actually hurt, finishes damaged targets, and prefers big ones. Rifles do not rattle tanks: a
  shot that cannot suppress and seldom damages counts for a quarter.
- **building worth**: the raze points a building carries for the side, and what its fall does
  to those inside, times the chance of finishing it in the turns left.
- **opportunity**: the best attack a unit could make next time from a place, on the enemies it
  sees now.

A ``Picture`` (``picture.py``) holds its ``Values``; they ask its ``Threats`` for an enemy's danger.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .. import geometry
from ..cards import Keyword
from ..scenario import ObjectiveKind
from .odds import Shot, at_least, harm, removal_now
from .threat import LOST_SIGHT

if TYPE_CHECKING:
    from ..commander import UnitInfo
    from ..geometry import Point
    from ..state import BuildingState
    from .picture import Picture

WEAKEN = 1.0
"""Share of a target's danger credited per unit of harm short of removing it (suppression
lowers its Skill, damage brings its removal nearer)."""

POOR_ODDS = 0.1
"""Damage chance under which an attack that cannot suppress is a poor use of the activation:
rifles on mech armour (1 in 24) are; rifles on a one-Hit medium tank (1 in 7, and each damage
removes it) are not."""

CANNOT_SUPPRESS = 0.25
"""Weight on such an attack's value."""

DANGER_TURNS = 2
"""Turns of an enemy's fire a removal is credited with sparing."""

LIMITED_USE = 0.8
"""A limited weapon (missiles, Charges) is kept for a target that makes it clearly better."""


class Values:
    """The attack values of a ``Picture`` (see the module docstring), kept for its decision."""

    def __init__(self, pic: Picture) -> None:
        self.pic = pic
        self._inside: dict[str, list[tuple[UnitInfo, float]]] | None = None
        self._worth: dict[str, float] = {}
        self._worth_attacking: list[tuple[BuildingState, int, float]] | None = None
        self._targets: dict[str, list[tuple[float, Point, float, bool, str | None]]] = {}
        self._values: dict[tuple[str, str, str], float] = {}
        """Attack values this decision by (unit, target, weapon): see ``attack_value``."""

    def attack_value(self, unit: UnitInfo, target: UnitInfo, shot: Shot) -> float:
        """Expected Size taken off ``target``, plus the danger it stops posing if removed now."""
        key = (unit.id, target.id, shot.weapon)
        cached = self._values.get(key)
        if cached is None:
            # Beyond the shot, the value depends only on the two units' Hits and Skill and on
            # the target's danger (itself kept for the turn): kept for the turn on those.
            danger = self.pic.threats.danger(target)
            turn_key = (
                unit.id,
                unit.hits,
                unit.skill,
                target.id,
                target.hits,
                target.skill,
                shot.weapon,
                danger,
            )
            memo = self.pic.memo.values
            cached = memo.get(turn_key)
            if cached is None:
                cached = memo[turn_key] = self._attack_value(unit, target, shot, danger)
            self._values[key] = cached
        return cached

    def _attack_value(self, unit: UnitInfo, target: UnitInfo, shot: Shot, danger: float) -> float:
        dem = self.pic.demoralise_at
        hurt = harm(shot.damage, shot.suppress, target.hits, target.skill, dem)
        value = target.card.size * hurt
        # Removing it now spares what it would do to us this turn and the next; hurting it
        # short of that weakens it a little.
        now = removal_now(shot.damage, shot.suppress, target.hits, target.skill, dem)
        spared = now + WEAKEN * max(0.0, hurt - now)
        value += spared * danger * min(self.pic.turns_left, DANGER_TURNS)
        if shot.ram:
            # Ramming is resolved in both directions: pay for the blow back.
            back_damage, back_suppress = shot.blow_back
            value -= unit.card.size * harm(back_damage, back_suppress, unit.hits, unit.skill, dem)
        if shot.limited:
            value *= LIMITED_USE
        if shot.power < target.card.resistance and shot.damage < POOR_ODDS:
            # Rifles rattle infantry; they do not rattle tanks. A shot that cannot suppress
            # and seldom damages is kept for better targets.
            value *= CANNOT_SUPPRESS
        return value

    def worth_attacking(self) -> list[tuple[BuildingState, int, float]]:
        """The standing buildings worth bringing down to this side, with their Hits and that
        worth (compare two decisions' lists to know whether attacks on them changed)."""
        if self._worth_attacking is None:
            found = [(b, b.hits, self.building_worth(b)) for b in self.pic.buildings]
            self._worth_attacking = [(b, h, w) for b, h, w in found if w > 0]
        return self._worth_attacking

    def building_worth(self, b: BuildingState) -> float:
        """What bringing the building down is worth to this side, in points (may be negative).

        Kept for the rest of the turn while the building stands with the Hits it had: units go
        in and out of buildings seldom, and every ready unit's attack asks at every decision.
        """
        cached = self._worth.get(b.id)
        if cached is not None:
            return cached
        memo = self.pic.memo.worth
        key = (b.id, b.hits, len(self.pic.buildings))
        cached = memo.get(key)
        if cached is None:
            cached = memo[key] = self._building_worth(b)
        self._worth[b.id] = cached
        return cached

    def _building_worth(self, b: BuildingState) -> float:
        worth = self._raze_points().get(b.id, 0.0)
        # Each occupant rolls Skill or takes a Hit when it collapses.
        inside = self._occupants().get(b.id, ())
        for u, weight in inside:
            worth += weight * u.card.size * (1.0 - min(u.skill, 6) / 6.0) / max(u.hits, 1)
        if worth > 0:
            worth *= self._can_finish(b)
        return worth

    def _raze_points(self) -> dict[str, float]:
        """Per building, the raze objectives' end points for this side (the enemy's count
        against): the objectives never change, so this is worked out once a battle."""
        found = self.pic.kept.raze
        if found is None:
            found = {}
            side = self.pic.view.side
            for o in self.pic.view.objectives:
                if o.kind is ObjectiveKind.RAZE and o.building is not None:
                    points = o.points_at_end if side in o.sides else -o.points_at_end
                    # Summed in objective order from 0.0, as the worth always was.
                    found[o.building] = found.get(o.building, 0.0) + points
            self.pic.kept.raze = found
        return found

    def _occupants(self) -> dict[str, list[tuple[UnitInfo, float]]]:
        """Units inside each standing building, weighted: enemies +1 (lost from sight: less),
        our own −1 (they roll too when it falls)."""
        if self._inside is None:
            self._inside = {}
            weighted = [(e, 1.0) for e in self.pic.enemies]
            weighted += [(e, LOST_SIGHT) for e in self.pic.lost_sight]
            weighted += [(o, -1.0) for o in self.pic.own]
            inside_at = self.pic.inside_at
            aerial = Keyword.AERIAL
            for u, weight in weighted:
                if aerial in u.card.keywords:
                    continue
                p = u.position
                # Most places are known already this turn: look them up before asking.
                where = inside_at[p] if p in inside_at else self.pic.building_at(p)
                if where is not None:
                    self._inside.setdefault(where, []).append((u, weight))
        return self._inside

    def _can_finish(self, b: BuildingState) -> float:
        """Chance the side brings the building down in the turns left, every unit that can
        damage it attacking it each turn: a raze half done at the end scores nothing."""
        memo = self.pic.memo.finish
        key = (b.id, b.hits, len(self.pic.own))
        if key in memo:
            return memo[key]
        chances = []
        for o in self.pic.own:
            best = max((s.damage for s in self.pic.tables.shots(o.id, o.skill, b.id)), default=0.0)
            if best > 0:
                chances.extend([best] * self.pic.turns_left)
        memo[key] = at_least(b.hits, chances) if chances else 0.0
        return memo[key]

    def building_value(self, b: BuildingState, shot: Shot) -> float:
        """Expected worth of one attack on a building: its share of bringing the building down."""
        worth = self.building_worth(b)
        if worth <= 0:
            return 0.0
        value = shot.damage * worth / max(b.hits, 1) * (2.0 if b.hits <= 1 else 1.0)
        return value * (LIMITED_USE if shot.limited else 1.0)

    def _target_list(self, unit: UnitInfo) -> list[tuple[float, Point, float, bool, str | None]]:
        """(value, where, range, aerial, building it shelters in) of the attacks on visible
        enemies worth scanning, best first: an attack on an enemy that reaches no farther than
        a better one on the same enemy is never the first in range with a line, so it goes."""
        found = self._targets.get(unit.id)
        if found is not None:
            return found
        out = []
        # Every place weighed is within a move of where the unit stands.
        ux, uy = unit.position
        limit = self.pic.tables.weapon_reach(unit.id) + unit.card.move + 1e-6
        for e in self.pic.enemies:
            ex, ey = e.position
            if math.hypot(ex - ux, ey - uy) > limit:
                continue
            inside = None if e.card.has(Keyword.AERIAL) else self.pic.building_at(e.position)
            flies = e.card.has(Keyword.AERIAL)
            for s in self.pic.tables.shots(unit.id, unit.skill, e.id):
                if s.damage + s.suppress > 0:
                    v = self.attack_value(unit, e, s)
                    if v > 0:
                        out.append((v, e.position, s.range, flies, inside))
        out.sort(key=lambda t: -t[0])
        # An entry is scanned for its place, range and line alone: by (place, aerial,
        # shelter), only those reaching farther than every better one can ever be first.
        farthest: dict[tuple[Point, bool, str | None], float] = {}
        kept = []
        for entry in out:
            key = (entry[1], entry[3], entry[4])
            if farthest.get(key, -1.0) < entry[2]:
                farthest[key] = entry[2]
                kept.append(entry)
        self._targets[unit.id] = kept
        return kept

    def opportunity(self, unit: UnitInfo, p: Point, facing: float | None = None) -> float:
        """The best attack the unit could make from ``p`` next time, against what it sees now.

        ``facing`` limits a Fixed Mount to its front arc (turning would cost the activation).
        An enemy inside a building can be attacked only from inside the same building.
        """
        aerial = unit.card.has(Keyword.AERIAL)
        arc = facing is not None and unit.card.has(Keyword.FIXED_MOUNT)
        here = None if aerial else self.pic.building_at(p)
        px, py = p
        for v, (ex, ey), reach, flies, inside in self._target_list(unit):
            if inside is not None and inside != here:
                continue
            if math.hypot(ex - px, ey - py) > reach:
                continue
            if arc and not geometry.in_arc(p, facing, (ex, ey)):  # type: ignore[arg-type]
                continue
            if aerial or flies or self.pic.sees(p, (ex, ey)):
                return v
        return 0.0
