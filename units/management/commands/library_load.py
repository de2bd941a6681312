"""Load the sample card library (units/library) into the database: `manage.py library_load`."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from units.services import LIBRARY_DIR, LibraryError, library_load


class Command(BaseCommand):
    help = "Load every .card and terrain type of the library; any bad file stops the whole load."

    def add_arguments(self, parser):
        parser.add_argument("--root", type=Path, default=LIBRARY_DIR, help="The library folder.")

    def handle(self, *args, root: Path, **options):
        try:
            report = library_load(root=root)
        except LibraryError as error:
            raise CommandError(f"nothing loaded; the library has problems:\n{error}") from None
        self.stdout.write(
            f"{len(report.created)} created, {len(report.updated)} updated, "
            f"{len(report.unchanged)} unchanged"
        )
        if report.not_in_library:
            names = ", ".join(report.not_in_library)
            self.stdout.write(f"in the database but no longer in the library: {names}")
