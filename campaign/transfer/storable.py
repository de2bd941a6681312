"""What no database column stores or gives back, found anywhere in an import's data."""

from __future__ import annotations

import math
from typing import Any

from campaign.rules.values import value_shown


def _unstorable(value: str) -> str | None:
    if "\x00" in value:
        return "must not contain a NUL character"
    if any("\ud800" <= char <= "\udfff" for char in value):
        return "must not contain a lone surrogate (not a character)"
    return None


def unstorable_paths(data: Any, path: str = "") -> list[tuple[str, str]]:
    """Where ``data`` holds what no database text or JSON column stores or gives back: a NUL
    character, half of a surrogate pair, a number that is not finite (NaN, Infinity)."""
    found: list[tuple[str, str]] = []
    if isinstance(data, str):
        problem = _unstorable(data)
        return [(path or "data", problem)] if problem else []
    if isinstance(data, float) and not math.isfinite(data):
        return [(path or "data", f"must be a finite number, got {value_shown(data)}")]
    if isinstance(data, dict):
        for key, value in data.items():
            at = f"{path}.{key}".lstrip(".") if isinstance(key, str) else path
            problem = _unstorable(key) if isinstance(key, str) else None
            found += [(at, problem)] if problem else unstorable_paths(value, at)
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += unstorable_paths(value, f"{path}[{index}]")
    return found
