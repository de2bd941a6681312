"""The site's own page for a 405: Django answers a wrong method with an empty response.

``require_POST``, ``require_GET`` and class-based views answer a method they do not take with a
bare ``HttpResponseNotAllowed``: a blank page. Django has no ``handler405``, so this middleware
fills such an answer with the site's error page, which says in words what the address takes.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

# What each method means to someone using the site (HEAD and OPTIONS go without saying).
METHOD_WORDS = {
    "GET": "opened (GET)",
    "POST": "sent a form (POST)",
    "PUT": "replaced (PUT)",
    "PATCH": "changed (PATCH)",
    "DELETE": "deleted (DELETE)",
}


def allowed_in_words(allow: str) -> str:
    """``"GET, HEAD"`` → ``"opened (GET)"``; ``"GET, POST"`` → ``"opened (GET) or sent a form
    (POST)"``."""
    methods = [m.strip().upper() for m in allow.split(",") if m.strip()]
    words = [METHOD_WORDS.get(m, m) for m in methods if m not in {"HEAD", "OPTIONS"}]
    if not words:
        return "used in no other way"
    return ", ".join(words[:-1]) + (" or " if len(words) > 1 else "") + words[-1]


class MethodNotAllowedPageMiddleware:
    """Gives an empty 405 answer the site's error page; its status and Allow header stay."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 405 or response.streaming or response.content:
            return response
        response.content = render_to_string(
            "405.html",
            {
                "method": request.method,
                "allowed": allowed_in_words(response.get("Allow", "")),
            },
            request=request,
        )
        response["Content-Type"] = "text/html; charset=utf-8"
        return response
