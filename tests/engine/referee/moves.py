"""The referee on moving and sight: paths, terrain and Breaching rolls, spotting, reveals."""

from __future__ import annotations

import itertools

from . import plane
from .picture import EDGE_GAP, GRAZE, SENSOR, Building, Picture, Unit
from .plane import Point
from .table import Card


class Moves(Picture):
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
        """Path length; inches in water count half for an Amphibious unit (not for a flier),
        along a joint of the water with another piece too: it is inside both (E34)."""
        total = plane.path_length(path)
        if not u.card.has("amphibious") or u.aerial:
            return total
        water = [(p.ring, self.others(p.id)) for p in self.pieces if p.water]
        saved = 0.0
        for a, b in itertools.pairwise(path):
            ts: list[tuple[float, float]] = []
            for ring, others in water:
                ts += plane.spans_within(ring, others, a, b)
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
            if plane.path_inside(ring, path, self.others(pid)) > GRAZE:
                self.bad("movement", f"{u.id}'s path crosses {pid}, which it may not enter")
            elif len(path) > 1 and plane.depth(ring, path[-1]) > 0.001:
                self.bad("movement", f"{u.id}'s path ends inside {pid}")
        self.check_terrain_rolls(u, path, rolls, bool(e["halted"]))
        if e["halted"]:
            # Stopped short, it never makes a turn planned for the end: it faces the way it went.
            # The way it went is its last leg with length (E16).
            legs = [(p, q) for p, q in itertools.pairwise(path) if p != q]
            want = plane.bearing(*legs[-1]) if legs else u.facing
            if abs((e["facing"] - want + 180.0) % 360.0 - 180.0) > 0.001:
                self.bad("facing", f"{u.id} stopped short but faces {e['facing']}, not {want:.3f}")
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
        entered = [
            p for p in hazards if len(path) > 1 and plane.entries(p.ring, path, self.others(p.id))
        ]
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
            reached = [b for b in walls if plane.entries(b.ring, path, self.others(b.id))]
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

    def check_spotting_after_collapse(self) -> None:
        """After a collapse (its occupants' rolls and what they cost done): the lines it opened
        spot every concealed unit now in the open with an enemy line to it."""
        at, self.collapsed_at = self.collapsed_at, None
        for side in self.scores:
            for u in self.in_battle(side):
                if u.concealed and not self.pieces_of(u) and self.seen_by_enemy(u) is True:
                    self.bad("spotting", f"{u.id} is in sight of an enemy after a collapse", at)

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
