"""What one decision knows, and the sums a commander weighs: threat, attack value, cover.

A ``Picture`` is built from the side's ``BattleView`` for one decision (the battle does not
change during it), so every sum here can be cached on it. All values are in victory points:
a unit is worth its Size, because that is what the enemy scores for removing it.

- **threat** at a point: the Size a unit standing there can expect to lose to the enemies it can
  see before it activates again — each enemy's best attack on it, in range and with a line
  now (in full), or able to get one by moving (in part). A unit inside a standing building cannot
  be attacked at all; a unit concealed inside a sight-blocking piece only by enemies in the same
  piece. The enemies it cannot hurt back weigh half again: that is what armour keeps away from.
- **attack value**: the Size an attack takes off the target in expectation (``odds.harm``), plus
  the threat the target would stop posing if it is removed now — so fire goes where it can
  actually hurt, finishes damaged targets, and prefers big ones.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import geometry
from ..cards import Keyword
from ..footprint import nearest_point
from ..scenario import ObjectiveKind
from .odds import (
    Shot,
    at_least,
    best_shot,
    can_damage,
    harm,
    harm_by_reach,
    removal_now,
    shots,
)

if TYPE_CHECKING:
    from ..cards import UnitCard
    from ..commander import BattleView, UnitInfo
    from ..geometry import Point
    from ..state import BuildingState

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

WEAKEN = 1.0
"""Share of a target's danger credited per unit of harm short of removing it (suppression
lowers its Skill, damage brings its removal nearer)."""

POOR_ODDS = 0.2
"""Damage chance under which an attack that cannot suppress is a poor use of the activation."""

CANNOT_SUPPRESS = 0.25
"""Weight on such an attack's value."""

DANGER_TURNS = 2
"""Turns of an enemy's fire a removal is credited with sparing."""

LIMITED_USE = 0.8
"""A limited weapon (missiles, Charges) is kept for a target that makes it clearly better."""

MEMORY = 1
"""Turns an enemy that went out of sight is still reckoned with where it was last seen."""

LOST_SIGHT = 0.6
"""Weight of an enemy out of sight, as last seen (it may have moved, or been removed)."""

TURN_FIRST = 0.4
"""Share of a Fixed Mount's threat outside its front arc: it must turn (an activation) first."""


Source = tuple["Point", float, tuple[tuple[float, float], ...], float, bool, bool, "float | None"]
"""A threat to one unit: where, weight, (range, harm) reaches, move, mobile, aerial, facing."""


_FLAGS: dict[int, tuple[UnitCard, tuple[bool, bool, bool]]] = {}


def _flags(card: UnitCard) -> tuple[bool, bool, bool]:
    """(moves and fires, Fixed Mount, Aerial) of a card: read for every enemy every decision."""
    found = _FLAGS.get(id(card))
    if found is None or found[0] is not card:
        mobile = card.has(Keyword.MOVE_AND_FIRE) or card.has(Keyword.SPLIT_MOVEMENT)
        found = (card, (mobile, card.has(Keyword.FIXED_MOUNT), card.has(Keyword.AERIAL)))
        if len(_FLAGS) > 10_000:
            _FLAGS.clear()  # tests build many one-off cards
        _FLAGS[id(card)] = found  # the card is kept with its flags: its id stays its own
    return found[1]


