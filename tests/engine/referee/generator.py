"""Random scenarios for the referee, made to put the rules' corners on the table.

Each scenario has pieces that overlap (rubble in a wood, a wood on a hill, two hazards across
each other; in half of them a long hill or wood with another sight-blocking piece across it
and a unit of each side on it), a hazard that begins at a building's wall, fliers deployed over
a building or a wood, and cards drawn from every keyword of its ruleset. Units start near each
other, so they meet within a few turns.
"""

from __future__ import annotations

import random
from typing import Any

CA_KEYWORDS = (
    "aerial",
    "split_movement",
    "fixed_mount",
    "breaching",
    "move_and_fire",
    "sure_footed",
    "demolition",
)
OYW_KEYWORDS = (*CA_KEYWORDS, "sensor", "amphibious")
KINDS = ("woods", "hill", "rubble", "river", "hazard", "wall", "water", "open")
HAZARDS = ("rubble", "hazard", "wall", "river")


def printed_melee(drawn: int | None, size: int) -> int | None:
    """A drawn Melee moved into what a card may print, "Size + 0 to 3" (WRITING A CARD); no
    Melee stays none. The dice are drawn as they always were, so a seed's other numbers stay."""
    return None if drawn is None else min(max(drawn, size), size + 3)


def _r(v: float) -> float:
    return round(v, 2)


def _box(x: float, y: float, w: float, h: float) -> list[list[float]]:
    x, y = max(0.0, min(24 - w, x)), max(0.0, min(24 - h, y))
    return [[_r(x), _r(y)], [_r(x + w), _r(y)], [_r(x + w), _r(y + h)], [_r(x), _r(y + h)]]


def _overlap(a: list[list[float]], b: list[list[float]]) -> bool:
    """Whether two boxes (``_box``) share more than an edge."""
    across = min(a[2][0], b[2][0]) - max(a[0][0], b[0][0])
    along = min(a[2][1], b[2][1]) - max(a[0][1], b[0][1])
    return across > 0 and along > 0


def _centre(poly: list[list[float]]) -> list[float]:
    return [_r(sum(p[0] for p in poly) / len(poly)), _r(sum(p[1] for p in poly) / len(poly))]


def _card(rng: random.Random, keywords: tuple[str, ...], extra: tuple[str, ...] = ()) -> dict:
    weapons = []
    for i in range(rng.randint(1, 2)):
        w: dict[str, Any] = {
            "name": f"W{i}",
            "power": rng.randint(1, 6),
            "range": rng.choice([1, 3, 6, 10, 14]),
        }
        roll = rng.random()
        if roll < 0.25:
            w["aa"] = True
        elif roll < 0.35:
            # Only Power 3+ damages a structure: a weaker buildings-only weapon is refused.
            w["buildings_only"], w["power"] = True, max(w["power"], 3)
        elif roll < 0.45:
            w["min_size"], w["max_size"] = 1, rng.randint(1, 3)
        if rng.random() < 0.2:
            w["uses"] = rng.randint(1, 2)
        weapons.append(w)
    kws = set(rng.sample(keywords, rng.randint(0, 3))) | set(extra)
    return {
        "name": "Card",
        "skill": rng.randint(2, 5),
        "move": rng.choice([3, 4, 6, 8]),
        "resistance": rng.randint(0, 5),
        "hits": rng.randint(1, 3),
        "size": (size := rng.randint(1, 5)),
        "melee": printed_melee(rng.choice([None, None, 3, 5]), size),
        "weapons": weapons,
        "keywords": sorted(kws),
        "enters": rng.sample(["woods", "water"], rng.randint(0, 2)),
    }


