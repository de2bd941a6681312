"""An import gives no one a part in a campaign they did not accept: whoever imports it runs it,
everyone else the file names is invited in their role there, and what the file gave them (forces,
characters) waits with the GM until they accept."""

from __future__ import annotations

import copy
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils import timezone

from campaign.models import Campaign, Character, Force, Invitation, Membership
from campaign.rules.values import MAX_PENDING_INVITATIONS
from campaign.selectors.access import campaigns_for_user, invitations_for
from campaign.services import (
    campaign_create,
    campaign_import,
    invitation_accept,
    invitation_decline,
    invitation_send,
    invitation_withdraw,
    membership_set,
)
from campaign.services.characters import character_create
from campaign.services.transfer import campaign_import_summary
from campaign.transfer.export import campaign_export, export_text, invitations_export
from campaign.transfer.problems import import_problems
from tests.campaign.invited import accept_every_invitation


@pytest.fixture
def exported(campaign, force, enemy, make_unit, cast) -> dict:
    """Op. Test as a file: the player's Red Company and character Capt. Holt, the rival's Blue
    Battalion, the outsider a spectator."""
    make_unit("1st Squad")
    make_unit("Blue Rifles", into=enemy)
    membership_set(campaign=campaign, user=cast.outsider, role="spectator")
    character_create(campaign=campaign, name="Capt. Holt", hit_points=14, player=cast.player)
    character_create(campaign=campaign, name="Lt. Vey", hit_points=9)  # the GM's NPC
    return json.loads(export_text(campaign_export(campaign=campaign)))


@pytest.fixture
def stranger(db):
    return get_user_model().objects.create_user("stranger")


def _spam(exported: dict) -> dict:
    """The site walk's file: the export with its GM edited to read "stranger"."""
    data = copy.deepcopy(exported)
    data["campaign"]["gm"] = "stranger"
    data["campaign"]["name"] = "Stranger's Spam Campaign"
    return data


def _invited(campaign: Campaign) -> dict[str, str]:
    return dict(campaign.invitations.values_list("invitee", "role"))


def _held(campaign: Campaign, invitee: str) -> tuple[list[str], list[str]]:
    invitation = campaign.invitations.get(invitee=invitee)
    return (
        sorted(invitation.forces.values_list("name", flat=True)),
        sorted(invitation.characters.values_list("name", flat=True)),
    )


def test_a_file_naming_others_puts_none_of_them_in_the_campaign(exported, stranger, cast):
    spam = campaign_import(data=_spam(exported), gm=stranger)
    assert spam.gm == stranger
    assert not Membership.objects.filter(campaign=spam).exists()
    for person in (cast.player, cast.rival, cast.outsider):
        assert spam not in campaigns_for_user(user=person)  # not on "My campaigns"
        assert [i.campaign for i in invitations_for(person)] == [spam]  # but invited
    assert _invited(spam) == {"outsider": "spectator", "player": "player", "rival": "player"}
    # Their forces wait with the GM, their characters unplayed, each held for its invitee.
    assert set(spam.forces.values_list("owner__username", flat=True)) == {"stranger"}
    assert not spam.characters.exclude(player=None).exists()
    assert _held(spam, "player") == (["Red Company"], ["Capt. Holt"])
    assert _held(spam, "rival") == (["Blue Battalion"], [])
    assert _held(spam, "outsider") == ([], [])


def test_accepting_hands_over_what_the_file_gave_them(exported, stranger, cast):
    spam = campaign_import(data=_spam(exported), gm=stranger)
    invitation = spam.invitations.get(invitee="player")
    joined = invitation_accept(invitation_pk=invitation.pk, user=cast.player)
    assert (joined.user, joined.role) == (cast.player, "player")
    assert spam.forces.get(name="Red Company").owner == cast.player
    assert spam.characters.get(name="Capt. Holt").player == cast.player
    assert spam.forces.get(name="Blue Battalion").owner == stranger  # the rival's, still held
    assert spam.characters.get(name="Lt. Vey").player is None  # an NPC stays an NPC


