"""Deleting a campaign (campaign/services/deletion.py): the GM's alone, asked for by typing its
name, refused while any of its battles is being fought, and then everything in it goes, in one
transaction, and nothing else does."""

from __future__ import annotations

import re
import uuid
from unittest import mock

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from battles.models import Battle, BattleLog, OddsRun
from battles.odds import odds_launch
from battles.services import battle_launch
from campaign.models import AskedOdds, Campaign, Invitation, SavedMap, Unit
from campaign.services import (
    campaign_create,
    force_create,
    invitation_decline,
    invitation_send,
    membership_set,
    unit_create,
)
from campaign.services.deletion import campaign_contents, campaign_delete
from tests.web.campaign_world import login
from tests.web.test_campaign_access import table_world
from units.models import UnitType

pytestmark = pytest.mark.django_db


def holdings(campaign_pk: int, units: list[int], characters: list[int]) -> dict[str, int]:
    """Every row of the campaign app that belongs to the campaign, counted by model: its own
    row, and each row naming it, one of its units or one of its characters."""
    counts = {}
    for model in apps.get_app_config("campaign").get_models():
        fields = {f.name for f in model._meta.get_fields()}
        if model is Campaign:
            rows = model.objects.filter(pk=campaign_pk)
        elif "campaign" in fields:
            rows = model.objects.filter(campaign_id=campaign_pk)
        elif "unit" in fields:
            rows = model.objects.filter(unit_id__in=units)
        elif "character" in fields:
            rows = model.objects.filter(character_id__in=characters)
        elif "force" in fields:
            rows = model.objects.filter(pk__in=units)
        else:
            continue  # a user's own record (a form's one-time key, an e-mail ask)
        counts[model.__name__] = rows.count()
    return counts


def _full_world(world):
    """The world with a table (characters giving Orders, checks, an engagement, a quick
    resolve), a saved map, odds asked on its set-up page, an invitation out and one declined."""
    table_world(world)
    gm = world.users["gm"]
    SavedMap.objects.create(campaign=world.campaign, name="The ford", scenario={}, created_by=gm)
    with mock.patch("battles.odds.odds_enqueue"):
        run = odds_launch(scenario=world.engine_battle.battle.scenario, battles=4, created_by=gm)
    AskedOdds.objects.create(campaign=world.campaign, run=run)
    invitation_send(campaign=world.campaign, invitee="newcomer", role="player", actor=gm)
    # One who was asked and said no: their answer is kept with the campaign.
    declined = get_user_model().objects.create_user("declined")
    invitation_send(campaign=world.campaign, invitee="declined", role="spectator", actor=gm)
    asked = Invitation.objects.get(campaign=world.campaign, invitee="declined")
    invitation_decline(invitation_pk=asked.pk, user=declined)
    return gm


def test_deleting_a_campaign_deletes_everything_in_it_and_nothing_else(world, scenario):
    gm = _full_world(world)
    elsewhere = campaign_create(name="Elsewhere", gm=gm, ruleset="combined_arms")
    membership_set(campaign=elsewhere, user=world.users["player"], role="player")
    kept_force = force_create(campaign=elsewhere, owner=world.users["player"], name="Kept")
    kept = unit_create(force=kept_force, unit_type=UnitType.objects.get(name="Rifle Squad"),
                       name="Kept Squad", specialties=["infantry"])  # fmt: skip
    one_off = battle_launch(name="One-off", scenario=scenario, seed=1, created_by=gm)
    c = world.campaign
    units = list(Unit.objects.filter(force__campaign=c).values_list("pk", flat=True))
    characters = list(c.characters.values_list("pk", flat=True))
    fought = list(c.battles.exclude(battle=None).values_list("battle_id", flat=True))
    held = holdings(c.pk, units, characters)
    # The world holds rows of every kind the campaign can hold, so the check below can fail.
    assert all(held.values()), {name: n for name, n in held.items() if not n}
    assert fought and BattleLog.objects.filter(battle_id__in=fought).exists()
    people, cards = get_user_model().objects.count(), UnitType.objects.count()

    assert campaign_delete(campaign=c, actor=gm, name="Op. Pages") == "Op. Pages"

    assert not any(holdings(c.pk, units, characters).values())
    assert not Battle.objects.filter(pk__in=fought).exists()
    assert not BattleLog.objects.filter(battle_id__in=fought).exists()
    # Another campaign, the GM's one-off battle, the people and the card library stay.
    assert Unit.objects.filter(pk=kept.pk, force__campaign=elsewhere).exists()
    assert Battle.objects.filter(pk=one_off.pk).exists()
    # The odds the GM asked are theirs (their list keeps them), no longer the campaign's.
    assert OddsRun.objects.filter(created_by=gm).count() == 1
    assert get_user_model().objects.count() == people
    assert UnitType.objects.count() == cards


@pytest.mark.parametrize("role", ["co_gm", "player", "spectator"])
def test_only_the_gm_deletes_the_campaign(world, role):
    with pytest.raises(PermissionDenied):
        campaign_delete(campaign=world.campaign, actor=world.users[role], name="Op. Pages")
    assert Campaign.objects.filter(pk=world.campaign.pk).exists()


