"""What the commander knows of the battle, kept from one decision to the next.

A ``Board`` is built at a side's first decision and brought up to date at each one after
(``Board.sync``). It holds every unit the side has seen as a ``Piece``: the figures of its card
that every sum asks for, read once, and the ``UnitInfo`` it was last seen as. The view hands
back the very same info for a unit that stands as it did, so a changed unit is known at a
glance, and what a piece's sums depend on is kept on the piece with the info (or the decision)
it was worked out for.

The board also answers the questions about places that every sum asks: the building holding a
point, a line between two points (reckoned between the ``GRID``-inch squares holding them), and
whether a unit there is hidden or sheltered.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, NamedTuple

from ..cards import Keyword
from ..movement import WATER_RATE

if TYPE_CHECKING:
    from ..cards import UnitCard
    from ..commander import BattleView, UnitInfo
    from ..geometry import Point, Polygon
    from ..scenario import OrderKind
    from ..state import BuildingState
    from ..tables import ScenarioTables
    from .attacks import Reach
    from .default import GainKey
    from .goals import Goal, SpotKey
    from .moves import CoverKey, CrossingKey
    from .threat import Source, ThreatKey
    from .values import FinishKey, Target, WorthKey

MEMORY = 1
"""Turns an enemy that went out of sight is still reckoned with where it was last seen."""

GRID = 1.0
"""Side of the squares lines are reckoned between, in inches (``Board.sees``)."""

_EDGE = 1024
_SIDE = 4096
SQUARES = _SIDE * _SIDE
"""A square's number in ``Board.sees``: (column + _EDGE) * _SIDE + row + _EDGE, unique for
squares within 1,024" of the table's corner (any table is far smaller)."""


