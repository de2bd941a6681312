"""The battle report as its owner reads it: outcome, units, luck, replay, the full log."""

from __future__ import annotations

import copy
import json
import re

import pytest
from django.urls import reverse

from battles.engine import log_from_dict
from battles.engine.events import Removal
from battles.models import BattleLog
from battles.report_context import LOG_PAGE_EVENTS
from battles.services import battle_launch, battle_resolve
from tests.web.crafted import crafted_battle
from tests.web.pages import without_tokens

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _get(client, battle, query: str = "", **headers) -> str:
    url = reverse("battles:detail", args=[battle.pk]) + (f"?{query}" if query else "")
    response = client.get(url, **headers)
    assert response.status_code == 200
    return response.content.decode()


def _shown(html: str) -> set[int]:
    return {int(i) for i in re.findall(r'id="ev-(\d+)"', html)}


def _entries(html: str) -> set[int]:
    """Events shown as entries of their own (not as the dice of another)."""
    return {int(i) for i in re.findall(r'<li class="entry[^"]*" id="ev-(\d+)"', html)}


def _log(battle) -> list:
    return log_from_dict(json.loads(BattleLog.objects.get(battle=battle).events))


def verdict(result: dict) -> str:
    """What the report must say about a result (whatever the engine made of the battle)."""
    names = {side["side"]: side["name"] for side in result["sides"]}
    return f"{names[result['winner']]} won" if result["winner"] else "A draw"


def test_it_names_the_winner_the_score_and_the_objectives(owner_client, finished_battle):
    html = _get(owner_client, finished_battle)
    result = finished_battle.result
    assert f"<strong>{verdict(result)}</strong>" in html
    for side in result["sides"]:
        assert re.search(rf"{side['name']}.*?</th><td class=\"num\">{side['score']}</td>", html)
    held = [side["name"] for side in result["sides"] if "crossroads" in side["objectives_held"]]
    holder = held[0] if held else "nobody"
    assert f"Crossroads (Blue Force to hold): held by {holder} at the end." in html


def test_a_draw_and_a_win_read_differently(owner_client, owner):
    battle = crafted_battle(owner)
    # A fought battle's verdict is told in the past, as the battles' lists tell it.
    assert "<strong>Blue won</strong>" in _get(owner_client, battle)
    draw = dict(battle.result, winner=None)
    type(battle).objects.filter(pk=battle.pk).update(result=draw)
    assert "<strong>A draw</strong>" in _get(owner_client, battle)


def test_it_has_a_row_for_every_unit_with_its_outcome(owner_client, finished_battle):
    html = _get(owner_client, finished_battle)
    # Units by their cards' names, numbered where a card is on the table twice; no ids.
    assert "Rifle Squad 2" in html and "<code>b-rifles-1</code>" not in html
    assert html.count('<tr class="removed-') == len(finished_battle.result["units"])
    # The farmhouse's id only repeats its name: it is not shown, in the table or the log.
    assert '<th scope="row">Farmhouse</th>' in html
    # Under a heading of their own, so that stacked on a phone they do not read as units.
    assert html.index('<h3 id="buildings-heading">Buildings</h3>') < html.index("Farmhouse</th>")
    assert "Farmhouse (farmhouse)" not in html


def test_the_full_log_shows_every_event(owner_client, finished_battle):
    html = _get(owner_client, finished_battle)
    events = _log(finished_battle)
    assert _shown(html) == set(range(len(events)))
    assert f"Showing {len(events)} of {len(events)} events" in html


def test_each_attack_opens_to_its_dice(owner_client, finished_battle):
    html = _get(owner_client, finished_battle)
    events = _log(finished_battle)
    for i, e in enumerate(events):
        if e.KIND == "attack":
            entry = re.search(
                rf'<li class="entry entry-attack[^"]*" id="ev-{i}".*?</li>\s*</ul>', html, re.S
            )
            assert entry and "<details" in entry.group(0) and "<summary>" in entry.group(0)
            assert f'id="ev-{i - 1}"' in entry.group(0)  # its last die, just before it


