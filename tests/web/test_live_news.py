"""Pages that update themselves say their news to a screen reader once, politely.

A battle being fought and an odds run narrowing are polled every second and swapped in anew: a
status line inside the swapped part is a new element each time, which readers either never say
or say again and again. Each such page keeps one live region outside what it polls, and marks
the words that are news in each swap (``data-announce``), which its script
(``battles/live-news.js``) copies there when they change.
"""

from __future__ import annotations

import re
from unittest import mock

import pytest
from django.urls import reverse

from battles.models import Battle, OddsRun
from battles.odds import odds_chunk_run, odds_launch
from campaign.models import CampaignBattle
from tests.web.campaign_world import login
from tests.web.test_campaign_battles import HTMX, _free_all, _setup_data, _url

pytestmark = pytest.mark.django_db

LIVE = '<p id="live-news" class="visually-hidden" role="status"></p>'


def _region_before(page: str, polled: str) -> None:
    """The page's one live region, empty, outside (before) the part it polls, with its script."""
    assert page.count('id="live-news"') == 1 and LIVE in page
    assert page.index(LIVE) < page.index(f'id="{polled}"')
    assert "battles/live-news.js" in page


def _news(html: str) -> list[str]:
    """The words of each element marked as news, as a reader would hear them."""
    marked = re.findall(r"<(\w+)[^>]*\sdata-announce[^>]*>(.*?)</\1>", html, re.DOTALL)
    return [" ".join(re.sub(r"<[^>]+>", " ", words).split()) for _, words in marked]


def _polled(page: str, polled: str) -> str:
    return page[page.index(f'id="{polled}"') :]


def test_a_battle_being_fought_says_each_turn_and_then_who_won(owner_client, queued_battle):
    page = owner_client.get(reverse("battles:detail", args=[queued_battle.pk])).text
    _region_before(page, "battle-body")
    assert _news(page) == ["Queued: waiting for a worker."]
    assert 'role="status"' not in _polled(page, "battle-body"), "the lasting region says it"
    Battle.objects.filter(pk=queued_battle.pk).update(status="running", progress_turn=4)
    progress = reverse("battles:progress", args=[queued_battle.pk])
    assert _news(owner_client.get(progress, **HTMX).text) == ["Fighting: turn 4 of 6."]


def test_a_finished_battle_says_its_outcome_in_the_last_swap(owner_client, finished_battle):
    done = owner_client.get(reverse("battles:progress", args=[finished_battle.pk]), **HTMX)
    assert done.status_code == 286
    (verdict,) = _news(done.text)
    assert re.fullmatch(r"(.+ won|A draw) after \d+ turns? \(.+\)\.", verdict)


def test_an_odds_run_says_its_batches_and_how_narrow_it_is_then_who_is_favoured(
    owner_client, owner, scenario
):
    with mock.patch("battles.odds.odds_enqueue"):
        run = odds_launch(scenario=scenario, battles=300, seed=3, chunk_size=20, created_by=owner)
        odds_chunk_run(run_id=run.id, index=0)
        small = odds_launch(scenario=scenario, battles=40, seed=3, chunk_size=20, created_by=owner)
        for index in range(small.chunks_total):
            odds_chunk_run(run_id=small.id, index=index)
    page = owner_client.get(reverse("battles:odds-detail", args=[run.pk])).text
    _region_before(page, "odds-body")
    assert 'role="status"' not in _polled(page, "odds-body")
    polled = owner_client.get(reverse("battles:odds-progress", args=[run.pk]), **HTMX).text
    fighting, narrowing = _news(polled)
    assert fighting == "Fighting: 1 of 15 batches of battles done."
    assert narrowing.startswith("So far 20 battles: every outcome within ±")
    done = owner_client.get(reverse("battles:odds-progress", args=[small.pk]), **HTMX)
    assert done.status_code == 286
    verdict = re.search(r'<p class="verdict"[^>]*>(.*?)</p>', done.text)[1]
    assert _news(done.text)[0] == " ".join(re.sub(r"<[^>]+>", " ", verdict).split())


