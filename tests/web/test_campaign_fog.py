"""Fog of war as a campaign setting: the GM turns it on; then each player reads a campaign
battle's report, log, replay and downloaded log as their side saw it, a member who fought on
neither side sees the outcome only, and the GM still sees everything."""

from __future__ import annotations

import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles.engine import parse_scenario
from battles.fog import hidden_events
from battles.report import unit_sides
from battles.selectors import log_events
from campaign.models import Campaign
from campaign.services import campaign_update
from tests.web.campaign_world import login
from tests.web.pages import as_drawn

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def _url(name, world, *args):
    return reverse(f"campaign:{name}", args=[world.campaign.pk, *args])


def _fog(world, on: bool = True) -> None:
    Campaign.objects.filter(pk=world.campaign.pk).update(fog_of_war=on)


def _hidden(world, side: str) -> frozenset[int]:
    battle = world.engine_battle.battle
    sides = unit_sides(parse_scenario(battle.scenario))
    return hidden_events(log_events(battle.log), sides, side)


def _downloaded(client, world) -> list[dict]:
    response = client.get(_url("battle-log", world, world.engine_battle.pk))
    assert response.status_code == 200
    return json.loads(response.content)["events"]


def test_it_is_off_by_default_and_the_gm_turns_it_on(client, world):
    assert world.campaign.fog_of_war is False
    login(client, world, "gm")
    page = client.get(_url("dashboard", world))
    assert 'name="fog_of_war"' in page.text
    response = client.post(
        _url("settings", world),
        {
            "name": "Op. Pages",
            "apply_mode": "auto",
            "other_forces_visible": "summary",
            "fog_of_war": "on",
        },
    )
    assert response.status_code == 302
    campaign = Campaign.objects.get(pk=world.campaign.pk)
    assert campaign.fog_of_war is True
    assert campaign.apply_mode == "auto"
    assert campaign.other_forces_visible == "summary"
    assert "fog of war" in client.get(_url("dashboard", world)).text


def test_it_saves_settings_under_htmx_and_says_what_is_wrong(client, world):
    login(client, world, "co_gm")
    response = client.post(
        _url("settings", world),
        {"name": "Op. Pages", "apply_mode": "review", "other_forces_visible": "full"},
        **HTMX,
    )
    assert response.status_code == 200
    assert response["HX-Redirect"] == _url("dashboard", world)
    assert Campaign.objects.get(pk=world.campaign.pk).fog_of_war is False
    bad = client.post(_url("settings", world), {"apply_mode": "never"}, **HTMX)
    assert bad.status_code == 200
    assert 'id="settings-form"' in bad.text
    assert "field-errors" in bad.text


def test_a_rename_from_a_dashboard_opened_before_fog_was_turned_on_leaves_it_on(client, world):
    # Sent from a dashboard drawn before a co-GM turned fog of war on, a rename turned it off.
    login(client, world, "gm")
    page = client.get(_url("dashboard", world)).text
    drawn = as_drawn(page)
    shown = {"name": "Op. Pages", "apply_mode": "review", "other_forces_visible": "full"}
    campaign_update(campaign=world.campaign, fog_of_war=True, actor=world.users["co_gm"])
    renamed = client.post(_url("settings", world), {**shown, "name": "Op. Ford", "drawn": drawn})
    assert renamed.status_code == 302
    campaign = Campaign.objects.get(pk=world.campaign.pk)
    assert (campaign.name, campaign.fog_of_war) == ("Op. Ford", True)
    # Renamed on both sides: refused beside the name, nothing written.
    clash = client.post(_url("settings", world), {**shown, "name": "Op. Mill", "drawn": drawn,
                                                  "other_forces_visible": "summary"})  # fmt: skip
    assert clash.status_code == 400
    assert clash.context["settings_form"].errors["name"] == [
        "Since this form was opened, this has become Op. Ford: save again to make it Op. Mill "
        "all the same."
    ]
    campaign = Campaign.objects.get(pk=world.campaign.pk)
    assert (campaign.name, campaign.other_forces_visible) == ("Op. Ford", "full")


def test_a_player_may_not_change_the_settings(client, world):
    login(client, world, "player")
    response = client.post(_url("settings", world), {"apply_mode": "auto", "fog_of_war": "on"})
    assert response.status_code == 403
    assert Campaign.objects.get(pk=world.campaign.pk).fog_of_war is False


def test_without_fog_every_member_downloads_the_whole_log(client, world):
    total = len(log_events(world.engine_battle.battle.log))
    for role in ("player", "rival", "spectator", "gm"):
        login(client, world, role)
        assert len(_downloaded(client, world)) == total, role