def test_the_log_filters_by_unit_and_by_kind_with_a_plain_get(owner_client, finished_battle):
    events = _log(finished_battle)
    tank = _shown(_get(owner_client, finished_battle, "unit=b-tank"))
    # Everything about the tank, and nothing else but the dice of attacks it made or suffered.
    assert {i for i, e in enumerate(events) if _concerns(e, "b-tank")} <= tank
    assert all(_concerns(events[i], "b-tank") for i in tank if events[i].KIND != "roll")
    attacks = _entries(_get(owner_client, finished_battle, "kind=attack"))
    assert attacks == {i for i, e in enumerate(events) if e.KIND == "attack"}
    both = _entries(_get(owner_client, finished_battle, "unit=r-chopper&kind=attack"))
    assert both and all(
        events[i].KIND == "attack" and "r-chopper" in (events[i].attacker, events[i].target)
        for i in both
    )


def _concerns(e, unit: str) -> bool:
    fields = {getattr(e, name, None) for name in ("unit", "who", "attacker", "target", "by")}
    return (
        unit in fields
        or unit in getattr(e, "occupants", ())
        or getattr(e, "reason", None) == f"removed:{unit}"
    )


def test_the_htmx_filter_answers_with_the_log_alone(owner_client, finished_battle):
    html = _get(owner_client, finished_battle, "kind=damage", **HTMX)
    assert html.lstrip().startswith('<section id="battle-log"')
    assert "<html" not in html and 'id="replay-frames"' not in html
    events = _log(finished_battle)
    assert _entries(html) == {i for i, e in enumerate(events) if e.KIND == "damage"}


def test_the_filter_form_works_with_and_without_htmx(owner_client, finished_battle):
    html = _get(owner_client, finished_battle)
    url = reverse("battles:detail", args=[finished_battle.pk])
    form = re.search(r'<form method="get"[^>]*class="log-filter"[^>]*>', html).group(0)
    assert f'action="{url}"' in form and f'hx-get="{url}"' in form
    assert 'hx-target="#battle-log"' in form and 'hx-push-url="true"' in form


def test_unknown_filters_are_ignored_not_errors(owner_client, finished_battle):
    html = _get(owner_client, finished_battle, "unit=nobody&kind=<b>&as=green")
    assert len(_shown(html)) == len(_log(finished_battle))


def test_the_luck_table_is_there(owner_client, finished_battle):
    html = _get(owner_client, finished_battle)
    assert '<h2 id="luck-heading">Luck</h2>' in html
    assert html.count("chance of as much or more") == 2
    # Crossroads, seed 1: neither side's damage nor suppressions stray beyond chance.
    verdicts = re.search(r'<ul class="luck-verdicts">(.*?)</ul>', html, re.S).group(1)
    assert re.findall(r"<li>(.*?)</li>", verdicts) == [
        "Blue Force&#x27;s dice came out about as expected.",
        "Red Force&#x27;s dice came out about as expected.",
    ]


def test_the_replay_gets_its_frames_through_json_script(owner_client, finished_battle):
    html = _get(owner_client, finished_battle)
    data = re.search(
        r'<script id="replay-frames" type="application/json">(.*?)</script>', html, re.S
    )
    frames = json.loads(data.group(1))
    activations = sum(1 for e in _log(finished_battle) if e.KIND == "activation")
    assert len(frames["frames"]) == activations + 2
    assert set(frames["units"]) == {u["unit"] for u in finished_battle.result["units"]}
    for unit in frames["units"]:
        assert f'data-unit="{unit}"' in html
    for action in ("first", "back", "play", "forward", "last", "seek"):
        assert f'data-action="{action}"' in html


