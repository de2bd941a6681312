"""Where the map writes the names of its terrain pieces and buildings, so that they stay
readable on a phone and clear of each other.

A name is written on its piece when it fits the piece's width and no label already written
(an objective's, another piece's) is in the way, moved up or down a line if that clears it.
Otherwise the piece gets a number, and the map's key says what the number stands for. The
sizes are those of the phone's stylesheet (``.terrain-label`` under ``max-width: 40rem``), the
largest the labels are drawn, so what fits there fits everywhere. Coordinates are SVG's (y
down), as ``battles.table`` gives them.
"""

from __future__ import annotations

from dataclasses import dataclass

LABEL_SIZE = 0.7
"""Height of a terrain or objective label on a phone, in inches of the table."""

GLYPH = 0.56
"""An average character's width, as a fraction of the label's height."""

SPILL = 1.0
"""How much wider than its piece a name may be written (half an inch each side)."""

Box = tuple[float, float, float, float]
"""(left, top, right, bottom)."""


@dataclass(frozen=True, slots=True)
class Spot:
    """Where a piece's label goes and what it says."""

    text: str
    x: float
    y: float
    """The baseline, as SVG's ``<text y>`` takes it."""
    keyed: bool
    """True when ``text`` is a number standing for the name in the map's key."""
    beside: bool = False
    """True when a name that must be written wholly on its piece or wholly off it (`place_labels`'
    ``light``) is written off it, beside the piece, in the map's dark ink."""


def text_box(text: str, x: float, y: float, size: float = LABEL_SIZE) -> Box:
    """The room a centred label takes, from its baseline ``y``."""
    half = len(text) * GLYPH * size / 2
    return (x - half, y - size * 0.8, x + half, y + size * 0.25)


def _meets(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


MARGIN = 0.15
"""How far inside its piece's edges a light name stays, clear of the outline (`place_labels`)."""

HALO = 0.1
"""Room kept for the halo round a name's letters (``.terrain-label``'s stroke, .14 wide, reaches
.07 past them, and the letters' own box already touched the piece): a name written beside its
piece keeps its halo off the piece too."""


def place_labels(
    pieces: list[tuple[str, str, Box, tuple[float, float]]],
    taken: list[Box],
    light: frozenset[str] = frozenset(),
    table: Box | None = None,
) -> dict[str, Spot]:
    """A spot for each of ``pieces`` — (id, name, the piece's bounding box, its centre) — clear
    of the ``taken`` boxes and of each other, numbered in order where the name does not fit.

    The ``light`` pieces' names (a building's, written in white on its dark roof) are read only
    on the piece: each goes wholly on it, ``MARGIN`` inside its edges, or else wholly off it,
    just above or below, to be written in the map's dark ink (`Spot.beside`); half on the edge,
    "Farmhouse" lost its first letter and its tops to the pale ground round it on a phone. A
    piece less tall than a name (a wall, `_hidden_under_a_name`) has its name just above or below
    it, as a light name off its piece: written on it, "lane wall" hid the wall whole. No label is
    written past the edges of the ``table``, where the map ends."""
    taken = list(taken)
    spots: dict[str, Spot] = {}
    number = 0
    for piece, name, (left, top, right, bottom), (cx, cy) in pieces:
        baseline = cy + LABEL_SIZE * 0.3  # the label's middle on the piece's centre
        if piece in light:
            tries = [(y, False) for y in _heights_on(baseline, top, bottom)]
            tries += [(y, True) for y in _heights_beside(top, bottom)]
            room = right - left - 2 * MARGIN
        elif _hidden_under_a_name(top, bottom):
            tries = [(y, True) for y in _heights_beside(top, bottom)]
            room = right - left + SPILL
        else:
            tries = [(y, False) for y in _heights(baseline, top, bottom)]
            room = right - left + SPILL
        spot = _free(name, cx, tries, room, taken, table)
        if spot is not None:
            spots[piece] = Spot(name, cx, spot[0], False, spot[1])
        else:
            number += 1
            text = str(number)
            y, beside = _free(text, cx, tries, room, taken, table) or (baseline, False)
            spots[piece] = Spot(text, cx, y, True, beside)
        taken.append(text_box(spots[piece].text, cx, spots[piece].y))
    return spots


def _free(
    text: str,
    x: float,
    tries: list[tuple[float, bool]],
    room: float,
    taken: list[Box],
    table: Box | None,
) -> tuple[float, bool] | None:
    """The first of ``tries`` — (a baseline, whether it is off the piece) — where ``text`` is
    clear of ``taken`` and on the ``table``, and on the piece only as wide as its ``room``."""
    for y, beside in tries:
        box = text_box(text, x, y)
        fits = beside or len(text) * GLYPH * LABEL_SIZE <= room
        on_table = table is None or _within(box, table)
        if fits and on_table and not clashes(box, taken):
            return y, beside
    return None


def _hidden_under_a_name(top: float, bottom: float) -> bool:
    """Whether a piece from ``top`` to ``bottom`` is less tall than a name and its halo: a name
    written across it hides it."""
    _, above, _, below = text_box("", 0.0, 0.0)
    return bottom - top < below - above + 2 * HALO


def _within(box: Box, table: Box) -> bool:
    return table[0] <= box[0] and table[1] <= box[1] and box[2] <= table[2] and box[3] <= table[3]


def clashes(box: Box, taken: list[Box]) -> bool:
    """Whether ``box`` meets any of ``taken``."""
    return any(_meets(box, other) for other in taken)


LINE = LABEL_SIZE * 1.1
"""One line of labels, baseline to baseline."""


def _heights(baseline: float, top: float, bottom: float) -> list[float]:
    """The baselines a piece's label is tried at, best first: on the piece's centre, a line or
    two up or down while still on the piece, along its top and bottom edges inside it, then just
    outside it, above and below (a unit standing on a small building leaves no room on it)."""
    inside = [
        y
        for y in (baseline - LINE, baseline + LINE, baseline - 2 * LINE, baseline + 2 * LINE)
        if top + LABEL_SIZE * 0.8 <= y <= bottom - LABEL_SIZE * 0.25
    ]
    edges = [top + LABEL_SIZE * 0.9, bottom - LABEL_SIZE * 0.35]
    outside = [top - LABEL_SIZE * 0.35, bottom + LABEL_SIZE * 0.9]
    return [baseline, *inside, *(y for y in edges if top < y < bottom), *outside]


def _heights_on(baseline: float, top: float, bottom: float) -> list[float]:
    """The baselines a light name is tried at on its piece (`place_labels`): on its centre, then
    a line or two up or down, and along its top and bottom edges, each ``MARGIN`` inside them."""
    highest = top + MARGIN + LABEL_SIZE * 0.9  # the font's whole height, as `_heights`' edges
    lowest = bottom - MARGIN - LABEL_SIZE * 0.35
    tries = [baseline + k * LINE for k in (0, -1, 1, -2, 2)] + [highest, lowest]
    return [y for y in tries if highest <= y <= lowest]


def _heights_beside(top: float, bottom: float) -> list[float]:
    """The baselines a light name is tried at off its piece, ``MARGIN`` and its ``HALO`` clear of
    its top edge and of its bottom edge (as `_heights`' spots just outside a piece, from the
    font's whole height)."""
    clear = MARGIN + HALO
    return [top - clear - LABEL_SIZE * 0.35, bottom + clear + LABEL_SIZE * 0.9]
