"""The set-up's default places: every unit pre-filled (or left blank) on a deployment spot the
engine lets it stand on, on every bundled scenario; a place typed where it may not stand is
refused in the campaign's words, and nothing is written."""

from __future__ import annotations

import json
import uuid
from unittest import mock

import pytest
from django.urls import reverse

from battles.models import Battle
from battles.selectors import reference_scenarios
from campaign.demo import DEMO_CAMPAIGN, demo_load
from campaign.models import Campaign, CampaignBattle
from campaign.services.deployment import deployment_place, deployment_spots, deployment_words
from units.models import Ruleset

pytestmark = pytest.mark.django_db
BUNDLED = reference_scenarios()


def _campaign(ruleset: str) -> Campaign:
    """The demo campaign; for the One Year War, the lab's forces in the demo's shape."""
    if ruleset == Ruleset.COMBINED_ARMS:
        demo_load()
        return Campaign.objects.get(name=DEMO_CAMPAIGN)
    from campaign.lab import lab_campaign
    from units.services import library_load

    library_load()
    return lab_campaign(ruleset, None, 1)


def _setup(client, campaign: Campaign, slug: str):
    client.force_login(campaign.gm)
    url = reverse("campaign:battle-setup", args=[campaign.pk])
    response = client.get(url, {"scenario": slug})
    assert response.status_code == 200
    form = response.context["form"]
    assert len(form.units) > 1, "the campaign's units are offered"
    data = {"scenario": slug, "request_key": str(uuid.uuid4())}
    for name, field in form.fields.items():
        if name.split("_")[0] in ("side", "x", "y", "order"):
            data[name] = "" if field.initial is None else str(field.initial)
    return url, form, data


def _check(client, url: str, data: dict[str, str]) -> dict:
    answer = client.post(url + "check/", data)
    assert answer.status_code == 200
    return answer.json()


def _judged(answer: dict) -> dict:
    """What the check judged: each unit's refusals, the whole set-up's and its verdict (its
    ``sides`` are the lines the page draws under the scenario's name)."""
    return {key: answer[key] for key in ("units", "general", "ok")}


@pytest.mark.parametrize("scenario", BUNDLED, ids=[s.slug for s in BUNDLED])
def test_it_puts_every_unit_where_it_may_stand_on_every_bundled_scenario(client, scenario):
    campaign = _campaign(scenario.ruleset)
    url, form, data = _setup(client, campaign, scenario.slug)
    places = [(data[f"x_{u.pk}"], data[f"y_{u.pk}"]) for u in form.units]
    assert all(x and y for x, y in places), "every unit is pre-filled"
    assert len(set(places)) == len(places), "each on a spot of its own"
    assert _judged(_check(client, url, data)) == {"units": {}, "general": [], "ok": True}
    blank = {k: "" if k[:2] in ("x_", "y_") else v for k, v in data.items()}
    assert _judged(_check(client, url, blank)) == {"units": {}, "general": [], "ok": True}


def test_the_default_big_battle_launches_pre_filled_and_blank(client):
    campaign = _campaign(Ruleset.COMBINED_ARMS)
    url, form, data = _setup(client, campaign, "big-battle")
    scout = next(u for u in form.units if u.name == "Scout Car")
    assert (data[f"x_{scout.pk}"], data[f"y_{scout.pk}"]) != ("17.0", "6.5"), "not in the woods"
    with mock.patch("battles.tasks.resolve_battle.delay"):
        launched = client.post(url, data)
    assert launched.status_code == 302, launched.content.decode()[:2000]
    battle = CampaignBattle.objects.latest("pk").battle
    placed = {u["id"]: u["position"] for side in battle.scenario["sides"] for u in side["units"]}
    assert placed[f"scout-car-{scout.pk}"] == [
        float(data[f"x_{scout.pk}"]),
        float(data[f"y_{scout.pk}"]),
    ], "it stands where the page said"


def test_a_blank_place_launches_on_the_spot_the_page_pre_fills(client):
    campaign = _campaign(Ruleset.COMBINED_ARMS)
    url, _, data = _setup(client, campaign, "factory-hold")
    blank = {k: "" if k[:2] in ("x_", "y_") else v for k, v in data.items()}
    with mock.patch("battles.tasks.resolve_battle.delay"):
        assert client.post(url, blank).status_code == 302
    battle = CampaignBattle.objects.latest("pk")
    scenario = battle.battle.scenario
    placed = {u["id"]: u["position"] for side in scenario["sides"] for u in side["units"]}
    for engine_id, pk in battle.engine_units.items():
        assert placed[engine_id] == [float(data[f"x_{pk}"]), float(data[f"y_{pk}"])]


