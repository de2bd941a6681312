"""Scaled battles for the engine benchmark: N against N from the sample library, one fixed table.

Every size is fought on the same 24" x 24" table with the same terrain (the library's woods,
river, wall, lake and rubble field, a house and a factory), so only the number of units changes
between sizes. Both sides field the same mix of Combined Arms cards in the same order, half
ordered to attack and half to advance on the crossroads objective that both sides score.
"""

from __future__ import annotations

from typing import Any

from battles.library import Library, load_library, rubble_props

ROSTER = (
    "rifle_squad",
    "medium_tank",
    "heavy_weapons_team",
    "mech",
    "recon_vehicle",
    "assault_engineers",
    "attack_chopper",
    "expendable_mech",
)
"""Combined Arms cards in the order each side fields them (4v4 is the first four)."""

TURN_LIMIT = 6
"""Turns per battle at every size."""

# Terrain stays between y = 7 and y = 17, clear of both deployment zones.
_TERRAIN = (
    ("river", "river", [[0, 11.5], [24, 11.5], [24, 12.5], [0, 12.5]]),
    ("wood", "woods", [[2, 7.5], [6, 7.5], [6, 10.5], [2, 10.5]]),
    ("lake", "lake", [[19, 7.5], [22, 7.5], [22, 10], [19, 10]]),
    ("wall", "wall", [[9, 14], [14, 14], [14, 14.4], [9, 14.4]]),
    ("heaps", "rubble field", [[17, 13.5], [21, 13.5], [21, 16], [17, 16]]),
)
_BUILDINGS = (
    ("house", "house", [[10, 8], [13, 8], [13, 10.5], [10, 10.5]]),
    ("factory", "factory", [[3, 13.5], [7, 13.5], [7, 16.5], [3, 16.5]]),
)


def scaled_scenario(n: int, library: Library | None = None) -> dict[str, Any]:
    """A scenario document with ``n`` units a side (1..40), ready for ``parse_scenario``."""
    if not 1 <= n <= 40:
        raise ValueError(f"between 1 and 40 units a side, got {n}")
    library = library or load_library()
    terrain = [
        {"id": tid, **_piece(library, name), "polygon": polygon} for tid, name, polygon in _TERRAIN
    ]
    buildings = []
    for bid, key, polygon in _BUILDINGS:
        card = dict(library.cards["combined_arms"][key])
        card["rubble"] = rubble_props(library.terrain, card["rubble"])
        buildings.append({"id": bid, "card": card, "polygon": polygon})
    return {
        "name": f"Scaled {n}v{n}",
        "ruleset": "combined_arms",
        "turn_limit": TURN_LIMIT,
        "terrain": terrain,
        "buildings": buildings,
        "objectives": [
            {
                "id": "crossroads",
                "point": [12, 12],
                "radius": 3,
                "sides": ["south", "north"],
                "points_per_turn": 1,
                "points_at_end": 3,
            }
        ],
        "sides": [
            _side(library, "south", n, 1.0, 1.5, 90),
            _side(library, "north", n, 23.0, -1.5, 270),
        ],
    }


def _piece(library: Library, name: str) -> dict[str, Any]:
    return {k: v for k, v in library.terrain[name].items() if k != "why"}


def _side(
    library: Library, side: str, n: int, first_row: float, row_step: float, facing: int
) -> dict[str, Any]:
    """``n`` units in rows of up to ten, 2.2" apart, from the side's table edge inward."""
    per_row = min(n, 10)
    units = []
    for i in range(n):
        row, col = divmod(i, per_row)
        in_row = min(per_row, n - row * per_row)
        x = 12.0 + (col - (in_row - 1) / 2.0) * 2.2
        key = ROSTER[i % len(ROSTER)]
        order: dict[str, Any] = (
            {"kind": "attack"} if i % 2 else {"kind": "advance", "objective": "crossroads"}
        )
        units.append(
            {
                "id": f"{side}-{i:02d}-{key}",
                "card": library.unit("combined_arms", key).to_dict(),
                "position": [round(x, 3), first_row + row * row_step],
                "facing": facing,
                "order": order,
            }
        )
    return {"id": side, "name": side.title(), "units": units}
