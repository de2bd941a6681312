"""Joining by an invitation's link: the services behind the page the GM's link opens."""

from __future__ import annotations

from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ObjectDoesNotExist, ValidationError

from campaign.models import Force, Invitation, InvitationAnswer, Membership
from campaign.services import (
    account_join,
    force_create,
    invitation_join,
    invitation_send,
    invitation_withdraw,
)
from campaign.services.members import TAKEN

pytestmark = pytest.mark.django_db
PASSWORD = "river-crossing-42"


def _invite(campaign, cast, invitee="dave@example.com", role="player") -> Invitation:
    invitation_send(campaign=campaign, invitee=invitee, role=role, actor=cast.gm)
    return campaign.invitations.get(invitee=invitee)


def test_each_invitation_has_its_own_unguessable_link_key(campaign, cast):
    one, other = _invite(campaign, cast), _invite(campaign, cast, "erin")
    assert one.link_key != other.link_key
    assert len(one.link_key) >= 40  # 32 random bytes, as an address carries them


def test_someone_with_no_account_makes_one_and_joins_in_the_role_given(campaign, cast):
    invitation = _invite(campaign, cast, role="spectator")
    user, membership = account_join(
        link_key=invitation.link_key, username="dave", password=PASSWORD
    )
    assert (user.get_username(), user.email) == ("dave", "")
    assert user.check_password(PASSWORD)
    assert (membership.campaign, membership.user, membership.role) == (campaign, user, "spectator")
    assert not Invitation.objects.filter(pk=invitation.pk).exists()  # used up
    assert InvitationAnswer.objects.get(invitation_pk=invitation.pk).user == user
    with pytest.raises(ObjectDoesNotExist):
        account_join(link_key=invitation.link_key, username="eve", password=PASSWORD)


@pytest.mark.parametrize(
    ("fields", "refused"),
    [
        ({"username": "Player"}, "username"),  # another's, in another case
        ({"username": ""}, "username"),
        ({"username": "two words"}, "username"),
        ({"email": "not an address"}, "email"),
        ({"password": "dave12"}, "password"),  # too short
        ({"password": "password123"}, "password"),  # too common
    ],
)
def test_a_refused_account_names_the_field_and_writes_nothing(campaign, cast, fields, refused):
    invitation = _invite(campaign, cast)
    # `site`: where the confirmation link of an address given begins.
    given = {"username": "dave", "password": PASSWORD, "email": "", "site": "http://x", **fields}
    users = get_user_model().objects.count()
    with pytest.raises(ValidationError) as error:
        account_join(link_key=invitation.link_key, **given)
    assert refused in error.value.message_dict, error.value.message_dict
    assert get_user_model().objects.count() == users
    assert Invitation.objects.filter(pk=invitation.pk).exists()


def test_an_email_address_another_account_has_is_refused_with_a_way_in(campaign, cast):
    cast.outsider.email = "dave@example.com"
    cast.outsider.save()
    invitation = _invite(campaign, cast)
    with pytest.raises(ValidationError) as error:
        account_join(link_key=invitation.link_key, username="dave", password=PASSWORD,
                     email="DAVE@example.com", site="http://x")  # fmt: skip
    assert error.value.message_dict["email"] == [
        "An account has this e-mail address: log in with it to join."
    ]


def test_anyone_logged_in_who_holds_the_link_joins_by_it_and_takes_what_it_held(campaign, cast):
    """The link is the invitation: the GM sent it to them, whatever name it was made for. What
    an import held for its invitee is theirs on joining, as on accepting it."""
    invitation = _invite(campaign, cast, "someone-else")
    held = force_create(campaign=campaign, owner=cast.gm, name="Held Company", actor=cast.gm)
    invitation.forces.add(held)
    membership = invitation_join(link_key=invitation.link_key, user=cast.outsider)
    assert (membership.user, membership.role) == (cast.outsider, "player")
    assert Force.objects.get(pk=held.pk).owner == cast.outsider
    assert not Invitation.objects.filter(pk=invitation.pk).exists()


def test_the_gm_or_a_member_opening_the_link_is_refused_and_it_waits_still(campaign, cast):
    invitation = _invite(campaign, cast)
    held = force_create(campaign=campaign, owner=cast.gm, name="Held Company", actor=cast.gm)
    invitation.forces.add(held)
    for user, says in ((cast.gm, "You are the GM of Op. Test"),
                       (cast.player, "You are in Op. Test already")):  # fmt: skip
        with pytest.raises(ValidationError) as error:
            invitation_join(link_key=invitation.link_key, user=user)
        assert error.value.messages[0].startswith(says)
    assert Invitation.objects.filter(pk=invitation.pk).exists()
    assert Force.objects.get(pk=held.pk).owner == cast.gm
    assert not Membership.objects.filter(campaign=campaign, user=cast.gm).exists()


def test_a_withdrawn_or_unknown_link_leads_nowhere(campaign, cast):
    invitation = _invite(campaign, cast)
    invitation_withdraw(campaign=campaign, invitation_pk=invitation.pk, actor=cast.gm)
    for key in (invitation.link_key, "", "not-a-key"):
        with pytest.raises(ObjectDoesNotExist):
            invitation_join(link_key=key, user=cast.outsider)
        with pytest.raises(ObjectDoesNotExist):
            account_join(link_key=key, username="dave", password=PASSWORD)
    assert not Membership.objects.filter(campaign=campaign, user=cast.outsider).exists()
    assert not get_user_model().objects.filter(username="dave").exists()


def test_a_username_made_at_the_same_moment_by_another_link_is_refused_beside_it(campaign, cast):
    """Another link's newcomer takes the name between the check and the save: the database's
    own refusal is said beside the username, and this invitation still waits."""
    invitation = _invite(campaign, cast)

    def another_link_takes_the_name(password, user=None):
        get_user_model().objects.create_user("dave")

    with (
        mock.patch("campaign.services.members.validate_password", another_link_takes_the_name),
        pytest.raises(ValidationError) as error,
    ):
        account_join(link_key=invitation.link_key, username="dave", password=PASSWORD)
    assert error.value.message_dict["username"] == [TAKEN]
    assert Invitation.objects.filter(pk=invitation.pk).exists()
