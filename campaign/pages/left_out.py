"""The units a form leaves out, and why; the battles still holding them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from campaign.models import Campaign, CampaignBattle, Force, Unit
from campaign.pages.names import unit_label
from campaign.rules.state import Status
from campaign.selectors.roster import engaged_battles
from units.words import and_words, plural


def battles_holding(campaign: Campaign, engaged: list[tuple[Unit, str]]) -> list[CampaignBattle]:
    """The battles whose outcome is not applied yet holding ``engaged`` (the units a form leaves
    out, each with its battle's name), the earliest first: their units fight again once it is
    applied, and the form leads the GM back to them. One query, whatever the roster."""
    if not engaged:
        return []
    battles = engaged_battles(campaign=campaign)
    held = {battles[u.pk].pk: battles[u.pk] for u, _ in engaged if u.pk in battles}
    return sorted(held.values(), key=lambda b: (b.day, b.pk))


def left_out(
    out_of_action: Iterable[Unit] = (),
    engaged: Iterable[tuple[Unit, str]] = (),
    blocked: Iterable[tuple[Unit, str]] = (),
) -> list[str]:
    """Why the campaign's units a form does not offer are left out of it: a sentence per
    reason, naming the units ("Destroyed: Tiger One (Red Company)."). A unit out of action
    says why by its status (`Status.out_of_action`); one held back while a battle's outcome is
    not applied (``engaged``: the unit and the battle's name) names the battle; one a form's
    rule keeps out (``blocked``: the unit and why, "Led by Sgt Holt already") says that. More
    than `LEFT_OUT_NAMED` units alike are counted by force rather than named."""
    reasons = _left_out_reasons(out_of_action, engaged, blocked)
    return [f"{why}: {_units_named(units)}." for why, units in reasons.items()]


def still_in_battle(unit: Unit, battle: str) -> str:
    """Why ``unit`` fights nothing else yet, nor moves: it is in ``battle`` (a name, from
    `roster.engaged_units`), whose outcome is not applied yet."""
    return f"{unit} is still in {battle}, whose outcome is not applied yet"


def no_unit_fit(
    force: Force, out_of_action: Iterable[Unit] = (), engaged: Iterable[tuple[Unit, str]] = ()
) -> str:
    """Why a force has no unit a battle's form can offer, for its units left out (`left_out`'s
    reasons, its units by name alone): "Blue Battalion has no unit fit to fight. Still in
    Battle of the Crossroads, whose outcome is not applied yet: Old Faithful and Sappers." """
    reasons = _left_out_reasons(out_of_action, engaged)
    said = [
        f"{why}: {names_of(units) if len(units) <= LEFT_OUT_NAMED else plural(len(units), 'unit')}."
        for why, units in reasons.items()
    ]
    return " ".join([f"{force.name} has no unit fit to fight.", *said])


def _left_out_reasons(
    out_of_action: Iterable[Unit] = (),
    engaged: Iterable[tuple[Unit, str]] = (),
    blocked: Iterable[tuple[Unit, str]] = (),
) -> dict[str, list[Unit]]:
    """The units left out of a form by why (`left_out`), the reasons in the order it says them."""
    reasons: dict[str, list[Unit]] = {}
    for unit in sorted(out_of_action, key=lambda u: list(Status).index(Status(u.status))):
        reasons.setdefault(Status(unit.status).out_of_action, []).append(unit)
    for unit, battle in engaged:
        why = f"Still in {battle}, whose outcome is not applied yet"
        reasons.setdefault(why, []).append(unit)
    for unit, why in blocked:
        reasons.setdefault(why, []).append(unit)
    return {why: units for why, units in reasons.items() if why}


LEFT_OUT_NAMED = 12
"""Units alike a form's list of those it leaves out names; more are counted by force."""


def names_of(units: list[Unit]) -> str:
    return and_words([unit.name for unit in units])


def _units_named(units: list[Unit]) -> str:
    if len(units) <= LEFT_OUT_NAMED:
        return and_words([unit_label(unit) for unit in units])
    by_force = Counter(unit.force.name for unit in units)
    counts = and_words([f"{n} of {force}" for force, n in by_force.items()])
    return f"{plural(len(units), 'unit')} ({counts})"
