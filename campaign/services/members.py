"""Writes for a campaign's members: invitations sent, answered and withdrawn, joining by an
invitation's link (with a new account or one's own), roles set and members removed.

Each service validates its inputs first (a `ValidationError` naming the field) and runs in one
transaction.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import NON_FIELD_ERRORS, ObjectDoesNotExist, ValidationError
from django.db import IntegrityError, transaction

from campaign.models import (
    Campaign,
    Invitation,
    InvitationAnswer,
    Membership,
    StoryEntry,
    role_phrase,
)
from campaign.rules.values import MAX_PENDING_INVITATIONS
from campaign.selectors.access import invitation_holds, invitee_key, invitee_keys
from campaign.services._record import (
    campaign_full,
    locked,
    model_checked,
    require_manager,
    story_told,
)
from campaign.services.accounts import email_ask_unchecked, email_taken
from campaign.services.campaigns import role_refusal
from campaign.services.invitation_mail import invitation_mail_ask, mailed, over_the_day
from units.models import new_version
from units.words import and_words

Told = StoryEntry.Kind


def still_playing(campaign: Campaign, user: Any, *, leaving: bool = False) -> str:
    """Why ``user`` must stay one who plays, in a sentence ("" when they play no force), said
    to the GM ("alice plays Red Company: give it to another player on its page first.") or to
    the member ``leaving`` ("You play Red Company: the GM gives it to another player first.")."""
    played = campaign.forces.filter(owner=user).order_by("name")
    names = list(played.values_list("name", flat=True))
    if not names:
        return ""
    forces, one = and_words(names), len(names) == 1
    if leaving:
        return f"You play {forces}: the GM gives {'it' if one else 'them'} to another player first."
    them = "it to another player on its page" if one else "them to other players on their pages"
    return f"{user} plays {forces}: give {them} first."


@transaction.atomic
def membership_set(*, campaign: Campaign, user: Any, role: str, actor: Any = None) -> Membership:
    """Make the user a co-GM, player or spectator of the campaign (or change their role)."""
    require_manager(campaign, actor)
    campaign = locked(campaign)  # one count of its members at a time
    membership = Membership.objects.filter(campaign=campaign, user=user).first()
    if membership is None and (full := campaign_full(campaign, "member")):
        raise ValidationError(full)
    was = membership.role if membership else None
    membership = membership or Membership(campaign=campaign, user=user)
    membership.role = role
    model_checked(membership)
    membership.save()
    if was is None:
        story_told(campaign, Told.JOINED, f"{user} joined as {role_phrase(role)}.", actor)
    elif was != role:
        story_told(campaign, Told.PART, f"{user} became {role_phrase(role)}.", actor)
    return membership


INVITED = "If an account by that name exists, it has been invited."
"""The one answer to every invitation sent: the same whether or not the account exists, or is
in the campaign already, so the form tells no one which usernames there are."""


def _account(invitee: str) -> Any:
    users = get_user_model().objects
    if "@" in invitee and hasattr(get_user_model(), "email"):
        return users.filter(email__iexact=invitee).first()
    return users.filter(**{get_user_model().USERNAME_FIELD: invitee}).first()


@transaction.atomic
def invitation_send(
    *, campaign: Campaign, invitee: str, role: str, actor: Any = None, site: str = ""
) -> str:
    """Invite someone by username or e-mail address to join the campaign in ``role``.

    Nothing said differs between an account that exists and one that does not (the caller
    answers `INVITED` either way); an invitation to someone in the campaign already is dropped;
    a second invitation to the same name changes its role. An invitation to an e-mail address
    mails its link there, at ``site``, each time it is sent (`services.invitation_mail`); what
    is returned is why it was not mailed, in a sentence, or "".
    """
    require_manager(campaign, actor)
    key = invitee_key(invitee)
    errors: dict[str, str] = {}
    if not key or "\x00" in key or len(key) > Invitation._meta.get_field("invitee").max_length:
        errors["invitee"] = "give a username or an e-mail address (at most 254 characters)"
    if role not in Membership.Role.values:
        errors["role"] = role_refusal(role, Membership.Role)
    if errors:
        raise ValidationError(errors)
    Campaign.objects.select_for_update().filter(pk=campaign.pk).first()  # one count at a time
    asked_by = actor or campaign.gm
    user = _account(key)
    if user is not None and (
        user.pk == campaign.gm_id or campaign.memberships.filter(user=user).exists()
    ):
        # What a stranger's address would be told at the day's most: no account is betrayed.
        return over_the_day(asked_by) if mailed(key, site) else ""
    pending = campaign.invitations.filter(invitee=key).first()
    if pending is None and campaign.invitations.count() >= MAX_PENDING_INVITATIONS:
        raise ValidationError(
            {"invitee": f"{MAX_PENDING_INVITATIONS} invitations are waiting: withdraw some first"}
        )
    pending = pending or Invitation(campaign=campaign, invitee=key)
    pending.role = role
    pending.invited_by = actor
    pending.save()
    return invitation_mail_ask(pending, asked_by=asked_by, site=site)


class InvitationAnswered(ValidationError):
    """An invitation its invitee has answered already (a second click, a second tab): the
    answer, in a sentence, with the campaign and whether they are in it (`joined`)."""

    def __init__(self, answer: InvitationAnswer, joined: bool) -> None:
        name = answer.campaign.name
        if joined:
            said = f"You have already joined {name}."
        elif answer.accepted:
            said = f"You have already answered the invitation to {name}."
        else:
            said = f"You have already declined the invitation to {name}."
        super().__init__(said)
        self.campaign = answer.campaign
        self.joined = joined


def _invitation_of(user: Any, pk: int) -> Invitation:
    """The user's invitation ``pk``, locked. Answered already by this user: `InvitationAnswered`;
    anyone else's, or none: not found, whether it exists or not."""
    invitation = (
        Invitation.objects.select_for_update()
        .filter(pk=pk, invitee__in=invitee_keys(user))
        .select_related("campaign")
        .first()
    )
    if invitation is None:
        answer = (
            InvitationAnswer.objects.filter(invitation_pk=pk, user=user)
            .select_related("campaign")
            .first()
        )
        if answer is not None:
            joined = Membership.objects.filter(campaign=answer.campaign, user=user).exists()
            raise InvitationAnswered(answer, joined)
        raise ObjectDoesNotExist("no such invitation for you")
    return invitation


