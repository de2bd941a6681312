"""A campaign with more units ready to fight than a page lists enters a table battle's result a
page of its units at a time, as its set-up does: by force and name, in a few queries and rows
whatever its size, the units put on a side carried from page to page with what each lost, all
recorded together; a result with a unit that may not fight records nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign.models import CampaignBattle, HistoryEntry, Unit
from campaign.selectors import battle_setup
from tests.web.campaign_world import login
from tests.web.paging import fill_forces, rows_read, side_rows, unit_named

pytestmark = pytest.mark.django_db


def _url(world) -> str:
    return reverse("campaign:battle-record", args=[world.campaign.pk])


def _sent(response) -> dict[str, str]:
    """The result form as the browser would send it back: every field as the page shows it."""
    form, shown = response.context["form"], response.context["paged"]
    data = {"browse_at": str(shown.number) if shown else "1"}
    for name, field in form.fields.items():
        value = form[name].value()
        if value in (None, "") and getattr(field, "choices", None):
            value = field.choices[0][0]  # a select with none selected sends its first option
        data[name] = "" if value is None else str(value)
    if shown:
        data["browse_force"] = str(shown.force.pk) if shown.force else ""
        data["browse_search"] = shown.search
    return data


def _names(units) -> list[str]:
    return sorted(unit.name for unit in units)


@pytest.mark.parametrize("count", [20, 200])
def test_a_big_campaigns_result_form_lists_a_page_of_units_in_the_same_few_queries_and_rows(
    client, world, paged, django_assert_max_num_queries, count
):
    fill_forces(world, count)
    login(client, world, "gm")
    with django_assert_max_num_queries(12), rows_read() as rows:
        response = client.get(_url(world))
    assert response.status_code == 200
    html = response.content.decode()
    assert len(side_rows(html)) == 5, "a page of units, not every unit"
    assert html.count('name="hits_lost_') == 5
    assert rows[0] < 60, rows[0]
    assert "Find units" in html and "Units 1 to 5 of" in html and "Later units" in html
    assert "until you record the result" in html
    # The sides are named after the campaign's forces (the first side the first by name), as
    # a small campaign's are.
    assert 'value="Blue Battalion"' in html and 'value="Red Company"' in html


def test_a_small_campaigns_result_form_still_lists_every_unit(client, world):
    fill_forces(world, 3)
    login(client, world, "gm")
    response = client.get(_url(world))
    html = response.content.decode()
    assert response.context["paged"] is None and "Find units" not in html
    assert len(side_rows(html)) == len(response.context["form"].units) >= 6
    assert 'value="Blue Battalion"' in html and 'value="Red Company"' in html


def test_a_result_entered_over_several_pages_records_every_unit_put_on_a_side(client, world, paged):
    fill_forces(world, 20)
    login(client, world, "gm")
    first = client.get(_url(world), {"browse_force": world.enemy.pk})
    assert [Unit.objects.get(pk=pk).name for pk in side_rows(first.content.decode())] == [
        "Blue 01", "Blue 02", "Blue 03", "Blue 04", "Blue 05",
    ]  # fmt: skip
    blue = unit_named("Blue 02")
    data = _sent(first)
    data.update({f"side_{blue.pk}": "a", f"hits_lost_{blue.pk}": "1",
                 f"removed_{blue.pk}": "destroyed", "name": "Ford"})  # fmt: skip
    second = client.post(_url(world), {**data, "browse_page": "4"})
    assert second.status_code == 200 and second.context["form"].errors == {}
    html = second.content.decode()
    assert "Units 16 to 20 of" in html and "Put on a side on other pages" in html
    assert side_rows(html)[0] == blue.pk, "carried along, listed first"
    data = _sent(second)
    kept = (data[f"side_{blue.pk}"], data[f"hits_lost_{blue.pk}"], data[f"removed_{blue.pk}"])
    assert kept == ("a", "1", "destroyed")
    data.update({"browse_force": str(world.force.pk), "browse_search": "red 1"})
    third = client.post(_url(world), {**data, "browse_page": "1"})
    data = _sent(third)
    red = unit_named("Red 12")
    assert data[f"hits_lost_{red.pk}"] == "0", "a row first shown here starts as it should"
    data.update({f"side_{red.pk}": "b", f"side_{unit_named('Blue 17').pk}": "a", "winner": "b"})
    recorded = client.post(_url(world), data)
    assert recorded.status_code == 302, recorded.context["form"].errors
    battle = CampaignBattle.objects.get(name="Ford")
    assert {side: _names(Unit.objects.filter(pk__in=pks)) for side, pks in
            battle.sides.items()} == {
        "Red Company": ["Red 12"], "Blue Battalion": ["Blue 02", "Blue 17"],
    }  # fmt: skip
    outcome = battle.table_result["units"][str(blue.pk)]
    assert (outcome["hits_lost"], outcome["removed"]) == (1, "destroyed")


def test_a_paged_result_with_a_unit_out_of_action_or_held_back_records_nothing(
    client, world, paged
):
    fill_forces(world, 20)
    Unit.objects.filter(name="Blue 03").update(status="destroyed")
    held = next(iter(world.table_battle.sides.values()))[0]
    login(client, world, "gm")
    data = _sent(client.get(_url(world)))
    data.update({"name": "Ford", f"side_{unit_named('Blue 03').pk}": "b",
                 f"side_{unit_named('Red 01').pk}": "a", f"side_{unit_named('Blue 01').pk}": "b",
                 f"side_{held}": "a"})  # fmt: skip
    before = (CampaignBattle.objects.count(), HistoryEntry.objects.count())
    refused = client.post(_url(world), data)
    assert refused.status_code == 400
    html = refused.content.decode()
    assert "Blue 03 (Blue Battalion) cannot fight: destroyed." in html
    assert "is still in Skirmish at the mill, whose outcome is not applied yet" in html
    assert (CampaignBattle.objects.count(), HistoryEntry.objects.count()) == before
    # The choices come back as they were sent, to be put right.
    assert _sent(refused)[f"side_{unit_named('Blue 01').pk}"] == "b"


def test_a_paged_result_the_service_refuses_records_nothing(client, world, paged):
    fill_forces(world, 20)
    login(client, world, "gm")
    data = _sent(client.get(_url(world)))
    red, blue = unit_named("Red 01"), unit_named("Blue 01")
    data.update({"name": "Ford", "winner": "a", f"side_{red.pk}": "a", f"side_{blue.pk}": "b",
                 f"hits_lost_{red.pk}": "9"})  # fmt: skip
    before = (CampaignBattle.objects.count(), HistoryEntry.objects.count())
    refused = client.post(_url(world), data)
    assert refused.status_code == 400
    assert refused.context["form"].errors[f"hits_lost_{red.pk}"]
    assert (CampaignBattle.objects.count(), HistoryEntry.objects.count()) == before


def test_too_many_units_put_on_a_side_of_a_result_are_refused(client, world, paged, monkeypatch):
    monkeypatch.setattr(battle_setup, "CHOSEN_AT_MOST", 4)
    fill_forces(world, 20)
    login(client, world, "gm")
    data = _sent(client.get(_url(world)))
    data["name"] = "Ford"
    for n in range(1, 8):
        data[f"side_{unit_named(f'Blue {n:02}').pk}"] = "b"
    data[f"side_{unit_named('Red 01').pk}"] = "a"
    refused = client.post(_url(world), data)
    assert refused.status_code == 400
    assert "More than 4 units were put on a side" in refused.content.decode()
    assert not CampaignBattle.objects.filter(name="Ford").exists()
