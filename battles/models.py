"""Battle records: everything needed to reproduce a battle, its status, progress and result."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from battles.engine.result import BattleResult
from units.models import Ruleset


class WorkStatus(models.TextChoices):
    """Where a piece of worker business stands: a battle, or an odds run."""

    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


class Battle(models.Model):
    """One tactical battle, resolved by the engine on a Celery worker.

    The scenario snapshot, the seed and the engine version reproduce the battle exactly; the
    complete log lives in ``BattleLog`` so that lists of battles never load it.
    """

    Status = WorkStatus

    name = models.CharField(max_length=200)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Who launched it (a one-off battle is visible to them).",
    )
    ruleset = models.CharField(max_length=16, choices=Ruleset.choices)
    scenario = models.JSONField(help_text="The full scenario snapshot the battle is resolved from.")
    seed = models.BigIntegerField()
    engine_version = models.CharField(max_length=32)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(
        null=True, blank=True, help_text="Last sign of life from the worker resolving it."
    )
    claim = models.UUIDField(
        null=True, blank=True, help_text="Token of the worker's claim; only its holder may finish."
    )
    attempts = models.PositiveIntegerField(default=0)
    progress_turn = models.PositiveIntegerField(default=0)
    progress_activation = models.PositiveIntegerField(default=0)
    turn_limit = models.PositiveIntegerField(default=0)
    result = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True, help_text="Why the battle failed, kept for the GM.")
    enqueue_error = models.TextField(
        blank=True, help_text="Why the battle could not be queued yet (the sweep retries it)."
    )
    cost = models.PositiveBigIntegerField(
        default=0, help_text="Its bounded cost in unit-pair turns (battles.budget), for quotas."
    )
    notify_task = models.CharField(
        max_length=200,
        blank=True,
        help_text="A task sent the battle's id once it is done (how a campaign hears of it).",
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "heartbeat_at"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_status_display()})"

    @property
    def outcome(self) -> BattleResult | None:
        """The stored result, typed; None until the battle is done."""
        return BattleResult.from_dict(self.result) if self.result else None

    @property
    def finished(self) -> bool:
        return self.status in {self.Status.DONE, self.Status.FAILED}


class BattleLog(models.Model):
    """The complete event log of a battle, stored as the engine's canonical JSON text.

    Text rather than jsonb: PostgreSQL's jsonb reorders keys, and a log must stay byte-identical
    to what the engine wrote so that a re-run from the seed can be compared with it exactly.
    """

    battle = models.OneToOneField(Battle, on_delete=models.CASCADE, related_name="log")
    events = models.TextField(help_text="The event list as canonical JSON.")
    sha256 = models.CharField(max_length=64)
    event_count = models.PositiveIntegerField()

    def __str__(self) -> str:
        return f"Log of {self.battle_id} ({self.event_count} events)"


class OddsRun(models.Model):
    """'Who is favoured': many battles of one scenario with different seeds, aggregated.

    Battle ``i`` of the run is fought with seed ``base_seed + i``, so any of them can be
    fought again alone. The work is split into chunks that workers take in parallel.
    """

    Status = WorkStatus

    name = models.CharField(max_length=200)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    ruleset = models.CharField(max_length=16, choices=Ruleset.choices)
    scenario = models.JSONField(help_text="The scenario snapshot every battle is fought from.")
    engine_version = models.CharField(max_length=32)
    battles = models.PositiveIntegerField()
    base_seed = models.BigIntegerField()
    chunk_size = models.PositiveIntegerField()
    chunks_total = models.PositiveIntegerField()
    chunks_done = models.PositiveIntegerField(default=0)
    cost = models.PositiveBigIntegerField(
        default=0, help_text="One battle's bounded cost in unit-pair turns (battles.budget)."
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    created_at = models.DateTimeField(auto_now_add=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)
    enqueue_error = models.TextField(blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name}: {self.battles} battles ({self.get_status_display()})"

    @property
    def finished(self) -> bool:
        return self.status in {self.Status.DONE, self.Status.FAILED}


class OddsChunk(models.Model):
    """The tallies of one chunk of an odds run; unique, so a chunk counts once however often
    its task runs."""

    run = models.ForeignKey(OddsRun, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    tallies = models.JSONField()

    class Meta:
        ordering = ["run", "index"]
        constraints = [
            models.UniqueConstraint(fields=["run", "index"], name="odds_chunk_once"),
        ]

    def __str__(self) -> str:
        return f"chunk {self.index} of run {self.run_id}"
