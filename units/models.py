"""The card library: Team Bravo unit types that campaign units and battles are made from."""

from __future__ import annotations

from django.db import models


class Ruleset(models.TextChoices):
    """The two Team Bravo rule texts; a battle runs under exactly one."""

    COMBINED_ARMS = "combined_arms", "Combined Arms"
    ONE_YEAR_WAR = "one_year_war", "One Year War"


class UnitType(models.Model):
    """A card from the library: a unit, a building or a terrain piece."""

    class Kind(models.TextChoices):
        UNIT = "unit", "Unit"
        BUILDING = "building", "Building"
        TERRAIN = "terrain", "Terrain"

    name = models.CharField(max_length=100)
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.UNIT)
    ruleset = models.CharField(
        max_length=16, choices=Ruleset.choices, default=Ruleset.COMBINED_ARMS
    )
    card = models.JSONField(help_text="The card as data, in the battle engine's card format.")

    class Meta:
        ordering = ["ruleset", "kind", "name"]
        constraints = [
            models.UniqueConstraint(fields=["ruleset", "name"], name="unit_type_unique_name"),
        ]

    def __str__(self) -> str:
        return self.name
