"""Scenario JSON, through the launch service and the battle and odds set-up forms."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from battles.forms import BattleSetupForm, OddsForm
from battles.services import BattleInputError, battle_launch, battle_resolve
from tests.fuzz.conftest import FUZZ
from tests.fuzz.inputs import JSON, form_data, mutated, near_valid

pytestmark = pytest.mark.django_db

SCENARIOS = Path(__file__).resolve().parents[2] / "battles" / "engine" / "scenarios"
REFERENCE = {p.stem: json.loads(p.read_text()) for p in sorted(SCENARIOS.glob("*.json"))}
SMALL = ("crossroads", "mech-duel", "chopper-raid")


@pytest.fixture
def gm(django_user_model):
    return django_user_model.objects.create_user("fuzz-gm")


def _launch(scenario, seed, user):
    def run() -> bool:
        try:
            battle_launch(name="", scenario=scenario, seed=seed, created_by=user)
        except BattleInputError as exc:
            assert exc.errors, "a refusal names what is wrong"
            return False
        return True

    return run


SEEDS = st.none() | st.integers(-(2**64), 2**64)


@FUZZ
@given(scenario=JSON, seed=SEEDS)
def test_any_json_as_a_scenario(probe, gm, scenario, seed):
    p = probe("scenario-json: battle_launch, arbitrary JSON")
    p.attempt(_launch(scenario, seed, gm), scenario)
    p.check()


@FUZZ
@given(
    scenario=st.sampled_from(SMALL).flatmap(lambda n: mutated(REFERENCE[n], nest=True)),
    seed=SEEDS,
)
def test_mutated_reference_scenarios(probe, gm, scenario, seed):
    p = probe("scenario-json: battle_launch, mutated reference scenarios")
    p.attempt(_launch(scenario, seed, gm), scenario)
    p.check()


def _post_form(client, url: str, data: dict, htmx: bool):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}

    def run() -> bool:
        response = client.post(url, data, **headers)
        assert response.status_code < 500, response.status_code
        return response.status_code == 302

    return run


@FUZZ
@given(data=st.data(), htmx=st.booleans())
def test_the_battle_setup_form(probe, client, gm, data, htmx):
    client.force_login(gm)
    form = BattleSetupForm()
    base = {"scenario": "crossroads", "token": "t" * 20, "name": "", "seed": "1"}
    post = data.draw(near_valid(form, base) | form_data(form, {"preview": ["1"]}))
    p = probe("form: battles set-up (POST /battles/new/)")
    p.attempt(_post_form(client, reverse("battles:setup"), post, htmx), post)
    p.check()


@FUZZ
@given(data=st.data(), htmx=st.booleans())
def test_the_odds_form(probe, client, gm, data, htmx):
    client.force_login(gm)
    form = OddsForm()
    base = {"scenario": "crossroads", "token": "t" * 20, "battles": "3", "seed": "1"}
    post = data.draw(near_valid(form, base) | form_data(form, {"preview": ["1"]}))
    p = probe("form: odds set-up (POST /battles/odds/new/)")
    p.attempt(_post_form(client, reverse("battles:odds-setup"), post, htmx), post)
    p.check()


@pytest.fixture
def fought(gm):
    battle = battle_launch(name="Read", scenario=REFERENCE["crossroads"], seed=1, created_by=gm)
    return battle_resolve(battle_id=battle.id)


@settings(FUZZ, max_examples=25)
@given(query=st.dictionaries(st.sampled_from(["scenario", "unit", "kind", "as", "x"]), JSON))
def test_the_battle_pages_query_strings(probe, client, gm, fought, query):
    client.force_login(gm)
    battle = fought
    params = {k: json.dumps(v) if not isinstance(v, str) else v for k, v in query.items()}
    p = probe("GET query strings: battle pages")
    for url in (
        reverse("battles:setup"),
        reverse("battles:odds-setup"),
        reverse("battles:detail", args=[battle.pk]),
        reverse("battles:progress", args=[battle.pk]),
    ):
        for htmx in (False, True):
            headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}

            def run(url=url, headers=headers) -> bool:
                response = client.get(url, params, **headers)
                assert response.status_code < 500, response.status_code
                return False  # a GET never writes

            p.attempt(run, (url, params, htmx))
    p.check()
