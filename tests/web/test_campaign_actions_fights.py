"""Quick resolves and engagements from the pages: fought once however often the form is sent,
offering only ready units and refusing a side not offered or a unit against itself in words; and,
where the GM reviews each outcome first, the review showing the outcome in the words the history
then uses and writing nothing, Apply writing what it showed and refused once a unit has changed
since."""

from __future__ import annotations

import re
import uuid

import pytest
from django.apps import apps
from django.urls import reverse

from campaign.models import Campaign, Engagement, HistoryEntry, Unit
from campaign.services import unit_create, unit_edit
from tests.web.campaign_world import login, raise_units
from tests.web.test_campaign_actions_calendar import (
    HTMX,
    _applied_at_once,
    _field_errors,
    _ready,
    _url,
)

pytestmark = pytest.mark.django_db


def test_it_quick_resolves_an_engagement(client, world):
    attacker, defender = _ready(world, world.unit), _ready(world, world.enemy_unit)
    _applied_at_once(world)
    login(client, world, "gm")
    url = _url("quick-resolve", world)
    data = {"attacker": attacker.pk, "defender": defender.pk, "defender_dug_in": "on",
            "round_limit": "3", "seed": "4", "reason": "patrol"}  # fmt: skip
    response = client.post(url, data)
    record = Engagement.objects.latest("id")
    # Fought as a one-against-one engagement: its round-by-round log is the engagement's page.
    assert response.status_code == 302
    assert response["Location"] == reverse("campaign:engagement", args=[world.campaign.pk,
                                                                       record.pk])  # fmt: skip
    assert record.seed == 4 and record.setup["situations"][str(defender.pk)]["dug_in"] is True
    assert record.setup["sides"] == {"attackers": [attacker.pk], "defenders": [defender.pk]}
    page = client.get(response["Location"])
    assert page.status_code == 200 and "Patrol" in page.text  # its name, capitalised
    # The message after it names the winner, not "the defenders".
    won = {"attackers": attacker.name, "defenders": defender.name}.get(record.winner)
    said = f"Quick resolve: {won} won after" if won else "Quick resolve: no winner"
    assert said in page.text
    _ready(world, attacker)
    comrade = raise_units(world.force, attacker.unit_type, 1, "Comrade")[0]
    same_force = client.post(url, {**data, "defender": comrade.pk})
    assert same_force.status_code == 400
    assert _field_errors(same_force, "defender") == [
        "Red Company is on both sides: a force cannot fight itself; choose a unit of another force"
    ]


def test_a_quick_resolve_sent_twice_fights_once(client, world):
    """A double click sends the form's one request key twice: the second finds the engagement
    the first fought and goes to it, writing nothing (before, both fought and both applied)."""
    attacker, defender = _ready(world, world.unit), _ready(world, world.enemy_unit)
    _applied_at_once(world)
    login(client, world, "gm")
    form = client.get(reverse("campaign:dashboard", args=[world.campaign.pk])).text
    key = re.search(r'name="request_key" value="([^"]+)"', form).group(1)
    assert 'id="id_quick_resolve_request_key"' in form and "Request key" not in form
    data = {"attacker": attacker.pk, "defender": defender.pk, "round_limit": "3", "seed": "4",
            "request_key": key}  # fmt: skip
    first = client.post(_url("quick-resolve", world), data)
    engagements, entries = Engagement.objects.count(), HistoryEntry.objects.count()
    again = client.post(_url("quick-resolve", world), data)
    assert again.status_code == 302 and again["Location"] == first["Location"]
    assert (Engagement.objects.count(), HistoryEntry.objects.count()) == (engagements, entries)
    # Sent again once a unit it named is out of action (it lost, say): still the first's
    # engagement, not "Select a valid choice" beside the unit no longer offered.
    Unit.objects.filter(pk=defender.pk).update(status="retreated", in_combat_zone=False)
    late = client.post(_url("quick-resolve", world), data)
    assert late.status_code == 302 and late["Location"] == first["Location"]
    assert (Engagement.objects.count(), HistoryEntry.objects.count()) == (engagements, entries)
    damaged = client.post(_url("quick-resolve", world), {**data, "request_key": "not-a-key"})
    assert damaged.status_code == 400
    assert "This form is damaged; reload the page and try again." in damaged.text


