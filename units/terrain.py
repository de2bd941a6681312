"""Terrain types as data: what a kind of ground does on the table.

The library's `terrain.json` maps a terrain type's name to its properties, in the engine's
terms (rulings.md, "Geometry"): the kind cards name under "Enters", whether it blocks movement
and sight, whether entering it is a hazard (a terrain roll), whether it is a wall (a hazard
Sure-Footed does not excuse) and whether it is water (Amphibious units move doubled in it),
plus a sentence saying why. Rubble never blocks movement, by the engine's own rule (E38 in
docs/rules.md). `terrain_text` says what a type does in words, for the card library. Plain
Python, no Django.
"""

from __future__ import annotations

from typing import Any

from battles.engine.terrain import TerrainProps, movement_refusal
from units.carddata import FieldError, terrain_kind_problem
from units.words import value_shown

TERRAIN_FLAGS = ("blocks_movement", "blocks_sight", "hazard", "wall", "water")
TERRAIN_FIELDS = ("kind", *TERRAIN_FLAGS, "why")


class TerrainError(FieldError):
    """A terrain type that breaks the rules; `field` names what is wrong."""


def validate_terrain(props: Any) -> None:
    """Raise `TerrainError` unless `props` is a valid terrain type."""
    if not isinstance(props, dict):
        raise TerrainError("terrain", f"must be a mapping, got {type(props).__name__}")
    for key in props:
        if key not in TERRAIN_FIELDS:
            raise TerrainError(key, "unknown field")
    kind = props.get("kind")
    if problem := terrain_kind_problem(kind):
        raise TerrainError("kind", problem)
    for flag in TERRAIN_FLAGS:
        if not isinstance(props.get(flag), bool):
            raise TerrainError(flag, f"must be true or false, got {value_shown(props.get(flag))}")
    if props["wall"] and not props["hazard"]:
        raise TerrainError("wall", "a wall is a hazard: set hazard to true as well")
    # The engine's rule, as a scenario's terrain has it: rubble never blocks movement (E38).
    refusal = movement_refusal(TerrainProps(kind, **{f: props[f] for f in TERRAIN_FLAGS}))
    if refusal is not None:
        raise TerrainError("blocks_movement", refusal)
    why = props.get("why", "")
    if not isinstance(why, str):
        raise TerrainError("why", f"must be text, got {value_shown(why)}")


def terrain_text(props: dict[str, Any]) -> str:
    """What a terrain type does on the table, as a sentence for the card library: "Blocks
    movement (only Aerial units, Amphibious units and cards that list water under Enters go
    in); does not block sight; it is water: an Amphibious unit's movement is doubled in it."

    Said as the engine plays it (``UnitCard.may_enter``, the terrain roll, concealment), from
    the flags `validate_terrain` checks."""
    kind = props["kind"]
    if props["blocks_movement"]:
        goers = ["Aerial units"]
        if props["water"]:
            goers.append("Amphibious units")
        goers.append(f"cards that list {kind} under Enters")
        movement = f"blocks movement (only {', '.join(goers[:-1])} and {goers[-1]} go in)"
    else:
        movement = "does not block movement"
    if props["wall"]:
        roll = (
            "crossing it takes a terrain roll, even for Sure-Footed units (Aerial units need none)"
        )
    elif props["hazard"]:
        roll = "entering it takes a terrain roll (Sure-Footed and Aerial units need none)"
    else:
        roll = ""
    clauses = [
        movement + (("; " if props["blocks_movement"] else ", but ") + roll if roll else ""),
        "blocks sight, and hides the units inside it"
        if props["blocks_sight"]
        else "does not block sight",
    ]
    if props["water"]:
        clauses.append("it is water: an Amphibious unit's movement is doubled in it")
    text = "; ".join(clauses)
    return f"{text[0].upper()}{text[1:]}."
