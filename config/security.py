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


FORM_ROOM = 100_000
"""What an import's body holds besides its file: the form's boundaries and CSRF token."""


def megabytes(size: int, *, up: bool = False) -> str:
    """A size in words, to a tenth of a megabyte: ``1_400_000`` → ``"1.4 MB"``, ``20_000_000``
    → ``"20 MB"``. A size sent is rounded ``up`` (1,000,001 bytes is over 1 MB, so never
    said as "1 MB"); a limit, down."""
    tenths = -(-size // 100_000) if up else size // 100_000
    return f"{tenths / 10:g} MB"


def _importing(request) -> bool:
    from django.urls import reverse

    return request.path == reverse("campaign:import")


def body_limit(request) -> int:
    """The largest body ``request`` may send: a campaign import's file (``IMPORT_FILE_LIMIT``)
    and the form around it, else ``REQUEST_BODY_LIMIT``."""
    if _importing(request):
        return settings.IMPORT_FILE_LIMIT + FORM_ROOM
    return settings.REQUEST_BODY_LIMIT


class RequestBodyLimitMiddleware:
    """Refuse a request whose declared body is over its limit (`body_limit`) with 413, unread.

    Django's own limit leaves out multipart files, which it streams to disk: a 25 MB upload was
    read in full before any view could refuse it. So every body counts, files included: 1 MB
    (``REQUEST_BODY_LIMIT``) for every page but the campaign import, whose export file carries
    its battles' logs and replays (``IMPORT_FILE_LIMIT``, 20 MB). The refusal is the site's
    error page, saying in megabytes what was sent and what the page takes.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        # Only a body over the smaller limit asks which page it is for.
        if length > settings.REQUEST_BODY_LIMIT and length > body_limit(request):
            return too_large(request, length)
        return self.get_response(request)


def too_large(request, length: int):
    """The 413 page, in words. It is drawn before any other middleware and without reading the
    body: the session's user is looked up from its cookie alone, so the header still says who
    is logged in."""
    from django.contrib.auth import get_user
    from django.http import HttpResponse
    from django.template.loader import render_to_string
    from django.utils.functional import SimpleLazyObject
    from django.utils.module_loading import import_string

    store = import_string(f"{settings.SESSION_ENGINE}.SessionStore")
    request.session = store(request.COOKIES.get(settings.SESSION_COOKIE_NAME))
    request.user = SimpleLazyObject(lambda: get_user(request))
    importing = _importing(request)
    context = {
        "importing": importing,
        "sent": megabytes(length, up=True),
        "limit": megabytes(settings.IMPORT_FILE_LIMIT if importing else body_limit(request)),
    }
    return HttpResponse(render_to_string("413.html", context, request=request), status=413)


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


class AddressThrottleBackend:
    """Login throttling per address, beside django-axes' per username and address.

    Spraying many usernames from one address never trips a per-username lockout, so failed
    logins are also added up per address (axes keeps them, one row per username and address):
    at ``LOGIN_ADDRESS_FAILURE_LIMIT`` within the lockout time the address may not log in at
    all until they expire. Higher than the per-username limit, so a club's shared address
    survives a few typos. First among the backends: it refuses before any password is checked.
    """

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        from datetime import timedelta

        from axes.models import AccessAttempt
        from django.core.exceptions import PermissionDenied
        from django.db.models import Sum
        from django.utils import timezone

        since = timezone.now() - timedelta(minutes=settings.LOGIN_LOCKOUT_MINUTES)
        failures = AccessAttempt.objects.filter(
            ip_address=client_ip(request), attempt_time__gte=since
        ).aggregate(total=Sum("failures_since_start"))["total"]
        if (failures or 0) >= settings.LOGIN_ADDRESS_FAILURE_LIMIT:
            request.axes_locked_out = True  # AxesMiddleware answers with its lockout page
            raise PermissionDenied("too many failed logins from this address")
        # No get_user: a session is never this backend's (Django's force_login and login pick
        # the first backend that has one).
        return None
