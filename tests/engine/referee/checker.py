"""The referee's walk: a battle log replayed event by event against the Team Bravo texts.

Written from the two rule texts, the project's rulings (``shared/design/rulings.md``) and the
rulings the engine documents (``docs/rules.md`` §4), never from the engine's rule code: the
referee keeps its own picture of the battle, built from the events, and asks of each event
whether the rules allow it, and whether the rules required something the log does not show.

A rule that turns on a hair's breadth (a line that grazes a corner, a unit a thousandth of an
inch from an edge) is left alone when the referee cannot call it with certainty: the log keeps
positions to a thousandth of an inch, and a referee that cried foul on rounding would be noise.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from . import plane
from .plane import Point
from .table import Card, Piece, Table

SURE = 1e-4
"""A line inside blocking terrain for longer than this is certainly blocked."""
CLEAR = 1e-9
"""A line inside blocking terrain for no longer than this is certainly clear."""
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
class Referee:
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

    def holding(self, p: Point) -> frozenset[str]:
        """Sight-blocking pieces (and standing buildings) strictly holding ``p``."""
        found = self._holding.get(p)
        if found is None:
            found = frozenset(i for i, ring, _ in self.blockers() if plane.inside(ring, p))
            self._holding[p] = found
        return found

    def pieces_of(self, u: Unit) -> frozenset[str]:
        """A flier is over terrain, never in it."""
        return frozenset() if u.aerial else self.holding(u.pos)

    def building_at(self, p: Point) -> str | None:
        for b in self.buildings.values():
            if not b.collapsed and plane.inside(b.ring, p):
                return b.id
        return None

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
        if ina & inb & mutual:
            return True
        worst = 0.0
        for i, ring, _ in self.blockers():
            if i in ina or i in inb:
                continue
            worst = max(worst, plane.length_inside(ring, a, b))
        if worst > SURE:
            return False
        return True if worst <= CLEAR else None

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

    # --- the walk -----------------------------------------------------------------------------

    def run(self, events: list[dict]) -> list[Violation]:
        for i, e in enumerate(events):
            self.i = i
            self.step(e)
        self.i = len(events)
        if self.now is not None and self.now.moved_at is not None:
            self.check_spotting()
        if self.expect and not self.ended:
            kind, fields, why = self.expect[0]
            self.bad(why, f"the log stops with {kind} {fields} still owed")
        if not self.ended:
            self.bad("victory", "the log has no end event")
        return self.violations

    def step(self, e: dict) -> None:
        kind = e["kind"]
        if kind != "roll" and self.rolls and kind not in ("attack", "move", "initiative"):
            self.check_loose_rolls()
        tried = bool(self.expect) and (kind != "roll" or self.expect[0][0] == "roll")
        if tried:
            self.match_expected(e)  # A mismatch is reported there.
        owed = kind in ("damage", "suppress", "remove", "collapse") or (
            kind == "score" and str(e.get("reason")).startswith("removed:")
        )
        if owed and not tried:
            self.bad("log", f"{kind} that no rule calls for: {e}")
        handler = getattr(self, "on_" + kind, None)
        if handler is None:
            self.bad("log", f"unknown event kind {kind!r}")
            return
        if (
            self.now is not None
            and self.now.moved_at is not None
            and kind
            not in (
                "roll",
                "damage",
                "remove",
                "score",
            )
        ) and not (kind == "reveal" and e["cause"] == "spotted"):
            self.check_spotting()
        handler(e)

    # --- expectations: what must follow ---------------------------------------------------------

    def must(self, kind: str, fields: dict[str, Any], why: str, front: bool = True) -> None:
        if front:
            self.expect.insert(0, (kind, fields, why))
        else:
            self.expect.append((kind, fields, why))

    def match_expected(self, e: dict) -> bool:
        kind, fields, why = self.expect[0]
        if e["kind"] == kind and all(e.get(k) == v for k, v in fields.items()):
            self.expect.pop(0)
            return True
        self.bad(why, f"expected {kind} {fields}, got {e}")
        self.expect.clear()
        return False

    def check_loose_rolls(self) -> None:
        idx = self.rolls[0][0]
        self.bad("dice", f"rolls not accounted for by any event: {[r for _, r in self.rolls]}", idx)
        self.rolls.clear()

    # --- turn and activation ------------------------------------------------------------------

    def on_battle_start(self, e: dict) -> None:
        self.started = True
        if e["ruleset"] != self.table.ruleset:
            self.bad("ruleset", f"log says {e['ruleset']}, scenario {self.table.ruleset}")

    def deployment_done(self) -> None:
        # Everything behind (or inside) blocking terrain starts concealed; nothing else does.
        for u in self.units.values():
            h = self.hidden(u)
            if h is True and not u.concealed:
                self.bad("cover", f"{u.id} deploys hidden but is not concealed")
            if h is False and u.concealed:
                self.bad("cover", f"{u.id} deploys in sight of an enemy but is concealed")

    def on_turn_start(self, e: dict) -> None:
        if self.turn == 0:
            self.deployment_done()
        else:
            self.end_of_turn(final=False)
        if e["turn"] != self.turn + 1:
            self.bad("turn", f"turn {e['turn']} follows turn {self.turn}")
        if e["turn"] > self.table.turn_limit:
            self.bad("victory", f"turn {e['turn']} is past the turn limit {self.table.turn_limit}")
        self.turn = e["turn"]
        self.first = None
        self.last_side = None
        for u in self.units.values():
            u.activated = False

    def on_initiative(self, e: dict) -> None:
        # Both players roll 1d6; high goes first; ties are rerolled.
        rolls = [r for _, r in self.rolls]
        self.rolls.clear()
        if len(rolls) < 2 or len(rolls) % 2:
            self.bad("initiative", f"{len(rolls)} initiative dice")
            return
        *ties, last = [rolls[i : i + 2] for i in range(0, len(rolls), 2)]
        for a, b in ties:
            if a["value"] != b["value"]:
                self.bad("initiative", f"a reroll after {a['value']} against {b['value']}")
        a, b = last
        if {a["who"], b["who"]} != set(self.table.sides) or a["value"] == b["value"]:
            self.bad("initiative", f"the last pair {a['who']}:{a['value']} {b['who']}:{b['value']}")
            return
        high = a if a["value"] > b["value"] else b
        if e["first"] != high["who"] or e["turn"] != self.turn:
            self.bad("initiative", f"{high['who']} rolled high but {e['first']} goes first")
        self.first = e["first"]

    def ready(self, side: str) -> list[Unit]:
        return [u for u in self.in_battle(side) if not u.activated]

    def on_activation(self, e: dict) -> None:
        self.end_activation()
        u = self.units.get(e["unit"])
        if u is None or u.side != e["side"]:
            self.bad("turn", f"no unit {e['unit']} on side {e['side']}")
            return
        if not u.active:
            self.bad("turn", f"{u.id} activates after it was removed")
        if u.activated:
            self.bad("turn", f"{u.id} activates twice in turn {self.turn}")
        # Alternate one unit at a time; when one side runs out, the other finishes.
        if self.last_side is None:
            want = self.first
            if want is not None and not self.ready(want):
                want = self.enemy(want)
        else:
            other = self.enemy(self.last_side)
            want = other if self.ready(other) else self.last_side
        if u.side != want:
            self.bad("turn", f"{u.side} activates {u.id} where {want} should activate")
        if e["number"] != u.activations + 1:
            self.bad("turn", f"{u.id}'s activation numbered {e['number']}, not {u.activations + 1}")
        u.activations = e["number"]
        u.activated = True
        self.last_side = u.side
        self.now = Activation(u)

    def end_activation(self) -> None:
        """A reveal runs out at the end of the unit's own activation; hidden units conceal."""
        a, self.now = self.now, None
        if a is None or not a.unit.active:
            return
        u = a.unit
        if u.until is not None and u.activations >= u.until:
            self.bad("cover", f"{u.id}'s reveal ran out at the end of activation {u.until}")
        elif u.until is None and not u.concealed and self.hidden(u) is True:
            self.bad("cover", f"{u.id} ends its activation out of every enemy's sight, unconcealed")

    def end_of_turn(self, final: bool, eliminated: bool = False) -> None:
        self.end_activation()
        if not eliminated:
            for u in self.units.values():
                if u.active and not u.activated:
                    self.bad("turn", f"{u.id} did not activate in turn {self.turn}")
        # Per-turn points for each side holding an objective at the end of the turn.
        want = []
        if not eliminated:
            for g in self.table.goals:
                if g.per_turn:
                    want += [(s, g.per_turn, f"objective:{g.id}") for s in self.holders(g)]
        if final:
            for g in self.table.goals:
                if g.at_end:
                    want += [(s, g.at_end, f"objective:{g.id}") for s in self.holders(g)]
        got = [(e["side"], e["points"], e["reason"]) for _, e in self.objective_scores]
        if sorted(got) != sorted(want):
            at = self.objective_scores[0][0] if self.objective_scores else None
            self.bad("victory", f"objective scores {got}, the rules give {want}", at)
        self.objective_scores = []

    def holders(self, g: Any) -> list[str]:
        """Held = a side has an unremoved unit within the radius and the enemy has none."""
        if g.raze is not None:
            return list(g.sides) if self.buildings[g.raze].collapsed else []
        present = {
            u.side
            for u in self.units.values()
            if u.active and plane.dist(u.pos, g.point) <= g.radius + 1e-9
        }
        if len(present) != 1:
            return []
        (side,) = present
        return [side] if side in g.sides else []

    def on_end(self, e: dict) -> None:
        eliminated = e["reason"] == "side_eliminated"
        if eliminated and all(self.in_battle(s) for s in self.table.sides):
            self.bad("victory", "the battle ends early with both sides still in it")
        if not eliminated and self.turn != self.table.turn_limit:
            self.bad(
                "victory", f"the battle ends at turn {self.turn}, limit {self.table.turn_limit}"
            )
        self.end_of_turn(final=True, eliminated=eliminated)
        a, b = self.table.sides
        sa, sb = self.scores[a], self.scores[b]
        winner = a if sa > sb else b if sb > sa else None
        if e["winner"] != winner:
            self.bad("victory", f"winner {e['winner']} with scores {self.scores}")
        if self.expect:
            kind, fields, why = self.expect[0]
            self.bad(why, f"the battle ends with {kind} {fields} still owed")
        self.ended = True

    def on_score(self, e: dict) -> None:
        side = e["side"]
        if e["total"] != self.scores.get(side, 0) + e["points"]:
            self.bad("victory", f"{side}'s total {e['total']} after {e['points']} points")
        self.scores[side] = e["total"]
        if str(e["reason"]).startswith("objective:"):
            self.objective_scores.append((self.i, e))
        elif not str(e["reason"]).startswith("removed:"):
            self.bad("victory", f"a score for {e['reason']}")

    # --- moving ------------------------------------------------------------------------------

    def obstacles(self, u: Unit) -> list[tuple[str, tuple[Point, ...]]]:
        """What the unit may not enter: movement-blocking terrain its card does not let it enter
        (water is no obstacle to an Amphibious unit), standing buildings that do not admit it
        (no obstacle to Breaching). Aerial ignores all terrain."""
        c = u.card
        if u.aerial:
            return []
        out = [
            (p.id, p.ring)
            for p in self.pieces
            if p.blocks_movement
            and p.kind not in c.enters
            and not (p.water and c.has("amphibious"))
        ]
        for b in self.buildings.values():
            if not b.collapsed and not c.has("breaching") and not self.admits(b, c):
                out.append((b.id, b.ring))
        return out

    @staticmethod
    def admits(b: Building, c: Card) -> bool:
        return b.admits is not None and b.admits[0] <= c.size <= b.admits[1]

    def cost(self, u: Unit, path: list[Point]) -> float:
        """Path length; inches in water count half for an Amphibious unit (not for a flier)."""
        total = plane.path_length(path)
        if not u.card.has("amphibious") or u.aerial:
            return total
        water = [p.ring for p in self.pieces if p.water]
        saved = 0.0
        for a, b in itertools.pairwise(path):
            ts: list[tuple[float, float]] = []
            for ring in water:
                ts += plane.spans_inside(ring, a, b)
            ts.sort()
            merged: list[tuple[float, float]] = []
            for t0, t1 in ts:
                if merged and t0 <= merged[-1][1]:
                    merged[-1] = (merged[-1][0], max(merged[-1][1], t1))
                else:
                    merged.append((t0, t1))
            saved += sum(t1 - t0 for t0, t1 in merged) * plane.dist(a, b) * 0.5
        return total - saved

    def on_move(self, e: dict) -> None:
        a = self.now
        u = self.units.get(e["unit"])
        rolls = [r for _, r in self.rolls]
        self.rolls.clear()
        if a is None or u is None or a.unit is not u:
            self.bad("turn", f"{e['unit']} moves outside its own activation")
            return
        path = [tuple(p) for p in e["path"]]
        if a.halted:
            self.bad("terrain", f"{u.id} moves on after a failed terrain roll")
        if plane.dist(path[0], u.pos) > 1e-6:
            self.bad("movement", f"{u.id}'s path starts at {path[0]}, it stands at {u.pos}")
        a.shape += "M"
        self.check_shape(a)
        cost = self.cost(u, path)
        if abs(cost - e["cost"]) > 0.002 * len(path):
            self.bad("movement", f"{u.id}'s path costs {cost:.4f}\", logged {e['cost']}")
        a.moved += e["cost"]
        if a.moved > u.card.move + 0.001:
            self.bad("movement", f'{u.id} moves {a.moved:.3f}" with Move {u.card.move}')
        for pid, ring in self.obstacles(u):
            if plane.path_inside(ring, path) > GRAZE:
                self.bad("movement", f"{u.id}'s path crosses {pid}, which it may not enter")
            elif len(path) > 1 and plane.depth(ring, path[-1]) > 0.001:
                self.bad("movement", f"{u.id}'s path ends inside {pid}")
        self.check_terrain_rolls(u, path, rolls, bool(e["halted"]))
        u.pos = path[-1]
        u.facing = e["facing"]
        if e["halted"]:
            a.halted = True
        a.moved_at = self.i

    def check_terrain_rolls(self, u: Unit, path: list[Point], rolls: list[dict], halted: bool):
        """One roll per hazard entered (Sure-Footed: walls only; Aerial: none), one Breaching
        roll per building entered that does not admit the unit; a failure stops it at the edge."""
        for r in rolls:
            if r["who"] != u.id or r["purpose"] not in ("terrain", "breaching"):
                self.bad("dice", f"a {r['purpose']} roll by {r['who']} in {u.id}'s move")
                return
            self.skill_roll(r, u)
        terrain = [r for r in rolls if r["purpose"] == "terrain"]
        breaches = [r for r in rolls if r["purpose"] == "breaching"]
        if u.aerial:
            # Aerial ignores all terrain.
            if rolls:
                self.bad("terrain", f"Aerial {u.id} rolled for terrain")
            return
        if len(path) < 2 and not halted:
            if rolls:
                self.bad("terrain", f"{u.id}'s move that went nowhere rolled {rolls}")
            return
        sure = u.card.has("sure_footed")
        hazards = [p for p in self.pieces if p.hazard and (p.wall or not sure)]
        entered = [p for p in hazards if len(path) > 1 and plane.entries(p.ring, path)]
        # Halted: the failed roll was for a hazard whose edge it stands at; hazards that begin at
        # that same edge may have been rolled for (and passed) first.
        at_edge = [
            p
            for p in hazards
            if p not in entered and -EDGE_GAP - 0.003 <= plane.depth(p.ring, path[-1]) <= 0.0
        ]
        # So may they when a failed breach removes the unit at the wall, where they begin.
        failed_breaches = sum(1 for r in breaches if r["outcome"] == "failure")
        stopped = halted or (breaches and failed_breaches >= u.hits)
        lo = len(entered) + (1 if halted else 0)
        hi = len(entered) + (len(at_edge) if stopped else 0)
        if not lo <= len(terrain) <= max(lo, hi):
            self.bad(
                "terrain",
                f"{u.id} made {len(terrain)} terrain rolls entering {len(entered)} hazards"
                + (f", halting at the edge of {len(at_edge)}" if halted else ""),
            )
        if halted:
            if not terrain or terrain[-1]["outcome"] != "failure":
                self.bad("terrain", f"{u.id} halted without a failed terrain roll")
            if not at_edge:
                self.bad("terrain", f"{u.id} halted at {path[-1]}, at the edge of no hazard")
        for r in terrain[: len(terrain) - (1 if halted else 0)]:
            if r["outcome"] != "success":
                self.bad("terrain", f"{u.id} failed a terrain roll and moved on")
        # Breaching: only for a building the unit reaches.
        if u.card.has("breaching") and not u.aerial:
            walls = [
                b for b in self.buildings.values() if not b.collapsed and not self.admits(b, u.card)
            ]
            reached = [b for b in walls if plane.entries(b.ring, path)]
            at_wall = [b for b in walls if abs(plane.depth(b.ring, path[-1])) <= 0.002]
            failed = [r for r in breaches if r["outcome"] == "failure"]
            removed_at_wall = bool(at_wall) and len(failed) >= u.hits
            if len(breaches) != len(reached) and not (
                removed_at_wall and len(breaches) == len(reached) + 1
            ):
                self.bad(
                    "breaching",
                    f"{u.id} made {len(breaches)} Breaching rolls, entering "
                    f"{len(reached)} buildings",
                )
        elif breaches:
            self.bad("breaching", f"{u.id} rolled for Breaching without the keyword")
        for r in breaches:
            if r["outcome"] == "failure":
                self.must("damage", {"unit": u.id, "by": None}, "breaching", front=False)

    def skill_roll(self, r: dict, u: Unit) -> None:
        ok = r["value"] <= u.skill
        if r["against"] != u.skill or r["modifier"] != 0:
            self.bad(
                "dice", f"{r['purpose']} roll by {u.id} against {r['against']}, Skill {u.skill}"
            )
        if (r["outcome"] == "success") != ok or r["outcome"] not in ("success", "failure"):
            self.bad("dice", f"{r['purpose']} roll {r['value']} against {u.skill}: {r['outcome']}")

    def check_spotting(self) -> None:
        """After a move (a halted one included): a concealed unit in the open with an enemy line
        to it is seen; so is every concealed enemy in the open the mover can now see."""
        a = self.now
        assert a is not None and a.moved_at is not None
        at, a.moved_at = a.moved_at, None
        u = a.unit
        if not u.active:
            return
        if u.concealed and not self.pieces_of(u) and self.seen_by_enemy(u) is True:
            self.bad(
                "spotting", f"{u.id} ended a move in the open in sight of an enemy, concealed", at
            )
        for e in self.in_battle(self.enemy(u.side)):
            if e.concealed and not self.pieces_of(e) and self.sees(u, e) is True:
                self.bad("spotting", f"{u.id}'s move gives it a clear line to concealed {e.id}", at)

    # --- sight events ------------------------------------------------------------------------

    def on_reveal(self, e: dict) -> None:
        u = self.units[e["unit"]]
        cause = e["cause"]
        if cause == "spotted":
            if e["until"] is not None:
                self.bad("cover", f"a spotted {u.id} revealed until {e['until']}")
            if not u.aerial and self.pieces_of(u):
                self.bad("cover", f"{u.id} spotted inside sight-blocking terrain")
            elif self.seen_by_enemy(u) is False:
                self.bad("cover", f"{u.id} spotted with no enemy line to it")
        elif cause == "fired":
            a = self.now
            if a is None or a.unit is not u or e["until"] != u.activations + 1:
                self.bad("cover", f"{u.id} revealed by firing until {e['until']}")
            self.fired = u.id
        elif cause == "sensor":
            self.sensor(u, e)
        u.concealed = False
        u.until = e["until"]

    def sensor(self, target: Unit, e: dict) -> None:
        """Sensor (One Year War): instead of firing, reveal one concealed unit within 6"."""
        a = self.now
        if a is None:
            self.bad("sensor", "a Sensor reveal outside an activation")
            return
        u = a.unit
        a.shape += "A"
        if not u.card.has("sensor") or self.table.ruleset != "one_year_war":
            self.bad("sensor", f"{u.id} has no Sensor")
        if target.side == u.side or not target.concealed or not target.active:
            self.bad("sensor", f"{u.id} reveals {target.id}, not a concealed enemy")
        if plane.dist(u.pos, target.pos) > SENSOR + 1e-9:
            self.bad("sensor", f'{target.id} is {plane.dist(u.pos, target.pos):.3f}" away')
        if e["until"] != target.activations + 1:
            self.bad("sensor", f"revealed until {e['until']}, not {target.activations + 1}")
        self.check_shape(a)

    def on_conceal(self, e: dict) -> None:
        u = self.units[e["unit"]]
        if self.started and self.turn > 0:
            a = self.now
            if a is None or a.unit is not u:
                self.bad("cover", f"{u.id} conceals outside its own activation")
            elif u.until is not None and u.activations < u.until:
                self.bad("cover", f"{u.id} conceals while revealed until {u.until}")
        h = self.hidden(u)
        if h is False:
            self.bad("cover", f"{u.id} conceals in the open in sight of an enemy")
        u.concealed = True
        u.until = None

    # --- attacks ------------------------------------------------------------------------------

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

    def on_attack(self, e: dict) -> None:
        rolls = [r for _, r in self.rolls]
        self.rolls.clear()
        kind = e["attack"]
        if kind == "ram_back":
            self.ram_back(e, rolls)
            return
        a = self.now
        u = self.units.get(e["attacker"])
        if a is None or u is None or a.unit is not u or not u.active:
            self.bad("turn", f"{e['attacker']} attacks outside its own activation")
            return
        a.shape += "A"
        self.check_shape(a)
        if not u.aerial and self.fired != u.id and u.until != u.activations + 1:
            self.bad("cover", f"{u.id} attacks without being revealed by firing")
        self.fired = None
        tid = e["target"]
        if tid in self.buildings:
            self.attack_building(u, self.buildings[tid], e, rolls)
            return
        t = self.units.get(tid)
        if t is None:
            self.bad("attack", f"unknown target {tid}")
            return
        power, reach, gun = self.profile(u, e)
        if power is None:
            return
        self.attack_legal(u, t, e, power, reach, gun)
        if kind == "ram":
            self.ram = (u, t, e, rolls)
            self.must("attack", {"attacker": t.id, "target": u.id, "attack": "ram_back"}, "ramming")
            return
        if gun is not None and gun.uses is not None:
            u.uses[gun.name] -= 1
        if not rolls or rolls[0]["purpose"] != "to_hit":
            self.bad("shooting", f"{u.id}'s {kind} has no Skill roll")
            return
        self.skill_roll(rolls[0], u)
        if rolls[0]["outcome"] == "failure":
            if e["outcome"] != "miss" or len(rolls) != 1:
                self.bad(
                    "shooting",
                    f"a failed Skill roll, then {len(rolls) - 1} dice and {e['outcome']}",
                )
            return
        if e["outcome"] == "miss":
            self.bad("shooting", "a hit logged as a miss")
            return
        won = self.opposed(rolls[1:], u, t.id, power, t.card.resistance)
        if won is None:
            return
        self.consequence(t, u, won, power, e)

    def profile(self, u: Unit, e: dict) -> tuple[int | None, float, Any]:
        kind, name = e["attack"], e["weapon"]
        c = u.card
        if kind == "shoot":
            g = c.gun(name)
            if g is None:
                self.bad("attack", f"{u.id} has no weapon {name}")
                return None, 0, None
            if g.uses is not None and u.uses.get(g.name, 0) <= 0:
                self.bad("weapons", f"{u.id}'s {name} has no uses left")
            power, reach = g.power, g.range
        elif kind == "melee":
            if c.melee is None:
                self.bad("close combat", f"{u.id} has no printed Melee value")
                return None, 0, None
            g, power, reach = None, c.melee, CLOSE
        else:
            if c.melee is not None:
                self.bad("close combat", f"{u.id} has a printed Melee value but rams")
            g, power, reach = None, c.size, CLOSE
        if e["power"] != power:
            self.bad("attack", f"{u.id}'s {name} logged at Power {e['power']}, card {power}")
        return power, reach, g

    def arc(self, u: Unit, tp: Point) -> None:
        if not u.card.has("fixed_mount") or plane.dist(u.pos, tp) <= 1e-9:
            return
        off = abs((plane.bearing(u.pos, tp) - u.facing + 180.0) % 360.0 - 180.0)
        if off > ARC + 1e-6:
            self.bad("fixed mount", f"{u.id} attacks {off:.2f}° off its facing")

    def attack_legal(self, u: Unit, t: Unit, e: dict, power: int, reach: float, g: Any) -> None:
        if not t.active or t.side == u.side:
            self.bad("attack", f"{u.id} attacks {t.id}, not an enemy in the battle")
        d = plane.dist(u.pos, t.pos)
        if abs(d - e["distance"]) > 0.0015:
            self.bad("attack", f"distance {e['distance']} logged, {d:.4f} measured")
        if d > reach + 1e-9:
            self.bad("range", f'{t.id} is {d:.3f}" away, {e["weapon"]} reaches {reach}')
        if g is not None:
            if g.buildings_only:
                self.bad("weapons", f"{g.name} may attack buildings only")
            if (g.min_size is not None and t.card.size < g.min_size) or (
                g.max_size is not None and t.card.size > g.max_size
            ):
                self.bad("weapons", f"{g.name} may not attack Size {t.card.size}")
        if t.aerial and AA_ONLY[self.table.ruleset] and not (g is not None and g.aa):
            self.bad("aerial", f"only weapons marked AA can attack Aerial {t.id}")
        shared = self.pieces_of(u) & self.pieces_of(t)
        inside = None if t.aerial else self.building_at(t.pos)
        if inside is not None and inside not in shared:
            self.bad("buildings", f"{u.id} attacks {t.id} inside {inside}: attack the building")
        if t.concealed and not shared:
            self.bad("cover", f"{u.id} attacks concealed {t.id}")
        if self.sees(u, t) is False:
            self.bad("cover", f"{u.id} attacks {t.id} through sight-blocking terrain")
        self.arc(u, t.pos)

    def opposed(self, rolls: list[dict], u: Unit, tid: str, power: int, res: int) -> bool | None:
        """1d6 + Power against 1d6 + Resistance: strictly higher wins; armour wins ties."""
        if len(rolls) != 2:
            self.bad("dice", f"{len(rolls)} penetration dice for {u.id}'s attack on {tid}")
            return None
        p, r = rolls
        if (p["purpose"], p["who"], r["purpose"], r["who"]) != ("penetration", u.id, "armour", tid):
            self.bad(
                "dice", f"penetration dice {p['who']}:{p['purpose']} {r['who']}:{r['purpose']}"
            )
            return None
        if p["modifier"] != power or r["modifier"] != res:
            self.bad(
                "dice", f"penetration +{p['modifier']} vs +{r['modifier']}, not {power} vs {res}"
            )
        a, b = p["value"] + power, r["value"] + res
        if p["against"] != b or r["against"] != a:
            self.bad("dice", f"totals {a} against {b} logged as {p['against']}/{r['against']}")
        won = a > b
        want = ("win", "lose") if won else ("lose", "win")  # the armour die wins a tie
        if (p["outcome"], r["outcome"]) != want:
            self.bad("dice", f"{a} against {b} logged {p['outcome']}/{r['outcome']}")
        return won

    def consequence(self, t: Unit, by: Unit, won: bool, power: int, e: dict | None) -> None:
        """Attacker higher: 1 damage. Otherwise a hit costs 1 Skill when Power ≥ Resistance."""
        if e is not None and e["outcome"] != ("damage" if won else "no_damage"):
            self.bad("shooting", f"{'won' if won else 'lost'} penetration logged {e['outcome']}")
        if not t.active:
            return
        if won:
            self.must("damage", {"unit": t.id, "by": by.id, "hits": t.hits - 1}, "damage", False)
        elif power >= t.card.resistance:
            skill = max(0, t.skill - 1)
            self.must("suppress", {"unit": t.id, "by": by.id, "skill": skill}, "suppression", False)

    def ram_back(self, e: dict, rolls: list[dict]) -> None:
        """Ramming: no Skill roll, Power = Size, resolved in both directions at once."""
        ram, self.ram = self.ram, None
        if ram is None:
            self.bad("ramming", "a ram back with no ram")
            return
        u, t, first, first_rolls = ram
        if any(r["purpose"] == "to_hit" for r in first_rolls + rolls):
            self.bad("ramming", "a Skill roll in a ram")
        won = self.opposed(first_rolls, u, t.id, u.card.size, t.card.resistance)
        back = self.opposed(rolls, t, u.id, t.card.size, u.card.resistance)
        if e["power"] != t.card.size:
            self.bad("ramming", f"{t.id} rams back at Power {e['power']}, Size {t.card.size}")
        if won is None or back is None:
            return
        self.consequence(t, u, won, u.card.size, first)
        self.consequence(u, t, back, t.card.size, e)

    def attack_building(self, u: Unit, b: Building, e: dict, rolls: list[dict]) -> None:
        """Buildings do not dodge (no Skill roll); Power 3+ only; attack it from outside."""
        power, reach, g = self.profile(u, e)
        if power is None:
            return
        if g is not None and g.uses is not None and e["attack"] == "shoot":
            u.uses[g.name] -= 1
        if b.collapsed:
            self.bad("buildings", f"{u.id} attacks {b.id}, already collapsed")
        if b.side == u.side:
            self.bad("buildings", f"{u.id} attacks its own side's building {b.id}")
        if g is not None and (g.min_size is not None or g.max_size is not None):
            self.bad("weapons", f"{g.name} is restricted by Size; a building has none")
        if power < STRUCTURE:
            self.bad("buildings", f"Power {power} cannot damage a structure")
        if not u.aerial and plane.inside(b.ring, u.pos):
            self.bad("buildings", f"{u.id} attacks {b.id} from inside it")
        tp = (
            u.pos
            if (u.aerial and plane.inside(b.ring, u.pos))
            else plane.nearest_on_boundary(b.ring, u.pos)
        )
        d = plane.dist(u.pos, tp)
        if abs(d - e["distance"]) > 0.0015:
            self.bad("attack", f"distance {e['distance']} to {b.id} logged, {d:.4f} measured")
        if d > reach + 1e-9:
            self.bad("range", f'{b.id} is {d:.3f}" away, {e["weapon"]} reaches {reach}')
        if not u.aerial and self.line(u.pos, tp) is False:
            self.bad("cover", f"{u.id} attacks {b.id} through sight-blocking terrain")
        self.arc(u, tp)
        if any(r["purpose"] == "to_hit" for r in rolls):
            self.bad("buildings", "buildings do not dodge: a Skill roll against one")
            rolls = [r for r in rolls if r["purpose"] != "to_hit"]
        won = self.opposed(rolls, u, b.id, power, b.resistance)
        if won is None:
            return
        if e["outcome"] != ("damage" if won else "no_damage"):
            self.bad("buildings", f"penetration {'won' if won else 'lost'}, logged {e['outcome']}")
        if won:
            self.must("damage", {"unit": b.id, "by": u.id, "hits": b.hits - 1}, "buildings", False)

    # --- what follows attacks -----------------------------------------------------------------

    def on_damage(self, e: dict) -> None:
        if e["unit"] in self.buildings:
            b = self.buildings[e["unit"]]
            b.hits = e["hits"]
            if b.hits == 0:
                occupants = [
                    u.id
                    for u in self.units.values()
                    if u.active and not u.aerial and plane.inside(b.ring, u.pos)
                ]
                self.must("collapse", {"building": b.id, "occupants": occupants}, "collapse")
            return
        u = self.units[e["unit"]]
        if e["hits"] != u.hits - 1:
            self.bad("damage", f"{u.id} at {u.hits} Hits goes to {e['hits']}")
        u.hits = e["hits"]
        if u.hits == 0:
            enemy = self.enemy(u.side)
            self.must("remove", {"unit": u.id, "how": "destroyed"}, "damage")
            self.expect.insert(
                1,
                (
                    "score",
                    {"side": enemy, "points": u.card.size, "reason": f"removed:{u.id}"},
                    "victory",
                ),
            )

    def on_suppress(self, e: dict) -> None:
        u = self.units[e["unit"]]
        u.skill = e["skill"]
        if u.skill <= DEMORALISED_AT[self.table.ruleset]:
            self.must("remove", {"unit": u.id, "how": "demoralised"}, "suppression")
            self.expect.insert(
                1,
                (
                    "score",
                    {
                        "side": self.enemy(u.side),
                        "points": u.card.size,
                        "reason": f"removed:{u.id}",
                    },
                    "victory",
                ),
            )

    def on_remove(self, e: dict) -> None:
        u = self.units[e["unit"]]
        u.active = False

    def on_collapse(self, e: dict) -> None:
        b = self.buildings[e["building"]]
        b.collapsed = True
        self.pieces.append(b.rubble)
        self.terrain_changed()
        for uid in reversed(e["occupants"]):
            self.must("roll", {"who": uid, "purpose": "collapse"}, "collapse")

    def on_roll(self, e: dict) -> None:
        if e["purpose"] == "collapse":
            # Each occupant rolls Skill or takes 1 Hit.
            u = self.units[e["who"]]
            self.skill_roll(e, u)
            if e["outcome"] == "failure":
                self.must("damage", {"unit": u.id, "by": None, "hits": u.hits - 1}, "collapse")
            return
        self.rolls.append((self.i, e))


def referee(table: Table, events: list[dict], seed: int | None = None) -> list[Violation]:
    """Every rule the log breaks, by event index."""
    return Referee(table, seed).run(events)
