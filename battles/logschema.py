"""A battle log that comes from outside the engine (an imported campaign's), checked against the
log's schema, ``docs/battle-log.schema.json``: the one document that says what a log holds, and
the one the engine's own logs are tested against (``tests/engine/test_log.py``).

A log may hold tens of thousands of events, and jsonschema spends about 0.4 ms on each (every
event is tried against each of the fifteen kinds), so a long log checked by it alone outlasts a
web request. The schema is therefore also read once into plain Python checks (`fits`), which
say whether an event fits in a few microseconds; jsonschema judges only what those checks find
wrong, to say why in its words. The checks read the few keywords the schema uses and refuse to
be built from a schema with any other, so the two cannot drift apart unnoticed; the tests hold
them to the same verdicts (``tests/engine/test_logschema.py``).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

LOG_SCHEMA = Path(__file__).resolve().parents[1] / "docs" / "battle-log.schema.json"

Check = Callable[[Any], bool]


@functools.cache
def log_schema() -> dict[str, Any]:
    return json.loads(LOG_SCHEMA.read_text(encoding="utf-8"))


@functools.cache
def log_validator() -> Draft202012Validator:
    return Draft202012Validator(log_schema())


def log_problems(data: Any) -> Iterator[tuple[str, str]]:
    """Where ``data`` is not a log as the schema describes one, and why: (path, reason), the
    path as ``.events[3].turn`` ("" for the log itself). Lazy: take as many as you will show.

    The whole log is judged by the fast checks first; a log that fits costs no jsonschema at
    all. Otherwise its envelope (all but the events) and then each event that does not fit are
    judged by jsonschema, one at a time, so the reasons come in the order of the file and each
    costs one event's check."""
    checks = log_checks()
    if checks.log(data):
        return
    events = data.get("events") if isinstance(data, dict) else None
    if not isinstance(events, list):
        for error in log_validator().iter_errors(data):
            yield from _plain(error)
        return
    for error in checks.envelope.iter_errors(data):
        yield from _plain(error)
    for index, event in enumerate(events):
        fits, validator = checks.event(index)
        if not fits(event):
            for error in validator.iter_errors(event):
                yield from _plain(error, ("events", index))


class LogChecks:
    """The schema read into fast checks (`fits`): the whole log, and each event by its place
    (``prefixItems`` for the first, ``items`` for the rest), each beside the jsonschema validator
    that says why an event does not fit."""

    def __init__(self, schema: dict[str, Any]) -> None:
        defs = schema["$defs"]
        self.log = fits(schema, defs)
        events = schema["properties"]["events"]
        array = {key: events[key] for key in ("type", "minItems", "maxItems") if key in events}
        self.envelope = Draft202012Validator(
            {**schema, "properties": {**schema["properties"], "events": array}}
        )
        self._first = [
            (fits(item, defs), Draft202012Validator({**item, "$defs": defs}))
            for item in events.get("prefixItems", [])
        ]
        rest = events.get("items", {})
        self._rest = (fits(rest, defs), Draft202012Validator({**rest, "$defs": defs}))

    def event(self, index: int) -> tuple[Check, Draft202012Validator]:
        return self._first[index] if index < len(self._first) else self._rest


@functools.cache
def log_checks() -> LogChecks:
    """Built once a process: every import's logs share them."""
    return LogChecks(log_schema())


ANNOTATIONS = frozenset({"$schema", "$id", "$defs", "title", "description"})
TYPES: dict[str, Check] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    # As jsonschema counts them: true and false are no numbers, and 2.0 is an integer.
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "integer": lambda v: (
        (isinstance(v, int) and not isinstance(v, bool))
        or (isinstance(v, float) and v.is_integer())
    ),
}


def _number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def fits(schema: dict[str, Any], defs: dict[str, Any]) -> Check:
    """A check that says, as jsonschema (draft 2020-12) would, whether a value is valid under
    ``schema``, for the keywords the log's schema uses; ``ValueError`` on any other, so the
    schema cannot grow a rule these checks would let pass."""
    unknown = set(schema) - ANNOTATIONS - set(_KEYWORDS)
    if unknown:
        raise ValueError(f"the fast log checks do not read {', '.join(sorted(unknown))}")
    checks = [_KEYWORDS[key](schema, defs) for key in _KEYWORDS if key in schema]
    checks = [check for check in checks if check is not None]
    if len(checks) == 1:
        return checks[0]
    return lambda v: all(check(v) for check in checks)


def _ref(schema: dict[str, Any], defs: dict[str, Any]) -> Check:
    name = schema["$ref"].removeprefix("#/$defs/")
    if name not in defs or schema["$ref"] != f"#/$defs/{name}":
        raise ValueError(f"the fast log checks read only refs into $defs, not {schema['$ref']}")
    found: list[Check] = []  # built on first use: a definition may refer to itself

    def check(v: Any) -> bool:
        if not found:
            found.append(fits(defs[name], defs))
        return found[0](v)

    return check


def _type(schema: dict[str, Any], _: Any) -> Check:
    kinds = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
    tests = [TYPES[kind] for kind in kinds]
    return lambda v: any(test(v) for test in tests)


def _strings(values: list[Any]) -> frozenset[str]:
    # jsonschema compares true with 1 as unequal, and so on: only text is read here.
    if not all(isinstance(value, str) for value in values):
        raise ValueError("the fast log checks read const and enum of text only")
    return frozenset(values)


def _const(schema: dict[str, Any], _: Any) -> Check:
    value = schema["const"]
    _strings([value])
    return lambda v: isinstance(v, str) and v == value


def _enum(schema: dict[str, Any], _: Any) -> Check:
    values = _strings(schema["enum"])
    return lambda v: isinstance(v, str) and v in values


