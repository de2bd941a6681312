"""Print the rule text's BALANCE claims beside what the sample library's cards actually do.

Each row shows the claim, the exact expected value from the cards, the value rolled with a plain
duel loop and the value rolled through the engine's attack resolution, the tolerance and the
verdict. A claim out of tolerance makes the command fail, so it can guard a card edit.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from battles.balance import balance_table, render_table


class Command(BaseCommand):
    help = "Measure the BALANCE claims against the sample cards: exact, simulated, verdict."

    def add_arguments(self, parser):
        parser.add_argument(
            "--samples", type=int, default=4000, help="Duels rolled per claim (default 4000)."
        )
        parser.add_argument("--seed", type=int, default=1, help="Seed of the dice (default 1).")
        parser.add_argument(
            "--no-engine",
            action="store_true",
            help="Skip the cross-check through the engine's own attack resolution.",
        )

    def handle(self, *args, samples: int, seed: int, no_engine: bool, **options):
        if samples < 1:
            raise CommandError("--samples must be at least 1")
        rows = balance_table(samples=samples, seed=seed, engine=not no_engine)
        self.stdout.write(render_table(rows))
        failed = [r.claim.key for r in rows if not r.holds]
        if failed:
            raise CommandError(f"{len(failed)} claim(s) out of tolerance: {', '.join(failed)}")
        self.stdout.write(
            self.style.SUCCESS(
                f"\nAll {len(rows)} claims hold ({samples} duels each, seed {seed})."
            )
        )
