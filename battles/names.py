"""What a person reads for each piece of a scenario: one name per unit, building, terrain piece,
objective and side, used by the report, the log's narration, the map and the replay alike.

A scenario names its sides, and its units and buildings carry cards with names; terrain pieces
and objectives have only ids. An id is made readable here and nowhere else ("north-wood-b" is
"North wood B"): a place is named as a name is, with a capital, alike on the map, in the score
table and in the story ("moves onto Crossroads"). Units are called by their own names where a
campaign gives them ("Iron Wolf"), else by their card's, numbered when the card is on the table
more than once ("Rifle Squad 2"); the side is added ("Iron Wolf (Blue Battalion)") only where a
name alone would not say which unit is meant.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from battles.engine import Scenario
from battles.engine.events import Removal
from battles.engine.geometry import distance, nearest_point
from battles.engine.scenario import Objective, ObjectiveKind
from units.words import capfirst

LEFT = {
    Removal.NONE: "in the field",
    Removal.DESTROYED: "destroyed",
    Removal.DEMORALISED: "demoralised",
}
"""How a unit left a battle, in the rule texts' words. A campaign says it in its own (its
"taken out" and "broken" are not yet what the battle costs the unit): `scenario_names`."""

NEAR = 1.5
"""Inches within which a unit is said to be "by" a piece of terrain or a building."""


def readable(piece_id: str) -> str:
    """An id as a name: "north-wood-b" → "North wood B", "woods-3" → "Woods 3"."""
    words = [w for w in re.split(r"[-_\s]+", piece_id) if w]
    name = " ".join(w.upper() if len(w) == 1 and w.isalpha() else w for w in words)
    return capfirst(name) or piece_id


@dataclass(frozen=True, slots=True)
class Names:
    """Every readable name of one scenario, by id."""

    scenario: Scenario
    units: dict[str, str]
    """Each unit's own name, without its side."""
    buildings: dict[str, str]
    terrain: dict[str, str]
    objectives: dict[str, str]
    """A hold objective by the ground it names ("Ford"); a raze objective by its building."""
    sides: dict[str, str]
    side_of: dict[str, str]
    """Each unit's side id."""
    ambiguous: frozenset[str]
    """Units whose own name another unit shares: they are named with their side."""
    left: Mapping[Removal, str]
    """How a unit left the battle, in the reader's words (`LEFT`, or a campaign's)."""
    title: str = ""
    """The battle's own name where it has one ("Battle of the Crossroads"): the story opens
    with it, the scenario being only the ground it is fought on."""
    cards_unseen: frozenset[str] = frozenset()
    """Units the reader knows by name only, their cards not shown (a campaign's forces seen in
    summary): the story gives no reason it could read only from their cards."""

    def __getitem__(self, key: str) -> str:
        return self.get(key)

    def get(self, key: str | None, default: str | None = None) -> str:
        """The name of a unit or building by its id (the id made readable when it names none of
        these). A unit may share its id with a side or a terrain piece: name those by their kind,
        `side` and `piece`."""
        if key is None:
            return default or "—"
        if key in self.units:
            return self.full(key) if key in self.ambiguous else self.units[key]
        if key in self.buildings:
            return self.buildings[key]
        return default if default is not None else readable(key)

    def side(self, side_id: str) -> str:
        """A side by its id."""
        return self.sides.get(side_id) or readable(side_id)

    def piece(self, piece_id: str) -> str:
        """A building or terrain piece by its id (their ids are unique among each other)."""
        return self.buildings.get(piece_id) or self.terrain.get(piece_id) or readable(piece_id)

    def full(self, unit: str) -> str:
        """A unit with its side, for a list of both sides' units: "Iron Wolf (Blue Battalion)"."""
        return f"{self.units[unit]} ({self.sides[self.side_of[unit]]})"

    def objective(self, objective_id: str) -> str:
        return self.objectives.get(objective_id) or readable(objective_id)

    def deed(self, objective: Objective) -> str:
        """What scoring an objective takes: "holding Ford", "razing North bunker"."""
        verb = "razing" if objective.kind is ObjectiveKind.RAZE else "holding"
        return f"{verb} {self.objective(objective.id)}"

    def where(self, point: tuple[float, float]) -> str:
        """Where a point on the table is, in words, when something there has a name: "into
        Mill", "onto Ford", "by North wood B"; else ""."""
        for b in self.scenario.buildings:
            if b.polygon.contains(point):
                return f"into {self.buildings[b.id]}"
        for o in self.scenario.objectives:
            if o.point is not None and distance(o.point, point) <= o.radius:
                return f"onto {self.objectives[o.id]}"
        for t in self.scenario.terrain:
            if t.polygon.contains(point):
                return f"into {self.terrain[t.id]}"
        pieces = [(b.id, b.polygon) for b in self.scenario.buildings]
        pieces += [(t.id, t.polygon) for t in self.scenario.terrain]
        near = [
            (distance(nearest_point(polygon, point), point), piece) for piece, polygon in pieces
        ]
        if near:
            gap, piece = min(near)
            if gap <= NEAR:
                return f"by {self.piece(piece)}"
        return ""


def scenario_names(
    scenario: Scenario,
    unit_names: Mapping[str, str] | None = None,
    left: Mapping[Removal, str] | None = None,
    *,
    title: str = "",
    cards_unseen: Collection[str] = (),
) -> Names:
    """The names of ``scenario``'s pieces; ``unit_names`` (by unit id) are the units' own
    names where their owners gave them some (a campaign's "Iron Wolf"), ``left`` the words for
    how a unit left the battle where they are not the rule texts' (a campaign's "taken out"),
    ``title`` the battle's own name, ``cards_unseen`` the units whose cards the reader may not
    see (`Names.cards_unseen`)."""
    given = {k: v for k, v in (unit_names or {}).items() if v}
    units = numbered([(u.id, u.card.name) for u in scenario.units()])
    units.update({k: v for k, v in given.items() if k in units})
    buildings = {b.id: building_name(b.card.name, b.id) for b in scenario.buildings}
    terrain = {t.id: readable(t.id) for t in scenario.terrain}
    objectives = {
        o.id: buildings.get(o.building, readable(o.building))
        if o.kind is ObjectiveKind.RAZE and o.building
        else readable(o.id)
        for o in scenario.objectives
    }
    shared = Counter(units.values())
    return Names(
        scenario=scenario,
        units=units,
        buildings=buildings,
        terrain=terrain,
        objectives=objectives,
        sides={s.id: s.name for s in scenario.sides},
        side_of={u.id: u.side for u in scenario.units()},
        ambiguous=frozenset(u for u, name in units.items() if shared[name] > 1),
        left={**LEFT, **(left or {})},
        title=title,
        cards_unseen=frozenset(cards_unseen),
    )


def building_name(card: str, piece: str) -> str:
    """A building by its id in words ("South house", "Mill"), or by its card when the id only
    repeats it ("Farmhouse", not "farmhouse")."""
    return card if readable(piece).lower() == card.lower() else readable(piece)


def numbered(pieces: list[tuple[str, str]]) -> dict[str, str]:
    """Pieces by their card's name, numbered in order where the card is on the table more than
    once ("Medium Tank 2")."""
    repeated = Counter(card for _, card in pieces)
    seen: Counter[str] = Counter()
    names = {}
    for piece, card in pieces:
        seen[card] += 1
        names[piece] = card if repeated[card] == 1 else f"{card} {seen[card]}"
    return names
