"""The referee's picture of a battle, and what the rules say about sight on its table.

The units, buildings and terrain as the events leave them (the referee's own state, never the
engine's), the constants of the rule texts, and the questions every check asks: which pieces
hold a point, whether a string from one point to another is clear, whether a unit is hidden.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import plane
from .plane import Point
from .table import Card, Piece, Table

SURE = 1e-4
"""A line inside blocking terrain for longer than this is certainly blocked."""
CLEAR = 1e-9
"""A line inside blocking terrain for no longer than this is certainly clear."""
JOINT = 1e-5
"""How far off a string the referee looks for blocking terrain on both sides (E1's joints)."""
GRAZE = 0.005
"""A path may run this far inside what it may not enter (positions are kept to 0.001")."""
EDGE_GAP = 0.01
"""E12: a unit stopped by a failed terrain roll stands this far short of the edge."""
CLOSE = 1.0
"""Close combat: Range 1."""
SENSOR = 6.0
"""Sensor: reveal one concealed unit within 6"."""
STRUCTURE = 3
"""Only weapons of Power 3+ can damage a structure."""
ARC = 45.0
"""Fixed Mount: the front 90° arc, ±45° (the edge inside, E28)."""
DEMORALISED_AT = {"combined_arms": 1, "one_year_war": 0}
"""At Skill 1 (Combined Arms) / Skill 0 (One Year War) a unit is demoralised and removed."""
AA_ONLY = {"combined_arms": True, "one_year_war": False}
"""Combined Arms: only weapons marked AA can attack an Aerial unit."""


@dataclass(frozen=True)
class Violation:
    scenario: str
    seed: int | None
    index: int
    rule: str
    detail: str

    def __str__(self) -> str:
        return f"{self.scenario} seed {self.seed} event {self.index}: [{self.rule}] {self.detail}"


@dataclass
class Unit:
    id: str
    side: str
    card: Card
    pos: Point
    facing: float
    hits: int
    skill: int
    uses: dict[str, int]
    active: bool = True
    concealed: bool = False
    until: int | None = None
    activations: int = 0
    activated: bool = False

    @property
    def aerial(self) -> bool:
        return self.card.has("aerial")


@dataclass
class Building:
    id: str
    side: str | None
    ring: tuple[Point, ...]
    resistance: int
    hits: int
    admits: tuple[int, int] | None
    rubble: Piece
    collapsed: bool = False


@dataclass
class Activation:
    unit: Unit
    shape: str = ""
    moved: float = 0.0
    halted: bool = False
    moved_at: int | None = None
    """Index of the last move, whose spotting is still to be checked."""


@dataclass
class Picture:
    """The referee's state and the table's rules; ``Moves``, ``Attacks`` and ``Referee`` add
    the checks."""

    table: Table
    seed: int | None = None
    violations: list[Violation] = field(default_factory=list)

    def __post_init__(self) -> None:
        t = self.table
        self.units = {
            u.id: Unit(
                u.id,
                u.side,
                u.card,
                u.position,
                u.facing,
                u.card.hits,
                u.card.skill,
                {g.name: g.uses for g in u.card.guns if g.uses is not None},
            )
            for u in t.units
        }
        self.buildings = {
            s.id: Building(s.id, s.side, s.ring, s.resistance, s.hits, s.admits, s.rubble)
            for s in t.structures
        }
        self.pieces: list[Piece] = list(t.pieces)
        self.scores = {s: 0 for s in t.sides}
        self.turn = 0
        self.first: str | None = None
        self.now: Activation | None = None
        self.last_side: str | None = None
        self.rolls: list[tuple[int, dict]] = []
        self.expect: list[tuple[str, dict[str, Any], str]] = []
        self.objective_scores: list[tuple[int, dict]] = []
        self.i = 0
        self.started = False
        self.ended = False
        self.fired: str | None = None
        self.collapsed_at: int | None = None
        """A collapse whose spotting is yet to be checked (E5): the index of its event."""
        # Sight depends only on positions and the terrain, which changes only at a collapse.
        self._blockers: list[tuple[str, tuple[Point, ...], bool]] | None = None
        self._holding: dict[Point, frozenset[str]] = {}
        self._lines: dict[tuple[Point, Point], bool | None] = {}
        self.ram: tuple[Unit, Unit, dict, list[dict]] | None = None

    # --- reporting ----------------------------------------------------------------------------

    def bad(self, rule: str, detail: str, index: int | None = None) -> None:
        self.violations.append(
            Violation(self.table.name, self.seed, self.i if index is None else index, rule, detail)
        )

    # --- what the rules say about the table ---------------------------------------------------

    def enemy(self, side: str) -> str:
        a, b = self.table.sides
        return b if side == a else a

    def blockers(self) -> list[tuple[str, tuple[Point, ...], bool]]:
        """(id, ring, occupants see each other) of every sight-blocking piece on the table."""
        if self._blockers is None:
            out = [(p.id, p.ring, p.rubble_field) for p in self.pieces if p.blocks_sight]
            out += [(b.id, b.ring, True) for b in self.buildings.values() if not b.collapsed]
            self._blockers = out
        return self._blockers

    def terrain_changed(self) -> None:
        self._blockers = None
        self._holding.clear()
        self._lines.clear()

    def others(self, pid: str) -> list[tuple[Point, ...]]:
        """Every other terrain piece and standing building: where one meets ``pid`` edge to
        edge, the joint is inside both (E34)."""
        out = [p.ring for p in self.pieces if p.id != pid]
        out += [b.ring for b in self.buildings.values() if not b.collapsed and b.id != pid]
        return out

    def holding(self, p: Point) -> frozenset[str]:
        """Sight-blocking pieces (and standing buildings) holding ``p``: strictly, or on a
        joint with another piece (E34)."""
        found = self._holding.get(p)
        if found is None:
            found = frozenset(
                i for i, ring, _ in self.blockers() if plane.within(ring, p, self.others(i))
            )
            self._holding[p] = found
        return found

    def pieces_of(self, u: Unit) -> frozenset[str]:
        """A flier is over terrain, never in it."""
        return frozenset() if u.aerial else self.holding(u.pos)

    def fields(self, p: Point) -> frozenset[str]:
        """Rubble fields holding ``p`` (on a joint too, E34), whether or not they block sight:
        their occupants see each other all the same."""
        return frozenset(
            x.id
            for x in self.pieces
            if x.rubble_field and plane.within(x.ring, p, self.others(x.id))
        )

    def shared(self, u: Unit, v: Unit) -> frozenset[str]:
        """The pieces two units are both in, for "units in the same piece": the sight-blocking
        ones and every rubble field. A flier is in none."""
        if u.aerial or v.aerial:
            return frozenset()
        return (self.holding(u.pos) & self.holding(v.pos)) | (
            self.fields(u.pos) & self.fields(v.pos)
        )

    def buildings_at(self, p: Point) -> list[str]:
        """The standing buildings holding ``p``: two on the wall they share (E34)."""
        return [
            b.id
            for b in self.buildings.values()
            if not b.collapsed and plane.within(b.ring, p, self.others(b.id))
        ]

    def line(self, a: Point, b: Point) -> bool | None:
        """The string from a to b: True clear, False blocked, None too close to call.

        Blocked by a sight-blocking piece holding neither end; units in the same rubble field or
        building see each other whatever lies between.
        """
        key = (a, b) if a <= b else (b, a)
        if key not in self._lines:
            self._lines[key] = self._line(*key)
        return self._lines[key]

    def _line(self, a: Point, b: Point) -> bool | None:
        ina, inb = self.holding(a), self.holding(b)
        mutual = {i for i, _, m in self.blockers() if m}
        if ina & inb & mutual or self.fields(a) & self.fields(b):
            return True
        worst = 0.0
        for i, ring, _ in self.blockers():
            if i in ina or i in inb:
                continue
            worst = max(worst, plane.length_inside(ring, a, b))
        if worst > SURE:
            return False
        if worst > CLEAR:
            return None
        return self._joint(a, b, ina | inb)

    def _joint(self, a: Point, b: Point, holding: frozenset[str]) -> bool | None:
        """A string crossing no piece may still run along a joint where two lie edge to edge
        (E1): blocked where there is blocking terrain just off it on both sides at once."""
        if plane.dist(a, b) <= CLEAR:
            return True
        near = [
            ring
            for i, ring, _ in self.blockers()
            if i not in holding and plane.has_edge_on(ring, a, b, JOINT)
        ]
        if len(near) < 2:
            return True
        sides = []
        for by in (JOINT, -JOINT):
            a2, b2 = plane.shifted(a, b, by)
            sides.append([span for ring in near for span in plane.spans_inside(ring, a2, b2)])
        both = plane.common_length(*sides) * plane.dist(a, b)
        if both > SURE:
            return False
        return True if both <= CLEAR else None

    def sees(self, u: Unit, v: Unit) -> bool | None:
        if u.aerial or v.aerial:
            return True  # Aerial: never blocked.
        return self.line(u.pos, v.pos)

    def seen_by_enemy(self, u: Unit) -> bool | None:
        """Whether some enemy has a clear line to ``u``: True, False, or None when unsure."""
        answers = [self.sees(e, u) for e in self.in_battle(self.enemy(u.side))]
        if True in answers:
            return True
        return None if None in answers else False

    def hidden(self, u: Unit) -> bool | None:
        """Whether a unit not under a reveal should be concealed where it stands."""
        if u.aerial:
            return False
        if self.holding(u.pos):
            return True
        seen = self.seen_by_enemy(u)
        return None if seen is None else not seen

    def in_battle(self, side: str) -> list[Unit]:
        return [u for u in self.units.values() if u.side == side and u.active]

    # --- shared by the checks -----------------------------------------------------------

    def must(self, kind: str, fields: dict[str, Any], why: str, front: bool = True) -> None:
        if front:
            self.expect.insert(0, (kind, fields, why))
        else:
            self.expect.append((kind, fields, why))

    def skill_roll(self, r: dict, u: Unit) -> None:
        ok = r["value"] <= u.skill
        if r["against"] != u.skill or r["modifier"] != 0:
            self.bad(
                "dice", f"{r['purpose']} roll by {u.id} against {r['against']}, Skill {u.skill}"
            )
        if (r["outcome"] == "success") != ok or r["outcome"] not in ("success", "failure"):
            self.bad("dice", f"{r['purpose']} roll {r['value']} against {u.skill}: {r['outcome']}")

    def check_shape(self, a: Activation) -> None:
        """Each unit moves or fires, not both; Move and Fire: M-A or A-M; Split: M-A-M."""
        allowed = {"", "M", "A"}
        c = a.unit.card
        if c.has("move_and_fire"):
            allowed |= {"MA", "AM"}
        if c.has("split_movement"):
            allowed |= {"MA", "AM", "MAM"}
        if a.shape not in allowed:
            self.bad("move or fire", f"{a.unit.id} activation shape {a.shape}")
        if a.halted and a.shape.endswith("A"):
            self.bad("terrain", f"{a.unit.id} attacks after a failed terrain roll")