def square(p: Point) -> int:
    """The number of the ``GRID``-inch square holding ``p``."""
    return (int(p[0] // GRID) + _EDGE) * _SIDE + int(p[1] // GRID) + _EDGE


def square_centre(number: int) -> Point:
    """The centre of the square numbered ``number``."""
    column, row = divmod(number, _SIDE)
    return ((column - _EDGE + 0.5) * GRID, (row - _EDGE + 0.5) * GRID)


class Figures(NamedTuple):
    """What the commander reads off a unit card: the same for every unit of the card, so kept
    in the scenario's tables by card number (``ScenarioTables.figures``)."""

    gun: float
    """Its longest weapon range (1" for a card without weapons): how far its guns reach."""
    aerial: bool
    fixed: bool
    mobile: bool
    """It may move and fire in one activation (Move and Fire, Split Movement)."""
    split: bool
    sensor: bool
    sure: bool
    breaching: bool
    amphibious: bool
    stride: float
    """The farthest one activation can take it: Move (an Amphibious unit's is doubled
    through water). Every place the commander weighs for it lies within this."""


def card_figures(card: UnitCard) -> Figures:
    """The card's ``Figures``."""
    keywords = card.keywords
    amphibious = Keyword.AMPHIBIOUS in keywords
    return Figures(
        max((w.range for w in card.weapons), default=1.0),
        Keyword.AERIAL in keywords,
        Keyword.FIXED_MOUNT in keywords,
        Keyword.MOVE_AND_FIRE in keywords or Keyword.SPLIT_MOVEMENT in keywords,
        Keyword.SPLIT_MOVEMENT in keywords,
        Keyword.SENSOR in keywords,
        Keyword.SURE_FOOTED in keywords,
        Keyword.BREACHING in keywords,
        amphibious,
        card.move / WATER_RATE if amphibious else card.move,
    )


class Piece:
    """A unit as the commander keeps it: its card's figures, and what it last saw of it."""

    __slots__ = (
        "aerial",
        "amphibious",
        "breaching",
        "card",
        "cover",
        "danger",
        "exposed",
        "fixed",
        "goal",
        "ground",
        "gun",
        "hits",
        "id",
        "info",
        "inside",
        "kept",
        "mobile",
        "move",
        "no",
        "order",
        "position",
        "press",
        "reach",
        "seen",
        "sensor",
        "sheltered",
        "size",
        "skill",
        "sources",
        "split",
        "square",
        "state",
        "stride",
        "sure",
        "targets",
    )

    def __init__(self, info: UnitInfo, tables: ScenarioTables) -> None:
        card = info.card
        self.id = info.id
        self.card = card
        self.no = tables.card_no[info.id]
        """Its card's number in the scenario's tables."""
        self.size = card.size
        self.move = card.move
        self.reach = tables.reach[self.no]
        """Its longest weapon range, never under the 1" of close combat."""
        # The card's figures (``Figures``), read once a scenario.
        figures = tables.figures.get(self.no)
        if figures is None:
            figures = tables.figures[self.no] = card_figures(card)
        (
            self.gun,
            self.aerial,
            self.fixed,
            self.mobile,
            self.split,
            self.sensor,
            self.sure,
            self.breaching,
            self.amphibious,
            self.stride,
        ) = figures
        self.order: OrderKind | None = None
        """Own units: the order it acts on (``goals.order_kind``), once asked."""
        self.seen = 0
        """Enemies: the turn it was last seen."""
        # Sums kept with what they were worked out for: the turn and where it stands (an
        # enemy's ``threat.danger`` and ``threat._exposed_to``), the info it was seen as (its
        # ``attacks.Reach``, ``goals.press_of``) or the decision (``threat.sources``,
        # ``values._targets``, ``goals.goal_for``, ``goals._ground``).
        self.danger: tuple[tuple[int, Point, int, int], float] | None = None
        self.exposed: tuple[tuple[int, Point], dict[float, list[str]]] | None = None
        self.kept: tuple[UnitInfo, Reach] | None = None
        self.press: tuple[UnitInfo, float] | None = None
        self.sources: tuple[int, list[Source]] | None = None
        self.targets: tuple[int, list[Target]] | None = None
        self.goal: tuple[int, Goal | None] | None = None
        self.ground: tuple[int, list[tuple[Point, float, float]]] | None = None
        self.info: UnitInfo = info
        self.position: Point = info.position
        self.square = square(info.position)
        self.hits = info.hits
        self.skill = info.skill
        self.state = tables.state_number(self.no, info.skill, info.hits)
        """Its card, Skill and Hits as one number (``ScenarioTables.state_number``)."""
        self.inside: str | None = None
        """The standing building it is in (never for a flier) (``Board.place``)."""
        self.sheltered = False
        """In a standing building: only the building can be attacked."""
        self.cover: frozenset[str] = frozenset()
        """The sight-blocking pieces holding where it stands."""

    def see(self, info: UnitInfo, tables: ScenarioTables) -> bool:
        """Take in what the unit looks like now; whether it moved."""
        self.info = info
        if info.hits != self.hits or info.skill != self.skill:
            self.hits, self.skill = info.hits, info.skill
            self.state = tables.state_number(self.no, info.skill, info.hits)
        if info.position != self.position:
            self.position = info.position
            self.square = square(info.position)
            return True
        return False


class Board:
    """The battle as the side knows it (see the module docstring)."""

    def __init__(self, view: BattleView) -> None:
        self.tables: ScenarioTables = view.tables
        self.ruleset = view.ruleset
        self.demoralise_at = view.ruleset.demoralise_at_skill
        self.side = view.side
        self.objectives = view.objectives
        self.table = view.table
        self.turn_limit = view.turn_limit
        self.pieces: dict[str, Piece] = {}
        """Every unit the side has seen, by id."""
        self.known: dict[str, Piece] = {}
        """The enemies it has seen, by id, in the order first seen."""
        self.turn = 0
        self.decision = 0
        """Decisions so far in the battle: this one's number."""
        self.in_turn = 0
        """This decision's number within the turn (0 for the turn's first)."""
        self.view: BattleView = view
        self.own: list[Piece] = []
        """Own units in the battle, in scenario order."""
        self.foes: list[Piece] = []
        """Enemies in sight, in the view's order."""
        self.lost: list[Piece] = []
        """Enemies lately lost from sight (within ``MEMORY`` turns), as last seen."""
        self.visible: dict[str, UnitInfo] = {}
        """Enemies in sight by id."""
        self.changed: set[str] | None = None
        """Enemies that came, went or changed as targets since the side's decision before this
        one in the turn (None at the turn's first)."""
        self.buildings: list[BuildingState] = []
        """Standing buildings."""
        self.all_buildings: list[BuildingState] = []
        """Every building, standing or fallen."""
        self.turns_left = 0
        self.lines: dict[int, bool] = {}
        """Lines between grid squares on the table as it stands (``sees``)."""
        self.inside_at: dict[Point, str | None] = {}
        """The standing building holding each point asked, while no building falls."""
        # Kept while no building falls (its rubble is new terrain):
        self.crossings: dict[CrossingKey, float] = {}
        """What crossing a path's terrain may cost (``moves.crossing_cost``): over the opening
        table, the scenario's."""
        self.rolling: dict[bool, list[Polygon]] = {}
        """The pieces whose entry asks for a terrain roll, by Sure-Footed or not
        (``moves._rolling``)."""
        self.structures: dict[tuple[int, int], set[str]] = {}
        """The standing buildings a card can attack at a Skill, by card number and Skill
        (``attacks._structures``)."""
        self.shelters: dict[int, list[Polygon]] = {}
        """The pieces a card may take cover in, by card number (``moves._shelters``)."""
        self.cover_spots: dict[CoverKey, list[Point]] = {}
        """The cover within reach of a unit where it stands (``moves._cover_spots``): over the
        opening table, the scenario's."""
        self.spots: dict[SpotKey, Point | None] = {}
        """Where a unit on Attack gets a line to its target (``goals._firing_spot``)."""
        # Kept for the battle:
        self.raze_points: dict[str, float] | None = None
        """Per building, the raze points it carries for the side (``values._raze_points``)."""
        # Kept for the turn:
        self.worths: dict[WorthKey, float] = {}
        """What bringing each building down is worth (``values.building_worth``)."""
        self.finishes: dict[FinishKey, float] = {}
        """The chance of bringing a building down in the turns left (``values._can_finish``)."""
        self.cover: dict[Point, frozenset[str]] = {}
        """Sight-blocking pieces holding each point asked, while no building falls (the view's
        answer)."""
        self.threats: dict[ThreatKey, float] = {}
        """Threats worked out this decision (``threat.threat``)."""
        self.gains: dict[GainKey, float] = {}
        """What a place offers a unit this decision, threat aside (``default._gain``)."""
        # Sums of this decision, once asked (``threat._in_the_open``, ``values._occupants``,
        # ``values.worth_attacking``, ``goals._objective_ground``).
        self.in_the_open: list[tuple[str, float, float]] | None = None
        self.occupants: dict[str, list[tuple[Piece, float]]] | None = None
        self.worth: list[tuple[BuildingState, int, float]] | None = None
        self.objective_ground: list[tuple[Point, float, float, set[str]]] | None = None

    def sync(self, view: BattleView) -> None:
        """Bring the board up to the view of this decision."""
        tables = self.tables
        pieces = self.pieces
        self.view = view
        self.decision += 1
        if view.turn != self.turn:
            self.turn = view.turn
            self.in_turn = 0
            self.worths = {}
            self.finishes = {}
        else:
            self.in_turn += 1
        turn = self.turn
        self.turns_left = self.turn_limit - turn + 1
        everything = view.buildings
        standing = [b for b in everything if not b.collapsed]
        if len(standing) != len(self.buildings) or self.decision == 1:
            self._fall(standing, len(everything))
        self.buildings = standing
        self.all_buildings = everything
        own = []
        for info in view.own_units():
            p = pieces.get(info.id)
            if p is None:
                p = pieces[info.id] = Piece(info, tables)
                self.place(p)
            elif p.info is not info and p.see(info, tables):
                self.place(p)
            own.append(p)
        self.own = own
        foes = []
        now: dict[str, UnitInfo] = {}
        known = self.known
        for info in view.enemies():
            p = known.get(info.id)
            if p is None:
                p = pieces[info.id] = known[info.id] = Piece(info, tables)
                self.place(p)
            elif p.info is not info and p.see(info, tables):
                self.place(p)
            p.seen = turn
            foes.append(p)
            now[info.id] = info
        self.foes = foes
        if len(now) == len(known):
            self.lost = []
        else:
            self.lost = [p for p in known.values() if p.id not in now and turn - p.seen <= MEMORY]
        self.changed = None if self.in_turn == 0 else _changes(self.visible, now)
        self.visible = now
        self.threats = {}
        self.gains = {}
        self.in_the_open = None
        self.occupants = None
        self.worth = None
        self.objective_ground = None

    def _fall(self, standing: list[BuildingState], every: int) -> None:
        """A building has fallen (or the battle begins): what depends on the table goes."""
        count = len(standing)
        self.buildings = standing
        opening = count == every
        self.lines = self.tables.opening_lines if opening else {}
        self.inside_at = {}
        self.crossings = self.tables.opening_crossings if opening else {}
        self.rolling = {}
        self.shelters = {}
        self.cover_spots = self.tables.opening_cover_spots if opening else {}
        self.spots = {}
        self.structures = {}
        self.cover = {}
        for p in self.pieces.values():
            p.kept = None
            self.place(p)

    def place(self, p: Piece) -> None:
        """Where the piece stands as the table has it: in a building, under cover."""
        p.inside = None if p.aerial else self.building_at(p.position)
        p.sheltered = p.inside is not None
        p.cover = self.cover_at(p.position)

    # --- places ---------------------------------------------------------------------------------

    def building_at(self, p: Point) -> str | None:
        """The first standing building holding ``p``, if any (``Sight.building_at``)."""
        inside = self.inside_at
        try:
            return inside[p]
        except KeyError:
            # A standing building blocks sight: it is among the pieces holding the point.
            cover = self.cover_at(p)
            found = next((b.id for b in self.buildings if b.id in cover), None) if cover else None
            inside[p] = found
            return found

    def cover_at(self, p: Point) -> frozenset[str]:
        """Ids of the sight-blocking pieces holding ``p``, their joints included (the view's
        answer, ``Sight.pieces_at``)."""
        found = self.cover.get(p)
        if found is None:
            found = self.cover[p] = self.view.cover_at(p)
        return found

    def distance_to_building(self, b: BuildingState, p: Point) -> float:
        """Distance from ``p`` to the building's nearest wall."""
        return math.dist(p, self.tables.nearest_wall(b, p))

    def hidden_at(self, u: Piece, p: Point) -> bool:
        """Inside a sight-blocking piece: concealed there unless it fires."""
        return not u.aerial and bool(self.cover_at(p))

    def sees(self, a: int, b: int) -> bool:
        """A line between the squares numbered ``a`` and ``b`` (``square``), as the commander
        reckons lines: between the squares' centres. The threat and the next shot ask for a
        line from every enemy to every place weighed; on the grid the same lines come back
        again and again, and are kept (for the scenario while every building stands)."""
        key = a * SQUARES + b if a <= b else b * SQUARES + a
        found = self.lines.get(key)
        if found is None:
            found = self.lines[key] = self.view.line_clear(square_centre(a), square_centre(b))
        return found


def _changes(before: dict[str, UnitInfo], now: dict[str, UnitInfo]) -> set[str]:
    """The enemies (ids) that came, went or changed as targets: stand, hit or show otherwise
    (having activated alone changes nothing about one as a target)."""
    changed = set()
    for i, e in now.items():
        old = before.get(i)
        if old is not e and (
            old is None
            or old.position != e.position
            or old.hits != e.hits
            or old.skill != e.skill
            or old.concealed != e.concealed
        ):
            changed.add(i)
    changed.update(i for i in before if i not in now)
    return changed