def test_no_page_has_inline_scripts_or_event_handlers(owner_client, finished_battle, queued_battle):
    pages = [
        reverse("battle-list"),
        reverse("battles:setup"),
        reverse("battles:odds-setup"),
        reverse("battles:detail", args=[finished_battle.pk]),
        reverse("battles:detail", args=[queued_battle.pk]),
    ]
    for url in pages:
        html = owner_client.get(url).content.decode()
        for tag in re.findall(r"<script\b[^>]*>", html):
            assert 'src="/static/' in tag or 'type="application/json"' in tag, (url, tag)
        assert not re.search(r"\son[a-z]+\s*=", html), url
        assert "javascript:" not in html and "hx-on" not in html, url
        assert "https://" not in html and "http://" not in html, url  # no CDN


def test_the_owner_can_see_the_battle_as_either_side(owner_client, owner):
    battle = crafted_battle(owner)
    everything = _shown(_get(owner_client, battle))
    as_blue = _get(owner_client, battle, "as=blue")
    as_red = _shown(_get(owner_client, battle, "as=red"))
    assert everything == as_red == set(range(34))
    assert _shown(as_blue) == set(range(34)) - {12, 13, 14}
    assert "terrain roll" not in as_blue  # the concealed enemy's die
    assert "Red activates a unit out of sight." in as_blue
    assert '<input type="hidden" name="as" value="blue">' in as_blue  # the filter keeps the view


def test_fog_of_war_reaches_the_htmx_filter_too(owner_client, owner):
    battle = crafted_battle(owner)
    html = _get(owner_client, battle, "as=blue&unit=r1", **HTMX)
    assert _shown(html) == {1, 15, 20, 21, 22, 23, 24, 25, 27, 28, 29, 30, 31}


def _big_scenario(scenario: dict, copies: int) -> dict:
    """Crossroads with every unit ``copies`` times over, side by side, and a turn limit of 100:
    thousands of events."""
    big = copy.deepcopy(scenario)
    big["turn_limit"] = 100
    for side in big["sides"]:
        units = []
        for k in range(copies):
            for unit in side["units"]:
                twin = copy.deepcopy(unit)
                twin["id"] = f"{unit['id']}-{k}"
                x, y = unit["position"]
                twin["position"] = [round(0.6 + (x + k * 3.7) % 22.8, 2), y]
                units.append(twin)
        side["units"] = units
    return big


def test_the_report_of_a_big_battle_takes_as_few_queries_as_a_small_one(
    owner_client, owner, scenario, finished_battle, django_assert_max_num_queries
):
    big = battle_resolve(
        battle_id=battle_launch(
            name="Big", scenario=_big_scenario(scenario, 8), seed=0, created_by=owner
        ).id
    )
    assert big.status == "done" and BattleLog.objects.get(battle=big).event_count > 1000
    for battle in (finished_battle, big):
        # session, user, whether a campaign fought it, battle, its log
        with django_assert_max_num_queries(5):
            html = _get(owner_client, battle)
        events = BattleLog.objects.get(battle=battle).event_count
        # A page holds the whole log of any battle the bundled scenarios fight.
        assert events <= LOG_PAGE_EVENTS
        assert len(_shown(html)) == events
        # Drawn once: fetched again, the page is served as drawn, without reading the log.
        with django_assert_max_num_queries(4):
            again = _get(owner_client, battle)
        assert without_tokens(again) == without_tokens(html)
    with django_assert_max_num_queries(5):
        _get(owner_client, big, "unit=b-tank-3", **HTMX)


def test_the_score_table_names_an_objective_as_the_lines_under_it_do(owner_client, owner):
    # The crafted scenario's objective is "corner": the line under the table names it
    # "Corner (Blue to hold)", and the score table as it, not by its id in lower case.
    battle = crafted_battle(owner)
    result = copy.deepcopy(battle.result)
    for side in result["sides"]:
        side["objectives_held"] = ["corner"] if side["side"] == "blue" else []
    type(battle).objects.filter(pk=battle.pk).update(result=result)
    html = _get(owner_client, battle)
    assert '<td class="num">1</td><td>Corner</td></tr>' in html
    assert "<td>corner</td>" not in html
    assert re.search(r"Corner \([^)]* to hold\): held by Blue at the end", html)


