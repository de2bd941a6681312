"""Campaign battles on the site: set-up, launch (once), progress, report, review, table result."""

from __future__ import annotations

import json
import re
import uuid
from unittest import mock

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils.html import escape

from campaign.models import Campaign, CampaignBattle, Unit
from campaign.selectors.roster import engaged_units
from campaign.services import unit_edit
from campaign.services.battles import Deployment, campaign_battle_apply, campaign_battle_launch
from campaign.views.battle_setup import SCENARIO_GONE
from tests.web.campaign_world import CROSSROADS, login, raise_units

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def _url(name, world, *args):
    return reverse(f"campaign:{name}", args=[world.campaign.pk, *args])


def _ready_all(world):
    for unit in Unit.objects.filter(force__campaign=world.campaign):
        unit_edit(unit=unit, changes={"status": "ready", "morale_hits": 0, "casualty_hits": 0},
                  reason="fresh", actor=world.users["gm"])  # fmt: skip
    return list(Unit.objects.filter(force__campaign=world.campaign).order_by("pk"))


def _free_all(world):
    """Every unit made ready; those free to be sent into battle (in none still to be applied)."""
    engaged = engaged_units(campaign=world.campaign)
    return [u for u in _ready_all(world) if u.pk not in engaged]


def _setup_data(units, world, **extra):
    data = {"scenario": "crossroads", "turn_limit": "4", "seed": "3",
            "request_key": str(uuid.uuid4())}  # fmt: skip
    for unit in units:
        side = "blue" if unit.force_id == world.force.pk else "red"
        data.update({f"side_{unit.pk}": side, f"x_{unit.pk}": "", f"y_{unit.pk}": "",
                     f"order_{unit.pk}": "attack"})  # fmt: skip
    data.update(extra)
    return data


def test_it_offers_the_scenarios_spots_as_default_positions(client, world):
    units = _free_all(world)
    response = login(client, world, "gm").get(
        _url("battle-setup", world), {"scenario": "crossroads"}
    )
    spots = {
        side["id"]: [u["position"] for u in side["units"]]
        for side in json.loads(CROSSROADS.read_text())["sides"]
    }
    form = response.context["form"]
    # Red Company stands on the side named for its colour, "Red Force".
    first_red = next(u for u in form.units if u.force_id == world.force.pk)
    assert len(form.units) == len(units)
    assert form.fields[f"side_{first_red.pk}"].initial == "red"
    assert [
        form.fields[f"x_{first_red.pk}"].initial,
        form.fields[f"y_{first_red.pk}"].initial,
    ] == spots["red"][0]
    partial = client.get(_url("battle-setup", world), {"scenario": "landing"}, **HTMX)
    assert 'id="setup-form"' in partial.text and "<html" not in partial.text


def test_it_launches_a_battle_once_however_often_the_form_is_sent(client, world):
    units = _free_all(world)
    login(client, world, "gm")
    data = _setup_data(units, world)
    before = CampaignBattle.objects.count()
    with mock.patch("battles.tasks.resolve_battle.delay"):
        first = client.post(_url("battle-setup", world), data)
        second = client.post(_url("battle-setup", world), data)
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"]
    assert CampaignBattle.objects.count() == before + 1
    launched = CampaignBattle.objects.get(battle__request_key=data["request_key"])
    assert launched.battle.seed == 3 and launched.battle.turn_limit == 4
    assert sorted(pk for pks in launched.sides.values() for pk in pks) == [u.pk for u in units]
    page = client.get(first["Location"])
    assert "Queued: waiting for a worker." in page.text
    progress = client.get(_url("battle-progress", world, launched.pk), **HTMX)
    assert progress.status_code == 200, "still polling while the battle waits"


def test_a_turn_limit_left_blank_is_the_scenarios_and_the_form_says_so(client, world):
    units = _free_all(world)
    page = login(client, world, "gm").get(_url("battle-setup", world), {"scenario": "crossroads"})
    field = page.text.split('id="id_battle_setup_turn_limit"')[1].split("</div>")[0]
    assert "Blank: the scenario&#x27;s." in field
    data = _setup_data(units, world, turn_limit="")
    with mock.patch("battles.tasks.resolve_battle.delay"):
        assert client.post(_url("battle-setup", world), data).status_code == 302
    launched = CampaignBattle.objects.get(battle__request_key=data["request_key"])
    assert launched.battle.turn_limit == json.loads(CROSSROADS.read_text())["turn_limit"]


def test_the_set_up_names_each_units_leader_and_the_hit_points_it_goes_in_with(client, world):
    """A leader takes 3d6 for each Casualty hit its unit suffers: the GM putting units on sides
    reads who leads each, and how few hit points a wounded one has left."""
    from campaign.services.characters import character_create
    from campaign.services.leaders import leader_attach

    unit = _free_all(world)[0]
    kane = character_create(campaign=world.campaign, name="Sgt. Kane", hit_points=18,
                            actor=world.users["gm"])  # fmt: skip
    leader_attach(unit=unit, character=kane, actor=world.users["gm"])
    unit_edit(unit=Unit.objects.get(pk=unit.pk), changes={"leader_hit_points": 2},
              reason="wounded at the ford", actor=world.users["gm"])  # fmt: skip
    page = login(client, world, "gm").get(_url("battle-setup", world), {"scenario": "crossroads"})
    row = page.text.split(f'data-deploy-row="{unit.pk}"')[1].split("</th>")[0]
    assert "led by Sgt. Kane (2 of 18 hit points)" in row
    assert "A leader, named under its unit with the hit points it has left, takes 3d6" in page.text


