"""The attack a unit would make: its most valuable legal shot, worked out pair by pair.

A shot's value is ``values.attack_value``; the rules' own ``attack_problem`` says whether it is
legal. The unit's best attack is the most valuable legal shot, the earlier target (enemies in
the view's order, then buildings) winning a tie.

Choosing who acts asks every ready unit for its best attack at every decision, and between two
decisions of a side only a unit or two has moved. So each ready unit keeps a ``Reach`` for the
rest of the turn, while it stands as it did (the view hands back the very same ``UnitInfo`` for
a unit that stands as it did): its (unit, target) pairs, each with its shots in range sorted by
value (an *offer*: its first value bounds what the pair can give) and, once asked, its best
legal shot. At each decision only the pairs with enemies that came, went or changed as targets
since the side's last decision are worked out again; a building's pair is kept while its Hits
and its worth to the side stand. The legality check, the dear part, is made only for a pair
whose offer could still beat the best legal shot found so far (``bounded_attack``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple

from .values import building_value, building_worth, by_value, offers, worth_attacking

if TYPE_CHECKING:
    from ..geometry import Point
    from ..state import BuildingState
    from .board import Board, Piece
    from .values import Offer


class Attack(NamedTuple):
    """An attack a unit could make."""

    value: float
    target: str
    weapon: str


_UNKNOWN = object()
"""A pair whose legal shot has not been asked for yet."""


class Pair:
    """One (unit, target) pair: the shots in range best first, and the best legal one."""

    __slots__ = ("legal", "offer", "stamp", "target")

    def __init__(self, stamp: object, target: str, offer: list[Offer]) -> None:
        self.stamp = stamp
        """What the answer was worked out for: the target's info, or a building's state."""
        self.target = target
        self.offer = offer
        """Shots in range with a positive value, most valuable first (ties keep card order)."""
        self.legal: object = _UNKNOWN
        """The first legal shot of ``offer`` (None: none is), once asked."""


def pairs_from(board: Board, u: Piece, origin: Point | None) -> list[Pair]:
    """The unit's pairs with every target in reach of ``origin``, worked out afresh (a place a
    move might end at), in target order."""
    pos = origin or u.position
    pairs = [_unit_pair(board, u, e, pos) for e in _in_reach(board, u, pos)]
    return pairs + _building_pairs(board, u, origin, None)


class Reach:
    """A unit's pairs with the targets in reach of where it stands, kept for the turn while the
    unit stands as it did and no building falls (a collapse changes lines and shelter).

    At each decision only the pairs with enemies that changed since the side's last decision
    are worked out again; the upper bound on the unit's attack is kept with them.
    """

    __slots__ = (
        "_best",
        "_bound",
        "_building_bound",
        "_building_list",
        "_buildings",
        "_decision",
        "_enemies",
        "_structures",
        "_version",
        "_worth",
        "bound",
    )

    def __init__(self) -> None:
        self._decision = -2
        self._enemies: dict[str, Pair] = {}
        self._bound = 0.0
        self.bound = 0.0
        """An upper bound of the unit's best legal attack (0 when nothing is in reach), with no
        legality check made."""
        self._buildings: dict[str, Pair] = {}
        self._worth: list | None = None
        """``values.worth_attacking`` as last asked, and the building pairs it gave."""
        self._building_list: list[Pair] = []
        self._building_bound = 0.0
        """The most the building pairs offer (``best_offer``), found again when they change."""
        self._structures: set[str] | None = None
        """The standing buildings (ids) something on the card can attack."""
        self._version = 0
        """Moves on whenever a pair comes, goes or is worked out again."""
        self._best: tuple[int, Attack | None] = (-1, None)
        """The best legal attack among the pairs, with the version it was found at."""

    def refresh(self, board: Board, u: Piece) -> None:
        """Bring the unit's pairs up to this decision (``Board.changed``: the enemies that
        changed since the side's decision before)."""
        decision = board.in_turn
        if decision == self._decision:
            return
        pos = u.position
        kept = self._enemies
        changed = board.changed
        if changed is None or decision != self._decision + 1:
            kept.clear()
            for e in _in_reach(board, u, pos):
                kept[e.id] = _unit_pair(board, u, e, pos)
            self._bound = best_offer(kept.values())
            self._version += 1
        elif changed:
            limit = u.reach + 1e-9
            bound = self._bound
            stale = False  # whether a pair that gave the bound has gone or changed
            pieces = board.pieces
            visible = board.visible
            moved = False
            for eid in changed:
                old = kept.pop(eid, None)
                if old is not None:
                    moved = True
                    if old.offer and old.offer[0][0] >= bound:
                        stale = True
                if eid in visible:
                    now = pieces[eid]
                    if math.dist(pos, now.position) <= limit:
                        pair = kept[eid] = _unit_pair(board, u, now, pos)
                        moved = True
                        if pair.offer and pair.offer[0][0] > bound:
                            bound = pair.offer[0][0]
            self._bound = best_offer(kept.values()) if stale else bound
            if moved:
                self._version += 1
        self._decision = decision
        self._refresh_buildings(board, u)
        self.bound = max(self._bound, self._building_bound)

    def pairs(self, board: Board) -> list[Pair]:
        """The pairs in target order: enemies as the view lists them, then buildings."""
        kept = self._enemies
        out = [kept[e.id] for e in board.foes if e.id in kept]
        return out + self._building_list

    def best(self, board: Board, u: Piece) -> Attack | None:
        """The unit's best legal attack where it stands (``bounded_attack``), found again only
        once its pairs have moved on."""
        version, found = self._best
        if version != self._version:
            found = bounded_attack(board, u, self.pairs(board))
            self._best = (self._version, found)
        return found

    def _refresh_buildings(self, board: Board, u: Piece) -> None:
        """Bring the pairs with the buildings worth attacking (and the most they offer) up to
        this decision, asked again only when one of them changed (``values.worth_attacking``
        gives the same list)."""
        if self._structures is None:
            self._structures = _structures(board, u)
        if not self._structures:
            return
        worth = worth_attacking(board)
        if self._worth != worth:
            # Some building's Hits or worth moved on: ask again (its pair is kept if not).
            wanted = [b for b, _, _ in worth if b.id in self._structures]
            self._building_list = _building_pairs(board, u, None, self._buildings, wanted)
            self._building_bound = best_offer(self._building_list)
            self._version += 1
        self._worth = worth