def test_the_luck_verdict_of_a_side_named_in_the_plural(owner, owner_client, scenario):
    """A side whose name ends in s has the apostrophe alone: "Blue Wardens' dice", not
    "Blue Wardens's dice"."""
    scenario = copy.deepcopy(scenario)
    scenario["sides"][0]["name"] = "Blue Wardens"
    battle = battle_resolve(
        battle_id=battle_launch(name="Crossroads", scenario=scenario, seed=1, created_by=owner).id
    )
    html = _get(owner_client, battle)
    verdicts = re.search(r'<ul class="luck-verdicts">(.*?)</ul>', html, re.S).group(1)
    assert "Blue Wardens&#x27; dice came out about as expected." in verdicts
    assert "Wardens&#x27;s" not in html


def test_each_turn_of_the_log_closes_with_the_score_after_it(owner_client, finished_battle):
    html = _get(owner_client, finished_battle)
    assert html.count('<p class="turn-summary">After turn ') == finished_battle.progress_turn
    assert '<p class="turn-summary">After turn 1: Blue Force ' in html


def test_the_report_leaves_out_the_units_known_by_name_only_and_speaks_the_readers_words(owner):
    """Seen as red, downloaded as blue sees it, with blue called by its force's name, the seed
    withheld and red's unit known by name only: every part of the report says so."""
    from battles.engine import parse_scenario
    from battles.fog import hidden_events
    from battles.report import unit_sides
    from battles.report_context import battle_report
    from campaign.pages.report import LEFT_WORDS
    from tests.web.crafted import crafted_events, crafted_scenario

    battle = crafted_battle(owner)
    events = crafted_events()
    blue_hides = hidden_events(events, unit_sides(parse_scenario(crafted_scenario())), "blue")
    why = "Red's unit is known by its name only."
    report = battle_report(
        battle,
        url="/b/",
        download_url="/b/log",
        viewer="red",
        download_viewer="blue",
        side_names={"blue": "Iron Wolves"},
        left=LEFT_WORDS,
        seed_shown=False,
        units_left_out={"r1"},
        why_left_out=why,
    )
    assert (report.winner, report.viewer_name) == ("Iron Wolves", "Red")
    assert report.dice_url == "/b/?kind=roll&as=red#battle-log"
    assert blue_hides and report.downloaded == len(events) - len(blue_hides)
    assert [u.id for u in report.units] == ["b1"] and report.why_left_out == why
    assert [row.luck.name for row in report.luck] == ["Iron Wolves"]
    assert report.luck_left_out == ["Red"]
    assert (
        report.removed_words
        == f"{LEFT_WORDS[Removal.DESTROYED]} or {LEFT_WORDS[Removal.DEMORALISED]}"
    )
    assert (
        report.log[0].opening[0].text
        == "Crafted begins on Test (Combined Arms rules, its seed not shown)."
    )
    whole = battle_report(battle, url="/b/", download_url="/b/log", why_left_out=why)
    assert (whole.why_left_out, whole.downloaded, whole.viewer_name) == ("", len(events), None)


def test_an_outcome_only_report_reads_no_event_and_a_side_sees_its_hidden_enemy_undrawn(owner):
    """A reader who may see the outcome only gets no log, luck or replay; a side's drawn table
    leaves out the enemy it could not see at deployment, as the replay's first frame does."""
    from battles.report_context import battle_report

    battle = crafted_battle(owner)
    bare = battle_report(battle, url="/b/", download_url="/b/log", outcome_only=True)
    assert (bare.log, bare.luck, bare.frames, bare.winner) == ([], [], {}, "Blue")
    as_blue = battle_report(battle, url="/b/", download_url="/b/log", viewer="blue")
    assert [u.id for u in as_blue.table.units] == ["b1"]
    whole = battle_report(battle, url="/b/", download_url="/b/log")
    assert sorted(u.id for u in whole.table.units) == ["b1", "r1"]
