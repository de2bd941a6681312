"""DefaultCommander: the decisions the rule text says players correctly make, cheaply.

Each decision first picks *which* unit activates, then *what* it does.

Which unit (activation order):
1. a unit with a telling attack now (expected value at least ``SHOOT_FIRST`` points) — the best
   such, before the target can move off or shoot first;
2. otherwise the unit with the most at stake — the enemy guns that reach it where it stands
   plus how hard its order presses (an Advance running out of turns);
3. units that would only stand and pass (Hold, nothing to shoot) go last: an enemy may walk
   into their sights later in the turn.

What it does: every candidate is scored in points (Size, the victory currency) as
``order progress + next shot − threat``, plus the attack it makes now, and the best is taken.
Candidates: pass; attack now (the target it can actually hurt most, see ``Picture``); Sensor
reveal; a Fixed Mount turn to face (turning is movement and costs the activation); and the
moves of ``moves.candidate_paths``. Move and Fire and Split Movement units also weigh moving
then firing, firing then moving, and (Split) moving, firing and moving away again.

Deterministic: no randomness, fixed iteration orders, ties to the earlier candidate. One
instance plays one side of one battle: it remembers where it last saw each enemy, and keeps
for the rest of a turn the sums that nothing since has changed (a unit's best attack while it
and the enemies in its reach stand as they did; an enemy's danger while it stands as it did).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from .. import geometry
from ..actions import Activate, AttackStep, MoveStep, RevealStep
from ..cards import Keyword
from ..scenario import ObjectiveKind, OrderKind
from .goals import Goal, goal_for, order_kind, turns_needed
from .moves import candidate_paths, crossing_cost, retreat_point
from .odds import shots, weapon_reach
from .picture import Picture

if TYPE_CHECKING:
    from ..commander import BattleView, UnitInfo
    from ..geometry import Point

SHOOT_FIRST = 0.3
"""An attack worth this many points makes its unit activate before any mover."""

NEXT_SHOT = 0.5
"""Weight of the best attack a position offers next time (Attack orders: ``ATTACKER_SHOT``)."""

ATTACKER_SHOT = 0.8
"""Weight of the next shot for units on an Attack order."""

ARRIVED = 0.5
"""Bonus, in turns of press, for standing inside a hold objective the unit is sent to."""

PRESENCE = 0.5
"""Share of an objective's remaining points credited to the unit standing on it."""

DENY = 0.5
"""Ground only the enemy scores is worth this share of its points to stand on (denial)."""

REVEAL = 0.5
"""Worth of a Sensor reveal when another ready unit can shoot what it finds."""

FEAR = 1.0
"""Weight of the threat a position is under, against what the unit gains there."""

REVEALED = 0.5
"""Share of the extra threat a unit in cover takes on by firing (it is revealed for a while)."""

_Plan = tuple[float, Activate]