@pytest.mark.parametrize("name", ["", "op. pages", "Op. Pages 2", None])
def test_the_campaign_is_deleted_only_under_its_own_name(world, name):
    with pytest.raises(ValidationError) as refused:
        campaign_delete(campaign=world.campaign, actor=world.users["gm"], name=name)
    assert refused.value.message_dict == {
        "name": ["Type the campaign's name, Op. Pages, to delete it."]
    }
    assert Campaign.objects.filter(pk=world.campaign.pk).exists()


@pytest.mark.parametrize("status", [Battle.Status.QUEUED, Battle.Status.RUNNING])
def test_a_campaign_is_not_deleted_while_one_of_its_battles_is_being_fought(world, status):
    Battle.objects.filter(pk=world.engine_battle.battle_id).update(status=status)
    with pytest.raises(ValidationError) as refused:
        campaign_delete(campaign=world.campaign, actor=world.users["gm"], name="Op. Pages")
    assert refused.value.messages == [
        "Crossroads is still being fought, or waiting for a worker: the campaign can be "
        "deleted once it is done."
    ]
    assert Campaign.objects.filter(pk=world.campaign.pk).exists()
    assert Battle.objects.filter(pk=world.engine_battle.battle_id).exists()


def test_what_a_deletion_takes_is_said_in_words(world):
    assert campaign_contents(world.campaign) == (
        f"its 2 forces ({Unit.objects.filter(force__campaign=world.campaign).count()} units) "
        "and 2 battles (and their logs)"
    )
    empty = campaign_create(name="Empty", gm=world.users["gm"], ruleset="combined_arms")
    assert campaign_contents(empty) == ""


# --- the page -------------------------------------------------------------------------------


def test_the_gm_is_asked_to_type_the_name_and_offered_an_export_first(client, world):
    login(client, world, "gm")
    dashboard = client.get(reverse("campaign:dashboard", args=[world.campaign.pk])).text
    url = reverse("campaign:delete", args=[world.campaign.pk])
    assert f'<a href="{url}">Delete the campaign</a>' in dashboard
    page = client.get(url).text
    assert "<h1>Delete Op. Pages?</h1>" in page
    assert "Deleting the campaign deletes its 2 forces (" in page
    assert "co_gm, player, rival and spectator will no longer find it" in page
    assert f'href="{reverse("campaign:export", args=[world.campaign.pk])}" download' in page
    assert "Type Op. Pages to show it is the one you mean." in page
    # A co-GM runs the campaign with the GM but is not offered its deletion.
    login(client, world, "co_gm")
    dashboard = client.get(reverse("campaign:dashboard", args=[world.campaign.pk])).text
    assert url not in dashboard


def test_a_misnamed_deletion_is_refused_beside_the_name(client, world):
    login(client, world, "gm")
    url = reverse("campaign:delete", args=[world.campaign.pk])
    response = client.post(url, {"name": "Op Pages", "request_key": str(uuid.uuid4())})
    assert response.status_code == 400
    error = re.search(r'id="id_campaign_delete_name_error">([^<]*)<', response.text)[1]
    assert error == "Type the campaign&#x27;s name, Op. Pages, to delete it."
    assert Campaign.objects.filter(pk=world.campaign.pk).exists()


def test_a_campaign_being_fought_offers_no_deletion_and_says_why(client, world):
    Battle.objects.filter(pk=world.engine_battle.battle_id).update(status=Battle.Status.RUNNING)
    login(client, world, "gm")
    page = client.get(reverse("campaign:delete", args=[world.campaign.pk])).text
    assert "Crossroads is still being fought, or waiting for a worker" in page
    assert 'id="delete-form"' not in page


def test_deleted_it_is_gone_for_every_member_and_sent_again_it_says_so_again(client, world):
    c = world.campaign
    login(client, world, "player")
    for url in (reverse("campaign:force", args=[c.pk, world.force.pk]),
                reverse("campaign:battle", args=[c.pk, world.engine_battle.pk])):  # fmt: skip
        assert client.get(url).status_code == 200  # drawn, and kept by the page cache
    login(client, world, "gm")
    url = reverse("campaign:delete", args=[c.pk])
    sent = {"name": "Op. Pages", "request_key": str(uuid.uuid4())}
    response = client.post(url, sent, follow=True)
    assert response.redirect_chain == [(reverse("campaign:list"), 302)]
    assert "Op. Pages is deleted, with everything in it." in response.text
    assert "Op. Pages</a>" not in response.text
    # The same form sent again (a double click, the browser's history) says the same.
    again = client.post(url, sent, follow=True)
    assert again.redirect_chain == [(reverse("campaign:list"), 302)]
    assert "Op. Pages is deleted, with everything in it." in again.text
    kept_pages = [
        reverse("campaign:dashboard", args=[c.pk]),
        reverse("campaign:force", args=[c.pk, world.force.pk]),
        reverse("campaign:battle", args=[c.pk, world.engine_battle.pk]),
        reverse("battles:detail", args=[world.engine_battle.battle_id]),
    ]
    for role in ("gm", "co_gm", "player", "spectator"):
        login(client, world, role)
        for url in kept_pages:
            assert client.get(url).status_code == 404, (role, url)
    assert not Invitation.objects.filter(campaign_id=c.pk).exists()
