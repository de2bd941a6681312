"""Battle records and odds runs: everything needed to reproduce them, and where they stand as
queued work (``QueuedWork``, the fields and ways they share)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from battles.engine.result import BattleResult
from battles.tally import OddsSummary
from units.models import Ruleset


class WorkStatus(models.TextChoices):
    """Where a piece of worker business stands: a battle, or an odds run."""

    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


IN_FLIGHT = (WorkStatus.QUEUED, WorkStatus.RUNNING)
"""The statuses of work not yet over: it counts against its budget and may still be fought."""


class QueuedWork(models.Model):
    """What a battle and an odds run share as work for the queue: who asked, with which request
    key, what it is fought from, where it stands, its worker's lease, what it cost, its outcome.

    ``request_key`` is the launch form's one-time key, unique, so a form sent twice (a double
    click, a resend) finds the row the first one made (``battles.queue``). Unique outright, not
    per owner: work launched by nobody (the campaign's own launches may be) has a NULL owner,
    and NULLs never clash in a unique constraint.
    """

    Status = WorkStatus

    name = models.CharField(max_length=200)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Who launched it (a one-off battle or a run is visible to them).",
    )
    request_key = models.UUIDField(
        null=True,
        blank=True,
        unique=True,
        help_text="The launch form's key: a repeated request finds this row.",
    )
    ruleset = models.CharField(max_length=16, choices=Ruleset.choices)
    scenario = models.JSONField(help_text="The full scenario snapshot it is fought from.")
    engine_version = models.CharField(max_length=32)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    created_at = models.DateTimeField(auto_now_add=True)
    heartbeat_at = models.DateTimeField(
        null=True, blank=True, help_text="Last sign of life from a worker fighting it."
    )
    finished_at = models.DateTimeField(null=True, blank=True)
    cost = models.PositiveBigIntegerField(
        default=0, help_text="One battle's bounded cost in unit-pair turns (battles.budget)."
    )
    result = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True, help_text="Why it failed, kept for the GM.")
    enqueue_error = models.TextField(
        blank=True, help_text="Why it could not be queued yet (the sweep retries it)."
    )

    class Meta:
        abstract = True
        ordering = ["-created_at", "-id"]

    @property
    def finished(self) -> bool:
        return self.status in {self.Status.DONE, self.Status.FAILED}


class Battle(QueuedWork):
    """One tactical battle, resolved by the engine on a Celery worker.

    The scenario snapshot, the seed and the engine version reproduce the battle exactly; the
    complete log lives in ``BattleLog`` so that lists of battles never load it.
    """

    seed = models.BigIntegerField()
    started_at = models.DateTimeField(null=True, blank=True)
    claim = models.UUIDField(
        null=True, blank=True, help_text="Token of the worker's claim; only its holder may finish."
    )
    attempts = models.PositiveIntegerField(default=0)
    progress_turn = models.PositiveIntegerField(default=0)
    progress_activation = models.PositiveIntegerField(default=0)
    turn_limit = models.PositiveIntegerField(default=0)
    notify_task = models.CharField(
        max_length=200,
        blank=True,
        help_text="A task sent the battle's id once it is done (how a campaign hears of it).",
    )

    class Meta(QueuedWork.Meta):
        indexes = [models.Index(fields=["status", "heartbeat_at"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_status_display()})"

    @property
    def outcome(self) -> BattleResult | None:
        """The stored result, typed; None until the battle is done."""
        return BattleResult.from_dict(self.result) if self.result else None


ONE_OFF = Q(notify_task="")
"""A one-off battle: fought for no other part of the site, for none asked to be told of its end
(a campaign's battles are the campaign's to list and to cancel)."""


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


class OddsRun(QueuedWork):
    """'Who is favoured': battles of one scenario with consecutive seeds, until it knows.

    Battle ``i`` of the run is fought with seed ``base_seed + i``, so any of them can be
    fought again alone. The battles come in chunks of ``chunk_size`` that workers take in
    parallel; chunk ``k`` always fights the same seeds. The run stops at the first chunk after
    which every outcome's interval is within ``precision`` (``battles.odds``), or at its
    ceiling of ``battles``. ``result`` holds the odds over the chunks counted so far, final
    once it is done.
    """

    class Stop(models.TextChoices):
        PRECISE = "precise", "Precise enough"
        CEILING = "ceiling", "At the ceiling"
        CANCELLED = "cancelled", "Cancelled"

    battles = models.PositiveIntegerField(help_text="The ceiling: the most battles it fights.")
    precision = models.FloatField(
        default=2.0,
        help_text="Percentage points: it stops once every outcome's 95% interval is within ±this.",
    )
    base_seed = models.BigIntegerField()
    chunk_size = models.PositiveIntegerField()
    chunks_total = models.PositiveIntegerField(help_text="Chunks up to the ceiling.")
    chunks_queued = models.PositiveIntegerField(
        default=0, help_text="Chunks sent to the workers so far (always the first ones)."
    )
    chunks_done = models.PositiveIntegerField(default=0)
    battles_counted = models.PositiveIntegerField(
        default=0, help_text="Battles in the unbroken run of chunks from the first, so far."
    )
    widest = models.FloatField(
        null=True,
        blank=True,
        help_text="Points: the widest ± among the outcomes over the battles counted so far.",
    )
    stop = models.CharField(max_length=16, choices=Stop.choices, blank=True)

    def __str__(self) -> str:
        return f"{self.name}: up to {self.battles} battles ({self.get_status_display()})"

    @property
    def odds(self) -> OddsSummary | None:
        """The stored odds, typed; None until the first chunks are counted."""
        return OddsSummary.from_dict(self.result) if self.result else None


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
