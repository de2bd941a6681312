"""JSON text a person pasted or uploaded, as data, or a refusal in words they can act on.

One reader for every place that takes JSON from a person (a pasted scenario, a saved map, a
campaign export): each refuses the same things the same way, naming what it was given ("the
scenario", "the file").
"""

from __future__ import annotations

import json
from typing import Any


def read_json(text: str | bytes, what: str = "the file") -> Any:
    """The data in ``text``, or ``ValueError`` saying why not: empty, not UTF-8, not JSON (with
    the line and column), a number JSON does not have (NaN, Infinity), an integer too long to
    read, or nested too deep to read."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ValueError(f"{what} is not UTF-8 text") from None
    text = text.removeprefix("\ufeff")  # a byte order mark, as an editor may save one

    def refuse_constant(name: str) -> Any:
        raise _NotJsonNumber(f"{name} is not a number JSON allows")

    try:
        return json.loads(text, parse_constant=refuse_constant)
    except _NotJsonNumber:
        raise
    except json.JSONDecodeError as error:
        if not text.strip():
            raise ValueError(f"{what} is empty") from None
        if _cut_short(text, error):
            raise ValueError(
                f"{what} is cut short: it stops at line {text.rstrip().count(chr(10)) + 1} "
                "before its JSON is closed (copy or download it again, whole)"
            ) from None
        # Some of json's reasons end in "at" ("Unterminated string starting at"), the place
        # they mean being the line and column said after them.
        reason = error.msg.lower().removesuffix(" at")
        raise ValueError(
            f"{what} is not JSON: {reason} at line {error.lineno}, column {error.colno}"
        ) from None
    except RecursionError:
        raise ValueError(f"{what} is nested far too deep to read") from None
    except ValueError:
        # Python reads no integer of more than 4,300 digits (its int_max_str_digits).
        raise ValueError(f"{what} holds a number far too long to read") from None


def _cut_short(text: str, error: json.JSONDecodeError) -> bool:
    """Whether ``text`` is JSON that stops before its end (a file half downloaded, a paste cut
    off): json wanted more where the text ends, or a string runs on to the end unclosed."""
    return error.pos >= len(text.rstrip()) or error.msg.startswith("Unterminated string")


class _NotJsonNumber(ValueError):
    """NaN or Infinity, which Python reads as numbers and JSON does not have."""
