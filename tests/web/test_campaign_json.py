"""The read-only JSON: a campaign, a force (or its summary), a unit with its history, battles."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign.models import Campaign
from tests.web.campaign_world import login

pytestmark = pytest.mark.django_db


def _get(client, name, world, *args):
    response = client.get(reverse(f"campaign:{name}", args=[world.campaign.pk, *args]))
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    return response.json()


def test_it_describes_the_campaign_and_the_viewers_role(client, world):
    data = _get(login(client, world, "spectator"), "campaign-json", world)
    assert data["name"] == "Op. Pages" and data["day"] == 1 and data["your_role"] == "spectator"
    assert {f["name"] for f in data["forces"]} == {"Red Company", "Blue Battalion"}
    ready = world.force.units.filter(status="ready").count()
    assert {f["name"]: f["ready"] for f in data["forces"]}["Red Company"] == ready


def test_it_gives_a_full_roster_with_battle_cards_or_a_summary(client, world):
    login(client, world, "rival")
    full = _get(client, "force-json", world, world.force.pk)
    assert [u["name"] for u in full["roster"]] == list(
        world.force.units.order_by("name").values_list("name", flat=True)
    )
    assert all("battle_card" in u and "morale_hits" in u for u in full["roster"])
    Campaign.objects.filter(pk=world.campaign.pk).update(other_forces_visible="summary")
    summary = _get(client, "force-json", world, world.force.pk)
    assert "roster" not in summary and summary["units"] == world.force.units.count()
    assert summary["ready"] is None, "how many are ready is part of the roster"
    listed = {f["name"]: f for f in _get(client, "campaign-json", world)["forces"]}
    assert listed["Red Company"]["ready"] is None
    assert listed["Blue Battalion"]["ready"] == world.enemy.units.filter(status="ready").count()
    assert "roster" in _get(client, "force-json", world, world.enemy.pk), "its own force in full"


def test_it_counts_a_forces_destroyed_units_apart_and_only_where_its_roster_is_seen(client, world):
    """``units`` counts every unit on the roster, the destroyed too (they stay on it);
    ``destroyed`` says how many of them are, for a force seen in full, and is ``null`` for one
    seen in summary, whose losses are untold, as on its page."""
    from campaign.models import Unit

    Unit.objects.filter(pk=world.unit.pk).update(status="destroyed")
    units = world.force.units.count()
    login(client, world, "rival")
    listed = {f["name"]: f for f in _get(client, "campaign-json", world)["forces"]}
    assert listed["Red Company"]["units"] == units and listed["Red Company"]["destroyed"] == 1
    assert listed["Blue Battalion"]["destroyed"] == 0
    full = _get(client, "force-json", world, world.force.pk)
    assert full["units"] == units == len(full["roster"]) and full["destroyed"] == 1
    Campaign.objects.filter(pk=world.campaign.pk).update(other_forces_visible="summary")
    summary = _get(client, "force-json", world, world.force.pk)
    assert summary["units"] == units and summary["destroyed"] is None
    listed = {f["name"]: f for f in _get(client, "campaign-json", world)["forces"]}
    assert listed["Red Company"]["destroyed"] is None and listed["Blue Battalion"]["destroyed"] == 0


def test_it_gives_a_unit_with_its_history(client, world):
    data = _get(login(client, world, "player"), "unit-json", world, world.unit.pk)
    assert data["name"] == world.unit.name and data["force"] == "Red Company"
    assert data["history"][0]["kind"] == "created" and data["history"][0]["day"] == 1
    assert any(entry["battle"] == world.engine_battle.battle_id for entry in data["history"])
    assert data["order"] is None


def test_a_units_history_in_its_json_reads_as_on_its_page(client, world):
    """Each entry's text is the sentence the unit's page tells, not the one stored with its
    field changes ("battles fought 0 → 1, last battle on day none → 1"), which its ``before``
    and ``after`` give as data."""
    import re

    from campaign.pages.history_words import entry_line
    from campaign.selectors.entries import unit_history

    data = _get(login(client, world, "player"), "unit-json", world, world.unit.pk)
    fought = [e for e in data["history"] if e["battle"] == world.engine_battle.battle_id]
    assert fought and fought[0]["after"]["battles_fought"] == 1
    for entry in data["history"]:
        assert not re.search(r"battles fought|last battle on day|none →", entry["text"]), entry
    # As the page says it: its first entry is the same sentence the unit's history begins with.
    first = unit_history(unit=world.unit).first()
    assert data["history"][0]["text"] == entry_line(first, first.after)
    page = client.get(reverse("campaign:unit", args=[world.campaign.pk, world.unit.pk])).text
    assert data["history"][0]["text"] in page


def test_a_units_json_gives_the_order_it_is_under_in_the_campaigns_words(client, world):
    from campaign.services import unit_create
    from campaign.services.characters import character_create
    from campaign.services.orders import order_call_off, order_give
    from units.models import UnitType

    card = UnitType.objects.get(name="Rifle Squad")
    unit = unit_create(
        force=world.force, unit_type=card, name="1st Squad", specialties=["infantry"]
    )
    ash = character_create(campaign=world.campaign, name="Lt. Ash", hit_points=9)
    order = order_give(giver=ash, unit=unit, kind="use_skill", listed_hours=12, note="ford")
    data = _get(login(client, world, "player"), "unit-json", world, unit.pk)
    assert data["order"] == {"kind": "use_skill", "label": "Use Skill", "given_by": "Lt. Ash",
                             "note": "ford", "until": "day 1, 11:00"}  # fmt: skip
    order_call_off(order=order)
    assert _get(client, "unit-json", world, unit.pk)["order"] is None


def test_it_lists_the_battles_with_their_results(client, world):
    data = _get(login(client, world, "player"), "battles-json", world)
    by_name = {b["name"]: b for b in data["battles"]}
    assert by_name["Skirmish at the mill"]["winner"] == "attackers"
    assert by_name["Skirmish at the mill"]["state"] == "awaiting"
    engine = by_name["Crossroads"]
    assert engine["battle_status"] == "done" and engine["engine_result"]["winner"] in (
        "blue",
        "red",
        None,
    )


def test_the_roster_and_a_unit_give_the_printed_card_and_the_engines_where_they_differ(
    client, world
):
    """As on the unit page: ``battle_card`` is the card printed for a battle at a real table;
    the engine's, under the set-up's standing Order, is given apart only where it differs."""
    from campaign.services import unit_create
    from campaign.services.characters import character_create
    from campaign.services.orders import order_give

    gm = world.users["gm"]
    pickets = unit_create(force=world.force, unit_type=world.unit.unit_type, name="Pickets",
                          quality="average", specialties=["infantry"])  # fmt: skip
    login(client, world, "player")
    roster = _get(client, "force-json", world, world.force.pk)["roster"]
    listed = next(u for u in roster if u["name"] == "Pickets")
    unit = _get(client, "unit-json", world, pickets.pk)
    for data in (listed, unit):
        assert data["battle_card"]["skill"] == 2
        assert data["engine_battle_card"]["skill"] == 3
        assert data["engine_card_changes"] == "Skill 3, not 2"
    # With an Order under way the two agree: one card, nothing beside it.
    holt = character_create(campaign=world.campaign, name="Capt. Holt", hit_points=12, actor=gm)
    order_give(giver=holt, unit=pickets, kind="attack", actor=gm)
    unit = _get(client, "unit-json", world, pickets.pk)
    assert unit["battle_card"]["skill"] == 3
    assert unit["engine_battle_card"] is None and unit["engine_card_changes"] == ""


def test_a_units_json_gives_its_history_a_page_at_a_time_in_the_same_few_queries(client, world):
    """A unit of a long campaign: its JSON gives the latest page of its history, as its page
    does (`UNIT_STORY_PAGE` entries, oldest first), with how many there are and the addresses
    of the pages either side; ``earlier`` leads back to its raising, whatever its length."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from campaign.selectors.entries import UNIT_STORY_PAGE
    from tests.web.paging import add_notes

    login(client, world, "player")
    url = reverse("campaign:unit-json", args=[world.campaign.pk, world.unit.pk])
    costs = []
    for notes in (UNIT_STORY_PAGE, UNIT_STORY_PAGE * 9):
        add_notes(world.unit, [1] * notes, prefix=f"Of {notes}")
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        data = response.json()
        assert len(data["history"]) == UNIT_STORY_PAGE
        assert data["history"][-1]["text"] == f"Of {notes} {notes - 1}"
        assert data["history_count"] == world.unit.history.count()
        assert data["later"] is None
        costs.append((len(queries), len(response.content)))
    (few, small), (many, big) = costs
    assert few == many and big < small * 1.1
    # Earlier, page by page, to the unit's raising: every entry once, oldest first; each
    # page's ``later`` leads back to the page it was reached from.
    seen, page = data["history"], data
    while page["earlier"]:
        came_from, page = page, client.get(page["earlier"]).json()
        assert client.get(page["later"]).json()["history"] == came_from["history"]
        seen = page["history"] + seen
    assert len(seen) == data["history_count"] and seen[0]["kind"] == "created"
    assert [e["text"] for e in seen[-notes:]] == [f"Of {notes} {n}" for n in range(notes)]
