"""The fuzz harness: database snapshots, one probe per input, and the figures per surface.

Every fuzz test feeds inputs to one surface through ``Probe.attempt``, which runs the input in a
savepoint, compares the database before and after when the input was refused, and rolls the
savepoint back so every example starts from the same world. The counts (inputs tried, 500s,
partial writes) go to ``test-artifacts/fuzz-figures.json``, one entry per surface.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.db import transaction
from hypothesis import HealthCheck, settings

from tests.web.campaign_world import world  # noqa: F401 - the campaign pages' shared fixture

ROOT = Path(__file__).resolve().parents[2]
FIGURES_FILE = ROOT / "test-artifacts" / "fuzz-figures.json"

# Bounded and reproducible: the same inputs on every run, nothing kept between runs.
FUZZ = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
    ],
)

SNAPSHOT_APPS = ("auth", "units", "battles", "campaign", "axes")
"""The tables a refused input must leave alone (sessions and the admin log are not data)."""
VISIT_MARKS = {"campaign.Membership": {"last_visit_at"}, "campaign.Campaign": {"gm_last_visit_at"}}
"""Columns that say when someone last opened the dashboard: like a session, not data (any GET
of the dashboard moves them, to tell "since your last visit")."""


def snapshot() -> dict[str, tuple[int, str]]:
    """Each model's row count and a digest of all its rows, in primary-key order."""
    state: dict[str, tuple[int, str]] = {}
    for label in SNAPSHOT_APPS:
        for model in apps.get_app_config(label).get_models():
            marks = VISIT_MARKS.get(model._meta.label, set())
            names = [f.attname for f in model._meta.concrete_fields if f.attname not in marks]
            rows = list(model.objects.order_by("pk").values_list(*names))
            digest = hashlib.sha256(json.dumps(rows, default=str).encode()).hexdigest()
            state[model._meta.label] = (len(rows), digest)
    return state


def changed_tables(before: dict, after: dict) -> list[str]:
    return sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))


@dataclass
class Figures:
    tried: int = 0
    accepted: int = 0
    refused: int = 0
    server_errors: int = 0
    partial_writes: int = 0
    failures: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "inputs_tried": self.tried,
            "accepted": self.accepted,
            "refused": self.refused,
            "server_errors_500": self.server_errors,
            "partial_writes": self.partial_writes,
        }


class Probe:
    """Counts one surface's inputs; ``attempt`` is one input, judged and rolled back."""

    def __init__(self, surface: str) -> None:
        self.surface = surface
        self.figures = Figures()

    def attempt(self, run: Callable[[], bool], describe: Any = "") -> bool:
        """Run ``run`` (True: the input was accepted, False: refused; an exception: a 500).

        A refused input must leave the database as it found it. Whatever happens, the
        savepoint is rolled back so the next input meets the same world.
        """
        self.figures.tried += 1
        accepted = False
        with transaction.atomic():
            before = snapshot()
            try:
                with transaction.atomic():
                    accepted = run()
            except Exception:
                self.figures.server_errors += 1
                self.figures.failures.append(
                    f"500 on {describe!r:.300}:\n{traceback.format_exc(limit=6)}"
                )
            else:
                if accepted:
                    self.figures.accepted += 1
                else:
                    self.figures.refused += 1
                    moved = changed_tables(before, snapshot())
                    if moved:
                        self.figures.partial_writes += 1
                        self.figures.failures.append(
                            f"partial write to {moved} on refused {describe!r:.300}"
                        )
            transaction.set_rollback(True)
        return accepted

    def check(self) -> None:
        """Fail the test on any 500 or partial write, naming the first few."""
        assert not self.figures.failures, "\n\n".join(self.figures.failures[:3])


def _record(surface: str, figures: Figures) -> None:
    """Merge one surface's figures into the shared file (several test processes may write)."""
    FIGURES_FILE.parent.mkdir(parents=True, exist_ok=True)
    with open(FIGURES_FILE.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        data: dict[str, Any] = {}
        with contextlib.suppress(FileNotFoundError, json.JSONDecodeError):
            data = json.loads(FIGURES_FILE.read_text())
        surfaces = data.get("surfaces", {})
        surfaces[surface] = figures.to_json()
        totals = {
            key: sum(s[key] for s in surfaces.values())
            for key in ("inputs_tried", "server_errors_500", "partial_writes")
        }
        FIGURES_FILE.write_text(
            json.dumps({"surfaces": dict(sorted(surfaces.items())), "totals": totals}, indent=2)
            + "\n"
        )


@pytest.fixture
def probe(request):
    """``probe(surface)``: a counter for one surface, recorded when the test ends."""
    made: dict[str, Probe] = {}

    def make(surface: str) -> Probe:
        # Hypothesis runs every example in one call of the fixture: one Probe per surface.
        return made.setdefault(surface, Probe(surface))

    yield make
    for one in made.values():
        _record(one.surface, one.figures)
        print(f"fuzz {one.surface}: {one.figures.to_json()}")
