"""A GM deleting while a battle of the campaign is launched, fought or settled: each request
takes the campaign (or the unit) as its deletion does, so one waits for the other and then
finds what it left, and says so; none fails halfway, nor writes into what is gone."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

import campaign.services.deletion as deletion
from battles.models import Battle
from battles.services import battle_resolve
from campaign.models import Campaign, CampaignBattle, HistoryEntry, Unit
from campaign.services import campaign_update, unit_remove
from campaign.services.battles import (
    Deployment,
    campaign_battle_launch,
    campaign_battle_settle,
    campaign_battles_settle_all,
)
from campaign.services.deletion import campaign_delete

CROSSROADS = Path(__file__).resolve().parents[2] / "battles/engine/scenarios/crossroads.json"
REACHED = 0.5
"""Seconds the racing request is given to reach the lock the deletion holds."""


def _deployments(make_unit, enemy) -> list[Deployment]:
    squad = make_unit("1st Squad")
    mech = make_unit("Red Mech", "Mech", specialties=("mechanized",), into=enemy)
    return [Deployment(unit=squad, side="blue", position=(6, 3)),
            Deployment(unit=mech, side="red", position=(20, 20))]  # fmt: skip


def _launch(campaign, deployments, actor=None) -> CampaignBattle:
    with mock.patch("battles.tasks.resolve_battle.delay"):
        return campaign_battle_launch(
            campaign=campaign, base=json.loads(CROSSROADS.read_text()),
            deployments=deployments, name="Crossroads", seed=12, actor=actor,
        )  # fmt: skip


def _settle(battle_id: int) -> CampaignBattle | None:
    with mock.patch("celery.current_app.send_task"):
        return campaign_battle_settle(battle_id=battle_id)


def _while_deleting(campaign, gm, racer: Callable[[], Any]) -> tuple[list[Any], list[Any]]:
    """The GM deletes ``campaign``; once the deletion holds it (checked, nothing deleted yet),
    ``racer`` runs as another request, and the deletion goes on when the racer has had time to
    reach the campaign. Each one's answers and errors, racer's first."""
    real_refusal = deletion.campaign_deletion_refusal
    holding, go = threading.Event(), threading.Event()
    answers: tuple[list[Any], list[Any]] = ([], [])

    def refusal_then_wait(checked):
        holding.set()
        assert go.wait(timeout=10)
        return real_refusal(checked)

    def run(call, answer):
        try:
            answer.append(call())
        except BaseException as exc:  # reported by the caller's assertions
            answer.append(exc)
        finally:
            connection.close()

    deleting = threading.Thread(target=run, args=(lambda: campaign_delete(
        campaign=campaign, actor=gm, name=campaign.name), answers[1]))  # fmt: skip
    racing = threading.Thread(target=run, args=(racer, answers[0]))
    with mock.patch.object(deletion, "campaign_deletion_refusal", refusal_then_wait):
        deleting.start()
        assert holding.wait(timeout=10)
        racing.start()
        time.sleep(REACHED)
        go.set()
        deleting.join(timeout=30)
        racing.join(timeout=30)
    return answers


@pytest.mark.django_db(transaction=True)
def test_a_launch_racing_the_campaigns_deletion_is_refused_in_a_sentence(
    campaign, make_unit, enemy, cast
):
    deployments = _deployments(make_unit, enemy)
    launched, deleted = _while_deleting(
        campaign, cast.gm, lambda: _launch(campaign, deployments, cast.gm)
    )
    assert deleted == ["Op. Test"]
    [refused] = launched
    assert isinstance(refused, ValidationError), refused
    assert refused.messages == ["Op. Test is deleted: the battle was not launched."]
    assert not Battle.objects.exists() and not CampaignBattle.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_settle_racing_the_campaigns_deletion_finds_nothing_to_settle(
    campaign, make_unit, enemy, cast
):
    """The worker is done and its notice comes as the GM deletes the campaign (its battle is
    over, so the deletion is not refused): the settle waits, and finds nothing left."""
    campaign_update(campaign=campaign, apply_mode=Campaign.ApplyMode.AUTO)
    crossroads = _launch(campaign, _deployments(make_unit, enemy))
    battle_resolve(battle_id=crossroads.battle_id)
    settled, deleted = _while_deleting(campaign, cast.gm, lambda: _settle(crossroads.battle_id))
    assert deleted == ["Op. Test"]
    assert settled == [None]
    assert not Unit.objects.exists() and not HistoryEntry.objects.exists()
    assert not Battle.objects.exists()
    assert campaign_battles_settle_all() == []


@pytest.mark.django_db
def test_a_unit_struck_off_while_its_battle_is_fought_stays_and_the_battle_settles(
    campaign, make_unit, enemy, cast
):
    """Launched, then struck off before the worker is done: refused as it is in a battle not
    applied yet, and the worker's battle is applied to it as fought."""
    campaign_update(campaign=campaign, apply_mode=Campaign.ApplyMode.AUTO)
    crossroads = _launch(campaign, _deployments(make_unit, enemy))
    squad = Unit.objects.get(name="1st Squad")
    with pytest.raises(ValidationError) as refused:
        unit_remove(unit=squad, actor=cast.gm)
    assert refused.value.messages == [
        "1st Squad has a part in the story already: it stays on the books (a correction can "
        "mark it destroyed)."
    ]
    battle_resolve(battle_id=crossroads.battle_id)
    assert _settle(crossroads.battle_id).state == CampaignBattle.State.APPLIED
    assert HistoryEntry.objects.filter(unit=squad, kind=HistoryEntry.Kind.BATTLE).exists()


