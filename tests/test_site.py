"""The site's address (``SITE_URL``), for the links mails carry: checked when the process
starts, and named by ``manage.py serve`` for its worker."""

from __future__ import annotations

import pytest
from django.test import RequestFactory, override_settings

from campaign.management.commands.serve import site_url
from config.site import full_link, site_address, site_url_problem
from tests.workers import project_env, run_python


@pytest.mark.parametrize(
    "value",
    ["https://bridgehead.example.org", "http://127.0.0.1:8000", "https://[::1]:8443"],
)
def test_a_scheme_and_a_host_are_the_sites_address(value):
    assert site_url_problem(value) is None


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("bridgehead.example.org", "must begin with https://"),
        ("ftp://bridgehead.example.org", "must begin with https://"),
        ("https://", "must begin with https://"),
        ("https://example.org/bridgehead", "no path"),
        ("https://example.org/?a=1", "no path"),
        ("https://someone@example.org", "no path"),
    ],
)
def test_anything_else_is_refused_saying_why(value, problem):
    assert problem in site_url_problem(value)


def test_start_up_refuses_a_site_url_that_is_no_address(tmp_path):
    env = project_env(SITE_URL="example.org/bridgehead", BRIDGEHEAD_VAR_DIR=str(tmp_path))
    started = run_python("print('started')", env)
    assert started.returncode != 0 and "started" not in started.stdout
    assert "SITE_URL 'example.org/bridgehead' is not the site's address" in started.stderr


def test_start_up_keeps_the_address_without_its_last_slash(tmp_path):
    env = project_env(SITE_URL=" https://example.org/ ", BRIDGEHEAD_VAR_DIR=str(tmp_path))
    started = run_python("from django.conf import settings; print(settings.SITE_URL)", env)
    assert started.returncode == 0, started.stderr
    assert started.stdout.strip() == "https://example.org"


def test_the_setting_comes_first_then_the_request_then_no_link():
    request = RequestFactory().get("/accounts/")
    with override_settings(SITE_URL=""):
        assert site_address(request) == "http://testserver"
        assert site_address() == ""
        assert full_link(site_address(), "/campaigns/1/") == ""
    with override_settings(SITE_URL="https://example.org"):
        assert site_address(request) == site_address() == "https://example.org"
        assert full_link(site_address(), "/campaigns/1/") == "https://example.org/campaigns/1/"


@pytest.mark.parametrize(
    ("addrport", "url"),
    [
        ("127.0.0.1:8000", "http://127.0.0.1:8000"),
        ("8765", "http://127.0.0.1:8765"),
        ("localhost:8000", "http://localhost:8000"),
        ("[::1]:8000", "http://[::1]:8000"),
        ("0.0.0.0:8000", ""),
        ("0:8000", ""),
        ("[::]:8000", ""),
    ],
)
def test_serve_names_the_address_it_serves_at_unless_it_is_every_interface(addrport, url):
    assert site_url(addrport) == url
