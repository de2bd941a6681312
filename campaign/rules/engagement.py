"""Engagements: BUCS unit combat, many units against many, round by round, every modifier shown.

A side is one or more units (and the characters leading them). Each round every unit of the
larger side is paired with a unit of the other, in the order the GM listed them (the smaller
side's units fight more than one pairing), and each pairing is an opposed d20 + modifiers: the
quality column its command gives it, equipment, its leader's feats, Dug In, the opponent Pinned
Down, Momentum, Mobile, Outnumbered (from the sides' own counts), terrain specialists, Driven
Back. The winner inflicts one hit per full 5 points of margin; the hits a unit takes in a round,
over all its pairings, are Morale and Casualty by turns, Morale first (`hit_kind`); a leader
takes 3d6 per Casualty hit as it lands, and its death costs the unit 2 Morale hits at
once. Every modifier goes into the log with its source, every die with its purpose. Choices
are in docs/bucs-choices.md ("Engagements"). Plain Python: no Django.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from battles.engine.events import Removal
from campaign.rules.characters import Feat, feat_sum
from campaign.rules.checks import CheckUnit, check_modifiers
from campaign.rules.command import (
    Command,
    Commandable,
    column,
    command_of,
    legendary_command,
)
from campaign.rules.damage import LEADER_DEATH_MORALE_HITS, leader_wounds
from campaign.rules.history import out_cold_text
from campaign.rules.orders import OrderKind, order_kit, within_specialties
from campaign.rules.state import CampaignUnitState, LeaderState
from units.bucs import (
    DUG_IN,
    MOMENTUM_PER_ROUND,
    PINNED_DOWN_OPPONENT,
    Equipment,
    Quality,
    Specialty,
    fielded,
    hits_from_margin,
    ignores_first_morale_hit,
    mobile_modifier,
    mobility,
    momentum_after_round,
    outnumbered_modifier,
    starting_momentum,
)
from units.words import given, or_words, possessive, value_shown

SIDES = ("attackers", "defenders")
ROUND_LIMIT_MAX = 50


def round_limit_problem(round_limit: Any) -> str:
    """Why ``round_limit`` is no engagement's (or quick resolve's) round limit ("": it is one)."""
    if type(round_limit) is not int:  # a bool is no limit
        return f"The round limit is a whole number, not {value_shown(round_limit)}."
    if not 1 <= round_limit <= ROUND_LIMIT_MAX:
        return f"The round limit is 1 to {ROUND_LIMIT_MAX} rounds, not {round_limit}."
    return ""


TERRAINS = ("open", "amphibious", "arctic", "jungle", "swamp")
"""The terrain a GM may state for an engagement (amphibious: a beach or other amphibious ground)."""


def terrain_label(terrain: str) -> str:
    """A terrain's name on the pages: "Open", "Swamp"."""
    return terrain.capitalize()


ARMOR_BARRED_TERRAIN = frozenset({"amphibious", "arctic", "jungle", "swamp"})
"""Where Armor cannot go unless it is also Amphibious."""

DRIVEN_BACK_MARGIN = 10
"""A unit that loses a pairing by this much (two hits' worth) is Driven Back (chosen)."""
DRIVEN_BACK = -2
"""On a Driven Back unit's rolls in the next round (chosen)."""
PINNED_BY_NUMBERS = Fraction(3)
"""Enemy units per own unit at which a side is Pinned Down by numbers (chosen)."""
LANDING_WINS_TO_END_PIN = 2
"""Pairings a landing unit without Amphibious must win before it is no longer Pinned Down."""
CAUSE_SEVERAL = "fire from several directions"
CAUSE_CRAMPED = "cramped quarters (doorway, elevator, narrow street)"
CAUSE_LANDING = "landing from landing craft"
"""The situations the GM states that pin a unit, as a round's "Pinned Down" line names them."""
TERRAIN_MOMENTUM_FACTOR = 2
"""Momentum counts double for a terrain specialist in its terrain against a unit without it."""

