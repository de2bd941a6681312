"""Write a campaign's full export: `manage.py campaign_export <id> [-o FILE]`, for backups."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from campaign.models import Campaign
from campaign.transfer.export import campaign_export, export_text


class Command(BaseCommand):
    help = (
        "Write a campaign's full export (settings, members and the invitations waiting, forces, "
        "units with their history, saved maps, characters and Orders, engagements and checks, "
        "battles with their logs) as JSON, the file the dashboard's export link gives."
    )

    def add_arguments(self, parser):
        parser.add_argument("campaign", type=int, help="The campaign's id (as in its URL).")
        parser.add_argument("-o", "--output", type=Path, help="The file to write (default: out).")

    def handle(self, *args, **options):
        campaign = Campaign.objects.filter(pk=options["campaign"]).first()
        if campaign is None:
            raise CommandError(f"no campaign with id {options['campaign']}")
        text = export_text(campaign_export(campaign=campaign))
        if options["output"] is None:
            self.stdout.write(text, ending="")
            return
        path = options["output"]
        try:
            _write_whole(path, text)
        except OSError as error:
            raise CommandError(f"cannot write {path}: {error.strerror}") from None
        self.stderr.write(f"{campaign.name} (day {campaign.day}) written to {path}")


def _write_whole(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: a backup written over the last one and
    failing before its end (a full disk) leaves the last one as it was, and nothing beside it."""
    with tempfile.NamedTemporaryFile(
        "w", encoding="utf-8", dir=path.parent, prefix=f".{path.name}.", delete=False
    ) as part:
        try:
            part.write(text)
            part.flush()
            os.fsync(part.fileno())
        except OSError:
            os.unlink(part.name)
            raise
    try:
        os.replace(part.name, path)
    except OSError:
        os.unlink(part.name)
        raise
