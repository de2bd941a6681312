"""The deploy shape that survives the internet: a buffering proxy in front of gunicorn, which is
not published; the proxy header trusted only when a proxy is declared; bounded request bodies;
login throttling per address; password reset only with mail; the demo never in production."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from django.conf import settings
from django.urls import reverse

from tests.workers import ROOT, project_env, run_python

COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]
NGINX = (ROOT / "deploy" / "nginx.conf").read_text()


def _production(**more: str | None) -> dict[str, str]:
    return project_env(
        BRIDGEHEAD_ENV="production",
        SECRET_KEY=secrets.token_urlsafe(60),
        ALLOWED_HOSTS="bridgehead.example.org",
        DEBUG=None,
        **more,
    )


def test_only_the_buffering_proxy_is_published_and_gunicorn_is_not():
    published = {name for name, service in SERVICES.items() if service.get("ports")}
    assert published == {"proxy"}
    assert SERVICES["proxy"]["ports"] == ["8000:8080"]
    assert "./deploy/nginx.conf:/etc/nginx/nginx.conf:ro" in SERVICES["proxy"]["volumes"]
    assert SERVICES["web"]["expose"] == ["8000"]
    assert SERVICES["web"]["environment"]["TRUSTED_PROXIES"] == "1"
    assert "server web:8000;" in NGINX and "listen 8080;" in NGINX


GUNICORN_COMMAND = ["gunicorn", "-c", "config/gunicorn.py", "config.wsgi:application"]


def _gunicorn_settings(*options: str, **env: str | None) -> dict[str, str]:
    """What gunicorn makes of config/gunicorn.py (and ``options`` after it), as it prints it."""
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    printed = subprocess.run(
        [gunicorn, *GUNICORN_COMMAND[1:3], *options, "--print-config", GUNICORN_COMMAND[3]],
        cwd=ROOT, env=project_env(**env), capture_output=True, text=True, timeout=60, check=True,
    ).stdout  # fmt: skip
    return dict(re.findall(r"^(\w+) += (.*)$", printed, re.MULTILINE))


def test_the_web_service_and_the_image_run_gunicorn_from_its_configuration():
    assert SERVICES["web"]["command"] == GUNICORN_COMMAND
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert 'CMD ["gunicorn", "-c", "config/gunicorn.py", "config.wsgi:application"]' in dockerfile


def test_gunicorn_runs_four_sync_workers_per_core_unless_told():
    settings_ = _gunicorn_settings(WEB_CONCURRENCY=None)
    assert settings_["workers"] == str(4 * len(os.sched_getaffinity(0)))
    assert settings_["worker_class"] == "sync" and settings_["preload_app"] == "True"
    assert (settings_["bind"], settings_["timeout"], settings_["graceful_timeout"]) == (
        "['0.0.0.0:8000']", "30", "20",
    )  # fmt: skip
    assert _gunicorn_settings(WEB_CONCURRENCY="7")["workers"] == "7"
    # The command line wins over the file: the soak binds a port of its own.
    told = _gunicorn_settings("--bind", "127.0.0.1:8123", "--workers", "2")
    assert (told["bind"], told["workers"]) == ("['127.0.0.1:8123']", "2")


def test_the_proxy_reads_requests_whole_and_drops_slow_clients():
    for line in (
        "proxy_request_buffering on;",
        "proxy_buffering on;",
        "client_header_timeout 10s;",
        "client_body_timeout 10s;",
        "client_max_body_size 1m;",
        "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
    ):
        assert line in NGINX, line


def test_sweeps_have_a_worker_of_their_own():
    worker = SERVICES["worker"]["command"]
    housekeeping = SERVICES["housekeeping"]["command"]
    assert worker[worker.index("--queues") + 1] == "battles,odds" and "--beat" not in worker
    assert housekeeping[housekeeping.index("--queues") + 1] == "housekeeping,celery"
    assert "--beat" in housekeeping


@pytest.mark.parametrize(("proxies", "trusted"), [("0", False), ("1", True)])
def test_x_forwarded_proto_is_trusted_only_behind_a_declared_proxy(tmp_path, proxies, trusted):
    ran = run_python(
        "from django.conf import settings\n"
        "print(getattr(settings, 'SECURE_PROXY_SSL_HEADER', None))",
        _production(TRUSTED_PROXIES=proxies, BRIDGEHEAD_VAR_DIR=str(tmp_path)),
    )
    assert ran.returncode == 0, ran.stderr
    said = ran.stdout.strip().splitlines()[-1]
    assert (said == "('HTTP_X_FORWARDED_PROTO', 'https')") is trusted, said


@pytest.mark.django_db
def test_a_body_over_the_limit_multipart_included_is_refused_unread(client):
    from django.test.client import encode_multipart

    big = encode_multipart(
        "BoUnDaRy", {"username": "x", "note": "y" * (settings.REQUEST_BODY_LIMIT)}
    )
    response = client.post(
        reverse("login"), data=big, content_type="multipart/form-data; boundary=BoUnDaRy"
    )
    assert response.status_code == 413
    page = response.content.decode()
    assert "What this page sent is 1.1 MB; a page here takes at most 1 MB." in page
    assert 'class="site-header"' in page and "bytes" not in page
    assert client.post(reverse("login"), {"username": "x", "password": "y"}).status_code == 200


@pytest.mark.django_db
def test_only_the_campaign_import_takes_a_body_over_a_megabyte(client):
    from config.security import FORM_ROOM

    between = str(settings.REQUEST_BODY_LIMIT + 1)
    over = str(settings.IMPORT_FILE_LIMIT + FORM_ROOM + 1)
    # The declared length is what counts: nothing is read before the refusal.
    refused = client.post(reverse("login"), data=b"", content_type="text/plain",
                          CONTENT_LENGTH=between)  # fmt: skip
    assert refused.status_code == 413 and "at most 1 MB" in refused.text
    taken = client.post(reverse("campaign:import"), data=b"", content_type="text/plain",
                        CONTENT_LENGTH=between)  # fmt: skip
    assert taken.status_code != 413
    too_large = client.post(reverse("campaign:import"), data=b"", content_type="text/plain",
                            CONTENT_LENGTH=over)  # fmt: skip
    assert too_large.status_code == 413
    assert "This file is 20.2 MB; a campaign import takes at most 20 MB." in too_large.text


def test_sizes_are_said_in_megabytes_never_rounded_down_to_the_limit():
    from config.security import megabytes

    assert megabytes(20_000_000) == "20 MB" and megabytes(1_000_000) == "1 MB"
    assert megabytes(1_400_000, up=True) == "1.4 MB"
    assert megabytes(1_000_001, up=True) == "1.1 MB" and megabytes(1_099_999) == "1 MB"


def test_the_proxy_lets_a_campaign_import_through_to_the_sites_own_refusal():
    from config.security import FORM_ROOM

    location = re.search(r"location = (\S+) \{([^}]*)\}", NGINX)
    assert location and location[1] == reverse("campaign:import")
    size = re.search(r"client_max_body_size (\d+)m;", location[2])
    assert size and int(size[1]) * 1024 * 1024 > settings.IMPORT_FILE_LIMIT + FORM_ROOM
    assert "proxy_pass http://bridgehead;" in location[2]


@pytest.mark.django_db
def test_spraying_many_usernames_from_one_address_is_locked_out(client, django_user_model):
    """Each username fails only once, so no per-username lockout trips; the address does."""
    django_user_model.objects.create_user("real", password="a-long-test-password")
    for i in range(settings.LOGIN_ADDRESS_FAILURE_LIMIT):
        sprayed = client.post(reverse("login"), {"username": f"guess{i}", "password": "no"})
        assert sprayed.status_code == 200, i
    right = {"username": "real", "password": "a-long-test-password"}
    refused = client.post(reverse("login"), right)
    assert refused.status_code == 429 and "Too many failed logins" in refused.text
    elsewhere = client.post(reverse("login"), right, REMOTE_ADDR="10.0.0.9")
    assert elsewhere.status_code == 302


@pytest.mark.django_db
def test_password_reset_is_not_routed_without_mail(client):
    assert client.get("/accounts/password_reset/").status_code == 404
    assert client.get("/accounts/login/").status_code == 200


def test_password_reset_is_routed_when_mail_is_configured(tmp_path):
    ran = run_python(
        "from django.urls import resolve\nprint(resolve('/accounts/password_reset/').url_name)",
        project_env(EMAIL_HOST="smtp.example.org", BRIDGEHEAD_VAR_DIR=str(tmp_path)),
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip().splitlines()[-1] == "password_reset"


def test_the_demo_refuses_to_run_in_production(tmp_path):
    ran = run_python(
        "from django.core.management import call_command\n"
        "from django.core.management.base import CommandError\n"
        "try:\n    call_command('demo')\nexcept CommandError as exc:\n    print('refused:', exc)\n",
        _production(BRIDGEHEAD_VAR_DIR=str(tmp_path), DATABASE_URL=f"sqlite:///{tmp_path}/x.db"),
    )
    assert ran.returncode == 0, ran.stderr
    assert "refused: The demo creates an admin with a published password" in ran.stdout