ARMOR_IGNORES = Specialty.ARMOR.row.ignores_casualty_hits
COMBAT_SPECIALTIES = frozenset({Specialty.INFANTRY, Specialty.MECHANIZED, Specialty.ARMOR})
"""A unit holding one of these fights at its quality; any other fights as Raw with Poor kit."""

UNCOVERED = "no Infantry (or vehicle) specialty: fights as Raw, with Poor kit"
"""Why a unit without a `COMBAT_SPECIALTIES` specialty fights as Raw with Poor kit."""


def hit_kind(index: int) -> str:
    """``morale`` or ``casualty``: the kind of a unit's hit by its place among its round's hits.

    A unit's hits in a round go Morale, Casualty, Morale, ... however many pairings dealt them,
    so the round's hits split half rounded up Morale, half rounded down Casualty (BUCS's split).
    """
    return "morale" if index % 2 == 0 else "casualty"


class EngagementError(ValueError):
    """A set-up the engagement cannot be fought from; ``errors`` names the field of each
    reason (a side's key, ``terrain``, ``round_limit``, ``surprise``)."""

    def __init__(self, errors: dict[str, list[str]]) -> None:
        super().__init__("; ".join(p for problems in errors.values() for p in problems))
        self.errors = errors


@dataclass(frozen=True)
class Engaged:
    """One unit in the engagement, as the GM set it up (and its Orders and leader say)."""

    key: str
    state: CampaignUnitState
    leader_feats: frozenset[Feat] = frozenset()
    order: OrderKind | None = None
    order_repeated: bool = True
    """For a Raw unit: its Order's giver is with the force to repeat it every round."""
    dug_in: bool = False
    beachhead: bool = False
    """Its Order to Establish Beachhead is done: dug in on amphibious ground."""
    several_directions: bool = False
    """Under fire from several directions."""
    cramped: bool = False
    """In a doorway, an elevator, a narrow street: cramped quarters."""
    landing: bool = False
    """Coming ashore from landing craft."""


@dataclass
class _Unit:
    setup: Engaged
    side: str
    momentum: int = 0
    morale_hits: int = 0
    casualty_hits: int = 0
    armor_ignored: int = 0
    excellent_ignored: int = 0
    leader: LeaderState | None = None
    leader_rolls: list[int] = field(default_factory=list)
    leader_died: bool = False
    doorway_pinned: bool = False
    landing_wins: int = 0
    driven_back_in: int | None = None
    """The round in which it was last Driven Back: it pays for it in the next."""
    removed: Removal = Removal.NONE
    hits_this_round: int = 0
    """Hits dealt to it so far this round, over all its pairings (ignored ones included)."""

    @property
    def key(self) -> str:
        return self.setup.key

    @property
    def state(self) -> CampaignUnitState:
        return self.setup.state

    @property
    def name(self) -> str:
        return self.state.name

    @property
    def hits(self) -> int:
        return self.state.hits + self.morale_hits + self.casualty_hits

    @property
    def quality(self) -> Quality:
        return Quality(self.state.quality).lowered(self.hits)

    @property
    def led(self) -> bool:
        return self.leader is not None and self.leader.leads

    @property
    def specialties(self) -> tuple[Specialty, ...]:
        return self.state.specialties

    @property
    def dug_in(self) -> bool:
        return self.setup.dug_in or self.setup.beachhead


@dataclass(frozen=True)
class UnitDamage:
    """What one unit took in the engagement, and its leader after it."""

    key: str
    side: str
    morale_hits: int
    """Morale hits taken, the leader's death's included."""
    casualty_hits: int
    armor_ignored: int
    excellent_ignored: int
    removed: Removal
    """``none``, ``demoralised`` (broke on a Morale hit) or ``destroyed`` (on a Casualty hit)."""
    leader: LeaderState | None
    leader_rolls: tuple[int, ...]
    leader_died: bool


@dataclass(frozen=True)
class EngagementResult:
    winner: str | None
    """``attackers``, ``defenders``, or None when the round limit came first."""
    rounds: int
    damage: dict[str, UnitDamage]
    events: list[dict[str, Any]]


