"""DefaultCommander: the decisions the rule text says players correctly make, cheaply.

Each decision first picks *which* unit activates, then *what* it does.

Which unit (activation order):
1. a unit with a telling attack now (expected value at least ``SHOOT_FIRST`` points) — the best
   such, give or take ``CLOSE_ENOUGH``, before the target can move off or shoot first. Each
   unit's best attack comes from its ``attacks.Reach``, kept across the turn's decisions; units
   are tried by the bound on their attack, best first, and only those whose bound beats the
   attack found by more than ``CLOSE_ENOUGH`` are checked against the rules;
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
instance plays one side of one battle on its ``Board`` (``board.py``): it remembers where it
last saw each enemy, keeps on each unit the sums that nothing since has changed (a unit's
attacks on each target while both stand as they did; an enemy's danger while it stands as it
did), and for the battle what depends only on the table (lines of sight between grid squares,
the building holding a point); lines over the opening table, before any building falls, are
the scenario's, shared by its battles.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, NamedTuple

from .. import geometry
from ..actions import Activate, AttackStep, MoveStep, RevealStep
from ..scenario import ObjectiveKind, OrderKind
from .attacks import Attack, Reach, best_offer, bounded_attack, pairs_from, reach_here
from .board import Board
from .goals import Goal, goal_for, order_kind, presence, press_of, turns_needed
from .moves import candidate_paths, crossing_cost, retreat_point
from .odds import best_shot
from .threat import danger, threat, under_guns
from .values import attack_value, best_opportunity, opportunity

if TYPE_CHECKING:
    from ..actions import Step
    from ..commander import BattleView
    from ..geometry import Point
    from .attacks import Pair
    from .board import Piece

SHOOT_FIRST = 0.3
"""An attack worth this many points makes its unit activate before any mover."""

CLOSE_ENOUGH = 0.25
"""An attack found is taken over the units whose bound beats it by less than this share: a bound
takes every shot as legal, and checking each such unit against the rules costs more than the
little it could add."""

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


class Plan(NamedTuple):
    """An activation weighed, and what it is worth in points."""

    value: float
    steps: tuple[Step, ...]
    """Its steps (none: the unit passes); only the plan taken becomes an ``Activate``."""


class _Shooting(NamedTuple):
    """A move a Move and Fire unit might fire after."""

    bound: float
    """The most it could be worth: the place's worth plus its most valuable shot."""
    place: float
    """The place's worth, having fired, less the crossing cost."""
    pairs: list[Pair]
    """The unit's pairs with the targets in reach of the end."""
    path: list[Point]
    step: MoveStep
    facing: float | None
    cost: float
    """What crossing the path may cost (``moves.crossing_cost``)."""


GainKey = tuple[str, "Point", "float | None"]
"""What a place offers a unit, asked within a decision (``DefaultCommander._gain``): the unit,
the place and the facing it would stand at."""


def _by_bound(s: _Shooting) -> float:
    return -s.bound


def _taken(plans: list[Plan]) -> Plan:
    """The plan taken: the best, the earlier on a tie (within a hair)."""
    best = plans[0]
    for plan in plans[1:]:
        if plan.value > best.value + 1e-9:
            best = plan
    return best


def _waits(board: Board, u: Piece) -> bool:
    """Whether a hidden unit on Hold should keep out of sight for now: an enemy that has not
    activated this turn, within its reach and a move, could likely remove it with one attack.
    Firing would show the unit while that enemy can still answer; once it has acted, the unit
    fires at no such risk. (In a building it shows nothing by firing.)"""
    if not u.info.concealed or order_kind(u, board) is not OrderKind.HOLD or u.sheltered:
        return False
    ux, uy = u.position
    for e in board.foes:
        if e.info.activated:
            continue
        ex, ey = e.position
        if math.hypot(ex - ux, ey - uy) > e.reach + e.move:
            continue
        found = best_shot(board.tables, e, u)
        if found is not None and found[0] >= DEADLY:
            return True
    return False


