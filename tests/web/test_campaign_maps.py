"""The map editor's server side: its page, the live check (the engine's validator, each problem
with the piece it names) and saving, with plain words for what is not JSON."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from battles.engine.validation import MAX_SCENARIO_TEXT
from campaign.map_numbers import parse_points
from campaign.models import SavedMap
from campaign.rules.values import TURN_LIMIT_MAX
from campaign.services.maps import SPOT_CARD, problem_piece
from tests.web.campaign_world import CROSSROADS, login
from tests.web.test_campaign_battles import _url
from units.cardtext import parse_card
from units.models import Ruleset, UnitType

pytestmark = pytest.mark.django_db


def _check(client, world, document, status=200):
    response = client.post(
        _url("map-check", world), json.dumps(document), content_type="application/json"
    )
    assert response.status_code == status
    return response.json()["problems"]


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ("{oops}", "the file is not JSON: expecting property name"),
        ("", "the file is empty"),
        ("[1, 2]", "must be a scenario document (an object)"),
        ('"a map"', "must be a scenario document (an object)"),
        ("[" * 2000 + "]" * 2000, "the file is nested far too deep to read"),
    ],
)
def test_a_hand_made_check_that_is_no_map_is_a_bad_request(client, world, body, reason):
    # The editor sends its map as an object: a body that is none is answered 400, saying why;
    # a map document with problems is the check working, and answered 200.
    login(client, world, "gm")
    response = client.post(_url("map-check", world), body, content_type="application/json")
    assert response.status_code == 400
    (problem,) = response.json()["problems"]
    assert problem["reason"].startswith(reason) and problem["path"] == ""
    assert _check(client, world, {})  # an empty map: problems, answered 200


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
    not_json = client.post(_url("map-check", world), "{oops}", content_type="application/json")
    assert not_json.json()["problems"][0]["reason"].startswith("the file is not JSON")


def test_the_live_check_holds_the_map_to_a_pasted_scenario_s_length(client, world):
    # The probe's map: one objective naming many sides, well under the 1 MB a request may hold.
    login(client, world, "gm")
    scenario = json.loads(CROSSROADS.read_text())
    scenario["objectives"][0]["sides"] = [f"s{i}" for i in range(30_000)]
    text = json.dumps(scenario)
    assert MAX_SCENARIO_TEXT < len(text) < 1_000_000
    (refused,) = _check(client, world, json.loads(text), status=400)
    assert refused == {
        "path": "",
        "reason": f"must be at most {MAX_SCENARIO_TEXT} characters of JSON, got {len(text)}",
        "piece": None,
    }


def test_a_maps_turn_limit_is_one_the_set_up_launches(client, world):
    # The engine fights up to 100 turns; the set-up takes at most TURN_LIMIT_MAX. A map the
    # editor kept with more would be offered with a turn limit its Launch refuses.
    login(client, world, "gm")
    scenario = json.loads(CROSSROADS.read_text())
    scenario["turn_limit"] = TURN_LIMIT_MAX + 1
    (problem,) = _check(client, world, scenario)
    assert problem == {
        "path": "turn_limit",
        "reason": f"must be at most {TURN_LIMIT_MAX}, the most a campaign battle's set-up "
        f"takes, got {TURN_LIMIT_MAX + 1}",
        "piece": None,
    }
    saved = client.post(_url("map-add", world), {"name": "Long", "scenario": json.dumps(scenario)})
    assert saved.status_code == 400 and not SavedMap.objects.exists()
    scenario["turn_limit"] = TURN_LIMIT_MAX
    assert _check(client, world, scenario) == []
    editor = client.get(_url("map-add", world)).text
    assert f'max="{TURN_LIMIT_MAX}" step="1" data-turn-limit' in editor


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
    assert "The scenario is not JSON: expecting property name" in refused.text
    assert "Expecting value: line 1 column 1 (char 0)" not in refused.text
    for text, reason in (
        ("[" * 1100 + "]" * 1100, "the scenario is nested far too deep to read"),
        ('{"a": ' + "1" * 4301 + "}", "the scenario holds a number far too long to read"),
    ):
        refused = client.post(_url("map-add", world), {"name": "Mill", "scenario": text})
        # On the page a sentence on its own, with a capital; the map's check says it as is.
        assert refused.status_code == 400 and reason.replace("the", "The", 1) in refused.text
        deep = client.post(_url("map-check", world), text, content_type="application/json")
        assert deep.status_code == 400 and deep.json()["problems"][0]["reason"] == (
            reason.replace("the scenario", "the file")
        )
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


def _house() -> UnitType:
    text = (Path(__file__).parents[2] / "units/library/combined_arms/house.card").read_text()
    return UnitType.objects.create(
        name="House", ruleset=Ruleset.COMBINED_ARMS, kind=UnitType.Kind.BUILDING,
        card=parse_card(text),
    )  # fmt: skip


def _numbers(**extra) -> dict[str, str]:
    """The numbers form as a GM without JavaScript fills it: a new map from an empty table."""
    data = {
        "numbers": "1", "name": "Ford by numbers", "table_width": "24", "table_height": "24",
        "turn_limit": "6", "terrain_rows": "2", "building_rows": "1", "objective_rows": "2",
        "side_0_name": "Raiders", "side_0_zone": "0,0 24,0 24,6 0,6", "side_0_spots": "4,2 8,2",
        "side_1_name": "Garrison", "side_1_zone": "0,18; 24,18; 24,24; 0,24",
        "side_1_spots": "4,22 8,22",
        "terrain_0_kind": "woods", "terrain_0_corners": "2,8 6,8 6,12 2,12",
        "terrain_1_kind": "river", "terrain_1_corners": "0,14 24,14 24,16 0,16",
        "objective_0_id": "ford", "objective_0_x": "12", "objective_0_y": "15",
        "objective_0_radius": "3", "objective_0_side": "attackers",
        "objective_0_per_turn": "1", "objective_0_at_end": "3",
        "objective_1_id": "barn", "objective_1_x": "18", "objective_1_y": "9",
        "objective_1_radius": "2", "objective_1_side": "defenders",
        "objective_1_per_turn": "0", "objective_1_at_end": "2",
    }  # fmt: skip
    data.update(extra)
    return data


def _errors_of(response, field: str) -> str:
    match = re.search(rf'id="id_{field}_error">([^<]*)<', response.text)
    return match[1] if match else ""


def test_without_javascript_a_map_is_drawn_in_numbers_and_saved(client, world):
    house = _house()
    login(client, world, "gm")
    page = client.get(_url("map-add", world))
    assert 'id="numbers-form"' in page.text and 'name="side_0_zone"' in page.text
    data = _numbers(building_0_card=str(house.pk), building_0_corners="14,8 17,8 17,11 14,11")
    more = client.post(_url("map-add", world), {**data, "more": "1"})
    assert 'name="terrain_3_kind"' in more.text and 'name="objective_2_x"' in more.text
    assert 'value="2,8 6,8 6,12 2,12"' in more.text and not SavedMap.objects.exists()
    assert '<option value="defenders">Side 2 (Garrison)</option>' in more.text
    saved = client.post(_url("map-add", world), data)
    assert saved.status_code == 302, re.findall(r'field-errors"[^>]*>([^<]*)', saved.text)
    scenario = SavedMap.objects.get(name="Ford by numbers").scenario
    assert [t["kind"] for t in scenario["terrain"]] == ["woods", "river"]
    assert scenario["buildings"][0]["card"] == house.card
    assert scenario["sides"][1]["zone"] == [[0, 18], [24, 18], [24, 24], [0, 24]]
    assert [u["position"] for u in scenario["sides"][0]["units"]] == [[4, 2], [8, 2]]
    assert [o["id"] for o in scenario["objectives"]] == ["ford", "barn"]
    assert saved["Location"].endswith(f"?scenario=map-{SavedMap.objects.get().pk}")


def test_more_pieces_on_a_map_half_written_asks_nothing_of_it_yet(client, world):
    # "More pieces" before the map has a name or a table: the browser lets it through (the
    # button does not validate), and the page only adds rows; nothing is judged or saved.
    login(client, world, "gm")
    page = client.get(_url("map-add", world))
    (button,) = re.findall(r'<button[^>]*name="more"[^>]*>', page.text)
    assert "formnovalidate" in button
    half = _numbers(name="", table_width="", terrain_0_corners="2,8 6,8")
    more = client.post(_url("map-add", world), {**half, "more": "1"})
    assert more.status_code == 200 and 'name="terrain_3_kind"' in more.text
    assert 'value="2,8 6,8"' in more.text and not SavedMap.objects.exists()
    assert "This field is required" not in more.text and "field-errors" not in more.text
    assert _errors_of(more, "name") == ""


def test_without_javascript_each_problem_is_shown_at_the_piece_it_names(client, world):
    login(client, world, "gm")
    bad = _numbers(
        side_0_spots="4,2 8,9",  # the second spot is outside the raiders' zone
        terrain_1_corners="0,14 30,14 24,16 0,16",  # a corner off the table
        objective_1_radius="-1",
    )
    refused = client.post(_url("map-add", world), bad)
    assert refused.status_code == 400 and not SavedMap.objects.exists()
    assert _errors_of(refused, "terrain_1_corners") == "(30, 14) is off the 24″ × 24″ table."
    assert _errors_of(refused, "objective_1_radius") == "A radius is more than 0 inches."
    assert _errors_of(refused, "terrain_0_corners") == ""
    # The page opens on the first piece at fault, not at the editor's top.
    assert re.search(r'<input[^>]*name="terrain_1_corners"[^>]*autofocus', refused.text)
    assert refused.text.count("autofocus") == 1
    fixed = {**bad, "terrain_1_corners": "0,14 24,14 24,16 0,16", "objective_1_radius": "2"}
    zone = client.post(_url("map-add", world), fixed)
    assert _errors_of(zone, "side_0_spots") == "Spot 2: outside the deployment zone of Raiders."
    assert 'id="map-side-0"' in zone.text and "numbers-piece piece-errors" in zone.text
    typo = client.post(_url("map-add", world), {**fixed, "side_0_zone": "0,0 24,0 24"})
    assert _errors_of(typo, "side_0_zone") == "Point 3 (“24”) is not x,y in inches."
    assert not SavedMap.objects.exists()


def test_without_javascript_a_piece_half_given_is_refused_in_words_on_what_it_lacks(client, world):
    # Each read like code: "Must be a non-empty string, got a string", "Must be a number, got
    # null", "Must be 0..9999, got 100000", "Required Required Required", and a spot in a lake
    # named the lake by the id this form made for it ('water-3').
    login(client, world, "gm")
    bad = _numbers(
        terrain_2_kind="", terrain_2_corners="20,20 22,20 22,22",
        building_0_card="", building_0_corners="14,8 17,8 17,11 14,11",
        objective_1_y="", objective_0_per_turn=str(10**20),
    )  # fmt: skip
    bad.update(terrain_rows="3", building_rows="1")
    refused = client.post(_url("map-add", world), bad)
    assert refused.status_code == 400 and not SavedMap.objects.exists()
    said = {
        "terrain_2_kind": "Choose its kind, or clear its corners to remove it.",
        "building_0_card": "Choose its building, or clear its corners to remove it.",
        "objective_1_y": "Give it as well as x, or clear both to remove the objective.",
        "objective_0_per_turn": "At most 9,999 points.",
    }
    for field, words in said.items():
        assert _errors_of(refused, field) == words.replace("'", "&#x27;"), field
    lake = _numbers(terrain_2_kind="water", terrain_2_corners="3,1 9,1 9,3 3,3",
                    terrain_rows="3")  # fmt: skip
    wet = client.post(_url("map-add", world), lake)
    assert _errors_of(wet, "side_0_spots").startswith("Spot 1: deployed inside impassable water")
    assert "(Terrain 3)" in _errors_of(wet, "side_0_spots")
    assert "water-3" not in wet.text.split('id="numbers-form"')[1]


def test_corners_are_read_as_x_y_pairs():
    assert parse_points("0,0 24,0; 24,6\n0,6") == [[0, 0], [24, 0], [24, 6], [0, 6]]
    assert parse_points("1.5,2") == [[1.5, 2]]
    with pytest.raises(ValueError, match="point 1"):
        parse_points("nan,1")


def test_an_empty_map_is_checked_in_the_editors_words(client, world):
    login(client, world, "gm")
    empty = {"table": {"width": 24, "height": 24}, "turn_limit": 6, "terrain": [],
             "buildings": [], "objectives": [],
             "sides": [{"id": "a", "name": "Attackers", "units": []},
                       {"id": "b", "name": "Defenders", "units": []}]}  # fmt: skip
    reasons = {p["path"]: p["reason"] for p in _check(client, world, empty)}
    assert (
        reasons["sides[0].units"]
        == "give the side a deployment spot: its units deploy on its spots"
    )
    assert "neither side has a reason to move" in reasons["objectives"]
    assert not any(r.split()[-1] == "unit" or "correctly refuse" in r for r in reasons.values())
    # Saved as JSON, or drawn in numbers without JavaScript: the same words.
    pasted = client.post(_url("map-add", world), {"name": "Empty", "scenario": json.dumps(empty)})
    assert pasted.status_code == 400 and "neither side has a reason to move" in pasted.text
    numbers = client.post(_url("map-add", world), _numbers(objective_rows="0", **{
        f"objective_{i}_{k}": "" for i in (0, 1)
        for k in ("id", "x", "y", "radius", "side", "per_turn", "at_end")}))  # fmt: skip
    assert numbers.status_code == 400 and "neither side has a reason to move" in numbers.text
    for page in (pasted, numbers):
        assert "correctly refuse" not in page.text


def test_the_table_is_sized_within_the_engines_limit_in_both_editors(client, world):
    """An eight-foot table at most (the engine's ``MAX_TABLE``): the drawn editor's boxes stop
    there, and the numbers form refuses more beside the box, not as the engine's path."""
    login(client, world, "gm")
    page = client.get(_url("map-add", world)).text
    assert 'min="6" max="96.0" step="0.5" data-table="width"' in page
    assert 'min="6" max="96.0" step="0.5" data-table="height"' in page
    refused = client.post(_url("map-add", world), _numbers(table_width="120"))
    assert refused.status_code == 400 and not SavedMap.objects.exists()
    said = "A table is at most 96 inches a side (an eight-foot table)."
    assert _errors_of(refused, "table_width") == said


def test_a_map_sent_without_a_name_is_asked_for_one_in_the_maps_words(client, world):
    """Both of the editor's forms said Django's "This field is required." of a blank name."""
    login(client, world, "gm")
    pasted = client.post(_url("map-add", world), {"name": "", "scenario": CROSSROADS.read_text()})
    numbers = client.post(_url("map-add", world), _numbers(name=""))
    long = client.post(_url("map-add", world), _numbers(name="M" * 201))
    assert (pasted.status_code, numbers.status_code, long.status_code) == (400, 400, 400)
    assert _errors_of(pasted, "saved_map_name") == "Give the map a name."
    assert _errors_of(numbers, "name") == "Give the map a name."
    assert _errors_of(long, "name") == (
        "A map&#x27;s name takes at most 200 characters; this one has 201."
    )
    assert "This field is required" not in pasted.text + numbers.text
    assert not SavedMap.objects.exists()