class DefaultCommander:
    """The strong default policy (see the module docstring)."""

    def __init__(self) -> None:
        self._seen: dict[str, tuple[UnitInfo, int]] = {}
        self._turn = 0
        self._memo: dict[tuple, Any] = {}

    def choose(self, view: BattleView) -> Activate:
        if view.turn < self._turn:
            self._seen.clear()  # A new battle: forget the last one.
        if view.turn != self._turn:
            self._memo.clear()
        self._turn = view.turn
        pic = Picture(view, self._seen, self._memo)
        for e in pic.enemies:
            self._seen[e.id] = (e, view.turn)
        ready = view.ready_units()
        unit, attack = self._next_unit(pic, ready)
        return self._plan(pic, unit, attack)

    # --- which unit -----------------------------------------------------------------------------

    def _next_unit(
        self, pic: Picture, ready: list[UnitInfo]
    ) -> tuple[UnitInfo, tuple[float, str, str] | None]:
        best: tuple[tuple[int, float], UnitInfo, tuple[float, str, str] | None] | None = None
        for u in ready:
            attack = best_attack(pic, u)
            if attack is not None and attack[0] >= SHOOT_FIRST:
                key = (2, attack[0])
            elif order_kind(u, pic) is OrderKind.HOLD and attack is None:
                key = (0, 0.0)
            else:
                goal = goal_for(u, pic)
                press = 0.0
                if goal is not None and geometry.distance(u.position, goal.point) > goal.radius:
                    press = goal.press
                key = (1, pic.under_guns(u) + press)
            if best is None or key > best[0]:
                best = (key, u, attack)
        assert best is not None
        return best[1], best[2]

    # --- what it does ---------------------------------------------------------------------------

    def _plan(self, pic: Picture, u: UnitInfo, attack: tuple[float, str, str] | None) -> Activate:
        view = pic.view
        goal = goal_for(u, pic)
        if (
            goal is None
            and attack is None
            and not (u.card.has(Keyword.SENSOR) or u.card.has(Keyword.FIXED_MOUNT))
        ):
            return Activate(u.id)  # Holding, nothing to shoot: nothing to weigh.
        here = u.position
        fixed = u.card.has(Keyword.FIXED_MOUNT)
        facing = u.facing if fixed else None
        in_cover = pic.hidden_at(u, here)
        plans: list[_Plan] = [(self._place(pic, u, here, goal, in_cover, facing), Activate(u.id))]
        if attack is not None:
            value, target, weapon = attack
            plans.append(
                (
                    value + self._place(pic, u, here, goal, False, facing, fired=True),
                    Activate(u.id, (AttackStep(target, weapon),)),
                )
            )
        if u.card.has(Keyword.SENSOR):
            found = view.sensor_targets(u.id)
            if found:
                others = any(o.id != u.id and not o.activated for o in pic.own)
                worth = REVEAL if others else REVEAL / 2
                plans.append(
                    (
                        worth + self._place(pic, u, here, goal, in_cover, facing),
                        Activate(u.id, (RevealStep(found[0]),)),
                    )
                )
        if fixed and attack is None:
            turn = self._turn_to_face(pic, u)
            if turn is not None:
                plans.append(
                    (
                        self._place(pic, u, here, goal, in_cover, turn),
                        Activate(u.id, (MoveStep((), turn),)),
                    )
                )
        if goal is not None:
            plans.extend(self._moves(pic, u, goal, attack))
        best = plans[0]
        for plan in plans[1:]:
            if plan[0] > best[0] + 1e-9:
                best = plan
        return best[1]

    def _place(
        self,
        pic: Picture,
        u: UnitInfo,
        p: Point,
        goal: Goal | None,
        hidden: bool,
        facing: float | None,
        fired: bool = False,
    ) -> float:
        """Order progress + next shot − threat, for the unit ending its activation at ``p``.

        ``hidden``: it will be concealed there; ``fired``: it attacks this activation.
        """
        value = 0.0
        if goal is not None:
            d = geometry.distance(p, goal.point)
            value -= goal.press * turns_needed(d, goal.radius, u.card.move)
            obj = goal.objective
            if (
                obj is not None
                and obj.kind is ObjectiveKind.HOLD
                and obj.point is not None
                and geometry.distance(p, obj.point) <= obj.radius
            ):
                value += ARRIVED * goal.press
        kind = order_kind(u, pic)
        value += presence(pic, u, p)
        weight = ATTACKER_SHOT if kind is OrderKind.ATTACK else NEXT_SHOT
        value += weight * pic.opportunity(u, p, facing)
        if fired and pic.hidden_at(u, p):
            # Firing from cover reveals the unit only until the end of its next activation,
            # and an enemy firing at it is not firing at a friend: it costs a share of the gap.
            exposed = pic.threat(u, p, hidden=False)
            covered = pic.threat(u, p, hidden=True)
            value -= FEAR * (covered + REVEALED * (exposed - covered))
        else:
            value -= FEAR * pic.threat(u, p, hidden=hidden)
        return value

    def _turn_to_face(self, pic: Picture, u: UnitInfo) -> float | None:
        """The facing that brings the most valuable target in range into the front arc."""
        best: tuple[float, float] | None = None
        for e in pic.enemies:
            d = geometry.distance(u.position, e.position)
            for s in shots(u.card, u.skill, e.card, pic.ruleset):
                if d > s.range or s.damage + s.suppress <= 0:
                    continue
                v = pic.attack_value(u, e, s)
                if best is not None and v <= best[0]:
                    continue
                bearing = round(geometry.bearing(u.position, e.position), 3) % 360.0
                if geometry.in_arc(u.position, u.facing, e.position):
                    continue  # Already faces it; nothing to gain by turning.
                if pic.view.attack_problem(u.id, e.id, s.weapon, None, bearing) is None:
                    best = (v, bearing)
        return None if best is None else best[1]

    def _facing_at(self, pic: Picture, u: UnitInfo, p: Point, goal: Goal) -> float:
        """Where a Fixed Mount should face after moving to ``p``: its best target, else ahead."""
        best: tuple[float, Point] | None = None
        for e in pic.enemies:
            found = pic.best_shot(u, e)
            if found is None or found[0] <= 0:
                continue
            d = geometry.distance(p, e.position)
            score = found[0] * e.card.size / (1.0 + d)
            if best is None or score > best[0]:
                best = (score, e.position)
        toward = best[1] if best is not None else goal.point
        if geometry.distance(p, toward) < 1e-6:
            return u.facing
        return round(geometry.bearing(p, toward), 3) % 360.0

    def _moves(
        self, pic: Picture, u: UnitInfo, goal: Goal, attack: tuple[float, str, str] | None
    ) -> list[_Plan]:
        fixed = u.card.has(Keyword.FIXED_MOUNT)
        mobile = u.card.has(Keyword.MOVE_AND_FIRE) or u.card.has(Keyword.SPLIT_MOVEMENT)
        plans: list[_Plan] = []
        for path in candidate_paths(pic, u, goal):
            end = path[-1]
            facing = self._facing_at(pic, u, end, goal) if fixed else None
            cost = crossing_cost(pic, u, path)
            step = MoveStep(tuple(path[1:]), facing)
            hidden = pic.hidden_at(u, end)
            plans.append(
                (self._place(pic, u, end, goal, hidden, facing) - cost, Activate(u.id, (step,)))
            )
            if not mobile:
                continue
            after = best_attack(pic, u, end, facing)
            if after is not None:
                value = after[0] + self._place(pic, u, end, goal, False, facing, True) - cost
                steps: tuple = (step, AttackStep(after[1], after[2]))
                if u.card.has(Keyword.SPLIT_MOVEMENT):
                    away = self._move_away(pic, u, path, goal)
                    if away is not None:
                        back, back_end = away
                        value = (
                            after[0] + self._place(pic, u, back_end, goal, False, None, True) - cost
                        )
                        steps = (*steps, back)
                plans.append((value, Activate(u.id, steps)))
            if attack is not None:
                # Fire from here first, then move: the move is the whole Move still.
                value = attack[0] + self._place(pic, u, end, goal, False, facing, True) - cost
                plans.append((value, Activate(u.id, (AttackStep(attack[1], attack[2]), step))))
        return plans

    def _move_away(
        self, pic: Picture, u: UnitInfo, path: list[Point], goal: Goal
    ) -> tuple[MoveStep, Point] | None:
        """Split Movement: after firing, spend what is left moving away from the threat."""
        view = pic.view
        spent = view.path_cost(u.id, path)
        if spent is None:
            return None
        left = u.card.move - spent
        if left < 0.5:
            return None
        end = path[-1]
        away = retreat_point(pic, end, left, view.table)
        if away is None:
            return None
        back = view.plan_path(u.id, away, left, start=end)
        if back is None or len(back) < 2 or back[-1] == end:
            return None
        # The whole activation must fit in Move: check the joined path.
        if view.path_cost(u.id, [*path, *back[1:]]) is None:
            return None
        return MoveStep(tuple(back[1:]), None), back[-1]