def test_under_fog_each_player_downloads_what_their_side_saw(client, world):
    _fog(world)
    total = len(log_events(world.engine_battle.battle.log))
    blue, red = _hidden(world, "blue"), _hidden(world, "red")
    assert blue and red, "the crossroads battle has concealed moves on both sides"
    # The player's units fought for blue, the rival's for red.
    login(client, world, "player")
    assert len(_downloaded(client, world)) == total - len(blue)
    login(client, world, "rival")
    assert len(_downloaded(client, world)) == total - len(red)
    for role in ("gm", "co_gm"):
        login(client, world, role)
        assert len(_downloaded(client, world)) == total, role
    # Someone who fought on neither side sees the outcome only: no log to download.
    login(client, world, "spectator")
    refused = client.get(_url("battle-log", world, world.engine_battle.pk))
    assert refused.status_code == 403


def test_under_fog_a_player_reads_the_report_as_their_side_saw_it(client, world):
    _fog(world)
    total = len(log_events(world.engine_battle.battle.log))
    login(client, world, "player")
    page = client.get(_url("battle", world, world.engine_battle.pk))
    assert page.status_code == 200
    assert "you see this battle as Red Company saw it" in page.text
    assert "Map replay" in page.text
    assert "as Red Company saw them" in page.text
    assert f"of {total} events" not in page.text
    # No choosing another side's view, whatever the query says.
    assert "Whose view" not in page.text
    peek = client.get(_url("battle", world, world.engine_battle.pk) + "?as=red")
    assert "as Red Company saw them" in peek.text
    # The htmx log filter stays fogged too.
    part = client.get(_url("battle", world, world.engine_battle.pk) + "?kind=attack&as=", **HTMX)
    assert "as Red Company saw them" in part.text


def test_under_fog_the_gm_sees_everything_and_may_pick_a_side(client, world):
    _fog(world)
    total = len(log_events(world.engine_battle.battle.log))
    login(client, world, "gm")
    page = client.get(_url("battle", world, world.engine_battle.pk))
    assert f"of {total} events" in page.text
    assert "Whose view" in page.text
    assert "Fog of war: you see" not in page.text


def test_under_fog_a_member_who_did_not_fight_sees_the_outcome_only(client, world):
    _fog(world)
    login(client, world, "spectator")
    page = client.get(_url("battle", world, world.engine_battle.pk))
    assert page.status_code == 200
    assert "you see its outcome only" in page.text
    assert "Outcome" in page.text
    assert "Map replay" not in page.text
    assert 'id="replay-frames"' not in page.text
    # The log filter answers with the page, not a log.
    part = client.get(_url("battle", world, world.engine_battle.pk) + "?kind=attack", **HTMX)
    assert part.status_code == 200
    assert "Map replay" not in part.text


def test_the_live_progress_answer_is_fogged_too(client, world):
    _fog(world)
    login(client, world, "rival")
    response = client.get(_url("battle-progress", world, world.engine_battle.pk), **HTMX)
    assert response.status_code == 286
    assert "as Blue Battalion saw it" in response.content.decode()


def test_a_table_battle_under_fog_still_shows_its_result(client, world):
    _fog(world)
    login(client, world, "spectator")
    page = client.get(_url("battle", world, world.table_battle.pk))
    assert page.status_code == 200
    assert "Skirmish at the mill" in page.text


def _svg_units(page: str) -> set[str]:
    """The units the server-drawn table places (its units layer)."""
    import re

    layer = page.split('<g class="units-layer">', 1)[1].split("</svg>", 1)[0]
    return set(re.findall(r'data-unit="([^"]+)"', layer))


