"""Play seeded campaigns through the services and the engine, and print how deadly they are.

`manage.py campaign_lab [--campaigns N] [--battles M] [--ruleset R] [--seed S] [--export FILE]`
Everything runs in a transaction that is rolled back: the database is left as it was.
"""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from campaign.lab import LabReport, lab_run
from units.models import Ruleset

COLUMNS = (
    ("quality", "quality", "{}"),
    ("unit_battles", "fought", "{}"),
    ("taken_out", "taken out", "{}"),
    ("lost_for_good", "lost for good", "{:.0%}"),
    ("morale_per_battle", "Morale/battle", "{:.2f}"),
    ("casualty_per_battle", "Casualty/battle", "{:.2f}"),
    ("saved", "medics saved", "{:.0%}"),
    ("days_out", "days out", "{:.1f}"),
    ("started", "started", "{}"),
    ("quality_after", "quality after", "{:.2f}"),
    ("destroyed_by_end", "destroyed by end", "{:.0%}"),
)


def table(report: LabReport) -> list[str]:
    """The report as a Markdown table, one row per quality step."""
    lines = [
        "| " + " | ".join(label for _, label, _ in COLUMNS) + " |",
        "|" + "|".join("---" if i == 0 else "---:" for i in range(len(COLUMNS))) + "|",
    ]
    for row in report.rows():
        cells = ["—" if row[key] is None else form.format(row[key]) for key, _, form in COLUMNS]
        lines.append("| " + " | ".join(cells) + " |")
    share = (
        report.battles_with_casualty_hits / report.battles_with_hit_lost
        if report.battles_with_hit_lost
        else 0.0
    )
    lines.append(
        f"Battles fought {report.battles_fought}; a unit that lost a Hit carried Casualty hits "
        f"out of {report.battles_with_casualty_hits} of {report.battles_with_hit_lost} "
        f"such unit-battles ({share:.0%}). Quality steps kept: {report.quality_kept} of "
        f"{report.quality_started}; by the fighting units of forces with a Medical crew: "
        f"{report.medical_force_kept} of {report.medical_force_started}."
    )
    return lines


class Command(BaseCommand):
    help = "Play N seeded campaigns of M engine battles and print the figures per quality step."

    def add_arguments(self, parser):
        parser.add_argument("--campaigns", type=int, default=3)
        parser.add_argument("--battles", type=int, default=10)
        parser.add_argument("--ruleset", choices=[*Ruleset.values, "both"], default="both")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--export", type=Path, help="a campaign export file to play instead")
        parser.add_argument(
            "--medics", choices=["with", "without", "both"], default="both",
            help="run the medics after each battle, or not",
        )  # fmt: skip

    def handle(self, *args, **options):
        if options["campaigns"] < 1 or options["battles"] < 1:
            raise CommandError("--campaigns and --battles must be 1 or more")
        export = None
        if options["export"] is not None:
            try:
                export = json.loads(options["export"].read_text(encoding="utf-8"))
            except (OSError, ValueError) as error:
                raise CommandError(f"cannot read {options['export']}: {error}") from None
        rulesets = (
            [export["campaign"]["ruleset"]]
            if export
            else (Ruleset.values if options["ruleset"] == "both" else [options["ruleset"]])
        )
        medics = {"with": [True], "without": [False], "both": [True, False]}[options["medics"]]
        for ruleset in rulesets:
            for with_medics in medics:
                report = lab_run(
                    ruleset=ruleset,
                    campaigns=options["campaigns"],
                    battles=options["battles"],
                    medics=with_medics,
                    seed=options["seed"],
                    export=export,
                )
                title = f"{Ruleset(ruleset).label}, {'with' if with_medics else 'without'} medics"
                self.stdout.write(
                    f"\n{title}: {options['campaigns']} campaigns × {options['battles']} battles"
                )
                for line in table(report):
                    self.stdout.write(line)
