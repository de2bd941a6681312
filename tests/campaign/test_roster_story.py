"""What the roster services tell the campaign's story, and where their limits fall."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from campaign.models import Campaign, Invitation, Membership, StoryEntry
from campaign.services import campaign_update, invitation_send, membership_set
from campaign.services._record import CAMPAIGN_HOLDS

pytestmark = pytest.mark.django_db
Told = StoryEntry.Kind


def _told(campaign: Campaign, *kinds: str) -> list[str]:
    return list(campaign.story.filter(kind__in=kinds).values_list("text", flat=True))


def test_a_setting_is_told_only_when_it_changes_and_as_it_now_stands(campaign, cast):
    campaign_update(campaign=campaign, fog_of_war=True, actor=cast.gm)
    campaign_update(campaign=campaign, fog_of_war=True, actor=cast.gm)  # as it was: not told
    campaign_update(campaign=campaign, fog_of_war=False, actor=cast.gm)
    assert _told(campaign, Told.SETTINGS) == [
        "Fog of war is on: players read a battle as their side saw it.",
        "Fog of war is off: players read each battle whole.",
    ]
    assert not _told(campaign, Told.RENAMED)


def test_a_campaign_renamed_is_told_with_both_names_and_only_then(campaign, cast):
    campaign_update(campaign=campaign, name="Op. Test", actor=cast.gm)
    campaign_update(campaign=campaign, name="Op. Weir", actor=cast.gm)
    assert _told(campaign, Told.RENAMED) == ["Op. Test was renamed Op. Weir."]
    assert Campaign.objects.get(pk=campaign.pk).name == "Op. Weir"


def test_a_member_joining_or_changing_part_is_told_as_such(campaign, cast):
    membership_set(campaign=campaign, user=cast.outsider, role="spectator", actor=cast.gm)
    membership_set(campaign=campaign, user=cast.outsider, role="spectator", actor=cast.gm)
    membership_set(campaign=campaign, user=cast.outsider, role="co_gm", actor=cast.gm)
    assert _told(campaign, Told.JOINED, Told.PART)[-2:] == [
        "outsider joined as a spectator.",
        "outsider became a co-GM.",
    ]
    assert len(_told(campaign, Told.JOINED, Told.PART)) == 4  # the cast's two players first


def test_a_full_campaign_still_changes_a_members_part(campaign, cast, monkeypatch):
    monkeypatch.setitem(CAMPAIGN_HOLDS, "member", ("memberships", 2))
    membership_set(campaign=campaign, user=cast.rival, role="co_gm", actor=cast.gm)
    with pytest.raises(ValidationError, match="already has 2 members"):
        membership_set(campaign=campaign, user=cast.outsider, role="player", actor=cast.gm)
    assert Membership.objects.get(campaign=campaign, user=cast.rival).role == "co_gm"


def test_an_invitee_of_254_characters_is_kept_and_one_of_255_refused(campaign, cast):
    longest = "a" * 254
    invitation_send(campaign=campaign, invitee=longest, role="player", actor=cast.gm)
    with pytest.raises(ValidationError) as refused:
        invitation_send(campaign=campaign, invitee="b" * 255, role="player", actor=cast.gm)
    assert set(refused.value.message_dict) == {"invitee"}
    assert list(Invitation.objects.values_list("invitee", flat=True)) == [longest]


def test_a_campaign_is_not_renamed_as_another_of_the_gms_campaigns(campaign, cast):
    from campaign.services import campaign_create

    other = campaign_create(name="Op. Far", gm=cast.gm, ruleset=campaign.ruleset)
    with pytest.raises(ValidationError) as refused:
        campaign_update(campaign=other, name="Op. Test", actor=cast.gm)
    assert set(refused.value.message_dict) == {"name"}
    assert Campaign.objects.get(pk=other.pk).name == "Op. Far"
    assert not _told(other, Told.RENAMED)


def test_a_second_campaign_of_the_same_name_is_refused_to_its_gm(campaign, cast):
    from campaign.services import campaign_create

    with pytest.raises(ValidationError) as refused:
        campaign_create(name="Op. Test", gm=cast.gm, ruleset=campaign.ruleset)
    assert refused.value.message_dict["name"][0].startswith(
        "Your campaigns already have one called “Op. Test”; "
    )
    assert Campaign.objects.filter(name="Op. Test").count() == 1


def test_a_player_takes_no_other_member_out_of_the_campaign(campaign, cast):
    from django.core.exceptions import PermissionDenied

    from campaign.services import membership_remove

    with pytest.raises(PermissionDenied):
        membership_remove(campaign=campaign, user=cast.rival, actor=cast.player)
    assert Membership.objects.filter(campaign=campaign, user=cast.rival).exists()
    assert membership_remove(campaign=campaign, user=cast.rival, actor=cast.rival) == []
    assert _told(campaign, Told.LEFT) == ["rival left the campaign."]


def test_twenty_units_are_raised_at_once_each_numbered_and_one_keeps_its_name(force, cards):
    from campaign.services import units_raise

    rifles = cards["Rifle Squad"]
    [one] = units_raise(force=force, unit_type=rifles, name=" Lone Rifles ")
    assert one.name == "Lone Rifles"
    mob = units_raise(force=force, unit_type=rifles, name=" Mob ", count=20)
    assert [unit.name for unit in mob] == [f"Mob {n}" for n in range(1, 21)]
    with pytest.raises(ValidationError) as refused:
        units_raise(force=force, unit_type=rifles, name="Horde", count=21)
    assert refused.value.message_dict == {"count": ["1 to 20 units are raised at once, not 21."]}
    assert force.units.count() == 21


def test_a_leaders_hit_points_are_set_from_minus_999_to_full_and_at_minus_10_it_dies(
    campaign, make_unit
):
    from campaign.services import leader_attach, unit_edit
    from campaign.services.characters import character_create

    holt = character_create(campaign=campaign, name="Capt. Holt", hit_points=14)
    squad = make_unit("1st Squad", quality="legendary", specialties=())
    leader_attach(unit=squad, character=holt)
    unit_edit(unit=squad, changes={"leader_hit_points": 3}, reason="shot")
    unit_edit(unit=squad, changes={"leader_hit_points": 14}, reason="patched up")
    with pytest.raises(ValidationError) as refused:
        unit_edit(unit=squad, changes={"leader_hit_points": 15}, reason="typo")
    assert refused.value.message_dict == {
        "leader_hit_points": ["At most 14, Capt. Holt's full hit points."]
    }
    unit_edit(unit=squad, changes={"leader_hit_points": -9}, reason="bleeding")
    squad.refresh_from_db()
    assert (squad.state.leader.hit_points, squad.state.leader.alive) == (-9, True)
    named = make_unit("2nd Squad", quality="legendary", specialties=(),
                      leader={"name": "Sgt. Kay", "hit_points": 12})  # fmt: skip
    unit_edit(unit=named, changes={"leader_hit_points": 999}, reason="a hero")
    unit_edit(unit=named, changes={"leader_hit_points": -999}, reason="a shell")
    named.refresh_from_db()
    assert (named.state.leader.hit_points, named.state.leader.alive) == (-999, False)
    unit_edit(unit=squad, changes={"leader_hit_points": -10}, reason="a sniper")
    squad.refresh_from_db()
    assert (squad.state.leader.hit_points, squad.state.leader.alive) == (-10, False)