def test_a_unit_in_a_battle_not_yet_applied_is_not_sent_into_another(client, world):
    free = _free_all(world)
    waiting = world.table_battle  # a table result awaiting the GM's review
    held = [pk for pks in waiting.sides.values() for pk in pks]
    assert held and not set(held) & {u.pk for u in free}
    page = login(client, world, "gm").get(_url("battle-setup", world), {"scenario": "crossroads"})
    offered = {u.pk for u in page.context["form"].units}
    assert offered == {u.pk for u in free}
    assert f"Still in {waiting.name}, whose outcome is not applied yet: " in page.text
    base = json.loads(CROSSROADS.read_text())
    unit = Unit.objects.get(pk=held[0])
    with pytest.raises(ValidationError) as refused:
        campaign_battle_launch(
            campaign=world.campaign, base=base, actor=world.users["gm"],
            deployments=[Deployment(unit=unit, side="blue", position=(6, 3))],
        )  # fmt: skip
    assert f"{unit} is still in {waiting.name}, whose outcome is not applied yet" in str(
        refused.value
    )
    campaign_battle_apply(campaign_battle=waiting, actor=world.users["gm"])
    again = client.get(_url("battle-setup", world), {"scenario": "crossroads"})
    still_ready = {pk for pk in held if Unit.objects.get(pk=pk).status == "ready"}
    assert still_ready <= {u.pk for u in again.context["form"].units}
    assert "whose outcome is not applied yet" not in again.text


def test_a_set_up_for_hundreds_of_ready_units_is_read(client, world):
    """About four fields a ready unit: Django's default of 1,000 fields refused a campaign of 250
    ready units with "could not be read"; the form itself answers now."""
    login(client, world, "gm")
    fields = {f"spare_{i}": "x" for i in range(4 * 500)}
    for name in ("battle-setup", "battle-record"):
        response = client.post(_url(name, world), fields)
        assert "could not be read" not in response.text, name
        assert response.status_code == 400 and "field-errors" in response.text, name


def test_it_wants_a_unit_on_each_side(client, world):
    units = _free_all(world)
    data = _setup_data(units, world)
    for unit in units:
        if unit.force_id == world.enemy.pk:
            data[f"side_{unit.pk}"] = ""
    response = login(client, world, "gm").post(_url("battle-setup", world), data)
    assert response.status_code == 400
    # The side by the name the page gives it, not its id.
    text = response.text
    missing = [n for n in ("first", "second") if f"No unit is on the {n} side: put" in text]
    assert len(missing) == 1 and "&#x27;blue&#x27;" not in text


def test_it_puts_a_position_the_engine_refuses_next_to_that_unit(client, world):
    units = _free_all(world)
    blue = next(u for u in units if u.force_id == world.force.pk)
    data = _setup_data(units, world, **{f"x_{blue.pk}": "500", f"y_{blue.pk}": "500"})
    response = login(client, world, "gm").post(_url("battle-setup", world), data)
    assert response.status_code == 400
    assert response.context["form"].errors.get(f"x_{blue.pk}")


@pytest.mark.parametrize(
    ("x", "y", "field", "words"),
    [
        ("3", "30", "y", "{name} at (3, 30) is off the 24″ × 24″ table: its y must be 0 to 24"),
        ("3", "", "y", "{name} has an x but no y: give both, or neither for the next spot"),
        ("3", "north", "y", "{name}'s y must be a number of inches"),
        ("", "3", "x", "{name} has a y but no x: give both, or neither for the next spot"),
        ("north", "3", "x", "{name}'s x must be a number of inches"),
        (
            "30",
            "30",
            "x",
            "{name} at (30, 30) is off the 24″ × 24″ table: its x must be 0 to 24 and its y "
            "must be 0 to 24",
        ),
    ],
)
def test_a_set_up_says_a_bad_coordinate_beside_its_own_box_naming_the_unit(
    client, world, x, y, field, words
):
    units = _free_all(world)
    blue = next(u for u in units if u.force_id == world.force.pk)
    data = _setup_data(units, world, **{f"x_{blue.pk}": x, f"y_{blue.pk}": y})
    response = login(client, world, "gm").post(_url("battle-setup", world), data)
    assert response.status_code == 400
    sentence = words.format(name=blue.name)
    assert response.context["form"].errors == {f"{field}_{blue.pk}": [sentence]}
    row = re.search(rf'<tr data-deploy-row="{blue.pk}">.*?</tr>', response.text, re.S)[0]
    shown = re.findall(
        r'<td data-label="([xy]) \(in\)">.*?class="field-errors"[^>]*>(.*?)</span>', row
    )
    assert shown == [(field, escape(f"{sentence}."))], "once, beside its own box"


