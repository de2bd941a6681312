"""A GM's new campaign, before it has forces, units or characters: each page's empty list says
what it will hold and how to fill it, rather than offering nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from campaign import units_offered
from campaign.services import campaign_create, force_create, invitation_send, membership_set
from campaign.table_forms import character_fields, requisition
from tests.web.campaign_world import login, world  # noqa: F401

pytestmark = pytest.mark.django_db

NO_UNITS = escape(units_offered.NO_UNITS)
NO_CHARACTERS = escape(character_fields.NO_CHARACTERS)


@pytest.fixture
def blank(world):  # noqa: F811
    return campaign_create(name="Op. Blank", gm=world.users["gm"], ruleset="combined_arms")


def _page(client, world, campaign, page: str) -> str:  # noqa: F811
    return login(client, world, "gm").get(reverse(f"campaign:{page}", args=[campaign.pk])).text


def _form(page: str, form_id: str) -> str:
    return page.split(f'id="{form_id}"')[1].split("</form>")[0]


def test_the_quick_resolve_of_a_campaign_with_no_units_says_how_to_raise_them(
    client,
    world,  # noqa: F811
    blank,
):
    quick = _form(_page(client, world, blank, "dashboard"), "quick-form")
    # Said once, under the attacker: the defender's list is the same.
    assert quick.count(NO_UNITS) == 1
    assert quick.index(NO_UNITS) < quick.index("Defender")
    assert NO_UNITS not in _page(client, world, world.campaign, "dashboard")


def test_the_characters_page_of_a_new_campaign_says_why_its_lists_are_empty(
    client,
    world,  # noqa: F811
    blank,
):
    page = _page(client, world, blank, "characters")
    join, heal = _form(page, "join-form"), _form(page, "heal-form")
    assert NO_CHARACTERS in join and NO_UNITS in join
    assert NO_CHARACTERS in heal
    full = _page(client, world, world.campaign, "characters")
    assert NO_UNITS not in full


def test_a_skill_check_in_a_campaign_with_no_units_says_how_to_raise_them(
    client,
    world,  # noqa: F811
    blank,
):
    assert NO_UNITS in _form(_page(client, world, blank, "checks"), "skill-form")


def test_an_empty_roster_says_who_adds_its_units_and_where(client, world, blank):  # noqa: F811
    membership_set(campaign=blank, user=world.users["player"], role="player")
    force = force_create(campaign=blank, owner=world.users["player"], name="Green Guard")
    url = reverse("campaign:force", args=[blank.pk, force.pk])
    page = login(client, world, "gm").get(url).text
    roster = page.split("<tbody>")[1].split("</tbody>")[0]
    assert 'No units yet: add them from the card library (<a href="#add-form">' in roster
    assert 'id="add-form"' in page
    page = login(client, world, "player").get(url).text
    assert "No units yet: the GM adds them." in page


def test_finding_a_unit_in_a_campaign_with_no_forces_says_so(client, world, blank):  # noqa: F811
    page = _page(client, world, blank, "units")
    assert "Op. Blank has no force yet, so no unit to find: raise one on the campaign" in page
    # Not that the GM hides the forces: there are none.
    assert "in summary only" not in page


@pytest.mark.parametrize("page", ["battle-setup", "battle-record", "engagement-setup"])
def test_a_fight_set_up_in_a_campaign_with_no_units_says_how_to_raise_them(
    client,
    world,  # noqa: F811
    blank,
    page,
):
    rows = _page(client, world, blank, page).split("<tbody>")[1].split("</tbody>")[0]
    assert NO_UNITS in rows
    assert NO_UNITS not in _page(client, world, world.campaign, page)


def test_the_first_steps_name_whom_the_gm_invited_and_where_their_links_are(
    client,
    world,  # noqa: F811
    blank,
):
    for name in ("rosa", "tomas@example.com"):
        invitation_send(campaign=blank, invitee=name, role="player", actor=world.users["gm"])
    page = _page(client, world, blank, "dashboard")
    steps = page.split('class="first-steps"')[1].split("</ol>")[0]
    assert (
        "Invited, not joined yet: <strong>rosa</strong>, <strong>tomas@example.com</strong>."
        in steps
    )
    assert '<a href="#invitations">copy it below</a>' in steps and 'id="invitations"' in page
    assert "Invite your players below" not in steps


def test_a_requisition_in_a_campaign_with_no_forces_says_how_to_raise_one(
    client,
    world,  # noqa: F811
    blank,
):
    no_forces = escape(requisition.NO_FORCES)
    assert no_forces in _form(_page(client, world, blank, "checks"), "requisition-form")
    assert no_forces not in _page(client, world, world.campaign, "checks")


def test_a_new_campaign_opens_the_gms_tools_for_its_first_steps_not_the_quick_resolve(
    client,
    world,  # noqa: F811
    blank,
):
    page = _page(client, world, blank, "dashboard")
    assert '<details class="tool" id="invitation-form-tool" open>' in page
    assert '<details class="tool" id="force-form-tool" open>' in page
    # With no unit to fight, the quick resolve waits closed.
    assert '<details class="tool" id="quick-form-tool">' in page
