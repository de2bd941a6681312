"""The threat a place is under: what a unit standing there can expect to lose.

The Size a unit can expect to lose before it activates again, to the enemies its side can see
(and those lately lost from sight, where last seen, for less): each enemy's best attack on it,
in range and with a line now (in full), or able to get one by moving (in part). A unit inside a
standing building cannot be attacked at all; a unit concealed inside a sight-blocking piece only
by enemies in the same piece. The enemies it cannot hurt back weigh half again: that is what
armour keeps away from.

The sum is asked at every place a plan weighs, so it is kept light: only the ``SOURCES``
strongest enemies that could reach the unit's ground count (past a handful of guns the unit's
survival is spent), and lines are reckoned between grid squares (``Picture.sees``).

Beside it: an enemy's **danger** (the most it can take off one of our units with its next
attack, which an attack on it spares) and ``under_guns``, the cheap stand-in for the threat
where a unit stands that choosing who acts reads. A ``Picture`` (``picture.py``) holds its
``Threats``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .. import geometry
from ..cards import Keyword
from .odds import harm_by_reach

if TYPE_CHECKING:
    from ..commander import UnitInfo
    from ..geometry import Point
    from .picture import Picture

BLOCKED_IN_RANGE = 0.35
"""Share of an enemy's threat when it is in range but has no line now (it may move to get one)."""

MOVE_THEN_FIRE = 0.5
"""Share when it must move first but may fire in the same activation (Move and Fire, Split)."""

MOVE_NEXT_TURN = 0.25
"""Share when it must move first and fire in a later activation."""

ALREADY_ACTIVATED = 0.8
"""An enemy that has activated this turn fires only next turn: the unit may have moved by then."""

FAIR_FIGHT = 0.6
"""Weight on threats the unit can answer in kind: a fair exchange of fire is worth taking."""

CANNOT_HURT_BACK = 1.5
"""Weight on threats the unit cannot damage in return: keep armour away from what kills it."""

SHARED_FIRE = 1.0
"""How much friends already in an enemy's sights dilute its threat to this unit."""

LOST_SIGHT = 0.6
"""Weight of an enemy out of sight, as last seen (it may have moved, or been removed)."""

SPAN = 2.5
"""Moves from where it stands to the farthest place a unit weighs (``moves._firing_spot``)."""

SOURCES = 8
"""Most threat sources weighed for one unit: the strongest (``Threats._sources``)."""

TURN_FIRST = 0.4
"""Share of a Fixed Mount's threat outside its front arc: it must turn (an activation) first."""


Source = tuple["Point", float, tuple[tuple[float, float], ...], float, bool, bool, "float | None"]
"""A threat to one unit: where, weight, (range, harm) reaches, move, mobile, aerial, facing."""


def _by_bound(entry: tuple) -> tuple[float, int]:
    return entry[0], entry[1]


def _by_strength(entry: tuple) -> tuple[float, int]:
    return entry[0], entry[1]


def _by_place(entry: tuple) -> int:
    return entry[1]