def test_a_set_up_with_a_force_on_both_sides_says_so_at_its_unit_and_launches_nothing(
    client, world
):
    turncoat = raise_units(world.force, world.unit.unit_type, 1, "Turncoat")[0]
    units = _free_all(world)
    # Red Company fights as Blue Force, and its Turncoat is put on Red Force too.
    data = _setup_data(units, world, **{f"side_{turncoat.pk}": "red"})
    sentence = (
        "Red Company is on both sides: a force cannot fight itself; choose a unit of another force"
    )
    battles = CampaignBattle.objects.count()
    login(client, world, "gm")
    with mock.patch("battles.tasks.resolve_battle.delay"):
        response = client.post(_url("battle-setup", world), data)
    assert response.status_code == 400
    assert response.context["form"].errors == {f"side_{turncoat.pk}": [sentence]}
    assert sentence in response.text
    # The map's check, asked as units are moved, says it beside the same unit.
    checked = client.post(_url("battle-setup-check", world), data).json()
    assert checked["units"] == {str(turncoat.pk): [sentence]} and not checked["ok"]
    assert CampaignBattle.objects.count() == battles


def test_a_set_up_refused_at_a_units_orders_says_why_beside_them(client, world):
    units = _free_all(world)
    data = _setup_data(units, world, **{f"order_{units[0].pk}": "charge"})
    response = login(client, world, "gm").post(_url("battle-setup", world), data)
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert list(errors) == [f"order_{units[0].pk}"]
    unit = units[0]
    assert (
        f"{unit.name} ({unit.force.name}): “charge” is not an Order a unit takes into battle"
    ) in response.text


def test_it_shows_the_engine_report_to_every_member(client, world):
    for role in ("player", "rival", "spectator", "gm"):
        page = login(client, world, role).get(_url("battle", world, world.engine_battle.pk)).text
        assert "Download the log (JSON)" in page and "Map replay" in page, role
        assert ("revert the outcome" in page) == (role == "gm"), role
    log = client.get(_url("battle", world, world.engine_battle.pk), {"kind": "attack"}, **HTMX)
    assert log.status_code == 200 and "<html" not in log.text
    finished = client.get(_url("battle-progress", world, world.engine_battle.pk), **HTMX)
    assert finished.status_code == 286


def test_it_applies_and_reverts_an_outcome_under_review(client, world):
    login(client, world, "gm")
    battle = world.table_battle
    review = client.get(_url("battle-apply", world, battle.pk))
    assert review.status_code == 200 and "Apply these changes" in review.text
    unconfirmed = client.post(_url("battle-apply", world, battle.pk))
    assert unconfirmed.status_code == 200 and "Apply these changes" in unconfirmed.text
    battle.refresh_from_db()
    assert battle.state == CampaignBattle.State.AWAITING
    confirmed = client.post(_url("battle-apply", world, battle.pk), {"confirm": "yes"})
    assert confirmed.status_code == 302
    battle.refresh_from_db()
    assert battle.state == CampaignBattle.State.APPLIED
    again = client.post(_url("battle-apply", world, battle.pk), {"confirm": "yes"}, follow=True)
    assert "not waiting to be applied" in again.text
    no_reason = client.post(_url("battle-revert", world, battle.pk), {"reason": ""})
    assert no_reason.status_code == 400
    assert 'aria-invalid="true"' in no_reason.text and no_reason.text.count("autofocus") == 1
    reverted = client.post(_url("battle-revert", world, battle.pk), {"reason": "wrong map"})
    assert reverted.status_code == 302
    page = client.get(reverted["Location"])
    assert "outcome is undone" in page.text and "What the revert gave back" in page.text
    battle.refresh_from_db()
    assert battle.state == CampaignBattle.State.REVERTED


