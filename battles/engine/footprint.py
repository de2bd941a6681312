"""Measuring to a building: the nearest point of its footprint.

A building is large; a tape measure goes to its nearest wall, not to its centre. Geometry has
no nearest-point helper, so it lives here.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .geometry import Point, Polygon


def nearest_point(poly: Polygon, p: Point) -> Point:
    """The point of ``poly`` (boundary included) nearest to ``p``; ``p`` itself if inside."""
    if poly.contains(p):
        return p
    best: Point = p
    best_d = math.inf
    pts = poly.points
    px, py = p
    for i in range(len(pts)):
        ax, ay = pts[i]
        bx, by = pts[(i + 1) % len(pts)]
        dx, dy = bx - ax, by - ay
        L2 = dx * dx + dy * dy
        t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / L2))
        qx, qy = ax + t * dx, ay + t * dy
        d = (qx - px) ** 2 + (qy - py) ** 2
        if d < best_d:
            best_d, best = d, (qx, qy)
    return best
