"""The campaign's story keeps the changes to its people and forces (``StoryEntry``): renamed,
someone joining, taking another part, leaving or removed, a force raised, renamed or given to
another player, the campaign handed to another GM. Each a sentence with the names of the
moment, on the campaign's day, read on the timeline by everyone in the campaign."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaign.models import Campaign, Invitation, StoryEntry
from campaign.services import (
    calendar_advance,
    campaign_hand_over,
    campaign_update,
    force_create,
    force_edit,
    invitation_accept,
    invitation_send,
    membership_remove,
    membership_set,
)
from campaign.services.characters import character_create
from tests.web.campaign_world import login

pytestmark = pytest.mark.django_db


def _told(world, since: int) -> list[tuple[int, str, str]]:
    """The changes told after change ``since`` (its pk): day, kind, sentence."""
    changes = StoryEntry.objects.filter(campaign=world.campaign, pk__gt=since).order_by("pk")
    return list(changes.values_list("day", "kind", "text"))


def _last(world) -> int:
    return StoryEntry.objects.filter(campaign=world.campaign).order_by("pk").last().pk


def test_the_world_was_built_by_changes_each_told(world):
    # The world's own making: its members joining, its forces raised.
    assert _told(world, 0) == [
        (1, "joined", "player joined as a player."),
        (1, "joined", "rival joined as a player."),
        (1, "joined", "spectator joined as a spectator."),
        (1, "joined", "co_gm joined as a co-GM."),
        (1, "force", "Red Company was raised for player."),
        (1, "force", "Blue Battalion was raised for rival."),
    ]


def test_each_change_to_the_group_is_told_in_the_words_of_its_moment(world):
    c, gm, users = world.campaign, world.users["gm"], world.users
    since = _last(world)
    calendar_advance(campaign=c, days=2, actor=gm)  # the caller's copy still says day 1
    campaign_update(campaign=c, name="Operation Pages", actor=gm)
    force_edit(force=world.force, name="Reyes' Raiders", owner=users["player"], actor=gm)
    force_edit(force=world.enemy, name="Blue Battalion", owner=users["co_gm"], actor=gm)
    force_edit(force=world.force, name="Red Company", owner=users["rival"], actor=gm)
    membership_set(campaign=c, user=users["spectator"], role="player", actor=gm)
    character_create(campaign=c, name="Lt. Rowan", hit_points=10, player=users["spectator"])
    membership_remove(campaign=c, user=users["spectator"], actor=gm)
    membership_remove(campaign=c, user=users["player"], actor=users["player"])
    force_create(campaign=c, owner=gm, name="Militia", actor=gm)
    campaign_hand_over(campaign=c, to=users["co_gm"], stay_as="player", with_forces=True, actor=gm)
    assert _told(world, since) == [
        (3, "calendar", "The calendar moved on 2 days to day 3."),
        (3, "renamed", "Op. Pages was renamed Operation Pages."),
        (3, "force", "Red Company was renamed Reyes' Raiders."),
        (3, "force", "Blue Battalion went from rival to co_gm."),
        (3, "force", "Reyes' Raiders went from player to rival, renamed Red Company."),
        (3, "part", "spectator became a player."),
        (3, "left", "spectator was removed from the campaign; Lt. Rowan became an NPC."),
        (3, "left", "player left the campaign."),
        (3, "force", "Militia was raised for gm."),
        (3, "new_gm", "gm handed the campaign to co_gm, staying in it as a player. Militia went "
                      "with it."),
    ]  # fmt: skip
    assert StoryEntry.objects.get(pk=since + 1).actor == gm


def test_one_who_joins_by_an_invitation_is_told_with_what_was_held_for_them(world):
    c, gm = world.campaign, world.users["gm"]
    held = force_create(campaign=c, owner=gm, name="Green Platoon", actor=gm)
    invitation_send(campaign=c, invitee="newcomer", role="player", actor=gm)
    invitation = Invitation.objects.get(campaign=c, invitee="newcomer")
    invitation.forces.add(held)
    since = _last(world)
    newcomer = get_user_model().objects.create_user("newcomer")
    invitation_accept(invitation_pk=invitation.pk, user=newcomer)
    assert _told(world, since) == [
        (1, "joined", "newcomer joined as a player, taking Green Platoon.")
    ]
    assert StoryEntry.objects.get(pk=since + 1).actor == newcomer


def test_what_changes_nothing_or_is_refused_tells_nothing(world):
    c, gm = world.campaign, world.users["gm"]
    since = _last(world)
    campaign_update(campaign=c, name="Op. Pages", apply_mode="review", actor=gm)  # as it was
    force_edit(force=world.force, name="Red Company", owner=world.users["player"], actor=gm)
    membership_set(campaign=c, user=world.users["rival"], role="player", actor=gm)
    with pytest.raises(ValidationError):  # plays a force
        membership_remove(campaign=c, user=world.users["player"], actor=gm)
    with pytest.raises(ValidationError):  # a name taken
        force_edit(force=world.force, name="Blue Battalion", owner=world.users["player"], actor=gm)
    with pytest.raises(ValidationError):  # a spectator plays no force
        force_create(campaign=c, owner=world.users["spectator"], name="Ghosts", actor=gm)
    assert _told(world, since) == []


def test_the_settings_that_change_what_players_see_are_told_when_they_change(world):
    c, gm = world.campaign, world.users["gm"]
    since = _last(world)
    campaign_update(campaign=c, fog_of_war=True, other_forces_visible="summary", actor=gm)
    campaign_update(campaign=c, apply_mode="auto", fog_of_war=True, actor=gm)  # fog as it was
    campaign_update(campaign=c, fog_of_war=False, other_forces_visible="full",
                    apply_mode="review", actor=gm)  # fmt: skip
    assert [text for _, kind, text in _told(world, since) if kind == "settings"] == [
        "Players see the other players' forces by name and unit count only.",
        "Fog of war is on: players read a battle as their side saw it.",
        "A battle's outcome reaches the rosters at once.",
        "The GM reviews each battle's outcome before it reaches the rosters.",
        "Players see the other players' forces in full.",
        "Fog of war is off: players read each battle whole.",
    ]
    assert len(_told(world, since)) == 6


def test_settings_saved_from_a_copy_read_before_an_advance_leave_the_calendar_as_it_is(world):
    c, gm = world.campaign, world.users["gm"]
    calendar_advance(campaign=Campaign.objects.get(pk=c.pk), days=2, actor=gm)
    assert c.day == 1  # the copy read before
    campaign_update(campaign=c, fog_of_war=True, actor=gm)
    stored = Campaign.objects.get(pk=c.pk)
    assert (stored.day, stored.fog_of_war) == (3, True)


@pytest.mark.parametrize("role", ["gm", "co_gm", "player", "rival", "spectator"])
def test_everyone_in_the_campaign_reads_the_groups_changes_on_the_timeline(client, world, role):
    # Even where other players' forces are shown in summary: names are everyone's to see.
    Campaign.objects.filter(pk=world.campaign.pk).update(other_forces_visible="summary")
    force_edit(force=world.enemy, name="Blue Battalion", owner=world.users["co_gm"],
               actor=world.users["gm"])  # fmt: skip
    login(client, world, role)
    page = client.get(reverse("campaign:timeline", args=[world.campaign.pk])).text
    day = re.search(r'<h2 id="day-1">Day 1</h2>(.*?)</section>', page, re.S)[1]
    lines = [re.sub(r"<[^>]+>", "", line).strip() for line in re.findall(r"<li .*?</li>", day)]
    assert "Force Blue Battalion went from rival to co_gm." in lines
    assert "Joined spectator joined as a spectator." in lines
    assert '<li class="event event-force"><span class="event-kind">Force</span> Blue Battalion' in (
        day
    )


def test_a_returning_member_is_told_what_changed_in_the_group_since_their_last_visit(client, world):
    login(client, world, "spectator")
    url = reverse("campaign:dashboard", args=[world.campaign.pk])
    first = client.get(url).text  # the first visit: the timeline has what came before
    assert "In the campaign since your last visit" not in first
    gm = world.users["gm"]
    force_edit(force=world.enemy, name="Blue Battalion", owner=world.users["co_gm"], actor=gm)
    membership_set(campaign=world.campaign, user=world.users["rival"], role="spectator", actor=gm)
    back = client.get(url).text
    section = re.search(r'<h2 id="story-since-h">In the campaign since your last visit</h2>(.*?)'
                        r"</section>", back, re.S)[1]  # fmt: skip
    lines = [re.sub(r"<[^>]+>", "", li).strip() for li in re.findall(r"<li .*?</li>", section)]
    assert lines == [
        "New part Day 1: rival became a spectator.",
        "Force Day 1: Blue Battalion went from rival to co_gm.",
    ]
    # Told once: the visit that told it counts as one, and the next finds nothing new.
    assert "In the campaign since your last visit" not in client.get(url).text