def test_it_records_a_table_battles_result_and_checks_it_against_the_cards(client, world):
    units = _ready_all(world)
    red = next(u for u in units if u.force_id == world.force.pk)
    blue = next(u for u in units if u.force_id == world.enemy.pk)
    login(client, world, "gm")
    data = {"name": "Hill 203", "day": "1", "side_a": "Red", "side_b": "Blue", "winner": "b",
            f"side_{red.pk}": "a", f"hits_lost_{red.pk}": "5", f"skill_lost_{red.pk}": "0",
            f"removed_{red.pk}": "none", f"side_{blue.pk}": "b", f"hits_lost_{blue.pk}": "0",
            f"skill_lost_{blue.pk}": "0", f"removed_{blue.pk}": "none"}  # fmt: skip
    for other in units:
        if other not in (red, blue):
            data.update({f"hits_lost_{other.pk}": "0", f"skill_lost_{other.pk}": "0",
                         f"removed_{other.pk}": "none"})  # fmt: skip
    refused = client.post(_url("battle-record", world), data)
    assert refused.status_code == 400
    errors = refused.context["form"].errors
    assert errors[f"hits_lost_{red.pk}"] == [
        f"{red.name}: at most 1 Hit can be lost, as many as its card has"
    ]
    # Each problem shows in the column it is about, in words, not the form's field names.
    data.update({f"hits_lost_{red.pk}": "0", f"skill_lost_{red.pk}": "9"})
    errors = client.post(_url("battle-record", world), data).context["form"].errors
    assert list(errors) == [f"skill_lost_{red.pk}"]
    assert "Skill can be lost" in errors[f"skill_lost_{red.pk}"][0]
    assert "skill_lost" not in errors[f"skill_lost_{red.pk}"][0]
    data[f"skill_lost_{red.pk}"] = "0"
    # A day or an hour the campaign has not reached, or a loss below 0, is said in words.
    errors = (
        client.post(
            _url("battle-record", world),
            {**data, "day": "9", "hour": "24", f"hits_lost_{red.pk}": "-1"},
        )
        .context["form"]
        .errors
    )
    assert errors["day"] == [
        "The battle's day must be a day the campaign has reached: day 1, not day 9."
    ]
    assert errors["hour"] == ["The battle's hour must be an hour of the day, 0 to 23, not 24."]
    assert errors[f"hits_lost_{red.pk}"] == ["At least 0 Hits."]
    # The page's form carries a one-time key: sent twice, it records the battle once.
    assert 'name="request_key"' in client.get(_url("battle-record", world)).text
    data["request_key"] = str(uuid.uuid4())
    response = client.post(_url("battle-record", world), data)
    assert response.status_code == 302, response.context["form"].errors
    again = client.post(_url("battle-record", world), data)
    assert again.status_code == 302 and again["Location"] == response["Location"]
    recorded = CampaignBattle.objects.get(name="Hill 203")
    assert recorded.table_result["winner"] == "Blue"
    assert recorded.state == CampaignBattle.State.AWAITING, "the campaign is in review mode"


def test_a_table_result_with_a_force_on_both_sides_says_so_at_the_second_side(client, world):
    units = _ready_all(world)
    red, turncoat = [u for u in units if u.force_id == world.force.pk][:2]
    blue = next(u for u in units if u.force_id == world.enemy.pk)
    login(client, world, "gm")
    data = {"name": "Hill 204", "day": "1", "side_a": "Red", "side_b": "Blue", "winner": "draw"}
    for unit in units:
        side = {red.pk: "a", blue.pk: "b", turncoat.pk: "b"}.get(unit.pk, "")
        data.update({f"side_{unit.pk}": side, f"hits_lost_{unit.pk}": "0",
                     f"skill_lost_{unit.pk}": "0", f"removed_{unit.pk}": "none"})  # fmt: skip
    battles = CampaignBattle.objects.count()
    response = client.post(_url("battle-record", world), data)
    sentence = (
        "Red Company is on both sides: a force cannot fight itself; choose a unit of another force"
    )
    assert response.status_code == 400
    assert response.context["form"].errors == {"side_b": [sentence]}
    assert sentence in response.text
    assert CampaignBattle.objects.count() == battles


def test_a_table_result_refused_at_how_a_unit_left_says_why_beside_it(client, world):
    units = _ready_all(world)
    free = _free_all(world)
    red = next(u for u in free if u.force_id == world.force.pk)
    blue = next(u for u in free if u.force_id == world.enemy.pk)
    login(client, world, "gm")
    data = {"name": "Hill 205", "day": "1", "side_a": "Red", "side_b": "Blue", "winner": "b"}
    for unit in units:
        side = {red.pk: "a", blue.pk: "b"}.get(unit.pk, "")
        data.update({f"side_{unit.pk}": side, f"hits_lost_{unit.pk}": "0",
                     f"skill_lost_{unit.pk}": "0", f"removed_{unit.pk}": "none"})  # fmt: skip
    data[f"removed_{red.pk}"] = "destroyed"  # destroyed, yet no Hit lost
    battles = CampaignBattle.objects.count()
    response = client.post(_url("battle-record", world), data)
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert list(errors) == [f"removed_{red.pk}"]
    for error in errors[f"removed_{red.pk}"]:
        assert str(error).replace("'", "&#x27;") in response.text
    assert CampaignBattle.objects.count() == battles


def test_every_error_of_the_table_result_form_is_shown_on_its_page(world):
    """Whatever field a refusal lands on (or none), the page shows it."""
    from django.template.loader import render_to_string

    from campaign.battle_forms import TableResultForm

    form = TableResultForm({}, units=_free_all(world), day=1)
    form.is_valid()
    form._errors = {}
    for name in form.fields:
        form.add_error(name, f"Problem at {name}")
    form.add_error(None, "Problem of the whole")
    html = render_to_string(
        "campaign/battle_record.html#record-form", {"form": form, "campaign": world.campaign}
    )
    for name in [*form.fields, "the-whole"]:
        wanted = f"Problem at {name}" if name != "the-whole" else "Problem of the whole"
        assert wanted in html, name


