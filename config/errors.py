"""The site's own page for a 405: Django answers a wrong method with an empty response.

``require_POST``, ``require_GET`` and class-based views answer a method they do not take with a
bare ``HttpResponseNotAllowed``: a blank page. Django has no ``handler405``, so this middleware
fills such an answer with the site's error page, which says in words what to do instead.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

# What to do instead, by what the address takes (HEAD and OPTIONS go without saying): said as
# someone using the site meets it, by its pages, forms and buttons, never by HTTP's methods.
WHAT_TO_DO = {
    frozenset({"POST"}): (
        "This address takes a form sent from its page; open the page and use its button instead."
    ),
    frozenset({"GET"}): (
        "This address is a page to open, not one a form is sent to; open it and use the "
        "buttons on it instead."
    ),
    frozenset({"GET", "POST"}): (
        "This address is a page to open, and takes only the forms sent from it; open it and "
        "use its buttons instead."
    ),
}
ELSE = "This address cannot be used this way; go back to the page you came from."


def what_to_do(allow: str) -> str:
    """What a person sent the wrong way to an address should do instead, in words, from the
    answer's ``Allow`` header (``"GET, HEAD"``, ``"POST"``)."""
    methods = {m.strip().upper() for m in allow.split(",") if m.strip()}
    return WHAT_TO_DO.get(frozenset(methods - {"HEAD", "OPTIONS"}), ELSE)


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
            {"what_to_do": what_to_do(response.get("Allow", ""))},
            request=request,
        )
        response["Content-Type"] = "text/html; charset=utf-8"
        return response
