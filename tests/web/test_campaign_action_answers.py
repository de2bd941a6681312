"""Where an action goes back to and what it says there (`views._common`): a form's one-time
key answers only the person who sent it, and an Undo goes back only to a page of its own
campaign."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from campaign.models import TableRoll
from campaign.services import unit_edit
from tests.web.campaign_world import login

pytestmark = pytest.mark.django_db


def _url(name, world, *args):
    return reverse(f"campaign:{name}", args=[world.campaign.pk, *args])


def test_a_one_time_key_sent_by_someone_else_is_refused_and_tells_them_nothing(client, world):
    """The GM's check is done under its key; the co-GM's form sent with that same key is not
    taken for the GM's sent again: it is refused as damaged, without the GM's result."""
    from tests.web.test_table_pages import _table_units

    _, _, ready = _table_units(world)
    key = str(uuid.uuid4())
    check = {"lead": ready.pk, "dc": "12", "seed": "7", "reason": "Patrol the west road",
             "request_key": key}  # fmt: skip
    login(client, world, "gm")
    done = client.post(_url("skill-check", world), check, follow=True).text
    roll = TableRoll.objects.get()
    assert roll.summary.split(":")[0] in done
    login(client, world, "co_gm")
    again = client.post(_url("skill-check", world), {**check, "reason": "Scout"})
    assert again.status_code == 400
    assert "This form is damaged; reload the page and try again." in again.text
    assert "notice-success" not in again.text
    assert TableRoll.objects.count() == 1


@pytest.mark.parametrize(
    "away", ["https://example.com/campaigns/", "/accounts/password/", "/campaigns/999999/"]
)
def test_an_undo_goes_back_only_to_a_page_of_its_own_campaign(client, world, away):
    login(client, world, "gm")
    unit_page = _url("unit", world, world.unit.pk)
    for next_page, lands in ((away, unit_page), (_url("timeline", world), _url("timeline", world))):
        unit_edit(unit=world.unit, changes={"morale_hits": 2}, reason="shelled",
                  actor=world.users["gm"])  # fmt: skip
        edit = world.unit.history.order_by("pk").last()
        undo_url = _url("unit-undo", world, world.unit.pk, edit.pk)
        answer = client.post(undo_url, {"reason": "the wrong unit", "next": next_page})
        assert answer.status_code == 302
        assert answer["Location"] == lands


def test_leaving_with_someone_elses_one_time_key_is_refused_not_taken_for_their_leaving(
    client, world
):
    """The spectator leaves under a key; the rival's Leave sent with that same key is not
    answered with the spectator's "You have left": it is refused, and the rival stays."""
    from campaign.models import Membership

    key = str(uuid.uuid4())
    url = _url("leave", world)
    login(client, world, "spectator")
    assert client.post(url, {"request_key": key})["Location"] == reverse("campaign:list")
    login(client, world, "rival")
    again = client.post(url, {"request_key": key})
    assert again.status_code == 400
    assert "This form is damaged; reload the page and try again." in again.text
    assert Membership.objects.filter(campaign=world.campaign, user=world.users["rival"]).exists()


@pytest.mark.parametrize("role", ["rival", "spectator"])
def test_only_a_forces_owner_or_the_gms_send_its_medics_even_with_a_form_at_fault(
    client, world, role
):
    """Refused before the form is read: someone who may not direct the force's medics is told
    so (403), not shown the force's medics form with its faults."""
    login(client, world, role)
    url = _url("medical", world, world.force.pk)
    assert client.post(url, {"reason": "x" * 2000, "how": "allocate"}).status_code == 403