def test_a_table_result_does_not_offer_a_unit_whose_battle_awaits_its_outcome(client, world):
    units = _ready_all(world)
    free = _free_all(world)
    waiting = world.table_battle  # a table result awaiting the GM's review
    held = [u for u in units if u not in free]
    assert held and free
    login(client, world, "gm")
    page = client.get(_url("battle-record", world))
    assert {u.pk for u in page.context["form"].units} == {u.pk for u in free}
    assert f"Still in {waiting.name}, whose outcome is not applied yet: {held[0].name} (" in (
        page.text
    )
    assert f'name="side_{held[0].pk}"' not in page.text
    # A page drawn before that battle began still offers the unit: refused, nothing written.
    red = next(u for u in free if u.force_id == world.force.pk)
    blue = next(u for u in free if u.force_id == world.enemy.pk)
    data = {"name": "Hill 206", "day": "1", "side_a": "Red", "side_b": "Blue", "winner": "draw"}
    for unit in units:
        side = {red.pk: "a", blue.pk: "b", held[0].pk: "a"}.get(unit.pk, "")
        data.update({f"side_{unit.pk}": side, f"hits_lost_{unit.pk}": "0",
                     f"skill_lost_{unit.pk}": "0", f"removed_{unit.pk}": "none"})  # fmt: skip
    battles = CampaignBattle.objects.count()
    response = client.post(_url("battle-record", world), data)
    sentence = f"{held[0].name} is still in {waiting.name}, whose outcome is not applied yet"
    assert response.status_code == 400
    assert response.context["form"].errors == {"__all__": [sentence]}
    assert sentence in response.text
    assert CampaignBattle.objects.count() == battles
    # Once its outcome is applied, the unit is offered again if it is still ready.
    campaign_battle_apply(campaign_battle=waiting, actor=world.users["gm"])
    again = client.get(_url("battle-record", world))
    still_ready = {u.pk for u in held if Unit.objects.get(pk=u.pk).status == "ready"}
    assert still_ready <= {u.pk for u in again.context["form"].units}
    assert "whose outcome is not applied yet" not in again.text


def test_a_set_up_sent_from_a_page_drawn_before_a_units_battle_began_is_refused(client, world):
    free = _free_all(world)
    held = next(u for u in _ready_all(world) if u not in free)
    data = _setup_data([*free, held], world)
    battles = CampaignBattle.objects.count()
    login(client, world, "gm")
    with mock.patch("battles.tasks.resolve_battle.delay"):
        response = client.post(_url("battle-setup", world), data)
    waiting = world.table_battle.name
    sentence = f"{held.name} is still in {waiting}, whose outcome is not applied yet"
    assert response.status_code == 400
    assert response.context["form"].errors == {"__all__": [sentence]}
    assert CampaignBattle.objects.count() == battles


def test_progress_waits_for_the_campaign_then_refreshes_state_and_review(client, world):
    """The engine may finish before the campaign takes the outcome in: the page polls on,
    then swaps the report in and updates the outcome state and the review panel out of band."""
    cb = world.engine_battle
    CampaignBattle.objects.filter(pk=cb.pk).update(state=CampaignBattle.State.FIGHTING)
    login(client, world, "gm")
    waiting = client.get(_url("battle-progress", world, cb.pk), **HTMX)
    assert waiting.status_code == 200, "polls on until the campaign has settled"
    assert "taking in its outcome" in waiting.text and "hx-swap-oob" not in waiting.text
    CampaignBattle.objects.filter(pk=cb.pk).update(state=CampaignBattle.State.AWAITING)
    settled = client.get(_url("battle-progress", world, cb.pk), **HTMX)
    assert settled.status_code == 286
    assert '<span id="cb-state" hx-swap-oob="true">' in settled.text
    assert (
        'id="review" class="review" aria-labelledby="review-h" hx-swap-oob="true"' in settled.text
    )
    assert "Review and apply the outcome" in settled.text and "Map replay" in settled.text
    player = login(client, world, "player").get(_url("battle-progress", world, cb.pk), **HTMX)
    assert player.status_code == 286 and "Review and apply the outcome" not in player.text


def test_progress_opened_without_htmx_leads_to_the_battles_page(client, world):
    cb = world.engine_battle
    login(client, world, "gm")
    response = client.get(_url("battle-progress", world, cb.pk))
    assert response.status_code == 302
    assert response["Location"] == _url("battle", world, cb.pk)


def test_a_gm_saves_a_map_and_sets_up_a_battle_on_it(client, world):
    from campaign.models import SavedMap

    login(client, world, "gm")
    scenario = json.loads(CROSSROADS.read_text())
    scenario["name"] = "Mill Road"
    bad = dict(scenario, turn_limit=0)
    refused = client.post(
        _url("map-add", world), {"name": "Mill Road", "scenario": json.dumps(bad)}
    )
    assert refused.status_code == 400 and "turn_limit" in refused.text
    not_json = client.post(_url("map-add", world), {"name": "Mill Road", "scenario": "{oops"})
    assert not_json.status_code == 400 and "not JSON" in not_json.text
    assert not SavedMap.objects.exists()
    saved = client.post(
        _url("map-add", world), {"name": "Mill Road", "scenario": json.dumps(scenario)}
    )
    kept = SavedMap.objects.get()
    assert saved.status_code == 302 and saved["Location"].endswith(f"?scenario=map-{kept.pk}")
    again = client.post(
        _url("map-add", world), {"name": "Mill Road", "scenario": json.dumps(scenario)}
    )
    assert again.status_code == 400 and "already has a map" in again.text
    setup = client.get(_url("battle-setup", world), {"scenario": f"map-{kept.pk}"})
    assert setup.context["chosen"].name == "Mill Road (saved map)"
    units = _free_all(world)
    data = _setup_data(units, world, scenario=f"map-{kept.pk}")
    with mock.patch("battles.tasks.resolve_battle.delay"):
        launched = client.post(_url("battle-setup", world), data)
    assert launched.status_code == 302
    cb = CampaignBattle.objects.latest("pk")
    assert cb.battle.scenario["name"] == "Mill Road"
    assert cb.battle.scenario["ruleset"] == world.campaign.ruleset


