"""Who may do what: the cast's roles; invitations made, answered, declined or withdrawn, alike for
any name and refused past the cap; only the GM and co-GMs run the campaign, players raise units in
their own force, a member with a force stays until it is handed over, and only a unit's player or
the GM sends it into the combat zone."""

from __future__ import annotations

import pytest
from django.core.exceptions import ObjectDoesNotExist, PermissionDenied, ValidationError

from campaign.models import Force, Invitation, Membership
from campaign.rules.damage import UnitOutcome
from campaign.selectors.access import (
    campaign_can_manage,
    campaign_role,
    campaigns_for_user,
    invitations_for,
)
from campaign.services import (
    campaign_update,
    force_create,
    invitation_accept,
    invitation_decline,
    invitation_send,
    invitation_withdraw,
    membership_remove,
    membership_set,
    outcome_apply,
    unit_combat_zone_set,
    unit_create,
    unit_edit,
)


def test_the_cast_has_its_roles(campaign, cast):
    assert campaign_role(campaign=campaign, user=cast.gm) == "gm"
    assert campaign_role(campaign=campaign, user=cast.player) == Membership.Role.PLAYER
    assert campaign_role(campaign=campaign, user=cast.outsider) is None
    assert list(campaigns_for_user(user=cast.player)) == [campaign]
    assert not campaigns_for_user(user=cast.outsider).exists()
    membership_set(campaign=campaign, user=cast.outsider, role="co_gm")
    assert campaign_can_manage(campaign=campaign, user=cast.outsider)


def test_an_invitation_makes_no_member_until_accepted_and_keeps_its_role(campaign, cast):
    invitation_send(campaign=campaign, invitee=" outsider ", role="spectator", actor=cast.gm)
    [invitation] = invitations_for(cast.outsider)
    assert (invitation.campaign, invitation.role, invitation.invited_by) == (
        campaign,
        "spectator",
        cast.gm,
    )
    assert campaign_role(campaign=campaign, user=cast.outsider) is None
    assert not invitations_for(cast.player).exists()
    with pytest.raises(ObjectDoesNotExist):  # only the invitee may answer it
        invitation_accept(invitation_pk=invitation.pk, user=cast.player)
    membership = invitation_accept(invitation_pk=invitation.pk, user=cast.outsider)
    assert membership.role == "spectator"
    assert campaign_role(campaign=campaign, user=cast.outsider) == "spectator"
    assert not Invitation.objects.exists()


def test_an_invitation_answered_already_says_so_to_its_invitee_only(campaign, cast):
    from campaign.services.members import InvitationAnswered

    invitation_send(campaign=campaign, invitee="outsider", role="player", actor=cast.gm)
    invitation = Invitation.objects.get()
    invitation_accept(invitation_pk=invitation.pk, user=cast.outsider)
    for answer in (invitation_accept, invitation_decline):
        with pytest.raises(InvitationAnswered) as answered:
            answer(invitation_pk=invitation.pk, user=cast.outsider)
        assert answered.value.messages == [f"You have already joined {campaign.name}."]
        assert answered.value.joined and answered.value.campaign == campaign
    with pytest.raises(ObjectDoesNotExist):  # to anyone else, no such invitation
        invitation_accept(invitation_pk=invitation.pk, user=cast.player)
    assert Membership.objects.filter(campaign=campaign, user=cast.outsider).count() == 1
    assert not Invitation.objects.exists()


def test_an_invitation_declined_or_withdrawn_leaves_no_membership(campaign, cast):
    invitation_send(campaign=campaign, invitee="outsider", role="player", actor=cast.gm)
    invitation = Invitation.objects.get()
    assert invitation_decline(invitation_pk=invitation.pk, user=cast.outsider) == campaign
    invitation_send(campaign=campaign, invitee="outsider", role="co_gm", actor=cast.gm)
    invitation = Invitation.objects.get()
    with pytest.raises(PermissionDenied):
        invitation_withdraw(campaign=campaign, invitation_pk=invitation.pk, actor=cast.player)
    assert invitation_withdraw(campaign=campaign, invitation_pk=invitation.pk, actor=cast.gm) == (
        "outsider"
    )
    with pytest.raises(ObjectDoesNotExist):
        invitation_accept(invitation_pk=invitation.pk, user=cast.outsider)
    assert campaign_role(campaign=campaign, user=cast.outsider) is None


def test_an_invitation_to_anyone_looks_the_same_and_members_get_none(campaign, cast):
    """Unknown names are kept like known ones; members and the GM are not invited again."""
    for name in ("nobody-at-all", "player", "gm", "outsider", "outsider"):
        assert invitation_send(campaign=campaign, invitee=name, role="player", actor=cast.gm) == ""
    assert sorted(Invitation.objects.values_list("invitee", flat=True)) == [
        "nobody-at-all",
        "outsider",
    ]
    assert Membership.objects.get(campaign=campaign, user=cast.player).role == "player"


