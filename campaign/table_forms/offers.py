"""Which of a campaign's units a form's field offers (an `Offer`, which asks the rule where one
decides it), so a page never offers a unit that cannot act.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from campaign.models import Campaign, Unit
from campaign.rules.characters import rally_blocked
from campaign.rules.experience import training_blocked
from campaign.rules.state import Status
from units.bucs import TRAINING_CEILING


def units_of(campaign: Campaign, owner: Any = None):
    """The campaign's units; with ``owner``, those of the forces that user owns (a player's
    form offers, refuses by name and leaves out only their own)."""
    units = Unit.objects.filter(force__campaign=campaign)
    if owner is not None:
        units = units.filter(force__owner=owner)
    return units.select_related("force", "leader").order_by("force__name", "name")


@dataclass(frozen=True)
class Offer:
    """Which of the campaign's units a field offers: those ``blocked`` finds nothing against
    (it says why a unit cannot, "" when it can). ``doing`` is what the unit would do, for the
    error that names a unit no longer offered ("Squad 1 (Red Company) cannot train: …")."""

    doing: str
    blocked: Callable[[Unit], str]
    left_out_as: Callable[[Unit], str] | None = None
    """Why a unit ``blocked`` keeps out is not offered, said under the form before the names
    of the units alike ("Led by a living character already"); without it, the unit's status says why
    (`Status.out_of_action`)."""


def not_ready(unit: Unit) -> str:
    return "" if Status(unit.status).fights else f"it is {unit.state.status.label.lower()}"


def _destroyed(unit: Unit) -> str:
    return "it is destroyed" if unit.status == Status.DESTROYED else ""


def _destroyed_or_led(unit: Unit) -> str:
    leader = getattr(unit, "leader", None)
    if unit.status != Status.DESTROYED and leader is not None and leader.alive:
        return f"{leader.name} leads it already"
    return _destroyed(unit)


def _not_leadable(unit: Unit) -> str:
    if unit.status == Status.DESTROYED:
        return Status.DESTROYED.out_of_action
    # One sentence for them all: the list of characters beside the form says who leads each.
    return "Led by a living character already"


def _not_trainable(unit: Unit) -> str:
    # The cases of `training_apply`, which `training_blocked` asked.
    state = unit.state
    if not state.status.fights:
        return state.status.out_of_action
    if state.in_combat_zone:
        return "In the combat zone, where no unit trains"
    quality = state.quality
    if quality < TRAINING_CEILING:
        # Below the steps training reaches (Raw): its next step comes from battle.
        return f"{quality.label}, made {quality.raised().label} by battle, not by training"
    return f"{quality.label}: training raises a unit to Experienced at most"


def not_rallied(unit: Unit) -> str:
    # The cases of `rules.characters.rally`, which `rally_blocked` asked.
    state = unit.state
    if state.status == Status.DESTROYED:
        return Status.DESTROYED.out_of_action
    if state.morale_hits == 0:
        return "No Morale hits to heal (Casualty hits are the medics' work)"
    return "In the combat zone with one Morale hit, which only R&R heals"


# A retreated unit is out of action, so it makes no check and takes no Order (the services'
# rule); but a character may still take command of it in camp, and a Strategist's heal of a
# Morale hit is what it may need most.
CHECK = Offer("make a check", not_ready)


JOIN = Offer("take a leader", _destroyed_or_led, _not_leadable)


TRAIN = Offer("train", lambda unit: training_blocked(unit.state), _not_trainable)


RALLY = Offer("have a Morale hit healed", lambda unit: rally_blocked(unit.state), not_rallied)


ORDER = Offer("be given an Order", not_ready)


FIGHT = Offer("fight", not_ready)


def offered_units(campaign: Campaign, offer: Offer, owner: Any = None):
    units = units_of(campaign, owner)
    if offer.blocked is not_ready:
        # Whether a unit fights is its status, a column: asked in the query that draws the
        # choices, not of every unit beforehand.
        return units.filter(status__in=[status for status in Status if status.fights])
    return units.filter(pk__in=[unit.pk for unit in units if not offer.blocked(unit)])
