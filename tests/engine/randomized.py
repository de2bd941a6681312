"""Random valid scenarios for property tests: varied terrain, buildings, cards and rulesets."""

from __future__ import annotations

import random
from typing import Any

from battles.engine.cards import Keyword
from battles.engine.rulesets import RULESETS

from .referee.generator import printed_melee

KINDS = ["woods", "hill", "rubble", "river", "hazard", "wall", "water", "open"]


def _rect(rng: random.Random, lo=1.0, hi=5.0) -> list[list[float]]:
    w, h = rng.uniform(lo, hi), rng.uniform(lo, hi)
    x, y = rng.uniform(0, 24 - w), rng.uniform(0, 24 - h)
    r = lambda v: round(v, 2)  # noqa: E731
    return [[r(x), r(y)], [r(x + w), r(y)], [r(x + w), r(y + h)], [r(x), r(y + h)]]


def _overlap(a, b) -> bool:
    """Whether two rectangles share more than an edge."""
    across = min(a[2][0], b[2][0]) - max(a[0][0], b[0][0])
    along = min(a[2][1], b[2][1]) - max(a[0][1], b[0][1])
    return across > 0 and along > 0


def _inside(p, poly) -> bool:
    xs = [q[0] for q in poly]
    ys = [q[1] for q in poly]
    return min(xs) - 0.05 <= p[0] <= max(xs) + 0.05 and min(ys) - 0.05 <= p[1] <= max(ys) + 0.05


def _card(rng: random.Random, keywords: list[str]) -> dict[str, Any]:
    weapons = []
    for i in range(rng.randint(0, 2)):
        w: dict[str, Any] = {
            "name": f"W{i}",
            "power": rng.randint(0, 6),
            "range": rng.choice([1, 4, 8, 12, 18]),
        }
        if rng.random() < 0.2:
            w["aa"] = True
        if rng.random() < 0.1:
            # Only Power 3+ damages a structure: a weaker buildings-only weapon is refused.
            w["buildings_only"], w["power"] = True, max(w["power"], 3)
        if rng.random() < 0.15 and not w.get("buildings_only"):
            # Buildings have no Size: a buildings-only weapon with a Size restriction is refused.
            w["min_size"], w["max_size"] = 1, rng.randint(1, 5)
        if rng.random() < 0.2:
            w["uses"] = rng.randint(1, 3)
        weapons.append(w)
    kws = sorted(set(rng.sample(keywords, rng.randint(0, 2))))
    return {
        "name": "R",
        "skill": rng.randint(2, 5),
        "move": rng.choice([0, 3, 4, 5, 6, 8]),
        "resistance": rng.randint(0, 5),
        "hits": rng.randint(1, 4),
        "size": (size := rng.randint(1, 5)),
        "melee": printed_melee(rng.choice([None, None, 2, 4, 6]), size),
        "weapons": weapons,
        "keywords": kws,
        "enters": rng.sample(["woods", "water"], rng.randint(0, 1)),
    }


def random_scenario(rng: random.Random) -> dict[str, Any]:
    ruleset = rng.choice(["combined_arms", "one_year_war"])
    keywords = [k.value for k in Keyword if k in RULESETS[ruleset].keywords]
    terrain = [
        {"id": f"t{i}", "kind": rng.choice(KINDS), "polygon": _rect(rng)}
        for i in range(rng.randint(0, 5))
    ]
    buildings = []
    for i in range(rng.randint(0, 2)):
        lo = rng.randint(1, 3)
        house = {
            "id": f"h{i}",
            "polygon": _rect(rng, 2, 4),
            "card": {
                "name": "House",
                "resistance": rng.randint(1, 4),
                "hits": rng.randint(1, 3),
                "admits": rng.choice([None, {"min_size": lo, "max_size": lo + 1}]),
            },
        }
        # Buildings may meet but not overlap: one drawn over another is left out.
        if not any(_overlap(house["polygon"], b["polygon"]) for b in buildings):
            buildings.append(house)
    sides = []
    uid = 0
    for si, sid in enumerate(["blue", "red"]):
        units = []
        for _ in range(rng.randint(1, 4)):
            card = _card(rng, keywords)
            for _try in range(50):
                pos = [round(rng.uniform(0, 24), 2), round(rng.uniform(0, 8) + 16 * si, 2)]
                blocked = [
                    t
                    for t in terrain
                    if t["kind"] in ("woods", "water")
                    and t["kind"] not in card["enters"]
                    and not (t["kind"] == "water" and "amphibious" in card["keywords"])
                ]
                bad = any(_inside(pos, t["polygon"]) for t in blocked)
                bad = bad or any(_inside(pos, b["polygon"]) for b in buildings)
                if "aerial" in card["keywords"] or not bad:
                    break
            else:
                continue
            units.append(
                {
                    "id": f"u{uid}",
                    "card": card,
                    "position": pos,
                    "facing": rng.choice([0, 90, 180, 270]),
                    "order": {"kind": rng.choice(["attack", "advance", "hold", "screen"])},
                }
            )
            uid += 1
        if not units:
            units.append(
                {
                    "id": f"u{uid}",
                    "card": _card(rng, []),
                    "position": [0, 16 * si],
                    "order": {"kind": "attack"},
                }
            )
            card = units[-1]["card"]
            card["keywords"] = ["aerial"]
            uid += 1
        sides.append({"id": sid, "name": sid.title(), "units": units})
    objectives = [
        {
            "id": "o0",
            "point": [round(rng.uniform(4, 20), 2), round(rng.uniform(4, 20), 2)],
            "radius": rng.choice([2, 3, 4]),
            "sides": rng.sample(["blue", "red"], rng.randint(1, 2)),
            "points_per_turn": rng.randint(0, 2),
            "points_at_end": rng.randint(1, 3),
        }
    ]
    return {
        "name": "Random",
        "ruleset": ruleset,
        "turn_limit": rng.randint(1, 6),
        "terrain": terrain,
        "buildings": buildings,
        "objectives": objectives,
        "sides": sides,
    }
