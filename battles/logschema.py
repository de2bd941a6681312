"""A battle log that comes from outside the engine (an imported campaign's), checked against the
log's schema, ``docs/battle-log.schema.json``: the one document that says what a log holds, and
the one the engine's own logs are tested against (``tests/engine/test_log.py``)."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

LOG_SCHEMA = Path(__file__).resolve().parents[1] / "docs" / "battle-log.schema.json"


@functools.cache
def log_validator() -> Draft202012Validator:
    return Draft202012Validator(json.loads(LOG_SCHEMA.read_text(encoding="utf-8")))


def log_problems(data: Any) -> Iterator[tuple[str, str]]:
    """Where ``data`` is not a log as the schema describes one, and why: (path, reason), the
    path as ``.events[3].turn`` ("" for the log itself). Lazy: take as many as you will show."""
    for error in log_validator().iter_errors(data):
        yield from _plain(error)


def _plain(error: ValidationError) -> Iterator[tuple[str, str]]:
    """An event that fits none of the log's kinds is judged as the kind it names, so the reason
    is the field that is wrong ("'two' is not of type 'integer'"), not a list of every kind."""
    if error.validator != "oneOf" or not error.context:
        yield _where(error.absolute_path), error.message
        return
    branches: dict[Any, list[ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    named = [subs for subs in branches.values() if not any(_about_kind(sub) for sub in subs)]
    if len(named) != 1:
        kind = error.instance.get("kind") if isinstance(error.instance, dict) else None
        yield _where(error.absolute_path), f"not an event of the log (kind {kind!r})"
        return
    for sub in named[0]:
        yield from _plain(sub)


def _about_kind(error: ValidationError) -> bool:
    return list(error.relative_path) == ["kind"]


def _where(path: Iterable[Any]) -> str:
    return "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in path)