def test_every_surface_shows_a_fogged_player_only_what_their_side_saw(client, world):
    """The page's drawn table, its replay data, the log partial and the download, for the
    player (blue) under fog, against the log as blue saw it."""
    from battles.frames import replay_frames, unseen_at_deployment

    _fog(world)
    battle = world.engine_battle.battle
    scenario = parse_scenario(battle.scenario)
    events = log_events(battle.log)
    hidden = _hidden(world, "blue")
    frames = replay_frames(scenario, events, viewer="blue", hidden=hidden)
    unseen = unseen_at_deployment(frames)
    assert unseen, "red has units concealed at deployment in this battle"
    everyone = {u.id for u in scenario.units()}
    login(client, world, "player")
    page = client.get(_url("battle", world, world.engine_battle.pk)).text
    # The drawing (what the page source and the page without script show).
    assert _svg_units(page) == everyone - unseen
    for unit in unseen:
        assert f'data-unit="{unit}"' not in page
    # The replay data in the page is the fogged one.
    embedded = page.split('id="replay-frames"', 1)[1].split(">", 1)[1].split("</script>", 1)[0]
    # (The page names the units as the rosters do; what fog decides is who is drawn, where.)
    embedded, expected = json.loads(embedded), json.loads(json.dumps(frames))
    drawn = ("turn", "active", "units", "buildings", "fire", "paths", "scores")
    assert [{k: f[k] for k in drawn} for f in embedded["frames"]] == [
        {k: f[k] for k in drawn} for f in expected["frames"]
    ]
    assert embedded["units"].keys() == expected["units"].keys()
    # The download holds exactly the events blue saw, without the seed that would give the
    # hidden ones again, nor the digest of the set-up that holds red's hidden deployment.
    stored = json.loads(battle.log.events)["events"]
    saw = [e for i, e in enumerate(stored) if i not in hidden]
    saw[0] = {**saw[0], "seed": None, "digest": None}
    assert _downloaded(client, world) == saw
    # The htmx log partial counts the same events as the fogged log's turns.
    part = client.get(_url("battle", world, world.engine_battle.pk) + "?kind=", **HTMX).text
    # Side "blue" is the player's force, Red Company: the page names it so.
    assert "as Red Company saw them" in part and 'data-unit="' not in part
    # The GM, under the same fog, is drawn everything.
    login(client, world, "gm")
    assert _svg_units(client.get(_url("battle", world, world.engine_battle.pk)).text) == everyone


def test_the_replay_data_gives_nothing_of_a_unit_while_the_reader_cannot_see_it(client, world):
    """Out of sight a unit has no place in the replay's data, nor hits, nor Skill (what they
    come to there is its side's secret); and a unit the reader never sees has no card there."""
    _fog(world)
    login(client, world, "player")
    page = client.get(_url("battle", world, world.engine_battle.pk)).text
    embedded = page.split('id="replay-frames"', 1)[1].split(">", 1)[1].split("</script>", 1)[0]
    frames = json.loads(embedded)
    out_of_sight = [at for f in frames["frames"] for at in f["units"].values() if at[0] is None]
    assert out_of_sight, "red has a unit out of blue's sight in this battle"
    assert all(at[:4] == [None, None, None, None] for at in out_of_sight)
    seen = {uid for f in frames["frames"] for uid, at in f["units"].items() if at[0] is not None}
    for uid, facts in frames["units"].items():
        card = (facts["size"], facts["hits"], facts["r"])
        assert (None in card) is (uid not in seen), uid
    # The GM's replay has every unit's state all along.
    login(client, world, "gm")
    page = client.get(_url("battle", world, world.engine_battle.pk)).text
    assert '"units": {"' in page and "null, null" not in page


def test_under_fog_a_spectator_gets_the_outcome_only_on_the_page_and_the_download(client, world):
    _fog(world)
    login(client, world, "spectator")
    page = client.get(_url("battle", world, world.engine_battle.pk)).text
    assert "you see its outcome only" in page and 'class="units-layer"' not in page
    assert client.get(_url("battle-log", world, world.engine_battle.pk)).status_code == 403
    # Nor is the download offered, with a count of events they would not get.
    assert _url("battle-log", world, world.engine_battle.pk) not in page
    assert "Download the log" not in page


def test_the_drawn_table_speaks_the_campaigns_names_and_colours_and_keeps_the_fog(client, world):
    """The server-drawn map of a campaign battle: markers named and described as the rosters
    name them, each in its force's colour, the sides called by their forces; under fog the
    concealed enemy is neither drawn nor counted."""
    import re

    login(client, world, "gm")
    page = client.get(_url("battle", world, world.engine_battle.pk)).text
    svg = page.split('<svg class="table-map', 1)[1].split("</svg>", 1)[0]
    titles = re.findall(r'<g class="unit side-\d" data-unit="[^"]+"[^>]*>\s*<title>([^<]+)', svg)
    assert "Squad 1 (Red Company): Rifle Squad, Size 1, 1 Hit, Skill 3" in titles
    assert "Iron Wolf (Blue Battalion): Mech, Size 4, 3 Hits, Skill 4" in titles
    assert not any("(squad-1" in t or "(iron-wolf" in t for t in titles)
    # Red Company wears red, Blue Battalion blue (campaign.pages.sides.force_colour).
    assert 'style="fill: #b3261e"' in svg and 'style="fill: #1f5fa8"' in svg
    desc = svg.split("<desc", 1)[1].split("</desc>", 1)[0]
    # Counted in words: "1 building", "1 unit of Blue Battalion".
    assert "2 units of Red Company against 1 unit of Blue Battalion." in desc
    assert "1 building," in desc
    assert "Force" not in desc
    # The fogged player: what her side did not see is not drawn, named or counted.
    from battles.frames import replay_frames, unseen_at_deployment

    _fog(world)
    battle = world.engine_battle.battle
    scenario = parse_scenario(battle.scenario)
    frames = replay_frames(scenario, log_events(battle.log), viewer="blue",
                           hidden=_hidden(world, "blue"))  # fmt: skip
    unseen = unseen_at_deployment(frames)
    login(client, world, "player")
    page = client.get(_url("battle", world, world.engine_battle.pk)).text
    svg = page.split('<svg class="table-map', 1)[1].split("</svg>", 1)[0]
    assert _svg_units(page) == {u.id for u in scenario.units()} - unseen
    enemy_drawn = len([u for u in scenario.units() if u.side == "red" and u.id not in unseen])
    assert enemy_drawn == 0
    # The sentence for screen readers counts the units drawn: none of the enemy's.
    desc = svg.split("</desc>", 1)[0]
    assert desc.endswith("against no unit of Blue Battalion in sight.")
    # The only enemy, Iron Wolf, was concealed at deployment.
    engine_ids = world.engine_battle.engine_units.items()
    assert unseen == {eid for eid, pk in engine_ids if pk == world.enemy_unit.pk}
    assert "Iron Wolf" not in svg


