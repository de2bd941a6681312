"""The map editor's server side: its page, the live check (the engine's validator, each problem
with the piece it names) and saving, with plain words for what is not JSON."""

from __future__ import annotations

import json

import pytest

from campaign.models import SavedMap
from campaign.services.maps import SPOT_CARD, problem_piece
from tests.web.campaign_world import CROSSROADS, login
from tests.web.test_campaign_battles import _url

pytestmark = pytest.mark.django_db


def _check(client, world, document):
    response = client.post(
        _url("map-check", world), json.dumps(document), content_type="application/json"
    )
    assert response.status_code == 200
    return response.json()["problems"]


def test_the_editor_page_is_the_gms(client, world):
    page = login(client, world, "gm").get(_url("map-add", world))
    assert page.status_code == 200
    assert b"data-map-editor" in page.content and b"map-editor.js" in page.content
    assert b"docs/scenario.md" not in page.content  # no repository paths in the help
    assert login(client, world, "player").get(_url("map-add", world)).status_code == 403
    check = client.post(_url("map-check", world), "{}", content_type="application/json")
    assert check.status_code == 403


def test_the_check_pins_each_problem_to_its_piece(client, world):
    login(client, world, "gm")
    scenario = json.loads(CROSSROADS.read_text())
    assert _check(client, world, scenario) == []
    # A plain spot inside the wood, which its card does not enter.
    scenario["sides"][0]["units"][0].update(position=[10, 16], card=SPOT_CARD)
    (spot,) = _check(client, world, scenario)
    assert spot["path"] == "sides[0].units[0].position"
    assert spot["piece"] == {"kind": "spot", "side": 0, "index": 0}
    assert spot["reason"] == "deployed inside impassable woods 'wood'"
    scenario["terrain"][1]["polygon"][2] = [99, 99]
    scenario["objectives"][0]["radius"] = -1
    by_path = {p["path"]: p for p in _check(client, world, scenario)}
    assert by_path["terrain[1].polygon[2]"]["piece"] == {"kind": "terrain", "index": 1, "corner": 2}
    assert by_path["objectives[0].radius"]["piece"] == {"kind": "objective", "index": 0}
    not_json = client.post(_url("map-check", world), "{", content_type="application/json")
    assert not_json.json()["problems"][0]["reason"].startswith("the file is not JSON")


def test_a_zone_and_a_spot_outside_it_are_pinned_to_the_zone_and_the_spot(client, world):
    login(client, world, "gm")
    scenario = json.loads(CROSSROADS.read_text())
    scenario["sides"][0]["zone"] = [[0, 0], [24, 0], [24, 6], [0, 6]]
    scenario["sides"][1]["zone"] = [[0, 18], [24, 18], [30, 24], [0, 24]]
    spot = scenario["sides"][0]["units"][0]
    spot.update(position=[12, 9], card=SPOT_CARD)
    (corner,) = _check(client, world, scenario)  # a zone off the table: nothing else is read
    assert corner["path"] == "sides[1].zone[2]"
    assert corner["piece"] == {"kind": "zone", "side": 1, "index": 0, "corner": 2}
    scenario["sides"][1]["zone"][2] = [24, 24]
    by_path = {p["path"]: p for p in _check(client, world, scenario)}
    assert by_path["sides[0].units[0].position"] == {
        "path": "sides[0].units[0].position",
        "reason": "outside the deployment zone of Blue Force",
        "piece": {"kind": "spot", "side": 0, "index": 0},
    }
    assert problem_piece("sides[0].zone") == {"kind": "zone", "side": 0, "index": 0}


def test_a_blank_table_says_what_it_lacks():
    assert problem_piece("sides[1].units") == {"kind": "side", "index": 1}
    assert problem_piece("table.width") is None
    assert problem_piece("buildings[3].card.hits") == {"kind": "building", "index": 3}


def test_saving_refuses_what_is_not_json_in_plain_words_and_keeps_a_drawn_map(client, world):
    login(client, world, "gm")
    empty = client.post(_url("map-add", world), {"name": "Mill", "scenario": " "})
    assert empty.status_code == 400
    refused = client.post(_url("map-add", world), {"name": "Mill", "scenario": "{oops"})
    assert "the scenario is not JSON: expecting property name" in refused.text
    assert "Expecting value: line 1 column 1 (char 0)" not in refused.text
    spot_a = {"id": "a-1", "position": [2, 2], "card": SPOT_CARD}
    spot_b = {"id": "b-1", "position": [20, 20], "card": SPOT_CARD}
    drawn = {
        "name": "Mill", "turn_limit": 6, "table": {"width": 24, "height": 24},
        "terrain": [], "buildings": [],
        "objectives": [{"id": "mill", "point": [12, 12], "sides": ["a"], "points_at_end": 3}],
        "sides": [{"id": "a", "name": "A", "units": [spot_a]},
                  {"id": "b", "name": "B", "units": [spot_b]}],
    }  # fmt: skip
    saved = client.post(_url("map-add", world), {"name": "Mill", "scenario": json.dumps(drawn)})
    assert saved.status_code == 302
    assert SavedMap.objects.get().scenario["ruleset"] == world.campaign.ruleset