def test_a_map_saved_twice_at_once_is_kept_once_and_the_second_told_why(client, world):
    # The second of two Saves sent together (a double click) answered 500: both checked the
    # name free, then the second insert broke the table's one-name rule.
    from campaign.models import SavedMap
    from campaign.services import maps

    checked = maps.map_checked

    def first_saves_meanwhile(campaign, name, text, **kwargs):
        kept = checked(campaign, name, text, **kwargs)
        SavedMap.objects.create(campaign=campaign, name=name, scenario=kept[1])
        return kept

    login(client, world, "gm")
    scenario = json.dumps(json.loads(CROSSROADS.read_text()))
    with mock.patch.object(maps, "map_checked", first_saves_meanwhile):
        second = client.post(_url("map-add", world), {"name": "Mill Road", "scenario": scenario})
    assert second.status_code == 400
    assert second.context["map_form"].errors["name"] == [
        "the campaign already has a map called “Mill Road”; choose another name"
    ]
    assert SavedMap.objects.filter(campaign=world.campaign).count() == 1


def test_a_saved_map_removed_is_no_longer_offered_and_its_battles_keep_their_table(client, world):
    from campaign.models import SavedMap
    from campaign.services.maps import saved_map_create

    scenario = dict(json.loads(CROSSROADS.read_text()), name="Mill Road")
    kept = saved_map_create(campaign=world.campaign, name="Mill Road", text=json.dumps(scenario))
    login(client, world, "gm")
    units = _free_all(world)
    with mock.patch("battles.tasks.resolve_battle.delay"):
        client.post(
            _url("battle-setup", world), _setup_data(units, world, scenario=f"map-{kept.pk}")
        )
    fought = CampaignBattle.objects.latest("pk")
    setup = client.get(_url("battle-setup", world)).text
    remove = _url("map-remove", world, kept.pk)
    assert f'action="{remove}"' in setup and 'aria-label="Remove the map Mill Road"' in setup
    done = client.post(remove, follow=True)
    assert done.redirect_chain == [(_url("battle-setup", world), 302)]
    assert "Map Mill Road removed; the battles fought on it keep their table." in done.text
    assert not SavedMap.objects.exists()
    assert "Mill Road (saved map)" not in done.text
    fought.battle.refresh_from_db()
    assert fought.battle.scenario["name"] == "Mill Road"
    assert client.get(_url("battle", world, fought.pk)).status_code == 200
    again = client.post(remove, follow=True)
    assert "That map is removed already." in again.text
    login(client, world, "player")
    kept2 = saved_map_create(campaign=world.campaign, name="Hill", text=json.dumps(scenario))
    assert client.post(_url("map-remove", world, kept2.pk)).status_code == 403


@pytest.mark.parametrize("htmx", [False, True])
def test_a_launch_on_a_map_removed_since_launches_nothing_on_another(client, world, htmx):
    # The set-up open in one tab on a map, the map removed in another: Launch there fights
    # nowhere else (Big Battle, first in the list, has the map's sides, blue and red).
    from campaign.services.maps import saved_map_create, saved_map_remove

    scenario = dict(json.loads(CROSSROADS.read_text()), name="Mill Road")
    kept = saved_map_create(campaign=world.campaign, name="Mill Road", text=json.dumps(scenario))
    login(client, world, "gm")
    units = _free_all(world)
    data = _setup_data(units, world, scenario=f"map-{kept.pk}")
    saved_map_remove(saved_map=kept, actor=world.users["gm"])
    before = CampaignBattle.objects.count()
    headers = {"HX-Request": "true"} if htmx else {}
    with mock.patch("battles.tasks.resolve_battle.delay"):
        refused = client.post(_url("battle-setup", world), data, headers=headers)
    assert CampaignBattle.objects.count() == before
    if htmx:  # the whole page again: the scenario list above the form offers the map no more
        assert refused["HX-Redirect"] == _url("battle-setup", world)
        refused = client.get(_url("battle-setup", world))
        assert "Mill Road" not in refused.text
    else:
        assert refused.status_code == 400
    assert (
        "The scenario this set-up was for is no longer offered (a map removed since the page "
        "was drawn): nothing was launched. Set the battle up again on a scenario from the list."
    ) in refused.text
    assert "is not a side of this scenario" not in refused.text
    # The set-up's live check says the same, not the other scenario's refusals of each unit.
    check = client.post(_url("battle-setup-check", world), data)
    assert check.status_code == 400
    assert check.json() == {"units": {}, "general": [SCENARIO_GONE], "ok": False}


