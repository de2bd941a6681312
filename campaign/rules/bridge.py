"""The bridge between a unit's BUCS state and a Team Bravo battle, as pure functions.

Going in, everything BUCS knows about a unit (quality under Orders or without, equipment, the
specialty its card needs) becomes one shift of its card's Skill (`going_in`, `battle_card`).
Coming out, a battle's outcome for the unit (`UnitOutcome`, the same whether the engine resolved
the battle or a table of players did) becomes BUCS damage (`outcome_damage`). The rules are
`shared/design/rulings.md`, "The bridge, second edition"; docs/campaign.md lists each with its
test. Plain Python: no Django (the engine's rulesets are plain too).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from battles.engine.events import Removal
from battles.engine.rulesets import RULESETS
from campaign.rules.command import Commandable, legendary_command
from campaign.rules.experience import with_quality
from campaign.rules.history import plural, possessive
from campaign.rules.orders import (
    OrderKind,
    clock_hour,
    clock_text,
    order_kit,
    outside_specialties_text,
)
from campaign.rules.recovery import window_after_battle
from campaign.rules.state import (
    LEADER_DEATH_HIT_POINTS,
    CampaignUnitState,
    LeaderState,
    Status,
    WindowFight,
    ordered_specialties,
    quality_name,
)
from units.bucs import (
    MODIFIER_PER_SKILL,
    SKILL_MAX,
    SKILL_MIN,
    Equipment,
    Quality,
    Specialty,
    effective_quality,
    fielded,
    ignores_first_morale_hit,
    shifted_skill,
    skill_shift,
    with_requirements,
)
from units.words import MINUS, number_text, or_words, value_shown

LEFT_THE_TABLE = {
    Removal.NONE: "Still in the field",
    Removal.DESTROYED: "Taken out",
    Removal.DEMORALISED: "Broken",
}
"""How a unit left a Team Bravo table, in the campaign's words: taken out or broken there is not
yet what it costs the unit (the bridge makes that BUCS damage), so not "destroyed"."""

LEADER_DEATH_MORALE_HITS = 2
"""Morale hits a unit takes at once when its leader dies."""

LEADER_DIED = f"died: {LEADER_DEATH_MORALE_HITS} Morale hits at once"
"""What a history entry says of a leader's death and what it cost the unit, after the leader's
name (`leader_died_text`); an entry written before said "the leader died: …". Said once: the
story of an entry of a kind whose reason tells it leaves the leader's death out
(`HistoryEntry.death_told`)."""


def leader_died_text(name: str) -> str:
    """A leader's death in an entry's working, and what it cost the unit: "Capt. Mara Holt died:
    2 Morale hits at once"."""
    return f"{name} {LEADER_DIED}"


def kit_stopped_text(armor_ignored: int, excellent_ignored: int) -> list[str]:
    """The hits a unit's Armor or Excellent equipment stopped in a fight, in the words of its
    entry's working: "Armor ignored 2 Casualty hits", "Excellent equipment ignored the first
    Morale hit". A battle's entry and an engagement's say them alike."""
    parts = []
    if armor_ignored:
        parts.append(f"Armor ignored {plural(armor_ignored, 'Casualty hit')}")
    if excellent_ignored:
        parts.append("Excellent equipment ignored the first Morale hit")
    return parts


LEADER_DICE_PER_CASUALTY_HIT = 3
"""A leader takes 3d6 damage per Casualty hit its unit suffers."""

Roll = Callable[[], int]
"""A die: each call returns the next result (1..6 for a d6)."""


class BridgeError(ValueError):
    """An outcome or a unit the bridge cannot use."""


