"""One way to queue work: battles and odds runs share one queued-work base, and a launch with a
request key makes one row and one enqueue however often (or however simultaneously) it is sent."""

from __future__ import annotations

import threading
import uuid
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction

from battles.models import Battle, OddsRun, QueuedWork
from battles.odds import odds_launch
from battles.services import BattleInputError, battle_launch


@pytest.fixture
def user():
    return get_user_model().objects.create_user("twice", password="x")


def _launch_battle(scenario, user, key):
    return battle_launch(name="Once", scenario=scenario, created_by=user, request_key=key)


def _launch_odds(scenario, user, key):
    return odds_launch(
        scenario=scenario, battles=20, chunk_size=10, created_by=user, request_key=key
    )


LAUNCHES = {
    "battle": (_launch_battle, Battle, "battles.services.battle_enqueue"),
    "odds run": (_launch_odds, OddsRun, "battles.odds.odds_enqueue"),
}


def test_battles_and_odds_runs_are_one_kind_of_queued_work():
    shared = {f.name for f in QueuedWork._meta.get_fields()}
    assert {"status", "heartbeat_at", "cost", "request_key", "enqueue_error", "result"} <= shared
    for model in (Battle, OddsRun):
        assert issubclass(model, QueuedWork)
        fields = {f.name for f in model._meta.get_fields()}
        assert shared <= fields
        assert model._meta.get_field("request_key").unique


@pytest.mark.django_db
@pytest.mark.parametrize("kind", LAUNCHES)
def test_a_request_key_makes_one_row_and_is_its_owner_s_alone(kind, scenario, user):
    launch, model, enqueue = LAUNCHES[kind]
    key = uuid.uuid4()
    with mock.patch(enqueue):
        first = launch(scenario, user, key)
        other = get_user_model().objects.create_user("another", password="x")
        with pytest.raises(BattleInputError, match="damaged"):
            launch(scenario, other, key)  # a key copied from someone else's form
    assert list(model.objects.values_list("pk", flat=True)) == [first.pk]
    row = model.objects.filter(pk=first.pk).values().get()
    row.pop("id")
    with pytest.raises(IntegrityError), transaction.atomic():
        model.objects.create(**row)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("owned", [True, False], ids=["by a user", "by nobody"])
@pytest.mark.parametrize("kind", LAUNCHES)
def test_a_launch_sent_twice_with_one_key_makes_one_row_and_one_enqueue(
    kind, owned, scenario, user
):
    launch, model, enqueue = LAUNCHES[kind]
    user = user if owned else None
    key = uuid.uuid4()
    with mock.patch(enqueue) as sent:
        first = launch(scenario, user, key)
        again = launch(scenario, user, key)
        fresh = launch(scenario, user, uuid.uuid4())
    assert first.pk == again.pk != fresh.pk
    assert model.objects.count() == 2
    assert [c.args for c in sent.call_args_list] == [(first.pk,), (fresh.pk,)]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("owned", [True, False], ids=["by a user", "by nobody"])
@pytest.mark.parametrize("kind", LAUNCHES)
def test_two_launches_with_one_key_at_the_same_moment_make_one_row_and_one_enqueue(
    kind, owned, scenario, user
):
    """Both get past the look-up before either has inserted: the unique key decides. SQLite
    (as configured: `config.env.SQLITE_OPTIONS`) gives its write lock as a transaction begins,
    so there the second waits at its start and finds the first one's row."""
    launch, model, enqueue = LAUNCHES[kind]
    user = user if owned else None
    key = uuid.uuid4()
    both_looked = threading.Barrier(1 if connection.vendor == "sqlite" else 2, timeout=10)
    real_create = model.objects.create
    answers: list[int] = []
    errors: list[BaseException] = []

    def create_after_both_looked(**fields):
        both_looked.wait()
        return real_create(**fields)

    def submit():
        try:
            answers.append(launch(scenario, user, key).pk)
        except BaseException as exc:  # reported by the assertion below
            errors.append(exc)
        finally:
            connection.close()

    with (
        mock.patch(enqueue) as sent,
        mock.patch.object(model.objects, "create", side_effect=create_after_both_looked),
    ):
        racers = [threading.Thread(target=submit) for _ in range(2)]
        for racer in racers:
            racer.start()
        for racer in racers:
            racer.join(timeout=30)
    assert not errors, errors
    assert len(answers) == 2 and answers[0] == answers[1]
    assert model.objects.count() == 1
    assert sent.call_count == 1