def test_declined_or_withdrawn_the_gm_keeps_what_was_held(exported, stranger, cast):
    spam = campaign_import(data=_spam(exported), gm=stranger)
    invitation_decline(invitation_pk=spam.invitations.get(invitee="rival").pk, user=cast.rival)
    withdrawn = spam.invitations.get(invitee="player").pk
    invitation_withdraw(campaign=spam, invitation_pk=withdrawn, actor=stranger)
    assert not Membership.objects.filter(campaign=spam).exists()
    assert set(spam.forces.values_list("owner__username", flat=True)) == {"stranger"}
    assert spam.characters.get(name="Capt. Holt").player is None
    # Invited again by hand, the player joins with nothing handed over: the GM decides now.
    invitation_send(campaign=spam, invitee="player", role="player", actor=stranger)
    again = spam.invitations.get(invitee="player")
    invitation_accept(invitation_pk=again.pk, user=cast.player)
    assert spam.forces.get(name="Red Company").owner == stranger


def test_joining_as_a_spectator_takes_over_nothing(exported, stranger, cast):
    spam = campaign_import(data=_spam(exported), gm=stranger)
    # The GM changes the invitation's role before it is answered: the flow's own rule.
    invitation_send(campaign=spam, invitee="player", role="spectator", actor=stranger)
    invitation = spam.invitations.get(invitee="player")
    assert invitation.forces.exists()  # still held for them
    joined = invitation_accept(invitation_pk=invitation.pk, user=cast.player)
    assert joined.role == "spectator"
    assert spam.forces.get(name="Red Company").owner == stranger
    assert spam.characters.get(name="Capt. Holt").player is None


def test_the_files_gm_is_invited_as_a_co_gm_when_someone_else_imports(exported, cast):
    copy_of = campaign_import(data=exported, gm=cast.player)
    assert copy_of.gm == cast.player
    # The importer, a member in the file, keeps their own force and character: they run it now.
    assert _invited(copy_of) == {"gm": "co_gm", "outsider": "spectator", "rival": "player"}
    assert copy_of.forces.get(name="Red Company").owner == cast.player
    assert copy_of.characters.get(name="Capt. Holt").player == cast.player
    invitation_accept(invitation_pk=copy_of.invitations.get(invitee="gm").pk, user=cast.gm)
    assert Membership.objects.get(campaign=copy_of, user=cast.gm).role == "co_gm"


def test_a_name_with_no_account_is_invited_like_any_other(exported, stranger):
    """As "Invite a player" does: whether an account exists is never told."""
    data = _spam(exported)
    data["campaign"]["members"].append({"user": "zed", "role": "player"})
    data["forces"][0]["owner"] = "zed"
    spam = campaign_import(data=data, gm=stranger)
    assert _invited(spam)["zed"] == "player"
    assert _held(spam, "zed") == ([data["forces"][0]["name"]], [])
    said = campaign_import_summary(campaign=spam, data=data)
    assert "no account" not in said and "not found" not in said
    # Someone who makes that account later finds the invitation, and their force with it.
    zed = get_user_model().objects.create_user("zed")
    invitation_accept(invitation_pk=spam.invitations.get(invitee="zed").pk, user=zed)
    assert spam.forces.get(name=data["forces"][0]["name"]).owner == zed


def test_the_summary_says_who_was_invited_and_what_the_gm_holds(exported, stranger):
    data = _spam(exported)
    spam = campaign_import(data=data, gm=stranger)
    assert campaign_import_summary(campaign=spam, data=data) == (
        "Imported Stranger's Spam Campaign: 2 forces, 2 units, 2 characters; 2 players and 1 "
        "spectator invited. "
        "Each is invited in their role in the file: player and rival as players, outsider as a "
        "spectator. If an account by that name exists, it has been invited; no one joins until "
        "they accept. "
        "Until player accepts, you hold their force Red Company and their character Capt. Holt. "
        "Until rival accepts, you hold their force Blue Battalion."
    )
    said = campaign_import_summary(campaign=spam, data=data, you=False)
    assert "Until rival accepts, stranger holds their force Blue Battalion." in said


def test_past_the_cap_the_rest_are_not_invited_and_the_summary_names_them(exported, stranger):
    data = _spam(exported)
    extra = [f"fan{n:02}" for n in range(MAX_PENDING_INVITATIONS)]
    data["campaign"]["members"] += [{"user": name, "role": "spectator"} for name in extra]
    spam = campaign_import(data=data, gm=stranger)
    assert spam.invitations.count() == MAX_PENDING_INVITATIONS
    said = campaign_import_summary(campaign=spam, data=data)
    assert said.endswith(
        f"Not invited, since at most {MAX_PENDING_INVITATIONS} invitations wait at once: fan47, "
        "fan48 and fan49; invite them from the campaign's page once some have answered."
    )


