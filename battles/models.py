"""Battle records: everything needed to reproduce a battle, its status and its result."""

from __future__ import annotations

from django.db import models

from units.models import Ruleset


class Battle(models.Model):
    """One tactical battle, resolved by the engine on a Celery worker."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    name = models.CharField(max_length=200)
    ruleset = models.CharField(max_length=16, choices=Ruleset.choices)
    scenario = models.JSONField(help_text="The full scenario snapshot the battle is resolved from.")
    seed = models.BigIntegerField()
    engine_version = models.CharField(max_length=32)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "created_at"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_status_display()})"
