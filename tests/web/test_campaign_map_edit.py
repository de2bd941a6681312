"""A saved map edited in place (campaign/services/maps.py: ``saved_map_edit``): opened in the
map editor as it was saved, changed, drawn, as numbers or as a pasted document, and kept under
its own row, checked as a new map is; the battles fought on it keep their table."""

from __future__ import annotations

import html
import json
import re
from unittest import mock

import pytest
from django.core.exceptions import PermissionDenied

from campaign.models import CampaignBattle, SavedMap
from campaign.services import campaign_create
from campaign.services.maps import saved_map_create, saved_map_edit
from tests.web.campaign_world import CROSSROADS, login
from tests.web.test_campaign_battles import _free_all, _setup_data, _url
from tests.web.test_campaign_maps import _errors_of, _numbers

pytestmark = pytest.mark.django_db


def _saved(world, name: str = "Mill Road") -> SavedMap:
    scenario = dict(json.loads(CROSSROADS.read_text()), name=name)
    return saved_map_create(campaign=world.campaign, name=name, text=json.dumps(scenario))


def _json_field(page: str) -> dict:
    """The scenario document the page's pasted-document field holds."""
    text = re.search(r'<textarea name="scenario"[^>]*>(.*?)</textarea>', page, re.S)[1]
    return json.loads(html.unescape(text))


def test_a_saved_map_is_edited_in_place_and_its_battles_keep_their_table(client, world):
    kept = _saved(world)
    login(client, world, "gm")
    with mock.patch("battles.tasks.resolve_battle.delay"):
        client.post(_url("battle-setup", world),
                    _setup_data(_free_all(world), world, scenario=f"map-{kept.pk}"))  # fmt: skip
    fought = CampaignBattle.objects.latest("pk").battle
    edit = _url("map-edit", world, kept.pk)
    setup = client.get(_url("battle-setup", world)).text
    assert f'<a href="{edit}" aria-label="Edit the map Mill Road">Edit</a>' in setup

    page = client.get(edit).text
    assert "<h1>Edit the map Mill Road</h1>" in page
    assert page.count(f'action="{edit}"') == 2  # the numbers and the pasted document
    assert _json_field(page) == kept.scenario  # the drawn editor starts from it
    width = kept.scenario["table"]["width"]
    assert re.search(rf'name="table_width" value="{width:g}"', page)
    assert 'name="name" value="Mill Road"' in page

    # A wood cut down, and a new name.
    changed = dict(kept.scenario, terrain=kept.scenario["terrain"][:-1], name="Dusk Road")
    done = client.post(edit, {"name": "Dusk Road", "scenario": json.dumps(changed)}, follow=True)
    assert done.redirect_chain == [(_url("battle-setup", world) + f"?scenario=map-{kept.pk}", 302)]
    assert (
        "Map Dusk Road saved; the battles fought on it before keep the table they were fought on."
    ) in done.text
    again = SavedMap.objects.get()
    assert (again.pk, again.name) == (kept.pk, "Dusk Road")
    assert again.scenario == dict(changed, ruleset=world.campaign.ruleset)
    fought.refresh_from_db()
    assert fought.scenario["terrain"] == kept.scenario["terrain"]
    assert fought.scenario["name"] == "Mill Road"


def test_a_saved_map_is_edited_in_numbers_without_javascript(client, world):
    kept = _saved(world)
    login(client, world, "gm")
    saved = client.post(_url("map-edit", world, kept.pk), _numbers(name="Mill Road"))
    assert saved.status_code == 302
    again = SavedMap.objects.get()
    assert again.pk == kept.pk and again.name == "Mill Road"
    assert [t["kind"] for t in again.scenario["terrain"]] == ["woods", "river"]
    assert [o["id"] for o in again.scenario["objectives"]] == ["ford", "barn"]


def test_an_edit_is_refused_as_a_new_map_would_be_and_changes_nothing(client, world):
    kept, other = _saved(world), _saved(world, "Hill")
    login(client, world, "gm")
    edit = _url("map-edit", world, kept.pk)
    taken = client.post(edit, {"name": "Hill", "scenario": json.dumps(kept.scenario)})
    assert taken.status_code == 400
    assert (
        _errors_of(taken, "saved_map_name")
        == "The campaign already has a map called “Hill”; choose another name."
    )
    broken = client.post(edit, {"name": "Mill Road", "scenario": "{oops"})
    assert broken.status_code == 400 and "<h1>Edit the map Mill Road</h1>" in broken.text
    offside = dict(kept.scenario, table={"width": 4, "height": 4})
    refused = client.post(edit, {"name": "Mill Road", "scenario": json.dumps(offside)})
    assert refused.status_code == 400 and "off the" in html.unescape(refused.text)
    numbers = client.post(edit, _numbers(name="Hill"))
    assert numbers.status_code == 400
    assert "The campaign already has a map called “Hill”; choose another name" in html.unescape(
        numbers.text
    )
    assert {m.pk: (m.name, m.scenario) for m in SavedMap.objects.all()} == {
        kept.pk: ("Mill Road", kept.scenario), other.pk: ("Hill", other.scenario)
    }  # fmt: skip


def test_only_the_gms_edit_a_campaigns_own_maps(client, world):
    kept = _saved(world)
    edit = _url("map-edit", world, kept.pk)
    assert login(client, world, "player").get(edit).status_code == 403
    with pytest.raises(PermissionDenied):
        saved_map_edit(saved_map=kept, name="Mine", text=json.dumps(kept.scenario),
                       actor=world.users["player"])  # fmt: skip
    done = saved_map_edit(saved_map=kept, name="Co-GM's", text=json.dumps(kept.scenario),
                          actor=world.users["co_gm"])  # fmt: skip
    assert done.name == "Co-GM's"
    # A map of another campaign is no map of this one.
    elsewhere = campaign_create(name="Elsewhere", gm=world.users["gm"], ruleset="combined_arms")
    theirs = saved_map_create(campaign=elsewhere, name="Theirs", text=CROSSROADS.read_text())
    login(client, world, "gm")
    assert client.get(_url("map-edit", world, theirs.pk)).status_code == 404
