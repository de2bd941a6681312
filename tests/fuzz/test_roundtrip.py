"""Import round trip: export a campaign, import it where no campaign is left, its people
accepting their invitations, export again — the same JSON, byte for byte."""

from __future__ import annotations

import json

import pytest

from battles.models import Battle, OddsRun
from campaign.demo import DEMO_CAMPAIGN, demo_load
from campaign.models import Campaign, CampaignBattle, Force, HistoryEntry, Membership, Unit
from campaign.services.transfer import campaign_import
from campaign.transfer.export import campaign_export
from tests.campaign.invited import accept_every_invitation

pytestmark = pytest.mark.django_db

CAMPAIGN_TABLES = (CampaignBattle, HistoryEntry, Unit, Force, Membership, Campaign)


def _empty_the_campaign_tables() -> None:
    """Everything campaign-related goes (users and the card library stay: the export names them
    by username and card name, as it would on another site that has them)."""
    for model in CAMPAIGN_TABLES:
        model.objects.all().delete()
    Battle.objects.all().delete()
    OddsRun.objects.all().delete()
    assert all(not model.objects.exists() for model in CAMPAIGN_TABLES)


def _dump(data) -> str:
    return json.dumps(data, sort_keys=True, indent=1)


def test_export_import_export_gives_the_same_json(world):
    first = _dump(campaign_export(campaign=world.campaign))
    assert json.loads(first)["forces"], "the world has forces to carry"
    assert any(unit["history"] for f in json.loads(first)["forces"] for unit in f["units"])

    _empty_the_campaign_tables()
    imported = campaign_import(data=json.loads(first))
    accept_every_invitation(imported)

    assert _dump(campaign_export(campaign=imported)) == first
    assert Campaign.objects.count() == 1


def test_the_demo_campaign_round_trips_too(db):
    demo_load()
    first = _dump(campaign_export(campaign=Campaign.objects.get(name=DEMO_CAMPAIGN)))
    _empty_the_campaign_tables()
    imported = campaign_import(data=json.loads(first))
    accept_every_invitation(imported)
    assert _dump(campaign_export(campaign=imported)) == first
