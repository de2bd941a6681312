"""URLs of the battle pages (included under /battles/)."""

from __future__ import annotations

from django.urls import path

from battles import views

app_name = "battles"

urlpatterns = [
    path("one-off/", views.one_off_list, name="one-off-list"),
    path("odds/", views.odds_list, name="odds-list"),
    path("new/", views.battle_setup, name="setup"),
    path("<int:pk>/", views.battle_detail, name="detail"),
    path("<int:pk>/progress/", views.battle_progress, name="progress"),
    path("<int:pk>/log.json", views.battle_log_json, name="log-json"),
    path("<int:pk>/cancel/", views.battle_cancel_view, name="cancel"),
    path("odds/new/", views.odds_setup, name="odds-setup"),
    path("odds/<int:pk>/", views.odds_detail, name="odds-detail"),
    path("odds/<int:pk>/progress/", views.odds_progress, name="odds-progress"),
    path("odds/<int:pk>/cancel/", views.odds_cancel_view, name="odds-cancel"),
]
