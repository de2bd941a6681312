"""Terrain pieces: a polygon with the two properties of the rules, plus hazard, wall and water."""

from __future__ import annotations

from dataclasses import dataclass

from .geometry import Polygon


@dataclass(frozen=True, slots=True)
class TerrainProps:
    """What a piece of terrain does, independent of where it lies."""

    kind: str
    """The kind as ``kind_name`` reads it (woods, rubble, river, wall, water, hill…, or free text
    given its flags); cards' ``enters`` lists name kinds, read the same way."""
    blocks_movement: bool = False
    """Units may not enter it unless their card lists its kind in ``enters`` (or Amphibious)."""
    blocks_sight: bool = False
    """A line crossing it is blocked, and units inside it are concealed."""
    hazard: bool = False
    """Entering it needs a terrain roll (rubble, rivers, hazardous ground, walls)."""
    wall: bool = False
    """A hazard that Sure-Footed does not excuse."""
    water: bool = False
    """Lakes, sea, deep water: passable to Amphibious units at half cost."""


KIND_DEFAULTS: dict[str, TerrainProps] = {
    "woods": TerrainProps("woods", blocks_movement=True, blocks_sight=True),
    "hill": TerrainProps("hill", blocks_sight=True),
    "rubble": TerrainProps("rubble", blocks_sight=True, hazard=True),
    # A river is water (ruling E25): an Amphibious unit moves doubled in it, as in a lake.
    "river": TerrainProps("river", hazard=True, water=True),
    "hazard": TerrainProps("hazard", hazard=True),
    "wall": TerrainProps("wall", hazard=True, wall=True),
    "water": TerrainProps("water", blocks_movement=True, water=True),
    "open": TerrainProps("open"),
}
"""Properties a kind has unless the scenario says otherwise (explicit flags win)."""

KIND_NAMES: dict[str, str] = {
    # Combined Arms: "Units in the same rubble field"; building cards' "Becomes: rubble field".
    "rubble field": "rubble",
    # One Year War's Amphibious: "Lakes, sea, and deep water are not impassable to this unit."
    "lake": "water",
    "lakes": "water",
    "sea": "water",
    "deep water": "water",
    # Sure-Footed: "no Skill roll for rubble, rivers, hazardous ground. Not walls."
    "rivers": "river",
    "hazardous ground": "hazard",
    "walls": "wall",
    "hills": "hill",
    "wood": "woods",
    "forest": "woods",
}
"""Other names for a kind, in the rule texts' own words: each is that kind, with its defaults,
and a card that enters it enters the kind."""


def kind_name(name: str) -> str:
    """The kind ``name`` stands for, read without regard to case or spacing: another name of a
    kind gives the kind (``"Deep water"`` is ``water``); any other name is itself, folded
    (``"Marsh"`` is ``marsh``). The one reading of a kind for terrain and cards' ``enters``."""
    folded = " ".join(name.split()).casefold()
    return KIND_NAMES.get(folded, folded)


def known_kinds() -> list[str]:
    """Every name of a kind with defaults, the other names included, sorted (for refusals)."""
    return sorted({*KIND_DEFAULTS, *KIND_NAMES})


def kind_defaults(name: str) -> TerrainProps | None:
    """The default properties of a kind given by name or other name; None for an unknown kind."""
    return KIND_DEFAULTS.get(kind_name(name))


def movement_refusal(props: TerrainProps, *, fallen: bool = False) -> str | None:
    """Why ``props`` may not block movement, or None when it may (ruling E38).

    Rubble never blocks movement: units roll to cross it and stand in it. Nor does what a
    building becomes (``fallen``), whatever its kind: its occupants stand in it after the fall.
    The one rule for the scenario checker and the card library's terrain types alike.
    """
    if not props.blocks_movement:
        return None
    if kind_name(props.kind) == "rubble":
        return (
            "rubble does not block movement: units roll to cross it (Sure-Footed needs no roll) "
            "and units in the same rubble field see each other"
        )
    if fallen:
        return (
            f"what a building becomes may not block movement, and {props.kind!r} does: its "
            "occupants stand in it after the fall (each rolls Skill or takes 1 Hit) and fight on"
        )
    return None


@dataclass(frozen=True, slots=True)
class TerrainPiece:
    """A terrain piece on the table."""

    id: str
    """Unique id within the scenario (a collapsed building's rubble keeps the building's id)."""
    props: TerrainProps
    """What the piece does."""
    polygon: Polygon
    """Where it lies."""

    @property
    def kind(self) -> str:
        return self.props.kind