def test_a_place_typed_in_the_woods_is_refused_in_campaign_words_and_nothing_is_written(client):
    campaign = _campaign(Ruleset.COMBINED_ARMS)
    url, form, data = _setup(client, campaign, "big-battle")
    scout = next(u for u in form.units if u.name == "Scout Car")
    data.update({f"x_{scout.pk}": "17", f"y_{scout.pk}": "6.5"})
    words = "Scout Car cannot stand in the woods at (17, 6.5): it may not enter woods"
    assert _check(client, url, data)["units"] == {str(scout.pk): [words]}
    before = (CampaignBattle.objects.count(), Battle.objects.count())
    with mock.patch("battles.tasks.resolve_battle.delay") as queued:
        refused = client.post(url, data)
    assert refused.status_code == 400
    assert refused.context["form"].errors[f"x_{scout.pk}"] == [words]
    assert words in refused.content.decode()
    assert "impassable" not in refused.content.decode()
    assert (CampaignBattle.objects.count(), Battle.objects.count()) == before
    queued.assert_not_called()


def _crossroads_red(*cards: dict) -> dict:
    scenario = json.loads(
        json.dumps(next(s for s in BUNDLED if s.slug == "crossroads").data)
    )  # a copy
    scenario["sides"][1]["units"] = [
        {"id": f"red-{i}", "card": card, "position": None, "facing": 0}
        for i, card in enumerate(cards)
    ]
    return scenario


def _cards(base: dict) -> dict[str, dict]:
    return {u["card"]["name"]: u["card"] for side in base["sides"] for u in side["units"]}


def test_a_spot_in_a_building_that_does_not_admit_the_unit_goes_to_the_next_unit_it_suits():
    base = next(s for s in BUNDLED if s.slug == "crossroads").data
    tank, squad = _cards(base)["Medium Tank"], _cards(base)["Rifle Squad"]
    spots = deployment_spots(base)  # red's second spot is inside the farmhouse (Size 1-2)
    scenario = _crossroads_red(tank, tank, squad)
    assert deployment_place(scenario, spots) == []
    at = [u["position"] for u in scenario["sides"][1]["units"]]
    assert at == [spots["red"][0][0], spots["red"][2][0], spots["red"][1][0]], (
        "the second tank skips the farmhouse; the squad, next in line, goes in"
    )


def test_a_unit_no_spot_suits_stands_inland_of_them():
    base = next(s for s in BUNDLED if s.slug == "crossroads").data
    scenario = _crossroads_red(_cards(base)["Rifle Squad"])
    scenario["terrain"].append(
        {"id": "flood", "kind": "water", "polygon": [[14, 10], [24, 10], [24, 24], [14, 24]]}
    )
    assert deployment_place(scenario, deployment_spots(base)) == []
    at = scenario["sides"][1]["units"][0]["position"]
    assert at not in [p for p, _ in deployment_spots(base)["red"]], "every red spot is flooded"
    assert [v * 2 == int(v * 2) for v in at] == [True, True], "on the half inch"


def test_a_building_refusal_names_the_building_and_the_sizes_it_admits():
    base = next(s for s in BUNDLED if s.slug == "crossroads").data
    scenario = _crossroads_red(_cards(base)["Medium Tank"])
    scenario["sides"][1]["units"][0]["position"] = [16.5, 16.5]
    problems = deployment_place(scenario, deployment_spots(base))
    assert deployment_words(scenario, problems, {"red-0": "Tiger One"}) == {
        "sides[1].units[0].position": [
            "Tiger One cannot stand in the Farmhouse at (16.5, 16.5): the Farmhouse admits "
            "Size 1 to 2, and Tiger One is Size 3"
        ]
    }
    scenario["sides"][1]["units"][0]["position"] = [30, 2]
    problems = deployment_place(scenario, deployment_spots(base))
    assert deployment_words(scenario, problems, {"red-0": "Tiger One"}) == {
        "sides[1].units[0].position": [
            "Tiger One at (30, 2) is off the 24″ × 24″ table: its x must be 0 to 24"
        ]
    }