def test_an_engagement_side_not_offered_is_refused_in_words_beside_its_unit(client, world):
    # The select was marked invalid and pointed at its error, which was never drawn.
    attacker, defender = _ready(world, world.unit), _ready(world, world.enemy_unit)
    login(client, world, "gm")
    form = client.get(_url("engagement-setup", world)).context["form"]
    name = form[f"side_{attacker.pk}"].html_name
    data = {"terrain": "open", "round_limit": "2", "seed": "5", name: "BOGUS",
            form[f"side_{defender.pk}"].html_name: "defenders"}  # fmt: skip
    refused = client.post(_url("engagement-setup", world), data)
    assert refused.status_code == 400
    error_id = f"{form[f'side_{attacker.pk}'].auto_id}_error"
    assert f'aria-describedby="{error_id}"' in refused.text
    shown = re.search(rf'<span class="field-errors" id="{error_id}">([^<]+)</span>', refused.text)
    assert shown and "“BOGUS” is not a side of an engagement" in shown[1]
    assert f"{attacker.name} ({attacker.force.name})" in shown[1]
    assert not Engagement.objects.exists()


def test_an_engagement_sent_twice_is_fought_once(client, world):
    _applied_at_once(world)
    attacker, defender = _ready(world, world.unit), _ready(world, world.enemy_unit)
    login(client, world, "gm")
    page = client.get(_url("engagement-setup", world)).text
    key = re.search(r'name="request_key" value="([^"]+)"', page).group(1)
    form = client.get(_url("engagement-setup", world)).context["form"]
    data = {"terrain": "open", "round_limit": "2", "seed": "5", "request_key": key,
            form[f"side_{attacker.pk}"].html_name: "attackers",
            form[f"side_{defender.pk}"].html_name: "defenders"}  # fmt: skip
    first = client.post(_url("engagement-setup", world), data)
    assert first.status_code == 302, first.text
    # Applied at once: fought and written, and on to its page.
    assert first["Location"] == _url("engagement", world, Engagement.objects.get().pk)
    engagements, entries = Engagement.objects.count(), HistoryEntry.objects.count()
    again = client.post(_url("engagement-setup", world), data)
    assert again.status_code == 302 and again["Location"] == first["Location"]
    assert (Engagement.objects.count(), HistoryEntry.objects.count()) == (engagements, entries)


def test_a_quick_resolve_of_a_unit_against_itself_says_a_unit_cannot_fight_itself(client, world):
    unit = _ready(world, world.unit)
    login(client, world, "gm")
    engagements = Engagement.objects.count()
    response = client.post(_url("quick-resolve", world), {"attacker": unit.pk,
                           "defender": unit.pk, "round_limit": "3", "reason": ""})  # fmt: skip
    assert response.status_code == 400
    assert _field_errors(response, "defender") == [
        f"{unit.name} is on both sides: a unit cannot fight itself; choose a unit of another force"
    ]
    assert "a force cannot fight itself" not in response.text
    assert Engagement.objects.count() == engagements


def test_a_quick_resolve_offers_only_ready_units_and_refuses_one_no_longer_ready(client, world):
    ready = _ready(world, world.enemy_unit)
    unit_edit(unit=world.unit, changes={"status": "retreated"}, reason="broke",
              actor=world.users["gm"])  # fmt: skip
    login(client, world, "gm")
    form = client.get(reverse("campaign:dashboard", args=[world.campaign.pk])).context["quick_form"]
    offered = {unit.pk for unit in form.fields["attacker"].queryset}
    assert ready.pk in offered and world.unit.pk not in offered
    assert offered == {u.pk for u in Unit.objects.filter(force__campaign=world.campaign,
                                                         status="ready")}  # fmt: skip
    engagements = Engagement.objects.count()
    data = {"attacker": world.unit.pk, "defender": ready.pk, "round_limit": "3"}
    refused = client.post(_url("quick-resolve", world), data)
    # Retreated since the dashboard was drawn (another tab): said by its name and why, not as
    # "Select a valid choice".
    assert refused.status_code == 400
    assert _field_errors(refused, "attacker") == [
        f"{world.unit.name} ({world.force.name}) cannot fight: it is retreated in poor order"
    ]
    assert Engagement.objects.count() == engagements


def test_a_quick_resolve_kept_from_before_stays_on_the_dashboard(client, world):
    from campaign.models import QuickResolve

    QuickResolve.objects.create(
        campaign=world.campaign, day=1, attacker=world.unit, defender=world.enemy_unit, seed=3,
        round_limit=5, setup={}, events=[{"event": "end", "rounds": 2, "winner": "attacker"}],
        rounds=2, winner="attacker", reason="old patrol",
    )  # fmt: skip
    login(client, world, "gm")
    page = client.get(reverse("campaign:dashboard", args=[world.campaign.pk])).text
    assert "Quick resolves fought before they were engagements" in page
    assert f"(old patrol) — {world.unit.name} won after 2 rounds" in page


