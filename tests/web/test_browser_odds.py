"""The odds page in a real browser, while a run narrows and once it has stopped: it says how
narrow the odds are and why it stopped, and fits a desktop window and a 390 px phone.
Screenshots go to test-artifacts/browser/ (``odds-*``)."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from unittest import mock

import pytest
from django.db import connection

from battles.models import OddsRun
from battles.odds import odds_chunk_run, odds_launch
from tests.web.browser import shoot
from tests.web.browser_world import SIZES, at_size, scroll_width

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCENARIO = Path(__file__).resolve().parents[2] / "battles/engine/scenarios/crossroads.json"


def _off_the_loop(work):
    """Run ORM ``work`` in a thread of its own: Playwright's event loop runs in this one."""
    answer = []

    def run():
        try:
            answer.append(work())
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=120)
    return answer[0]


def _launch(django_user_model) -> OddsRun:
    owner = django_user_model.objects.get(username="owner")
    scenario = json.loads(SCENARIO.read_text())
    with mock.patch("battles.odds.odds_enqueue"):
        return odds_launch(
            scenario=scenario, battles=400, precision=10, seed=5, chunk_size=20, created_by=owner
        )


def _fight(run: OddsRun, chunks) -> OddsRun:
    with mock.patch("battles.odds.odds_enqueue"):
        for index in chunks:
            odds_chunk_run(run_id=run.id, index=index)
    run.refresh_from_db()
    return run


def test_the_odds_page_shows_the_odds_narrowing_then_why_they_stopped(
    page_for,
    live_server,
    django_user_model,
):
    run = _off_the_loop(lambda: _fight(_launch(django_user_model), range(2)))
    page = page_for("owner")
    url = f"{live_server.url}/battles/odds/{run.pk}/"
    for size, viewport in SIZES.items():
        at_size(page, size)
        page.goto(url)
        text = page.inner_text("#odds-body")
        assert "Chances over 40 battles so far" in text
        assert f"So far 40 battles: every outcome within ±{run.widest:.1f} points" in text
        assert scroll_width(page) <= viewport["width"]
        shoot(page, f"odds-running-{size}", full_page=True)
    run = _off_the_loop(lambda: _fight(run, range(2, run.chunks_total)))
    assert run.stop == OddsRun.Stop.PRECISE
    for size, viewport in SIZES.items():
        at_size(page, size)
        page.goto(url)
        text = page.inner_text("#odds-body")
        assert f"Every outcome known within ±10 points after {run.battles_counted} battles." in text
        assert "so far" not in text
        assert scroll_width(page) <= viewport["width"]
        shoot(page, f"odds-stopped-{size}", full_page=True)
    assert not page.errors, page.errors
