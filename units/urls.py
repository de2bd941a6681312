"""URLs of the card library and the rules documents (included under /library/)."""

from __future__ import annotations

from django.urls import path

from units import views

app_name = "library"

urlpatterns = [
    path("", views.library_list, name="list"),
    path("load/", views.library_load_view, name="load"),
    path("cards/<int:pk>/", views.library_card, name="card"),
    path("docs/<slug:slug>/", views.document, name="document"),
]
