"""Login throttling (django-axes): a username is locked out from an address after five failures."""

from __future__ import annotations

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.urls import reverse

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-test-password"


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user("player", password=PASSWORD)


def _login(client, password: str):
    return client.post(reverse("login"), {"username": "player", "password": password})


def test_the_settings_lock_out_after_five_failures_for_fifteen_minutes():
    assert settings.AXES_FAILURE_LIMIT == 5
    assert settings.AXES_COOLOFF_TIME * 60 == 15
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]
    assert settings.AXES_RESET_ON_SUCCESS


def test_the_sixth_bad_login_is_refused_with_a_clear_message(client, player):
    for _ in range(4):
        response = _login(client, "wrong")
        assert response.status_code == 200  # the login form again, with its error
        assert "_auth_user_id" not in client.session
    # The fifth failure reaches the limit, and from then on even the right password is refused.
    assert _login(client, "wrong").status_code == 429
    response = _login(client, "wrong")
    assert response.status_code == 429
    assert "Too many failed logins" in response.text
    assert _login(client, PASSWORD).status_code == 429
    assert "_auth_user_id" not in client.session


def test_a_lockout_is_per_username_and_address(client, player, django_user_model):
    django_user_model.objects.create_user("other", password=PASSWORD)
    for _ in range(5):
        _login(client, "wrong")
    response = client.post(reverse("login"), {"username": "other", "password": PASSWORD})
    assert response.status_code == 302
    elsewhere = client.post(
        reverse("login"), {"username": "player", "password": PASSWORD}, REMOTE_ADDR="10.0.0.9"
    )
    assert elsewhere.status_code == 302


def test_a_good_login_resets_the_count(client, player):
    for _ in range(4):
        _login(client, "wrong")
    assert AccessAttempt.objects.get(username="player").failures_since_start == 4
    assert _login(client, PASSWORD).status_code == 302
    assert not AccessAttempt.objects.filter(username="player").exists()
    client.logout()
    for _ in range(4):
        assert _login(client, "wrong").status_code == 200
    assert _login(client, PASSWORD).status_code == 302
