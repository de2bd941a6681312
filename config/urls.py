"""Bridgehead's URLs."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from django.views.generic import TemplateView

from config.health import healthz

urlpatterns = [
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("battles/", include("battles.urls")),
    path("campaigns/", include("campaign.urls")),
    path("library/", include("units.urls")),
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
]