def test_a_characters_order_shows_on_the_set_up_and_the_battles_page(client, world):
    from campaign.services.characters import character_create
    from campaign.services.orders import order_give

    units = _free_all(world)
    holt = character_create(campaign=world.campaign, name="Capt. Holt", hit_points=12,
                            actor=world.users["gm"])  # fmt: skip
    ordered = next(u for u in units if u.force_id == world.force.pk)
    order_give(giver=holt, unit=ordered, kind="use_skill", actor=world.users["gm"])
    login(client, world, "gm")
    page = client.get(_url("battle-setup", world), {"scenario": "crossroads"})
    said = "Order to Use Skill, given by Capt. Holt: holds. The Order is under way until day"
    assert said in page.text
    assert f'name="order_{ordered.pk}"' not in page.text  # no standing Order to choose
    others = [u for u in units if u.pk != ordered.pk]
    assert all(f'name="order_{u.pk}"' in page.text for u in others)
    data = _setup_data(units, world)
    data.pop(f"order_{ordered.pk}")
    data[f"order_{others[-1].pk}"] = "none"
    with mock.patch("battles.tasks.resolve_battle.delay"):
        response = client.post(_url("battle-setup", world), data)
    assert response.status_code == 302
    launched = CampaignBattle.objects.get(battle__request_key=data["request_key"])
    placed = {launched.engine_units[u["id"]]: u for side in launched.battle.scenario["sides"]
              for u in side["units"]}  # fmt: skip
    assert placed[ordered.pk]["order"] == {"kind": "hold"}
    assert "order" not in placed[others[-1].pk]  # "No Order"
    page = client.get(response["Location"]).text
    # The battle's page is a record of the launch: the Order may have ended since.
    said = (
        "went in to hold, under Capt. Holt&#x27;s Order to Use Skill. When the battle began, the "
        "Order was under way until day"
    )
    assert "Orders going in" in page and said in page
    assert "The Order is under way" not in page
    rival = login(client, world, "rival").get(response["Location"]).text
    assert said in rival  # this campaign shows every roster to every member
    Campaign.objects.filter(pk=world.campaign.pk).update(
        other_forces_visible=Campaign.Visibility.SUMMARY
    )
    rival = client.get(response["Location"]).text
    assert said not in rival, "rosters hidden: a side does not read the other side's Orders"
    assert "Iron Wolf (Blue Battalion)</strong> went in without an Order." in rival


def test_a_battle_fought_long_ago_says_its_orders_were_under_way_when_it_began(client, world):
    """A battle keeps how each unit's Orders went in as the set-up said it at launch ("The
    Order is under way until day 2, 01:00."); its page and its card sheet read it afterwards as
    a record of that moment, not as an Order still under way."""
    cb = world.engine_battle
    unit = str(world.unit.pk)
    kept = "Use Skill, Ordered by Capt. Holt: holds. The Order is under way until day 2, 01:00."
    cb.orders = {**cb.orders, unit: {**cb.orders[unit], "text": kept}}
    cb.save(update_fields=["orders"])
    login(client, world, "gm")
    record = (
        "ent in to hold, under Capt. Holt&#x27;s Order to Use Skill. When the battle began, the "
        "Order was under way until day 2, 01:00."
    )
    for page in (_url("battle", world, cb.pk), _url("battle-cards", world, cb.pk)):
        text = client.get(page).text
        assert record in text, page
        assert "is under way" not in text, page


def test_two_refusals_of_one_units_column_on_a_table_result_read_as_two_lines(client, world):
    """A unit entered with every Hit lost and its Skill brought down to demoralisation, but
    "still in the field", is refused twice in its "Left the battle" column: each refusal on its
    own line, not run together into one sentence."""
    units = _ready_all(world)
    red = next(u for u in units if u.force_id == world.force.pk)
    blue = next(u for u in units if u.force_id == world.enemy.pk)
    login(client, world, "gm")
    data = {"name": "Hill 205", "day": "1", "side_a": "Red", "side_b": "Blue", "winner": "b",
            f"side_{red.pk}": "a", f"hits_lost_{red.pk}": "1", f"skill_lost_{red.pk}": "0",
            f"removed_{red.pk}": "none", f"side_{blue.pk}": "b", f"hits_lost_{blue.pk}": "0",
            f"skill_lost_{blue.pk}": "0", f"removed_{blue.pk}": "none"}  # fmt: skip
    for other in units:
        if other not in (red, blue):
            data.update({f"hits_lost_{other.pk}": "0", f"skill_lost_{other.pk}": "0",
                         f"removed_{other.pk}": "none"})  # fmt: skip
    # The most Skill it can lose, which leaves it demoralised: read off the refusal of one more.
    data[f"skill_lost_{red.pk}"] = "9"
    said = client.post(_url("battle-record", world), data).context["form"].errors
    most = int(re.search(r"at most (\d+) Skill", said[f"skill_lost_{red.pk}"][0])[1])
    data[f"skill_lost_{red.pk}"] = str(most)
    refused = client.post(_url("battle-record", world), data)
    errors = refused.context["form"].errors[f"removed_{red.pk}"]
    assert len(errors) == 2, errors
    span = re.search(rf'removed_{red.pk}_error">(.*?)</span>', refused.text, re.S)[1]
    assert "<br>" in span and span.count("<br>") == 1, span


