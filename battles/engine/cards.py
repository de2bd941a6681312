"""Unit and building cards: the printed numbers, weapons and keywords, never modified in battle.

The card dict format is shared with the card-text parser of the ``units`` app, both ways:
``UnitCard.from_dict`` accepts exactly what that parser produces (validated like a card in a
scenario), and ``UnitCard.to_dict`` gives a dict that renders back to card text.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from .geometry import on_joint
from .terrain import TerrainProps

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

    from .geometry import Point, Polygon
    from .terrain import TerrainPiece


class Keyword(StrEnum):
    """The keywords of both rule texts. They grant or deny; they never adjust a number."""

    AERIAL = "aerial"
    SPLIT_MOVEMENT = "split_movement"
    FIXED_MOUNT = "fixed_mount"
    BREACHING = "breaching"
    MOVE_AND_FIRE = "move_and_fire"
    SURE_FOOTED = "sure_footed"
    DEMOLITION = "demolition"
    SENSOR = "sensor"
    AMPHIBIOUS = "amphibious"

    @property
    def label(self) -> str:
        """The keyword as the rule texts print it on a card: "Move and Fire"."""
        return _KEYWORD_LABELS[self]


_KEYWORD_LABELS = {
    Keyword.AERIAL: "Aerial",
    Keyword.SPLIT_MOVEMENT: "Split Movement",
    Keyword.FIXED_MOUNT: "Fixed Mount",
    Keyword.BREACHING: "Breaching",
    Keyword.MOVE_AND_FIRE: "Move and Fire",
    Keyword.SURE_FOOTED: "Sure-Footed",
    Keyword.DEMOLITION: "Demolition",
    Keyword.SENSOR: "Sensor",
    Keyword.AMPHIBIOUS: "Amphibious",
}

CLOSE_COMBAT = "close_combat"
"""Weapon name a commander uses for close combat: Melee if printed, else Ramming. No weapon line
may take it."""


@dataclass(frozen=True, slots=True)
class Weapon:
    """One weapon line: name, Power, Range and absolute restrictions."""

    name: str
    """Name printed on the card, unique on the card."""
    power: int
    """Added to the attacker's penetration die."""
    range: float
    """Longest centre-to-centre distance, in inches, at which it may attack."""
    aa: bool = False
    """May attack Aerial units (under Combined Arms only such weapons may)."""
    buildings_only: bool = False
    """May attack buildings and nothing else."""
    min_size: int | None = None
    """Smallest target Size it may attack; ``None`` means no lower bound."""
    max_size: int | None = None
    """Largest target Size it may attack; ``None`` means no upper bound."""
    uses: int | None = None
    """Attacks it may make in one battle; ``None`` means unlimited."""

    @property
    def size_limited(self) -> bool:
        """Whether the weapon carries a size restriction (and so cannot attack buildings)."""
        return self.min_size is not None or self.max_size is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "power": self.power,
            "range": self.range,
            "aa": self.aa,
            "buildings_only": self.buildings_only,
            "min_size": self.min_size,
            "max_size": self.max_size,
            "uses": self.uses,
        }


CHARGES = Weapon(name="Charges", power=4, range=1.0, buildings_only=True, uses=2)
"""The weapon line that the Demolition keyword stands for."""


