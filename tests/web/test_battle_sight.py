"""A battle's page and the battles' JSON under "Other players' forces: summary only": a unit of
a force the reader sees in summary is named, and no more — neither its card nor what the battle
did to it — with fog of war or without; the GM and whoever sees every force read it all."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from campaign.models import Campaign
from tests.web.campaign_world import login

pytestmark = pytest.mark.django_db

OWN_ROW = 'Squad 1 <span class="small">Rifle Squad</span>'
"""The player's unit's row in the units table (Red Company's, on the scenario's blue side)."""
RIVAL_ROW = 'Iron Wolf <span class="small">Mech</span>'
"""The rival's unit's row (Blue Battalion's, on the red side)."""


def _set(world, *, sight: str, fog: bool) -> None:
    Campaign.objects.filter(pk=world.campaign.pk).update(other_forces_visible=sight, fog_of_war=fog)


def _page(client, world, role: str) -> str:
    url = reverse("campaign:battle", args=[world.campaign.pk, world.engine_battle.pk])
    return html.unescape(login(client, world, role).get(url).text)


def _section(page: str, heading: str) -> str:
    """The report's section under ``heading`` (its id), up to the section's end."""
    start = page.index(f'id="{heading}"')
    return page[start : page.index("</section>", start)]


def _luck_sides(page: str) -> list[str]:
    return re.findall(r"<li>(Red Company|Blue Battalion) [a-z ]+\.</li>", page)


@pytest.mark.parametrize("fog", [False, True])
def test_a_player_reads_only_the_units_and_luck_of_the_forces_they_see_in_full(client, world, fog):
    _set(world, sight=Campaign.Visibility.SUMMARY, fog=fog)
    page = _page(client, world, "player")
    units = _section(page, "units-heading")
    assert OWN_ROW in units and RIVAL_ROW not in units
    assert "Blue Battalion's 1 unit is left out: you see that force only in summary." in units
    assert _luck_sides(page) == ["Red Company"]
    assert "The luck of Blue Battalion is left out" in page
    # Under full rosters the same player reads every unit and both sides' luck.
    _set(world, sight=Campaign.Visibility.FULL, fog=fog)
    page = _page(client, world, "player")
    units = _section(page, "units-heading")
    assert OWN_ROW in units and RIVAL_ROW in units and "left out" not in units
    assert sorted(_luck_sides(page)) == ["Blue Battalion", "Red Company"]


@pytest.mark.parametrize("fog", [False, True])
def test_a_spectator_under_summary_reads_no_units_row_and_is_told_why(client, world, fog):
    _set(world, sight=Campaign.Visibility.SUMMARY, fog=fog)
    page = _page(client, world, "spectator")
    units = _section(page, "units-heading")
    assert (
        OWN_ROW not in units
        and RIVAL_ROW not in units
        and "<table" not in units.split("Buildings")[0]
    )
    assert (
        "Red Company's 2 units and Blue Battalion's 1 unit are left out: the GM shows "
        "spectators every force in summary only." in units
    )
    assert _luck_sides(page) == []
    # The GM reads every unit still.
    units = _section(_page(client, world, "gm"), "units-heading")
    assert OWN_ROW in units and RIVAL_ROW in units and "left out" not in units


def _battle(client, world, role: str, name: str = "Crossroads") -> dict:
    login(client, world, role)
    url = reverse("campaign:battles-json", args=[world.campaign.pk])
    return next(b for b in client.get(url).json()["battles"] if b["name"] == name)


@pytest.mark.parametrize("fog", [False, True])
def test_the_battles_json_names_everything_and_gives_only_the_units_the_reader_sees(
    client, world, fog
):
    _set(world, sight=Campaign.Visibility.SUMMARY, fog=fog)
    battle = _battle(client, world, "player")
    assert {s["name"] for s in battle["sides"]} == {"Red Company", "Blue Battalion"}
    named = {u["name"]: u["seen"] for s in battle["sides"] for u in s["units"]}
    assert named == {"Squad 1": "full", "Squad 2": "full", "Iron Wolf": "summary"}
    result = battle["engine_result"]
    assert {u["name"] for u in result["units"]} == {"Squad 1", "Squad 2"}
    assert {s["name"] for s in result["sides"]} == {"Red Company", "Blue Battalion"}
    assert result["end_reason_text"] in ("the turn limit", "a side was wiped out")
    assert battle["outcome"] in ("Red Company won", "Blue Battalion won", "a draw")
    assert "Blue Army" not in str(battle) and "Red Army" not in str(battle)
    # The table's battle gives the losses of the reader's own units only.
    table = _battle(client, world, "player", "Skirmish at the mill")
    own = [u for s in table["sides"] for u in s["units"] if u["force"] == "Red Company"]
    assert set(table["table_result"]["units"]) == {str(u["id"]) for u in own}
    spectator = _battle(client, world, "spectator")
    assert spectator["engine_result"]["units"] == []
    assert spectator["engine_result"]["sides"] == result["sides"]
    everything = _battle(client, world, "gm")["engine_result"]["units"]
    assert {u["name"] for u in everything} == {"Squad 1", "Squad 2", "Iron Wolf"}
    assert {u["card"] for u in everything} == {"Rifle Squad", "Mech"}


def test_the_card_sheet_is_offered_only_to_whoever_would_get_cards_on_it(client, world):
    link = reverse("campaign:battle-cards", args=[world.campaign.pk, world.engine_battle.pk])
    _set(world, sight=Campaign.Visibility.SUMMARY, fog=False)
    assert link not in _page(client, world, "spectator")
    for role in ("player", "rival", "gm"):
        assert link in _page(client, world, role), role
    _set(world, sight=Campaign.Visibility.FULL, fog=False)
    assert link in _page(client, world, "spectator")
