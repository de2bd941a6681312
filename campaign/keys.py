"""Database keys as a form or an address gives them: text, to be read before the database is
asked (SQLite raises on a number beyond its integer column, rather than find no row)."""

from __future__ import annotations

from typing import Any

PK_MAX = 2**63 - 1
"""The largest key a database's big integer column holds."""


def key_named(value: Any) -> int | None:
    """The database key a submitted value names, or None when it can name none: not a whole
    number written in the digits 0-9, or beyond what the key column holds (SQLite raises on such a
    number rather than find no row)."""
    text = str(value)
    if not (text.isascii() and text.isdigit()) or len(text) > 19:  # "²" is a digit int() refuses
        return None
    key = int(text)
    return key if key <= PK_MAX else None
