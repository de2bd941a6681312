"""Helpers for comparing pages in the web tests."""

from __future__ import annotations

import re


def without_tokens(html: str) -> str:
    """The page without its CSRF tokens (each fetch carries a freshly masked one) and its forms'
    one-time keys (each fetch carries fresh ones)."""
    tokens = r'(X-CSRFToken": "|name="csrfmiddlewaretoken" value="|name="request_key" value=")'
    return re.sub(tokens + r'[^"]+', r"\1", html)
