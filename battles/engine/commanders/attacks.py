"""The attack a unit would make: its most valuable legal shot, worked out pair by pair.

A shot's value is ``Picture.attack_value``; the rules' own ``attack_problem`` says whether it is
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
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..commander import UnitInfo
    from ..geometry import Point
    from ..state import BuildingState
    from .picture import Picture

Attack = tuple[float, str, str]
"""(value, target id, weapon)."""

_UNKNOWN = object()
"""A pair whose legal shot has not been asked for yet."""


class _Pair:
    """One (unit, target) pair: the shots in range best first, and the best legal one."""

    __slots__ = ("legal", "offer", "stamp")

    def __init__(self, stamp: object, offer: list[Attack]) -> None:
        self.stamp = stamp
        """What the answer was worked out for: the target's info, or a building's state."""
        self.offer = offer
        """Shots in range with a positive value, most valuable first (ties keep card order)."""
        self.legal: object = _UNKNOWN
        """The first legal shot of ``offer`` (None: none is), once asked."""


def pairs_from(pic: Picture, u: UnitInfo, origin: Point | None) -> list[_Pair]:
    """The unit's pairs with every target in reach of ``origin``, worked out afresh (a place
    a move might end at), in target order."""
    pos = origin or u.position
    pairs = [_unit_pair(pic, u, e, pos) for e in _in_reach(pic, u, pos)]
    return pairs + _building_pairs(pic, u, origin, None)


class Reach:
    """A unit's pairs with the targets in reach of where it stands, kept for the turn while
    the unit stands as it did and no building falls (a collapse changes lines and shelter).

    At each decision only the pairs with enemies that changed since the side's last decision
    are worked out again; the upper bound on the unit's attack is kept with them.
    """

    __slots__ = (
        "_bound",
        "_building_list",
        "_buildings",
        "_decision",
        "_enemies",
        "_structures",
        "_worth",
        "bound",
        "unit",
    )

    def __init__(self, unit: UnitInfo) -> None:
        self.unit = unit
        self._decision = -2
        self._enemies: dict[str, _Pair] = {}
        self._bound = 0.0
        self.bound = 0.0
        """An upper bound of the unit's best legal attack (0 when nothing is in reach), with no
        legality check made."""
        self._buildings: dict[str, _Pair] = {}
        self._worth: list | None = None
        """``Picture.worth_attacking`` as last asked, and the building pairs it gave."""
        self._building_list: list[_Pair] = []
        self._structures: set[str] | None = None
        """The standing buildings (ids) something on the card can attack."""

    def refresh(self, pic: Picture, decision: int, changed: set[str] | None) -> None:
        """Bring the pairs up to ``decision``; ``changed``: the enemies (ids) that changed
        since the decision before it, or None when that is not known."""
        if decision == self._decision:
            return
        u = self.unit
        pos = u.position
        kept = self._enemies
        if changed is None or decision != self._decision + 1:
            kept.clear()
            for e in _in_reach(pic, u, pos):
                kept[e.id] = _unit_pair(pic, u, e, pos)
            self._bound = best_offer(kept.values())
        elif changed:
            limit = pic.tables.weapon_reach(u.id) + 1e-9
            bound = self._bound
            stale = False  # whether a pair that gave the bound has gone or changed
            for eid in changed:
                old = kept.pop(eid, None)
                if old is not None and old.offer and old.offer[0][0] >= bound:
                    stale = True
                now = pic.enemy(eid)
                if now is not None and math.dist(pos, now.position) <= limit:
                    pair = kept[eid] = _unit_pair(pic, u, now, pos)
                    if pair.offer and pair.offer[0][0] > bound:
                        bound = pair.offer[0][0]
            self._bound = best_offer(kept.values()) if stale else bound
        self._decision = decision
        self.bound = max(self._bound, best_offer(self._building_pairs(pic)))

    def pairs(self, pic: Picture) -> list[_Pair]:
        """The pairs in target order: enemies as the view lists them, then buildings."""
        kept = self._enemies
        out = [kept[e.id] for e in pic.enemies if e.id in kept]
        return out + self._building_list

    def _building_pairs(self, pic: Picture) -> list[_Pair]:
        """The pairs with the buildings worth attacking, asked again only when one of them
        changed (``Picture.worth_attacking`` gives the same list)."""
        if self._structures is None:
            uid, skill, tables = self.unit.id, self.unit.skill, pic.tables
            self._structures = {b.id for b in pic.buildings if tables.shots(uid, skill, b.id)}
        if not self._structures:
            return self._building_list
        worth = pic.values.worth_attacking()
        if self._worth is not worth and self._worth != worth:
            # Some building's Hits or worth moved on: ask again (its pair is kept if not).
            wanted = [b for b, _, _ in worth if b.id in self._structures]
            self._building_list = _building_pairs(pic, self.unit, None, self._buildings, wanted)
        self._worth = worth
        return self._building_list


def reach_here(pic: Picture, u: UnitInfo) -> Reach:
    """The unit's ``Reach``, brought up to this decision."""
    decision, changed = _changes(pic)
    kept = pic.memo.reach
    reach = kept.get(u.id)
    if reach is None or reach[0] is not u or reach[1] != len(pic.buildings):
        reach = kept[u.id] = (u, len(pic.buildings), Reach(u))
    reach[2].refresh(pic, decision, changed)
    return reach[2]