def _answered(invitation: Invitation, user: Any, *, accepted: bool) -> None:
    """The invitation is used up; its answer is kept (`InvitationAnswer`)."""
    InvitationAnswer.objects.create(
        invitation_pk=invitation.pk, campaign=invitation.campaign, user=user, accepted=accepted
    )
    invitation.delete()


@transaction.atomic
def invitation_accept(*, invitation_pk: int, user: Any) -> Membership:
    """The invitee joins the campaign in the role the GM chose; the invitation is used up.
    Joining as a player or co-GM, they take over what an import held for them (the
    invitation's forces the GM still holds, its characters nobody plays yet). Answered
    already: `InvitationAnswered`, changing nothing."""
    return _joined(_invitation_of(user, invitation_pk), user)


def _by_link(link_key: str) -> Invitation:
    """The invitation whose link carries ``link_key``, locked; used up, withdrawn or never
    made: not found."""
    invitation = (
        Invitation.objects.select_for_update()
        .filter(link_key=link_key)
        .select_related("campaign")
        .first()
    )
    if invitation is None:
        raise ObjectDoesNotExist("no such invitation")
    return invitation


@transaction.atomic
def invitation_join(*, link_key: str, user: Any) -> Membership:
    """Whoever opens an invitation's link joins by it, as the account they are logged in with
    (the GM sent the link to them), as `invitation_accept` joins its invitee. The campaign's GM
    or one of its members is refused, nothing changed: the link is someone else's to use, and
    what an import held for them is theirs."""
    invitation = _by_link(link_key)
    if refusal := join_refusal(invitation.campaign, user):
        raise ValidationError(refusal)
    return _joined(invitation, user)


def join_refusal(campaign: Campaign, user: Any) -> str:
    """Why ``user`` may not join ``campaign`` by an invitation's link, or "": they are its GM,
    or in it already (the link is someone else's to use)."""
    if user.pk == campaign.gm_id:
        return f"You are the GM of {campaign.name}: this link is for the one you invited."
    if Membership.objects.filter(campaign=campaign, user=user).exists():
        return f"You are in {campaign.name} already: this invitation is for someone else."
    return campaign_full(campaign, "member")


TAKEN = "Someone has this username already: choose another, or log in if it is yours."


