"""Pages kept as rendered HTML, under a key made of everything they are drawn from.

Reading pages are read far more often than what they show changes (a player checks the roster
between sessions; a finished battle's report never changes), and drawing a page of a hundred
rows costs tens of milliseconds. So the view names what its page is drawn from — the rows'
contents or version tokens, the viewer, the query — and the page is drawn once per such key.
Nothing is ever invalidated: a change to anything the page shows changes its key, and the old
entry ages out (``PAGE_CACHE_SECONDS``).

Each entry belongs to one user (their name and role show on the page), and is kept with a
placeholder where the CSRF token goes, which is filled in on every fetch with the token of the
request's own CSRF cookie; so is each form's one-time key, filled with a fresh key per form and
fetch (a key two fetches shared would make the second page's action the first's). A request
with messages waiting is drawn afresh, so they show once.
"""

from __future__ import annotations

import hashlib
import logging
import re
import uuid
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.db import models
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token

logger = logging.getLogger(__name__)

T = TypeVar("T")

CSRF_PLACEHOLDER = "csrf-token-placeholder-0d5c1f"
"""Stands in for the CSRF token in a kept page (a token is letters and digits only)."""

ONCE_KEY = re.compile(rb'name="request_key" value="[0-9a-f-]{36}"')
"""A form's one-time key as the page carries it (`battles.forms.LaunchKeyField`)."""
ONCE_PLACEHOLDER = b'name="request_key" value="once-key-placeholder"'


def row_key(row: models.Model, *, skip: Iterable[str] = ()) -> tuple:
    """A row's own values, for a page key: any saved change to the row changes it."""
    skipped = set(skip)
    return (row._meta.label, *(
        getattr(row, f.attname) for f in row._meta.concrete_fields if f.attname not in skipped
    ))  # fmt: skip


def cached_page(
    request: HttpRequest, parts: tuple[Any, ...], draw: Callable[[dict[str, Any]], HttpResponse]
) -> HttpResponse:
    """The page ``draw`` makes, drawn once per ``parts`` (and viewer, path and query).

    ``draw`` gets extra context to render with (the CSRF placeholder); only a 200 is kept.
    """
    seconds = settings.PAGE_CACHE_SECONDS
    if not seconds or len(get_messages(request)):
        return draw({})
    key = _key(request, parts)
    body = _get(key)
    if body is None:
        response = draw({"csrf_token": CSRF_PLACEHOLDER})
        if response.status_code != 200 or response.streaming:
            return _fill(response, request)
        body = ONCE_KEY.sub(ONCE_PLACEHOLDER, response.content)
        _set(key, body, seconds)
    return _fill(HttpResponse(body), request)


def kept_value(name: str, parts: tuple[Any, ...], build: Callable[[], T]) -> T:
    """What ``build()`` makes, made once per ``parts`` and kept as the pages are: for a costly
    part of a page that is drawn on every visit (the rest of it is the viewer's own). As for a
    page, ``parts`` must name everything the value is built from."""
    seconds = settings.PAGE_CACHE_SECONDS
    if not seconds:
        return build()
    key = f"{name}:" + hashlib.sha256(repr(parts).encode()).hexdigest()
    value = _get(key)
    if value is None:
        value = build()
        _set(key, value, seconds)
    return value


def _get(key: str) -> Any:
    try:
        return cache.get(key)
    except Exception:  # a cache that is down only makes pages slower
        logger.warning("page cache unreachable: drawing the page afresh", exc_info=True)
        return None


def _set(key: str, body: Any, seconds: int) -> None:
    try:
        cache.set(key, body, seconds)
    except Exception:  # as above
        logger.warning("page cache unreachable: page not kept", exc_info=True)


def _key(request: HttpRequest, parts: tuple[Any, ...]) -> str:
    user = request.user
    whole = (
        user.pk,
        user.get_username(),
        request.get_full_path(),
        bool(getattr(request, "htmx", False)),
        parts,
    )
    return "page:" + hashlib.sha256(repr(whole).encode()).hexdigest()


def _fill(response: HttpResponse, request: HttpRequest) -> HttpResponse:
    token = get_token(request)  # also makes sure the CSRF cookie goes out with the page
    body = response.content.replace(CSRF_PLACEHOLDER.encode(), token.encode())
    response.content = re.sub(re.escape(ONCE_PLACEHOLDER), _fresh_key, body)
    return response


def _fresh_key(_: re.Match[bytes]) -> bytes:
    return f'name="request_key" value="{uuid.uuid4()}"'.encode()