class DefaultCommander:
    """The strong default policy (see the module docstring)."""

    def __init__(self) -> None:
        self._board: Board | None = None

    def choose(self, view: BattleView) -> Activate:
        board = self._board
        if board is None or view.turn < board.turn:
            board = self._board = Board(view)  # A new battle: forget the last one.
        board.sync(view)
        ready = [u for u in board.own if not u.info.activated]
        unit, attack = self._next_unit(board, ready)
        return self._plan(board, unit, attack)

    # --- which unit -----------------------------------------------------------------------------

    def _next_unit(self, board: Board, ready: list[Piece]) -> tuple[Piece, Attack | None]:
        """The unit to activate and its best attack now (see the module docstring)."""
        if len(ready) == 1:
            # The last unit of the turn acts whatever its rank: only its attack is asked.
            return ready[0], reach_here(board, ready[0]).best(board, ready[0])
        reaches = [reach_here(board, u) for u in ready]
        waiting = [_waits(board, u) for u in ready]
        bounds = [0.0 if w else r.bound for r, w in zip(reaches, waiting, strict=True)]
        found = self._telling_attack(board, ready, reaches, bounds)
        if found is not None:
            return found
        best: tuple[tuple[int, float], int] | None = None
        for i, u in enumerate(ready):
            if waiting[i]:
                key = (-1, 0.0)
            elif order_kind(u, board) is OrderKind.HOLD and (
                bounds[i] <= 0 or reaches[i].best(board, u) is None
            ):
                key = (0, 0.0)
            else:
                key = (1, under_guns(board, u) + press_of(board, u))
            if best is None or key > best[0]:
                best = (key, i)
        assert best is not None
        i = best[1]
        return ready[i], reaches[i].best(board, ready[i])

    def _telling_attack(
        self, board: Board, ready: list[Piece], reaches: list[Reach], bounds: list[float]
    ) -> tuple[Piece, Attack] | None:
        """A unit with a legal attack worth ``SHOOT_FIRST``, or None: the most valuable of those
        checked (the earlier on a tie), within ``CLOSE_ENOUGH`` of the best any could make.
        Units are tried by their bound, best first, and the legality checks stop once no bound
        left beats the attack found by more than ``CLOSE_ENOUGH``."""
        # (minus the bound, place): sorted as plain tuples, by bound and then place.
        order = sorted([(-b, i) for i, b in enumerate(bounds) if b >= SHOOT_FIRST])
        best: tuple[Attack, int] | None = None
        for less, i in order:
            if best is not None and -less < best[0].value * (1.0 + CLOSE_ENOUGH):
                break  # Sorted by bound: no unit after this one could add enough.
            attack = reaches[i].best(board, ready[i])
            if attack is None or attack.value < SHOOT_FIRST:
                continue
            if (
                best is None
                or attack.value > best[0].value
                or (attack.value == best[0].value and i < best[1])
            ):
                best = (attack, i)
        return None if best is None else (ready[best[1]], best[0])

    # --- what it does ---------------------------------------------------------------------------

    def _plan(self, board: Board, u: Piece, attack: Attack | None) -> Activate:
        """The unit's best activation, every candidate scored in points."""
        view = board.view
        goal = goal_for(u, board)
        if goal is None and attack is None and not (u.sensor or u.fixed):
            return Activate(u.id)  # Holding, nothing to shoot: nothing to weigh.
        here = u.position
        fixed = u.fixed
        facing = u.info.facing if fixed else None
        in_cover = not u.aerial and bool(u.cover)
        if (
            goal is None
            and attack is not None
            and attack.value > 1e-9
            and not (fixed or u.sensor)
            and (not in_cover or u.sheltered)
        ):
            # Staying put, and firing gives nothing away: in the open it is seen already, and
            # in a building only the building can be attacked. The place weighs the same either
            # way, so the attack decides alone.
            return Activate(u.id, (AttackStep(attack.target, attack.weapon),))
        plans = [Plan(self._place(board, u, here, goal, in_cover, facing), ())]
        if attack is not None:
            plans.append(
                Plan(
                    attack.value + self._place(board, u, here, goal, False, facing, fired=True),
                    (AttackStep(attack.target, attack.weapon),),
                )
            )
        if u.sensor:
            found = view.sensor_targets(u.id)
            if found:
                others = any(o.id != u.id and not o.info.activated for o in board.own)
                worth = REVEAL if others else REVEAL / 2
                plans.append(
                    Plan(
                        worth + self._place(board, u, here, goal, in_cover, facing),
                        (RevealStep(found[0]),),
                    )
                )
        if fixed and attack is None:
            turn = self._turn_to_face(board, u)
            if turn is not None:
                plans.append(
                    Plan(
                        self._place(board, u, here, goal, in_cover, turn),
                        (MoveStep((), turn),),
                    )
                )
        if goal is not None:
            floor = max(p.value for p in plans)
            chosen = _taken(plans).value
            # A move ends within Move of where the unit stands (twice that for an Amphibious
            # unit, moving doubled through water): if nowhere there could beat the plan taken
            # so far, no path need be found. A hair over, for the rounding of each distance.
            reach = u.stride + 1e-9
            if u.mobile or self._most_gained(board, u, here, goal, reach) > chosen:
                plans.extend(self._moves(board, u, goal, attack, floor, chosen))
        return Activate(u.id, _taken(plans).steps)

    def _place(
        self,
        board: Board,
        u: Piece,
        p: Point,
        goal: Goal | None,
        hidden: bool,
        facing: float | None,
        fired: bool = False,
    ) -> float:
        """Order progress + next shot − threat, for the unit ending its activation at ``p``.

        ``hidden``: it will be concealed there; ``fired``: it attacks this activation.
        """
        value = self._gain(board, u, p, goal, facing)
        if fired and board.hidden_at(u, p):
            # Firing from cover reveals the unit only until the end of its next activation, and
            # an enemy firing at it is not firing at a friend: it costs a share of the gap.
            exposed = threat(board, u, p, False)
            covered = threat(board, u, p, True)
            value -= FEAR * (covered + REVEALED * (exposed - covered))
        else:
            value -= FEAR * threat(board, u, p, hidden)
        return value

    def _gain(
        self, board: Board, u: Piece, p: Point, goal: Goal | None, facing: float | None
    ) -> float:
        """Order progress, ground held and next shot at ``p``: the same whether the unit fires
        this activation or not, so worked out once a place (the plans weigh each end up to
        three ways)."""
        gains = board.gains
        key: GainKey = (u.id, p, facing)
        found = gains.get(key)
        if found is None:
            found = gains[key] = self._ground_gained(board, u, p, goal) + self._shot_weight(
                board, u
            ) * opportunity(board, u, p, facing)
        return found

    def _ground_gained(
        self, board: Board, u: Piece, p: Point, goal: Goal | None, reach: float = 0.0
    ) -> float:
        """Order progress and ground held at ``p``; with ``reach``, the most they could be
        anywhere within that distance of ``p``."""
        value = 0.0
        if goal is not None:
            d = math.dist(p, goal.point)
            value -= goal.press * turns_needed(max(0.0, d - reach), goal.radius, u.move)
            obj = goal.objective
            if (
                obj is not None
                and obj.kind is ObjectiveKind.HOLD
                and obj.point is not None
                and math.dist(p, obj.point) - reach <= obj.radius
            ):
                value += ARRIVED * goal.press
        return value + presence(board, u, p, reach)

    def _shot_weight(self, board: Board, u: Piece) -> float:
        return ATTACKER_SHOT if order_kind(u, board) is OrderKind.ATTACK else NEXT_SHOT

    def _most_gained(self, board: Board, u: Piece, p: Point, goal: Goal, reach: float) -> float:
        """The most ``_gain`` could be anywhere within ``reach`` of ``p``: its ground and
        progress at their best there, and the unit's best next shot from anywhere. A place is
        worth no more: the threat only takes away."""
        best = self._shot_weight(board, u) * best_opportunity(board, u)
        return self._ground_gained(board, u, p, goal, reach) + best

    def _turn_to_face(self, board: Board, u: Piece) -> float | None:
        """The facing that brings the most valuable target in range into the front arc."""
        best: tuple[float, float] | None = None
        tables = board.tables
        for e in board.foes:
            d = geometry.distance(u.position, e.position)
            for s in tables.card_shots(u.no, u.skill, e.no):
                if d > s.range or s.damage + s.suppress <= 0:
                    continue
                v = attack_value(board, u, e, s, danger(board, e))
                if best is not None and v <= best[0]:
                    continue
                bearing = geometry.rnd_facing(geometry.bearing(u.position, e.position))
                if geometry.in_arc(u.position, u.info.facing, e.position):
                    continue  # Already faces it; nothing to gain by turning.
                if board.view.attack_problem(u.id, e.id, s.weapon, None, bearing) is None:
                    best = (v, bearing)
        return None if best is None else best[1]

    def _facing_at(self, board: Board, u: Piece, p: Point, goal: Goal) -> float:
        """Where a Fixed Mount should face after moving to ``p``: its best target, else ahead."""
        best: tuple[float, Point] | None = None
        for e in board.foes:
            found = best_shot(board.tables, u, e)
            if found is None or found[0] <= 0:
                continue
            d = geometry.distance(p, e.position)
            score = found[0] * e.size / (1.0 + d)
            if best is None or score > best[0]:
                best = (score, e.position)
        toward = best[1] if best is not None else goal.point
        if geometry.distance(p, toward) < 1e-6:
            return u.info.facing
        return geometry.rnd_facing(geometry.bearing(p, toward))

    def _moves(
        self,
        board: Board,
        u: Piece,
        goal: Goal,
        attack: Attack | None,
        floor: float,
        chosen: float,
    ) -> list[Plan]:
        """The plans that move: along each candidate path; a Move and Fire or Split Movement unit
        also weighs firing then moving, and moving then firing (``_fire_after_moving``).
        ``floor``: the best plan weighed so far; ``chosen``: the plan's value that would be taken
        so far. A move whose gain at its end (``_gain``), less what crossing may cost, is no more
        than that cannot be taken (the threat only takes away): it is not weighed in full."""
        fixed = u.fixed
        mobile = u.mobile
        plans: list[Plan] = []
        shooting: list[_Shooting] = []
        for path in candidate_paths(board, u, goal):
            end = path[-1]
            cost = crossing_cost(board, u, path)
            facing = self._facing_at(board, u, end, goal) if fixed else None
            if not mobile and self._gain(board, u, end, goal, facing) - cost <= chosen:
                continue
            step = MoveStep(tuple(path[1:]), facing)
            hidden = board.hidden_at(u, end)
            value = self._place(board, u, end, goal, hidden, facing) - cost
            plans.append(Plan(value, (step,)))
            if value > chosen + 1e-9:
                chosen = value
            if not mobile:
                continue  # Each unit moves or fires, not both.
            pairs = pairs_from(board, u, end)
            bound = best_offer(pairs)
            if bound > 0:
                place = self._place(board, u, end, goal, False, facing, True) - cost
                shooting.append(_Shooting(bound + place, place, pairs, path, step, facing, cost))
            if attack is not None:
                # Fire from here first, then move: the move is the whole Move still.
                value = attack.value + self._place(board, u, end, goal, False, facing, True) - cost
                steps = (AttackStep(attack.target, attack.weapon), step)
                plans.append(Plan(value, steps))
        if shooting:
            best = max([floor] + [p.value for p in plans])
            found = self._fire_after_moving(board, u, goal, shooting, best)
            if found is not None:
                plans.append(found)
        return plans

    def _fire_after_moving(
        self, board: Board, u: Piece, goal: Goal, shooting: list[_Shooting], best: float
    ) -> Plan | None:
        """The best move-then-fire plan that beats ``best``, or None.

        Ends are tried by the most they could be worth (their most valuable shot, legal or not),
        and the rules are asked only while that could still beat the best plan found. A Split
        Movement unit then spends what is left of its Move getting away, from that end only.
        """
        found: tuple[float, list[Point], MoveStep, Attack, float] | None = None
        for bound, place, pairs, path, step, facing, cost in sorted(shooting, key=_by_bound):
            if bound <= best + 1e-9:
                break  # Sorted by bound: no end after this one can beat the best.
            after = bounded_attack(board, u, pairs, path[-1], facing)
            if after is not None and after.value + place > best + 1e-9:
                best = after.value + place
                found = (best, path, step, after, cost)
        if found is None:
            return None
        value, path, step, after, cost = found
        steps: tuple = (step, AttackStep(after.target, after.weapon))
        if u.split:
            away = self._move_away(board, u, path, goal)
            if away is not None:
                back, back_end = away
                there = self._place(board, u, back_end, goal, False, None, True)
                value = after.value + there - cost
                steps = (*steps, back)
        return Plan(value, steps)

    def _move_away(
        self, board: Board, u: Piece, path: list[Point], goal: Goal
    ) -> tuple[MoveStep, Point] | None:
        """Split Movement: after firing, spend what is left moving away from the threat."""
        view = board.view
        spent = view.path_cost(u.id, path)
        if spent is None:
            return None
        left = u.move - spent
        if left < 0.5:
            return None
        end = path[-1]
        away = retreat_point(board, end, left, board.table)
        if away is None:
            return None
        back = view.plan_path(u.id, away, left, start=end)
        if back is None or len(back) < 2 or back[-1] == end:
            return None
        # The whole activation must fit in Move: check the joined path.
        if view.path_cost(u.id, [*path, *back[1:]]) is None:
            return None
        return MoveStep(tuple(back[1:]), None), back[-1]
