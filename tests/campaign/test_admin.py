"""The admin: every model listed, and unit changes made there land in history like any other."""

from __future__ import annotations

import json
import re
from html import unescape as html_unescape

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from campaign.models import Force, HistoryEntry, Membership, Unit
from campaign.rules.damage import UnitOutcome
from campaign.rules.state import Status
from campaign.rules.values import MAX_FORCES_PER_CAMPAIGN, MAX_MEMBERS_PER_CAMPAIGN
from campaign.services import campaign_create, outcome_apply, quick_resolve_run

MODELS = (
    "campaign",
    "membership",
    "force",
    "unit",
    "leader",
    "historyentry",
    "quickresolve",
    "storyentry",
)


@pytest.fixture
def busy(campaign, make_unit, enemy):
    red = make_unit(
        "Red Rifles",
        "Mech",
        specialties=("mechanized",),
        leader={"name": "Sgt. Kay", "hit_points": 10},
    )
    blue = make_unit("Blue Rifles", into=enemy)
    outcome_apply(campaign=campaign, outcomes={red.pk: UnitOutcome(0, 1)}, reason="Ford")
    quick_resolve_run(campaign=campaign, attacker=blue, defender=make_unit("Reserve"), seed=1)
    red.refresh_from_db()
    return red


@pytest.mark.parametrize("model", MODELS)
def test_every_model_has_a_list_page(admin_client, busy, model):
    response = admin_client.get(reverse(f"admin:campaign_{model}_changelist"))
    assert response.status_code == 200


def test_every_unit_page_opens(admin_client, busy):
    response = admin_client.get(reverse("admin:campaign_unit_change", args=[busy.pk]))
    assert response.status_code == 200
    assert "Ford: took 1 Morale hit — 0 of 4 Hits lost".encode() in response.content


def form_data(unit: Unit, **changes) -> dict:
    state = unit.state.to_json()
    data = {
        "name": unit.name,
        "quality": unit.quality,
        "equipment": unit.equipment,
        "specialties": state["specialties"],
        "morale_hits": unit.morale_hits,
        "casualty_hits": unit.casualty_hits,
        "skill_lost": unit.skill_lost,
        "status": unit.status,
        "experience": unit.experience,
        "battles_fought": unit.battles_fought,
        "last_battle_day": unit.last_battle_day or "",
        "window_from": "" if unit.window_from is None else unit.window_from,
        "window_quality_lost": unit.window_quality_lost,
        "window_quality_gained": unit.window_quality_gained,
        "window_experience": "" if unit.window_experience is None else unit.window_experience,
        "window_fights": json.dumps(state["window_fights"]),
        "reason": "",
        "history-TOTAL_FORMS": 0,
        "history-INITIAL_FORMS": 0,
    }
    if unit.in_combat_zone:
        data["in_combat_zone"] = "on"
    data.update(changes)
    return data


def test_a_unit_changed_in_the_admin_gets_a_gm_edit_entry(admin_client, busy):
    url = reverse("admin:campaign_unit_change", args=[busy.pk])
    response = admin_client.post(url, form_data(busy, morale_hits=0, reason="miscounted"))
    assert response.status_code == 302, response.content.decode()[:2000]
    busy.refresh_from_db()
    assert busy.morale_hits == 0
    entry = busy.history.last()
    assert entry.kind == HistoryEntry.Kind.GM_EDIT
    assert entry.text == "GM correction: miscounted; Morale hits 1 → 0"
    assert entry.actor.username == "admin"


def test_a_unit_change_without_a_reason_is_refused(admin_client, busy):
    url = reverse("admin:campaign_unit_change", args=[busy.pk])
    response = admin_client.post(url, form_data(busy, status=Status.DESTROYED))
    assert response.status_code == 200
    assert b"a GM correction needs its reason" in response.content
    busy.refresh_from_db()
    assert busy.status == Status.READY


