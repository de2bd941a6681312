"""What the map editor says of a file chosen with "Import JSON" that is no map it can draw.

The reading is ``mapFileRead`` in ``campaign/static/campaign/map-editor.js``; these run it under
Node, with the site's exports as the editor page gives them (``campaign.transfer.FORMAT_KINDS``).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from battles.jsontext import read_json
from campaign.transfer import FORMAT_KINDS
from tests.conftest import needs_service

EDITOR_JS = Path(__file__).resolve().parents[2] / "campaign/static/campaign/map-editor.js"
CROSSROADS = Path(__file__).resolve().parents[2] / "battles/engine/scenarios/crossroads.json"


@pytest.fixture(autouse=True)
def _node() -> None:
    # Skipped on a machine without Node; in CI (BRIDGEHEAD_REQUIRE_SERVICES=1) a failure.
    needs_service(shutil.which("node") is not None, "Node (to run the map editor's script)")


def _read(text: str) -> dict:
    script = (
        f"const m = require({json.dumps(str(EDITOR_JS))});"
        "const [t, e] = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "process.stdout.write(JSON.stringify(m.mapFileRead(t, e)));"
    )
    done = subprocess.run(
        ["node", "-e", script],
        input=json.dumps([text, FORMAT_KINDS]),
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


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
        "why": "That file is not JSON, so it holds no map (a map file is what Export JSON saves)."
    }
    assert _read("[1, 2]") == {"why": "That file cannot be drawn (it is not a scenario document)."}


def test_a_map_file_is_read_as_the_map():
    assert _read(CROSSROADS.read_text()) == {"map": json.loads(CROSSROADS.read_text())}