def test_a_campaign_battle_says_when_it_is_over_and_its_outcome(client, world):
    cb = world.engine_battle
    CampaignBattle.objects.filter(pk=cb.pk).update(state=CampaignBattle.State.FIGHTING)
    page = login(client, world, "gm").get(_url("battle", world, cb.pk)).text
    _region_before(page, "battle-body")
    assert _news(page) == ["The battle is over; the campaign is taking in its outcome."]
    CampaignBattle.objects.filter(pk=cb.pk).update(state=CampaignBattle.State.AWAITING)
    settled = client.get(_url("battle-progress", world, cb.pk), **HTMX)
    assert settled.status_code == 286
    (verdict,) = _news(settled.text)
    assert re.match(r"(.+ won|A draw) after \d+ turns?", verdict)


def test_who_is_favoured_on_the_set_up_says_its_progress_then_its_verdict(client, world):
    units = _free_all(world)
    page = login(client, world, "gm").get(_url("battle-setup", world)).text
    _region_before(page, "setup-form")
    data = _setup_data(units, world, odds_battles="20", action="odds")
    with mock.patch("battles.odds.odds_enqueue"):
        asked = client.post(_url("battle-setup", world), data, **HTMX).text
    box = asked[asked.index('<section id="setup-odds"') :]
    opening = box[: box.index(">")]
    assert "aria-live" not in opening, "a region swapped in anew each second is not said reliably"
    run = OddsRun.objects.get()
    # In the odds page's words (battles/odds.html): no "parts" the site speaks of nowhere else.
    assert _news(box) == ["Queued: waiting for workers (at most 20 battles)."]
    OddsRun.objects.filter(pk=run.pk).update(status="running")
    running = client.get(_url("battle-odds", world, run.pk), **HTMX).text
    assert _news(running) == [
        f"Fighting: 0 of {run.chunks_total} batches of battles done (at most 20 battles)."
    ]
    for index in range(run.chunks_total):
        odds_chunk_run(run_id=run.id, index=index)
    done = client.get(_url("battle-odds", world, run.pk), **HTMX)
    assert done.status_code == 286
    assert _news(done.text)[0].startswith(("Neither side", "Red Company", "Blue Battalion"))


@pytest.mark.parametrize("page", ["battles:setup", "battles:odds-setup"])
def test_picking_another_scenario_says_its_name_not_the_whole_table(owner_client, page):
    url = reverse(page)
    whole = owner_client.get(url).text
    _region_before(whole, "table-preview")
    preview = owner_client.get(url, {"scenario": "landing"}, **HTMX).text.lstrip()
    opening = preview[: preview.index(">")]
    assert opening.startswith('<section id="table-preview"') and "aria-live" not in opening
    assert _news(preview) == ["Beach Landing"]


def test_a_filtered_log_says_how_many_events_it_shows(owner_client, finished_battle):
    """The report's log filter swaps the log in anew: its count of the events shown is the
    news, said once; the report drawn whole (as the page, or as the battle's last swap) says
    only its outcome."""
    url = reverse("battles:detail", args=[finished_battle.pk])
    page = owner_client.get(url).text
    _region_before(page, "battle-log")
    assert not [news for news in _news(page) if news.startswith("Showing")]
    filtered = owner_client.get(url, {"kind": "attack"}, **HTMX).text
    (count,) = _news(filtered)
    assert re.fullmatch(r"Showing \d+ of \d+ events\.", count), count
    assert 'role="status"' not in filtered, "the lasting region says it"


def test_a_campaign_battle_names_its_winner_once_settled_without_a_reload(client, world):
    """The sides' "won" showed beside a state still reading "being fought" (the engine done, the
    campaign taking the outcome in), and a page watched to the end never showed it: the sides
    are refreshed with the state once the battle settles."""
    cb = world.engine_battle
    CampaignBattle.objects.filter(pk=cb.pk).update(state=CampaignBattle.State.FIGHTING)
    page = login(client, world, "gm").get(_url("battle", world, cb.pk)).text
    sides = page[page.index('<div id="battle-sides"') :].split("</div>", 1)[0]
    assert 'class="badge">won<' not in sides
    CampaignBattle.objects.filter(pk=cb.pk).update(state=CampaignBattle.State.AWAITING)
    settled = client.get(_url("battle-progress", world, cb.pk), **HTMX)
    assert settled.status_code == 286
    swapped = settled.text[settled.text.index('<div id="battle-sides" hx-swap-oob="true">') :]
    assert 'class="badge">won<' in swapped.split("</div>", 1)[0]