@dataclass(frozen=True)
class UnitOutcome:
    """How one persistent unit came out of a battle, as plain data."""

    hits_lost: int
    """Hits the unit lost in the battle."""
    skill_lost: int
    """Skill lost to suppression."""
    removed: Removal = Removal.NONE
    """Whether and how it left the battle (its word is accepted too: ``"destroyed"``)."""

    def __post_init__(self) -> None:
        for name in ("hits_lost", "skill_lost"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise BridgeError(
                    f"{name} must be a whole number, 0 or more, got {value_shown(value)}"
                )
        try:
            object.__setattr__(self, "removed", Removal(self.removed))
        except ValueError:
            raise BridgeError(
                f"removed must be {or_words(list(Removal))}, got {value_shown(self.removed)}"
            ) from None

    def __repr__(self) -> str:
        # The dice of `outcome_apply` are seeded from this text: it names `removed` by its word,
        # as it did when the field held a plain string, so a battle applies with the same dice.
        return (
            f"UnitOutcome(hits_lost={self.hits_lost!r}, skill_lost={self.skill_lost!r}, "
            f"removed={self.removed.value!r})"
        )

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> UnitOutcome:
        """An outcome from its dict; one that gives no ``removed`` did not leave the battle."""
        return cls(data["hits_lost"], data["skill_lost"], data.get("removed", Removal.NONE))

    def to_dict(self) -> dict[str, Any]:
        return {"hits_lost": self.hits_lost, "skill_lost": self.skill_lost, "removed": self.removed}


@dataclass(frozen=True)
class TableResult:
    """A battle fought at a real table, as the GM entered it: the winner and each unit's outcome.

    Its own type, not a ``BattleResult``: a table reports no turns, scores or objectives, and
    knows the campaign's units (by pk), not the engine's.
    """

    winner: str | None
    """The winning side, ``None`` for a draw."""
    units: dict[int, UnitOutcome]
    """Each unit that fought, by its pk."""

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableResult:
        """The result ``to_dict`` wrote (a campaign battle's ``table_result``), read back."""
        return cls(
            data["winner"],
            {int(pk): UnitOutcome.from_dict(o) for pk, o in data["units"].items()},
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "units": {str(pk): o.to_dict() for pk, o in self.units.items()},
        }


def outcome_problems(
    card: dict[str, Any], outcome: UnitOutcome, ruleset: str
) -> list[tuple[str, str]]:
    """What makes this outcome impossible for a unit that fought on `card` (the printed card),
    each as the field it is about (``hits_lost``, ``skill_lost`` or ``removed``) and a sentence.

    Hits lost at most the card's Hits; *destroyed* exactly when every Hit is lost; Skill lost
    at most down to the ruleset's demoralisation Skill; *demoralised* exactly when it got there
    (a unit brought down to it left the battle demoralised: it is neither still in the field nor
    destroyed). Said in the words the table result offers (`LEFT_THE_TABLE`): "taken out" and
    "broken", never "destroyed", which a GM reads as the unit lost to the campaign.
    """
    try:
        rules = RULESETS[ruleset]
    except KeyError:
        return [("removed", f"unknown ruleset {ruleset!r}")]
    floor, hits, skill = rules.demoralise_at_skill, card["hits"], card["skill"]
    taken_out, broken = LEFT_THE_TABLE[Removal.DESTROYED], LEFT_THE_TABLE[Removal.DEMORALISED]
    problems = []
    if outcome.hits_lost > hits:
        problems.append(
            ("hits_lost", f"at most {plural(hits, 'Hit')} can be lost, as many as its card has")
        )
    if outcome.removed == Removal.DESTROYED and outcome.hits_lost < hits:
        problems.append((
            "removed",
            f"{taken_out.lower()} means every Hit lost, and its card has {plural(hits, 'Hit')}: "
            f"{outcome.hits_lost} {'is' if outcome.hits_lost == 1 else 'are'} marked lost",
        ))  # fmt: skip
    elif outcome.removed != Removal.DESTROYED and outcome.hits_lost == hits:
        problems.append(
            ("removed", f"every Hit lost means {taken_out.lower()}: mark it {taken_out}")
        )
    at_floor = rules.demoralised(skill - outcome.skill_lost)
    if outcome.skill_lost > skill - floor:
        problems.append((
            "skill_lost",
            f"at most {skill - floor} Skill can be lost: its card's Skill {skill} down to "
            f"{floor}, where it is {broken.lower()}",
        ))  # fmt: skip
    elif outcome.removed == Removal.DEMORALISED and not at_floor:
        problems.append(("removed", f"{broken.lower()} means Skill brought down to {floor}"))
    elif at_floor and outcome.removed == Removal.DESTROYED and outcome.hits_lost == hits:
        problems.append((
            "removed",
            f"a unit leaves a battle once: Skill brought down to {floor} means "
            f"{broken.lower()}, every Hit lost means {taken_out.lower()}; mark the one that "
            "came first, with the losses up to then",
        ))  # fmt: skip
    elif at_floor and outcome.removed != Removal.DEMORALISED:
        problems.append(
            ("removed", f"Skill brought down to {floor} means {broken.lower()}: mark it {broken}")
        )
    return problems


# ---------------------------------------------------------------------------------------------
# Going in
# ---------------------------------------------------------------------------------------------


class _FieldedUnit(Protocol):
    quality: int
    morale_hits: int
    casualty_hits: int
    equipment: str
    specialties: Any
    status: str
    unit_type: Any


def signed_text(number: int) -> str:
    """A modifier as the tables print it: "+2", "−2", "0" (the minus a real one)."""
    return f"+{number}" if number > 0 else number_text(number)


@dataclass(frozen=True)
class GoingIn:
    """Everything BUCS knows about a unit, as the one Skill shift its battle card gets."""

    quality: Quality
    """The quality it fights at: effective quality, or Raw outside its specialties."""
    equipment: Equipment
    """The kit it fights with: its own, or Poor outside its specialties."""
    covered: bool
    """Whether its specialties cover the card (the card's specialty, if it names one)."""
    under_orders: bool
    modifier: int
    """Quality's alone modifier (under Orders or without) plus the equipment modifier."""
    shift: int
    """The modifier as Skill: ÷ 4, rounded half away from zero."""
    skill: int
    """Printed Skill plus the shift, clamped 2..5."""

    def skill_working(self, printed: int) -> str:
        """How the card's Skill comes from the ``printed`` one, in a sentence a GM can check
        against the quality and equipment tables: "Skill 2: the card's 3, shifted by Average
        without Orders (−2) and Adequate kit (0): −2 ÷ 4 = −0.5, rounded half away from zero
        to −1." A Skill held at the card range's edge says so."""
        column = "under Orders" if self.under_orders else "without Orders"
        alone = signed_text(self.quality.alone(under_orders=self.under_orders))
        if not self.under_orders and not self.quality.can_act_alone:
            alone += ": it cannot act alone"
        by = (
            f"{self.quality.label} {column} ({alone}) and "
            f"{self.equipment.label} kit ({signed_text(self.equipment.modifier)})"
        )
        if not self.covered:
            by += ", outside its specialties"
        quarter = self.modifier / MODIFIER_PER_SKILL
        sum_ = f"{signed_text(self.modifier)} ÷ {MODIFIER_PER_SKILL} = "
        if quarter == self.shift:
            sum_ += signed_text(self.shift)
        else:
            shown = f"{abs(quarter):g}"
            sign = "+" if quarter > 0 else MINUS
            sum_ += f"{sign}{shown}, rounded half away from zero to {signed_text(self.shift)}"
        text = f"Skill {self.skill}: the card's {printed}, shifted by {by}: {sum_}"
        if (reached := printed + self.shift) != self.skill:
            text += (
                f"; {number_text(reached)} is held to {self.skill}, for a card's Skill runs "
                f"{SKILL_MIN} to {SKILL_MAX}"
            )
        return text + "."

    def to_json(self) -> dict[str, Any]:
        return {
            "quality": quality_name(self.quality),
            "equipment": self.equipment.value,
            "covered": self.covered,
            "under_orders": self.under_orders,
            "modifier": self.modifier,
            "shift": self.shift,
            "skill": self.skill,
        }


def going_in(
    card: dict[str, Any],
    *,
    effective: Quality,
    equipment: Equipment = Equipment.ADEQUATE,
    specialties: Any = (),
    needed: Any = (),
    under_orders: bool = True,
) -> GoingIn:
    """The one rule for a unit's battle Skill (rulings.md, "The bridge, second edition").

    The BUCS modifier is the fighting quality's *alone* modifier (under Orders when it has one,
    without when not) plus its equipment's; a unit whose specialties do not cover the card
    fights as Raw with Poor kit (`units.bucs.fielded`). The Skill shift is the modifier ÷ 4,
    rounded half away from zero; the battle Skill is the printed Skill plus the shift, 2..5.
    """
    if "skill" not in card:
        raise BridgeError(f"{card.get('name', 'this card')} is not a unit card: it has no Skill")
    kit = fielded(effective, equipment, specialties, needed)
    modifier = kit.quality.alone(under_orders=under_orders) + kit.equipment.modifier
    shift = skill_shift(modifier)
    skill = shifted_skill(card["skill"], shift)
    return GoingIn(kit.quality, kit.equipment, kit.covered, under_orders, modifier, shift, skill)


def card_needs(unit_type: Any) -> frozenset[Specialty]:
    """The specialty a card needs, as a set (empty: the card names none, anyone may field it)."""
    specialty = getattr(unit_type, "specialty", "")
    return frozenset({Specialty(specialty)}) if specialty else frozenset()


def card_specialties(unit_type: Any, quality: Quality) -> list[Specialty]:
    """The specialties a unit raised on a card takes when none are ticked: those the card needs,
    with what they require (Armor brings Mechanized), if ``quality`` may hold them all; else
    none (a Raw unit holds none), and it fights as Raw with Poor kit on that card."""
    needed = with_requirements(card_needs(unit_type))
    return needed if len(needed) <= quality.specialty_limit else []


def card_for(card: dict[str, Any], going: GoingIn) -> dict[str, Any]:
    """The card with its battle Skill printed in; the library card is left alone."""
    printed = copy.deepcopy(card)
    printed["skill"] = going.skill
    return printed


def unit_going_in(
    unit: _FieldedUnit,
    *,
    under_orders: bool = True,
    quality: Quality | None = None,
    equipment: Equipment | None = None,
) -> GoingIn:
    """How a persistent unit goes into battle (it must be ready).

    Effective quality is its quality less every outstanding Morale and Casualty hit (not below
    Raw); ``quality`` and ``equipment``, when given, are those it performs its Order with
    (`battle_order`: Raw with Poor kit outside its specialties). A unit out of action has no
    card.
    """
    if unit.status != Status.READY:
        raise BridgeError(f"{unit} is {Status(unit.status).label}: it cannot go into battle")
    if quality is None:
        quality = unit_effective_quality(unit)
    return going_in(
        unit.unit_type.card,
        effective=quality,
        equipment=Equipment(unit.equipment) if equipment is None else equipment,
        specialties=ordered_specialties(unit.specialties),
        needed=card_needs(unit.unit_type),
        under_orders=under_orders,
    )


def unit_effective_quality(unit: _FieldedUnit) -> Quality:
    return effective_quality(Quality(unit.quality), unit.morale_hits, unit.casualty_hits)


def battle_card(unit: _FieldedUnit, *, under_orders: bool = True) -> dict[str, Any]:
    """The card a persistent unit takes into battle, in the engine's card dict format."""
    return card_for(unit.unit_type.card, unit_going_in(unit, under_orders=under_orders))


def fought_kit(unit: _FieldedUnit, ordered: dict[str, Any] | None = None) -> Equipment:
    """The kit the unit fought with: Poor outside its specialties ("counts as Poor"), on its card
    or its Order (``ordered``: how its Orders went in, `BattleOrder.to_json`), else its own.
    What Excellent kit's special goes by, for the unit and against it."""
    quality = unit_effective_quality(unit)
    equipment = Equipment(unit.equipment)
    if ordered:
        quality, equipment = Quality.of_word(ordered["quality"]), Equipment(ordered["equipment"])
    specialties = ordered_specialties(unit.specialties)
    needed = card_needs(unit.unit_type)
    return fielded(quality, equipment, specialties, needed).equipment


def went_under_orders(ordered: Mapping[str, Any]) -> bool:
    """Whether a unit went into a battle with the under-Orders column, from how its Orders
    went in (``ordered``, `BattleOrder.to_json`; `BattleOrder.under_orders`)."""
    return ordered["order"] is not None or ordered["source"] == COMMANDED


def fought_going(unit: _FieldedUnit, ordered: dict[str, Any]) -> GoingIn:
    """How the unit went into a battle, from how its Orders went in (``ordered``,
    `BattleOrder.to_json`): at the quality and with the kit it fought its Orders with, under
    Orders or not."""
    return going_in(
        unit.unit_type.card,
        effective=Quality.of_word(ordered["quality"]),
        equipment=Equipment(ordered["equipment"]),
        specialties=ordered_specialties(unit.specialties),
        needed=card_needs(unit.unit_type),
        under_orders=went_under_orders(ordered),
    )


def fought_card(unit: _FieldedUnit, ordered: dict[str, Any]) -> dict[str, Any]:
    """The card the unit fought with, printed again from how its Orders went in (``ordered``,
    `fought_going`). A unit out of action since keeps it: it is the battle's, not the next
    one's."""
    return card_for(unit.unit_type.card, fought_going(unit, ordered))


# ---------------------------------------------------------------------------------------------
# Orders going in
# ---------------------------------------------------------------------------------------------


ENGINE_ORDER: dict[OrderKind, str] = {
    OrderKind.ATTACK: "attack",
    OrderKind.USE_SKILL: "hold",
    OrderKind.ESTABLISH_BEACHHEAD: "advance",
}
"""The Team Bravo standing Order each character Order becomes (docs/bucs-choices.md, "Orders at
the bridge"): Attack attacks; a unit at work on a skill holds its ground and fires; a
beachhead is ground to take, so the unit advances on what its side scores."""

ENGINE_ORDER_LABEL = {
    "attack": "attacks",
    "advance": "advances",
    "hold": "holds",
    "screen": "screens",
}


@dataclass(frozen=True)
class CharacterOrder:
    """A character's Order under way for a unit, as the bridge reads it."""

    kind: OrderKind
    giver: str
    finishes_at: int
    """Clock hour it is done."""


@dataclass(frozen=True)
class BattleOrder:
    """How a unit's Orders go into a Team Bravo battle, and why, in sentences."""

    order: dict[str, Any] | None
    """The engine's standing Order; None: it goes in without one."""
    quality: Quality
    """The quality it fights at: its effective quality, or Raw for an Order outside its
    specialties."""
    equipment: Equipment
    """The kit it fights with: its own, or Poor for an Order outside its specialties."""
    source: str
    """``character`` (an Order under way), ``set-up`` (the set-up's standing Order),
    ``legendary`` (under a Legendary unit's command: `legendary_orders`) or ``none``."""
    kind: str = ""
    """The character Order's kind (``attack``…), when the source is a character."""
    giver: str = ""
    """Who gave the Order: the character, or the Legendary unit in command."""
    notes: tuple[str, ...] = ()

    @property
    def under_orders(self) -> bool:
        """Whether it fights with the under-Orders column: with an Order, or under a Legendary
        unit's command (which may have no Order to pass on)."""
        return self.order is not None or self.source == COMMANDED

    @property
    def text(self) -> str:
        """One sentence a player can read: which Order, from whom, and what the unit does."""
        if self.order is None:
            does = "goes in without an Order"
        else:
            does = ENGINE_ORDER_LABEL[self.order["kind"]]
        commander = f"{self.giver} (Legendary)"
        if (
            self.source == "character"
            and self.order is not None
            and self.order["kind"] == self.kind
        ):
            # The Order's name says what the unit does: "Order to Attack", never "…: attacks".
            head = GOING_IN["character, as named"].format(
                kind=OrderKind(self.kind).label, giver=self.giver
            )
        elif self.source == "character":
            kind = OrderKind(self.kind).label
            head = GOING_IN["character"].format(kind=kind, giver=self.giver, does=does)
        elif self.source == "set-up":
            head = GOING_IN["set-up"].format(does=does)
        elif self.source == COMMANDED and self.order is not None:
            head = GOING_IN["commanded"].format(commander=commander, does=does)
        elif self.source == COMMANDED:
            head = GOING_IN["commanded, no Order"].format(commander=commander, whose=self.giver)
        else:
            head = GOING_IN["none"]
        return " ".join((head, *self.notes))

    def to_json(self) -> dict[str, Any]:
        return {
            "order": self.order,
            "quality": quality_name(self.quality),
            "equipment": self.equipment.value,
            "source": self.source,
            "kind": self.kind,
            "giver": self.giver,
            "notes": list(self.notes),
            "text": self.text,
        }


GOING_IN = {
    "character": "Order to {kind}, given by {giver}: {does}.",
    "set-up": "The set-up's standing Order: {does}.",
    "commanded": "Under the command of {commander}, whose Order it takes: {does}.",
    "commanded, no Order": (
        "Under the command of {commander}: under Orders, though {whose} has no Order to pass on."
    ),
    "none": "No Order: it goes in without one.",
    "character, as named": "Order to {kind}, given by {giver}.",
}
"""How a unit's Orders go in, as the set-up says it (`BattleOrder.text`, the notes after it),
by where they come from; a character's Order whose name says what the unit does (Attack
attacks) "as named", its giver's name read back by the giver kept beside the sentence
(`went_in_text`). A launched battle keeps the sentence said."""

WENT_IN = {
    "character": "went in to {verb}, under {givers} Order to {kind}.",
    "character, no Order": "went in without an Order, despite {givers} Order to {kind}.",
    "set-up": "went in to {verb}, under the set-up's standing Order.",
    "commanded": "went in to {verb}, under the command of {commander} and its Order.",
    "commanded, no Order": (
        "went in under the command of {commander}, under Orders, though {whose} had no Order "
        "to pass on."
    ),
    "none": "went in without an Order.",
}
"""`GOING_IN` as a battle's page reads it afterwards, after the units it names: "1st Squad (Red
Company) went in to attack, under the set-up's standing Order." (`went_in_text`)."""

GOING_IN_WAS = {"character": "{kind}, Ordered by {giver}: {does}."}
"""How a battle launched before `GOING_IN` said a character's Order as the roster does ("Order to
Attack, … given by …") keeps it: read back by `went_in_text` all the same."""

_GOING_IN_SAID = [
    (source, re.compile(re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>.+?)", re.escape(said))))
    for said_by in (GOING_IN, GOING_IN_WAS)
    for source, said in said_by.items()
    if source != "character, as named"  # its giver's name may hold a full stop: read apart
]

_ORDER_VERB = {label: kind for kind, label in ENGINE_ORDER_LABEL.items()}
"""An engine Order as `GOING_IN` says the unit does it ("attacks"), as an infinitive ("attack")."""

UNDER_WAY = "The Order is under way until {until}."
"""When a character's Order under way for a unit is done, as the set-up says it going in (and as
a launched battle keeps it, `BattleOrder.to_json`)."""

UNDER_WAY_WENT_IN = "When the battle began, the Order was under way until {until}."
"""`UNDER_WAY` as a battle's page reads it afterwards: a record of how the unit went in, not a
claim that the Order still runs (it may have ended long since)."""

_UNDER_WAY_SAID = re.compile(
    r"(?P<until>.+?)".join(re.escape(part) for part in UNDER_WAY.split("{until}"))
)


def went_in_text(text: str, giver: str = "") -> str:
    """The sentence of how a unit's Orders went in (`BattleOrder.text`, kept at launch) as it
    reads after the launch, after the units it is said of: its head (`GOING_IN`) as they went
    in (`WENT_IN`), "went in to attack, under the set-up's standing Order.", and its Order under
    way (`UNDER_WAY`) as a record of the moment the battle began (`UNDER_WAY_WENT_IN`). Battles
    keep the sentence said at launch, so the old ones read the same way. ``giver``: the giver
    of a character's Order, kept beside the sentence (`BattleOrder.to_json`), by which the
    Order said as named ("Order to Attack, given by Lt. Ada Reyes.") is read."""
    text = _UNDER_WAY_SAID.sub(lambda m: UNDER_WAY_WENT_IN.format(until=m["until"]), text)
    for kind in OrderKind if giver else ():
        head = GOING_IN["character, as named"].format(kind=kind.label, giver=giver)
        if text.startswith(head):
            verb = ENGINE_ORDER[kind]
            said = WENT_IN["character"].format(givers=possessive(giver), kind=kind.label, verb=verb)
            return said + text[len(head) :]
    for source, said in _GOING_IN_SAID:
        if (head := said.match(text)) is None:
            continue
        words = head.groupdict()
        verb = _ORDER_VERB.get(words.get("does", ""))
        if "giver" in words:
            words["givers"] = possessive(words["giver"])
        if "does" in words and verb is None:
            source += ", no Order"  # a character's Order it could not carry into the battle
        return WENT_IN[source].format(**words, verb=verb) + text[head.end() :]
    return f"went in: {text}"


_SAID_OF_ONE = re.compile(r"(^|\. )It |(: |, so )it ")


def went_in_for_each(text: str) -> str:
    """`went_in_text` said of several units that went in alike: its notes speak of each
    ("Each fights with the without-Orders column and its own judgement.", "Green units act
    alone only after an Order: each holds in place."), not of one "it"."""
    return _SAID_OF_ONE.sub(lambda m: f"{m[1]}Each " if m[1] is not None else f"{m[2]}each ", text)


COMMANDED = "legendary"
"""The source of the Orders of a unit under a Legendary unit's command."""


def commander_unnamed(going: Mapping[str, Any]) -> str:
    """The sentence of how a unit's Orders went in (`BattleOrder.to_json`) without the name of
    the Legendary unit commanding it, for a reader who sees that unit's force in summary only:
    "Under the command of a Legendary unit, whose Order it takes: …"."""
    text = going["text"]
    if going.get("source") != COMMANDED or not going.get("giver"):
        return text
    giver = going["giver"]
    text = text.replace(f"though {giver} has no Order", "though that unit has no Order")
    head = f"Under the command of {giver} (Legendary)"
    return text.replace(head, "Under the command of a Legendary unit")


def battle_order(
    *,
    effective: Quality,
    equipment: Equipment,
    specialties: Any,
    standing: dict[str, Any] | None,
    character_order: CharacterOrder | None,
    led: bool,
    needed: Any = (),
) -> BattleOrder:
    """The BUCS rules on Orders, at the bridge (docs/bucs-choices.md, "Orders at the bridge").

    A character's Order under way is the unit's Order in the battle, in place of the set-up's
    standing Order (`ENGINE_ORDER`). An Order outside the unit's specialties is performed as
    Raw with Poor kit (`order_kit`, the rule `units.bucs.fielded` every engagement uses). A
    unit that performs its Order as Raw (Raw itself, outside its specialties, or on a card it
    lacks the specialty for: ``needed``) needs it repeated every round: only a character at
    its head repeats it, so such a unit nobody leads goes in without Orders, as Raw, as an
    engagement's lapses after its first round. The set-up's standing Order is the table
    commander's, given every turn. Without any Order the unit fights with the without-Orders
    column, and a unit that fights as Raw or Green holds in place (they act alone only after
    one).
    """
    notes: list[str] = []
    specialties = tuple(specialties)
    if character_order is not None:
        kind = character_order.kind
        base = {"source": "character", "kind": kind.value, "giver": character_order.giver}
        kit = order_kit(kind, effective, equipment, specialties)
        outside = outside_specialties_text(kind, equipment, specialties)
        if outside:
            notes.append(outside)
        if fielded(kit.quality, kit.equipment, specialties, needed).quality == Quality.RAW:
            if effective == Quality.RAW:
                raw = "It is Raw"
            else:
                raw = "It performs it as Raw" if outside else "It fights as Raw on its card"
            if not led:
                notes.append(
                    f"{raw} and no character leads it to repeat the Order every round, so it "
                    "goes into battle without Orders and holds in place."
                )
                return BattleOrder(None, kit.quality, kit.equipment, notes=tuple(notes), **base)
            notes.append(f"{raw}: the character at its head repeats the Order every round.")
        notes.append(UNDER_WAY.format(until=clock_text(character_order.finishes_at)))
        order = {"kind": ENGINE_ORDER[kind]}
        return BattleOrder(order, kit.quality, kit.equipment, notes=tuple(notes), **base)
    if standing is not None:
        return BattleOrder(dict(standing), effective, equipment, "set-up")
    fights = fielded(effective, equipment, specialties, needed).quality
    if not fights.can_act_alone:
        notes.append(
            f"{quality_name(fights).capitalize()} units act alone only after an Order: "
            "it holds in place."
        )
    else:
        notes.append("It fights with the without-Orders column and its own judgement.")
    return BattleOrder(None, effective, equipment, "none", notes=tuple(notes))


@dataclass(frozen=True)
class SideUnit:
    """One unit of a side going into a battle, as Legendary command reads it."""

    key: str
    name: str
    effective: Quality
    """Its effective quality: a Legendary unit with hits outstanding is not Legendary."""
    led: bool
    """A living character leads it."""
    orders: BattleOrder
    """How its own Orders go in (`battle_order`)."""


def legendary_orders(side: Sequence[SideUnit]) -> dict[str, BattleOrder]:
    """Each unit's Orders going in, Legendary command settled (docs/bucs-choices.md, "Orders at
    the bridge"): `side` is one side of one battle, in the order the set-up lists it.

    Who commands whom is the engagement's rule (`command.legendary_command`): each Legendary
    unit, in the listed order, takes command of up to six lesser units, also in the listed
    order, that no character leads and that go in with no Order of their own. Such a unit
    counts as under Orders, and the Legendary unit's Order, if it has one, is its standing
    Order in the battle; with none to pass on, a Raw or Green unit holds in place.
    """
    commanded = legendary_command(
        [Commandable(u.key, u.led, u.orders.under_orders, u.effective) for u in side]
    )
    by_key = {u.key: u for u in side}
    orders = {}
    for unit in side:
        if unit.key not in commanded:
            orders[unit.key] = unit.orders
            continue
        legend = by_key[commanded[unit.key]]
        order = None if legend.orders.order is None else dict(legend.orders.order)
        own = unit.orders
        notes = []
        if order is None:
            notes.append(
                "It fights with its own judgement."
                if own.quality.can_act_alone
                else f"{quality_name(own.quality).capitalize()} units act alone only after an "
                "Order: it holds in place."
            )
        orders[unit.key] = BattleOrder(
            order, own.quality, own.equipment, COMMANDED, giver=legend.name, notes=tuple(notes)
        )
    return orders


# ---------------------------------------------------------------------------------------------
# Coming out
# ---------------------------------------------------------------------------------------------


CASUALTY_FROM = 4
"""A BUCS hit from a blow is Casualty on a d6 of 4 or more (half of them), else Morale."""


@dataclass(frozen=True)
class Damage:
    """The working of one unit's damage, kept in its history entry."""

    morale_hits: int = 0
    """Morale hits taken, after Excellent equipment and with any from the leader's death."""
    casualty_hits: int = 0
    """Casualty hits taken, after Armor."""
    split: tuple[int, int] = (0, 0)
    """(Morale, Casualty) as the blows' hits split, before anything was ignored."""
    shock: int = 0
    """Skill lost to suppression, each point a Morale hit in both rulesets. Under Combined Arms
    each point is also a quality step lost for good (`skill_lost_for_good`); under One Year War
    the Skill is restored (`skill_restored`): no step is lost."""
    blow_dice: tuple[int, ...] = ()
    """The d6 rolled for each Team Bravo Hit lost (each blow is the die ÷ the card's Hits,
    rounded up, in BUCS hits; together held to 6: `blows_held`)."""
    split_dice: tuple[int, ...] = ()
    """The d6 rolled for each BUCS hit: Casualty on 4+, else Morale."""
    armor_ignored: int = 0
    excellent_ignored: int = 0
    leader_rolls: tuple[int, ...] = ()
    """Every d6 rolled for the leader's damage, in order."""
    leader_died: bool = False
    quality_lost: int = 0
    """Quality steps lost for good to suppression (Combined Arms)."""
    skill_restored: int = 0
    """Skill lost to suppression and given back (One Year War)."""
    removed: Removal = Removal.NONE

    @property
    def skill_lost_for_good(self) -> int:
        """Skill lost to suppression and not restored: each point a quality step lost for good
        (Combined Arms); none under One Year War."""
        return self.shock - self.skill_restored

    def to_json(self) -> dict[str, Any]:
        return {
            "morale_hits": self.morale_hits,
            "casualty_hits": self.casualty_hits,
            "split": list(self.split),
            "shock": self.shock,
            "blow_dice": list(self.blow_dice),
            "split_dice": list(self.split_dice),
            "armor_ignored": self.armor_ignored,
            "excellent_ignored": self.excellent_ignored,
            "leader_rolls": list(self.leader_rolls),
            "leader_died": self.leader_died,
            "quality_lost": self.quality_lost,
            "skill_restored": self.skill_restored,
            "removed": self.removed,
        }


CARD_MOST_BUCS_HITS = 6
"""The most BUCS hits the blows of one battle deal a unit, however many Hits its card has: a
d6's worth, what a 1-Hit card taken out takes at most, and one fewer than a Legendary unit
survives (`blows_held`)."""


def blow_hits(die: int, card_hits: int) -> int:
    """BUCS hits dealt by one Team Bravo Hit lost: its d6 ÷ the card's Hits, rounded up.

    Losing all of a 1-Hit card is 1–6 BUCS hits; each Hit of a 2-Hit card 1–3, of a 3-Hit card
    1–2, of a 6-Hit card 1: at most 6 for the whole card, as 6 is a multiple of its Hits. A
    card whose Hits do not divide 6 would deal more (a 4-Hit card taken out up to 8, a 5-Hit one
    up to 10, a 9-Hit one 9), so the blows of one battle are held to `CARD_MOST_BUCS_HITS`
    (`blows_held`).
    """
    if card_hits < 1:
        raise BridgeError(f"a card has 1 Hit or more, got {card_hits}")
    return -(-die // card_hits)


def blows_dealt(blow_dice: Sequence[int], card_hits: int) -> int:
    """BUCS hits the blows would deal, each its d6 ÷ the card's Hits rounded up, before they are
    held to `CARD_MOST_BUCS_HITS`."""
    return sum(blow_hits(die, card_hits) for die in blow_dice)


def blows_held(blow_dice: Sequence[int], card_hits: int) -> int:
    """BUCS hits one battle's blows deal a unit: as many as they would (`blows_dealt`), but
    never more than `CARD_MOST_BUCS_HITS`. So however its card divides its Hits, a unit taken
    out takes no more than a 1-Hit card taken out can, and a Legendary unit (7 steps) is never
    lost for good to one battle's blows: the most they leave is 6 Casualty hits."""
    return min(blows_dealt(blow_dice, card_hits), CARD_MOST_BUCS_HITS)


def skill_restored_after(ruleset: str) -> bool:
    """Whether the ruleset gives back Skill lost to suppression (One Year War) or not."""
    try:
        return RULESETS[ruleset].skill_restored_after
    except KeyError:
        raise BridgeError(f"unknown ruleset {ruleset!r}") from None


def leader_wounds(
    leader: LeaderState | None, casualty_hits: int, d6: Roll
) -> tuple[LeaderState | None, tuple[int, ...], bool]:
    """(leader after, dice rolled, died): 3d6 damage per Casualty hit; dead at −10 hit points.

    Characters are immune to Morale hits, and a dead leader takes no more damage.
    """
    if leader is None or not leader.alive or casualty_hits == 0:
        return leader, (), False
    rolls = tuple(d6() for _ in range(LEADER_DICE_PER_CASUALTY_HIT * casualty_hits))
    hit_points = leader.hit_points - sum(rolls)
    died = hit_points <= LEADER_DEATH_HIT_POINTS
    return LeaderState(leader.name, hit_points, alive=not died), rolls, died


def damage_apply(
    state: CampaignUnitState,
    *,
    morale_hits: int,
    casualty_hits: int,
    removed: Removal,
    day: int,
    d6: Roll,
    hour: int = 0,
    damage: Damage | None = None,
    taken_out_retreats: bool = False,
    went_in: CampaignUnitState | None = None,
    won: bool = False,
    fight: str = "",
) -> tuple[CampaignUnitState, Damage]:
    """Hits taken in a battle (already split and reduced) applied to the unit, with its leader.

    Shared by battles and engagements (a quick resolve is one). An engagement is BUCS itself: a
    unit broken by a Casualty hit is destroyed utterly. From a Team Bravo table
    (`taken_out_retreats`), taken out is not dead: a unit removed, destroyed or demoralised,
    retreats in poor order with its hits, and the medics' 24 hours and the ladder decide whether
    it is lost for good (`recovery.casualties_die`). A unit whose hits take it below Raw retreats
    too. A unit that fought stays in the combat zone, unless it retreated out of it. Its medical
    window runs from the battle's hour (`day`, `hour`), unless Casualty hits of another battle
    still await the medics (`recovery.window_after_battle`). A fight that leaves hits awaiting
    the medics, its own or an earlier fight's, is kept in the window (`WindowFight`): how the
    unit went into it (`went_in`: before any step lost to suppression there; by default
    `state`), what it dealt, whether it was `won` and left the unit broken, its name as the
    unit's entry of it keeps it (``fight``), and its hour, from which its own hits await the
    medics 24 hours, for the closing of those hours to give its dead back to it and say which
    fight's suppression counted them (`window.window_settled`).
    """
    damage = damage or Damage()
    awaiting = state.casualty_hits > 0  # the window of an earlier fight's hits stays open
    fought = went_in or state
    if awaiting and state.window_experience is not None:
        window_experience: int | None = state.window_experience
    elif awaiting or casualty_hits:
        window_experience = state.experience
    else:
        window_experience = None
    leader, rolls, died = leader_wounds(state.leader, casualty_hits, d6)
    if died:
        morale_hits += LEADER_DEATH_MORALE_HITS
    # A fight that leaves no Casualty hits awaiting the medics opens no window: they are what
    # the medics' 24 hours are for. The window's bookkeeping stays as it was, never read
    # (`recovery.medical_window_closes`), until Casualty hits open the next window afresh.
    opens = awaiting or casualty_hits > 0
    window = {
        "window_from": window_after_battle(state, clock_hour(day, hour)),
        "window_quality_lost": (state.window_quality_lost if awaiting else 0) + damage.quality_lost,
        "window_quality_gained": state.window_quality_gained if awaiting else 0,
        "window_experience": window_experience,
    }
    state = state.but(
        morale_hits=state.morale_hits + morale_hits,
        casualty_hits=state.casualty_hits + casualty_hits,
        leader=leader,
        battles_fought=state.battles_fought + 1,
        # A battle entered late, fought before the unit's last one, leaves that one the last.
        last_battle_day=day if state.last_battle_day is None else max(state.last_battle_day, day),
        **(window if opens else {}),
    )
    if removed == Removal.DESTROYED and not taken_out_retreats:
        status = Status.DESTROYED
    elif removed != Removal.NONE or state.below_raw:
        status = Status.RETREATED
    else:
        status = Status.READY
    kept = WindowFight(
        quality=fought.quality,
        experience=fought.experience,
        casualty_hits=casualty_hits,
        skill_lost=damage.skill_lost_for_good,
        won=won,
        broken=status == Status.RETREATED,
        name=fight,
        at=clock_hour(day, hour),
    )
    fights = (*state.window_fights, kept) if awaiting else (kept,) if opens else state.window_fights
    state = state.but(status=status, in_combat_zone=status == Status.READY, window_fights=fights)
    damage = replace(
        damage,
        morale_hits=morale_hits,
        casualty_hits=casualty_hits,
        leader_rolls=rolls,
        leader_died=died,
        removed=removed,
    )
    return state, damage


def outcome_damage(
    state: CampaignUnitState,
    outcome: UnitOutcome,
    *,
    card_hits: int,
    skill_restored: bool,
    opposing_equipment: Equipment,
    day: int,
    d6: Roll,
    hour: int = 0,
    equipment: Equipment | None = None,
    won: bool = False,
    fight: str = "",
) -> tuple[CampaignUnitState, Damage]:
    """A battle's outcome for one unit, turned into BUCS damage (second edition, "Coming out").

    Each Team Bravo Hit lost is a blow of d6 ÷ the card's Hits (rounded up) BUCS hits, the blows
    together held to 6 (`blows_held`), and each of those is Casualty on a d6 of 4+, else Morale:
    half and half on average, with no count rounded, so no fate depends on a count coming out
    odd or even. Each point of Skill lost to suppression (shock) is a Morale hit, which R&R
    heals; under Combined Arms it is also a quality step lost for good ("lost Skill never
    returns"), while One Year War restores it for the next battle (``skill_restored``: the
    ruleset's `skill_restored_after`), so no step is lost. Armor ignores its first two Casualty
    hits; Excellent equipment its first Morale hit against a less well equipped enemy; the
    leader takes 3d6 per Casualty hit. Taken out is not dead: the unit retreats, and its fate
    waits for the medics. ``equipment``: the kit it fought with (`fought_kit`), when not its
    own. ``won``: its side won, and ``fight``: the battle's name as the unit's entry keeps it
    (both kept with the fight in its medical window, `damage_apply`).
    """
    if state.status != Status.READY:
        raise BridgeError(f"{state.name} is {state.status.label}: it could not have fought")
    went_in = state
    blow_dice = tuple(d6() for _ in range(outcome.hits_lost))
    hits = blows_held(blow_dice, card_hits)
    split_dice = tuple(d6() for _ in range(hits))
    casualty = sum(1 for die in split_dice if die >= CASUALTY_FROM)
    morale = hits - casualty
    armor = min(casualty, Specialty.ARMOR.row.ignores_casualty_hits)
    if Specialty.ARMOR not in state.specialties:
        armor = 0
    quality_lost = 0
    if skill_restored:
        restored = outcome.skill_lost
    else:
        restored = 0
        quality_lost = min(outcome.skill_lost, int(state.quality))
        state = with_quality(state, state.quality.lowered(outcome.skill_lost))
        state = state.but(skill_lost=state.skill_lost + outcome.skill_lost)
    working = Damage(
        split=(morale, casualty),
        shock=outcome.skill_lost,
        blow_dice=blow_dice,
        split_dice=split_dice,
        armor_ignored=armor,
        quality_lost=quality_lost,
        skill_restored=restored,
    )
    morale += working.shock
    kit = state.equipment if equipment is None else equipment
    excellent = 1 if morale and ignores_first_morale_hit(kit, opposing_equipment) else 0
    return damage_apply(
        state,
        went_in=went_in,
        won=won,
        fight=fight,
        morale_hits=morale - excellent,
        casualty_hits=casualty - armor,
        removed=outcome.removed,
        day=day,
        hour=hour,
        d6=d6,
        damage=replace(working, excellent_ignored=excellent),
        taken_out_retreats=True,
    )