def sides_errors(sides: Mapping[Any, Sequence[Any]]) -> dict[str, list[str]]:
    """What is wrong with the sides themselves, by the side's key: a key that is no side (it
    would be left out of the fight unseen) and a side with nobody on it."""
    errors = {
        str(key): [f"not a side of an engagement: the sides are {' and '.join(SIDES)}"]
        for key in sides
        if key not in SIDES
    }
    for side in SIDES:
        if not sides.get(side):
            errors[side] = [f"the {side} need at least one unit"]
    return errors


def terrain_error(terrain: str) -> str | None:
    """Why ``terrain`` is not one an engagement is fought on, or None."""
    if terrain in TERRAINS:
        return None
    names = or_words([terrain_label(t) for t in TERRAINS])
    return f"unknown terrain {given(terrain)}; one of {names}"


def setup_errors(sides: Mapping[str, Sequence[Engaged]], terrain: str) -> dict[str, list[str]]:
    """Every reason this set-up cannot be fought, by the field it is about (a side's key or
    ``terrain``); an empty dict means it can."""
    errors = sides_errors(sides)

    def refuse(field: str, problem: str) -> None:
        errors.setdefault(field, []).append(problem)

    if problem := terrain_error(terrain):
        refuse("terrain", problem)
    seen: set[str] = set()
    for side in SIDES:
        for unit in sides.get(side, ()):
            name = unit.state.name
            if unit.key in seen:
                refuse(side, f"{name} is listed already: a unit can fight on one side only")
            seen.add(unit.key)
            specialties = unit.state.specialties
            barred = Specialty.ARMOR in specialties and Specialty.AMPHIBIOUS not in specialties
            if barred and terrain in ARMOR_BARRED_TERRAIN:
                # The terrain is the GM's choice for the fight; the sentence names the unit.
                refuse("terrain", f"{name} is Armor: it cannot enter {terrain} terrain")
    return errors


def _specialist_terrain_bonus(unit: _Unit, terrain: str) -> tuple[int, str] | None:
    for specialty in unit.specialties:
        row = specialty.row
        if row.terrain == terrain and row.terrain_modifier:
            return row.terrain_modifier, f"{row.label} in its terrain"
    return None


def _terrain_specialist(unit: _Unit, terrain: str) -> Specialty | None:
    return next((s for s in unit.specialties if s.row.terrain == terrain), None)


