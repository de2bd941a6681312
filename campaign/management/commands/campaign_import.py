"""Read a campaign export into a new campaign: `manage.py campaign_import FILE`.

All or nothing: on any problem nothing is written and each is named by its path in the file.
The export's GM runs it (or ``--gm``); everyone else it names is invited, as on the import page,
unless ``--keep-members`` restores them as members (a backup, restored by whoever runs the site);
the invitations waiting in the file are sent again either way, each with a new link.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from battles.jsontext import read_json
from campaign.services import campaign_import
from campaign.services.transfer import campaign_import_summary
from campaign.transfer.problems import import_problem_text, import_problems
from config.site import site_address
from units.words import given


def named_users(data: Any) -> set[str]:
    """The usernames an export names as its GM and members (force owners are among them)."""
    info = data.get("campaign") if isinstance(data, dict) else None
    if not isinstance(info, dict):
        return set()
    members = info.get("members") if isinstance(info.get("members"), list) else []
    names = [info.get("gm"), *(m.get("user") for m in members if isinstance(m, dict))]
    return {name for name in names if isinstance(name, str) and name.strip()}


class Command(BaseCommand):
    help = "Import a campaign export (manage.py campaign_export, or the site's) as a new campaign."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="The export file ('-' reads standard input).")
        parser.add_argument("--gm", help="Who runs the new campaign (default: the export's GM).")
        parser.add_argument(
            "--create-users",
            action="store_true",
            help="Make the users it names that this site lacks, without a password "
            "(they set one through a password reset), as when restoring onto a new site.",
        )
        parser.add_argument(
            "--keep-members",
            action="store_true",
            help="Make the file's members members again, in their roles, with their forces and "
            "characters, as when restoring a backup (by default each is invited, and joins only "
            "by accepting).",
        )

    def handle(self, *args, **options):
        path = options["file"]
        try:
            raw = sys.stdin.buffer.read() if str(path) == "-" else path.read_bytes()
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error.strerror}") from None
        try:
            data = read_json(raw)
        except ValueError as error:
            raise CommandError(f"{path}: {error}") from None
        User = get_user_model()
        try:
            with transaction.atomic():
                made = []
                if options["create_users"]:
                    for name in sorted(named_users(data)):
                        if not User.objects.filter(username=name).exists():
                            User.objects.create_user(name)  # no usable password
                            made.append(name)
                gm = None
                if options["gm"]:
                    gm = User.objects.filter(username=options["gm"]).first()
                    if gm is None:
                        raise CommandError(f"no user {given(options['gm'])} on this site")
                campaign = campaign_import(
                    data=data,
                    gm=gm,
                    keep_members=options["keep_members"],
                    refight_most=None,
                    site=site_address(),  # SITE_URL: no link can be mailed without it
                )
        except ValidationError as error:
            # Each problem by its path and the names along it, as the import page says it.
            lines = [f"  {import_problem_text(p)}" for p in import_problems(error, data)]
            raise CommandError("nothing imported:\n" + "\n".join(lines)) from None
        if made:
            self.stderr.write(f"users made (no password yet): {', '.join(made)}")
        self.stdout.write(f"{campaign.pk}\n")
        self.stderr.write(
            f"imported {campaign.name} (day {campaign.day}) as campaign {campaign.pk}"
        )
        self.stderr.write(campaign_import_summary(campaign=campaign, data=data, you=False))
        invited = list(campaign.invitations.values_list("invitee", flat=True))
        known = set(User.objects.filter(username__in=invited).values_list("username", flat=True))
        missing = [name for name in invited if "@" not in name and name not in known]
        if missing:
            # Told to whoever runs the site only: the import page never says it.
            self.stderr.write(f"invited, with no account here yet: {', '.join(missing)}")