def _changes(pic: Picture) -> tuple[int, set[str] | None]:
    """This decision's number in the turn, and the enemies (ids) that came, went or changed
    since the side's last decision as a target (None for the turn's first)."""
    if pic.attack_changes is None:
        now = {e.id: e for e in pic.enemies}
        last = pic.memo.enemies
        if last is None:
            pic.attack_changes = (0, None)
        else:
            number, before = last
            changed = {i for i, e in now.items() if _moved_on(before.get(i), e)}
            changed.update(i for i in before if i not in now)
            pic.attack_changes = (number + 1, changed)
        pic.memo.enemies = (pic.attack_changes[0], now)
    return pic.attack_changes


def _moved_on(before: UnitInfo | None, now: UnitInfo) -> bool:
    """Whether an attack on the enemy may have changed: it is new, or it stands, hits or
    shows itself otherwise (having activated alone changes nothing about it as a target)."""
    if before is now:
        return False
    return before is None or (before.position, before.hits, before.skill, before.concealed) != (
        now.position,
        now.hits,
        now.skill,
        now.concealed,
    )


def bounded_attack(
    pic: Picture,
    u: UnitInfo,
    pairs: list[_Pair],
    origin: Point | None = None,
    facing: float | None = None,
) -> Attack | None:
    """The best legal shot among ``pairs`` (in target order), checking the pairs by their
    offer, best first, and stopping once no offer left can beat what is found."""
    order = sorted((i for i, p in enumerate(pairs) if p.offer), key=lambda i: -pairs[i].offer[0][0])
    best: Attack | None = None
    best_at = -1
    for i in order:
        pair = pairs[i]
        bound = pair.offer[0][0]
        if best is not None and (bound < best[0] or (bound == best[0] and i > best_at)):
            continue  # It cannot beat the best found, nor take its place on a tie.
        found = pair.legal
        if found is _UNKNOWN:
            found = pair.legal = _first_legal(pic, u, pair.offer, origin, facing)
        if found is not None:
            value = found[0]  # type: ignore[index]
            if best is None or value > best[0] or (value == best[0] and i < best_at):
                best, best_at = found, i  # type: ignore[assignment]
    return best


def best_offer(pairs: Iterable[_Pair]) -> float:
    """The most any of the pairs offers (0 when none offers anything): an upper bound of the
    best legal shot among them."""
    best, found = 0.0, False
    for p in pairs:  # (a loop, not max() over a generator: this is asked at every decision)
        if p.offer and (not found or p.offer[0][0] > best):
            best, found = p.offer[0][0], True
    return best


def _in_reach(pic: Picture, u: UnitInfo, pos: Point) -> list[UnitInfo]:
    limit = pic.tables.weapon_reach(u.id) + 1e-9
    return [e for e in pic.enemies if math.dist(pos, e.position) <= limit]


def _unit_pair(pic: Picture, u: UnitInfo, e: UnitInfo, pos: Point) -> _Pair:
    return _Pair(e, _offer_on_unit(pic, u, e, pos))


def _building_pairs(
    pic: Picture,
    u: UnitInfo,
    origin: Point | None,
    kept: dict[str, _Pair] | None,
    buildings: list[BuildingState] | None = None,
) -> list[_Pair]:
    """Pairs with the buildings worth attacking; ``kept``: pairs from before, by building,
    used again while the building's Hits and worth stand."""
    uid, skill, tables = u.id, u.skill, pic.tables
    pos = origin or u.position
    out = []
    for b in pic.buildings if buildings is None else buildings:
        if not tables.shots(uid, skill, b.id):
            continue  # Nothing on the card can attack a structure: its worth is not asked.
        worth = pic.values.building_worth(b)
        if worth <= 0:
            continue
        stamp = (b.hits, worth)
        pair = kept.get(b.id) if kept is not None else None
        if pair is None or pair.stamp != stamp:
            d = pic.distance_to_building(b, pos)
            offer = [
                (v, b.id, s.weapon)
                for s in tables.shots(uid, skill, b.id)
                if d <= s.range + 1e-9 and (v := pic.values.building_value(b, s)) > 0
            ]
            pair = _Pair(stamp, _sorted(offer))
            if kept is not None:
                kept[b.id] = pair
        out.append(pair)
    return out


def _offer_on_unit(pic: Picture, u: UnitInfo, e: UnitInfo, pos: Point) -> list[Attack]:
    d = math.dist(pos, e.position)
    offer = []
    for s in pic.tables.shots(u.id, u.skill, e.id):
        if d <= s.range + 1e-9:
            v = pic.values.attack_value(u, e, s)
            if v > 0:
                offer.append((v, e.id, s.weapon))
    return _sorted(offer)


def _sorted(offer: list[Attack]) -> list[Attack]:
    offer.sort(key=lambda f: -f[0])
    return offer


def _first_legal(
    pic: Picture, u: UnitInfo, offer: list[Attack], origin: Point | None, facing: float | None
) -> Attack | None:
    """The first shot of ``offer`` (most valuable first) the rules allow."""
    for attack in offer:
        if pic.view.attack_problem(u.id, attack[1], attack[2], origin, facing) is None:
            return attack
    return None
