"""Structured logs: key=value lines, and the battle id on every line written for a battle."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from battles.services import battle_launch, battle_resolve
from config.logging import ContextFilter, KeyValueFormatter, log_context


class _Capture(logging.Handler):
    """A handler wired like the console one in settings.LOGGING: the context filter on it."""

    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.addFilter(ContextFilter())
        self.setFormatter(KeyValueFormatter())
        self.records: list[logging.LogRecord] = []
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
        self.lines.append(self.format(record))


@pytest.fixture
def scenario() -> dict:
    path = Path(__file__).resolve().parent.parent / "battles/engine/scenarios/crossroads.json"
    return json.loads(path.read_text())


@pytest.fixture
def captured():
    handler = _Capture()
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield handler
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)


def _parse(line: str) -> dict[str, str]:
    """Read back a key=value line (quoted values may hold spaces and escaped quotes)."""
    fields, i = {}, 0
    while i < len(line):
        key_end = line.index("=", i)
        key = line[i:key_end]
        i = key_end + 1
        if line[i] == '"':
            i += 1
            value = []
            while line[i] != '"':
                if line[i] == "\\":
                    i += 1
                    value.append({"n": "\n", "t": "\t"}.get(line[i], line[i]))
                else:
                    value.append(line[i])
                i += 1
            i += 2
            fields[key] = "".join(value)
        else:
            end = line.find(" ", i)
            end = len(line) if end == -1 else end
            fields[key] = line[i:end]
            i = end + 1
    return fields


def test_settings_use_the_key_value_formatter_and_context_filter():
    from django.conf import settings

    console = settings.LOGGING["handlers"]["console"]
    assert settings.LOGGING["formatters"][console["formatter"]]["()"].endswith("KeyValueFormatter")
    assert [settings.LOGGING["filters"][f]["()"] for f in console["filters"]] == [
        "config.logging.ContextFilter",
        "config.logging.RefusalFilter",
    ]


def test_a_line_is_one_record_of_key_value_pairs(captured):
    logger = logging.getLogger("bridgehead.test")
    try:
        raise ValueError('bad "thing"\nsecond line')
    except ValueError:
        logger.exception("it broke = %s", "badly", extra={"user": "alice smith"})
    (line,) = captured.lines
    assert "\n" not in line
    fields = _parse(line)
    assert fields["level"] == "ERROR"
    assert fields["logger"] == "bridgehead.test"
    assert fields["msg"] == "it broke = badly"
    assert fields["user"] == "alice smith"
    assert 'ValueError: bad "thing"\nsecond line' in fields["exc"]
    assert fields["ts"].endswith("Z")
    assert "battle_id" not in fields


def test_the_context_adds_ids_and_is_gone_after_the_block(captured):
    logger = logging.getLogger("bridgehead.test")
    with log_context(battle_id=12):
        logger.info("inside")
        with log_context(odds_run_id=3):
            logger.info("nested")
    logger.info("outside")
    inside, nested, outside = (_parse(line) for line in captured.lines)
    assert inside["battle_id"] == "12"
    assert (nested["battle_id"], nested["odds_run_id"]) == ("12", "3")
    assert "battle_id" not in outside


@pytest.mark.django_db
def test_every_line_written_while_resolving_a_battle_carries_its_id(scenario, captured):
    battle = battle_launch(name="Logged", scenario=scenario, seed=5)
    captured.records.clear()
    captured.lines.clear()
    battle_resolve(battle_id=battle.id)
    assert captured.records, "resolving a battle should log what it did"
    assert all(record.battle_id == battle.id for record in captured.records)
    messages = [_parse(line)["msg"] for line in captured.lines]
    assert any(m.startswith(f"battle {battle.id} claimed") for m in messages)
    assert any(m.startswith(f"battle {battle.id} done") for m in messages)
    assert all(_parse(line)["battle_id"] == str(battle.id) for line in captured.lines)


@pytest.mark.django_db
def test_the_task_signals_put_the_battle_id_on_celery_lines(scenario, captured):
    """Celery's task_prerun/postrun set the id for the whole task, its own lines included."""
    from celery import signals

    from battles.tasks import resolve_battle

    battle = battle_launch(name="Signalled", scenario=scenario, seed=6)

    def during(**kwargs):
        logging.getLogger("celery.app.trace").info("task body for %s", kwargs["args"])

    signals.task_prerun.connect(during, weak=False)
    try:
        # The signals fire around apply() as around a worker's run of the task.
        resolve_battle.apply(args=[battle.id])
    finally:
        signals.task_prerun.disconnect(during)
    seen = [r for r in captured.records if r.name == "celery.app.trace"]
    assert seen and all(getattr(r, "battle_id", None) == battle.id for r in seen)
    logging.getLogger("bridgehead.test").info("after the task")
    assert not hasattr(captured.records[-1], "battle_id")


def test_a_refused_request_is_one_line_without_a_traceback(client, captured, django_user_model):
    from django.urls import reverse

    from campaign.services import campaign_create, membership_set
    from config.logging import RefusalFilter

    gm, player = (django_user_model.objects.create_user(name) for name in ("gm", "player"))
    campaign = campaign_create(name="Op. Logs", gm=gm, ruleset="combined_arms")
    membership_set(campaign=campaign, user=player, role="player")
    client.force_login(player)
    url = reverse("campaign:advance", args=[campaign.pk])
    # The console handler settings.LOGGING made, and its refusal filter.
    ((console, refusals),) = [
        (h, f)
        for h in logging.getLogger().handlers
        for f in h.filters
        if isinstance(f, RefusalFilter)
    ]

    console.removeFilter(refusals)
    try:
        assert client.post(url, {"days": "1"}).status_code == 403
    finally:
        console.addFilter(refusals)
    assert client.post(url, {"days": "1"}).status_code == 403

    without, with_filter = [r for r in captured.records if r.name == "django.request"]
    assert without.exc_info  # Django attaches the PermissionDenied and its traceback
    line = _parse(captured.lines[captured.records.index(with_filter)])
    assert line["status_code"] == "403" and line["msg"].startswith("Forbidden")
    assert "exc" not in line


def test_a_server_error_keeps_its_traceback(captured):
    try:
        raise RuntimeError("the database went away")
    except RuntimeError:
        record = logging.getLogger("django.request").makeRecord(
            "django.request",
            logging.ERROR,
            __file__,
            1,
            "Internal Server Error",
            (),
            __import__("sys").exc_info(),
            extra={"status_code": 500},
        )
    from config.logging import RefusalFilter

    assert RefusalFilter().filter(record)
    assert "the database went away" in _parse(KeyValueFormatter().format(record))["exc"]