def _events_beside_the_download(page: str) -> int:
    links = page.split('class="report-links"', 1)[1].split("</p>", 1)[0]
    return int(re.search(r"Download the log \(JSON\)</a>\s*· (\d+) events", links)[1])


def test_the_count_beside_the_download_is_what_the_reader_downloads(client, world):
    _fog(world)
    battle_url = _url("battle", world, world.engine_battle.pk)
    login(client, world, "player")
    page = client.get(battle_url).text
    downloaded = len(_downloaded(client, world))
    assert downloaded < len(log_events(world.engine_battle.battle.log))
    assert _events_beside_the_download(page) == downloaded
    # The GM downloads the whole log, whichever side's eyes the page is seen through.
    login(client, world, "gm")
    downloaded = len(_downloaded(client, world))
    assert downloaded == len(log_events(world.engine_battle.battle.log))
    for query in ("", "?as=blue", "?as=red"):
        assert _events_beside_the_download(client.get(battle_url + query).text) == downloaded


def _log_count(page: str) -> tuple[int, int]:
    found = re.search(r"Showing (\d+) of (\d+) events", page)
    return int(found[1]), int(found[2])


def test_under_fog_a_player_is_told_one_count_of_the_events_their_side_saw(client, world):
    _fog(world)
    battle_url = _url("battle", world, world.engine_battle.pk)
    for role in ("player", "rival"):
        login(client, world, role)
        page = client.get(battle_url).text
        downloaded = len(_downloaded(client, world))
        assert _log_count(page) == (downloaded, downloaded), role
        assert _events_beside_the_download(page) == downloaded, role
        # What their side did not see is marked, and said to be no event of the count.
        veiled = page.count("activates a unit out of sight.")
        assert veiled
        assert f"the log also marks {veiled} activation" in page, role
    # The GM, seeing everything, is told of nothing out of sight.
    page = login(client, world, "gm").get(battle_url).text
    total = len(log_events(world.engine_battle.battle.log))
    assert _log_count(page) == (total, total) and "the log also marks" not in page


def _log_read(client, url: str) -> tuple[str, bool]:
    """The page at ``url``, and whether drawing it read the events of a battle's log."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    events = '"battles_battlelog"."events"'
    return response.text, any(events in q["sql"] for q in queries.captured_queries)


def test_a_battles_log_is_read_only_for_a_page_that_draws_it(client, world):
    """A big battle's log runs to megabytes: the outcome a member who did not fight reads, the
    battle's cards and the GM's review of a Revert are drawn without it; the GM's report and a
    fighting player's, which draw the log and the replay, read it."""
    _fog(world)
    battle = _url("battle", world, world.engine_battle.pk)
    login(client, world, "spectator")
    page, read = _log_read(client, battle)
    assert "you see its outcome only" in page and not read
    winner = world.engine_battle.battle.outcome.winner
    assert "won</strong>" in page if winner else "A draw" in page
    assert page.count('<tr class="removed-') == len(world.engine_battle.engine_units)
    login(client, world, "gm")
    for url in (_url("battle-cards", world, world.engine_battle.pk),
                _url("battle-revert", world, world.engine_battle.pk)):  # fmt: skip
        assert not _log_read(client, url)[1], url
    page, read = _log_read(client, battle)
    assert read and 'id="replay-frames"' in page
    login(client, world, "rival")
    page, read = _log_read(client, battle)
    assert read and "as Blue Battalion saw it" in page
