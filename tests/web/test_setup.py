"""Setting up a one-off battle: the scenario preview, launching, bad input, double submits."""

from __future__ import annotations

import re
import threading
from unittest import mock

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from battles import views
from battles.models import Battle
from battles.services import SEED_LIMIT, BattleInputError

pytestmark = pytest.mark.django_db

URL = "/battles/new/"
KEY = "0b0e3e52-6e0d-4a4e-9a53-3f1c2b7d9e01"


def _post(client, **fields):
    data = {"scenario": "crossroads", "request_key": KEY, "name": "", "seed": "", "turn_limit": ""}
    data.update(fields)
    return client.post(URL, data)


def _field_errors(html: str, field: str) -> str:
    """The error text printed beside one field (inside the field's own paragraph)."""
    match = re.search(
        rf'<p class="field has-errors">\s*<label for="id_{field}">.*?</p>', html, re.S
    )
    return match.group(0) if match else ""


def test_it_offers_the_reference_scenarios_with_a_table_preview(owner_client):
    page = owner_client.get(URL).content.decode()
    assert '<option value="crossroads"' in page and '<option value="landing"' in page
    assert '<svg class="table-map"' in page
    assert 'name="request_key"' in page
    assert "Launch the battle" in page


def test_it_previews_the_scenario_asked_for(owner_client):
    page = owner_client.get(URL + "?scenario=crossroads").content.decode()
    assert '<h2 id="preview-heading" data-announce>Crossroads</h2>' in page
    # Terrain, the building, deployment by side and Size, and the objective with its radius.
    for piece in ("Wood", "Ridge", "Brook", "Lane wall"):
        assert f"<title>{piece}: " in page
    assert 'data-building="farmhouse"' in page
    assert 'class="unit side-0" data-unit="b-tank" transform="translate(14 22)"' in page
    assert 'class="unit side-1" data-unit="r-mech"' in page
    assert '<circle cx="12" cy="12" r="3"/>' in page


def test_the_deployment_names_units_by_their_cards_not_their_ids(owner_client):
    page = owner_client.get(URL + "?scenario=landing").content.decode()
    assert "Amphibious Mech 1" in page and "Amphibious Mech 2" in page
    assert "f-gogg-1</" not in page and "<code>f-gogg" not in page
    assert '<div class="table-scroll"><table class="deployment stack"' in page


