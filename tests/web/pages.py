"""Helpers for comparing pages in the web tests."""

from __future__ import annotations

import re


def without_csrf(html: str) -> str:
    """The page without its CSRF tokens (each fetch carries a freshly masked one)."""
    return re.sub(r'(X-CSRFToken": "|name="csrfmiddlewaretoken" value=")[^"]+', r"\1", html)
