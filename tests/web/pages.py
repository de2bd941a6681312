"""Helpers for comparing pages in the web tests."""

from __future__ import annotations

import html
import re


def without_tokens(html: str) -> str:
    """The page without its CSRF tokens (each fetch carries a freshly masked one) and its forms'
    one-time keys (each fetch carries fresh ones)."""
    tokens = r'(X-CSRFToken": "|name="csrfmiddlewaretoken" value="|name="request_key" value=")'
    return re.sub(tokens + r'[^"]+', r"\1", html)


def as_drawn(page: str) -> str:
    """What a correction form's page showed of the thing it corrects, as the form carries it
    back hidden (``drawn``, `forms.ChangedOnTheForm`); empty if the form carries none."""
    found = re.search(r'name="drawn" value="([^"]*)"', page)
    return html.unescape(found[1]) if found else ""
