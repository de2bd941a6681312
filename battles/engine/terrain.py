"""Terrain pieces: a polygon with the two properties of the rules, plus hazard, wall and water."""

from __future__ import annotations

from dataclasses import dataclass

from .geometry import Polygon


@dataclass(frozen=True, slots=True)
class TerrainProps:
    """What a piece of terrain does, independent of where it lies."""

    kind: str
    """Free name (woods, rubble, river, wall, water, hill…); cards' ``enters`` lists name kinds."""
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

KIND_NAMES: dict[str, str] = {"rubble field": "rubble"}
"""Other names for a kind: the rule text's "rubble field" (what building cards say they become)."""


def kind_defaults(name: str) -> TerrainProps | None:
    """The default properties of a kind given by name or other name; None for an unknown kind."""
    return KIND_DEFAULTS.get(KIND_NAMES.get(name, name))


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