def test_a_table_results_form_gives_each_units_card_skill_and_hits_as_printed_now(client, world):
    """The GM enters Hits and Skill "as the cards it fought with count them": each unit's row
    gives the Skill and Hits of the card printed for it now, as its printable card has them
    and as the result is judged (an Average rifle squad without an Order: Skill 2)."""
    from campaign.services import unit_create

    pickets = unit_create(force=world.force, unit_type=world.unit.unit_type, name="Pickets",
                          quality="average", specialties=["infantry"])  # fmt: skip
    page = login(client, world, "gm").get(_url("battle-record", world)).text
    row = re.search(r"<th scope=\"row\">Pickets<br>(.*?)</th>", page, re.S)[1]
    assert "card now: Skill 2, Hits 1" in row
    card = re.sub(r"<[^>]+>", "", client.get(_url("unit-card", world, pickets.pk)).text)
    assert "Skill 2 · Move 5 · Resistance 1 · Hits 1" in card


def test_a_table_results_rows_are_cards_on_a_tablet_held_upright(client, world):
    """At 820 px the table result's choices were cut to "Not fightin…" and "Taken out
    (destroye…": as a table, the unit's name, two numbers and two choices need some 52rem.
    Its rows are cards up to a tablet held upright, as the review's are, each choice as wide
    as its longest words (the screenshots: test-artifacts/browser/ at 820 and 390 px)."""
    from tests.web.test_campaign_review import TABLET_UPRIGHT, cards_up_to_px

    page = login(client, world, "gm").get(
        reverse("campaign:battle-record", args=[world.campaign.pk])
    )
    assert re.search(r'<table class="[^"]*\brecord-rows\b', page.text)
    widest = cards_up_to_px("table.record-rows")
    assert widest is not None, "the table result's rows turn into cards on a narrow screen"
    assert widest >= TABLET_UPRIGHT


def test_a_battles_state_line_says_how_often_it_was_applied_and_reverted(client, world):
    """Applied only when waiting or reverted, and reverted only when applied: the state line
    says from the count of applications how often the outcome was reverted between."""
    from campaign.services.battles import campaign_battle_revert

    cb, gm = world.table_battle, world.users["gm"]
    login(client, world, "gm")

    def state_line() -> str:
        page = client.get(_url("battle", world, cb.pk)).text
        assert 'id="cb-state"' in page, page[:3000]
        line = re.search(r'<span id="cb-state"><span[^>]*>(.*?)</span>(.*?)</span>', page)
        return line.group(1) + line.group(2)

    campaign_battle_apply(campaign_battle=cb, actor=gm)
    assert state_line() == "applied"
    campaign_battle_revert(campaign_battle=cb, reason="miscounted", actor=gm)
    assert state_line() == "reverted"
    campaign_battle_apply(campaign_battle=cb, actor=gm)
    assert state_line() == "applied (applied again after a revert)"
    campaign_battle_revert(campaign_battle=cb, reason="miscounted again", actor=gm)
    assert state_line() == "reverted (applied twice, reverted each time)"
    campaign_battle_apply(campaign_battle=cb, actor=gm)
    assert state_line() == "applied (applied 3 times, reverted twice)"


def test_a_table_results_side_and_winner_choices_name_each_side_as_the_gm_would(client, world):
    """The choices of a unit's side and of the winner read the name typed for the side, else
    the one force whose units are on it so far (as the battle's page names it), else its place;
    never "First side" beside a side named "Blue Battalion". Shown again after a refusal, and
    named the same by the page's script as the GM types."""
    units = _ready_all(world)
    red = next(u for u in units if u.force_id == world.force.pk)
    blue = next(u for u in units if u.force_id == world.enemy.pk)
    login(client, world, "gm")
    page = client.get(_url("battle-record", world))
    assert "campaign/table-sides.js" in page.text
    assert 'data-place-a="First side" data-place-b="Second side"' in page.text
    assert f'data-force="{red.force.name}"' in page.text
    # The side names typed, and an empty one whose units so far are of one force; the battle's
    # name left out, so the form is shown again.
    data = {"name": "", "day": "1", "side_a": "Blue Battalion", "side_b": " ", "winner": "draw"}
    for unit in units:
        side = {red.pk: "b", blue.pk: "a"}.get(unit.pk, "")
        data.update({f"side_{unit.pk}": side, f"hits_lost_{unit.pk}": "0",
                     f"skill_lost_{unit.pk}": "0", f"removed_{unit.pk}": "none"})  # fmt: skip
    form = client.post(_url("battle-record", world), data).context["form"]
    named = [("a", "Blue Battalion"), ("b", red.force.name)]
    assert form.fields["winner"].choices == [
        ("", "Choose the winner"),
        *named,
        ("draw", "Neither (a draw)"),
    ]
    assert form.fields[f"side_{red.pk}"].choices == [("", "Not fighting"), *named]
    # No name and units of two forces (or none) on a side: its place.
    data.update(side_a="", side_b="", **{f"side_{blue.pk}": "b"})
    form = client.post(_url("battle-record", world), data).context["form"]
    assert form.fields["winner"].choices[1:3] == [("a", "First side"), ("b", "Second side")]
