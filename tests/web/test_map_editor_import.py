"""What the map editor says of a file chosen with "Import JSON", or of text typed into its JSON
field, that is no map it can draw.

The reading is ``mapFileRead`` in ``campaign/static/campaign/map-editor.js``; these run it under
Node, with the site's exports as the editor page gives them
(``campaign.transfer.format.FORMAT_KINDS``).
"""

from __future__ import annotations

import json

import pytest

from battles.jsontext import read_json
from campaign.transfer.format import FORMAT_KINDS
from tests.web.node import ROOT, needs_node, node_call

EDITOR_JS = ROOT / "campaign/static/campaign/map-editor.js"
CROSSROADS = ROOT / "battles/engine/scenarios/crossroads.json"


@pytest.fixture(autouse=True)
def _node() -> None:
    needs_node("the map editor's script")


def _read(text: str, what: str | None = None) -> dict:
    """``mapFileRead`` of ``text``: a file's (by default) or ``what``'s ("The JSON field")."""
    return node_call(EDITOR_JS, "mapFileRead", text, FORMAT_KINDS, *([what] if what else []))


def test_a_campaign_export_is_told_for_what_it_is_and_where_it_goes():
    """It said "its table needs a width and a height above 0", as if it were a broken map."""
    export = {"format": "bridgehead.campaign", "version": 1, "campaign": {"name": "Op. Test"}}
    assert _read(json.dumps(export)) == {
        "why": "That file is a Bridgehead campaign export, not a map: import it on the campaign "
        'import page (My campaigns, "Import a campaign from an export file").'
    }
    force = {"format": "bridgehead.force", "version": 1, "force": {}}
    assert _read(json.dumps(force)) == {"why": "That file is a Bridgehead force export, not a map."}


def test_a_file_cut_short_is_told_so_in_the_campaign_imports_words():
    """It showed the browser's own message ("Unexpected end of JSON input")."""
    whole = CROSSROADS.read_text()
    cut = whole[: len(whole) // 2]
    said = _read(cut)["why"]
    with pytest.raises(ValueError) as server:
        read_json(cut, "that file")
    assert said == f"{str(server.value)[0].upper()}{str(server.value)[1:]}."
    assert said.startswith("That file is cut short: it stops at line ")
    assert _read('{"name": "Mill')["why"].startswith("That file is cut short: it stops at line 1")


def test_an_empty_file_or_one_that_is_no_json_is_told_in_plain_words():
    assert _read("  \n") == {"why": "That file is empty."}
    assert _read("table: 24 x 24") == {
        "why": "That file is not JSON at line 1, column 1, so it holds no map (a map file is "
        "what Export JSON saves)."
    }
    assert _read("[1, 2]") == {"why": "That file cannot be drawn (it is not a scenario document)."}


def test_a_map_file_is_read_as_the_map():
    assert _read(CROSSROADS.read_text()) == {"map": json.loads(CROSSROADS.read_text())}


def test_the_json_field_is_told_where_it_stops_being_json_in_the_same_words():
    """Text typed into the JSON field that is not JSON was told in the browser's own message
    ("Unexpected token } in JSON at position 42", worded by each browser its own way): it is
    read as an imported file is, and told where it stops being JSON, as the server tells it."""
    typed = '{"name": "Mill",\n "table": {"width": 24,, "height": 24}}'
    said = _read(typed, "The JSON field")["why"]
    assert said == (
        "The JSON field is not JSON at line 2, column 24, so it holds no map (a map file is "
        "what Export JSON saves)."
    )
    with pytest.raises(ValueError) as server:
        read_json(typed, "the scenario")
    assert "at line 2, column 24" in str(server.value)
    assert _read('{"name": "Mill",\n "table": {', "The JSON field")["why"] == (
        "The JSON field is cut short: it stops at line 2 before its JSON is closed (copy or "
        "download it again, whole)."
    )
    assert _read("", "The JSON field") == {"why": "The JSON field is empty."}
    assert _read("[1, 2]", "The JSON field") == {
        "why": "The JSON field cannot be drawn (it is not a scenario document)."
    }
    for bad in ["{} x", "[1, 2,]", '{"a": tru}', '{"a": "\\q"}', "01", "{'a': 1}"]:
        assert _read(bad)["why"].startswith("That file is not JSON at line 1, column ")
