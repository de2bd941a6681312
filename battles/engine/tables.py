"""What a scenario's battles ask again and again, worked out once when the scenario is loaded.

``ScenarioTables`` numbers the scenario's distinct cards (equal cards share a number, whatever
units carry them) and holds, by card number, the exact odds of ``probability`` as floats — every
attack one card may make on another at each Skill (``Shot``) — the reach and the activation
shapes of every unit card, the path finders of the table's passages, the units that start
concealed, where sight-blocking pieces meet edge to edge, the nearest point of a building's walls
to a point, what battles ask again and again over the opening table (sight's answers, path
checks, the rolls a move asks for, aims at buildings, crossing costs; ``OPENING_KEPT`` bounds
them), and the commander's lines of sight between grid squares and cover within reach over the
opening table (the one every battle starts on; once a building falls, a battle reckons its own),
its answers for pairs of unit states (card, Skill, Hits) and its attack offers. A ``Scenario``
owns its tables: every battle of the scenario shares them, and they go when the scenario goes.
Nothing is kept between scenarios.

A piece id (units and buildings share one namespace) names one card for the whole battle:
``card_no`` gives its number.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple, TypeVar

from .cards import BuildingCard, UnitCard
from .events import AttackKind
from .geometry import nearest_point
from .rulesets import Ruleset
from .shapes import allowed_shapes

if TYPE_CHECKING:
    from .commanders.board import Figures
    from .commanders.moves import CoverKey, CrossingKey
    from .commanders.values import FinishOdds, Offer, OfferKey
    from .geometry import CostJoint, CostRegion, Point, Polygon
    from .movement import EntriesKey, Entry, Passage, PathCheck
    from .pathfinding import PathFinder
    from .scenario import Scenario
    from .sight import SightPieces
    from .state import BuildingState
    from .targeting import AimKey, AttackProfile

Card = UnitCard | BuildingCard


@dataclass(frozen=True, slots=True)
class Shot:
    """One attack a card could make on a target card, with its chances as floats."""

    weapon: str
    """Weapon name, or ``CLOSE_COMBAT``."""
    range: float
    """Reach in inches."""
    power: int
    """Power of the attack (Size when ramming)."""
    limited: bool
    """A weapon with printed uses (missiles, Charges): spend it where it pays."""
    damage: float
    """Chance of 1 damage."""
    suppress: float
    """Chance of a suppression (a hit that fails to damage, Power at least Resistance)."""
    ram: bool
    """Ramming: no Skill roll, and the target rams back."""
    blow_back: tuple[float, float]
    """(damage, suppress) chances of the ram back on the attacker; zeros otherwise."""


ShotKey = tuple[int, int, int]
"""An entry of the shot table: (attacker's card number, its Skill, target's card number)."""

STATES = 1 << 20
"""A pair of unit states as one number: attacker's state * STATES + target's
(``ScenarioTables.state_number``; a scenario has far fewer states than this)."""


OPENING_KEPT = 8192
"""Answers of each kind (sight's, path checks, crossing costs, nearest walls) kept with ``keep``
before they are all forgotten, rather than grow forever: the scenario's serve all its battles,
and every battle adds the places its units wander to and the paths they weigh."""

K = TypeVar("K")
V = TypeVar("V")


def keep(answers: dict[K, V], key: K, value: V) -> V:
    """Keep an answer, forgetting all those kept before once there are ``OPENING_KEPT``."""
    if len(answers) >= OPENING_KEPT:
        answers.clear()
    answers[key] = value
    return value


class FinderKey(NamedTuple):
    """A path finder's table: what blocks movement and what slows it."""

    obstacles: tuple[Polygon, ...]
    cost_regions: tuple[CostRegion, ...]
    seams: tuple[tuple[Point, Point], ...] = ()
    cost_joints: tuple[CostJoint, ...] = ()


def card_shots(attacker: UnitCard, skill: int, target: Card, ruleset: Ruleset) -> tuple[Shot, ...]:
    """Every attack the attacker's card allows against the target card (range aside), worked
    out exactly (``probability``) and kept as floats."""
    # Imported here: the rules import the scenario, which builds its tables at load.
    from .probability import attack_options, option_outcome, ram_back_outcome

    out = []
    for option in attack_options(attacker, target, ruleset):
        outcome = option_outcome(option, target, skill)
        ram = option.kind is AttackKind.RAM
        back = (0.0, 0.0)
        if ram and isinstance(target, UnitCard):
            b = ram_back_outcome(attacker, target)
            back = (float(b.damage), float(b.suppress))
        out.append(
            Shot(
                option.weapon,
                option.range,
                option.power,
                option.uses is not None,
                float(outcome.damage),
                float(outcome.suppress),
                ram,
                back,
            )
        )
    return tuple(out)


class ScenarioTables:
    """The scenario's cards, numbered, and what commanders and movement ask of them."""

    def __init__(self, scenario: Scenario) -> None:
        self.ruleset = scenario.ruleset
        number: dict[Card, int] = {}
        cards: list[Card] = []
        self.card_no: dict[str, int] = {}
        """Each unit's and building's card number, by piece id."""
        pieces: list[tuple[str, Card]] = [(u.id, u.card) for u in scenario.units()]
        pieces += [(b.id, b.card) for b in scenario.buildings]
        for piece_id, card in pieces:
            n = number.get(card)
            if n is None:
                n = number[card] = len(cards)
                cards.append(card)
            self.card_no[piece_id] = n
        self.cards: tuple[Card, ...] = tuple(cards)
        """The distinct cards, by number."""
        self.reach: tuple[float, ...] = tuple(
            max(max((w.range for w in c.weapons), default=0.0), 1.0)
            if isinstance(c, UnitCard)
            else 0.0
            for c in cards
        )
        """Each unit card's longest weapon range, never under the 1" of close combat."""
        self.shapes: tuple[frozenset[str], ...] = tuple(
            allowed_shapes(c) if isinstance(c, UnitCard) else frozenset() for c in cards
        )
        """The activation shapes each unit card permits (``shapes.allowed_shapes``)."""
        self._shots: dict[ShotKey, tuple[Shot, ...]] = {}
        self._damages: dict[ShotKey, float] = {}
        lowest = self.ruleset.demoralise_at_skill + 1
        for a, attacker in enumerate(cards):
            if not isinstance(attacker, UnitCard):
                continue
            for skill in range(lowest, attacker.skill + 1):
                for t in range(len(cards)):
                    self._fill((a, skill, t))
        self.finders: dict[FinderKey, PathFinder] = {}
        """Path finders by the table they find paths over (``movement.finder``): a visibility
        graph serves every battle of the scenario."""
        self.states: dict[tuple[int, int, int], int] = {}
        """Each (card number, Skill, Hits) a unit has been in, numbered (``state_number``)."""
        self.state_cards: list[tuple[int, int, int]] = []
        """The (card number, Skill, Hits) of each state number."""
        self.best: dict[int, tuple[float, Shot] | None] = {}
        """The commander's best attack by attacker and target state (``odds.best_shot``)."""
        self.reaches: dict[int, tuple[tuple[float, float], ...]] = {}
        """The commander's harm by reach by attacker and target state (``odds.harm_by_reach``)."""
        self.figures: dict[int, Figures] = {}
        """What the commander reads off each unit card, by card number
        (``commanders.board.Figures``)."""
        self.offers: dict[OfferKey, list[Offer]] = {}
        """The commander's attack offers by the two units' states, the target's danger and the
        turns of it an attack spares (``commanders.values.offers``): the same for either side
        and in every battle of the scenario. Bounded by ``OPENING_KEPT``."""
        self.profiles: dict[str, dict[str, AttackProfile]] = {}
        """Each unit's attack profiles by name (``targeting.unit_profiles``), once a battle has
        asked: a unit's card never changes, so they are the same in every battle of the
        scenario."""
        self.opening_passages: dict[tuple[str, int], Passage] = {}
        """Each unit's passage over the opening table (``movement.passage``), by (unit id, 0):
        its card and the table decide it."""
        self.opening_concealed: tuple[str, ...] | None = None
        """The units that start the battle concealed (``Battle.start``), once a battle has
        started: where every unit stands and the table decide it, and they are the same in every
        battle of the scenario."""
        self.opening_sight_pieces: SightPieces | None = None
        """The opening table's pieces as sight asks about them (``sight.SightPieces``): the same
        in every battle of the scenario, found by its first."""
        self.opening_seams: list[tuple[str, str, Point, Point]] | None = None
        """Where two sight-blocking pieces of the opening table meet edge to edge (``Sight``):
        the same in every battle of the scenario, found by its first."""
        self.opening_joints: dict[str, tuple[tuple[Point, Point], ...]] | None = None
        """Where each piece or standing building of the opening table meets another edge to edge
        (``Sight.joints``): the same in every battle of the scenario, found by its first."""
        self.opening_sight_lines: dict[tuple[Point, Point], bool] = {}
        """Whether a string between two points crosses no sight-blocking piece of the opening
        table (``Sight.line_clear``): every battle of the scenario starts on that table, and most
        are fought on it throughout. Bounded by ``OPENING_KEPT``, as the rest are."""
        self.opening_pieces_at: dict[Point, frozenset[str]] = {}
        """The opening table's sight-blocking pieces strictly holding a point (``Sight``)."""
        self.opening_building_at: dict[Point, str | None] = {}
        """The opening table's building strictly holding a point (``Sight``)."""
        self.opening_path_checks: dict[PathCheck, tuple[str | None, float]] = {}
        """``movement.path_problem``'s answers over the opening table."""
        self.opening_crossings: dict[CrossingKey, float] = {}
        """What crossing a path's terrain may cost over the opening table, as the commander
        prices it (``commanders.moves.crossing_cost``)."""
        self.opening_cover_spots: dict[CoverKey, list[Point]] = {}
        """The commander's cover within reach of a unit over the opening table
        (``commanders.moves._cover_spots``)."""
        self.opening_entries: dict[EntriesKey, tuple[Entry, ...]] = {}
        """The rolls a move asks of a card over the opening table, where along the path it enters
        hazards and breaches buildings (``movement._entries``). Bounded by ``OPENING_KEPT``."""
        self.opening_aims: dict[AimKey, Point | None] = {}
        """Where an attack on a building goes over the opening table
        (``targeting.building_aim``)."""
        self.spot_offsets: dict[int, tuple[tuple[int, int], ...]] = {}
        """The grid squares within so many of a square, nearest first, where the commander
        looks for a firing spot (``commanders.goals._offsets``)."""
        self.finish_odds: dict[FinishOdds, float] = {}
        """The commander's chance of bringing a building down in the turns left
        (``commanders.values._can_finish``). Bounded by ``OPENING_KEPT``."""
        self.walls: dict[tuple[str, Point], Point] = {}
        """The point of a building's walls nearest to a point (``nearest_wall``): footprints
        never move, standing or fallen. Bounded by ``OPENING_KEPT``."""
        self.opening_lines: dict[int, bool] = {}
        """The commander's lines between grid squares over the opening table, every building
        standing (``board.Board.sees``): every battle of the scenario starts on that table, and
        most are fought on it throughout. Bounded by the squares of the table."""

    def _fill(self, key: ShotKey) -> tuple[Shot, ...]:
        attacker, target = self.cards[key[0]], self.cards[key[2]]
        assert isinstance(attacker, UnitCard)
        found = card_shots(attacker, key[1], target, self.ruleset)
        self._shots[key] = found
        self._damages[key] = max((s.damage for s in found), default=0.0)
        return found

    def card_shots(self, attacker: int, skill: int, target: int) -> tuple[Shot, ...]:
        """Every attack the attacker's card allows against the target's card (range aside),
        the attacker at ``skill``; by card numbers."""
        key = (attacker, skill, target)
        found = self._shots.get(key)
        # A Skill off the table (a test's unit above its card) is worked out when asked.
        return found if found is not None else self._fill(key)

    def can_damage(self, attacker: int, skill: int, target: int) -> bool:
        """Whether any attack of the attacker's card has a chance of damaging the target's, by
        card numbers."""
        found = self._damages.get((attacker, skill, target))
        if found is None:
            found = self.best_damage(attacker, skill, target)
        return found > 0

    def best_damage(self, attacker: int, skill: int, target: int) -> float:
        """The best chance of damage among the attacks of the attacker's card on the target's
        (0 when it has none), by card numbers."""
        key = (attacker, skill, target)
        found = self._damages.get(key)
        if found is None:
            self._fill(key)
            found = self._damages[key]
        return found

    def state_number(self, card: int, skill: int, hits: int) -> int:
        """The number of a unit state: its card (by number), its Skill and its Hits. The sums
        a commander keeps for a pair of units depend on nothing else of theirs."""
        key = (card, skill, hits)
        found = self.states.get(key)
        if found is None:
            found = self.states[key] = len(self.state_cards)
            self.state_cards.append(key)
        return found

    def nearest_wall(self, building: BuildingState, p: Point) -> Point:
        """The point of the building's walls nearest to ``p`` (``geometry.nearest_point``)."""
        key = (building.id, p)
        found = self.walls.get(key)
        if found is None:
            found = keep(self.walls, key, nearest_point(building.polygon, p))
        return found

    def allowed_shapes(self, unit: str) -> frozenset[str]:
        """The activation shapes the unit's card permits."""
        return self.shapes[self.card_no[unit]]
