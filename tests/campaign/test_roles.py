"""One answer to "who is this user here": the pages and the services agree on every role,
the site's superusers included."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from campaign.models import Campaign
from campaign.selectors.access import campaign_can_manage, campaign_role
from campaign.selectors.roster import campaign_now
from campaign.services import calendar_advance, membership_set


@pytest.fixture
def admin(db):
    return get_user_model().objects.create_superuser("admin", password="admin-password")


def _advance_page(client, user, campaign):
    client.force_login(user)
    return client.post(
        reverse("campaign:advance", args=[campaign.pk]),
        {"days": "1", "confirm": "yes", "reviewed_at": campaign_now(campaign)},
    )


def test_it_lets_a_superuser_with_no_part_in_the_campaign_run_it(client, campaign, admin):
    assert campaign_role(campaign=campaign, user=admin) == "gm"
    assert campaign_can_manage(campaign=campaign, user=admin)
    assert _advance_page(client, admin, campaign).status_code == 302  # to the summary
    assert Campaign.objects.get(pk=campaign.pk).day == 2
    calendar_advance(campaign=campaign, days=1, actor=admin)
    assert Campaign.objects.get(pk=campaign.pk).day == 3


def test_a_superuser_who_watches_a_campaign_is_a_spectator_on_its_pages_and_in_its_services(
    client, campaign, admin
):
    membership_set(campaign=campaign, user=admin, role="spectator")
    assert campaign_role(campaign=campaign, user=admin) == "spectator"
    assert not campaign_can_manage(campaign=campaign, user=admin)
    assert _advance_page(client, admin, campaign).status_code == 403
    with pytest.raises(PermissionDenied, match="GM"):
        calendar_advance(campaign=campaign, days=1, actor=admin)
    assert Campaign.objects.get(pk=campaign.pk).day == 1


def test_a_superuser_who_plays_sees_other_forces_as_a_player_does(
    client, campaign, enemy, make_unit, admin
):
    Campaign.objects.filter(pk=campaign.pk).update(other_forces_visible="summary")
    rival_unit = make_unit("Iron Wolf", into=enemy)
    url = reverse("campaign:unit", args=[campaign.pk, rival_unit.pk])
    client.force_login(admin)
    assert client.get(url).status_code == 200  # running the site: every roster in full
    membership_set(campaign=campaign, user=admin, role="player")
    assert client.get(url).status_code == 403  # playing: the rival's roster is a summary
