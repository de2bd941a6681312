"""The card library: Team Bravo unit types that campaign units and battles are made from."""

from __future__ import annotations

import secrets
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models

from battles.engine.rulesets import RULESETS
from units.bucs import Specialty
from units.carddata import MAX_NAME
from units.cardtext import CardError, is_building, render_card, validate_card
from units.terrain import TerrainError, validate_terrain
from units.words import given

Ruleset = models.TextChoices(
    "Ruleset", [(r.name.upper(), (r.name, r.label)) for r in RULESETS.values()]
)
"""The Team Bravo rule texts (the engine's `RULESETS`) as choices; a battle runs under one:
`Ruleset.COMBINED_ARMS`, `Ruleset.ONE_YEAR_WAR`."""


def new_version() -> int:
    """A fresh version token: random, so a restored backup never reuses one with new contents.

    48 bits, so a sum over a force's units stays far inside a 64-bit integer.
    """
    return secrets.randbits(48)


class Versioned(models.Model):
    """A row with a ``version`` token that every save replaces.

    Pages kept as rendered HTML (``config.pagecache``) are keyed by the sum, count and highest
    id of their rows' tokens, read in one aggregate query instead of loading the rows. Every
    write must go through ``save()``: a ``QuerySet.update()`` of these rows must set
    ``version=new_version()`` itself.
    """

    version = models.BigIntegerField(default=new_version, editable=False)

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.version = new_version()
        update_fields = kwargs.get("update_fields")
        if update_fields is not None:
            kwargs["update_fields"] = {*update_fields, "version"}
        super().save(*args, **kwargs)


class UnitType(Versioned):
    """A card from the library: a unit, a building or a terrain type.

    Units and buildings belong to one ruleset's library; terrain types serve both rulesets and
    leave the ruleset blank.
    """

    class Kind(models.TextChoices):
        UNIT = "unit", "Unit"
        BUILDING = "building", "Building"
        TERRAIN = "terrain", "Terrain"

    name = models.CharField(max_length=MAX_NAME)
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.UNIT)
    ruleset = models.CharField(
        max_length=16,
        choices=Ruleset.choices,
        default=Ruleset.COMBINED_ARMS,
        blank=True,
        help_text="Blank for terrain, which every ruleset shares.",
    )
    card = models.JSONField(help_text="The card as data, in the battle engine's card format.")
    specialty = models.CharField(
        max_length=32,
        blank=True,
        choices=[(s.value, s.label) for s in Specialty],
        help_text="The BUCS specialty a unit needs to fight at its quality on this card "
        "(outside it, it fights as Raw with Poor kit); blank: any unit may field it.",
    )
    source = models.CharField(
        max_length=200, blank=True, help_text="The library file it was loaded from, if any."
    )

    class Meta:
        ordering = ["ruleset", "kind", "name"]
        constraints = [
            models.UniqueConstraint(fields=["ruleset", "name"], name="unit_type_unique_name"),
            models.CheckConstraint(
                condition=models.Q(kind="terrain", ruleset="")
                | (~models.Q(kind="terrain") & ~models.Q(ruleset="")),
                name="unit_type_ruleset_unless_terrain",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        errors = card_errors(self.kind, self.name, self.card, self.ruleset)
        if self.kind == self.Kind.TERRAIN and self.ruleset:
            errors.setdefault("ruleset", []).append("terrain serves every ruleset: leave it blank")
        if self.kind != self.Kind.TERRAIN and not self.ruleset:
            errors.setdefault("ruleset", []).append("a unit or building card needs its ruleset")
        if errors:
            raise ValidationError(errors)

    @property
    def text(self) -> str:
        """The card in the "WRITING A CARD" text format (terrain has none)."""
        if self.kind == self.Kind.TERRAIN:
            return ""
        return render_card(self.card)


def card_errors(kind: str, name: str, card: Any, ruleset: str = "") -> dict[str, list[str]]:
    """Every reason `card` is not a valid card of this kind and name (and ruleset's keywords),
    by model field."""
    try:
        if kind == UnitType.Kind.TERRAIN:
            validate_terrain(card)
        else:
            validate_card(card, ruleset)
    except (CardError, TerrainError) as error:
        return {"card": [str(error)]}
    if kind == UnitType.Kind.UNIT and is_building(card):
        return {"kind": ["this is a building card"]}
    if kind == UnitType.Kind.BUILDING and not is_building(card):
        return {"kind": ["this is a unit card, not a building"]}
    if kind != UnitType.Kind.TERRAIN and card.get("name") != name:
        return {"name": [f"must be the card's own name, {given(card.get('name'))}"]}
    return {}