def presence(pic: Picture, u: UnitInfo, p: Point) -> float:
    """What standing at ``p`` adds to holding ground: objectives held by being there.

    An objective is held by a side with a unit inside and no enemy inside, so the first unit
    there counts most; ground the enemy scores is worth denying as much as ground we score.
    """
    value = 0.0
    for point, radius, share in _ground(pic, u):
        if geometry.distance(p, point) <= radius:
            value += share
    return value


def _ground(pic: Picture, u: UnitInfo) -> list[tuple[Point, float, float]]:
    """(point, radius, this unit's share of its worth) for each objective on the ground, in
    objective order. None of it depends on where the unit would stand, and ``presence`` asks
    for every place weighed: worked out once a decision per unit."""
    found = pic.ground.get(u.id)
    if found is not None and found[0] is u:
        return found[1]
    out = []
    side = pic.view.side
    for o in pic.view.objectives:
        if o.point is None:
            continue
        # This turn's points, the next one's, and the end points spread over the turns left:
        # standing there early earns the end points only by staying to the end.
        turns = pic.turns_left
        worth = (o.points_per_turn * min(turns, 2) + o.points_at_end / turns) * PRESENCE
        if side not in o.sides:
            worth *= DENY
        others = sum(
            1
            for f in pic.own
            if f.id != u.id and geometry.distance(f.position, o.point) <= o.radius
        )
        out.append((o.point, o.radius, worth / (1 + others)))
    pic.ground[u.id] = (u, out)
    return out