def test_the_htmx_preview_is_the_partial_alone(owner_client):
    response = owner_client.get(URL + "?scenario=landing", HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section id="table-preview"')
    assert "<html" not in html and "Beach Landing" in html
    assert "HX-Request" in response["Vary"]


def test_the_scenario_select_redraws_the_preview_with_htmx(owner_client):
    page = owner_client.get(URL).content.decode()
    select = re.search(r"<select[^>]*name=\"scenario\"[^>]*>", page).group(0)
    assert f'hx-get="{URL}"' in select and 'hx-target="#table-preview"' in select


def test_a_launch_saves_the_battle_and_shows_it(owner_client, owner):
    response = _post(owner_client, seed="42", turn_limit="3", name="Test run")
    battle = Battle.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("battles:detail", args=[battle.pk])
    assert (battle.name, battle.seed, battle.created_by) == ("Test run", 42, owner)
    assert battle.turn_limit == 3 and battle.scenario["turn_limit"] == 3


def test_an_empty_seed_and_turn_limit_take_a_random_seed_and_the_scenarios_limit(owner_client):
    _post(owner_client)
    battle = Battle.objects.get()
    assert battle.name == "Crossroads" and battle.turn_limit == 6
    assert 0 <= battle.seed <= SEED_LIMIT


def test_a_double_submit_launches_once(owner_client):
    first = _post(owner_client, seed="5")
    second = _post(owner_client, seed="5")
    assert Battle.objects.count() == 1
    assert first["Location"] == second["Location"]
    third = _post(owner_client, seed="5", request_key="6f7d1c3a-2b5e-4f8a-9c0d-1e2f3a4b5c6d")
    assert Battle.objects.count() == 2 and third["Location"] != first["Location"]


def test_a_request_key_is_not_spent_by_a_form_with_errors(owner_client):
    assert _post(owner_client, seed="-1").status_code == 400
    assert _post(owner_client, seed="1").status_code == 302
    assert Battle.objects.count() == 1


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"seed": "-1"}, "seed", "At least 0."),
        ({"seed": str(SEED_LIMIT + 1)}, "seed", "At most "),
        ({"seed": "twelve"}, "seed", "Enter a whole number"),
        ({"turn_limit": "0"}, "turn_limit", "At least 1 turn."),
        ({"turn_limit": "101"}, "turn_limit", "At most 100 turns."),
        ({"scenario": "atlantis"}, "scenario", "“atlantis” is not one of the choices for"),
        ({"scenario": ""}, "scenario", "Choose one for “Scenario”."),
        ({"name": "x" * 201}, "name", "at most 200 characters"),
    ],
)
def test_bad_input_is_shown_beside_its_field(owner_client, fields, field, message):
    response = _post(owner_client, **fields)
    assert response.status_code == 400
    beside = _field_errors(response.content.decode(), field)
    assert message in beside
    # The page opens on the field at fault, which names its error (and its help, where it has
    # any) for screen readers.
    assert "autofocus" in beside and 'aria-invalid="true"' in beside
    described = re.search(r'aria-describedby="([^"]*)"', beside)[1].split()
    assert f"id_{field}_error" in described and f'id="id_{field}_error"' in beside
    for said in described:
        assert f'id="{said}"' in beside
    assert response.content.decode().count("autofocus") == 1
    assert not Battle.objects.exists()


def test_a_damaged_request_key_is_an_error_not_a_launch(owner_client):
    for key in ("", "<script>", "x"):
        response = _post(owner_client, request_key=key)
        assert response.status_code == 400
        assert 'class="form-errors"' in response.content.decode()
    assert not Battle.objects.exists()


def test_errors_the_service_finds_go_beside_their_field(owner_client):
    refusal = BattleInputError([("seed", "is unlucky"), ("sides[0].units", "are missing")])
    with mock.patch("battles.views.battle_launch", side_effect=refusal):
        response = _post(owner_client, seed="13")
    html = response.content.decode()
    assert response.status_code == 400
    assert "is unlucky" in _field_errors(html, "seed")
    assert "sides[0].units: are missing" in html
    assert not Battle.objects.exists()


def test_show_the_table_without_javascript_launches_nothing(owner_client):
    response = _post(owner_client, scenario="landing", preview="1", seed="9")
    html = response.content.decode()
    assert response.status_code == 200
    assert "Beach Landing" in html and 'value="9"' in html and KEY in html
    assert not Battle.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_two_submits_at_the_same_moment_launch_once(client, owner):
    """Two POSTs of one form racing: one row, one enqueue; the second finds the first's row."""
    client.force_login(owner)
    cookies = client.cookies
    real_launch = views.battle_launch
    both_in = threading.Barrier(2, timeout=10)
    answers: list[str] = []

    def slow_launch(**kwargs):
        real = real_launch(**kwargs)
        threading.Event().wait(0.5)  # hold the launch open while the other request arrives
        return real

    def submit():
        racer = Client()
        racer.cookies = cookies
        try:
            both_in.wait()
            answers.append(_post(racer, seed="77")["Location"])
        finally:
            connection.close()

    with (
        mock.patch.object(views, "battle_launch", side_effect=slow_launch),
        mock.patch("battles.services.battle_enqueue") as sent,
    ):
        racers = [threading.Thread(target=submit) for _ in range(2)]
        for racer in racers:
            racer.start()
        for racer in racers:
            racer.join(timeout=30)
    assert len(answers) == 2 and answers[0] == answers[1]
    assert Battle.objects.count() == 1
    assert sent.call_count == 1
