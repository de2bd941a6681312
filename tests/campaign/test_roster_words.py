"""The roster services' refusals, in the very words the GM and the players read on the pages."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from campaign.models import Force, Invitation, Membership, Unit
from campaign.services import (
    campaign_create,
    force_create,
    invitation_accept,
    invitation_join,
    invitation_send,
    leader_attach,
    membership_remove,
    unit_create,
    unit_edit,
    unit_move,
    unit_train,
)
from campaign.services.characters import character_create
from campaign.services.members import InvitationAnswered
from units.models import Ruleset

pytestmark = pytest.mark.django_db


def _refusal(call, **kwargs) -> dict[str, list[str]]:
    with pytest.raises(ValidationError) as refused:
        call(**kwargs)
    return refused.value.message_dict


def test_a_member_playing_two_forces_is_told_to_hand_on_both(campaign, cast):
    for name in ("Red Company", "Grey Platoon"):
        force_create(campaign=campaign, owner=cast.player, name=name)
    assert _refusal(membership_remove, campaign=campaign, user=cast.player, actor=cast.gm) == {
        "user": [
            "player plays Grey Platoon and Red Company: give them to other players on their "
            "pages first."
        ]
    }
    assert _refusal(membership_remove, campaign=campaign, user=cast.player, actor=cast.player) == {
        "user": [
            "You play Grey Platoon and Red Company: the GM gives them to another player first."
        ]
    }
    assert Membership.objects.filter(campaign=campaign, user=cast.player).exists()


def test_an_invitation_refused_says_what_to_give_and_what_to_withdraw(campaign, cast, monkeypatch):
    assert _refusal(
        invitation_send, campaign=campaign, invitee="   ", role="player", actor=cast.gm
    ) == {"invitee": ["give a username or an e-mail address (at most 254 characters)"]}
    monkeypatch.setattr("campaign.services.members.MAX_PENDING_INVITATIONS", 1)
    invitation_send(campaign=campaign, invitee="one", role="player", actor=cast.gm)
    assert _refusal(
        invitation_send, campaign=campaign, invitee="two", role="player", actor=cast.gm
    ) == {"invitee": ["1 invitations are waiting: withdraw some first"]}
    assert list(Invitation.objects.values_list("invitee", flat=True)) == ["one"]


def test_an_invitation_accepted_by_one_who_left_since_says_it_was_answered(campaign, cast):
    invitation_send(campaign=campaign, invitee="outsider", role="player", actor=cast.gm)
    invitation = Invitation.objects.get()
    invitation_accept(invitation_pk=invitation.pk, user=cast.outsider)
    membership_remove(campaign=campaign, user=cast.outsider, actor=cast.outsider)
    with pytest.raises(InvitationAnswered) as answered:
        invitation_accept(invitation_pk=invitation.pk, user=cast.outsider)
    assert answered.value.messages == ["You have already answered the invitation to Op. Test."]
    assert not answered.value.joined
    assert not Membership.objects.filter(campaign=campaign, user=cast.outsider).exists()


def test_the_gm_and_a_member_opening_a_link_read_whose_it_is(campaign, cast):
    invitation_send(campaign=campaign, invitee="dave@example.com", role="player", actor=cast.gm)
    link = Invitation.objects.get().link_key
    with pytest.raises(ValidationError) as gm:
        invitation_join(link_key=link, user=cast.gm)
    assert gm.value.messages == [
        "You are the GM of Op. Test: this link is for the one you invited."
    ]
    with pytest.raises(ValidationError) as member:
        invitation_join(link_key=link, user=cast.player)
    assert member.value.messages == [
        "You are in Op. Test already: this invitation is for someone else."
    ]


def test_a_card_that_is_no_unit_or_of_another_ruleset_is_refused_by_name(force, cards):
    assert _refusal(unit_create, force=force, unit_type=cards["House"], name="Hut") == {
        "unit_type": ["House is a building card, not a unit"]
    }
    assert _refusal(unit_create, force=force, unit_type=cards["Line Suit"], name="Suit") == {
        "unit_type": ["Line Suit is a One Year War card; this campaign plays Combined Arms"]
    }
    assert not Unit.objects.exists()


def test_a_correction_of_no_field_or_of_a_leader_that_is_not_there_is_refused_in_words(
    make_unit,
):
    squad = make_unit()
    assert _refusal(unit_edit, unit=squad, changes=["morale_hits"], reason="typo") == {
        "changes": ["must map each field to correct to its new value"]
    }
    assert _refusal(unit_edit, unit=squad, changes={"force": 2}, reason="typo") == {
        "force": ["not a field a GM edit may change (leaders have their own services)"]
    }
    assert _refusal(unit_edit, unit=squad, changes={"leader_hit_points": 3}, reason="typo") == {
        "leader_hit_points": ["1st Squad has no living leader whose hit points could be set"]
    }
    led = make_unit("2nd Squad", leader={"name": "Sgt. Kay", "hit_points": 12})
    assert _refusal(unit_edit, unit=led, changes={"leader_hit_points": 4.5}, reason="typo") == {
        "leader_hit_points": ["A leader's hit points are a whole number, not 4.5."]
    }
    assert [e.kind for e in Unit.objects.get(pk=led.pk).history.all()] == ["created"]


def test_a_move_without_a_reason_or_out_of_the_campaign_is_refused_in_words(make_unit, enemy, cast):
    squad = make_unit()
    assert _refusal(unit_move, unit=squad, force=enemy, reason="  ") == {
        "reason": ["a move needs its reason"]
    }
    elsewhere = campaign_create(name="Op. Far", gm=cast.gm, ruleset=Ruleset.COMBINED_ARMS)
    far = force_create(campaign=elsewhere, owner=cast.gm, name="Far Company")
    assert _refusal(unit_move, unit=squad, force=far, reason="lost") == {
        "force": ["Far Company is not a force of Op. Test"]
    }
    assert Unit.objects.get(pk=squad.pk).force == squad.force
    assert not Force.objects.get(pk=far.pk).units.exists()


def test_a_leader_without_hit_points_or_off_their_feet_is_refused_in_words(make_unit):
    squad = make_unit()
    assert _refusal(leader_attach, unit=squad, name="Sgt. Kay") == {
        "hit_points": ["a leader needs hit points"]
    }
    assert _refusal(leader_attach, unit=squad, name="Sgt. Kay", hit_points=0) == {
        "hit_points": ["a leader takes command on their feet: 1 or more"]
    }
    assert leader_attach(unit=squad, name="Sgt. Kay", hit_points=1).hit_points == 1


def test_a_leader_named_as_a_character_or_another_leader_is_told_where_that_name_is(
    campaign, make_unit
):
    character_create(campaign=campaign, name="Capt. Holt", hit_points=14)
    led = make_unit("1st Squad", leader={"name": "Sgt. Kay", "hit_points": 12})
    squad = make_unit("2nd Squad")
    assert _refusal(leader_attach, unit=squad, name="Capt. Holt", hit_points=9) == {
        "leader": [
            "Op. Test has a character called “Capt. Holt” already: to put them at the head of "
            "2nd Squad, have them join it on the Characters page"
        ]
    }
    assert _refusal(leader_attach, unit=squad, name="Sgt. Kay", hit_points=9) == {
        "leader": [
            f"“Sgt. Kay” is the name of {led.name}'s leader already: give this leader another"
        ]
    }


def test_training_without_a_trainer_says_who_gives_it(make_unit):
    assert _refusal(unit_train, unit=make_unit(), character=None) == {
        "character": ["training is given by a character of the campaign"]
    }
