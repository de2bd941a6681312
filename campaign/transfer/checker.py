"""What every check of an import uses: a `Checker`, which collects each error by its path
("forces[0].units[2].quality"), and the checks of one value (a whole number, a text, a name, a
time, a ruleset), each said at its path.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from django.contrib.auth import get_user_model

from campaign.rules.values import NAME_LENGTH, value_shown, whole_number
from units.models import Ruleset
from units.words import given


class Checker:
    """Collects errors by path, so one pass reports every bad field."""

    def __init__(self) -> None:
        self.errors: dict[str, list[str]] = {}

    def error(self, path: str, message: str) -> None:
        self.errors.setdefault(path or "data", []).append(message)

    def mapping(
        self, path: str, data: Any, keys: tuple[str, ...], optional: tuple[str, ...] = ()
    ) -> bool:
        """Whether `data` is a mapping with exactly these keys (`optional` may be missing)."""
        if not isinstance(data, dict):
            self.error(path, f"must be an object, got {type(data).__name__}")
            return False
        ok = True
        for key in keys:
            if key not in data and key not in optional:
                self.error(f"{path}.{key}".lstrip("."), "missing")
                ok = False
        for key in data:
            if key not in keys:
                self.error(f"{path}.{key}".lstrip("."), "unknown field")
                ok = False
        return ok

    def records(
        self,
        path: str,
        data: Any,
        keys: tuple[str, ...],
        check: Callable[[str, dict[str, Any]], None],
    ) -> list[dict[str, Any]]:
        """The records of the list `data` that are mappings with exactly these keys and that
        `check(path, record)` finds no fault in."""
        if not isinstance(data, list):
            self.error(path, "must be a list")
            return []
        found = []
        for index, record in enumerate(data):
            at = f"{path}[{index}]"
            if not self.mapping(at, record, keys):
                continue
            before = len(self.errors)
            check(at, record)
            if len(self.errors) == before:
                found.append(record)
        return found

    def user(self, path: str, username: Any) -> Any:
        if not isinstance(username, str):
            self.error(path, f"must be a username, got {type(username).__name__}")
            return None
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            self.error(path, f"no user {given(username)} on this site")
        return user


def check_ruleset(c: Checker, path: str, value: Any) -> bool:
    if value not in Ruleset.values:
        c.error(path, f"must be one of {', '.join(Ruleset.values)}, got {value_shown(value)}")
        return False
    return True


def created_at_problem(value: Any) -> str | None:
    """What keeps ``value`` from being a history entry's time that reads back: it must be an
    ISO date and time with its offset, and lie within the years 1..9999 in UTC too, which is how
    the database keeps it (year 1 at +14:00 is year 0 in UTC: stored, but never read again)."""
    try:
        moment = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        return f"must be an ISO date and time, got {value_shown(value)}"
    if moment.utcoffset() is None:
        example = "2026-05-01T19:30:00+00:00"
        return f"must give its offset from UTC (as in {example}), got {value_shown(value)}"
    try:
        moment.astimezone(UTC)
    except OverflowError:
        return f"must lie within the years 1..9999 in UTC, got {value_shown(value)}"
    return None


def check_whole(c: Checker, path: str, value: Any, low: int, high: int) -> int | None:
    try:
        return whole_number(value, low, high)
    except ValueError as error:
        c.error(path, str(error))
        return None


def check_text(c: Checker, path: str, value: Any, longest: int, *, empty: bool = True) -> bool:
    """Whether ``value`` is text of at most ``longest`` characters (not blank, unless
    ``empty``); if not, ``c`` says so at ``path``. A name is read this way before it is looked
    up, so a list or an object where a name belongs is refused in words, not looked up."""
    if not isinstance(value, str) or len(value) > longest or (not empty and not value.strip()):
        c.error(path, f"must be text of {0 if empty else 1}..{longest} characters")
        return False
    return True


def named_thing(c: Checker, path: str, name: Any, what: str) -> bool:
    """Whether ``name`` is a name of 1 to `NAME_LENGTH` characters; if not, ``c`` says so at
    ``path``, of ``what`` ("Saved map 2": a thing without a name is told by its place)."""
    if not isinstance(name, str):
        said = f"{what}'s name must be text, not {value_shown(name)}"
    elif not name.strip():
        said = f"{what} has no name: give it one of 1 to {NAME_LENGTH} characters"
    elif len(name) > NAME_LENGTH:
        said = f"{what}'s name is {len(name):,} characters long; a name takes at most {NAME_LENGTH}"
    else:
        return True
    c.error(path, said)
    return False


def check_names(c: Checker, path: str, record: dict[str, Any], keys: tuple[str, ...]) -> bool:
    """Whether each of ``keys`` in ``record`` is a name (`check_text`, 1..`NAME_LENGTH`), each
    wrong one said at ``path.key``: what an import looks a thing up by must be text."""
    named = [check_text(c, f"{path}.{key}", record[key], NAME_LENGTH, empty=False) for key in keys]
    return all(named)
