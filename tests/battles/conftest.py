"""Fixtures for battle tests: a small real scenario."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

SCENARIOS = Path(__file__).resolve().parents[2] / "battles" / "engine" / "scenarios"


@pytest.fixture
def scenario() -> dict:
    return json.loads((SCENARIOS / "crossroads.json").read_text())
