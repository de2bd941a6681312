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

from typing import Any

from . import plane
from .attacks import Attacks
from .moves import Moves
from .picture import Activation, Unit, Violation
from .table import Table


class Referee(Moves, Attacks):
    """The walk: each event checked against the rules, then applied to the referee's picture."""

    # --- the walk -----------------------------------------------------------------------------

    def run(self, events: list[dict]) -> list[Violation]:
        for i, e in enumerate(events):
            self.i = i
            self.step(e)
        self.i = len(events)
        if self.now is not None and self.now.moved_at is not None:
            self.check_spotting()
        if self.collapsed_at is not None:
            self.check_spotting_after_collapse()
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
        if (
            self.collapsed_at is not None
            and kind not in ("roll", "damage", "remove", "score", "collapse")
            and not (kind == "reveal" and e["cause"] == "spotted")
        ):
            self.check_spotting_after_collapse()
        handler(e)

    # --- expectations: what must follow ---------------------------------------------------------

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
        # Per-turn points for each side holding an objective at the end of the turn: a turn a
        # side's removal ended is complete, and scores them, once nobody is left to act (E19).
        left_to_act = any(u.active and not u.activated for u in self.units.values())
        want = []
        if not eliminated or not left_to_act:
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


def referee(table: Table, events: list[dict], seed: int | None = None) -> list[Violation]:
    """Every rule the log breaks, by event index."""
    return Referee(table, seed).run(events)
