"""The table-result page in the set-up's words: a force with no unit fit to fight and why,
said above the form and as why the side named after it has nobody on it."""

from __future__ import annotations

from html import unescape

import pytest

from tests.web.campaign_world import login
from tests.web.test_campaign_battles import _free_all, _url
from tests.web.test_campaign_setup_words import _blue_unfit

pytestmark = pytest.mark.django_db


def _record_data(units, **extra):
    data = {"name": "Hill 203", "day": "1", "winner": "draw"}
    for unit in units:
        data.update({f"side_{unit.pk}": "", f"hits_lost_{unit.pk}": "0",
                     f"skill_lost_{unit.pk}": "0", f"removed_{unit.pk}": "none"})  # fmt: skip
    data.update(extra)
    return data


def test_a_force_with_no_unit_fit_to_fight_is_said_on_the_table_result_and_its_side_named(
    client, world
):
    held, gone = _blue_unfit(world)
    login(client, world, "gm")
    page = client.get(_url("battle-record", world))
    text = unescape(page.text)
    (battle,) = {battle for _, battle in held}
    why = (
        f"Blue Battalion has no unit fit to fight. Destroyed: {' and '.join(gone)}. "
        f"Still in {battle}, whose outcome is not applied yet: "
        f"{' and '.join(name for name, _ in held)}."
    )
    assert f'<div class="notice notice-warning" role="note"><p>{why}</p></div>' in text
    assert text.index(why) < text.index("<caption>Units</caption>")
    # The second side is named after the force that would take it, as the set-up names it.
    form = page.context["form"]
    assert (form["side_a"].initial, form["side_b"].initial) == ("Red Company", "Blue Battalion")
    data = _record_data(
        form.units,
        side_a="Red Company",
        side_b="Blue Battalion",
        **{f"side_{u.pk}": "a" for u in form.units},
    )
    refused = client.post(_url("battle-record", world), data)
    assert refused.status_code == 400
    assert refused.context["form"].non_field_errors() == [
        f"No unit is on Blue Battalion's side: {why}"
    ]


def test_a_side_of_the_table_result_left_empty_is_named_as_the_gm_named_it(client, world):
    units = _free_all(world)
    red = [u for u in units if u.force_id == world.force.pk]
    login(client, world, "gm")
    data = _record_data(
        units, side_a="Red Company", side_b="", **{f"side_{u.pk}": "a" for u in red}
    )
    errors = client.post(_url("battle-record", world), data).context["form"].non_field_errors()
    assert "No unit is on the second side: put at least one there." in errors
    data["side_b"] = "Blue Battalion"
    errors = client.post(_url("battle-record", world), data).context["form"].non_field_errors()
    assert errors == ["No unit is on Blue Battalion's side: put at least one there."]
    data["side_b"] = "Defenders"
    errors = client.post(_url("battle-record", world), data).context["form"].non_field_errors()
    assert errors == ["No unit is on Defenders: put at least one there."]
