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


def text_box(text: str, x: float, y: float, size: float = LABEL_SIZE) -> Box:
    """The room a centred label takes, from its baseline ``y``."""
    half = len(text) * GLYPH * size / 2
    return (x - half, y - size * 0.8, x + half, y + size * 0.25)


def _meets(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def place_labels(
    pieces: list[tuple[str, str, Box, tuple[float, float]]], taken: list[Box]
) -> dict[str, Spot]:
    """A spot for each of ``pieces`` — (id, name, the piece's bounding box, its centre) — clear
    of the ``taken`` boxes and of each other, numbered in order where the name does not fit."""
    taken = list(taken)
    spots: dict[str, Spot] = {}
    number = 0
    for piece, name, (left, top, right, bottom), (cx, cy) in pieces:
        baseline = cy + LABEL_SIZE * 0.3  # the label's middle on the piece's centre
        tries = _heights(baseline, top, bottom)
        fits = len(name) * GLYPH * LABEL_SIZE <= right - left + SPILL
        spot = None
        if fits:
            spot = next((y for y in tries if not clashes(text_box(name, cx, y), taken)), None)
        if spot is not None:
            spots[piece] = Spot(name, cx, spot, False)
        else:
            number += 1
            text = str(number)
            y = next((y for y in tries if not clashes(text_box(text, cx, y), taken)), baseline)
            spots[piece] = Spot(text, cx, y, True)
        taken.append(text_box(spots[piece].text, cx, spots[piece].y))
    return spots


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
