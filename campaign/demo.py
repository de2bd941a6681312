"""The demo: known logins so a new user can look around at once."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

DEMO_LOGINS = (("gm", "bridgehead-gm", True),)


@transaction.atomic
def demo_load() -> list[tuple[str, str]]:
    """Create the demo users if missing (never changes an existing user) and list the logins."""
    User = get_user_model()
    for username, password, is_staff in DEMO_LOGINS:
        if not User.objects.filter(username=username).exists():
            User.objects.create_user(
                username=username, password=password, is_staff=is_staff, is_superuser=is_staff
            )
    return [(username, password) for username, password, _ in DEMO_LOGINS]
