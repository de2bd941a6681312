"""The address the site is opened at, for the links its mails carry.

A page's request knows the address it came to; a Celery task does not. ``SITE_URL`` names it
for both: set, every mail links there; unset, a mail sent while answering a request (an e-mail
address to confirm, a password to reset) links to the address that request came to, and a mail
a task sends on its own (a campaign's notices) carries no link.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from django.conf import settings

if TYPE_CHECKING:
    from django.http import HttpRequest


def site_url_problem(value: str) -> str | None:
    """Why ``value`` cannot be the site's address (scheme and host, no path), or None."""
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "it must begin with https:// (or http://) and name the host"
    if parts.path.strip("/") or parts.query or parts.fragment or parts.username:
        return "it is the scheme and the host alone (and a port, if any), with no path"
    return None


def site_address(request: HttpRequest | None = None) -> str:
    """Where the site is opened, as "https://host": ``SITE_URL``, else the address ``request``
    came to (a host ``ALLOWED_HOSTS`` vouches for), else "" (no link can be made)."""
    if settings.SITE_URL:
        return settings.SITE_URL
    if request is not None:
        return request.build_absolute_uri("/").rstrip("/")
    return ""


def full_link(site: str, path: str) -> str:
    """The page at ``path`` (as ``reverse`` gives it) in full at ``site``; "" without a site."""
    return site.rstrip("/") + path if site else ""