@pytest.mark.django_db
def test_a_launch_whose_unit_was_struck_off_meanwhile_names_it_and_what_to_do(
    campaign, make_unit, enemy, cast
):
    """The set-up was drawn, then the unit struck off the roster in another tab: the launch
    says which unit, that it was struck off, and to set up the battle without it."""
    deployments = _deployments(make_unit, enemy)
    unit_remove(unit=Unit.objects.get(name="1st Squad"), actor=cast.gm)
    with pytest.raises(ValidationError) as refused:
        _launch(campaign, deployments, cast.gm)
    assert refused.value.messages == [
        "1st Squad is no longer on Op. Test's roster: it was struck off since this page was "
        "drawn. Set up the battle without it"
    ]
    assert not CampaignBattle.objects.exists()


@pytest.mark.django_db
def test_a_battle_whose_unit_vanished_from_the_records_names_it_and_its_side(
    campaign, make_unit, enemy, cast
):
    """A unit of a battle awaiting review is gone from the database, deleted outside the
    site: the review and Apply name it as the battle's report does and by its side, and say
    who can bring it back, never by a database id."""
    from campaign.services.battles import (
        campaign_battle_apply,
        campaign_battle_record,
        outcome_review,
    )

    campaign_update(campaign=campaign, apply_mode=Campaign.ApplyMode.REVIEW)
    crossroads = _launch(campaign, _deployments(make_unit, enemy))
    battle_resolve(battle_id=crossroads.battle_id)
    crossroads = _settle(crossroads.battle_id)
    assert crossroads.state == CampaignBattle.State.AWAITING
    reserve, wolf = make_unit("Reserve"), make_unit("Wolf", "Mech", into=enemy)
    table = campaign_battle_record(
        campaign=campaign, name="Mill", winner="a", actor=cast.gm,
        sides={"a": [reserve], "b": [wolf]},
        outcomes={u.pk: {"hits_lost": 0, "skill_lost": 0} for u in (reserve, wolf)},
    )  # fmt: skip
    squad = Unit.objects.get(name="1st Squad")
    gone = str(squad.pk)
    Unit.objects.filter(pk__in=[squad.pk, reserve.pk]).delete()
    _, refusal, _, _ = outcome_review(campaign_battle=crossroads)
    assert refusal == [
        "Rifle Squad, on the first side, is gone from Op. Test's records, so the outcome cannot "
        "be applied: ask whoever runs the site to restore it from a backup"
    ]
    with pytest.raises(ValidationError) as refused:
        campaign_battle_apply(campaign_battle=crossroads, actor=cast.gm)
    assert refused.value.messages == refusal
    assert not any(gone in message for message in refused.value.messages)
    _, refusal, _, _ = outcome_review(campaign_battle=table)
    assert refusal == [
        "A unit on the first side is gone from Op. Test's records, so the outcome cannot be "
        "applied: ask whoever runs the site to restore it from a backup"
    ]
