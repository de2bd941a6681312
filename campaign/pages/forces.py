"""Each force in summary: its unit counts, what a player may always see of another force."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q, Sum

from campaign.models import Campaign, Force, Unit
from campaign.pages.sides import force_colours
from campaign.rules.state import Status
from campaign.selectors.roster import engaged_battles
from units.words import plural


@dataclass(frozen=True)
class ForceSummary:
    force: Force
    units: int
    ready: int
    version: int
    """The sum of its units' version tokens (``units.models.Versioned``): it changes with any
    saved change to a unit, which is also when a unit's history gains an entry."""
    destroyed: int = 0
    """Of its ``units``, those destroyed: still on its roster and in its story, no longer
    fighting."""
    held: int = 0
    """Of its ``ready`` units, those still in a battle whose outcome is not applied
    (`roster.engaged_battles`): they go into no other fight until it is."""
    colour: str = ""
    """Its colour on every page (`sides.force_colours`)."""


def units_count_text(units: int, destroyed: int) -> str:
    """How many units a force has, destroyed ones said apart: they stay on its roster but no
    longer fight ("5 units (1 destroyed)", "2 units, all destroyed")."""
    text = plural(units, "unit")
    if destroyed and destroyed == units:
        return text + (", destroyed" if units == 1 else ", all destroyed")
    return text + (f" ({destroyed} destroyed)" if destroyed else "")


def force_summaries(campaign: Campaign) -> list[ForceSummary]:
    """Each force with its unit counts: what a player may always see of another force (of its
    ready units, how many a battle not yet applied holds is part of its roster)."""
    engaged = list(engaged_battles(campaign=campaign))
    counts = {
        row["force_id"]: (row["units"], row["ready"], row["version"], row["destroyed"], row["held"])
        for row in Unit.objects.filter(force__campaign=campaign)
        .values("force_id")
        .annotate(
            units=Count("id"),
            ready=Count("id", filter=Q(status=Status.READY)),
            version=Sum("version"),
            destroyed=Count("id", filter=Q(status=Status.DESTROYED)),
            held=Count("id", filter=Q(status=Status.READY, pk__in=engaged)),
        )
        .order_by()
    }
    forces = list(campaign.forces.select_related("owner").order_by("name"))
    colours = force_colours((f.pk, f.name) for f in forces)
    return [
        ForceSummary(f, *counts.get(f.pk, (0, 0, 0, 0, 0)), colour=colours[f.pk]) for f in forces
    ]
