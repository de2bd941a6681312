"""The bridge between a unit's BUCS state and a Team Bravo battle, as pure functions.

Going in, everything BUCS knows about a unit (quality under Orders or without, equipment, the
specialty its card needs) becomes one shift of its card's Skill (`going_in`, `battle_card`).
Coming out, a battle's outcome for the unit becomes BUCS damage (`campaign.rules.damage`). The
Orders a unit goes in under are here too (`battle_order`, `legendary_orders`). The rules are
`shared/design/rulings.md`, "The bridge, second edition"; docs/campaign.md lists each with its
test. Plain Python: no Django (the engine's rulesets are plain too).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from campaign.rules.command import Commandable, legendary_command
from campaign.rules.orders import OrderKind, clock_text, order_kit, outside_specialties_text
from campaign.rules.state import Status, ordered_specialties, quality_name
from units.bucs import (
    MODIFIER_PER_SKILL,
    SKILL_MAX,
    SKILL_MIN,
    Equipment,
    Quality,
    Specialty,
    effective_quality,
    fielded,
    shifted_skill,
    skill_shift,
    with_requirements,
)
from units.words import MINUS, number_text, possessive


class BridgeError(ValueError):
    """An outcome or a unit the bridge cannot use."""


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


def paradrops(specialties: Any) -> bool:
    """Whether a unit holding ``specialties`` deploys outside its side's zone: an Airborne unit
    "may be placed anywhere" (by paradrop), so in a battle set up here it stands wherever on the
    table its card may (the engine's ``paradrop``)."""
    return Specialty.AIRBORNE in ordered_specialties(specialties)


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
