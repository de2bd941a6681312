"""The site's URLs and two trivial views: the floors ``bench_web.py`` measures pages against."""

from django.http import HttpResponse
from django.urls import include, path


def trivial(request):
    """The floor: a view that does nothing, behind the same middleware as every page."""
    return HttpResponse("ok", content_type="text/plain")


def trivial_login(request):
    """The floor of a page that needs a login: the session and the user read, nothing else."""
    if not request.user.is_authenticated:
        return HttpResponse("no", status=403, content_type="text/plain")
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [
    path("bench-trivial/", trivial, name="bench-trivial"),
    path("bench-trivial-login/", trivial_login, name="bench-trivial-login"),
    path("", include("config.urls")),
]