def _structures(board: Board, u: Piece) -> set[str]:
    """The standing buildings (ids) something on the unit's card can attack at its Skill: the
    same for every unit of the card, and kept while no building falls (``Board.structures``)."""
    key = (u.no, u.skill)
    found = board.structures.get(key)
    if found is None:
        tables = board.tables
        found = board.structures[key] = {
            b.id for b in board.buildings if tables.card_shots(u.no, u.skill, tables.card_no[b.id])
        }
    return found


def reach_here(board: Board, u: Piece) -> Reach:
    """The unit's ``Reach``, brought up to this decision."""
    kept = u.kept
    if kept is None or kept[0] is not u.info:
        kept = u.kept = (u.info, Reach())
    kept[1].refresh(board, u)
    return kept[1]


def bounded_attack(
    board: Board,
    u: Piece,
    pairs: list[Pair],
    origin: Point | None = None,
    facing: float | None = None,
) -> Attack | None:
    """The best legal shot among ``pairs`` (in target order), checking the pairs by their offer,
    best first, and stopping once no offer left can beat what is found."""
    # (minus the bound, place): sorted as plain tuples, by bound and then target order.
    order = sorted([(-p.offer[0][0], i) for i, p in enumerate(pairs) if p.offer])
    best: Attack | None = None
    best_at = -1
    for less, i in order:
        pair = pairs[i]
        bound = -less
        if best is not None and (bound < best.value or (bound == best.value and i > best_at)):
            continue  # It cannot beat the best found, nor take its place on a tie.
        found = pair.legal
        if found is _UNKNOWN:
            found = pair.legal = _first_legal(board, u, pair, origin, facing)
        if found is not None:
            value = found[0]  # type: ignore[index]
            if best is None or value > best.value or (value == best.value and i < best_at):
                best, best_at = found, i  # type: ignore[assignment]
    return best


def best_offer(pairs: Iterable[Pair]) -> float:
    """The most any of the pairs offers (0 when none offers anything): an upper bound of the
    best legal shot among them."""
    best, found = 0.0, False
    for p in pairs:  # (a loop, not max() over a generator: this is asked at every decision)
        if p.offer and (not found or p.offer[0][0] > best):
            best, found = p.offer[0][0], True
    return best


def _in_reach(board: Board, u: Piece, pos: Point) -> list[Piece]:
    limit = u.reach + 1e-9
    return [e for e in board.foes if math.dist(pos, e.position) <= limit]


def _unit_pair(board: Board, u: Piece, e: Piece, pos: Point) -> Pair:
    d = math.dist(pos, e.position)
    return Pair(e.info, e.id, [o for o in offers(board, u, e) if d <= o[1] + 1e-9])


def _building_pairs(
    board: Board,
    u: Piece,
    origin: Point | None,
    kept: dict[str, Pair] | None,
    buildings: list[BuildingState] | None = None,
) -> list[Pair]:
    """Pairs with the buildings worth attacking; ``kept``: pairs from before, by building, used
    again while the building's Hits and worth stand."""
    tables = board.tables
    pos = origin or u.position
    out = []
    for b in board.buildings if buildings is None else buildings:
        shots = tables.card_shots(u.no, u.skill, tables.card_no[b.id])
        if not shots:
            continue  # Nothing on the card can attack a structure: its worth is not asked.
        worth = building_worth(board, b)
        if worth <= 0:
            continue
        stamp = (b.hits, worth)
        pair = kept.get(b.id) if kept is not None else None
        if pair is None or pair.stamp != stamp:
            d = board.distance_to_building(b, pos)
            offer = [
                (v, s.range, s.weapon)
                for s in shots
                if d <= s.range + 1e-9 and (v := building_value(board, b, s)) > 0
            ]
            offer.sort(key=by_value, reverse=True)
            pair = Pair(stamp, b.id, offer)
            if kept is not None:
                kept[b.id] = pair
        out.append(pair)
    return out


def _first_legal(
    board: Board, u: Piece, pair: Pair, origin: Point | None, facing: float | None
) -> Attack | None:
    """The first shot of the pair's offer (most valuable first) the rules allow."""
    for value, _, weapon in pair.offer:
        if board.view.attack_problem(u.id, pair.target, weapon, origin, facing) is None:
            return Attack(value, pair.target, weapon)
    return None
