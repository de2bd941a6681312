"""Write a campaign's full export: `manage.py campaign_export <id> [-o FILE]`, for backups."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from campaign.models import Campaign
from campaign.transfer import campaign_export, export_text


class Command(BaseCommand):
    help = (
        "Write a campaign's full export (settings, members, forces, units with their history, "
        "saved maps, characters and Orders, engagements and checks, battles with their logs) as "
        "JSON, the file the dashboard's export link gives."
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
        else:
            options["output"].write_text(text, encoding="utf-8")
            self.stderr.write(
                f"{campaign.name} (day {campaign.day}) written to {options['output']}"
            )