@transaction.atomic
def account_join(
    *, link_key: str, username: str, password: str, email: str = "", site: str = ""
) -> tuple[Any, Membership]:
    """Someone with no account opens an invitation's link: an account is made with this
    username and password, and joins by the invitation, in one transaction. An e-mail address
    given is asked for (`accounts`): ``site``, the address the site was opened at, begins its
    confirmation link, mailed to it once the account is made; it is the account's once
    confirmed. A username or an e-mail address another account has (in any case), or a
    password the site's validators refuse: a `ValidationError` naming each field, nothing
    written."""
    if email.strip() and not site:
        raise ValueError("an e-mail address is asked for with its confirmation link")
    invitation = _by_link(link_key)
    model = get_user_model()
    name_field = model.USERNAME_FIELD
    user = model(**{name_field: username.strip(), "email": email.strip().lower()})
    errors: dict[str, list[str]] = {}
    if full := campaign_full(invitation.campaign, "member"):
        errors[NON_FIELD_ERRORS] = [full]  # said before an account is made for nothing
    try:
        user.full_clean(exclude=["password"])
    except ValidationError as error:
        errors.update(error.message_dict)
    if (
        user.get_username()
        and model.objects.filter(**{f"{name_field}__iexact": user.get_username()}).exists()
    ):
        errors[name_field] = [TAKEN]
    if user.email and email_taken(user.email, user):
        errors["email"] = ["An account has this e-mail address: log in with it to join."]
    try:
        validate_password(password, user)
    except ValidationError as error:
        errors["password"] = error.messages
    if errors:
        raise ValidationError(errors)
    user.set_password(password)
    address, user.email = user.email, ""  # the account's only once confirmed
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError:  # the same username, made at the same moment by another link
        raise ValidationError({name_field: [TAKEN]}) from None
    if address:
        email_ask_unchecked(user, address, site)
    return user, _joined(invitation, user)


def _joined(invitation: Invitation, user: Any) -> Membership:
    """The user joins by the invitation, which is used up."""
    campaign = invitation.campaign
    membership = Membership.objects.filter(campaign=campaign, user=user).first()
    joined = membership is None
    # Counted without locking the campaign: its invitation is locked already, and taking the
    # campaign after it could deadlock with `invitation_send`, which takes them the other way
    # round. No more than `MAX_PENDING_INVITATIONS` wait, so joins at one moment pass by few.
    if joined and (full := campaign_full(campaign, "member")):
        raise ValidationError(full)
    if joined:
        membership = Membership(campaign=campaign, user=user, role=invitation.role)
        model_checked(membership)
        membership.save()
    taken: list[str] = []
    if membership.role != Membership.Role.SPECTATOR:
        held, unplayed = invitation_holds(invitation)
        taken = list(held.order_by("name").values_list("name", flat=True))
        held.update(owner=user)
        unplayed.update(player=user, version=new_version())
    if joined:
        taking = f", taking {and_words(taken)}" if taken else ""
        text = f"{user} joined as {role_phrase(membership.role)}{taking}."
        story_told(campaign, Told.JOINED, text, user)
    _answered(invitation, user, accepted=True)
    return membership


@transaction.atomic
def invitation_decline(*, invitation_pk: int, user: Any) -> Campaign:
    """The invitee says no: the invitation is gone, and no membership was ever made. Answered
    already (accepted, say): `InvitationAnswered`, changing nothing."""
    invitation = _invitation_of(user, invitation_pk)
    _answered(invitation, user, accepted=False)
    return invitation.campaign


@transaction.atomic
def invitation_withdraw(*, campaign: Campaign, invitation_pk: int, actor: Any = None) -> str:
    """The GM takes back a pending invitation; returns the name it was sent to."""
    require_manager(campaign, actor)
    invitation = campaign.invitations.filter(pk=invitation_pk).first()
    if invitation is None:
        raise ObjectDoesNotExist("no such invitation in this campaign")
    invitation.delete()
    return invitation.invitee


@transaction.atomic
def membership_remove(*, campaign: Campaign, user: Any, actor: Any = None) -> list[str]:
    """Take the user out of the campaign: the GM or a co-GM removing a member, or a member
    leaving (``actor`` is ``user``). Refused while they play a force (it goes to another
    player first, on its page), and for the GM, whose campaign it is. The characters they
    played stay in the story as the GM's to play (NPCs): their names are returned."""
    leaving = actor is not None and actor.pk == user.pk
    if actor is not None and not leaving:
        require_manager(campaign, actor)
    if user.pk == campaign.gm_id:
        runs = f"You run {campaign}" if leaving else f"{user} runs {campaign}"
        raise ValidationError(
            {"user": f"{runs}: its GM hands it to another GM first, or deletes it."}
        )
    if playing := still_playing(campaign, user, leaving=leaving):
        raise ValidationError({"user": playing})
    membership = Membership.objects.filter(campaign=campaign, user=user).first()
    if membership is None:
        raise ValidationError({"user": f"{user} is not a member of {campaign}"})
    played = campaign.characters.filter(player=user)
    names = list(played.order_by("name").values_list("name", flat=True))
    played.update(player=None, version=new_version())
    membership.delete()
    text = f"{user} left the campaign" if leaving else f"{user} was removed from the campaign"
    if names:
        text += f"; {and_words(names)} became {'an NPC' if len(names) == 1 else 'NPCs'}"
    story_told(campaign, Told.LEFT, text + ".", actor)
    return names
