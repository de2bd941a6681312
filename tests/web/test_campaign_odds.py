"""'Who is favoured?' from the set-up page: an odds run on exactly this set-up, shown in campaign
names beside Launch and kept with the battle when the very same set-up is launched."""

from __future__ import annotations

import html
import re
import uuid
from unittest import mock

import pytest
from django.urls import reverse

from battles.models import OddsRun
from battles.odds import odds_chunk_run, odds_launch
from campaign.models import AskedOdds, CampaignBattle
from campaign.odds import campaign_odds_report
from campaign.pages.sides import force_colour
from tests.web.campaign_world import login
from tests.web.test_campaign_battles import HTMX, _free_all, _setup_data, _url

pytestmark = pytest.mark.django_db


def _ask(client, world, data):
    with mock.patch("battles.odds.odds_enqueue"):
        response = client.post(_url("battle-setup", world), {**data, "action": "odds"})
    assert response.status_code == 200, response.context["form"].errors
    run = OddsRun.objects.latest("id")
    for index in range(run.chunks_total):  # the workers' part, here in-process
        odds_chunk_run(run_id=run.id, index=index)
    run.refresh_from_db()
    return response, run


def test_the_odds_are_run_on_exactly_this_set_up_and_named_as_the_campaign_names(client, world):
    units = _free_all(world)
    blue = next(u for u in units if u.force_id == world.force.pk)
    login(client, world, "gm")
    moved = {f"x_{blue.pk}": "7", f"y_{blue.pk}": "3", f"order_{blue.pk}": "hold"}
    data = _setup_data(units, world, odds_battles="20", **moved)
    response, run = _ask(client, world, data)
    assert run.battles == 20 and run.status == OddsRun.Status.DONE
    assert CampaignBattle.objects.count() == 2, "asking launches nothing"
    fielded = {u["id"]: u for side in run.scenario["sides"] for u in side["units"]}
    mine = next(u for i, u in fielded.items() if i.endswith(f"-{blue.pk}"))
    assert mine["position"] == [7.0, 3.0] and mine["order"] == {"kind": "hold"}
    assert run.scenario["turn_limit"] == 4 and len(fielded) == len(units)
    assert f'name="odds_run" value="{run.pk}"' in response.content.decode()
    panel = client.get(_url("battle-odds", world, run.pk), **HTMX)
    assert panel.status_code == 286  # finished: htmx stops polling
    opened = client.get(_url("battle-odds", world, run.pk))
    assert opened.status_code == 200  # opened as a page, not polled: an ordinary answer
    assert "From 20 battles of exactly this set-up" in opened.content.decode()
    text = panel.content.decode()
    assert "From 20 battles of exactly this set-up" in text
    # The sides by their forces, as the page around the box names them, not the scenario's.
    assert "Red Company" in text and "Blue Battalion" in text
    assert "Blue Force" not in text and "Red Force" not in text
    for unit in units:
        assert f'<th scope="row">{unit.name}</th>' in text
    assert re.search(r"\d+\.\d%\u00a0– \d+\.\d%", text)  # the 95% interval
    # Each side in its force's colour, not in the order the summary's keys came back.
    colours = {s.id: s.colour for s in campaign_odds_report(run, world.campaign).sides}
    reordered = {**run.result, "sides": dict(reversed(list(run.result["sides"].items())))}
    OddsRun.objects.filter(pk=run.pk).update(result=reordered)
    run.refresh_from_db()
    assert {s.id: s.colour for s in campaign_odds_report(run, world.campaign).sides} == colours
    by_force = {}
    for side in run.scenario["sides"]:
        first = next(u for u in units if side["units"][0]["id"].endswith(f"-{u.pk}"))
        by_force[side["id"]] = force_colour(first.force)
    assert colours == by_force and len(set(colours.values())) == 2
    for colour in colours.values():
        assert f'style="background: {colour}"' in text
    player = login(client, world, "player")
    assert player.get(_url("battle-odds", world, run.pk)).status_code == 403


def test_the_campaigns_odds_run_is_read_in_its_names_wherever_it_is_opened(client, world):
    """Asked on the set-up page, the run is the campaign's: the Battles page lists it among the
    GM's odds runs, and its one-off address sends the GM to the campaign's own page of it, in
    the campaign's names, never the scenario's; no one else learns it exists."""
    units = _free_all(world)
    gm = login(client, world, "gm")
    _, run = _ask(gm, world, _setup_data(units, world, odds_battles="20"))
    listed = gm.get(reverse("battle-list")).text
    one_off = reverse("battles:odds-detail", args=[run.pk])
    assert f'href="{one_off}"' in listed
    sent = gm.get(one_off)
    assert sent.status_code == 302 and sent["Location"] == _url("battle-odds", world, run.pk)
    page = gm.get(sent["Location"]).text
    assert f"<h1>{html.escape(run.name)}</h1>" in page
    assert '<h2 id="setup-odds-h">Who is favoured?</h2>' in page
    assert f'<a href="{reverse("campaign:dashboard", args=[world.campaign.pk])}">' in page
    assert "Red Company" in page and "Blue Battalion" in page
    assert "Blue Force" not in page and "Red Force" not in page
    for unit in units:
        assert f'<th scope="row">{unit.name}</th>' in page
    for role in ("player", "spectator", "outsider"):
        assert login(client, world, role).get(one_off).status_code == 404, role