def _bound(key: str, test: Callable[[Any, Any], bool]) -> Callable[[dict[str, Any], Any], Check]:
    def build(schema: dict[str, Any], _: Any) -> Check:
        limit = schema[key]
        return lambda v: not _number(v) or test(v, limit)

    return build


def _min_length(schema: dict[str, Any], _: Any) -> Check:
    least = schema["minLength"]
    return lambda v: not isinstance(v, str) or len(v) >= least


def _pattern(schema: dict[str, Any], _: Any) -> Check:
    pattern = re.compile(schema["pattern"])
    return lambda v: not isinstance(v, str) or pattern.search(v) is not None


def _min_items(schema: dict[str, Any], _: Any) -> Check:
    least = schema["minItems"]
    return lambda v: not isinstance(v, list) or len(v) >= least


def _max_items(schema: dict[str, Any], _: Any) -> Check:
    most = schema["maxItems"]
    return lambda v: not isinstance(v, list) or len(v) <= most


def _prefix_items(schema: dict[str, Any], defs: dict[str, Any]) -> Check:
    firsts = [fits(item, defs) for item in schema["prefixItems"]]
    return lambda v: (
        not isinstance(v, list) or all(check(item) for check, item in zip(firsts, v, strict=False))
    )


def _items(schema: dict[str, Any], defs: dict[str, Any]) -> Check:
    each = fits(schema["items"], defs)
    skip = len(schema.get("prefixItems", []))
    if skip:
        return lambda v: not isinstance(v, list) or all(each(item) for item in v[skip:])
    return lambda v: not isinstance(v, list) or all(each(item) for item in v)


def _one_of(schema: dict[str, Any], defs: dict[str, Any]) -> Check:
    branches = [fits(branch, defs) for branch in schema["oneOf"]]
    kinds = _by_kind(schema["oneOf"], defs)
    if kinds is not None:
        # Each branch requires its own ``kind``, so a value fits at most the one it names.
        by_kind = dict(zip(kinds, branches, strict=True))
        return lambda v: (
            isinstance(v, dict)
            and isinstance(v.get("kind"), str)
            and v["kind"] in by_kind
            and by_kind[v["kind"]](v)
        )
    return lambda v: sum(1 for branch in branches if branch(v)) == 1


def _by_kind(branches: list[dict[str, Any]], defs: dict[str, Any]) -> list[str] | None:
    """The ``kind`` each branch requires, if every branch is an object that requires a kind
    of its own (a const, each another); else None."""
    kinds = []
    for branch in branches:
        ref = branch.get("$ref", "")
        if set(branch) != {"$ref"} or not ref.startswith("#/$defs/"):
            return None
        target = defs.get(ref.removeprefix("#/$defs/"), {})
        kind = target.get("properties", {}).get("kind", {})
        if target.get("type") != "object" or "kind" not in target.get("required", ()):
            return None
        if not isinstance(kind.get("const"), str):
            return None
        kinds.append(kind["const"])
    return kinds if len(set(kinds)) == len(kinds) else None


def _required(schema: dict[str, Any], _: Any) -> Check:
    keys = frozenset(schema["required"])
    return lambda v: not isinstance(v, dict) or keys <= v.keys()


def _properties(schema: dict[str, Any], defs: dict[str, Any]) -> Check:
    # A const first: an event of another kind is told apart on its first property.
    ordered = sorted(schema["properties"].items(), key=lambda pair: "const" not in pair[1])
    checks = [(key, fits(sub, defs)) for key, sub in ordered]
    return lambda v: (
        not isinstance(v, dict) or all(key not in v or check(v[key]) for key, check in checks)
    )


def _additional(schema: dict[str, Any], _: Any) -> Check:
    if schema["additionalProperties"] is not False:
        raise ValueError("the fast log checks read additionalProperties: false only")
    allowed = frozenset(schema.get("properties", {}))
    return lambda v: not isinstance(v, dict) or v.keys() <= allowed


_KEYWORDS: dict[str, Callable[[dict[str, Any], Any], Check | None]] = {
    # Cheap and telling first: the type, then a kind's const among the properties.
    "$ref": _ref,
    "type": _type,
    "const": _const,
    "enum": _enum,
    "required": _required,
    "additionalProperties": _additional,
    "properties": _properties,
    "minimum": _bound("minimum", lambda v, limit: v >= limit),
    "maximum": _bound("maximum", lambda v, limit: v <= limit),
    "exclusiveMaximum": _bound("exclusiveMaximum", lambda v, limit: v < limit),
    "minLength": _min_length,
    "pattern": _pattern,
    "minItems": _min_items,
    "maxItems": _max_items,
    "prefixItems": _prefix_items,
    "items": _items,
    "oneOf": _one_of,
}


def _plain(error: ValidationError, at: tuple[Any, ...] = ()) -> Iterator[tuple[str, str]]:
    """An event that fits none of the log's kinds is judged as the kind it names, so the reason
    is the field that is wrong ("'two' is not of type 'integer'"), not a list of every kind.
    ``at`` is where the value judged stands in the log (an event judged alone)."""
    if error.validator != "oneOf" or not error.context:
        yield _where((*at, *error.absolute_path)), error.message
        return
    branches: dict[Any, list[ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    named = [subs for subs in branches.values() if not any(_about_kind(sub) for sub in subs)]
    if len(named) != 1:
        kind = error.instance.get("kind") if isinstance(error.instance, dict) else None
        yield _where((*at, *error.absolute_path)), f"not an event of the log (kind {kind!r})"
        return
    for sub in named[0]:
        yield from _plain(sub, at)


def _about_kind(error: ValidationError) -> bool:
    return list(error.relative_path) == ["kind"]


def _where(path: Iterable[Any]) -> str:
    return "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in path)