def test_an_invitation_by_e_mail_reaches_the_account_with_that_address(campaign, cast):
    cast.outsider.email = "Out.Sider@example.org"
    cast.outsider.save()
    invitation_send(
        campaign=campaign, invitee="OUT.SIDER@example.org", role="player", actor=cast.gm
    )
    [invitation] = invitations_for(cast.outsider)
    assert invitation.invitee == "out.sider@example.org"
    invitation_accept(invitation_pk=invitation.pk, user=cast.outsider)
    assert campaign_role(campaign=campaign, user=cast.outsider) == "player"


def test_an_invitation_is_refused_for_bad_input_and_past_the_cap(campaign, cast, monkeypatch):
    with pytest.raises(PermissionDenied):
        invitation_send(campaign=campaign, invitee="outsider", role="player", actor=cast.player)
    with pytest.raises(ValidationError) as bad:
        invitation_send(campaign=campaign, invitee="a\x00b", role="king", actor=cast.gm)
    assert set(bad.value.message_dict) == {"invitee", "role"}
    monkeypatch.setattr("campaign.services.members.MAX_PENDING_INVITATIONS", 2)
    invitation_send(campaign=campaign, invitee="one", role="player", actor=cast.gm)
    invitation_send(campaign=campaign, invitee="two", role="player", actor=cast.gm)
    invitation_send(campaign=campaign, invitee="two", role="co_gm", actor=cast.gm)  # no new one
    with pytest.raises(ValidationError, match="2 invitations are waiting"):
        invitation_send(campaign=campaign, invitee="three", role="player", actor=cast.gm)
    assert dict(Invitation.objects.values_list("invitee", "role")) == {
        "one": "player",
        "two": "co_gm",
    }


def test_only_the_gm_and_co_gms_run_the_campaign(campaign, cast, make_unit, enemy):
    unit = make_unit()
    for user in (cast.player, cast.outsider):
        with pytest.raises(PermissionDenied):
            outcome_apply(
                campaign=campaign, outcomes={unit.pk: UnitOutcome(1, 0)}, reason="Ford", actor=user
            )
        with pytest.raises(PermissionDenied):
            unit_edit(unit=unit, changes={"morale_hits": 1}, reason="x", actor=user)
        with pytest.raises(PermissionDenied):
            campaign_update(campaign=campaign, apply_mode="review", actor=user)
    campaign_update(campaign=campaign, apply_mode="review", actor=cast.gm)
    campaign.refresh_from_db()
    assert campaign.apply_mode == "review"


def test_players_raise_units_in_their_own_force_only(force, enemy, cast, cards):
    unit_create(force=force, unit_type=cards["Rifle Squad"], name="Mine", actor=cast.player)
    with pytest.raises(PermissionDenied):
        unit_create(force=enemy, unit_type=cards["Rifle Squad"], name="Theirs", actor=cast.player)


def test_forces_belong_to_players_of_the_campaign(campaign, cast):
    with pytest.raises(ValidationError, match="not a player"):
        force_create(campaign=campaign, owner=cast.outsider, name="Gatecrashers")
    membership_set(campaign=campaign, user=cast.outsider, role="spectator")
    with pytest.raises(ValidationError, match="not a player"):
        force_create(campaign=campaign, owner=cast.outsider, name="Gatecrashers")
    assert force_create(campaign=campaign, owner=cast.gm, name="Opposition").owner == cast.gm


def test_a_member_with_a_force_stays_until_it_is_handed_over(campaign, force, cast):
    with pytest.raises(ValidationError, match="give it to another player on its page first"):
        membership_remove(campaign=campaign, user=cast.player)
    with pytest.raises(ValidationError, match="spectator cannot"):
        membership_set(campaign=campaign, user=cast.player, role="spectator")
    Force.objects.filter(pk=force.pk).update(owner=cast.gm)
    membership_remove(campaign=campaign, user=cast.player)
    assert campaign_role(campaign=campaign, user=cast.player) is None


def test_only_its_player_or_the_gm_sends_a_unit_into_the_combat_zone(make_unit, cast):
    squad = make_unit()
    with pytest.raises(PermissionDenied):
        unit_combat_zone_set(unit=squad, in_combat_zone=True, actor=cast.rival)
    squad.refresh_from_db()
    assert not squad.state.in_combat_zone
    unit_combat_zone_set(unit=squad, in_combat_zone=True, actor=cast.player)
    squad.refresh_from_db()
    assert squad.state.in_combat_zone
