"""A unit's "BUCS at the table" block: the numbers a GM rolls with, and what its leader gives."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from campaign.models import Unit
from campaign.rules.bridge import went_under_orders
from campaign.rules.command import COMMAND_LABELS, Command, Commandable, column, command_of
from campaign.rules.damage import LEADER_DEATH_MORALE_HITS, LEADER_DICE_PER_CASUALTY_HIT
from campaign.rules.engagement import COMBAT_SPECIALTIES, UNCOVERED
from campaign.rules.state import ordered_specialties
from units.bucs import Equipment, Quality, fielded, specials
from units.words import number_text, possessive


@dataclass(frozen=True)
class TableColumn:
    """One column of the quality table for a unit, as its card prints it."""

    command: Command
    modifier: int
    cannot_act_alone: bool
    """Raw or Green without Orders: it rolls with the table's worst value."""
    now: bool
    """The column it rolls with as it stands: led, under an Order, or neither."""

    @property
    def label(self) -> str:
        return COMMAND_LABELS[self.command]


@dataclass(frozen=True)
class AtTheTable:
    """A unit's BUCS numbers for a GM's unit-against-unit rolls, as it stands now: the quality
    and kit it fights with in unit combat (its hits taken off; Raw with Poor kit without a
    combat specialty, `engagement.COMBAT_SPECIALTIES`), each column of the quality table for
    it, the Order it is under and the specials its specialties and kit give."""

    quality: Quality
    equipment: Equipment
    covered: bool
    columns: list[TableColumn]
    order: str
    """The Order under way, in words (`views.pages._order_words`), or ""."""
    specials: list[str]
    leader: str = ""
    """What the character at its head gives it and risks for it (`leader_gives_text`), or ""
    when nobody leads it."""
    fought: bool = False
    """Whether it is as the unit went into a battle (a battle's print sheet), not as it stands
    now."""

    @property
    def uncovered(self) -> str:
        return "" if self.covered else UNCOVERED


def at_the_table(unit: Unit, order: str, went_in: Mapping[str, Any] | None = None) -> AtTheTable:
    """The unit's "BUCS at the table" block; ``order``: its Order under way in words, or "".
    Given ``went_in`` (`BattleOrder.to_json`), as the unit went into that battle: at the
    quality and with the kit it fought with, under Orders or not (its sheet says how it went
    in beside the block)."""
    held = ordered_specialties(unit.specialties)
    if went_in is None:
        quality, equipment, ordered = unit.effective_quality, Equipment(unit.equipment), bool(order)
    else:
        quality = Quality.of_word(went_in["quality"])
        equipment = Equipment(went_in["equipment"])
        ordered = went_under_orders(went_in)
    kit = fielded(quality, equipment, held, COMBAT_SPECIALTIES)
    leader = getattr(unit, "leader", None)
    led = leader is not None and leader.leads
    if went_in is None:
        now = command_of(Commandable(str(unit.pk), led, ordered, kit.quality))
    else:
        # The column its battle Skill came from (`GoingIn.skill_working`): a battle reads the
        # alone column, under Orders or not, also of a unit a character leads.
        now = Command.UNDER_ORDERS if ordered else Command.WITHOUT_ORDERS
    columns = []
    for command in (Command.UNDER_ORDERS, Command.WITHOUT_ORDERS, Command.ASSISTING):
        alone = command != Command.WITHOUT_ORDERS or kit.quality.can_act_alone
        modifier, _ = column(kit.quality, command)
        columns.append(TableColumn(command, modifier, not alone, command == now))
    # A terrain's bonus is its specialty's, whatever the kit; the kit's own specials and a
    # vehicle's mobility go by the kit it fights with.
    assisting = next(c.modifier for c in columns if c.command == Command.ASSISTING)
    return AtTheTable(
        quality=kit.quality,
        equipment=kit.equipment,
        covered=kit.covered,
        columns=columns,
        order=order,
        specials=specials(held, kit.equipment),
        leader=leader_gives_text(leader.name, assisting, kit.quality) if led else "",
        fought=went_in is not None,
    )


def leader_gives_text(name: str, assisting: int, quality: Quality) -> str:
    """What a character at a unit's head gives it at the table and what the character risks,
    in a sentence for its printed card: the assisting column, the 3d6 a Casualty hit costs the
    character, the 2 Morale hits its death costs the unit; and a Raw unit's Order repeated."""
    sign = "+" if assisting > 0 else ""
    said = (
        f"Led by {name}: it assists {possessive(name)} checks "
        f"({sign}{number_text(assisting)}, the assisting column)"
    )
    if quality == Quality.RAW:
        said += f", and {name} repeats its Order every round, as a Raw unit needs"
    return (
        f"{said}. {name} takes {LEADER_DICE_PER_CASUALTY_HIT}d6 for each Casualty hit it "
        f"suffers, none for Morale hits; should {name} die, it takes "
        f"{LEADER_DEATH_MORALE_HITS} Morale hits at once."
    )