class Picture:
    """The battle as one decision sees it, with per-decision caches."""

    def __init__(
        self,
        view: BattleView,
        remembered: dict[str, tuple[UnitInfo, int]],
        memo: dict[tuple, Any] | None = None,
    ) -> None:
        self.view = view
        self.ruleset = view.ruleset
        self.demoralise_at = view.ruleset.demoralise_at_skill
        self.own = view.own_units()
        self.enemies = view.enemies()
        self.buildings: list[BuildingState] = [b for b in view.buildings if not b.collapsed]
        self.turns_left = view.turn_limit - view.turn + 1
        """Turns still to play, this one included."""
        seen = {e.id for e in self.enemies}
        self.lost_sight = [
            e
            for eid, (e, turn) in remembered.items()
            if eid not in seen and view.turn - turn <= MEMORY
        ]
        """Enemies seen lately that are out of sight now, as last seen: a player's memory."""
        self._danger: dict[str, float] = {}
        self.memo: dict[tuple, Any] = {} if memo is None else memo
        """Kept by the commander for the rest of the turn: sums that change little within it."""
        self._buildings_state: tuple | None = None
        self._inside: dict[str, list[tuple[UnitInfo, float]]] | None = None
        self._threat: dict[tuple[str, Point, bool], float] = {}
        self._worth: dict[str, float] = {}
        self._threat_sources: dict[str, list[Source]] = {}
        self._targets: dict[str, list[tuple[float, Point, float, bool, str | None]]] = {}
        self._sheltered: dict[str, bool] = {}
        self.values: dict[tuple[str, str, str], float] = {}
        """Attack values this decision by (unit, target, weapon): see ``attack_value``."""
        self._exposed: dict[tuple[str, float], list[str]] = {}
        self._open: list[tuple[str, float, float]] | None = None
        self._enemy_states: list[tuple[UnitInfo, tuple]] | None = None
        self.orders: dict[str, tuple[UnitInfo, Any]] = {}
        """Each unit's order kind this decision (``goals.order_kind``), with the unit asked."""
        self.goals: dict[str, tuple[UnitInfo, Any]] = {}
        """Each unit's goal this decision (``goals.goal_for``), with the unit asked."""
        self.ground: dict[str, tuple[UnitInfo, Any]] = {}
        """Each unit's share of the objectives' ground this decision (``default.presence``)."""
        inside = self.memo.get(("inside",))
        if inside is None or inside[0] != len(self.buildings):
            inside = (len(self.buildings), {})
            self.memo[("inside",)] = inside
        self._inside_at: dict[Point, str | None] = inside[1]
        """Building holding each point, kept for the turn while no building falls."""

    # --- places ---------------------------------------------------------------------------------

    def building_at(self, p: Point) -> str | None:
        """The standing building whose footprint strictly holds ``p``, if any."""
        inside = self._inside_at
        try:
            return inside[p]
        except KeyError:
            found = next((b.id for b in self.buildings if b.polygon.contains_strictly(p)), None)
            inside[p] = found
            return found

    def enemy_states(self) -> list[tuple[UnitInfo, tuple]]:
        """Each visible enemy with what an attack on it depends on (id, place, Hits, Skill,
        concealment): worked out once a decision, since every ready unit's attack asks."""
        found = self._enemy_states
        if found is None:
            found = [(e, (e.id, e.position, e.hits, e.skill, e.concealed)) for e in self.enemies]
            self._enemy_states = found
        return found

    def building_state(self) -> tuple:
        """Each standing building's id, Hits and worth to this side: what attacks on them see."""
        if self._buildings_state is None:
            self._buildings_state = tuple(
                (b.id, b.hits, round(self.building_worth(b), 6)) for b in self.buildings
            )
        return self._buildings_state

    def distance_to_building(self, b: BuildingState, p: Point) -> float:
        """Distance from ``p`` to the building's nearest wall (kept for the turn)."""
        key = ("wall", b.id, p)
        found = self.memo.get(key)
        if found is None:
            found = geometry.distance(p, nearest_point(b.polygon, p))
            self.memo[key] = found
        return found

    def sheltered(self, unit: UnitInfo, p: Point) -> bool:
        """Inside a standing building: only the building can be attacked."""
        if p == unit.position:
            known = self._sheltered.get(unit.id)
            if known is None:
                known = not unit.card.has(Keyword.AERIAL) and self.building_at(p) is not None
                self._sheltered[unit.id] = known
            return known
        return not unit.card.has(Keyword.AERIAL) and self.building_at(p) is not None

    def hidden_at(self, unit: UnitInfo, p: Point) -> bool:
        """Inside a sight-blocking piece: concealed there unless it fires."""
        return not unit.card.has(Keyword.AERIAL) and bool(self.view.cover_at(p))

    # --- threat ---------------------------------------------------------------------------------

    def best_shot(self, attacker: UnitInfo, target: UnitInfo) -> tuple[float, Shot] | None:
        """The attacker's attack with the most harm on the target, and that harm."""
        return best_shot(
            attacker.card,
            attacker.skill,
            attacker.hits,
            target.card,
            target.hits,
            target.skill,
            self.ruleset,
        )

    def can_follow_in(self, unit: UnitInfo, enemy: UnitInfo) -> bool:
        """Whether the unit could go into the building the enemy shelters in (it admits the
        unit, or the unit has Breaching) and fight it there, where they see each other."""
        inside = self.building_at(enemy.position)
        if inside is None or unit.card.has(Keyword.AERIAL):
            return False
        b = next(b for b in self.buildings if b.id == inside)
        return b.card.admits_size(unit.card.size) or unit.card.has(Keyword.BREACHING)

    def can_hurt(self, unit: UnitInfo, enemy: UnitInfo) -> bool:
        """Whether anything on the unit's card can damage the enemy where it stands."""
        if self.sheltered(enemy, enemy.position):
            return False  # Only its building can be attacked.
        return can_damage(unit.card, unit.skill, enemy.card, self.ruleset)

    def _sources(self, unit: UnitInfo) -> list[Source]:
        """Per enemy that can hurt the unit: (where, weight, reaches, move, can move and fire,
        aerial, facing of a Fixed Mount or None) — all of the threat that does not depend on
        where the unit stands. ``reaches`` pairs each range with the best harm from that far.
        Enemies lately lost from sight count, where last seen, for less."""
        found = self._threat_sources.get(unit.id)
        if found is not None:
            return found
        out = []
        pool = [(e, 1.0) for e in self.enemies] + [(e, LOST_SIGHT) for e in self.lost_sight]
        ucard, uhits, uskill, ruleset = unit.card, unit.hits, unit.skill, self.ruleset
        for e, weight in pool:
            card = e.card
            reaches = harm_by_reach(card, e.skill, e.hits, ucard, uhits, uskill, ruleset)
            if not reaches:
                continue
            if e.activated and weight == 1.0:
                weight *= ALREADY_ACTIVATED
            # It fires once: friends already in its sights share the shot it will take.
            weight /= 1 + SHARED_FIRE * self._exposed_to(e, unit, reaches[0][0])
            weight *= FAIR_FIGHT if self.can_hurt(unit, e) else CANNOT_HURT_BACK
            mobile, fixed, flies = _flags(card)
            facing = e.facing if fixed else None
            out.append((e.position, weight, reaches, card.move, mobile, flies, facing))
        self._threat_sources[unit.id] = out
        return out

    def _exposed_to(self, enemy: UnitInfo, unit: UnitInfo, reach: float) -> int:
        """Our other units the enemy could attack where they stand (in range, not concealed)."""
        key = (enemy.id, reach)
        exposed = self._exposed.get(key)
        if exposed is None:
            ex, ey = enemy.position
            exposed = [
                oid
                for oid, ox, oy in self._in_the_open()
                if ((ox - ex) ** 2 + (oy - ey) ** 2) ** 0.5 <= reach
            ]
            self._exposed[key] = exposed
        return len(exposed) - (unit.id in exposed)

    def _in_the_open(self) -> list[tuple[str, float, float]]:
        """(id, x, y) of our units an enemy could attack where they stand: neither concealed
        nor sheltered. Worked out once a decision: every enemy's exposure sum walks it."""
        found = self._open
        if found is None:
            found = [
                (o.id, o.position[0], o.position[1])
                for o in self.own
                if not (o.concealed or self.sheltered(o, o.position))
            ]
            self._open = found
        return found

    def under_guns(self, unit: UnitInfo) -> float:
        """A cheap stand-in for the threat where the unit stands, to choose who acts first:
        the Size of the visible enemies whose weapons reach it now (distance only)."""
        if unit.concealed or self.sheltered(unit, unit.position):
            return 0.0
        ux, uy = unit.position
        total = 0.0
        for e in self.enemies:
            reach = max((w.range for w in e.card.weapons), default=1.0)
            ex, ey = e.position
            if ((ex - ux) ** 2 + (ey - uy) ** 2) ** 0.5 <= reach:
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
        view = self.view
        aerial = unit.card.has(Keyword.AERIAL)
        if not aerial and self.building_at(p) is not None:
            # Only the building can be attacked from outside; those inside it see each other.
            hidden = True
        cover = view.cover_at(p) if hidden else frozenset()
        line_clear = view.line_clear
        survive = 1.0
        px, py = p
        for where, weight, reaches, move, mobile, flies, facing in self._sources(unit):
            ex, ey = where
            d = ((ex - px) ** 2 + (ey - py) ** 2) ** 0.5
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
                clear = aerial or flies or line_clear(where, p)
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
        key = ("danger", enemy.id, enemy.position, enemy.hits, enemy.skill)
        cached = self.memo.get(key)
        if cached is not None:
            self._danger[enemy.id] = cached
            return cached
        worst = 0.0
        ex, ey = enemy.position
        reach = max((w.range for w in enemy.card.weapons), default=1.0) + enemy.card.move
        for o in self.own:
            ox, oy = o.position
            if ((ox - ex) ** 2 + (oy - ey) ** 2) ** 0.5 > reach:
                continue
            if o.concealed or self.sheltered(o, o.position):
                continue
            d = ((ox - ex) ** 2 + (oy - ey) ** 2) ** 0.5
            reaches = harm_by_reach(
                enemy.card, enemy.skill, enemy.hits, o.card, o.hits, o.skill, self.ruleset
            )
            h = max((hr for r, hr in reaches if d <= r + enemy.card.move), default=0.0)
            worst = max(worst, o.card.size * h)
        self._danger[enemy.id] = worst
        self.memo[key] = worst
        return worst

    # --- attacks --------------------------------------------------------------------------------

    def attack_value(self, unit: UnitInfo, target: UnitInfo, shot: Shot) -> float:
        """Expected Size taken off ``target``, plus the danger it stops posing if removed now."""
        key = (unit.id, target.id, shot.weapon)
        cached = self.values.get(key)
        if cached is None:
            # Beyond the shot, the value depends only on the two units' Hits and Skill and on
            # the target's danger (itself kept for the turn): kept for the turn on those.
            danger = self.danger(target)
            turn_key = (
                "value",
                unit.id,
                unit.hits,
                unit.skill,
                target.id,
                target.hits,
                target.skill,
                shot.weapon,
                danger,
            )
            cached = self.memo.get(turn_key)
            if cached is None:
                cached = self._attack_value(unit, target, shot, danger)
                self.memo[turn_key] = cached
            self.values[key] = cached
        return cached

    def _attack_value(self, unit: UnitInfo, target: UnitInfo, shot: Shot, danger: float) -> float:
        dem = self.demoralise_at
        hurt = harm(shot.damage, shot.suppress, target.hits, target.skill, dem)
        value = target.card.size * hurt
        # Removing it now spares what it would do to us this turn and the next; hurting it
        # short of that weakens it a little.
        now = removal_now(shot.damage, shot.suppress, target.hits, target.skill, dem)
        spared = now + WEAKEN * max(0.0, hurt - now)
        value += spared * danger * min(self.turns_left, DANGER_TURNS)
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

    def building_worth(self, b: BuildingState) -> float:
        """What bringing the building down is worth to this side, in points (may be negative)."""
        cached = self._worth.get(b.id)
        if cached is not None:
            return cached
        worth = self._raze_points().get(b.id, 0.0)
        # Each occupant rolls Skill or takes a Hit when it collapses.
        inside = self._occupants().get(b.id, ())
        for u, weight in inside:
            worth += weight * u.card.size * (1.0 - min(u.skill, 6) / 6.0) / max(u.hits, 1)
        if worth > 0:
            worth *= self._can_finish(b)
        self._worth[b.id] = worth
        return worth

    def _raze_points(self) -> dict[str, float]:
        """Per building, the raze objectives' end points for this side (the enemy's count
        against): the objectives never change, so this is worked out once a turn."""
        found = self.memo.get(("raze",))
        if found is None:
            found = {}
            side = self.view.side
            for o in self.view.objectives:
                if o.kind is ObjectiveKind.RAZE and o.building is not None:
                    points = o.points_at_end if side in o.sides else -o.points_at_end
                    # Summed in objective order from 0.0, as the worth always was.
                    found[o.building] = found.get(o.building, 0.0) + points
            self.memo[("raze",)] = found
        return found

    def _occupants(self) -> dict[str, list[tuple[UnitInfo, float]]]:
        """Units inside each standing building, weighted: enemies +1 (lost from sight: less),
        our own −1 (they roll too when it falls)."""
        if self._inside is None:
            self._inside = {}
            weighted = [(e, 1.0) for e in self.enemies]
            weighted += [(e, LOST_SIGHT) for e in self.lost_sight]
            weighted += [(o, -1.0) for o in self.own]
            inside_at = self._inside_at
            aerial = Keyword.AERIAL
            for u, weight in weighted:
                if aerial in u.card.keywords:
                    continue
                p = u.position
                # Most places are known already this turn: look them up before asking.
                where = inside_at[p] if p in inside_at else self.building_at(p)
                if where is not None:
                    self._inside.setdefault(where, []).append((u, weight))
        return self._inside

    def _can_finish(self, b: BuildingState) -> float:
        """Chance the side brings the building down in the turns left, every unit that can
        damage it attacking it each turn: a raze half done at the end scores nothing."""
        key = ("finish", b.id, b.hits, len(self.own))
        if key in self.memo:
            return self.memo[key]
        chances = []
        for o in self.own:
            best = max(
                (s.damage for s in shots(o.card, o.skill, b.card, self.ruleset)), default=0.0
            )
            if best > 0:
                chances.extend([best] * self.turns_left)
        self.memo[key] = at_least(b.hits, chances) if chances else 0.0
        return self.memo[key]

    def building_value(self, b: BuildingState, shot: Shot) -> float:
        """Expected worth of one attack on a building: its share of bringing the building down."""
        worth = self.building_worth(b)
        if worth <= 0:
            return 0.0
        value = shot.damage * worth / max(b.hits, 1) * (2.0 if b.hits <= 1 else 1.0)
        return value * (LIMITED_USE if shot.limited else 1.0)

    def _target_list(self, unit: UnitInfo) -> list[tuple[float, Point, float, bool, str | None]]:
        """(value, where, range, aerial, building it shelters in) of every attack on a visible
        enemy, best first."""
        found = self._targets.get(unit.id)
        if found is not None:
            return found
        out = []
        for e in self.enemies:
            inside = None if e.card.has(Keyword.AERIAL) else self.building_at(e.position)
            flies = e.card.has(Keyword.AERIAL)
            for s in shots(unit.card, unit.skill, e.card, self.ruleset):
                if s.damage + s.suppress > 0:
                    v = self.attack_value(unit, e, s)
                    if v > 0:
                        out.append((v, e.position, s.range, flies, inside))
        out.sort(key=lambda t: -t[0])
        self._targets[unit.id] = out
        return out

    def opportunity(self, unit: UnitInfo, p: Point, facing: float | None = None) -> float:
        """The best attack the unit could make from ``p`` next time, against what it sees now.

        ``facing`` limits a Fixed Mount to its front arc (turning would cost the activation).
        An enemy inside a building can be attacked only from inside the same building.
        """
        view = self.view
        aerial = unit.card.has(Keyword.AERIAL)
        arc = facing is not None and unit.card.has(Keyword.FIXED_MOUNT)
        here = None if aerial else self.building_at(p)
        px, py = p
        for v, (ex, ey), reach, flies, inside in self._target_list(unit):
            if inside is not None and inside != here:
                continue
            if ((ex - px) ** 2 + (ey - py) ** 2) ** 0.5 > reach:
                continue
            if arc and not geometry.in_arc(p, facing, (ex, ey)):  # type: ignore[arg-type]
                continue
            if aerial or flies or view.line_clear(p, (ex, ey)):
                return v
        return 0.0
