"""A Content Security Policy for every response, and the client's address behind proxies.

Django 5.2 has no CSP of its own. Styles may be inline (SVG maps colour their units with style
attributes); scripts, frames, forms and everything else are limited to this origin.
"""

from __future__ import annotations

from django.conf import settings

POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", POLICY)
        return response


def client_ip(request) -> str | None:
    """The address a request came from, for login throttling (``AXES_CLIENT_IP_CALLABLE``).

    Behind ``TRUSTED_PROXIES`` proxies, each appending the address it saw to X-Forwarded-For,
    the client is the entry that many places from the right: entries further left were sent
    by the client itself and could be anything. With no proxy the header is ignored, so that
    a client cannot dodge a lockout by making one up.
    """
    proxies = settings.TRUSTED_PROXIES
    forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    if proxies and len(forwarded) >= proxies and forwarded[-proxies]:
        return forwarded[-proxies]
    return request.META.get("REMOTE_ADDR")
