"""Campaigns: the GM's game of many evenings, with its calendar and ruleset."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from units.models import Ruleset


class Campaign(models.Model):
    """A multi-session campaign run by a GM under one Team Bravo ruleset."""

    name = models.CharField(max_length=200)
    ruleset = models.CharField(
        max_length=16,
        choices=Ruleset.choices,
        default=Ruleset.COMBINED_ARMS,
        help_text="Decides whether Skill lost in a battle returns (One Year War) or not.",
    )
    gm = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="campaigns_run"
    )
    day = models.PositiveIntegerField(default=1, help_text="The campaign calendar's current day.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name
