"""``manage.py tournament``: the default commander against the simple one, with win rates.

Plays each reference scenario (or those named) from both sides over a range of seeds and prints
win rates with 95% Wilson intervals, the challenger's beside the baseline's on the same seeds.
``--strict`` fails when the challenger is not clearly better head-to-head on every scenario.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from battles.engine import ScenarioError
from battles.engine.scenarios import reference_names
from battles.tournament import COMMANDERS, pooled, render_table, tournament


class Command(BaseCommand):
    help = (
        "Play the default commander against the simple one on every reference scenario, both "
        "sides, many seeds; print win rates with 95% confidence intervals."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "scenarios",
            nargs="*",
            help=f"bundled scenario names (default: {', '.join(reference_names())})",
        )
        parser.add_argument("--seeds", type=int, default=200, help="battles per side (200)")
        parser.add_argument("--first-seed", type=int, default=0, help="first seed (0)")
        parser.add_argument("--challenger", choices=sorted(COMMANDERS), default="default")
        parser.add_argument("--baseline", choices=sorted(COMMANDERS), default="simple")
        parser.add_argument(
            "--strict",
            action="store_true",
            help="fail unless the challenger is clearly better head-to-head on every scenario",
        )

    def handle(self, *args, scenarios, seeds, first_seed, challenger, baseline, strict, **kw):
        if seeds < 1:
            raise CommandError("--seeds must be at least 1")
        run = range(first_seed, first_seed + seeds)
        try:
            rows = tournament(
                scenarios or None,
                run,
                challenger,
                baseline,
                progress=lambda line: self.stderr.write(line),
            )
        except ScenarioError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"Seeds {run.start}–{run.stop - 1} ({seeds} battles per side).\n\n")
        self.stdout.write(render_table(rows, challenger, baseline))
        weak = [v.scenario for v in pooled(rows) if not v.clearly_better]
        if strict and weak:
            raise CommandError(f"{challenger} is not clearly better on: {', '.join(weak)}")
