"""The tabletop as drawing data: terrain, buildings, objectives and units in SVG coordinates.

Pure functions of a validated ``Scenario``, shared by the set-up preview, the map replay and any
other page that shows a table. The scenario measures y upwards from the table's near edge; SVG
measures it downwards, so every y is flipped here, in one place, and templates and scripts use
the numbers as they come.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from battles.engine import Scenario
from battles.engine.geometry import table_size_text
from battles.engine.scenario import ObjectiveKind
from battles.map_labels import LABEL_SIZE, Box, clashes, place_labels, text_box
from battles.names import Names, scenario_names
from units.words import plural

GRID_STEP = 6
"""Inches between the heavier grid lines (a 24" table shows a 4 × 4 grid)."""

MARGIN = 1.2
"""Room around the table for the axis labels, in inches."""

CROWDED = 16
"""Above this many units the ids under the markers overlap; only the active unit keeps its id
(every marker still has its full description as a tooltip and for screen readers)."""

TERRAIN_CLASSES = {"woods", "hill", "rubble", "river", "hazard", "wall", "water", "open"}
"""Terrain kinds with a style of their own; any other kind is drawn as ``terrain-other``."""


def table_named(
    table: TableView,
    names: dict[str, str],
    *,
    labels: dict[str, str] | None = None,
    side_names: dict[str, str] | None = None,
    colours: dict[str, str] | None = None,
) -> TableView:
    """The same table in a campaign's words: units tagged by ``names`` (unit id → name) instead
    of their ids, described by ``labels`` ("Iron Wolf (Blue Battalion)"), each in its force's
    colour (``colours``); the sides called by ``side_names``. Only the units already drawn are
    named: a unit fog hid stays out."""
    labels, side_names, colours = labels or {}, side_names or {}, colours or {}
    units = tuple(
        replace(
            u,
            tag=names.get(u.id, u.tag),
            label=f"{labels[u.id]}: {u.name}, Size {u.size}, {plural(u.hits, 'Hit')}, "
            f"Skill {u.skill}"
            if u.id in labels
            else u.label,
            colour=colours.get(u.id, u.colour),
        )
        for u in table.units
    )
    description = table.description
    for side, name, _ in table.sides:
        if side in side_names:
            description = description.replace(f"of {name}", f"of {side_names[side]}")
    sides = tuple((s, side_names.get(s, name), i) for s, name, i in table.sides)
    return replace(table, units=units, sides=sides, description=description)


def unit_radius(size: int) -> float:
    """Radius of a unit's marker: bigger units look bigger, Size 1 still easy to see."""
    return round(0.3 + 0.1 * size, 2)


def drawing_order(marks: Iterable[UnitMark]) -> tuple[UnitMark, ...]:
    """``marks`` in the order the map draws them, each over those before it: the biggest
    first, the scenario's order among units of one Size. Two units may stand on the same ground
    (an assault ends in contact, a tank on an infantry squad): drawn last, the smaller circle
    sits on the bigger one, and both are seen and tapped (`map-tap.js` reaches the one drawn
    last, on top); drawn first, it was hidden whole under the bigger."""
    return tuple(sorted(marks, key=lambda mark: -mark.size))


def fmt(x: float) -> str:
    """A coordinate for SVG: at most three decimals, no trailing zeros."""
    text = f"{x:.3f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


@dataclass(frozen=True, slots=True)
class Piece:
    """A terrain piece or a building's footprint."""

    id: str
    """Its id in the scenario."""
    kind: str
    """Terrain kind, or ``building``."""
    css: str
    """Class names for the polygon."""
    points: str
    """The SVG ``points`` attribute."""
    label: str
    """What a reader is told about it (the ``<title>``)."""
    cx: str
    """Where its label goes (its centroid, or off it to clear another label)."""
    cy: str
    name: str = ""
    """What the map writes on it: its name, or its number in the map's key."""
    name_beside: bool = False
    """A building's name written off the building, beside it, in the map's dark ink
    (`map_labels.Spot.beside`)."""


@dataclass(frozen=True, slots=True)
class ObjectiveMark:
    """An objective: a circle of its radius for ground to hold, a marked building to raze."""

    id: str
    kind: str
    """``hold`` or ``raze``."""
    label: str
    cx: str
    cy: str
    r: str
    """Radius in inches (hold objectives)."""
    points: str
    """The building's outline (raze objectives)."""
    label_y: str = ""
    """Where its id goes (hold objectives): just above the circle, or below it at the table's
    far edge; objectives sharing a circle stack their ids."""
    name: str = ""
    """What the map writes beside it."""
    sides: tuple[str, ...] = ()
    """The ids of the sides it scores for."""


@dataclass(frozen=True, slots=True)
class UnitMark:
    """A unit where it stands at deployment."""

    id: str
    side: str
    side_index: int
    """0 or 1: which side's colour it wears."""
    name: str
    size: int
    hits: int
    skill: int
    r: str
    x: str
    y: str
    label_y: str
    """Where the id goes, under the marker (relative to its centre)."""
    position: str
    """Where it stands in table inches, as the scenario gives it."""
    label: str
    """Full description for screen readers and tooltips."""
    tag: str = ""
    """The name written under the marker, when not its id (a campaign names its units)."""
    colour: str = ""
    """Its own fill, when not its side's (a campaign's force colour)."""


@dataclass(frozen=True, slots=True)
class TableView:
    """Everything needed to draw one table."""

    width: float
    height: float
    view_box: str
    grid: tuple[tuple[str, str, str, str, bool], ...]
    """Grid lines (x1, y1, x2, y2, major)."""
    ticks: tuple[tuple[str, str, str], ...]
    """Axis labels (x, y, text)."""
    terrain: tuple[Piece, ...]
    buildings: tuple[Piece, ...]
    objectives: tuple[ObjectiveMark, ...]
    units: tuple[UnitMark, ...]
    """In the order drawn: the biggest first (`drawing_order`)."""
    sides: tuple[tuple[str, str, int], ...]
    """(id, name, index) for each side, in scenario order."""
    description: str
    """One sentence about the whole table, for the SVG's ``<desc>``."""
    crowded: bool
    """Too many units to label them all."""
    key: tuple[tuple[str, str], ...] = ()
    """(number, name) for the pieces whose names the map could not write on them."""


def table_view(
    scenario: Scenario, *, unseen: frozenset[str] = frozenset(), names: Names | None = None
) -> TableView:
    """The drawing of ``scenario``'s table at deployment, every piece called by ``names``
    (by default as ``battles.names`` calls them).

    ``unseen`` are the units the viewer's side could not see there (fog of war): they are not
    drawn at all, so neither the page's source nor the page without its script places them.
    """
    names = names or scenario_names(scenario)
    w, h = scenario.width, scenario.height

    def points(poly) -> str:
        return " ".join(f"{fmt(x)},{fmt(h - y)}" for x, y in poly.points)

    terrain = tuple(
        Piece(
            t.id,
            t.kind,
            "terrain terrain-" + (t.kind if t.kind in TERRAIN_CLASSES else "other"),
            points(t.polygon),
            f"{names.terrain[t.id]}: {t.kind}",
            fmt(t.polygon.centroid[0]),
            fmt(h - t.polygon.centroid[1]),
            names.terrain[t.id],
        )
        for t in scenario.terrain
    )
    buildings = tuple(
        Piece(
            b.id,
            "building",
            "building",
            points(b.polygon),
            f"{names.buildings[b.id]} ({b.card.name}): Resistance {b.card.resistance}, "
            f"{plural(b.card.hits, 'Hit')}",
            fmt(b.polygon.centroid[0]),
            fmt(h - b.polygon.centroid[1]),
            names.buildings[b.id],
        )
        for b in scenario.buildings
    )
    side_names = {s.id: s.name for s in scenario.sides}
    index = {s.id: i for i, s in enumerate(scenario.sides)}
    units = drawing_order(
        UnitMark(
            u.id,
            u.side,
            index[u.side],
            u.card.name,
            u.card.size,
            u.card.hits,
            u.card.skill,
            fmt(unit_radius(u.card.size)),
            fmt(u.position[0]),
            fmt(h - u.position[1]),
            fmt(unit_radius(u.card.size) + 0.45),
            f"{fmt(u.position[0])}, {fmt(u.position[1])}",
            f"{names.units[u.id]}, {side_names[u.side]}: {u.card.name}, Size {u.card.size}, "
            f"{plural(u.card.hits, 'Hit')}, Skill {u.card.skill}",
            names.units[u.id],
        )
        for u in scenario.units()
        if u.id not in unseen
    )
    # What the labels written later keep clear of: the markers and the names under them.
    taken = _unit_boxes(units)
    footprints = {b.id: b.polygon for b in scenario.buildings}
    objectives = []
    circles: list[tuple[tuple[float, float], float]] = []
    for o in scenario.objectives:
        for_sides = " and ".join(side_names[s] for s in o.sides)
        award = _award_text(o.points_per_turn, o.points_at_end)
        if o.kind is ObjectiveKind.RAZE:
            assert o.building is not None
            poly = footprints[o.building]
            objectives.append(
                ObjectiveMark(
                    o.id,
                    "raze",
                    f"Objective: {for_sides} must raze {names.objective(o.id)} ({award})",
                    fmt(poly.centroid[0]),
                    fmt(h - poly.centroid[1]),
                    "0",
                    points(poly),
                    name=names.objective(o.id),
                    sides=tuple(o.sides),
                )
            )
        else:
            assert o.point is not None
            circle = (o.point, o.radius)
            stacked = circles.count(circle)
            circles.append(circle)
            label_y = _objective_label_y(
                names.objective(o.id), o.point[0], h - o.point[1], o.radius, stacked, h, taken
            )
            taken.append(text_box(names.objective(o.id), o.point[0], label_y))
            objectives.append(
                ObjectiveMark(
                    o.id,
                    "hold",
                    f"Objective {names.objective(o.id)}: {for_sides} must hold within "
                    f"{fmt(o.radius)}″ ({award})",
                    fmt(o.point[0]),
                    fmt(h - o.point[1]),
                    fmt(o.radius),
                    "",
                    fmt(label_y),
                    names.objective(o.id),
                    sides=tuple(o.sides),
                )
            )
    terrain, buildings, key = _labelled(scenario, terrain, buildings, taken)
    return TableView(
        width=w,
        height=h,
        view_box=f"{fmt(-MARGIN)} {fmt(-0.4)} {fmt(w + 2 * MARGIN)} {fmt(h + MARGIN + 0.4)}",
        grid=_grid(w, h),
        ticks=_ticks(w, h),
        terrain=terrain,
        buildings=buildings,
        objectives=tuple(objectives),
        units=units,
        sides=tuple((s.id, s.name, i) for i, s in enumerate(scenario.sides)),
        crowded=len(units) > CROWDED,
        key=key,
        description=_description(scenario, terrain, buildings, objectives, units),
    )


def _description(
    scenario: Scenario,
    terrain: tuple[Piece, ...],
    buildings: tuple[Piece, ...],
    objectives: list[ObjectiveMark],
    units: tuple[UnitMark, ...],
) -> str:
    """One sentence about the whole table; the units counted are those drawn (a unit fog hides
    is not), and a table drawn with none (a campaign's set-up, before its units stand there)
    speaks of the table alone."""
    size = table_size_text(fmt(scenario.width), fmt(scenario.height))
    pieces = [
        plural(len(terrain), "terrain piece"),
        plural(len(buildings), "building"),
        plural(len(objectives), "objective"),
    ]
    if not units:
        return f"A {size} table with {pieces[0]}, {pieces[1]} and {pieces[2]}."
    counts = [(sum(u.side == s.id for u in units), s.name) for s in scenario.sides]
    forces = " against ".join(
        f"{plural(count, 'unit')} of {name}" if count else f"no unit of {name} in sight"
        for count, name in counts
    )
    return f"A {size} table with {', '.join(pieces)} and {forces}."


def _labelled(
    scenario: Scenario,
    terrain: tuple[Piece, ...],
    buildings: tuple[Piece, ...],
    taken: list[Box],
) -> tuple[tuple[Piece, ...], tuple[Piece, ...], tuple[tuple[str, str], ...]]:
    """The pieces with their labels placed by ``place_labels`` clear of what is ``taken`` (the
    units' markers and names, the objectives' names), buildings first: they are smaller, and
    objectives stand on them; and the map's key."""
    h = scenario.height
    polygons = {t.id: t.polygon for t in scenario.terrain}
    polygons.update({b.id: b.polygon for b in scenario.buildings})

    def bbox(piece: Piece) -> tuple[float, float, float, float]:
        x0, y0, x1, y1 = polygons[piece.id].bbox
        return (x0, h - y1, x1, h - y0)

    pieces = (*buildings, *terrain)
    spots = place_labels(
        [(p.id, p.name, bbox(p), (float(p.cx), float(p.cy))) for p in pieces],
        taken,
        light=frozenset(b.id for b in buildings),
        table=(0.0, 0.0, float(scenario.width), float(h)),
    )

    def placed(piece: Piece) -> Piece:
        spot = spots[piece.id]
        return replace(
            piece, name=spot.text, cx=fmt(spot.x), cy=fmt(spot.y), name_beside=spot.beside
        )

    key = tuple((spots[p.id].text, p.name) for p in pieces if spots[p.id].keyed)
    return tuple(map(placed, terrain)), tuple(map(placed, buildings)), key


OBJECTIVE_LABEL_STEP = LABEL_SIZE + 0.1
"""Inches between the names of objectives that share one circle (as tall as on a phone)."""


def _objective_label_y(
    name: str, x: float, y: float, radius: float, stacked: int, height: float, taken: list[Box]
) -> float:
    """SVG y of a hold objective's name: above its circle, or below it when the circle reaches
    the table's far edge or a unit or another name stands above, or over its centre when it
    spans the table; ``stacked`` earlier objectives on the same circle push it further out."""
    step = stacked * OBJECTIVE_LABEL_STEP
    above = y - radius - 0.2 - step
    below = y + radius + 0.6 + step
    on_table = [spot for spot in (above, below) if 0.5 <= spot <= height - 0.1]
    clear = [spot for spot in on_table if not clashes(text_box(name, x, spot), taken)]
    return (clear or on_table or [y - 0.35 - step])[0]


UNIT_LABEL_SIZE = 0.42
"""Height of the name under a unit's marker where it is written (``.unit-label``: on a phone
only the active unit's is)."""


def _unit_boxes(units: tuple[UnitMark, ...]) -> list[Box]:
    """The room each unit's marker takes, and the name under it (on a crowded table only the
    active unit's name is written: its markers alone are kept clear of)."""
    named = len(units) <= CROWDED
    boxes = []
    for u in units:
        x, y, r = float(u.x), float(u.y), float(u.r)
        boxes.append((x - r, y - r, x + r, y + r))
        if named:
            boxes.append(text_box(u.tag or u.id, x, y + float(u.label_y), UNIT_LABEL_SIZE))
    return boxes


def _award_text(per_turn: int, at_end: int) -> str:
    parts = []
    if per_turn:
        parts.append(f"{per_turn} per turn")
    if at_end:
        parts.append(f"{at_end} at the end")
    return ", ".join(parts)


def _grid(w: float, h: float) -> tuple[tuple[str, str, str, str, bool], ...]:
    lines = []
    x = 1
    while x < w:
        lines.append((fmt(x), "0", fmt(x), fmt(h), x % GRID_STEP == 0))
        x += 1
    y = 1
    while y < h:
        lines.append(("0", fmt(h - y), fmt(w), fmt(h - y), y % GRID_STEP == 0))
        y += 1
    return tuple(lines)


def _ticks(w: float, h: float) -> tuple[tuple[str, str, str], ...]:
    ticks = []
    for x in range(0, int(w) + 1, GRID_STEP):
        ticks.append((fmt(x), fmt(h + 0.9), f"{x}″"))
    for y in range(0, int(h) + 1, GRID_STEP):
        ticks.append((fmt(-0.3), fmt(h - y + 0.2), f"{y}″"))
    return tuple(ticks)
