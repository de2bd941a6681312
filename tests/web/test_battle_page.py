"""The battle page while the battle waits, runs, fails or is done, and the log download."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from battles.models import Battle, BattleLog

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _page(client, battle) -> str:
    return client.get(reverse("battles:detail", args=[battle.pk])).content.decode()


def test_a_queued_battle_polls_for_progress_every_second(owner_client, queued_battle):
    page = _page(owner_client, queued_battle)
    progress = reverse("battles:progress", args=[queued_battle.pk])
    assert f'hx-get="{progress}"' in page and 'hx-trigger="every 1s"' in page
    assert "Queued: waiting for a worker." in page
    assert '<progress max="6" value="0"' in page


def test_without_javascript_the_page_refreshes_itself(owner_client, queued_battle):
    page = _page(owner_client, queued_battle)
    assert '<noscript><meta http-equiv="refresh" content="2"></noscript>' in page
    assert f'<a href="{reverse("battles:detail", args=[queued_battle.pk])}">Reload</a>' in page


def test_a_running_battle_shows_the_turn_reached(owner_client, queued_battle):
    Battle.objects.filter(pk=queued_battle.pk).update(status="running", progress_turn=4)
    page = _page(owner_client, queued_battle)
    assert "Fighting: turn 4 of 6." in page and '<progress max="6" value="4"' in page


def test_an_unreachable_queue_is_said_plainly(owner_client, queued_battle):
    Battle.objects.filter(pk=queued_battle.pk).update(enqueue_error="Connection refused (redis)")
    page = _page(owner_client, queued_battle)
    assert "The task queue is not reachable; the battle will be picked up when it returns." in page
    assert "Connection refused (redis)" in page


def test_a_failed_battle_keeps_its_error_for_the_owner(owner_client, queued_battle):
    Battle.objects.filter(pk=queued_battle.pk).update(
        status="failed", error="Traceback ...\nIllegalActionError: r-mech has been removed"
    )
    page = _page(owner_client, queued_battle)
    assert "The battle failed" in page
    assert "IllegalActionError: r-mech has been removed" in page
    assert "hx-trigger" not in page and "http-equiv" not in page


def test_progress_answers_the_htmx_poll_with_the_partial(owner_client, queued_battle):
    url = reverse("battles:progress", args=[queued_battle.pk])
    response = owner_client.get(url, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html and 'class="progress-box"' in html
    assert "HX-Request" in response["Vary"]


def test_progress_stops_the_polling_with_the_report_when_done(owner_client, finished_battle):
    response = owner_client.get(reverse("battles:progress", args=[finished_battle.pk]), **HTMX)
    html = response.content.decode()
    assert response.status_code == 286  # htmx stops polling on 286 and swaps the report in
    assert "<html" not in html and 'class="verdict"' in html and 'id="replay-frames"' in html
    assert "hx-trigger" not in html.split('id="battle-log"')[0]


def test_progress_stops_polling_for_a_failed_battle(owner_client, queued_battle):
    Battle.objects.filter(pk=queued_battle.pk).update(status="failed", error="boom")
    response = owner_client.get(reverse("battles:progress", args=[queued_battle.pk]), **HTMX)
    assert response.status_code == 286 and "boom" in response.content.decode()


def test_progress_without_htmx_goes_to_the_battle_page(owner_client, queued_battle):
    response = owner_client.get(reverse("battles:progress", args=[queued_battle.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("battles:detail", args=[queued_battle.pk])


def test_the_log_download_is_the_stored_log_byte_for_byte(owner_client, finished_battle):
    response = owner_client.get(reverse("battles:log-json", args=[finished_battle.pk]))
    stored = BattleLog.objects.get(battle=finished_battle)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == (
        f'attachment; filename="battle-{finished_battle.pk}-log.json"'
    )
    assert response.content.decode() == stored.events
    assert len(json.loads(response.content)["events"]) == stored.event_count


def test_there_is_no_log_to_download_before_the_battle_is_done(owner_client, queued_battle):
    response = owner_client.get(reverse("battles:log-json", args=[queued_battle.pk]))
    assert response.status_code == 404


def test_a_battle_fought_before_melee_was_bounded_still_shows_its_report(
    owner_client, finished_battle
):
    # Today a Size 4 card may print Melee 4..7; an older engine took any, and fought with it.
    scenario = finished_battle.scenario
    scenario["sides"][1]["units"][0]["card"]["melee"] = 9
    Battle.objects.filter(pk=finished_battle.pk).update(scenario=scenario)
    response = owner_client.get(reverse("battles:detail", args=[finished_battle.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "cannot read it back" not in html
    assert "Heavy Mech" in html


def test_a_log_this_engine_cannot_read_is_said_not_a_500(owner_client, finished_battle):
    BattleLog.objects.filter(battle=finished_battle).update(
        events='{"engine_version":"0.1","events":[{"kind":"volley","guns":3}]}'
    )
    Battle.objects.filter(pk=finished_battle.pk).update(engine_version="0.1")
    response = owner_client.get(reverse("battles:detail", args=[finished_battle.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "written by engine 0.1" in html and "cannot read it back" in html
    assert reverse("battles:log-json", args=[finished_battle.pk]) in html
    htmx = owner_client.get(
        reverse("battles:detail", args=[finished_battle.pk]) + "?kind=attack", **HTMX
    )
    assert htmx.status_code == 200


def test_a_battle_of_its_own_says_how_units_left_it_in_the_rule_texts_words(
    owner_client, finished_battle
):
    page = owner_client.get(reverse("battles:detail", args=[finished_battle.pk])).text
    assert "Faded: removed (destroyed or demoralised)" in page
    assert '"left": ["in the field", "destroyed", "demoralised"]' in page
    outcomes = re.findall(r'<td data-label="Outcome">([^<]*)</td>', page)
    assert "destroyed" in outcomes  # seed 1 takes a unit off the table
    units_and_buildings = {"in the field", "destroyed", "demoralised", "standing", "collapsed"}
    assert set(outcomes) <= units_and_buildings
    assert "taken out" not in page and "broken" not in page


def test_the_units_table_gives_skill_lost_of_the_skill_it_began_with_as_hits_lost_of_its_hits(
    owner_client, finished_battle
):
    """ "1 (Skill 4)" read as a unit left at Skill 4; "1 of 4" reads as "Hits lost: 1 of 2" does."""
    page = owner_client.get(reverse("battles:detail", args=[finished_battle.pk])).text
    cells = re.findall(r'<td class="num" data-label="Skill lost">([^<]*)</td>', page)
    lost = [u.skill_lost for u in finished_battle.outcome.units]
    assert cells and all(re.fullmatch(r"\d+ of [1-9]\d*", cell) for cell in cells)
    assert sorted(int(cell.split(" of ")[0]) for cell in cells) == sorted(lost)
    assert "(Skill " not in page
