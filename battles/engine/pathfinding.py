"""Shortest movement paths around obstacles: a visibility graph over corners, searched with A*.

A `PathFinder` is built once per set of obstacles (the pieces one unit may not enter) and answers
many queries; a scenario keeps its finders (`tables.ScenarioTables.finders`), so every battle
over its table reuses one graph. Pieces that touch seal the seam between them, and so does the
table edge; so does an obstacle's joint with a piece that is no obstacle (a wood against a hill,
deep water against a ford), which is inside the obstacle (E34). Costs come from `paths` (water
for Amphibious units, and its joints with other pieces, which are in the water too).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from itertools import count, pairwise

from .geometry import (
    _TAU,
    EPSILON,
    CostJoint,
    CostRegion,
    Point,
    Polygon,
    _clipped,
    _cross,
    _lerp,
    runs_along,
)
from .paths import path_cost, segment_cost

# Depth of the frames that stand in for "off the table" when a path hugs the table edge.
_FRAME_DEPTH = 1.0
# A PathFinder forgets its answers past this many (start, goal) pairs rather than grow forever.
_PATH_CACHE_SIZE = 4096


def _frames(bounds: tuple[float, float, float, float]) -> tuple[Polygon, ...]:
    """Four slabs just off the table, so the table edge acts like the edge of an obstacle.

    With them, a piece that touches the table edge seals it: no path slips between the two.
    """
    x0, y0, x1, y1 = bounds
    d = _FRAME_DEPTH
    return (
        Polygon(((x0 - d, y0 - d), (x0, y0 - d), (x0, y1 + d), (x0 - d, y1 + d))),
        Polygon(((x1, y0 - d), (x1 + d, y0 - d), (x1 + d, y1 + d), (x1, y1 + d))),
        Polygon(((x0 - d, y0 - d), (x1 + d, y0 - d), (x1 + d, y0), (x0 - d, y0))),
        Polygon(((x0 - d, y1), (x1 + d, y1), (x1 + d, y1 + d), (x0 - d, y1 + d))),
    )


def _free_wedges(sectors: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """The open directions around a point, given the (start, sweep) sectors that pieces fill.

    Returned as (low, high) angles with low in [0, 2π] and high > low (it may pass 2π). Sectors
    that meet edge to edge leave no gap between them: pieces that touch seal the seam.
    """
    filled: list[tuple[float, float]] = []
    for start, sweep in sectors:
        end = start + sweep
        if end > _TAU:
            filled += [(start, _TAU), (0.0, end - _TAU)]
        else:
            filled.append((start, end))
    filled.sort()
    merged: list[list[float]] = []
    for start, end in filled:
        if merged and start <= merged[-1][1] + EPSILON:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    free = []
    for i, (_, end) in enumerate(merged):
        following = merged[i + 1][0] if i + 1 < len(merged) else merged[0][0] + _TAU
        if following - end > EPSILON:
            free.append((end, following))
    return free


def _squeezes(a: Point, b: Point, touched: Sequence[tuple[Polygon, list[float]]]) -> bool:
    """True if a-b passes between pieces that touch, with one piece on each side of it.

    Each piece alone is only touched (no piece's interior is crossed), so at any point along
    a-b a piece lies wholly on one side; pieces on both sides at once mean the segment runs
    along a shared edge or through a corner where two pieces meet.
    """
    seg_len = math.dist(a, b)
    ux, uy = (b[0] - a[0]) / seg_len, (b[1] - a[1]) / seg_len
    tol = EPSILON / seg_len
    distinct: list[float] = []
    for t in sorted(t for _, events in touched for t in events):
        if not distinct or t - distinct[-1] > tol:
            distinct.append(t)
    # The ends are not checked: standing in such a corner is allowed, passing through is not.
    samples = [t for t in distinct if tol < t < 1.0 - tol]
    samples += [(t0 + t1) / 2.0 for t0, t1 in pairwise(distinct)]
    for t in samples:
        p = _lerp(a, b, t)
        left = right = False
        for piece, _ in touched:
            sector = piece._sector_at(p)
            if sector is None:
                continue
            middle = sector[0] + sector[1] / 2.0
            side = ux * math.sin(middle) - uy * math.cos(middle)
            left = left or side > EPSILON
            right = right or side < -EPSILON
        if left and right:
            return True
    return False


class PathFinder:
    """Shortest movement paths around obstacles on a bounded table; build once, query often.

    A path never crosses the interior of an obstacle and never leaves the bounds. Pieces that
    touch (along an edge, or corner to corner) or that touch the table edge are sealed: a path
    does not squeeze through the zero-width gap between them, though it may slide along their
    outer edges.

    The search runs on a visibility graph over obstacle corners (and cost-region corners),
    precomputed here; each query adds its start and goal and runs A*. Without cost regions the
    result is the exact shortest path. With cost regions it is an approximation (exact
    weighted-region shortest paths are hard): the path may be a little more expensive than the
    true optimum, but the cost reported (`shortest_cost`, `reachable_within`) is always the true
    cost of the path returned, never less.

    A start strictly inside an obstacle (a unit where a building has just collapsed, say) does
    not fail the query: the obstacles holding the start are ignored for that query, so the unit
    walks out (and may walk anywhere within them). The same goes for a start wedged in a sealed
    seam between touching pieces. A goal strictly inside an obstacle, or outside the bounds, is
    unreachable; so is a start outside the bounds.
    """

    def __init__(
        self,
        obstacles: Sequence[Polygon],
        bounds: tuple[float, float, float, float] = (0.0, 0.0, 24.0, 24.0),
        cost_regions: Sequence[CostRegion] = (),
        seams: Sequence[tuple[Point, Point]] = (),
        cost_joints: Sequence[CostJoint] = (),
    ) -> None:
        self.obstacles: tuple[Polygon, ...] = tuple(obstacles)
        self.seams: tuple[tuple[Point, Point], ...] = tuple(seams)
        """Stretches of an obstacle's boundary where another piece meets it edge to edge: inside
        the obstacle (E34), so no path runs along them."""
        self.cost_joints: tuple[CostJoint, ...] = tuple(cost_joints)
        """Stretches of a cost region's boundary where another piece meets it edge to edge:
        inside the region (E34), so a path along them costs its rate."""
        x0, y0, x1, y1 = (float(v) for v in bounds)
        if not (x0 < x1 and y0 < y1):
            raise ValueError(f"bounds must be (min x, min y, max x, max y), got {bounds!r}")
        self.bounds = (x0, y0, x1, y1)
        self.cost_regions: tuple[CostRegion, ...] = tuple(
            (poly, float(rate)) for poly, rate in cost_regions
        )
        if any(rate <= 0.0 for _, rate in self.cost_regions):
            raise ValueError("a cost region's multiplier must be positive")
        self._min_rate = min([1.0, *(rate for _, rate in self.cost_regions)])
        self._walls = self.obstacles + _frames(self.bounds)
        # Shortest paths bend only at corners they wrap tangentially; with cost regions a path
        # may also bend to reach cheap ground, so nothing is pruned then.
        self._prune = not self.cost_regions
        self._answers: dict[tuple[float, float, float, float], tuple[list[Point], float] | None]
        self._answers = {}
        self.plans: dict[tuple[Point, Point, float], tuple[Point, ...] | None] = {}
        """Moves planned on this table (``movement.plan_path``) by start, goal and budget: as
        the finder is shared by every battle over the same table, so are they."""
        self._without: dict[tuple[int, ...], PathFinder] = {}
        self._build_graph()

    # --- queries ------------------------------------------------------------------------------

    def shortest_path(self, start: Point, goal: Point) -> list[Point] | None:
        """[start, ..., goal], cheapest by movement cost, or None if the goal is unreachable."""
        found = self._solve(start, goal)
        return list(found[0]) if found else None

    def shortest_cost(self, start: Point, goal: Point) -> float | None:
        """The movement cost of shortest_path(start, goal), or None if unreachable."""
        found = self._solve(start, goal)
        return found[1] if found else None

    def reachable_within(self, start: Point, goal: Point, max_cost: float) -> bool:
        """True if the goal can be reached for at most max_cost (allowing EPSILON of rounding)."""
        found = self._solve(start, goal)
        return found is not None and found[1] <= max_cost + EPSILON

    def cost(self, path: Sequence[Point]) -> float:
        """Movement cost of any path under this finder's cost regions."""
        return path_cost(path, self.cost_regions, self.cost_joints)

    def _solve(self, start: Point, goal: Point) -> tuple[list[Point], float] | None:
        start = (float(start[0]), float(start[1]))
        goal = (float(goal[0]), float(goal[1]))
        key = (start[0], start[1], goal[0], goal[1])
        if key in self._answers:
            return self._answers[key]
        found = self._solve_afresh(start, goal)
        if len(self._answers) >= _PATH_CACHE_SIZE:
            self._answers.clear()
        self._answers[key] = found
        return found

    def _solve_afresh(self, start: Point, goal: Point) -> tuple[list[Point], float] | None:
        if not (self._in_bounds(start) and self._in_bounds(goal)):
            return None
        holding = tuple(i for i, o in enumerate(self.obstacles) if o._locate(start) > 0)
        if holding:
            return self._ignoring(holding)._solve(start, goal)
        if any(o._locate(goal) > 0 for o in self.obstacles):
            return None
        if math.dist(start, goal) <= EPSILON:
            return [start, goal], path_cost([start, goal], self.cost_regions, self.cost_joints)
        found = self._search(start, goal)
        if found is None:
            wedged = self._sealing(start)
            if wedged:
                return self._ignoring(wedged)._solve(start, goal)
        return found

    def _in_bounds(self, p: Point) -> bool:
        x0, y0, x1, y1 = self.bounds
        return x0 - EPSILON <= p[0] <= x1 + EPSILON and y0 - EPSILON <= p[1] <= y1 + EPSILON

    def _ignoring(self, indices: tuple[int, ...]) -> PathFinder:
        finder = self._without.get(indices)
        if finder is None:
            kept = [o for i, o in enumerate(self.obstacles) if i not in indices]
            # The joints stay: at worst the way out is planned a hair stricter than checked.
            finder = PathFinder(kept, self.bounds, self.cost_regions, self.seams, self.cost_joints)
            self._without[indices] = finder
        return finder

    def _sealing(self, p: Point) -> tuple[int, ...]:
        """The obstacles that together leave point p no way out, if it sits in a sealed seam."""
        touching = tuple(i for i, o in enumerate(self.obstacles) if o._sector_at(p) is not None)
        if not touching:
            return ()
        sectors = [s for wall in self._walls if (s := wall._sector_at(p)) is not None]
        return touching if len(sectors) > 1 and not _free_wedges(sectors) else ()

    # --- the visibility graph -----------------------------------------------------------------

    def _build_graph(self) -> None:
        # A taut path bends only at convex obstacle corners; a cheaper one may also bend at any
        # corner of a cost region.
        candidates: list[tuple[Point, tuple[Point, Point] | None]] = []
        for poly in self.obstacles:
            ring = poly.points
            for i, corner in enumerate(ring):
                if poly._is_convex_vertex(i):
                    candidates.append((corner, (ring[i - 1], ring[(i + 1) % len(ring)])))
        for poly, _ in self.cost_regions:
            candidates += [(corner, None) for corner in poly.points]

        self._points: list[Point] = []
        # The corner's two neighbours, for the tangency test; None where it does not apply.
        self._hinges: list[tuple[Point, Point] | None] = []
        # A corner where pieces meet splits into one graph node per open wedge of directions,
        # so a path cannot enter through one wedge and leave through another.
        self._wedges: list[int | list[tuple[float, float, int]]] = []
        self._node_point: list[int] = []
        for corner, hinge in candidates:
            if not self._in_bounds(corner) or any(o._locate(corner) > 0 for o in self.obstacles):
                continue
            if any(math.dist(corner, p) <= EPSILON for p in self._points):
                continue
            sectors = [s for wall in self._walls if (s := wall._sector_at(corner)) is not None]
            index = len(self._points)
            if len(sectors) > 1:
                free = _free_wedges(sectors)
                if not free:
                    continue
                hinge = None
                wedges: list[tuple[float, float, int]] = []
                for low, high in free:
                    wedges.append((low, high, len(self._node_point)))
                    self._node_point.append(index)
                entry: int | list[tuple[float, float, int]] = wedges
            else:
                entry = len(self._node_point)
                self._node_point.append(index)
            self._points.append(corner)
            self._hinges.append(hinge)
            self._wedges.append(entry)

        self._adjacency: list[list[tuple[int, float]]] = [[] for _ in self._node_point]
        points = self._points
        for k in range(len(points)):
            p = points[k]
            for m in range(k + 1, len(points)):
                q = points[m]
                if not (self._tangent(k, q) and self._tangent(m, p)):
                    continue
                node_k, node_m = self._node_toward(k, q), self._node_toward(m, p)
                if node_k is None or node_m is None or self._blocked(p, q):
                    continue
                step = segment_cost(p, q, self.cost_regions, self.cost_joints)
                self._adjacency[node_k].append((node_m, step))
                self._adjacency[node_m].append((node_k, step))

    def _tangent(self, k: int, other: Point) -> bool:
        """False if the line from corner k to other cuts into the corner's obstacle."""
        hinge = self._hinges[k]
        if hinge is None or not self._prune:
            return True
        corner = self._points[k]
        before, after = hinge
        scale = EPSILON * math.dist(corner, other)
        c1 = _cross(corner, other, before)
        c2 = _cross(corner, other, after)
        tol1 = scale * math.dist(corner, before)
        tol2 = scale * math.dist(corner, after)
        return not ((c1 > tol1 and c2 < -tol2) or (c1 < -tol1 and c2 > tol2))

    def _node_toward(self, k: int, other: Point) -> int | None:
        """The graph node of corner k that a path to or from other uses; None if sealed off."""
        entry = self._wedges[k]
        if isinstance(entry, int):
            return entry
        p = self._points[k]
        angle = math.atan2(other[1] - p[1], other[0] - p[0]) % _TAU
        for low, high, node in entry:
            for turn in (angle - _TAU, angle, angle + _TAU):
                if low - EPSILON <= turn <= high + EPSILON:
                    return node
        return None

    def _blocked(self, a: Point, b: Point) -> bool:
        """True if segment a-b crosses an obstacle's interior or squeezes between pieces."""
        seg_len = math.dist(a, b)
        if seg_len <= EPSILON:
            return False
        lo_x, hi_x = min(a[0], b[0]) - EPSILON, max(a[0], b[0]) + EPSILON
        lo_y, hi_y = min(a[1], b[1]) - EPSILON, max(a[1], b[1]) + EPSILON
        for c, d in self.seams:
            if runs_along(a, b, c, d):
                return True
        touched = []
        for wall in self._walls:
            x0, y0, x1, y1 = wall.bbox
            if hi_x < x0 or lo_x > x1 or hi_y < y0 or lo_y > y1:
                continue
            if wall._planes is not None:
                # A convex wall far from the segment, or deep across it, settles it at once.
                crossed = _clipped(wall._planes, a, b)
                if crossed:
                    return True
                if crossed is not None:
                    continue  # not within DEEP of it: no events, so it touches nothing
            events = wall._events(a, b)
            if next(wall._inside(a, b, events, seg_len), None) is not None:
                return True
            if len(events) > 2:
                touched.append((wall, events))
        return len(touched) > 1 and _squeezes(a, b, touched)

    # --- the search ---------------------------------------------------------------------------

    def _search(self, start: Point, goal: Point) -> tuple[list[Point], float] | None:
        points, node_point = self._points, self._node_point
        regions, joints = self.cost_regions, self.cost_joints
        rate = self._min_rate
        goal_node = len(node_point)
        tie = count()
        # Entries: (estimate, tie-break, cost so far, node, parent node or -1, edge checked).
        heap: list[tuple[float, int, float, int, int, bool]] = []
        if not self._blocked(start, goal):
            direct = segment_cost(start, goal, regions, joints)
            if direct <= rate * math.dist(start, goal):
                return [start, goal], direct
            heap.append((direct, next(tie), direct, goal_node, -1, True))
        for k, p in enumerate(points):
            if math.dist(p, start) <= EPSILON:
                # Standing on the corner itself: every wedge of it is open to the start.
                entry = self._wedges[k]
                nodes = [entry] if isinstance(entry, int) else [node for _, _, node in entry]
                heap += [(0.0, next(tie), 0.0, node, -1, True) for node in nodes]
                continue
            if not self._tangent(k, start):
                continue
            node = self._node_toward(k, start)
            if node is None:
                continue
            # Whether the start sees this corner, and at what cost, is worked out only if the
            # search gets there; until then the cheapest conceivable cost stands in.
            step = rate * math.dist(start, p)
            heap.append((step + rate * math.dist(p, goal), next(tie), step, node, -1, False))
        heapq.heapify(heap)

        parents: dict[int, int] = {}
        best: dict[int, float] = {}
        while heap:
            _, _, so_far, node, parent, checked = heapq.heappop(heap)
            if node == goal_node:
                return self._assemble(start, goal, parent, parents)
            if node in parents:
                continue
            k = node_point[node]
            p = points[k]
            if not checked:
                if self._blocked(start, p):
                    continue
                if regions:
                    exact = segment_cost(start, p, regions, joints)
                    estimate = exact + rate * math.dist(p, goal)
                    heapq.heappush(heap, (estimate, next(tie), exact, node, -1, True))
                    continue
            parents[node] = parent
            if math.dist(p, goal) <= EPSILON:
                heapq.heappush(heap, (so_far, next(tie), so_far, goal_node, node, True))
            elif (
                self._tangent(k, goal)
                and self._node_toward(k, goal) == node
                and not self._blocked(p, goal)
            ):
                total = so_far + segment_cost(p, goal, regions, joints)
                heapq.heappush(heap, (total, next(tie), total, goal_node, node, True))
            for neighbour, step in self._adjacency[node]:
                if neighbour in parents:
                    continue
                total = so_far + step
                if total < best.get(neighbour, math.inf):
                    best[neighbour] = total
                    estimate = total + rate * math.dist(points[node_point[neighbour]], goal)
                    heapq.heappush(heap, (estimate, next(tie), total, neighbour, node, True))
        return None

    def _assemble(
        self, start: Point, goal: Point, last: int, parents: dict[int, int]
    ) -> tuple[list[Point], float]:
        corners = []
        node = last
        while node != -1:
            corners.append(self._points[self._node_point[node]])
            node = parents[node]
        path = [start]
        for corner in reversed(corners):
            if math.dist(corner, path[-1]) > EPSILON and math.dist(corner, goal) > EPSILON:
                path.append(corner)
        path.append(goal)
        # Re-measured rather than summed from the graph, so the cost is exactly that of the path.
        return path, path_cost(path, self.cost_regions, self.cost_joints)