def scenario(seed: int) -> dict[str, Any]:
    """A scenario dict (``docs/scenario.md``) for ``seed``; the same seed, the same scenario."""
    rng = random.Random(seed)
    ruleset = "combined_arms" if seed % 2 == 0 else "one_year_war"
    keywords = CA_KEYWORDS if ruleset == "combined_arms" else OYW_KEYWORDS
    terrain: list[dict[str, Any]] = []
    buildings: list[dict[str, Any]] = []

    def add(kind: str, poly: list[list[float]]) -> None:
        terrain.append({"id": f"t{len(terrain)}", "kind": kind, "polygon": poly})

    # A building with a hazard at its wall: a strip inside along one wall, one outside against
    # it, or rubble over the whole footprint.
    for i in range(rng.randint(1, 2)):
        x, y = rng.uniform(5, 15), rng.uniform(7, 13)
        w, h = rng.uniform(2.5, 4), rng.uniform(2.5, 4)
        poly = _box(x, y, w, h)
        if buildings and _overlap(poly, buildings[0]["polygon"]):
            # Buildings may meet but not overlap: the second stands clear to the right.
            poly = _box(buildings[0]["polygon"][1][0] + 1, y, w, h)
        (x0, y0), (_, y1) = poly[0], poly[2]
        lo = rng.randint(1, 3)
        buildings.append(
            {
                "id": f"h{i}",
                "polygon": poly,
                "card": {
                    "name": "House",
                    "resistance": rng.randint(1, 4),
                    "hits": rng.randint(1, 2),
                    "admits": rng.choice([None, {"min_size": lo, "max_size": lo + 1}]),
                },
            }
        )
        where = rng.choice(["inside", "outside", "over"])
        kind = rng.choice(HAZARDS)
        if where == "inside":
            add(kind, [[x0, y0], [_r(x0 + 0.8), y0], [_r(x0 + 0.8), y1], [x0, y1]])
        elif where == "outside":
            add(kind, [[_r(x0 - 1.2), y0], [x0, y0], [x0, y1], [_r(x0 - 1.2), y1]])
        else:
            add(kind, [list(p) for p in poly])
    # Overlapping pieces: rubble in a wood, a wood on a hill, hazards across each other.
    for _ in range(rng.randint(2, 4)):
        x, y = rng.uniform(1, 20), rng.uniform(2, 20)
        w, h = rng.uniform(2, 6), rng.uniform(2, 6)
        outer = rng.choice(["woods", "hill", "rubble", "water", "hazard"])
        add(outer, _box(x, y, w, h))
        if rng.random() < 0.7:
            inner = rng.choice(["rubble", "woods", "hill", "wall", "river"])
            add(inner, _box(x + rng.uniform(-1, w - 1), y + rng.uniform(-1, h - 1), 1.5, 1.5))
    for _ in range(rng.randint(0, 2)):
        add(rng.choice(KINDS), _box(rng.uniform(0, 22), rng.uniform(0, 22), 1.5, 3))
    # A long hill (or wood) with something else that blocks sight across its middle, and a
    # unit of each side on it: in one piece, but with another between them.
    band = rng.random() < 0.5
    if band:
        add(rng.choice(["hill", "woods"]), _box(2, 16, 20, 3))
        add(rng.choice(["rubble", "woods", "hill"]), _box(rng.uniform(9, 13), 15.5, 1.5, 4))

    sides = []
    uid = 0
    covers = [b["polygon"] for b in buildings] + [
        t["polygon"] for t in terrain if t["kind"] in ("woods", "hill")
    ]
    for si, sid in enumerate(("blue", "red")):
        units = []
        # A flier over a building or a wood, where the rules' corners are.
        flier = _card(rng, keywords, ("aerial",))
        units.append(
            {
                "id": f"u{uid}",
                "card": flier,
                "position": _centre(rng.choice(covers)),
                "facing": 0,
                "order": {"kind": "attack"},
            }
        )
        uid += 1
        for _ in range(rng.randint(2, 4)):
            units.append(
                {
                    "id": f"u{uid}",
                    "card": _card(rng, keywords),
                    "position": [_r(rng.uniform(1, 23)), _r(rng.uniform(0, 7) + 17 * si)],
                    "facing": rng.choice([0, 90, 180, 270]),
                    "order": {"kind": rng.choice(["attack", "advance", "hold", "screen"])},
                }
            )
            uid += 1
        if band:
            card = _card(rng, keywords)
            card["enters"] = ["woods"]
            card["weapons"][0].update(range=14, power=4)
            card["keywords"] = [k for k in card["keywords"] if k != "aerial"]
            units.append(
                {
                    "id": f"u{uid}",
                    "card": card,
                    "position": [_r(rng.uniform(3, 7) + 13 * si), _r(rng.uniform(16.5, 18.5))],
                    "facing": 180 * (1 - si),
                    "order": {"kind": "hold"},
                }
            )
            uid += 1
        sides.append({"id": sid, "name": sid.title(), "units": units})
    objectives: list[dict[str, Any]] = [
        {
            "id": "o0",
            "point": [_r(rng.uniform(6, 18)), _r(rng.uniform(8, 16))],
            "radius": rng.choice([2, 3]),
            "sides": rng.sample(["blue", "red"], rng.randint(1, 2)),
            "points_per_turn": rng.randint(0, 2),
            "points_at_end": rng.randint(1, 3),
        }
    ]
    if rng.random() < 0.5:
        objectives.append(
            {"id": "o1", "kind": "raze", "building": "h0", "sides": ["red"], "points_at_end": 3}
        )
    return {
        "name": f"Random {seed}",
        "ruleset": ruleset,
        "turn_limit": rng.randint(4, 7),
        "terrain": terrain,
        "buildings": buildings,
        "objectives": objectives,
        "sides": sides,
    }


def parsed(seed: int) -> Any:
    """The scenario for ``seed``, parsed; units the loader refuses where they stand are moved.

    A unit deployed inside terrain it may not enter is refused: it steps aside, up to a few
    times, and is dropped if it still cannot stand anywhere (a flier never is).
    """
    from battles.engine import ScenarioError, parse_scenario

    data = scenario(seed)
    rng = random.Random(seed * 7919 + 1)
    for _ in range(40):
        try:
            return parse_scenario(data)
        except ScenarioError as exc:
            text = str(exc)
            moved = False
            for side in data["sides"]:
                for i, u in enumerate(side["units"]):
                    if f"units[{i}]" in text and f"sides[{data['sides'].index(side)}]" in text:
                        u["position"] = [_r(rng.uniform(0, 24)), _r(rng.uniform(0, 24))]
                        moved = True
            if not moved:
                raise
    return parse_scenario(data)