def test_a_one_off_odds_run_keeps_its_own_page(client, world, scenario):
    """A run asked on the one-off odds page belongs to no campaign: its page is its own."""
    gm = world.users["gm"]
    with mock.patch("battles.odds.odds_enqueue"):
        run = odds_launch(scenario=scenario, battles=4, seed=1, created_by=gm)
    assert not AskedOdds.objects.filter(run=run).exists()
    page = login(client, world, "gm").get(reverse("battles:odds-detail", args=[run.pk]))
    assert page.status_code == 200 and f"Odds: {run.name}" in page.text


def test_the_odds_under_way_show_a_progress_bar_named_for_what_it_counts(client, world):
    """A screen reader names the bar as the odds page's own (battles/odds.html), not "progress
    bar" alone."""
    units = _free_all(world)
    login(client, world, "gm")
    with mock.patch("battles.odds.odds_enqueue"):
        response = client.post(
            _url("battle-setup", world), {**_setup_data(units, world), "action": "odds"}
        )
    bars = re.findall(r"<progress [^>]*>", response.content.decode())
    assert len(bars) == 1 and 'aria-label="Batches of battles done"' in bars[0], bars


def test_the_odds_are_kept_with_the_battle_launched_from_the_same_set_up(client, world):
    units = _free_all(world)
    login(client, world, "gm")
    data = _setup_data(units, world, odds_battles="10")
    _, run = _ask(client, world, data)
    with mock.patch("battles.tasks.resolve_battle.delay"):
        launched = client.post(_url("battle-setup", world), {**data, "odds_run": str(run.pk)})
    assert launched.status_code == 302
    cb = CampaignBattle.objects.latest("id")
    assert cb.odds == run
    page = client.get(_url("battle", world, cb.pk))
    assert "Who is favoured?" in page.content.decode()


def test_odds_asked_before_a_unit_moved_are_not_kept(client, world):
    units = _free_all(world)
    blue = next(u for u in units if u.force_id == world.force.pk)
    login(client, world, "gm")
    data = _setup_data(units, world, odds_battles="10")
    _, run = _ask(client, world, data)
    moved = {**data, f"x_{blue.pk}": "8", f"y_{blue.pk}": "2", "odds_run": str(run.pk)}
    with mock.patch("battles.tasks.resolve_battle.delay"):
        assert client.post(_url("battle-setup", world), moved).status_code == 302
    assert CampaignBattle.objects.latest("id").odds is None


def test_who_is_favoured_asked_twice_at_once_is_one_run_and_asked_again_a_new_one(client, world):
    """A double click on "Who is favoured?" sends the same question twice: one run, and both
    answers show it. The answer comes back with a new key: asked again, it is a new run."""
    units = _free_all(world)
    login(client, world, "gm")
    data = _setup_data(units, world, odds_battles="10", odds_key=str(uuid.uuid4()))
    first, run = _ask(client, world, data)
    with mock.patch("battles.odds.odds_enqueue") as queued:
        again = client.post(_url("battle-setup", world), {**data, "action": "odds"})
    assert again.status_code == 200 and not queued.called
    assert OddsRun.objects.count() == 1
    assert f'name="odds_run" value="{run.pk}"' in again.content.decode()
    answer = re.search(r'name="odds_key" value="([^"]+)"', first.content.decode())[1]
    assert answer != data["odds_key"]
    _, later = _ask(client, world, {**data, "odds_key": answer})
    assert later.pk != run.pk and OddsRun.objects.count() == 2


def test_a_queued_run_counts_its_battles_with_thousands_grouped(client, world):
    units = _free_all(world)
    login(client, world, "gm")
    data = _setup_data(units, world, odds_battles="10000")
    with mock.patch("battles.odds.odds_enqueue"):
        client.post(_url("battle-setup", world), {**data, "action": "odds"})
    run = OddsRun.objects.latest("id")
    text = client.get(_url("battle-odds", world, run.pk), **HTMX).content.decode()
    assert "Queued: waiting for workers (at most 10,000 battles)." in text
    page = client.get(_url("battle-odds", world, run.pk)).content.decode()
    assert "at most 10,000 battles, until every outcome is within ±2 points" in page