def test_a_name_the_importer_has_already_is_told_apart(exported, cast):
    """Two alike rows on "My campaigns" told nothing apart: the import's day marks the copy."""
    today = timezone.localdate().isoformat()
    first = campaign_import(data=exported, gm=cast.gm)
    second = campaign_import(data=exported, gm=cast.gm)
    assert (first.name, second.name) == (
        f"Op. Test (imported {today})",
        f"Op. Test (imported {today}, 2)",
    )
    said = campaign_import_summary(campaign=first, data=exported)
    assert said.startswith(
        f"Imported Op. Test (imported {today}): 2 forces, 2 units, 2 characters; 2 players and 1 "
        f"spectator invited. Its name tells it apart from Op. Test, which you have "
        "already."
    )
    # A campaign of that name they are a member of counts too; someone else's does not.
    campaign_create(name="Op. Elsewhere", gm=cast.rival, ruleset="combined_arms")
    assert Membership.objects.filter(campaign__name="Op. Test", user=cast.outsider).exists()
    mine = campaign_import(data=exported, gm=cast.outsider)
    assert mine.name == f"Op. Test (imported {today})"
    other = copy.deepcopy(exported)
    other["campaign"]["name"] = "Op. Elsewhere"
    assert campaign_import(data=other, gm=cast.gm).name == "Op. Elsewhere"
    # A long name is cut to make room for the mark.
    long = copy.deepcopy(exported)
    long["campaign"]["name"] = "X" * 200
    campaign_import(data=long, gm=cast.gm)
    marked = campaign_import(data=long, gm=cast.gm).name
    assert len(marked) == 200 and marked.endswith(f" (imported {today})")


def test_keep_members_restores_a_backup_as_it_was(exported, campaign):
    """For whoever runs the site (`manage.py campaign_import --keep-members`)."""
    Campaign.objects.filter(pk=campaign.pk).delete()
    restored = campaign_import(data=exported, keep_members=True)
    assert not Invitation.objects.exists()
    assert json.loads(export_text(campaign_export(campaign=restored))) == exported
    # Each must have an account here: one missing is named, and nothing is written.
    data = copy.deepcopy(exported)
    data["campaign"]["members"].append({"user": "zed", "role": "spectator"})
    before = (Campaign.objects.count(), Force.objects.count(), Character.objects.count())
    with pytest.raises(ValidationError) as refused:
        campaign_import(data=data, keep_members=True)
    assert refused.value.message_dict["campaign.members[3].user"] == ["no user “zed” on this site"]
    assert (Campaign.objects.count(), Force.objects.count(), Character.objects.count()) == before


def test_invited_and_accepted_the_file_comes_back_the_same(exported, campaign, stranger):
    """What "exactly" means for the people: once each has accepted, the same file."""
    Campaign.objects.filter(pk=campaign.pk).delete()
    imported = campaign_import(data=exported)  # the command's default: the file's GM
    assert campaign_export(campaign=imported) != exported
    accept_every_invitation(imported)
    assert json.loads(export_text(campaign_export(campaign=imported))) == exported


def test_a_member_name_no_account_could_have_is_refused_by_its_path(exported, stranger):
    data = _spam(exported)
    data["campaign"]["members"][0]["user"] = "x" * 151
    data["campaign"]["members"][1]["user"] = "  "
    with pytest.raises(ValidationError) as refused:
        campaign_import(data=data, gm=stranger)
    assert set(refused.value.message_dict) >= {
        "campaign.members[0].user",
        "campaign.members[1].user",
    }
    assert not Campaign.objects.filter(gm=stranger).exists()


def _waiting(exported: dict, stranger) -> dict:
    """The stranger's copy of the file, exported before anyone accepted: its people are the
    invitations waiting, and a name with no account waits among them as the GM typed it."""
    spam = campaign_import(data=_spam(exported), gm=stranger)
    invitation_send(campaign=spam, invitee="Zed@Example.com", role="spectator", actor=stranger)
    data = json.loads(export_text(campaign_export(campaign=spam)))
    Campaign.objects.filter(pk=spam.pk).delete()
    return data