class _Fight:
    def __init__(
        self,
        sides: dict[str, Sequence[Engaged]],
        terrain: str,
        d20: Callable[[], int],
        d6: Callable[[], int],
    ) -> None:
        self.terrain = terrain
        self.d20 = d20
        self.d6 = d6
        self.units = {
            side: [_Unit(setup, side, leader=setup.state.leader) for setup in sides[side]]
            for side in SIDES
        }
        self.events: list[dict[str, Any]] = []
        self.round = 0

    def alive(self, side: str) -> list[_Unit]:
        return [u for u in self.units[side] if u.removed == Removal.NONE]

    def other(self, side: str) -> str:
        return SIDES[1 - SIDES.index(side)]

    # -- set-up -----------------------------------------------------------------------------

    def commanded_by(self, unit: _Unit) -> str | None:
        """The key of the Legendary unit commanding this one now, if any.

        Worked out afresh at every roll from the units still in the fight and their effective
        quality: command holds only while its Legendary unit stands and is still Legendary, so
        a commander broken, or brought below Legendary by its hits, commands nobody from then
        on (and another Legendary unit of the side may take up the units it left).
        """
        commandables = [
            Commandable(u.key, u.led, u.setup.order is not None, u.quality)
            for u in self.alive(unit.side)
        ]
        return legendary_command(commandables).get(unit.key)

    def line_up(self) -> None:
        """Log each unit as it starts, with who commands it then; the cramped start pinned."""
        for side in SIDES:
            for unit in self.units[side]:
                self.events.append(
                    {
                        "event": "unit",
                        "side": side,
                        "unit": unit.key,
                        "name": unit.name,
                        "quality": unit.quality.label,
                        # Its own quality too when its hits lower what it fights at, so the
                        # line-up reads as its page does ("Elite, fights as Experienced").
                        **self.own_quality(unit),
                        "leader": None if unit.leader is None else unit.leader.name,
                        "order": None if unit.setup.order is None else unit.setup.order.value,
                        "commanded_by": self.commanded_by(unit),
                        # A leader killed or knocked out before the fight is named as such,
                        # not as leading.
                        **self.leader_out(unit),
                        **self.unpinned(unit),
                    }
                )
            for unit in self.units[side]:
                unit.doorway_pinned = unit.setup.cramped

    @staticmethod
    def own_quality(unit: _Unit) -> dict[str, Any]:
        """The unit's own quality, when the hits it carries in make it fight lower."""
        own = Quality(unit.state.quality)
        return {} if own == unit.quality else {"own_quality": own.label}

    @staticmethod
    def leader_out(unit: _Unit) -> dict[str, Any]:
        """Why the leader at its head leads it not: dead, or dying at so many hit points."""
        if unit.leader is None or unit.led:
            return {}
        if not unit.leader.alive:
            return {"leader_dead": True}
        return {"leader_dying": unit.leader.hit_points}

    def surprise(self, hiding: str | None) -> None:
        """Hide against Spot, each a general skill check; a side that hides unseen starts at +2.

        Each unit's value is what a general skill check gives it (`check_modifiers`): the quality
        column its command gives it, its kit and its leader's skill feats, with the quality and
        kit it fights with here (`fights_at`). The hiding side is as quiet as its worst unit; the
        spotting side as sharp as its best; Special Forces leading a unit of the side add their
        +2 once. A tie goes to the spotter: the hidden must beat the watch. Surprise is the
        hiders' to win: spotting them only spoils it, so then nobody is surprised and nobody
        starts with Momentum.
        """
        if hiding is None:
            return
        spotting = self.other(hiding)
        checks = {}
        for side, pick in ((hiding, min), (spotting, max)):
            values = [(self.check_working(u), u) for u in self.units[side]]
            modifiers, chosen = pick(values, key=lambda v: sum(m[1] for m in v[0]))
            modifiers = list(modifiers)
            led = [u for u in self.units[side] if u.led]
            bonus = max((feat_sum(u.setup.leader_feats, "surprise") for u in led), default=0)
            if bonus:
                by = next(u for u in led if feat_sum(u.setup.leader_feats, "surprise") == bonus)
                feats = ", ".join(f.label for f in sorted(by.setup.leader_feats) if f.row.surprise)
                modifiers.append(
                    [f"{feats} ({possessive(by.name)} leader), once for the side", bonus]
                )
            die = self.d20()
            checks[side] = {
                "unit": chosen.key,
                "name": chosen.name,
                "d20": die,
                "modifiers": modifiers,
                "total": die + sum(m[1] for m in modifiers),
            }
        unseen = checks[hiding]["total"] > checks[spotting]["total"]
        for unit in self.units[hiding]:
            unit.momentum = starting_momentum(surprise=unseen)
        self.events.append(
            {"event": "surprise", "hide": checks[hiding], "spot": checks[spotting],
             "hiding": hiding, "winner": hiding if unseen else spotting,
             "momentum": hiding if unseen else None}
        )  # fmt: skip

    def check_working(self, unit: _Unit) -> list[list[Any]]:
        """Its modifiers on a general skill check (Hide, Spot) as it stands in this fight: the
        notes on the quality and kit it fights with, then the check's own modifiers."""
        quality, equipment, notes = self.fights_at(unit)
        command, _ = self.command(unit)
        # A dying leader adds no feats: the working says why, as the line-up does.
        dying = self.leader_out(unit).get("leader_dying")
        checking = CheckUnit(
            key=unit.key,
            name=unit.name,
            quality=quality,
            equipment=equipment,
            specialties=unit.specialties,
            command=command,
            leader_feats=unit.setup.leader_feats,
            leader="" if unit.leader is None else unit.leader.name,
            leader_out="" if dying is None else out_cold_text(unit.leader.name, dying),
        )
        return notes + check_modifiers(checking, None)

    # -- modifiers --------------------------------------------------------------------------

    def fights_at(self, unit: _Unit) -> tuple[Quality, Equipment, list[list[Any]]]:
        """Its quality and kit for this pairing, and the notes that explain them."""
        notes: list[list[Any]] = []
        kit = fielded(unit.quality, unit.state.equipment, unit.specialties, COMBAT_SPECIALTIES)
        quality, equipment = kit.quality, kit.equipment
        if not kit.covered:
            notes.append([UNCOVERED, 0])
            return quality, equipment, notes
        order = unit.setup.order
        if order is not None and not within_specialties(order, unit.specialties):
            kit = order_kit(order, quality, equipment, unit.specialties)
            poor = f", with {kit.equipment.label} kit" if kit.equipment != equipment else ""
            notes.append([f"{order.label} is outside its specialties: performs as Raw{poor}", 0])
            quality, equipment = kit.quality, kit.equipment
        return quality, equipment, notes

    def kit(self, unit: _Unit) -> Equipment:
        """The kit it fights with (`fights_at`), which is what its kit's specials go by.

        A unit pressed into a task outside its specialties counts as Poor for everything Poor
        kit does: a Mechanized or Armor unit loses its mobility, and Excellent kit it holds
        ignores no Morale hit, nor does an enemy count as less well equipped than its own.
        """
        return self.fights_at(unit)[1]

    def command(self, unit: _Unit) -> tuple[Command, bool]:
        """Its command now, and whether that is because its Order lapsed (a Raw unit's Order
        lasts a round unless its giver repeats it)."""
        quality, _, _ = self.fights_at(unit)
        ordered = unit.setup.order is not None
        lapsed = False
        if ordered and quality == Quality.RAW and self.round > 1 and not unit.setup.order_repeated:
            ordered, lapsed = False, True
        commandable = Commandable(unit.key, unit.led, ordered, quality)
        return command_of(commandable, self.commanded_by(unit)), lapsed

    def command_value(self, unit: _Unit) -> tuple[int, str]:
        quality, _, _ = self.fights_at(unit)
        command, lapsed = self.command(unit)
        ordered = unit.setup.order is not None and not lapsed
        commander = self.commanded_by(unit)
        value, source = column(quality, command)
        if lapsed and source == column(quality, Command.WITHOUT_ORDERS)[1]:
            source = (
                f"{quality.label}, its Order not repeated (its giver leads no unit on its side, "
                "or is dying or dead), so without Orders it cannot act alone"
            )
        if commander and not unit.led and not ordered:
            legend = self.by_key(commander)
            source += f" (commanded by {legend.name}, Legendary)"
        elif unit.led:
            source += f" ({unit.leader.name})"
        return value, source

    def by_key(self, key: str) -> _Unit:
        return next(u for side in SIDES for u in self.units[side] if u.key == key)

    def unpinned(self, unit: _Unit) -> dict[str, Any]:
        """The situations the GM stated for a unit that cannot pin it as the fight starts, each
        with why (as `pinned_causes` spares it), so the line-up says what a ticked box did not
        do: "fire from several directions — Armor facing no enemy Armor"."""
        stated = [
            cause
            for cause, said in (
                (CAUSE_SEVERAL, unit.setup.several_directions),
                (CAUSE_CRAMPED, unit.setup.cramped),
                (CAUSE_LANDING, unit.setup.landing),
            )
            if said
        ]
        enemies = self.alive(self.other(unit.side))
        armor_free = (
            Specialty.ARMOR in unit.specialties
            and all(Specialty.ARMOR not in e.specialties for e in enemies)
            and not unit.setup.cramped
        )
        spared = []
        for cause in stated:
            if armor_free:
                why = "Armor facing no enemy Armor"
            elif cause == CAUSE_LANDING and Specialty.AMPHIBIOUS in unit.specialties:
                why = "Amphibious, it lands unpinned"
            elif unit.dug_in and cause != CAUSE_SEVERAL:
                why = "dug in: only fire from several directions pins it"
            else:
                continue
            spared.append(f"{cause} — {why}")
        return {"unpinned": spared} if spared else {}

    def pinned_causes(self, unit: _Unit) -> list[str]:
        enemies = self.alive(self.other(unit.side))
        cramped = unit.setup.cramped
        causes = []
        if unit.setup.several_directions:
            causes.append(CAUSE_SEVERAL)
        if unit.doorway_pinned:
            causes.append(CAUSE_CRAMPED)
        ratio = Fraction(len(enemies), max(1, len(self.alive(unit.side))))
        speed = mobility(unit.specialties, self.kit(unit))
        faster = all(speed > mobility(e.specialties, self.kit(e)) for e in enemies)
        if ratio >= PINNED_BY_NUMBERS and not (faster and not cramped):
            causes.append(f"outnumbered {ratio.numerator}:{ratio.denominator}")
        # Amphibious units are trained to come ashore: only the others land Pinned Down.
        amphibious = Specialty.AMPHIBIOUS in unit.specialties
        if unit.setup.landing and not amphibious and unit.landing_wins < LANDING_WINS_TO_END_PIN:
            causes.append(CAUSE_LANDING)
        no_armor_against = all(Specialty.ARMOR not in e.specialties for e in enemies)
        if Specialty.ARMOR in unit.specialties and no_armor_against and not cramped:
            return []  # Armor is never Pinned Down by Infantry or Mechanized out in the open
        if unit.dug_in:
            return [c for c in causes if c == CAUSE_SEVERAL]
        return causes

    def roll(self, unit: _Unit, enemy: _Unit, pinned: dict[str, list[str]]) -> dict[str, Any]:
        _, equipment, notes = self.fights_at(unit)
        value, source = self.command_value(unit)
        modifiers: list[list[Any]] = [[f"quality: {source}", value]]
        modifiers.append([f"equipment: {equipment.label}", equipment.modifier])
        if unit.led:
            bonus = feat_sum(unit.setup.leader_feats, "combat")
            if bonus:
                feats = ", ".join(f.label for f in sorted(unit.setup.leader_feats))
                modifiers.append([f"leader's feats ({feats})", bonus])
        if unit.dug_in:
            why = "Establish Beachhead: dug in" if unit.setup.beachhead else "Dug In"
            modifiers.append([why, DUG_IN])
        if pinned[enemy.key]:
            modifiers.append([f"{enemy.name} Pinned Down", PINNED_DOWN_OPPONENT])
        momentum_counts = not (unit.dug_in or enemy.dug_in)
        if unit.momentum and momentum_counts:
            momentum = unit.momentum * MOMENTUM_PER_ROUND
            specialist = _terrain_specialist(unit, self.terrain)
            if specialist and specialist not in enemy.specialties:
                momentum *= TERRAIN_MOMENTUM_FACTOR
                modifiers.append([f"Momentum, doubled ({specialist.label} in its terrain)",
                                  momentum])  # fmt: skip
            else:
                modifiers.append(["Momentum", momentum])
        mobile = mobile_modifier(
            mobility(unit.specialties, equipment), mobility(enemy.specialties, self.kit(enemy))
        )
        if mobile:
            modifiers.append(["Mobile", mobile])
        own, them = len(self.alive(unit.side)), len(self.alive(enemy.side))
        outnumbered = outnumbered_modifier(own, them)
        if outnumbered:
            relief = feat_sum(unit.setup.leader_feats, "outnumbered_relief") if unit.led else 0
            modifiers.append([f"Outnumbered {them} to {own}", outnumbered])
            if relief:
                modifiers.append(["Squad/Squadron Tactics", min(relief, -outnumbered)])
        terrain = _specialist_terrain_bonus(unit, self.terrain)
        if terrain:
            modifiers.append([terrain[1], terrain[0]])
        if unit.driven_back_in is not None and unit.driven_back_in == self.round - 1:
            modifiers.append(["Driven Back last round", DRIVEN_BACK])
        die = self.d20()
        return {
            "unit": unit.key,
            "name": unit.name,
            "d20": die,
            "modifiers": notes + modifiers,
            "total": die + sum(m[1] for m in modifiers),
        }

    # -- damage -----------------------------------------------------------------------------

    def hit(self, loser: _Unit, excellent: bool) -> None:
        """One hit, its kind by turns over the loser's round (`hit_kind`); Armor and Excellent
        as in the bridge.

        The split is the unit's per round, not the pairing's: a lone unit losing two pairings
        by 5 takes one Morale and one Casualty hit, as it would losing one pairing by 10. A hit
        Armor or Excellent kit ignores still takes its turn, so what they ignore is the hit of
        the kind that came. ``excellent``: the loser's kit ignores its first Morale hit against
        the winner's, as each fought this pairing with.
        """
        kind = hit_kind(loser.hits_this_round)
        loser.hits_this_round += 1
        ignored = None
        armor = Specialty.ARMOR in loser.specialties
        if kind == "casualty" and armor and loser.armor_ignored < ARMOR_IGNORES:
            loser.armor_ignored += 1
            ignored = "armor"
        if kind == "morale" and excellent and loser.excellent_ignored == 0:
            loser.excellent_ignored = 1
            ignored = "excellent"
        event = {"event": "hit", "round": self.round, "unit": loser.key, "kind": kind,
                 "ignored": ignored}  # fmt: skip
        self.events.append(event)
        if ignored:
            return
        if kind == "morale":
            loser.morale_hits += 1
        else:
            loser.casualty_hits += 1
        broken = loser.hits > int(loser.state.quality)
        if not broken:
            # Each hit costs a step for the rest of the fight: the log says what it fights as,
            # where the next round's rolls would otherwise show a lower quality unexplained.
            event["fights_as"] = loser.quality.label
        if kind == "casualty":
            # 3d6 for every Casualty hit the unit suffers, the one that destroys it included.
            self.wound_leader(loser)
        if broken:
            self.breaks(loser, Removal.DEMORALISED if kind == "morale" else Removal.DESTROYED)
        elif loser.hits > int(loser.state.quality):
            self.breaks(loser, Removal.DEMORALISED)  # broken by its leader's death

    def wound_leader(self, unit: _Unit) -> None:
        # A dying leader is still with its unit and is wounded with it; the dead are not.
        if unit.leader is None or not unit.leader.alive:
            return
        unit.leader, rolls, died = leader_wounds(unit.leader, 1, self.d6)
        unit.leader_rolls.extend(rolls)
        self.events.append(
            {"event": "leader", "round": self.round, "unit": unit.key, "rolls": list(rolls),
             "hit_points": unit.leader.hit_points, "died": died}
        )  # fmt: skip
        if died:
            unit.leader_died = True
            unit.morale_hits += LEADER_DEATH_MORALE_HITS
            died_event = {"event": "leader_died", "round": self.round, "unit": unit.key,
                          "morale_hits": LEADER_DEATH_MORALE_HITS}  # fmt: skip
            if unit.hits <= int(unit.state.quality):
                died_event["fights_as"] = unit.quality.label
            self.events.append(died_event)

    def breaks(self, unit: _Unit, removed: Removal) -> None:
        unit.removed = removed
        self.events.append(
            {"event": "broken", "round": self.round, "unit": unit.key, "removed": removed}
        )

    # -- the rounds -------------------------------------------------------------------------

    def fight_round(self) -> None:
        self.round += 1
        attackers, defenders = self.alive("attackers"), self.alive("defenders")
        for unit in attackers + defenders:
            unit.hits_this_round = 0
        pinned = {u.key: self.pinned_causes(u) for u in attackers + defenders}
        self.events.append(
            {"event": "round", "round": self.round,
             "pinned": {k: v for k, v in pinned.items() if v}}
        )  # fmt: skip
        # Each unit's pairings this round that count for Momentum: "won", "lost" or "tied".
        outcomes: dict[str, list[str]] = {}
        for i in range(max(len(attackers), len(defenders))):
            a, d = attackers[i % len(attackers)], defenders[i % len(defenders)]
            if a.removed != Removal.NONE or d.removed != Removal.NONE:
                continue
            rolls = {"attackers": self.roll(a, d, pinned), "defenders": self.roll(d, a, pinned)}
            margin = rolls["attackers"]["total"] - rolls["defenders"]["total"]
            pairing = {"event": "pairing", "round": self.round, **rolls, "margin": abs(margin)}
            momentum_counts = not (a.dug_in or d.dug_in)  # Dug In: immune, for and against
            if margin == 0:
                self.events.append({**pairing, "winner": None, "hits": 0, "driven_back": None})
                if momentum_counts:  # a tie: nobody gains ground
                    outcomes.setdefault(a.key, []).append("tied")
                    outcomes.setdefault(d.key, []).append("tied")
                continue
            won, lost = (a, d) if margin > 0 else (d, a)
            hits = hits_from_margin(abs(margin))
            pushed = abs(margin) >= DRIVEN_BACK_MARGIN and not (won.dug_in or lost.dug_in)
            self.events.append(
                {**pairing, "winner": won.side, "hits": hits,
                 "driven_back": lost.key if pushed else None}
            )  # fmt: skip
            if momentum_counts:
                outcomes.setdefault(won.key, []).append("won")
                outcomes.setdefault(lost.key, []).append("lost")
            if pushed:
                lost.driven_back_in = self.round
            won.doorway_pinned = False  # winning a round from the doorway ends that pin
            if won.setup.landing:
                won.landing_wins += 1
            excellent = ignores_first_morale_hit(self.kit(lost), self.kit(won))
            for _ in range(hits):
                if lost.removed != Removal.NONE:
                    break
                self.hit(lost, excellent)
        self.settle_momentum(outcomes)

    def settle_momentum(self, outcomes: dict[str, list[str]]) -> None:
        """Momentum moves once a round, by the round each unit had, not pairing by pairing.

        A unit won the round when it won every pairing it fought (that counts for Momentum):
        +1. It lost the round when it lost any of them: its Momentum is gone. Anything else
        (a tie, a win and a tie) is a round nobody won, and its Momentum stays where it was.
        A unit beaten by one enemy while it beat another has not carried the round, so the
        smaller side's units build Momentum only by beating everyone who comes at them.
        """
        for key, results in outcomes.items():
            unit = self.by_key(key)
            if "lost" in results:
                _, unit.momentum = momentum_after_round(0, unit.momentum)
            elif all(result == "won" for result in results):
                unit.momentum, _ = momentum_after_round(unit.momentum, 0)


