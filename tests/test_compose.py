"""docker-compose.yml describes a runnable production shape (no Docker engine here to run it)."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest
import yaml
from django.core.management import get_commands

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]
APP_SERVICES = ("web", "worker", "migrate")


def test_it_has_the_production_services():
    assert set(SERVICES) >= {"postgres", "redis", "web", "worker", "migrate"}


def test_web_and_worker_share_one_image():
    images = {(SERVICES[name]["build"], SERVICES[name]["image"]) for name in APP_SERVICES}
    assert images == {(".", "bridgehead:latest")}
    assert (ROOT / "Dockerfile").exists()


def _module_of(command: list[str]) -> tuple[str, str | None]:
    """The Python module (and attribute) a service's command runs."""
    if command[0] == "gunicorn":
        module, _, attribute = next(arg for arg in command[1:] if ":" in arg).partition(":")
        return module, attribute
    if command[0] == "celery":
        return command[command.index("-A") + 1], "celery_app"
    if command[:2] == ["python", "manage.py"]:
        assert command[2] in get_commands(), f"no management command {command[2]!r}"
        return "manage", None
    raise AssertionError(f"unknown command {command}")


@pytest.mark.parametrize("name", APP_SERVICES)
def test_each_command_names_a_real_module(name):
    module_name, attribute = _module_of(SERVICES[name]["command"])
    module = importlib.import_module(module_name) if module_name != "manage" else None
    if attribute:
        assert callable(getattr(module, attribute, None)) or hasattr(module, attribute)


@pytest.mark.parametrize(
    ("name", "probe"),
    [
        ("postgres", "pg_isready"),
        ("redis", "redis-cli ping"),
        ("worker", "celery -A config inspect ping"),
    ],
)
def test_each_service_has_a_healthcheck(name, probe):
    command = " ".join(SERVICES[name]["healthcheck"]["test"][1:])
    assert command.startswith(probe)


@pytest.mark.parametrize("name", ["web", "worker"])
def test_app_services_wait_for_healthy_services_and_migrations(name):
    depends = SERVICES[name]["depends_on"]
    assert depends["postgres"]["condition"] == "service_healthy"
    assert depends["redis"]["condition"] == "service_healthy"
    assert depends["migrate"]["condition"] == "service_completed_successfully"


def test_env_example_documents_every_variable_the_settings_read():
    read = set()
    for path in (ROOT / "config").glob("*.py"):
        read |= set(re.findall(r'env\.\w+\(\s*"([A-Z_]+)"', path.read_text()))
    documented = set(re.findall(r"^#?\s*([A-Z_]+)=", (ROOT / ".env.example").read_text(), re.M))
    assert read, "found no settings read from the environment"
    assert read <= documented, f"undocumented: {sorted(read - documented)}"


def test_the_battle_worker_yields_the_cpu_to_pages_and_the_database():
    # docs/deploy.md, "CPU": under contention every other service comes first (the default
    # weight is 1024); the short housekeeping tasks a GM waits on keep the default.
    assert SERVICES["worker"]["cpu_shares"] < 1024
    others = [name for name in SERVICES if name != "worker"]
    assert all(SERVICES[name].get("cpu_shares", 1024) == 1024 for name in others)