def test_the_invitations_waiting_survive_export_and_import(
    exported, stranger, cast, django_assert_num_queries
):
    """Moved twice, or backed up right after an import: no one the GM invited is lost."""
    data = _waiting(exported, stranger)
    assert data["campaign"]["members"] == []
    assert data["campaign"]["invitations"] == [
        {"invitee": "outsider", "role": "spectator", "forces": [], "characters": []},
        {"invitee": "player", "role": "player", "forces": ["Red Company"],
         "characters": ["Capt. Holt"]},
        {"invitee": "rival", "role": "player", "forces": ["Blue Battalion"], "characters": []},
        {"invitee": "zed@example.com", "role": "spectator", "forces": [], "characters": []},
    ]  # fmt: skip
    assert "link_key" not in export_text(data)
    again = campaign_import(data=data, gm=stranger)
    # The invitations, then their forces and their characters, each read once for all four.
    with django_assert_num_queries(3):
        assert invitations_export(again) == data["campaign"]["invitations"]
    assert json.loads(export_text(campaign_export(campaign=again))) == data
    assert _held(again, "player") == (["Red Company"], ["Capt. Holt"])
    # Each with a link of its own: the old site's links open nothing here.
    assert not again.invitations.filter(link_key__in=Invitation.objects.exclude(campaign=again)
                                        .values("link_key")).exists()  # fmt: skip
    invitation_accept(invitation_pk=again.invitations.get(invitee="player").pk, user=cast.player)
    assert again.forces.get(name="Red Company").owner == cast.player
    # Imported by someone else, what waits for an invitee is not the file's GM's to take over.
    moved = campaign_import(data=data, gm=cast.gm)
    assert _invited(moved) == {
        "outsider": "spectator", "player": "player", "rival": "player", "stranger": "co_gm",
        "zed@example.com": "spectator",
    }  # fmt: skip
    assert _held(moved, "stranger") == ([], [])
    assert _held(moved, "rival") == (["Blue Battalion"], [])
    assert set(moved.forces.values_list("owner__username", flat=True)) == {"gm"}
    # Restored as a backup, they are still invitations: none of them had joined.
    Campaign.objects.filter(pk=again.pk).delete()
    restored = campaign_import(data=data, keep_members=True)
    assert json.loads(export_text(campaign_export(campaign=restored))) == data


def test_an_invitation_to_whoever_imports_is_dropped_and_what_it_held_is_theirs(
    exported, stranger, cast
):
    """Sent to their username or to their e-mail address, it is theirs: they run the campaign
    now, holding its forces, and play the characters it held, as accepting would have had it."""
    data = _waiting(exported, stranger)
    cast.player.email = "Player@Example.com"
    cast.player.save()
    by_email = copy.deepcopy(data)
    by_email["campaign"]["invitations"][1]["invitee"] = "player@example.com"
    for file in (data, by_email):
        mine = campaign_import(data=file, gm=cast.player)
        assert _invited(mine) == {
            "outsider": "spectator", "rival": "player", "stranger": "co_gm",
            "zed@example.com": "spectator",
        }  # fmt: skip
        assert mine.forces.get(name="Red Company").owner == cast.player
        assert list(mine.characters.filter(player=cast.player).values_list("name", flat=True)) == [
            "Capt. Holt"
        ]
        assert not mine.characters.get(name="Capt. Holt").held_for.exists()


def test_past_the_cap_an_invitation_to_whoever_imports_is_not_named_as_left_out(exported, stranger):
    data = _spam(exported)
    stranger.email = "stranger@example.com"
    stranger.save()
    extra = [f"fan{n:02}" for n in range(MAX_PENDING_INVITATIONS - 3)]
    data["campaign"]["members"] += [{"user": name, "role": "spectator"} for name in extra]
    data["campaign"]["invitations"] = [
        {"invitee": name, "role": "player", "forces": [], "characters": []}
        for name in ("Stranger@Example.com", "amy")
    ]
    spam = campaign_import(data=data, gm=stranger)
    assert not spam.invitations.filter(invitee="stranger@example.com").exists()
    said = campaign_import_summary(campaign=spam, data=data)
    assert said.endswith(
        f"at most {MAX_PENDING_INVITATIONS} invitations wait at once: amy; "
        "invite them from the campaign's page once some have answered."
    )