class Threats:
    """The threat sums of a ``Picture`` (see the module docstring), kept for its decision."""

    def __init__(self, pic: Picture) -> None:
        self.pic = pic
        self._danger: dict[str, float] = {}
        self._threat: dict[tuple[str, Point, bool], float] = {}
        self._threat_sources: dict[str, list[Source]] = {}
        self._open: list[tuple[str, float, float]] | None = None

    def _sources(self, unit: UnitInfo) -> list[Source]:
        """Per enemy that can hurt the unit: (where, weight, reaches, move, can move and fire,
        aerial, facing of a Fixed Mount or None) — all of the threat that does not depend on
        where the unit stands. ``reaches`` pairs each range with the best harm from that far.
        Enemies lately lost from sight count, where last seen, for less.

        Only the ``SOURCES`` that could take the most off the unit count (weight times their
        best harm), in the enemies' order, and only those that could reach a place the unit
        might stand (the farthest place weighed, a firing point, lies within ``SPAN`` moves).
        Past a handful of guns the unit's survival is spent, and the threat sum is asked at
        every place weighed: the weakest add little and cost as much as the strongest. The
        enemies are weighed by the most they could take off (before shared fire and a fair
        fight lower it), best first, and the weighing stops once that cannot make the cut.
        """
        found = self._threat_sources.get(unit.id)
        if found is not None:
            return found
        pool = [(e, 1.0) for e in self.pic.enemies] + [(e, LOST_SIGHT) for e in self.pic.lost_sight]
        ucard, tables = unit.card, self.pic.tables
        ux, uy = unit.position
        span = SPAN * ucard.move
        near = []
        for i, (e, weight) in enumerate(pool):
            ex, ey = e.position
            d = math.hypot(ex - ux, ey - uy)
            if d > tables.weapon_reach(e.id) + e.card.move + span:
                continue  # Out of reach of any place the unit might stand.
            reaches = harm_by_reach(tables, e, unit)
            if not reaches or d > reaches[0][0] + e.card.move + span:
                continue
            if e.activated and weight == 1.0:
                weight *= ALREADY_ACTIVATED
            # The shortest reach carries the most harm: it is what the source could do.
            near.append((-(weight * CANNOT_HURT_BACK) * reaches[-1][1], i, e, weight, reaches))
        if len(near) > SOURCES:
            near.sort(key=_by_bound)
        weighed: list[tuple[float, int, Source]] = []
        cut = -math.inf  # the SOURCES-th strongest weighed so far, once there are that many
        for bound, i, e, weight, reaches in near:
            if -bound < cut:
                break  # Sorted by bound: no enemy after this one can make the cut.
            # It fires once: friends already in its sights share the shot it will take.
            weight /= 1 + SHARED_FIRE * self._exposed_to(e, unit, reaches[0][0])
            weight *= FAIR_FIGHT if self.pic.can_hurt(unit, e) else CANNOT_HURT_BACK
            mobile, fixed, flies = tables.card_flags(e.id)
            facing = e.facing if fixed else None
            source = (e.position, weight, reaches, e.card.move, mobile, flies, facing)
            weighed.append((-weight * reaches[-1][1], i, source))
            if len(weighed) >= SOURCES and len(near) > SOURCES:
                weighed.sort(key=_by_strength)
                del weighed[SOURCES:]
                cut = -weighed[-1][0]
        weighed.sort(key=_by_strength)
        out = [s for _, _, s in sorted(weighed[:SOURCES], key=_by_place)]
        self._threat_sources[unit.id] = out
        return out

    def _exposed_to(self, enemy: UnitInfo, unit: UnitInfo, reach: float) -> int:
        """Our other units the enemy could attack where they stand (in range, not concealed).

        Kept for the rest of the turn while the enemy stands where it did: our units move a
        little within a turn, and this only dilutes a weight."""
        memo = self.pic.memo.exposed
        key = (enemy.id, enemy.position, reach)
        exposed = memo.get(key)
        if exposed is None:
            ex, ey = enemy.position
            exposed = [
                oid for oid, ox, oy in self._in_the_open() if math.hypot(ox - ex, oy - ey) <= reach
            ]
            memo[key] = exposed
        return len(exposed) - (unit.id in exposed)

    def _in_the_open(self) -> list[tuple[str, float, float]]:
        """(id, x, y) of our units an enemy could attack where they stand: neither concealed
        nor sheltered. Worked out once a decision: every enemy's exposure sum walks it."""
        found = self._open
        if found is None:
            found = [
                (o.id, o.position[0], o.position[1])
                for o in self.pic.own
                if not (o.concealed or self.pic.sheltered(o, o.position))
            ]
            self._open = found
        return found

    def under_guns(self, unit: UnitInfo) -> float:
        """A cheap stand-in for the threat where the unit stands, to choose who acts first:
        the Size of the visible enemies whose weapons reach it now (distance only)."""
        if unit.concealed or self.pic.sheltered(unit, unit.position):
            return 0.0
        ux, uy = unit.position
        total = 0.0
        for e in self.pic.enemies:
            reach = max((w.range for w in e.card.weapons), default=1.0)
            ex, ey = e.position
            if math.hypot(ex - ux, ey - uy) <= reach:
                total += 0.1 * e.card.size
        return min(total, unit.card.size)

    def threat(self, unit: UnitInfo, p: Point, *, hidden: bool) -> float:
        """Size the unit can expect to lose standing at ``p`` until it activates again.

        ``hidden``: it will be concealed there (inside a sight-blocking piece, not firing).
        """
        key = (unit.id, p, hidden)
        cached = self._threat.get(key)
        if cached is not None:
            return cached
        view = self.pic.view
        aerial = unit.card.has(Keyword.AERIAL)
        if not aerial and self.pic.building_at(p) is not None:
            # Only the building can be attacked from outside; those inside it see each other.
            hidden = True
        cover = view.cover_at(p) if hidden else frozenset()
        survive = 1.0
        px, py = p
        for where, weight, reaches, move, mobile, flies, facing in self._sources(unit):
            ex, ey = where
            d = math.hypot(ex - px, ey - py)
            if d > reaches[0][0] + move:
                continue
            if hidden and not (cover & view.cover_at(where)):
                continue
            # ``reaches`` runs longest first with harm never falling as the range shortens,
            # so the best harm within a distance is the last reach that still covers it.
            h = 0.0
            for r, hr in reaches:
                if d > r:
                    break
                h = hr
            if h > 0:
                clear = aerial or flies or self.pic.sees(where, p)
                share = 1.0 if clear else BLOCKED_IN_RANGE
            else:
                for r, hr in reaches:
                    if d > r + move:
                        break
                    h = hr
                share = MOVE_THEN_FIRE if mobile else MOVE_NEXT_TURN
            share *= weight
            if facing is not None and not geometry.in_arc(where, facing, p):
                share *= TURN_FIRST
            survive *= 1.0 - min(1.0, h * share)
        value = unit.card.size * (1.0 - survive)
        self._threat[key] = value
        return value

    def danger(self, enemy: UnitInfo) -> float:
        """The most Size the enemy can take off one of our units with its next attack.

        Kept for the rest of the turn while the enemy stands, hits and sees as it does: our
        units move a little within a turn, and this is a weight, not a rule.
        """
        cached = self._danger.get(enemy.id)
        if cached is not None:
            return cached
        memo = self.pic.memo.danger
        key = (enemy.id, enemy.position, enemy.hits, enemy.skill)
        cached = memo.get(key)
        if cached is not None:
            self._danger[enemy.id] = cached
            return cached
        worst = 0.0
        ex, ey = enemy.position
        reach = max((w.range for w in enemy.card.weapons), default=1.0) + enemy.card.move
        for o in self.pic.own:
            ox, oy = o.position
            if math.hypot(ox - ex, oy - ey) > reach:
                continue
            if o.concealed or self.pic.sheltered(o, o.position):
                continue
            d = math.hypot(ox - ex, oy - ey)
            reaches = harm_by_reach(self.pic.tables, enemy, o)
            h = max((hr for r, hr in reaches if d <= r + enemy.card.move), default=0.0)
            worst = max(worst, o.card.size * h)
        self._danger[enemy.id] = worst
        memo[key] = worst
        return worst
