"""Production shape: deploy checks, security headers, and the health endpoint."""

from __future__ import annotations

import secrets
import subprocess
import sys
from unittest import mock

import pytest

from tests.workers import ROOT, project_env


def test_production_settings_pass_the_deploy_checks_with_no_warnings(tmp_path):
    env = project_env(
        BRIDGEHEAD_ENV="production",
        SECRET_KEY=secrets.token_urlsafe(60),
        ALLOWED_HOSTS="bridgehead.example.org",
        BRIDGEHEAD_VAR_DIR=str(tmp_path),
        DEBUG=None,
    )
    checked = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "no issues" in checked.stdout


@pytest.mark.django_db
def test_every_page_carries_a_policy_that_allows_only_the_sites_own_scripts(client):
    response = client.get("/accounts/login/")
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "unsafe-eval" not in policy
    assert "script-src 'self' 'unsafe-inline'" not in policy
    assert "frame-ancestors 'none'" in policy
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.django_db
def test_healthz_answers_ok_when_database_and_broker_answer(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"database": "ok", "broker": "ok"}


@pytest.mark.django_db
def test_healthz_says_which_part_is_down(client):
    with mock.patch("config.health.app.connection_for_write", side_effect=OSError("refused")):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"database": "ok", "broker": "error: OSError"}