def test_a_bad_invitation_in_the_file_is_refused_by_its_invitee_and_nothing_is_written(
    exported, stranger
):
    data = _spam(exported)
    data["campaign"]["invitations"] = [
        {"invitee": "player", "role": "player", "forces": [], "characters": []},
        {"invitee": "zed", "role": "king", "forces": ["Red Company", "Green Horde"],
         "characters": ["Capt. Holt"]},
        {"invitee": "amy", "role": "player", "forces": [], "characters": ["Lt. Vey", "Lt. Vey"],
         "link_key": "a secret"},
        {"invitee": "ZED", "role": "spectator", "forces": {"name": "x"}, "characters": []},
        {"invitee": "zed", "role": "spectator", "forces": [], "characters": []},
    ]  # fmt: skip
    before = (Campaign.objects.count(), Invitation.objects.count(), Force.objects.count())
    with pytest.raises(ValidationError) as refused:
        campaign_import(data=data, gm=stranger)
    problems = {(p["path"], p["named"]): p["problem"] for p in import_problems(refused.value, data)}
    assert problems == {
        ("campaign.invitations[0].invitee", "player"): "“player” is the campaign's GM or a member "
        "in the file already: only someone not in it is invited",
        ("campaign.invitations[1].role", "zed"): 'must be one of co_gm, player, spectator, got '
        'the text "king"',
        ("campaign.invitations[1].forces[0]", "zed"): "“Red Company” is player's force: only a "
        "force the GM holds waits for an invitee",
        ("campaign.invitations[1].forces[1]", "zed"): "no force “Green Horde” in the export",
        ("campaign.invitations[1].characters[0]", "zed"): "“Capt. Holt” is played by player: "
        "only a character nobody plays waits for an invitee",
        ("campaign.invitations[2].link_key", "amy"): "unknown field",
        ("campaign.invitations[3].forces", "ZED"): "must be a list of force names",
        ("campaign.invitations[4].invitee", "zed"): "“zed” is invited twice",
    }  # fmt: skip
    del data["campaign"]["invitations"][:2], data["campaign"]["invitations"][0]["link_key"]
    with pytest.raises(ValidationError) as refused:
        campaign_import(data=data, gm=stranger)
    assert refused.value.message_dict["campaign.invitations[0].characters[1]"] == [
        "“Lt. Vey” is listed twice: a character waits for one invitee"
    ]
    data["campaign"]["invitations"] = [
        {"invitee": f"fan{n:02}", "role": "spectator", "forces": [], "characters": []}
        for n in range(MAX_PENDING_INVITATIONS + 1)
    ]
    with pytest.raises(ValidationError) as refused:
        campaign_import(data=data, gm=stranger)
    assert refused.value.message_dict["campaign.invitations"] == [
        f"holds {MAX_PENDING_INVITATIONS + 1} invitations; at most {MAX_PENDING_INVITATIONS} "
        "wait at once"
    ]
    assert (Campaign.objects.count(), Invitation.objects.count(), Force.objects.count()) == before


def test_an_export_from_before_invitations_were_carried_imports_as_before(exported, stranger):
    data = _waiting(exported, stranger)
    del data["campaign"]["invitations"]
    copy_of = campaign_import(data=data, gm=stranger)
    # Its members alone are invited: the invitations it did not carry are not there to send.
    assert not copy_of.invitations.exists()
    assert set(copy_of.forces.values_list("owner__username", flat=True)) == {"stranger"}
    older = _spam(exported)
    del older["campaign"]["invitations"]
    spam = campaign_import(data=older, gm=stranger)
    assert _invited(spam) == {"outsider": "spectator", "player": "player", "rival": "player"}
    assert _held(spam, "player") == (["Red Company"], ["Capt. Holt"])


def test_past_the_cap_the_files_invitations_not_sent_are_named_too(exported, stranger):
    data = _spam(exported)
    extra = [f"fan{n:02}" for n in range(MAX_PENDING_INVITATIONS - 3)]
    data["campaign"]["members"] += [{"user": name, "role": "spectator"} for name in extra]
    data["campaign"]["invitations"] = [
        {"invitee": name, "role": "player", "forces": [], "characters": []}
        for name in ("amy", "ben")
    ]
    spam = campaign_import(data=data, gm=stranger)
    assert spam.invitations.count() == MAX_PENDING_INVITATIONS
    said = campaign_import_summary(campaign=spam, data=data)
    assert said.endswith(
        f"Not invited, since at most {MAX_PENDING_INVITATIONS} invitations wait at once: amy "
        "and ben; invite them from the campaign's page once some have answered."
    )
