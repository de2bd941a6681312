"""The campaign battle set-up in the campaign's words: a force with no unit fit to fight and
why, the side it would take named as its own, each side's part in the scenario by the forces
taking it, and the scenario's own story told as the map's."""

from __future__ import annotations

from html import unescape

import pytest
from django.urls import reverse

from campaign.models import Unit
from campaign.selectors.roster import engaged_units
from campaign.services import unit_edit
from tests.web.campaign_world import login
from tests.web.test_campaign_battles import _free_all, _setup_data, _url

pytestmark = pytest.mark.django_db


def _blue_unfit(world):
    """Every unit ready, then each of Blue Battalion's not held in a battle still to be applied
    destroyed: the force has none fit to fight. Its units held back, and those destroyed."""
    units = _free_all(world)
    engaged = engaged_units(campaign=world.campaign)
    for unit in units:
        if unit.force_id == world.enemy.pk:
            unit_edit(unit=unit, changes={"status": "destroyed"}, reason="lost",
                      actor=world.users["gm"])  # fmt: skip
    blue = Unit.objects.filter(force=world.enemy).order_by("name")
    held = [(u.name, engaged[u.pk]) for u in blue if u.pk in engaged]
    gone = [u.name for u in blue if u.pk not in engaged]
    assert held and gone
    return held, gone


def test_a_force_with_no_unit_fit_to_fight_is_said_up_front_and_its_side_named_as_its(
    client, world
):
    held, gone = _blue_unfit(world)
    login(client, world, "gm")
    page = client.get(_url("battle-setup", world), {"scenario": "crossroads"})
    text = unescape(page.text)
    (battle,) = {battle for _, battle in held}
    why = (
        f"Blue Battalion has no unit fit to fight. Destroyed: {' and '.join(gone)}. "
        f"Still in {battle}, whose outcome is not applied yet: "
        f"{' and '.join(name for name, _ in held)}."
    )
    # Said above the deployment, before the GM sets anything up.
    assert f'<div class="notice notice-warning" role="note"><p>{why}</p></div>' in text
    assert text.index(why) < text.index("<caption>Deployment</caption>")
    # Red Company takes its own side still; the other is Blue Battalion's, wherever it is named.
    form = page.context["form"]
    assert {form.fields[f"side_{u.pk}"].initial for u in form.units} == {"red"}
    assert form.side_labels() == {"blue": "Blue Battalion's side", "red": "Red Company"}
    assert "Ring: Blue Battalion's side" in text and "Ring: the first side" not in text
    assert "<li>No unit is on Blue Battalion's side (the first side) yet.</li>" in text
    # Launch names the side by its force, and says why nobody stands on it.
    data = _setup_data(form.units, world, **{f"side_{u.pk}": "red" for u in form.units})
    refused = unescape(client.post(_url("battle-setup", world), data).text)
    assert f"No unit is on Blue Battalion's side: {why}" in refused
    assert "put at least one there" not in refused


def test_a_side_left_empty_by_the_gm_is_named_by_the_force_that_would_take_it(client, world):
    units = _free_all(world)
    data = _setup_data(units, world)
    for unit in units:
        # Red Company on its own side, as the page puts it; Blue Battalion's left not fighting.
        data[f"side_{unit.pk}"] = "red" if unit.force_id == world.force.pk else ""
    login(client, world, "gm")
    refused = unescape(client.post(_url("battle-setup", world), data).text)
    assert "No unit is on Blue Battalion's side: put at least one there." in refused
    assert "has no unit fit to fight" not in refused


def test_the_set_ups_check_tells_each_side_as_the_units_on_it_now_take_it(client, world):
    """The lines under the scenario's name follow the units the GM puts on each side before
    Launch: the check answers with them, as the page draws them, for its script to redraw."""
    units = _free_all(world)
    login(client, world, "gm")
    data = _setup_data(units, world)
    for unit in units:
        if unit.force_id == world.force.pk:
            data[f"side_{unit.pk}"] = ""
    url = _url("battle-setup-check", world)
    empty = client.post(url, data).json()["sides"]
    assert empty[0].startswith("No unit is on ") and empty[0].endswith(" yet.")
    page = unescape(client.post(_url("battle-setup", world), data).text)
    assert "".join(f"<li>{line}</li>" for line in empty) in page
    data.update({f"side_{u.pk}": "blue" for u in units if u.force_id == world.force.pk})
    taken = client.post(url, data).json()["sides"]
    assert taken[0] == "Red Company takes the first side."
    assert all("No unit is on" not in line for line in taken)


def test_each_side_is_told_by_the_force_taking_it_and_the_scenarios_story_as_the_maps(
    client, world
):
    _free_all(world)
    login(client, world, "gm")
    text = unescape(client.get(_url("battle-setup", world), {"scenario": "crossroads"}).text)
    assert (
        "<li>Blue Battalion takes the first side.</li><li>Red Company takes the second side, "
        "with no objective of its own: it scores only for the enemy units it removes.</li>"
        "<li>Objective Crossroads: Blue Battalion must hold within 3″ (1 per turn, 3 at the "
        "end).</li>"
    ) in text
    # The scenario's sample units are its own story of the ground, not the campaign's forces.
    assert (
        "<strong>The map</strong>, as Crossroads tells it with units of its own (the campaign's "
        "stand in their place): Two rifle squads and a tank push"
    ) in text
    assert '<p class="small">Two rifle squads' not in text


def test_the_set_ups_check_names_a_field_as_the_page_does(client, world):
    units = _free_all(world)
    login(client, world, "gm")
    checked = client.post(
        _url("battle-setup-check", world), _setup_data(units, world, turn_limit="0")
    ).json()
    assert checked["general"] == ["Turn limit: At least 1 turn."]


def test_the_seed_is_said_on_the_set_up_as_on_the_one_off_launch(client, world):
    _free_all(world)
    login(client, world, "gm")
    said = (
        "Optional. The same seed and set-up fight the same battle again; left empty, one is drawn."
    )
    setup = unescape(client.get(_url("battle-setup", world), {"scenario": "crossroads"}).text)
    assert f'<span class="help" id="id_battle_setup_seed_helptext">{said}</span>' in setup
    assert said in unescape(client.get(reverse("battles:setup")).text)
