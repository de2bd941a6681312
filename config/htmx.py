"""An htmx request whose session has expired goes to the login page as a whole page.

``login_required`` answers an anonymous request with a redirect to the login page. htmx would
follow that redirect inside its XHR and swap the login page into whatever fragment asked — a
form inside a table, a progress box polling every second. Instead the redirect becomes
``HX-Redirect``, which makes htmx load the login page as the page, and ``next`` points back at
the page the user was on (``HX-Current-URL``), not at the fragment's URL.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlencode, urlsplit

from django.conf import settings
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.http import HttpRequest, HttpResponse
from django.shortcuts import resolve_url
from django.utils.http import url_has_allowed_host_and_scheme


def _return_to(request: HttpRequest) -> str:
    """Where the user should land after logging in again: the page they had open, if it is
    one of ours, else the URL htmx asked for."""
    current = request.headers.get("HX-Current-URL", "")
    if current and url_has_allowed_host_and_scheme(
        current, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        parts = urlsplit(current)
        return parts.path + (f"?{parts.query}" if parts.query else "")
    return request.get_full_path()


class HtmxLoginRedirectMiddleware:
    """Turns "log in first" redirects of htmx requests into ``HX-Redirect``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.headers.get("HX-Request") != "true" or response.status_code != 302:
            return response
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            return response
        login = resolve_url(settings.LOGIN_URL)
        location = response.get("Location", "")
        if urlsplit(location).path != login:
            return response
        target = f"{login}?{urlencode({REDIRECT_FIELD_NAME: _return_to(request)})}"
        # htmx acts on HX-Redirect only in a 2xx answer; the body is never swapped in.
        redirect = HttpResponse(status=200)
        redirect["HX-Redirect"] = target
        return redirect