@dataclass(frozen=True, slots=True)
class UnitCard:
    """A unit's card: five numbers, weapons, printed Melee, keywords and what it may enter."""

    name: str
    """Unit type name."""
    skill: int
    """2..5; a Skill roll succeeds on 1d6 equal to or under the current Skill."""
    move: float
    """Inches of movement per activation."""
    resistance: int
    """Added to the defender's armour die."""
    hits: int
    """Damage it takes to destroy it: each damage costs one, and at 0 it is destroyed."""
    size: int
    """1..5; scored when removed, and Power when ramming."""
    melee: int | None
    """Printed Melee value; ``None`` means close combat is resolved as Ramming."""
    weapons: tuple[Weapon, ...]
    """Weapon lines in card order (Charges included for Demolition)."""
    keywords: frozenset[Keyword]
    """Keywords printed on the card."""
    enters: frozenset[str]
    """Terrain kinds the unit may enter although they block movement."""

    def has(self, keyword: Keyword) -> bool:
        """Whether the card carries ``keyword``."""
        return keyword in self.keywords

    def may_enter(self, props: TerrainProps) -> bool:
        """Whether this unit may enter terrain with these properties at all (hazards aside)."""
        if Keyword.AERIAL in self.keywords or not props.blocks_movement:
            return True
        if props.kind in self.enters:
            return True
        return props.water and Keyword.AMPHIBIOUS in self.keywords

    def weapon(self, name: str) -> Weapon | None:
        """The weapon line called ``name``, if any."""
        for w in self.weapons:
            if w.name == name:
                return w
        return None

    @classmethod
    def from_dict(cls, data: Any, ruleset: object) -> UnitCard:
        """A card from a card dict, checked as a scenario's cards are (``ScenarioError``).

        ``ruleset`` (a ``Ruleset`` or its name) decides which keywords are allowed. Demolition
        gets its Charges line if the dict lacks one. Anything else for ``ruleset`` is a
        ``TypeError``, at once, in these words (it is typed ``object`` so that the compiled
        engine does not refuse it first in its own).
        """
        from .errors import ScenarioError
        from .rulesets import RULESETS, Ruleset
        from .validation import _Checker, parse_unit_card

        if isinstance(ruleset, str):
            if ruleset not in RULESETS:
                raise ScenarioError([("ruleset", f"must be one of {sorted(RULESETS)}")])
            rules = RULESETS[ruleset]
        elif isinstance(ruleset, Ruleset):
            rules = ruleset
        else:
            raise TypeError(
                f"ruleset must be a Ruleset or a ruleset's name, one of {sorted(RULESETS)}; "
                f"got {type(ruleset).__name__}"
            )
        checker = _Checker()
        card = parse_unit_card(data, "card", rules, checker)
        if card is None:
            raise ScenarioError(checker.problems)
        return card

    def to_dict(self) -> dict[str, Any]:
        """The card dict; keywords in the rule text's order, so it renders back to card text."""
        return {
            "name": self.name,
            "skill": self.skill,
            "move": self.move,
            "resistance": self.resistance,
            "hits": self.hits,
            "size": self.size,
            "melee": self.melee,
            "weapons": [w.to_dict() for w in self.weapons],
            "keywords": [k.value for k in Keyword if k in self.keywords],
            "enters": sorted(self.enters),
        }


@dataclass(frozen=True, slots=True)
class Admits:
    """The range of unit Sizes a building lets in."""

    min_size: int
    """Smallest Size admitted."""
    max_size: int
    """Largest Size admitted."""

    def admits(self, size: int) -> bool:
        return self.min_size <= size <= self.max_size


@dataclass(frozen=True, slots=True)
class BuildingCard:
    """A building's card: no Skill, never suppressed, never activates."""

    name: str
    """Building type name."""
    resistance: int
    """Added to the building's armour die."""
    hits: int
    """At 0 the building collapses to its rubble."""
    admits: Admits | None
    """Sizes it lets in without Breaching; ``None`` admits nobody."""
    rubble: TerrainProps
    """The terrain piece it becomes when it collapses (on the same ground)."""

    def admits_size(self, size: int) -> bool:
        return self.admits is not None and self.admits.admits(size)


def barred_at(
    card: UnitCard,
    p: Point,
    terrain: Iterable[TerrainPiece],
    buildings: Iterable[tuple[str, Polygon, BuildingCard]],
    joints: Mapping[str, Sequence[tuple[Point, Point]]],
) -> list[str]:
    """The ids of what keeps a unit on ``card`` from standing at ``p``: a terrain piece it may
    not enter, or a building (id, footprint, card) that does not admit it, ``p`` inside either:
    strictly inside, or on one of its ``joints`` (by id) with another piece, which is inside
    both (E34). A unit may stand only where it could move: a flier anywhere, and a unit that
    breaches in any building (a Skill roll or a Hit on the way in)."""
    if card.has(Keyword.AERIAL):
        return []  # Aerial ignores all terrain.

    def inside(piece: str, polygon: Polygon) -> bool:
        return polygon.contains_strictly(p) or on_joint(p, joints.get(piece, ()))

    barred = [t.id for t in terrain if not card.may_enter(t.props) and inside(t.id, t.polygon)]
    if not card.has(Keyword.BREACHING):
        barred += [
            bid
            for bid, polygon, building in buildings
            if not building.admits_size(card.size) and inside(bid, polygon)
        ]
    return barred