@pytest.mark.parametrize("key", ["side_²", "side_" + "9" * 30])
def test_a_side_field_named_for_no_unit_could_have_is_ignored_not_a_crash(client, world, key):
    # Such a key was read as a unit's key: int("²") raised, and 30 nines overflowed SQLite.
    _applied_at_once(world)
    attacker, defender = _ready(world, world.unit), _ready(world, world.enemy_unit)
    login(client, world, "gm")
    form = client.get(_url("engagement-setup", world)).context["form"]
    data = {"terrain": "open", "round_limit": "2", "seed": "5", key: "attackers",
            form[f"side_{attacker.pk}"].html_name: "attackers",
            form[f"side_{defender.pk}"].html_name: "defenders"}  # fmt: skip
    answer = client.post(_url("engagement-setup", world), data)
    assert answer.status_code == 302, answer.status_code  # fought by the units it names
    assert Engagement.objects.count() == 1


def _rows():
    """How many rows each table holds: a review writes none of them."""
    return {model._meta.label: model.objects.count() for model in apps.get_models()}


def _log(page):
    """The rounds as a page gives them, word for word."""
    return re.search(r'<div id="log">.*?</div>\n', page, re.S)[0]


def _quick_review(client, world):
    """Resolve on the dashboard of a campaign whose GM reviews each outcome first: the review
    it leads to, and the Apply form's fields."""
    attacker, defender = _ready(world, world.unit), _ready(world, world.enemy_unit)
    login(client, world, "gm")
    data = {"attacker": attacker.pk, "defender": defender.pk, "defender_dug_in": "on",
            "round_limit": "4", "reason": "patrol", "request_key": str(uuid.uuid4())}  # fmt: skip
    rows = _rows()
    sent = client.post(_url("quick-resolve", world), data, **HTMX)
    review_url = sent["HX-Redirect"]
    assert sent.status_code == 200 and review_url.startswith(_url("quick-resolve", world) + "?")
    assert "seed=" in review_url  # drawn now: the review, reloaded, shows the same dice
    review = client.get(review_url)
    assert _rows() == rows  # nothing written: no engagement, no history, no form key
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', review.text))
    return review, fields


def test_a_quick_resolve_the_gm_reviews_first_shows_its_outcome_and_writes_nothing(client, world):
    assert world.campaign.apply_mode == Campaign.ApplyMode.REVIEW
    review, fields = _quick_review(client, world)
    assert review.status_code == 200 and "Apply the outcome?" in review.text
    assert "Patrol: " in review.text and "Applying writes these changes" in review.text
    assert "Round 1" in _log(review.text) and "Dug In" in _log(review.text)
    assert ">Apply</button>" in review.text and ">Cancel</a>" in review.text
    assert fields["confirm"] == "yes" and fields["reviewed"] and fields["seed"]
    # Without JavaScript too: the plain post goes to the same review.
    plain = client.post(
        _url("quick-resolve", world),
        {k: v for k, v in fields.items() if k not in ("confirm", "reviewed")},
    )
    assert plain.status_code == 302 and f"seed={fields['seed']}" in plain["Location"]
    assert not Engagement.objects.exists()


def test_apply_writes_the_quick_resolve_its_review_showed(client, world):
    review, fields = _quick_review(client, world)
    applied = client.post(_url("quick-resolve", world), fields)
    record = Engagement.objects.get()
    assert applied.status_code == 302
    assert applied["Location"] == _url("engagement", world, record.pk)
    assert str(record.seed) == fields["seed"]
    # The same rounds and hits, in the same words, and each unit left as the review said.
    assert _log(client.get(applied["Location"]).text) == _log(review.text)
    for change in review.context["changes"]:
        assert Unit.objects.get(pk=change.unit.pk).state == change.after
    again = client.post(_url("quick-resolve", world), fields)  # a double click: once
    assert again["Location"] == applied["Location"] and Engagement.objects.count() == 1


def test_an_engagements_review_tells_each_unit_in_the_words_its_history_then_uses(client, world):
    """The review before Apply read "Hits: 0 Morale, 0 Casualty → 1 Morale, 0 Casualty",
    "Experience: 2 → 0": field diffs, where a battle's review tells each unit in sentences. It
    tells each unit as the engagement's own page does once applied, in the same words, under
    "What the engagement did", not "What the battle did"."""
    review, fields = _quick_review(client, world)
    told = {change.unit.pk: change.lines for change in review.context["changes"]}
    assert len(told) == 2 and all(told.values()), told
    assert '<table class="changes told">' in review.text
    assert ">What the engagement did</th>" in review.text
    assert "What the battle did" not in review.text
    applied = client.post(_url("quick-resolve", world), fields)
    page = client.get(applied["Location"])
    assert {change.unit.pk: change.lines for change in page.context["changes"]} == told
    assert ">What the engagement did</th>" in page.text


