"""Strategies for bad input: garbage text, edge numbers, JSON, and values for a form's fields."""

from __future__ import annotations

import copy
import uuid
from typing import Any

from django import forms
from hypothesis import strategies as st

EDGE_TEXT = [
    "",
    " ",
    "0",
    "-1",
    "1",
    "2",
    "99",
    "1e309",
    "-1e309",
    "nan",
    "inf",
    "9" * 30,
    str(2**63),
    str(-(2**63) - 1),
    "\x00",
    "a\x00b",
    "x" * 301,
    "on",
    "true",
    "null",
    "[]",
    "{}",
    "<script>alert(1)</script>",
    "'; DROP TABLE campaign_unit; --",
    "\u202e\ufeff\U0001f4a5",
    str(uuid.UUID(int=1)),
    "not-a-uuid",
    "attack",
    "blue",
    "red",
    "average",
]

GARBAGE = st.one_of(
    st.sampled_from(EDGE_TEXT),
    st.text(max_size=40),
    st.integers(-(2**70), 2**70).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
)

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True)
    | st.text(max_size=12)
    | st.sampled_from(EDGE_TEXT),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5)
    ),
    max_leaves=25,
)


def _plausible(field: forms.Field) -> list[str]:
    """Values a real form would send for this field, and its edges."""
    values: list[str] = []
    if isinstance(field, forms.ModelChoiceField):
        values += [str(pk) for pk in field.queryset.values_list("pk", flat=True)[:10]]
        values += ["999999", "-1"]
    elif isinstance(field, forms.ChoiceField):
        values += [str(value) for value, _ in field.choices if not isinstance(_, list | tuple)]
    if isinstance(field, forms.IntegerField | forms.FloatField):
        for bound in (field.min_value, field.max_value):
            if bound is not None:
                values += [str(bound), str(bound - 1), str(bound + 1)]
        values += ["1", "3", "12.5"]
    if isinstance(field, forms.BooleanField):
        values += ["on", "", "false"]
    if isinstance(field, forms.UUIDField):
        values += [str(uuid.UUID(int=7)), str(uuid.UUID(int=8))]
    if isinstance(field, forms.CharField):
        values += [
            "Fuzzed name",
            "x" * (field.max_length or 10),
            "x" * ((field.max_length or 9) + 1),
        ]
    if field.initial is not None and not callable(field.initial):
        values.append(str(field.initial))
    return values or ["1"]


def field_value(field: forms.Field) -> st.SearchStrategy[Any]:
    """One field's value: mostly plausible, often garbage, sometimes several values."""
    one = st.sampled_from(_plausible(field)) | GARBAGE
    if isinstance(field, forms.MultipleChoiceField):
        return st.lists(one, max_size=4)
    return one | st.lists(one, min_size=2, max_size=3)


def form_data(form: forms.Form, extra: dict[str, list[str]] | None = None) -> st.SearchStrategy:
    """POST data for ``form``: any subset of its fields, with any values, plus stray keys."""
    fields = {name: field_value(field) for name, field in form.fields.items()}
    for name, values in (extra or {}).items():
        fields[name] = st.sampled_from(values) | GARBAGE
    return st.builds(
        lambda chosen, stray: {**stray, **chosen},
        st.fixed_dictionaries({}, optional=fields),
        st.dictionaries(st.sampled_from(["x", "pk", "id", "csrfmiddlewaretoken", "_"]), GARBAGE),
    )


def _paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _paths(value, (*prefix, index))
    return found


@st.composite
def mutated(draw: Any, document: Any, nest: bool = False) -> Any:
    """``document`` with up to three of its values replaced, deleted or duplicated (now and
    then none, so the accepting path is walked too); with ``nest``, also nested far deeper
    than any document needs."""
    doc = copy.deepcopy(document)
    for _ in range(draw(st.sampled_from([0, 1, 1, 1, 2, 2, 3]))):
        paths = [p for p in _paths(doc) if p]
        if not paths:
            return draw(JSON)
        path = draw(st.sampled_from(paths))
        parent = doc
        for step in path[:-1]:
            parent = parent[step]
        action = draw(st.sampled_from(["replace", "replace", "delete", "copy", "poison"]))
        if action == "replace":
            parent[path[-1]] = draw(JSON)
        elif action == "poison":
            # What the database cannot store: a NUL character, or text far over any limit.
            old = parent[path[-1]]
            text = old if isinstance(old, str) else str(old)
            parent[path[-1]] = draw(st.sampled_from([text + "\x00", "\x00", text * 60 + "x" * 300]))
        elif action == "delete":
            del parent[path[-1]]
        elif isinstance(parent, list):
            parent.append(copy.deepcopy(parent[path[-1]]))
        else:
            parent[draw(st.text(max_size=8))] = copy.deepcopy(parent[path[-1]])
    paths = [p for p in _paths(doc) if p]
    if nest and paths and draw(st.booleans()):
        # Last, as nothing here walks what it makes: one value nested far deeper than any
        # document needs (a recursive reader's RecursionError; 600 still prints).
        path = draw(st.sampled_from(paths))
        parent = doc
        for step in path[:-1]:
            parent = parent[step]
        value = parent[path[-1]]
        for _ in range(draw(st.sampled_from([20, 600]))):
            value = [value] if draw(st.booleans()) else {"d": value}
        parent[path[-1]] = value
    return doc


def base_value(form: forms.Form, name: str) -> Any:
    """What a person filling ``form`` in properly would most likely send for field ``name``."""
    field = form.fields[name]
    initial = form.initial.get(name, field.initial)
    if callable(initial):
        initial = initial()
    if isinstance(field, forms.ModelChoiceField):
        return (
            initial if initial is not None else str(field.queryset.values_list("pk", flat=True)[0])
        )
    if isinstance(field, forms.MultipleChoiceField):
        return list(initial or [])
    if isinstance(field, forms.BooleanField):
        return "on" if initial else ""
    if initial is not None:
        return str(initial)
    if isinstance(field, forms.ChoiceField):
        return next(str(v) for v, _ in field.choices if v != "")
    if isinstance(field, forms.IntegerField | forms.FloatField):
        return str(field.min_value if field.min_value is not None else 1)
    return "Fuzzed"


@st.composite
def near_valid(draw: Any, form: forms.Form, base: dict[str, Any]) -> dict[str, Any]:
    """``base`` (a POST the form accepts) with zero to three fields changed or left out."""
    data = dict(base)
    names = sorted(form.fields)
    if not names:
        return data
    for _ in range(draw(st.integers(0, 3))):
        name = draw(st.sampled_from(names))
        if draw(st.integers(0, 4)) == 0:
            data.pop(name, None)
        else:
            data[name] = draw(field_value(form.fields[name]))
    return data