def test_a_unit_raised_in_the_admin_starts_its_history(admin_client, force, cards):
    data = form_data(
        Unit(name="Fresh", quality=1, equipment="good", specialties=["infantry"]),
        force=force.pk,
        unit_type=cards["Rifle Squad"].pk,
    )
    response = admin_client.post(reverse("admin:campaign_unit_add"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    unit = Unit.objects.get(name="Fresh")
    assert unit.history.get().kind == HistoryEntry.Kind.CREATED


def test_the_admin_refuses_a_unit_the_services_refuse(admin_client, force, cards):
    data = form_data(
        Unit(name="Crowded", quality=0, equipment="good", specialties=["infantry"]),
        force=force.pk,
        unit_type=cards["Rifle Squad"].pk,
    )
    response = admin_client.post(reverse("admin:campaign_unit_add"), data)
    assert response.status_code == 200
    assert "A Raw unit holds no specialties" in response.content.decode()
    assert not Unit.objects.filter(name="Crowded").exists()


def _fill_forces(campaign, most: int) -> None:
    Force.objects.bulk_create(
        Force(campaign=campaign, owner=campaign.gm, name=f"Company {n:03}")
        for n in range(campaign.forces.count(), most)
    )


def test_the_admin_adds_a_force_one_under_the_most_and_refuses_the_next(admin_client, campaign):
    _fill_forces(campaign, MAX_FORCES_PER_CAMPAIGN - 1)
    url = reverse("admin:campaign_force_add")
    data = _form_values(admin_client.get(url).content.decode())  # its units' empty inline too
    data.update(campaign=campaign.pk, owner=campaign.gm.pk, name="Last Guards")
    assert admin_client.post(url, data).status_code == 302
    refused = admin_client.post(url, {**data, "name": "One Too Many"})
    assert refused.status_code == 200
    said = f"Op. Test already has {MAX_FORCES_PER_CAMPAIGN} forces, the most a campaign may have"
    assert said in refused.content.decode()
    assert campaign.forces.count() == MAX_FORCES_PER_CAMPAIGN


def test_the_admin_refuses_a_member_past_the_most_on_its_own_page(admin_client, campaign, cast):
    User = get_user_model()
    held = campaign.memberships.count()
    users = User.objects.bulk_create(
        User(username=f"onlooker-{n:03}") for n in range(held, MAX_MEMBERS_PER_CAMPAIGN)
    )
    Membership.objects.bulk_create(
        Membership(campaign=campaign, user=user, role="spectator") for user in users
    )
    data = {"campaign": campaign.pk, "user": cast.outsider.pk, "role": "player",
            "notified_upto": 0}  # fmt: skip
    refused = admin_client.post(reverse("admin:campaign_membership_add"), data)
    assert refused.status_code == 200
    said = f"Op. Test already has {MAX_MEMBERS_PER_CAMPAIGN} members, the most a campaign may have"
    assert said in refused.content.decode()
    assert not campaign.memberships.filter(user=cast.outsider).exists()


def test_the_admin_refuses_forces_added_together_past_the_most(admin_client, campaign):
    _fill_forces(campaign, MAX_FORCES_PER_CAMPAIGN - 1)
    url = reverse("admin:campaign_campaign_change", args=[campaign.pk])
    page = admin_client.get(url)
    data = _form_values(page.content.decode())
    forces = "forces"
    held = int(data[f"{forces}-TOTAL_FORMS"])
    for n, name in enumerate(("Last Guards", "One Too Many")):
        data[f"{forces}-{held + n}-name"] = name
        data[f"{forces}-{held + n}-owner"] = str(campaign.gm.pk)
        data[f"{forces}-{held + n}-campaign"] = str(campaign.pk)
    data[f"{forces}-TOTAL_FORMS"] = str(held + 2)
    refused = admin_client.post(url, data)
    assert refused.status_code == 200
    said = (
        f"Op. Test has room for 1 more force, as a campaign has at most {MAX_FORCES_PER_CAMPAIGN}"
    )
    assert said in refused.content.decode()
    assert campaign.forces.count() == MAX_FORCES_PER_CAMPAIGN - 1


def test_the_admin_refuses_a_force_moved_into_a_campaign_past_the_most(
    admin_client, campaign, cast
):
    elsewhere = campaign_create(name="Op. Elsewhere", gm=cast.gm, ruleset=campaign.ruleset)
    moving = Force.objects.create(campaign=elsewhere, owner=cast.gm, name="Wanderers")
    _fill_forces(campaign, MAX_FORCES_PER_CAMPAIGN)
    url = reverse("admin:campaign_force_change", args=[moving.pk])
    data = _form_values(admin_client.get(url).content.decode())
    data["campaign"] = str(campaign.pk)
    refused = admin_client.post(url, data)
    assert refused.status_code == 200
    said = f"Op. Test already has {MAX_FORCES_PER_CAMPAIGN} forces, the most a campaign may have"
    assert said in refused.content.decode()
    moving.refresh_from_db()
    assert moving.campaign == elsewhere


def _form_values(html: str) -> dict[str, str]:
    """The values a browser would send back from the page's form, as they are."""
    values = {}
    for tag in re.findall(r"<input[^>]*>", html):
        name = re.search(r'name="([^"]+)"', tag)
        if name is None or ('type="checkbox"' in tag and "checked" not in tag):
            continue
        value = re.search(r'value="([^"]*)"', tag)
        values[name.group(1)] = html_unescape(value.group(1)) if value else ""
    for name, body in re.findall(r'<select name="([^"]+)"[^>]*>(.*?)</select>', html, re.S):
        chosen = re.search(r'<option value="([^"]*)"[^>]*selected', body)
        values[name] = chosen.group(1) if chosen else ""
    for name, body in re.findall(r'<textarea name="([^"]+)"[^>]*>(.*?)</textarea>', html, re.S):
        values[name] = html_unescape(body.strip("\n"))
    return values


def test_the_calendar_advances_from_the_admin(admin_client, campaign):
    url = reverse("admin:campaign_campaign_changelist")
    response = admin_client.post(
        url, {"action": "advance_one_day", "_selected_action": [campaign.pk]}
    )
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.day == 2


def test_the_admins_unit_form_refuses_a_bad_value_in_the_campaigns_words(admin_client, busy):
    """A value the recorded field cannot hold is repeated as given, in curly quotes, and what it
    may be is listed by the names the pages show, never as Python writes them."""
    fight = {"quality": "superb", "experience": 0, "casualty_hits": 0, "skill_lost": 0,
             "found_too_late": 0, "won": True, "broken": False}  # fmt: skip
    url = reverse("admin:campaign_unit_change", args=[busy.pk])
    sent = form_data(busy, window_fights=json.dumps([fight]), reason="from the log")
    response = admin_client.post(url, sent)
    assert response.status_code == 200
    page = response.content.decode()
    assert (
        "fight 1: unknown quality “superb”; one of Raw, Green, Inexperienced, Average, "
        "Experienced, Elite or Legendary"
    ) in page
    assert "&#x27;superb&#x27;" not in page
    busy.refresh_from_db()
    assert busy.window_fights == []
