"""Create the demo campaign and its logins: `manage.py demo` (safe to run again)."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from campaign.demo import DEMO_CAMPAIGN, demo_load


class Command(BaseCommand):
    help = "Create the demo users, load the card library and build the demo campaign."

    def handle(self, *args, **options):
        if settings.PRODUCTION:
            # The demo's logins, an admin among them, have passwords printed in the README.
            raise CommandError(
                "The demo creates an admin with a published password: it does not run in "
                "production (BRIDGEHEAD_ENV=production)."
            )
        logins = demo_load()
        self.stdout.write(self.style.SUCCESS(f"The demo campaign is {DEMO_CAMPAIGN!r}."))
        for username, password in logins:
            self.stdout.write(f"  log in as {username} / {password}")
