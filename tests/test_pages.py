"""The first pages answer, and serve htmx from the project, never from a CDN."""

from __future__ import annotations

import pytest
from django.contrib.staticfiles import finders


@pytest.mark.django_db
def test_home_page_answers(client):
    response = client.get("/")
    assert response.status_code == 200
    assert b"Bridgehead" in response.content


@pytest.mark.django_db
def test_it_serves_htmx_from_the_project(client):
    html = client.get("/").content.decode()
    assert '<script src="/static/django_htmx/htmx-2.min.js"' in html
    assert finders.find("django_htmx/htmx-2.min.js")
    assert "http" not in html.split("<script", 1)[1].split(">", 1)[0]


@pytest.mark.django_db
def test_login_works_with_the_demo_gm(client):
    from campaign.demo import demo_load

    (username, password), *_ = demo_load()
    response = client.post("/accounts/login/", {"username": username, "password": password})
    assert response.status_code == 302
    assert client.get("/").context["user"].username == username


@pytest.mark.django_db
def test_demo_load_is_idempotent():
    from django.contrib.auth import get_user_model

    from campaign.demo import demo_load

    demo_load()
    demo_load()
    assert get_user_model().objects.filter(username="gm").count() == 1
