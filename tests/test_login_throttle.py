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


def test_behind_a_proxy_each_client_is_counted_by_its_own_address(client, player, settings):
    settings.TRUSTED_PROXIES = 1
    proxy = {"REMOTE_ADDR": "10.0.0.1"}
    for _ in range(5):
        client.post(reverse("login"), {"username": "player", "password": "wrong"},
                    HTTP_X_FORWARDED_FOR="203.0.113.7", **proxy)  # fmt: skip
    locked = client.post(reverse("login"), {"username": "player", "password": PASSWORD},
                         HTTP_X_FORWARDED_FOR="203.0.113.7", **proxy)  # fmt: skip
    assert locked.status_code == 429
    # The real player, at another address behind the same proxy, still logs in; what a client
    # writes into the header itself (left of what the proxy appended) changes nothing.
    elsewhere = client.post(reverse("login"), {"username": "player", "password": PASSWORD},
                            HTTP_X_FORWARDED_FOR="198.51.100.4", **proxy)  # fmt: skip
    assert elsewhere.status_code == 302
    client.logout()
    spoofed = client.post(reverse("login"), {"username": "player", "password": PASSWORD},
                          HTTP_X_FORWARDED_FOR="198.51.100.99, 203.0.113.7", **proxy)  # fmt: skip
    assert spoofed.status_code == 429


def test_without_a_proxy_the_forwarded_header_is_ignored(client, player):
    for i in range(5):
        client.post(reverse("login"), {"username": "player", "password": "wrong"},
                    HTTP_X_FORWARDED_FOR=f"192.0.2.{i}")  # fmt: skip
    dodge = client.post(reverse("login"), {"username": "player", "password": PASSWORD},
                        HTTP_X_FORWARDED_FOR="192.0.2.200")  # fmt: skip
    assert dodge.status_code == 429, "a made-up header does not dodge the lockout"
