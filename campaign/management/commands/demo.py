"""Create the demo campaign and its logins: `manage.py demo` (safe to run again)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from campaign.demo import DEMO_CAMPAIGN, demo_load


class Command(BaseCommand):
    help = "Create the demo users, load the card library and build the demo campaign."

    def handle(self, *args, **options):
        logins = demo_load()
        self.stdout.write(self.style.SUCCESS(f"The demo campaign is {DEMO_CAMPAIGN!r}."))
        for username, password in logins:
            self.stdout.write(f"  log in as {username} / {password}")
