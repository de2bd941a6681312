"""``manage.py simulate SCENARIO --seed N [--json]``: fight one battle and print it."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from battles.engine import ScenarioError
from battles.engine.cli import simulate


class Command(BaseCommand):
    help = (
        "Fight a battle from a scenario file or a bundled scenario name (factory-hold, "
        "mech-duel, river-crossing, chopper-raid, big-battle, ...) and print a readable "
        "account (or --json)."
    )

    def add_arguments(self, parser):
        parser.add_argument("scenario", help="scenario JSON file or bundled scenario name")
        parser.add_argument("--seed", type=int, required=True, help="dice seed")
        parser.add_argument("--json", action="store_true", help="print the log and result")

    def handle(self, *args, scenario: str, seed: int, json: bool, **options):
        try:
            text = simulate(scenario, seed, as_json=json)
        except (ScenarioError, OSError) as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(text, ending="" if text.endswith("\n") else "\n")