def engagement_fight(
    sides: dict[str, Sequence[Engaged]],
    *,
    terrain: str = "open",
    surprise: str | None = None,
    round_limit: int,
    d20: Callable[[], int],
    d6: Callable[[], int],
) -> EngagementResult:
    """Fight the engagement out: the result and every event, in order."""
    errors = setup_errors(sides, terrain)
    if problem := round_limit_problem(round_limit):
        errors["round_limit"] = [problem]
    if surprise is not None and surprise not in SIDES:
        errors["surprise"] = [f"surprise is tried by attackers or defenders, not {given(surprise)}"]
    if errors:
        raise EngagementError(errors)
    fight = _Fight(sides, terrain, d20, d6)
    fight.line_up()
    fight.surprise(surprise)
    winner = None
    while fight.round < round_limit:
        fight.fight_round()
        standing = [side for side in SIDES if fight.alive(side)]
        if len(standing) < 2:
            winner = standing[0] if standing else None
            break
    fight.events.append({"event": "end", "rounds": fight.round, "winner": winner})
    damage = {
        u.key: UnitDamage(
            key=u.key,
            side=side,
            morale_hits=u.morale_hits,
            casualty_hits=u.casualty_hits,
            armor_ignored=u.armor_ignored,
            excellent_ignored=u.excellent_ignored,
            removed=u.removed,
            leader=u.leader,
            leader_rolls=tuple(u.leader_rolls),
            leader_died=u.leader_died,
        )
        for side in SIDES
        for u in fight.units[side]
    }
    return EngagementResult(winner, fight.round, damage, fight.events)
