"""The units a battle's or an engagement's form offers, a row each: every unit free to fight,
or, in a campaign with more than `battle_setup.LIST_EVERY_UNIT` of them, a page of them by force
and name (`battle_setup.units_page`) with the units the form as sent already put on a side. Those
it does not offer it names, or in a paged form counts by force."""

from __future__ import annotations

import dataclasses
from typing import Any

from django.urls import reverse

from campaign.models import Campaign, Force, Unit
from campaign.pages.left_out import left_out, no_unit_fit
from campaign.selectors.battle_setup import (
    UnitsPage,
    lists_every_unit,
    out_of_action_counts,
    units_page,
    units_to_fight,
)
from units.words import and_words, plural

NO_UNITS = (
    "The campaign has no units yet: raise a force on the campaign's page, then add its units "
    "from the card library on the force's page."
)
"""Said where a form lists the campaign's units and it has none at all."""


@dataclasses.dataclass(frozen=True)
class UnitsOffered:
    """The units a form has fields for, and those it does not offer and why."""

    units: list[Unit]
    engaged: list[tuple[Unit, str]]
    refused: list[Unit]
    """Units out of action that a paged form was sent with on a side: refused on the form."""
    paged: UnitsPage | None
    left_out: list[str]
    out_of_action: list[dict[str, str]] = dataclasses.field(default_factory=list)
    """A paged form's units out of action: a line per force, with its roster's address."""
    unfit: list[tuple[Force, str]] = dataclasses.field(default_factory=list)
    """Each force with units but none offered, and why (`pages.left_out.no_unit_fit`): its side of
    the battle has nobody to stand on it."""

    @property
    def no_units(self) -> str:
        """`NO_UNITS` when the campaign has no unit at all, else nothing (a paged form is for
        a campaign with more units than a page lists)."""
        return (
            NO_UNITS
            if self.paged is None and not (self.units or self.engaged or self.refused)
            else ""
        )


def units_offered(campaign: Campaign, source: Any) -> UnitsOffered:
    """Every unit free to fight, as a row each; or, above `LIST_EVERY_UNIT` of them, the page
    asked for (``browse_force``, ``browse_search``, ``browse_page``) with the units ``source``
    already put on a side."""
    if lists_every_unit(campaign=campaign):
        fighting = units_to_fight(campaign=campaign)
        return UnitsOffered(
            units=fighting.free,
            engaged=fighting.engaged,
            # Out of action since the page was drawn: refused by name if the form puts it on
            # a side (`out_of_action_problems`), as a paged form's are.
            refused=fighting.out_of_action,
            paged=None,
            left_out=left_out(fighting.out_of_action, fighting.engaged),
            unfit=forces_unfit(fighting.free, fighting.out_of_action, fighting.engaged),
        )
    paged = units_page(
        campaign=campaign,
        data=source,
        force=source.get("browse_force", ""),
        search=source.get("browse_search", ""),
        page=source.get("browse_page") or source.get("browse_at") or 1,
    )
    held = [
        f"Still in {battle}, whose outcome is not applied yet: {plural(n, 'unit')}."
        for battle, n in paged.held_back
    ]
    out = _by_force(campaign, paged.out_of_action)
    unfit = paged.unfit
    unfit_why = forces_unfit([], unfit.out_of_action, unfit.engaged) if unfit else []
    return UnitsOffered(paged.units, paged.engaged, paged.refused, paged, held, out, unfit_why)


def forces_unfit(
    free: list[Unit], out_of_action: list[Unit], engaged: list[tuple[Unit, str]]
) -> list[tuple[Force, str]]:
    """Each force with units of which none is free to fight, by name, and why (`no_unit_fit`)."""
    fit = {unit.force_id for unit in free}
    forces = {u.force_id: u.force for u in [*out_of_action, *(u for u, _ in engaged)]}
    return [
        (
            force,
            no_unit_fit(
                force,
                [u for u in out_of_action if u.force_id == pk],
                [(u, battle) for u, battle in engaged if u.force_id == pk],
            ),
        )
        for pk, force in sorted(forces.items(), key=lambda f: (f[1].name, f[0]))
        if pk not in fit
    ]


def _by_force(campaign: Campaign, counted: list[tuple[Force, list[tuple[str, int]]]]):
    return [
        {
            "force": force.name,
            "url": reverse("campaign:force", args=[campaign.pk, force.pk]),
            "text": and_words([f"{n} {label.lower()}" for label, n in counts]),
        }
        for force, counts in counted
    ]


def out_of_action_by_force(campaign: Campaign) -> list[dict[str, str]]:
    """The campaign's units out of action, a line per force with its roster's address."""
    return _by_force(campaign, out_of_action_counts(campaign=campaign))
