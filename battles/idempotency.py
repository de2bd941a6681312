"""Launch once per form: the one-time token a launch form carries, remembered in the session.

A double click, a resent POST or the back button then submit again would otherwise start the
same battle twice. The set-up page puts a fresh token in the form; the first POST with it
launches and remembers token → id in the session, in the same transaction; any later POST with
that token gets the id of what was launched instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F

SESSION_KEY = "battles.launched"
REMEMBERED = 100
"""Tokens kept per session; older ones are forgotten (their forms are long gone)."""


class Launched(Protocol):
    pk: int


def launch_once(request, token: str, kind: str, launch: Callable[[], Launched]) -> tuple[int, bool]:
    """Run ``launch`` unless this token has launched already; returns (id, launched now).

    ``kind`` keeps battles and odds runs apart. Exceptions from ``launch`` roll everything back
    and leave the token unused, so the corrected form can be sent again.
    """
    key = f"{kind}:{token}"
    with transaction.atomic():
        # Two POSTs of one form can arrive together. A do-nothing UPDATE of the user's row takes
        # its row lock on PostgreSQL (SQLite: the database's write lock), so the second waits
        # here until the first has committed, then reads the token the first stored.
        get_user_model().objects.filter(pk=request.user.pk).update(last_login=F("last_login"))
        tokens = dict(_stored(request).get(SESSION_KEY, {}))
        if key in tokens:
            return tokens[key], False
        launched = launch()
        tokens[key] = launched.pk
        request.session[SESSION_KEY] = dict(list(tokens.items())[-REMEMBERED:])
        request.session.save()  # inside the transaction: the token commits with the launch
    return launched.pk, True


def _stored(request) -> dict:
    """The session as stored now, not as this request read it before the lock was taken."""
    session = request.session
    if session.session_key is None:
        return dict(session.items())
    return session.__class__(session.session_key).load()
