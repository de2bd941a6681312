"""The site's own pages for a wrong method (405) and a stale form (403), where Django has none.

``require_POST``, ``require_GET`` and class-based views answer a method they do not take with a
bare ``HttpResponseNotAllowed``: a blank page. Django has no ``handler405``, so this middleware
fills such an answer with the site's error page, which says in words what to do instead. A form
whose security token has gone stale gets Django's page about CSRF cookies unless
``CSRF_FAILURE_VIEW`` names another: ``csrf_failure`` says it in words. Both lead back to the
page the form is on.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import Resolver404, resolve
from django.utils.http import url_has_allowed_host_and_scheme

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


def page_above(path: str) -> str | None:
    """The nearest address above ``path`` that the site answers: for a form's address, the
    page the form is on ("/campaigns/1/orders/new/" → "/campaigns/1/orders/"). A form-only
    address is opened as a page mostly after logging in again, when the site brings its user
    back to the form they sent; the page above is where they can send it again."""
    parts = path.rstrip("/").split("/")
    while len(parts) > 1:
        parts.pop()
        above = "/".join(parts) + "/"
        try:
            resolve(above)
        except Resolver404:
            continue
        return above
    return None


class MethodNotAllowedPageMiddleware:
    """Gives an empty 405 answer the site's error page; its status and Allow header stay."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 405 or response.streaming or response.content:
            return response
        allow = response.get("Allow", "")
        opened = request.method == "GET" and "GET" not in allow
        response.content = render_to_string(
            "405.html",
            {"what_to_do": what_to_do(allow), "page": page_above(request.path) if opened else None},
            request=request,
        )
        response["Content-Type"] = "text/html; charset=utf-8"
        return response


STALE = (
    "This form had gone stale: its page was open while you logged in or out, in this browser "
    "or another tab, or your browser refused this site's cookies. Nothing was done."
)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """The site's page for a form whose security token no longer matches the session
    (``CSRF_FAILURE_VIEW``): said in words, with the way back to the form's page. Under htmx
    the page is loaded afresh (``HX-Refresh``, which htmx follows whatever the status) and
    says so, as a fragment would have nowhere to go."""
    if getattr(request, "htmx", False):
        messages.warning(request, f"{STALE} The page is loaded afresh: send the form again.")
        response = HttpResponse(status=403)
        response["HX-Refresh"] = "true"
        return response
    return render(request, "403_csrf.html", {"stale": STALE, "back": _form_page(request)},
                  status=403)  # fmt: skip


def _form_page(request: HttpRequest) -> str | None:
    """The page the form was sent from, if the browser said and it is this site's; else the
    page above the address it was sent to."""
    referer = request.headers.get("Referer", "")
    if referer and url_has_allowed_host_and_scheme(
        referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return referer
    return page_above(request.path)