def test_apply_is_refused_when_a_unit_changed_since_the_review(client, world):
    _, fields = _quick_review(client, world)
    unit_edit(unit=world.enemy_unit, changes={"morale_hits": 1}, reason="shelled",
              actor=world.users["gm"])  # fmt: skip
    rows = _rows()
    refused = client.post(_url("quick-resolve", world), fields)
    assert refused.status_code == 400
    assert _field_errors(refused, "__all__") == [
        f"{world.enemy_unit.name} has changed since you reviewed this engagement: review it again."
    ]
    assert _rows() == rows


def _setup_review(client, world):
    """Fight on the engagement set-up of a campaign whose GM reviews each outcome first, two
    units against one, one of them Dug In: the review it leads to, and the Apply form's fields."""
    first, defender = _ready(world, world.unit), _ready(world, world.enemy_unit)
    second = unit_create(force=world.force, unit_type=world.unit.unit_type, name="Second Squad",
                         quality="average", specialties=["infantry"])  # fmt: skip
    login(client, world, "gm")
    form = client.get(_url("engagement-setup", world)).context["form"]
    data = {"terrain": "jungle", "round_limit": "4", "name": "the mill ford",
            "request_key": str(uuid.uuid4()),
            form[f"side_{first.pk}"].html_name: "attackers",
            form[f"side_{second.pk}"].html_name: "attackers",
            form[f"side_{defender.pk}"].html_name: "defenders",
            form[f"dug_in_{defender.pk}"].html_name: "on"}  # fmt: skip
    rows = _rows()
    sent = client.post(_url("engagement-setup", world), data, **HTMX)
    review_url = sent["HX-Redirect"]
    assert sent.status_code == 200 and review_url.startswith(_url("engagement-setup", world) + "?")
    assert "seed=" in review_url  # drawn now: the review, reloaded, shows the same dice
    review = client.get(review_url)
    assert _rows() == rows  # nothing written: no engagement, no history, no form key
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', review.text))
    return review, fields, data


def test_an_engagement_the_gm_reviews_first_shows_its_outcome_and_writes_nothing(client, world):
    assert world.campaign.apply_mode == Campaign.ApplyMode.REVIEW
    review, fields, data = _setup_review(client, world)
    assert review.status_code == 200 and "Apply the outcome?" in review.text
    assert "The mill ford: " in review.text and "Applying writes these changes" in review.text
    log = _log(review.text)
    assert "Round 1" in log and "Dug In" in log and "Second Squad" in log
    assert ">Apply</button>" in review.text and ">Cancel</a>" in review.text
    assert fields["confirm"] == "yes" and fields["reviewed"] and fields["seed"]
    # The set-up goes through the review whole: every side, situation and the ground.
    assert {name: fields[name] for name in data} == data and "review" not in fields
    # Without JavaScript too: the plain post goes to the same review.
    plain = client.post(
        _url("engagement-setup", world),
        {k: v for k, v in fields.items() if k not in ("confirm", "reviewed")},
    )
    assert plain.status_code == 302 and f"seed={fields['seed']}" in plain["Location"]
    assert "Apply the outcome?" in client.get(plain["Location"]).text
    assert not Engagement.objects.exists()


def test_apply_writes_the_engagement_its_review_showed(client, world):
    review, fields, _ = _setup_review(client, world)
    applied = client.post(_url("engagement-setup", world), fields)
    record = Engagement.objects.get()
    assert applied.status_code == 302
    assert applied["Location"] == _url("engagement", world, record.pk)
    assert str(record.seed) == fields["seed"] and record.setup["terrain"] == "jungle"
    # The same rounds and hits, in the same words, and each unit left as the review said.
    assert _log(client.get(applied["Location"]).text) == _log(review.text)
    assert len(review.context["changes"]) == 3
    for change in review.context["changes"]:
        assert Unit.objects.get(pk=change.unit.pk).state == change.after
    again = client.post(_url("engagement-setup", world), fields)  # a double click: once
    assert again["Location"] == applied["Location"] and Engagement.objects.count() == 1


def test_an_engagements_apply_is_refused_when_a_unit_changed_since_the_review(client, world):
    _, fields, _ = _setup_review(client, world)
    unit_edit(unit=world.enemy_unit, changes={"morale_hits": 1}, reason="shelled",
              actor=world.users["gm"])  # fmt: skip
    rows = _rows()
    refused = client.post(_url("engagement-setup", world), fields)
    assert refused.status_code == 400
    assert _field_errors(refused, "__all__") == [
        f"{world.enemy_unit.name} has changed since you reviewed this engagement: review it again."
    ]
    assert _rows() == rows
