"""Whether a file is an export of ours, of the kind asked for and in the version this site reads."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS

from campaign.rules.values import value_shown
from campaign.transfer.checker import Checker
from campaign.transfer.format import FORMAT_KINDS, VERSION
from campaign.transfer.storable import unstorable_paths


def check_header(
    c: Checker, data: Any, format_name: str, keys: tuple[str, ...], optional: tuple[str, ...] = ()
) -> bool:
    """Whether ``data`` is an export of ``format_name``'s kind this site reads, with exactly
    these top-level keys (``optional`` may be missing); if not, ``c`` says why. A file that
    is not that kind of export at all is told so in one sentence, not field by field."""
    marked = data.get("format") if isinstance(data, dict) else None
    if marked != format_name:
        kind = FORMAT_KINDS[format_name]
        if isinstance(marked, str) and marked in FORMAT_KINDS:
            other = FORMAT_KINDS[marked]
            c.error(NON_FIELD_ERRORS, f"This is a Bridgehead {other} export, not a {kind} export.")
        else:
            c.error(
                NON_FIELD_ERRORS,
                f"This is not a Bridgehead {kind} export (it has no "
                f'"format": "{format_name}" field).',
            )
        return False
    unstorable = unstorable_paths(data)
    for path, problem in unstorable:
        c.error(path, problem)
    if unstorable or not c.mapping("", data, ("format", "version", *keys), optional):
        return False
    if data["version"] != VERSION:
        c.error("version", f"this site reads version {VERSION}, got {value_shown(data['version'])}")
        return False
    return True
