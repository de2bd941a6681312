"""DefaultCommander: the decisions the rule text says players correctly make, cheaply.

Each decision first picks *which* unit activates, then *what* it does.

Which unit (activation order):
1. a unit with a telling attack now (expected value at least ``SHOOT_FIRST`` points) — the best
   such, before the target can move off or shoot first. Each unit's best attack comes from its
   ``attacks.Reach``, kept across the turn's decisions; units are tried by the bound on their
   attack, best first, so only those that could still win are checked against the rules;
2. otherwise the unit with the most at stake — the enemy guns that reach it where it stands
   plus how hard its order presses (an Advance running out of turns; kept for the turn while
   the unit stands, as the goal behind it moves little);
3. units that would only stand and pass (Hold, nothing to shoot) go late: an enemy may walk
   into their sights later in the turn;
4. a hidden unit on Hold that an enemy yet to activate could likely remove with one attack goes
   last, whatever it could shoot: firing shows it, and that enemy could still answer this turn.

What it does: every candidate is scored in points (Size, the victory currency) as
``order progress + next shot − threat``, plus the attack it makes now, and the best is taken.
Candidates: pass; attack now (the target it can actually hurt most, see ``values.py``); Sensor
reveal; a Fixed Mount turn to face (turning is movement and costs the activation); and the
moves of ``moves.candidate_paths``. Move and Fire and Split Movement units also weigh firing
then moving, and moving then firing: the ends are tried by the most their best shot could be
worth, and the rules asked only while that could still win; a Split Movement unit then moves
away again from the end it fires from. A unit that stays put with nothing to hide (in the open,
or in a building) just fires: the place weighs the same either way.

Deterministic: no randomness, fixed iteration orders, ties to the earlier candidate. One
instance plays one side of one battle: it remembers where it last saw each enemy, keeps for the
rest of a turn the sums that nothing since has changed (a unit's attacks on each target while
both stand as they did; an enemy's danger while it stands as it did), and for the battle what
depends only on the table (lines of sight between grid squares, the building holding a point);
lines over the opening table, before any building falls, are the scenario's, shared by its
battles.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .. import geometry
from ..actions import Activate, AttackStep, MoveStep, RevealStep
from ..cards import Keyword
from ..scenario import ObjectiveKind, OrderKind
from .attacks import Attack, Reach, best_offer, bounded_attack, pairs_from, reach_here
from .goals import Goal, goal_for, order_kind, presence, press_of, turns_needed
from .moves import candidate_paths, crossing_cost, retreat_point
from .picture import BattleMemo, Picture, TurnMemo

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

REVEAL = 0.5
"""Worth of a Sensor reveal when another ready unit can shoot what it finds."""

FEAR = 1.0
"""Weight of the threat a position is under, against what the unit gains there."""

REVEALED = 0.5
"""Share of the extra threat a unit in cover takes on by firing (it is revealed for a while)."""

DEADLY = 0.5
"""Harm (``odds.harm``) of an enemy's best attack that makes a hidden unit on Hold wait for that
enemy to activate before it shows itself."""

_Plan = tuple[float, Activate]

_Shooting = tuple[float, float, list, list["Point"], MoveStep, "float | None", float]
"""A move a Move and Fire unit might fire after: (most it could be worth, the place's worth
having fired, its pairs with the targets in reach, path, step, facing, crossing cost)."""


def _by_bound(s: _Shooting) -> float:
    return -s[0]


def _waits(pic: Picture, u: UnitInfo) -> bool:
    """Whether a hidden unit on Hold should keep out of sight for now: an enemy that has not
    activated this turn, within its reach and a move, could likely remove it with one attack.
    Firing would show the unit while that enemy can still answer; once it has acted, the unit
    fires at no such risk. (In a building it shows nothing by firing.)"""
    if not u.concealed or order_kind(u, pic) is not OrderKind.HOLD or pic.sheltered(u, u.position):
        return False
    ux, uy = u.position
    for e in pic.enemies:
        if e.activated:
            continue
        ex, ey = e.position
        if math.hypot(ex - ux, ey - uy) > pic.tables.weapon_reach(e.id) + e.card.move:
            continue
        found = pic.best_shot(e, u)
        if found is not None and found[0] >= DEADLY:
            return True
    return False


class DefaultCommander:
    """The strong default policy (see the module docstring)."""

    def __init__(self) -> None:
        self._seen: dict[str, tuple[UnitInfo, int]] = {}
        self._turn = 0
        self._memo = TurnMemo()
        self._kept = BattleMemo()

    def choose(self, view: BattleView) -> Activate:
        if view.turn < self._turn:
            self._seen.clear()  # A new battle: forget the last one.
            self._kept = BattleMemo()
        if view.turn != self._turn:
            self._memo = TurnMemo()
        self._turn = view.turn
        pic = Picture(view, self._seen, self._memo, self._kept)
        for e in pic.enemies:
            self._seen[e.id] = (e, view.turn)
        ready = view.ready_units()
        unit, attack = self._next_unit(pic, ready)
        return self._plan(pic, unit, attack)

    # --- which unit -----------------------------------------------------------------------------

    def _next_unit(self, pic: Picture, ready: list[UnitInfo]) -> tuple[UnitInfo, Attack | None]:
        """The unit to activate and its best attack now (see the module docstring)."""
        if len(ready) == 1:
            # The last unit of the turn acts whatever its rank: only its attack is asked.
            return ready[0], bounded_attack(pic, ready[0], reach_here(pic, ready[0]).pairs(pic))
        reaches = [reach_here(pic, u) for u in ready]
        waiting = [_waits(pic, u) for u in ready]
        bounds = [0.0 if w else r.bound for r, w in zip(reaches, waiting, strict=True)]
        found = self._telling_attack(pic, ready, reaches, bounds)
        if found is not None:
            return found
        best: tuple[tuple[int, float], int] | None = None
        for i, u in enumerate(ready):
            if waiting[i]:
                key = (-1, 0.0)
            elif order_kind(u, pic) is OrderKind.HOLD and (
                bounds[i] <= 0 or bounded_attack(pic, u, reaches[i].pairs(pic)) is None
            ):
                key = (0, 0.0)
            else:
                key = (1, pic.threats.under_guns(u) + press_of(pic, u))
            if best is None or key > best[0]:
                best = (key, i)
        assert best is not None
        i = best[1]
        return ready[i], bounded_attack(pic, ready[i], reaches[i].pairs(pic))

    def _telling_attack(
        self, pic: Picture, ready: list[UnitInfo], reaches: list[Reach], bounds: list[float]
    ) -> tuple[UnitInfo, Attack] | None:
        """The unit with the most valuable legal attack worth ``SHOOT_FIRST``, the earlier on a
        tie, or None. Units are tried by their bound, best first, and the legality checks stop
        once no bound left can beat the attack found."""
        order = sorted(
            (i for i, b in enumerate(bounds) if b >= SHOOT_FIRST), key=lambda i: -bounds[i]
        )
        best: tuple[Attack, int] | None = None
        for i in order:
            if best is not None and (
                bounds[i] < best[0][0] or (bounds[i] == best[0][0] and i > best[1])
            ):
                break  # Sorted by bound, then place: no unit after this one can win.
            attack = bounded_attack(pic, ready[i], reaches[i].pairs(pic))
            if attack is None or attack[0] < SHOOT_FIRST:
                continue
            if best is None or attack[0] > best[0][0] or (attack[0] == best[0][0] and i < best[1]):
                best = (attack, i)
        return None if best is None else (ready[best[1]], best[0])

    # --- what it does ---------------------------------------------------------------------------

    def _plan(self, pic: Picture, u: UnitInfo, attack: tuple[float, str, str] | None) -> Activate:
        """The unit's best activation, every candidate scored in points."""
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
        if (
            goal is None
            and attack is not None
            and attack[0] > 1e-9
            and not (fixed or u.card.has(Keyword.SENSOR))
            and (not in_cover or pic.sheltered(u, here))
        ):
            # Staying put, and firing gives nothing away: in the open it is seen already, and
            # in a building only the building can be attacked. The place weighs the same
            # either way, so the attack decides alone.
            return Activate(u.id, (AttackStep(attack[1], attack[2]),))
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
            floor = max(p[0] for p in plans)
            plans.extend(self._moves(pic, u, goal, attack, floor))
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
        value = self._gain(pic, u, p, goal, facing)
        if fired and pic.hidden_at(u, p):
            # Firing from cover reveals the unit only until the end of its next activation,
            # and an enemy firing at it is not firing at a friend: it costs a share of the gap.
            exposed = pic.threats.threat(u, p, hidden=False)
            covered = pic.threats.threat(u, p, hidden=True)
            value -= FEAR * (covered + REVEALED * (exposed - covered))
        else:
            value -= FEAR * pic.threats.threat(u, p, hidden=hidden)
        return value

    def _gain(
        self, pic: Picture, u: UnitInfo, p: Point, goal: Goal | None, facing: float | None
    ) -> float:
        """Order progress, ground held and next shot at ``p``: the same whether the unit fires
        this activation or not, so worked out once a place (the plans weigh each end up to
        three ways)."""
        key = (u.id, p, facing)
        found = pic.gains.get(key)
        if found is not None:
            return found
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
        value += weight * pic.values.opportunity(u, p, facing)
        pic.gains[key] = value
        return value

    def _turn_to_face(self, pic: Picture, u: UnitInfo) -> float | None:
        """The facing that brings the most valuable target in range into the front arc."""
        best: tuple[float, float] | None = None
        for e in pic.enemies:
            d = geometry.distance(u.position, e.position)
            for s in pic.tables.shots(u.id, u.skill, e.id):
                if d > s.range or s.damage + s.suppress <= 0:
                    continue
                v = pic.values.attack_value(u, e, s)
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
        self,
        pic: Picture,
        u: UnitInfo,
        goal: Goal,
        attack: tuple[float, str, str] | None,
        floor: float,
    ) -> list[_Plan]:
        """The plans that move: along each candidate path; a Move and Fire or Split Movement
        unit also weighs firing then moving, and moving then firing (``_fire_after_moving``).
        ``floor``: the best plan weighed so far."""
        fixed = u.card.has(Keyword.FIXED_MOUNT)
        mobile = u.card.has(Keyword.MOVE_AND_FIRE) or u.card.has(Keyword.SPLIT_MOVEMENT)
        plans: list[_Plan] = []
        shooting: list[_Shooting] = []
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
                continue  # Each unit moves or fires, not both.
            pairs = pairs_from(pic, u, end)
            bound = best_offer(pairs)
            if bound > 0:
                place = self._place(pic, u, end, goal, False, facing, True) - cost
                shooting.append((bound + place, place, pairs, path, step, facing, cost))
            if attack is not None:
                # Fire from here first, then move: the move is the whole Move still.
                value = attack[0] + self._place(pic, u, end, goal, False, facing, True) - cost
                plans.append((value, Activate(u.id, (AttackStep(attack[1], attack[2]), step))))
        if shooting:
            best = max([floor] + [p[0] for p in plans])
            found = self._fire_after_moving(pic, u, goal, shooting, best)
            if found is not None:
                plans.append(found)
        return plans

    def _fire_after_moving(
        self, pic: Picture, u: UnitInfo, goal: Goal, shooting: list[_Shooting], best: float
    ) -> _Plan | None:
        """The best move-then-fire plan that beats ``best``, or None.

        Ends are tried by the most they could be worth (their most valuable shot, legal or not),
        and the rules are asked only while that could still beat the best plan found. A Split
        Movement unit then spends what is left of its Move getting away, from that end only.
        """
        found: tuple[float, list[Point], MoveStep, Attack, float] | None = None
        for bound, place, pairs, path, step, facing, cost in sorted(shooting, key=_by_bound):
            if bound <= best + 1e-9:
                break  # Sorted by bound: no end after this one can beat the best.
            after = bounded_attack(pic, u, pairs, path[-1], facing)
            if after is not None and after[0] + place > best + 1e-9:
                best = after[0] + place
                found = (best, path, step, after, cost)
        if found is None:
            return None
        value, path, step, after, cost = found
        steps: tuple = (step, AttackStep(after[1], after[2]))
        if u.card.has(Keyword.SPLIT_MOVEMENT):
            away = self._move_away(pic, u, path, goal)
            if away is not None:
                back, back_end = away
                value = after[0] + self._place(pic, u, back_end, goal, False, None, True) - cost
                steps = (*steps, back)
        return value, Activate(u.id, steps)

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