def best_attack(
    pic: Picture, u: UnitInfo, origin: Point | None = None, facing: float | None = None
) -> tuple[float, str, str] | None:
    """The most valuable legal attack (value, target, weapon) from ``origin``, or None.

    Kept for the rest of the turn while nothing it depends on changes — the unit, the enemies
    within its reach, the buildings — since most units' choices stand while others act.
    """
    pos = origin or u.position
    limit = weapon_reach(u.card) + 1e-9
    dist = math.dist  # what ``geometry.distance`` measures, without the extra call
    near = []
    states = []
    for e, state in pic.enemy_states():
        if dist(pos, e.position) <= limit:
            near.append(e)
            states.append(state)
    key = (
        "attack",
        u.id,
        u.position,
        u.facing,
        u.skill,
        u.hits,
        origin,
        facing,
        tuple(states),
        pic.building_state(),
    )
    if key in pic.memo:
        return pic.memo[key]  # type: ignore[return-value]
    found = _attack_now(pic, u, near, pos, origin, facing)
    pic.memo[key] = found  # type: ignore[assignment]
    return found


def _attack_now(
    pic: Picture,
    u: UnitInfo,
    near: list[UnitInfo],
    pos: Point,
    origin: Point | None,
    facing: float | None,
) -> tuple[float, str, str] | None:
    ruleset = pic.ruleset
    found: list[tuple[float, str, str]] = []
    card, skill, uid = u.card, u.skill, u.id
    values = pic.values  # the picture's own cache, read here first: this loop is the hot one
    dist = math.dist
    for e in near:
        d = dist(pos, e.position)
        for s in shots(card, skill, e.card, ruleset):
            if d <= s.range + 1e-9:
                v = values.get((uid, e.id, s.weapon))
                if v is None:
                    v = pic.attack_value(u, e, s)
                if v > 0:
                    found.append((v, e.id, s.weapon))
    for b in pic.buildings:
        if pic.building_worth(b) <= 0:
            continue
        d = pic.distance_to_building(b, pos)
        for s in shots(u.card, u.skill, b.card, ruleset):
            if d <= s.range + 1e-9:
                v = pic.building_value(b, s)
                if v > 0:
                    found.append((v, b.id, s.weapon))
    found.sort(key=lambda f: -f[0])
    view = pic.view
    for v, target, weapon in found:
        if view.attack_problem(u.id, target, weapon, origin, facing) is None:
            return (v, target, weapon)
    return None
