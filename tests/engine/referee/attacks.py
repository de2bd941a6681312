"""The referee on attacks: who may attack whom with what, the dice, and what follows."""

from __future__ import annotations

from typing import Any

from . import plane
from .picture import AA_ONLY, ARC, CLOSE, DEMORALISED_AT, STRUCTURE, Building, Picture, Unit
from .plane import Point


class Attacks(Picture):
    # --- attacks ------------------------------------------------------------------------------

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

    def aimable(self, u: Unit, q: Point) -> bool | None:
        """Whether a string from the unit to ``q`` is clear and (Fixed Mount) in its front arc;
        None when too close to call."""
        seen = True if u.aerial else self.line(u.pos, q)
        if seen is False:
            return False
        if u.card.has("fixed_mount") and plane.dist(u.pos, q) > 1e-9:
            off = abs((plane.bearing(u.pos, q) - u.facing + 180.0) % 360.0 - 180.0)
            if off > ARC + 1e-6:
                return False
        return seen

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
        if e["attack"] == "ram" and u.aerial and AA_ONLY[self.table.ruleset]:
            self.bad("aerial", f"{u.id} flies and rams {t.id}: the blow back has no AA (E31)")
        shared = self.shared(u, t)
        inside = [] if t.aerial else self.buildings_at(t.pos)
        if inside and shared.isdisjoint(inside):
            self.bad("buildings", f"{u.id} attacks {t.id} inside {inside[0]}: attack the building")
        walls = [] if u.aerial else self.buildings_at(u.pos)
        if e["attack"] == "ram" and walls and not set(walls) & set(inside):
            self.bad(
                "buildings", f"{u.id} rams out of {walls[0]}: the blow back would strike it (E32)"
            )
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
        if not u.aerial and plane.within(b.ring, u.pos, self.others(b.id)):
            self.bad("buildings", f"{u.id} attacks {b.id} from inside it")
        near = (
            u.pos
            if (u.aerial and plane.inside(b.ring, u.pos))
            else plane.nearest_on_boundary(b.ring, u.pos)
        )
        d, logged = plane.dist(u.pos, near), e["distance"]
        if d > reach + 1e-9:
            self.bad("range", f'{b.id} is {d:.3f}" away, {e["weapon"]} reaches {reach}')
        # "Model's eye view — use a string": to the nearest wall when it is seen (and in a Fixed
        # Mount's arc), else to another part of the walls, as far as the log says.
        near_ok = self.aimable(u, near)
        at_near = abs(d - logged) <= 0.0015
        if near_ok is True and not at_near:
            self.bad("attack", f"distance {logged} to {b.id} logged, {d:.4f} to its nearest wall")
        elif near_ok is False or not at_near:
            if logged > reach + 0.0015:
                self.bad("range", f'{b.id} attacked {logged}" away, {e["weapon"]} reaches {reach}')
            ends = [
                q for q in plane.along(b.ring, 0.002) if abs(plane.dist(u.pos, q) - logged) <= 0.01
            ]
            if not any(self.aimable(u, q) is not False for q in ends):
                self.bad("cover", f'{u.id} attacks {b.id}: no part of it {logged}" away is seen')
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
                    if u.active and not u.aerial and plane.within(b.ring, u.pos, self.others(b.id))
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
        self.collapsed_at = self.i
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
