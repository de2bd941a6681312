"""Writes for the campaign's people and rosters: campaigns, members, forces, units, leaders.

Each service validates its inputs first (a `ValidationError` naming the field), runs in one
transaction, and records every change to a unit as a history entry.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import (
    NON_FIELD_ERRORS,
    ObjectDoesNotExist,
    PermissionDenied,
    ValidationError,
)
from django.db import IntegrityError, transaction

from campaign.models import (
    CAMPAIGN_SETTINGS,
    Campaign,
    Character,
    Force,
    HistoryEntry,
    Invitation,
    InvitationAnswer,
    Leader,
    Membership,
    StoryEntry,
    TableRoll,
    Unit,
    role_phrase,
)
from campaign.pages import still_in_battle
from campaign.rules.bridge import LEADER_DEATH_MORALE_HITS, leader_died_text
from campaign.rules.characters import can_train, feats_from
from campaign.rules.experience import (
    TrainingError,
    experience_refused,
    training_apply,
    with_quality,
)
from campaign.rules.history import number_text, plural, possessive
from campaign.rules.orders import clock_text
from campaign.rules.recovery import (
    medical_window_closes,
    state_problems,
    window_after_correction,
    zone_problem,
)
from campaign.rules.state import (
    LEADER_DEATH_HIT_POINTS,
    UNIT_FIELDS,
    CampaignUnitState,
    LeaderState,
    Status,
)
from campaign.rules.values import (
    MAX_PENDING_INVITATIONS,
    MAX_UNITS_PER_FORCE,
    leader_value,
    parse_field,
)
from campaign.selectors import (
    GM,
    campaign_now,
    campaign_role,
    campaigns_for_user,
    command_refused,
    engaged_units,
    force_can_edit,
    forces_the_gm_plays,
    invitation_holds,
    invitee_key,
    invitee_keys,
    leader_most_hit_points,
)
from campaign.services._record import (
    campaign_full,
    campaign_made,
    campaign_save_once,
    locked,
    name_taken,
    require_manager,
    story_told,
    text_given,
    unit_change,
    units_stored,
)
from campaign.services.accounts import email_ask_unchecked, email_taken
from campaign.services.characters import HIT_POINTS_MAX
from campaign.services.notices import notices_after_commit
from units.bucs import Equipment, Quality, Specialty, validate_specialties
from units.models import UnitType, new_version
from units.words import and_words, given, or_words, quoted, value_shown

Kind = HistoryEntry.Kind
Told = StoryEntry.Kind
SETTINGS = ("name", *CAMPAIGN_SETTINGS)


def _full_clean(instance: Any, **kwargs: Any) -> None:
    try:
        instance.full_clean(**kwargs)
    except ValidationError as error:
        raise ValidationError(error.message_dict) from None


@transaction.atomic
def campaign_create(
    *, name: str, gm: Any, ruleset: str, request_key: uuid.UUID | None = None, **settings: Any
) -> Campaign:
    """A new campaign, on day 1, with its GM and bridge settings. A repeated request with the
    same ``request_key`` (the form's) is the campaign the first one made."""
    if existing := campaign_made(request_key, gm):
        return existing
    unknown = set(settings) - set(SETTINGS)
    if unknown:
        raise ValidationError({field: "not a campaign setting" for field in sorted(unknown)})
    campaign = Campaign(name=name, gm=gm, ruleset=ruleset, request_key=request_key, **settings)
    _full_clean(campaign, exclude=["request_key"])  # its clash is the same request's
    _name_free(campaign, gm)
    return campaign_save_once(campaign)


def _name_free(campaign: Campaign, gm: Any) -> None:
    """Refuse a name another campaign on the GM's "My campaigns" has: the list would show two
    alike, told apart by their day alone (an import adds the day it was imported instead,
    `transfer.import_name`)."""
    others = campaigns_for_user(user=gm).exclude(pk=campaign.pk)
    if campaign.request_key is not None:
        others = others.exclude(request_key=campaign.request_key)  # the same request, resent
    if others.filter(name=campaign.name).exists():
        raise ValidationError(
            {"name": name_taken("Your campaigns", "one", campaign.name, has="have")}
        )


SETTING_WORDS = {
    ("apply_mode", Campaign.ApplyMode.AUTO): "A battle's outcome reaches the rosters at once.",
    ("apply_mode", Campaign.ApplyMode.REVIEW): (
        "The GM reviews each battle's outcome before it reaches the rosters."
    ),
    ("other_forces_visible", Campaign.Visibility.FULL): (
        "Players see the other players' forces in full."
    ),
    ("other_forces_visible", Campaign.Visibility.SUMMARY): (
        "Players see the other players' forces by name and unit count only."
    ),
    ("fog_of_war", True): "Fog of war is on: players read a battle as their side saw it.",
    ("fog_of_war", False): "Fog of war is off: players read each battle whole.",
}
"""The settings that change what the players see or wait for, as the campaign's story tells
them changed (the quick resolve's starting rounds are the GM's own tool, and not told)."""


@transaction.atomic
def campaign_update(*, campaign: Campaign, actor: Any = None, **settings: Any) -> Campaign:
    """Change the campaign's name or bridge settings (its ruleset and calendar have services)."""
    require_manager(campaign, actor)
    unknown = set(settings) - set(SETTINGS)
    if unknown:
        raise ValidationError({field: "not a campaign setting" for field in sorted(unknown)})
    stored = Campaign.objects.select_for_update().get(pk=campaign.pk)
    for field, value in settings.items():
        setattr(campaign, field, value)
    _full_clean(campaign)
    if campaign.name != stored.name:
        _name_free(campaign, campaign.gm)
    # Only what was changed is written: the rest (its calendar, above all) stays as stored,
    # whatever the caller's copy, read before an Advance, may say.
    campaign.save(update_fields=list(settings))
    if campaign.name != stored.name:
        story_told(campaign, Told.RENAMED, f"{stored.name} was renamed {campaign.name}.", actor)
    for (field, value), words in SETTING_WORDS.items():
        if getattr(campaign, field) == value != getattr(stored, field):
            story_told(campaign, Told.SETTINGS, words, actor)
    return campaign


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
    _full_clean(membership)
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
def invitation_send(*, campaign: Campaign, invitee: str, role: str, actor: Any = None) -> None:
    """Invite someone by username or e-mail address to join the campaign in ``role``.

    Nothing is returned and nothing said differs between an account that exists and one that
    does not (the caller answers `INVITED` either way); an invitation to someone in the
    campaign already is dropped; a second invitation to the same name changes its role.
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
    user = _account(key)
    if user is not None and (
        user.pk == campaign.gm_id or campaign.memberships.filter(user=user).exists()
    ):
        return
    pending = campaign.invitations.filter(invitee=key).first()
    if pending is None and campaign.invitations.count() >= MAX_PENDING_INVITATIONS:
        raise ValidationError(
            {"invitee": f"{MAX_PENDING_INVITATIONS} invitations are waiting: withdraw some first"}
        )
    pending = pending or Invitation(campaign=campaign, invitee=key)
    pending.role = role
    pending.invited_by = actor
    pending.save()


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
        _full_clean(membership)
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


HAND_OVER_STAYS = (Membership.Role.CO_GM, Membership.Role.PLAYER, Membership.Role.SPECTATOR)
"""What a GM who hands the campaign on may stay in it as (leaving is a step of its own)."""


def role_refusal(role: Any, roles: Iterable[Membership.Role]) -> str:
    """Why ``role`` is no role here, with the roles that are, by their names on the pages:
    "not a role: “boss”; one of Co-GM, Player or Spectator"."""
    return f"not a role: {given(role)}; one of {or_words([r.label for r in roles])}"


@transaction.atomic
def campaign_hand_over(
    *, campaign: Campaign, to: Any, stay_as: str, with_forces: bool, actor: Any = None
) -> list[str]:
    """The GM hands the campaign to ``to``, one of its members, and stays in it as ``stay_as``
    (`HAND_OVER_STAYS`): over many evenings the one who runs it may change. The new GM takes
    the forces held for people invited and not yet joined (the GM holds them), and the NPCs
    (characters nobody plays), which are the GM's; ``with_forces``, also the forces and
    characters the old GM plays themselves (an opposing force the GM ran), else those stay
    theirs. The new GM's own forces and characters stay theirs. Only the GM hands it on (not
    a co-GM: it is not theirs to give). The names of the forces that changed hands, for the
    page that says so."""
    campaign = (
        Campaign.objects.select_for_update(of=("self",)).select_related("gm").get(pk=campaign.pk)
    )
    if actor is not None and campaign_role(campaign=campaign, user=actor) != GM:
        raise PermissionDenied(f"only the GM of {campaign} may hand it on")
    old = campaign.gm
    errors: dict[str, list[str]] = {}
    taking = Membership.objects.filter(campaign=campaign, user=to).first() if to else None
    if to is None or to.pk == old.pk:
        errors["to"] = ["Choose another member of the campaign to run it."]
    elif taking is None:
        errors["to"] = [f"{to} is not a member of {campaign}: invite them first."]
    if stay_as not in HAND_OVER_STAYS:
        errors["stay_as"] = [role_refusal(stay_as, HAND_OVER_STAYS)]
    played = forces_the_gm_plays(campaign)
    if stay_as == Membership.Role.SPECTATOR and not with_forces and played.exists():
        names = and_words(list(played.order_by("name").values_list("name", flat=True)))
        errors["stay_as"] = [
            f"You play {names}: a spectator plays no force. Stay as a player or co-GM, or "
            "hand your forces on too."
        ]
    if errors:
        raise ValidationError(errors)
    moving = campaign.forces.filter(owner=old)
    if with_forces:
        campaign.characters.filter(player=old).update(player=to, version=new_version())
    else:  # only the forces held for people invited
        moving = moving.exclude(pk__in=played.values("pk"))
    names = list(moving.order_by("name").values_list("name", flat=True))
    moving.update(owner=to)
    # The visits each counted from go with them: "since your last visit" stays true for both.
    came_last, campaign.gm_last_visit_at = campaign.gm_last_visit_at, taking.last_visit_at
    taking.delete()
    campaign.gm = to
    campaign.save(update_fields=["gm", "gm_last_visit_at"])
    Membership.objects.create(campaign=campaign, user=old, role=stay_as, last_visit_at=came_last)
    went = f" {and_words(names)} went with it." if names else ""
    text = f"{old} handed the campaign to {to}, staying in it as {role_phrase(stay_as)}."
    story_told(campaign, Told.NEW_GM, text + went, actor)
    return names


@transaction.atomic
def force_create(*, campaign: Campaign, owner: Any, name: str, actor: Any = None) -> Force:
    """A force for a player (or the GM, or a co-GM) of the campaign."""
    require_manager(campaign, actor)
    campaign = locked(campaign)  # one count of its forces at a time
    if full := campaign_full(campaign, "force"):
        raise ValidationError(full)
    force = Force(campaign=campaign, owner=owner, name=name)
    _force_check(force)
    force.save()
    story_told(campaign, Told.FORCE, f"{force} was raised for {owner}.", actor)
    return force


@transaction.atomic
def force_edit(*, force: Force, name: str, owner: Any, actor: Any = None) -> Force:
    """Rename the force, or give it to another player (or the GM, or a co-GM): a player who
    leaves the group hands their force on. Its units, their history and Orders stay as they
    are; from now on its new player directs its medics and reads it as theirs."""
    force = locked(force, "campaign", "owner")
    require_manager(force.campaign, actor)
    was, had = force.name, force.owner
    force.name, force.owner = name, owner
    _force_check(force)
    force.save()
    given, renamed = force.owner_id != had.pk, force.name != was
    went = f"{was} went from {had} to {force.owner}"
    if given and renamed:
        story_told(force.campaign, Told.FORCE, f"{went}, renamed {force.name}.", actor)
    elif given:
        story_told(force.campaign, Told.FORCE, f"{went}.", actor)
    elif renamed:
        story_told(force.campaign, Told.FORCE, f"{was} was renamed {force.name}.", actor)
    return force


def _force_check(force: Force) -> None:
    """A force as it is about to be saved: its name free in the campaign (said in the
    campaign's words; the database still refuses a second force of the same name should two be
    saved at once), its player one who plays, every field as the model wants it."""
    errors: dict[str, list[str]] = {}
    others = force.campaign.forces.exclude(pk=force.pk)
    if force.name and others.filter(name=force.name).exists():
        errors["name"] = [name_taken(str(force.campaign), "a force", force.name)]
    try:
        force.full_clean(validate_constraints=False)
    except ValidationError as error:
        errors = {**error.message_dict, **errors}
    if errors:
        raise ValidationError(errors)


STRUCK_OFF_KINDS = (HistoryEntry.Kind.CREATED, HistoryEntry.Kind.GM_EDIT)
"""A unit whose history holds nothing but these was raised and, at most, corrected: it has
done nothing in the story, and may be struck off the roster as raised by mistake."""


def unit_remove_refusal(unit: Unit) -> str:
    """Why the unit stays on the books, in a sentence ("" when it may be struck off): one that
    has done anything in the story (fought, been in a battle, an engagement or a check, been
    healed, trained, led or given an Order) stays, and is marked destroyed instead."""
    campaign = unit.force.campaign
    # A unit won by a Requisition check is that check's result, and the record names it.
    won = campaign.table_rolls.filter(kind=TableRoll.Kind.REQUISITION, result__unit=unit.pk)
    # Asked one at a time: most units have fought, and the first question settles it.
    if (
        unit.history.exclude(kind__in=STRUCK_OFF_KINDS).exists()
        or unit.orders.exists()
        or won.exists()
        or unit.pk in engaged_units(campaign=campaign)
    ):
        return (
            f"{unit.name} has a part in the story already: it stays on the books (a correction "
            "can mark it destroyed)."
        )
    return ""


@transaction.atomic
def unit_remove(*, unit: Unit, actor: Any = None) -> str:
    """Strike off the roster a unit raised by mistake (a wrong card, a name typed twice), with
    its history of being raised: only while it has done nothing in the story
    (`unit_remove_refusal`). Its name, for the page that says so."""
    unit = locked(unit, "force__campaign")
    require_manager(unit.force.campaign, actor)
    if refusal := unit_remove_refusal(unit):
        raise ValidationError(refusal)
    unit.delete()
    return unit.name


def _unit_type_errors(campaign: Campaign, unit_type: UnitType) -> list[str]:
    if unit_type.kind != UnitType.Kind.UNIT:
        return [f"{unit_type} is a {unit_type.get_kind_display().lower()} card, not a unit"]
    if unit_type.ruleset != campaign.ruleset:
        return [
            f"{unit_type} is a {unit_type.get_ruleset_display()} card; this campaign plays "
            f"{campaign.get_ruleset_display()}"
        ]
    return []


def unit_create_check(
    *,
    force: Force,
    unit_type: UnitType,
    name: str,
    quality: Quality | int | str = Quality.AVERAGE,
    equipment: Equipment | str = Equipment.ADEQUATE,
    specialties: Iterable[Specialty | str] = (),
    leader: LeaderState | Mapping[str, Any] | None = None,
) -> CampaignUnitState:
    """The new unit's state, or a `ValidationError` naming every bad field."""
    errors: dict[str, list[str]] = {}
    values: dict[str, Any] = {}
    for field, value in (
        ("name", name),
        ("quality", quality),
        ("equipment", equipment),
        ("specialties", specialties),
    ):
        try:
            values[field] = parse_field(field, value)
        except ValueError as error:
            errors[field] = [str(error)]
    if force.units.count() >= MAX_UNITS_PER_FORCE:
        errors["__all__"] = [
            f"{force} already holds {MAX_UNITS_PER_FORCE} units, the most a force may hold"
        ]
    if unit_type_errors := _unit_type_errors(force.campaign, unit_type):
        errors["unit_type"] = unit_type_errors
    if "name" in values and force.units.filter(name=values["name"]).exists():
        errors["name"] = [name_taken(str(force), "a unit", values["name"])]
    if "quality" in values and "specialties" in values:
        problems = validate_specialties(
            values["quality"], values["specialties"], values.get("name", "")
        )
        if problems:
            errors["specialties"] = problems
    try:
        values["leader"] = None if leader is None else leader_value(leader)
    except ValueError as error:
        errors["leader"] = [str(error)]
    if errors:
        raise ValidationError(errors)
    return CampaignUnitState(**values)


@transaction.atomic
def unit_create(
    *,
    force: Force,
    unit_type: UnitType,
    name: str,
    quality: Quality | int | str = Quality.AVERAGE,
    equipment: Equipment | str = Equipment.ADEQUATE,
    specialties: Iterable[Specialty | str] = (),
    leader: LeaderState | Mapping[str, Any] | None = None,
    actor: Any = None,
    reason: str = "",
    details: Mapping[str, Any] | None = None,
) -> Unit:
    """Raise a unit in a force from a library card, with its first history entry.

    ``details`` says how it was raised (a Requisition check and its roll); without them the
    entry records that the GM raised it by fiat. The force is read as stored, and locked (one
    unit raised at a time in it); its entry is dated by the campaign's day as stored, never by
    the caller's copy, which may be from before the calendar moved.
    """
    force = locked(force, "campaign")
    if actor is not None and not force_can_edit(force=force, user=actor):
        raise PermissionDenied(f"only {force.owner} or the GM may raise units in {force}")
    state = unit_create_check(
        force=force,
        unit_type=unit_type,
        name=name,
        quality=quality,
        equipment=equipment,
        specialties=specialties,
        leader=leader,
    )
    unit = Unit.objects.create(force=force, unit_type=unit_type, name=state.name)
    labels = ", ".join(s.label for s in state.specialties) or "no specialties"
    leading = "" if state.leader is None else f", led by {state.leader.name}"
    summary = f"{state.equipment.label} equipment, {labels}{leading}"
    why = reason or f"raised in {force} as {state.quality.label} {unit_type}"
    unit_change(
        unit=unit,
        state=state,
        kind=Kind.CREATED,
        why=why,
        day=force.campaign.day,
        details=dict(details) if details is not None else {"raised_by": "gm_fiat"},
        actor=actor,
        snapshot=True,
        text=f"{why} ({summary})",
    )
    return unit


MAX_RAISED_AT_ONCE = 20
"""Units one form may raise at once, each named with its number."""


@transaction.atomic
def units_raise(
    *,
    force: Force,
    unit_type: UnitType,
    name: str,
    count: int = 1,
    quality: Quality | int | str = Quality.AVERAGE,
    equipment: Equipment | str = Equipment.ADEQUATE,
    specialties: Iterable[Specialty | str] = (),
    actor: Any = None,
) -> list[Unit]:
    """Raise ``count`` units alike from one card (`unit_create` for each): one is called
    ``name``; several are numbered after it, "Rifles 1", "Rifles 2"... All or none: a refusal
    of any is said of the name field or its own, and nothing is written."""
    if (
        isinstance(count, bool)
        or not isinstance(count, int)
        or not 1 <= count <= MAX_RAISED_AT_ONCE
    ):
        raise ValidationError(
            {
                "count": [
                    f"1 to {MAX_RAISED_AT_ONCE} units are raised at once, not {value_shown(count)}."
                ]
            }
        )
    names = [name] if count == 1 else [f"{str(name).strip()} {i}" for i in range(1, count + 1)]
    return [
        unit_create(
            force=force,
            unit_type=unit_type,
            name=each,
            quality=quality,
            equipment=equipment,
            specialties=list(specialties),
            actor=actor,
        )
        for each in names
    ]


EDITABLE = UNIT_FIELDS


def unit_edit_check(*, unit: Unit, changes: Mapping[str, Any], reason: str) -> CampaignUnitState:
    """The unit's state after a GM correction, or a `ValidationError` naming every bad field.

    Specialties are checked against the quality's limit when they change; a unit keeps the
    specialties it holds when its quality falls, and may give some up, but gains no new one
    beyond the limit (`validate_specialties`). Casualty hits raised with no medical window
    open get the medics' 24 hours from now (`recovery.window_after_correction`), unless the
    correction sets the window itself. Hits beyond what the quality carries are refused; hits
    that take a ready unit below Raw retreat it, unless the correction sets its status.
    """
    errors: dict[str, list[str]] = {}
    text_given(errors, "reason", reason, needed="a GM correction needs its reason")
    if not isinstance(changes, Mapping):
        errors["changes"] = ["must map each field to correct to its new value"]
        changes = {}
    values: dict[str, Any] = {}
    if LEADER_HIT_POINTS in changes:
        try:
            values["leader"] = _leader_corrected(unit, changes[LEADER_HIT_POINTS])
        except ValueError as error:
            errors[LEADER_HIT_POINTS] = [str(error)]
        changes = {k: v for k, v in changes.items() if k != LEADER_HIT_POINTS}
    for field, value in changes.items():
        if field not in EDITABLE:
            errors[field] = ["not a field a GM edit may change (leaders have their own services)"]
            continue
        try:
            values[field] = parse_field(field, value)
        except ValueError as error:
            errors[field] = [str(error)]
    if "name" in values and unit.force.units.exclude(pk=unit.pk).filter(name=values["name"]):
        errors["name"] = [name_taken(str(unit.force), "a unit", values["name"])]
    state = unit.state
    if "specialties" in values and "quality" not in errors:
        quality = values.get("quality", state.quality)
        name = values.get("name", unit.name)
        problems = validate_specialties(
            quality, values["specialties"], name, held=state.specialties
        )
        if problems:
            errors["specialties"] = problems
    if "quality" in values and "experience" not in values and "quality" not in errors:
        # Progress is kept when quality changes, capped below the new quality's next step, as
        # when a battle costs it quality (`with_quality`).
        capped = with_quality(state, values["quality"]).experience
        if capped != state.experience:
            values["experience"] = capped
    # Each check below waits only on the fields it reads: a GM who gave too many points and
    # too many hits learns of both at once, not of the second after mending the first.
    elif (
        "experience" in values
        and not errors.keys() & {"quality", "experience"}
        and (refused := experience_refused(state.but(**values)))
    ):
        errors["experience"] = [refused]
    if not errors.keys() & set(HIT_FIELDS) and (
        problem := _hits_problem(state, state.but(**values), changes)
    ):
        errors.update(problem)
    if (leader := values.get("leader")) is not None and not leader.alive:
        # The leader's death costs the unit its Morale hits at once, as in a fight
        # (`bridge.damage_apply`), on top of the Morale hits the correction sets.
        values["morale_hits"] = (
            values.get("morale_hits", state.morale_hits) + LEADER_DEATH_MORALE_HITS
        )
        too_many = _hits_problem(state, state.but(**values), {"morale_hits": None})
        if not errors and too_many:
            errors[LEADER_HIT_POINTS] = [
                f"{possessive(leader.name)} death would cost {unit.name} "
                f"{plural(LEADER_DEATH_MORALE_HITS, 'Morale hit')} at once: "
                + too_many["morale_hits"][0]
            ]
    if errors:
        raise ValidationError(errors)
    now = campaign_now(unit.force.campaign)
    if "status" not in values and _breaks(state, state.but(**values)):
        # Hits that take a ready unit below Raw break it, as at the bridge (`damage_apply`):
        # it retreats in poor order, and the medics' 24 hours decide its fate. A GM who holds
        # it ready all the same says so by its status.
        values["status"] = Status.RETREATED
    if values.get("status", Status.READY) != Status.READY and "in_combat_zone" not in values:
        # A unit marked retreated or destroyed has left the combat zone, as one broken in a
        # fight does (`bridge.damage_apply`).
        values["in_combat_zone"] = False
    corrected = window_after_correction(state, state.but(**values), now).but(**values)
    # A correction may set any field, but not leave the unit where the rules never could: an
    # export of the campaign must import again (`transfer.check_unit` asks the same).
    if problems := state_problems(corrected, now):
        raise ValidationError({field: [problem] for field, problem in problems.items()})
    return corrected


LEADER_HIT_POINTS = "leader_hit_points"
"""The change that sets the hit points of the unit's living leader in a correction."""


def _leader_corrected(unit: Unit, hit_points: Any) -> LeaderState:
    """The unit's living leader at ``hit_points``: a whole number, never above the most it may
    have (its character's full hit points); at the d20 death threshold or below, dead."""
    leader = getattr(unit, "leader", None)
    if leader is None or not leader.alive:
        raise ValueError(f"{unit.name} has no living leader whose hit points could be set")
    if isinstance(hit_points, bool) or not isinstance(hit_points, int):
        raise ValueError(
            f"A leader's hit points are a whole number, not {value_shown(hit_points)}."
        )
    most = leader_most_hit_points(leader)
    if hit_points > (HIT_POINTS_MAX if most is None else most):
        full = "" if most is None else f", {possessive(leader.name)} full hit points"
        raise ValueError(f"At most {HIT_POINTS_MAX if most is None else most}{full}.")
    if hit_points < -HIT_POINTS_MAX:
        raise ValueError(f"At least {number_text(-HIT_POINTS_MAX)}.")
    return LeaderState(leader.name, hit_points, alive=hit_points > LEADER_DEATH_HIT_POINTS)


HIT_FIELDS = ("casualty_hits", "morale_hits", "quality")
"""What a correction changes that moves the hits a unit can carry against those it carries."""


def _hits_problem(
    state: CampaignUnitState, corrected: CampaignUnitState, changes: Mapping[str, Any]
) -> dict[str, list[str]]:
    """Hits a correction gives the unit beyond what its quality can carry (BUCS: each hit
    takes a step, and the one that takes it below Raw breaks it: `Quality.hits_survived`),
    under the first of its changed fields that moves them. A correction that takes hits off is
    never refused: a battle's blows may have left more than a correction may enter."""
    limit = corrected.quality.hits_survived
    field = next((name for name in HIT_FIELDS if name in changes), None)
    if field is None or corrected.hits <= limit or not _more_to_carry(state, corrected):
        return {}
    return {
        field: [
            f"{corrected.name} is {corrected.quality.label}: it can carry at most "
            f"{plural(limit, 'hit')}, Morale and Casualty together (the last breaks it), and "
            f"was given {corrected.hits}."
        ]
    }


def _more_to_carry(before: CampaignUnitState, after: CampaignUnitState) -> bool:
    """Whether a correction weighs on the unit: more hits, or less quality to carry them."""
    return after.hits > before.hits or after.quality < before.quality


def _breaks(before: CampaignUnitState, after: CampaignUnitState) -> bool:
    """Whether a correction takes a ready unit below Raw."""
    return before.status == Status.READY and after.below_raw and _more_to_carry(before, after)


AWAIT_UNTIL = "; its Casualty hits await the medics until "
"""What a correction that adds Casualty hits says after its reason, before the hour."""


@transaction.atomic
def unit_edit(
    *, unit: Unit, changes: Mapping[str, Any], reason: str, actor: Any = None
) -> HistoryEntry | None:
    """A GM's correction of any recorded field, with the reason, as a history entry (which
    says until when the medics may save any Casualty hits it adds)."""
    unit = Unit.objects.select_for_update(of=("self",)).get(pk=unit.pk)
    campaign = unit.force.campaign
    require_manager(campaign, actor)
    before = unit.state
    state = unit_edit_check(unit=unit, changes=changes, reason=reason)
    why = f"GM correction: {reason.strip()}"
    closes = medical_window_closes(state)
    if state.casualty_hits > before.casualty_hits and closes is not None:
        why += f"{AWAIT_UNTIL}{clock_text(closes)}"
    details: dict[str, Any] = {}
    if state.leader != before.leader and state.leader is not None:
        if not state.leader.alive:
            why += f"; {leader_died_text(state.leader.name)}"
        elif (most := leader_most_hit_points(unit.leader)) is not None:
            details["leader_most_hit_points"] = most  # for the history's words: "9 of 18"
    notices_after_commit(campaign)
    return unit_change(
        unit=unit,
        state=state,
        kind=Kind.GM_EDIT,
        why=why,
        day=campaign.day,
        details=details,
        actor=actor,
    )


@transaction.atomic
def unit_move(*, unit: Unit, force: Force, reason: str, actor: Any = None) -> HistoryEntry | None:
    """Move the unit to another force of the campaign (a squad detached to another company, a
    unit handed to another player), with the GM's reason in its history. It keeps its state,
    its leader and its Orders; from then on it is on the other force's roster, its medics'
    work and its player's. Refused while it is in a battle not yet applied (the outcome is
    the force's it fought for), and for a destroyed unit, which stays with the force it fell
    in."""
    unit = locked(unit, "force__campaign")
    campaign = unit.force.campaign
    require_manager(campaign, actor)
    errors: dict[str, list[str]] = {}
    reason = text_given(errors, "reason", reason, needed="a move needs its reason")
    if problems := unit_move_problems(unit, force):
        errors["force"] = problems
    if errors:
        raise ValidationError(errors)
    was = unit.force
    unit.force = force
    notices_after_commit(campaign)
    moved = f"Moved from {was.name} to {force.name} (GM: {reason})"
    return unit_change(
        unit=unit,
        state=unit.state,
        kind=Kind.GM_EDIT,
        why=moved,
        text=moved,  # its state is as it was: the move is the whole sentence
        day=campaign.day,
        # The forces it left and joined, so its Undo moves it back (`HistoryEntry.moved`).
        details={"moved": {"from": was.pk, "to": force.pk}},
        actor=actor,
        always=True,
    )


def unit_move_problems(unit: Unit, force: Force) -> list[str]:
    """Why ``unit`` cannot be moved to ``force``, in sentences (none when it can): a force of
    its own campaign other than its own, with no unit of its name; never a destroyed unit,
    which stays with the force it fell in, nor one in a battle not applied yet, whose outcome
    is the force's it fought for. A move and its Undo ask the same."""
    campaign = unit.force.campaign
    problems = []
    if force.campaign_id != campaign.pk:
        problems.append(f"{force} is not a force of {campaign}")
    elif force.pk == unit.force_id:
        problems.append(f"{unit.name} is in {force} already")
    elif force.units.filter(name=unit.name).exists():
        problems.append(
            f"{force} already has a unit called {quoted(unit.name)}: rename one of them first"
        )
    if unit.state.destroyed:
        problems.append(f"{unit.name} was destroyed: it stays with the force it fell in")
    elif battle := engaged_units(campaign=campaign).get(unit.pk):
        problems.append(still_in_battle(unit, battle))
    return problems


@transaction.atomic
def leader_attach(
    *,
    unit: Unit,
    name: str = "",
    hit_points: int | None = None,
    character: Character | None = None,
    reason: str = "",
    actor: Any = None,
) -> Leader:
    """Put a d20 character at the head of a unit (in place of a dead one, if any).

    With ``character`` the campaign's own character joins the unit: its name and hit points
    are the leader's, and its wounds in the unit's fights are its own. A dead leader it
    replaces stays dead, with the hit points it died with: the entry keeps who led the unit and
    fell (and names the character, so a revert puts the dead back at its head). A character
    who survived the destruction of the unit it led is free to lead another: it leaves the
    destroyed unit first (`_survivor_leaves`).
    """
    unit = Unit.objects.select_for_update(of=("self",)).get(pk=unit.pk)
    require_manager(unit.force.campaign, actor)
    state = unit.state
    if state.destroyed:
        raise ValidationError({"leader": f"{unit} is destroyed: there is no one left to lead"})
    if state.leader is not None and state.leader.alive:
        raise ValidationError({"leader": f"{unit} is led by {state.leader.name} already"})
    ruins: Unit | None = None  # the destroyed unit the character survived, if any
    if character is not None:
        character = locked(character)
        if character.campaign_id != unit.force.campaign_id:
            raise ValidationError({"character": f"{character} is not of {unit.force.campaign}"})
        if not character.alive:
            raise ValidationError({"character": f"{character} is dead"})
        held = Leader.objects.filter(character=character).values_list("unit_id", flat=True)
        ruins = next(iter(units_stored(held, lock=True).values()), None)
        if ruins is not None and not ruins.state.destroyed:
            # Named, with the way out: the GM may not know which unit, nor where to free them.
            raise ValidationError(
                {
                    "character": f"{character} leads {ruins.name} ({ruins.force.name}) already: "
                    "a character leads one unit at a time; detach them on "
                    f"{possessive(ruins.name)} "
                    "page first"
                }
            )
        name, hit_points = character.name, character.hit_points
    else:
        name = (name or "").strip()
        if problem := _leader_name_taken(unit, name):
            raise ValidationError({"leader": problem})
    if hit_points is None:
        raise ValidationError({"hit_points": "a leader needs hit points"})
    try:
        leader = leader_value({"name": name, "hit_points": hit_points, "alive": True})
    except ValueError as error:
        raise ValidationError({"leader": str(error)}) from None
    if leader.hit_points < 1:
        raise ValidationError({"hit_points": "a leader takes command on their feet: 1 or more"})
    if ruins is not None:
        _survivor_leaves(ruins, character, unit, actor)
    details: dict[str, Any] = {}
    if character is not None:
        # for the history's words: "takes command (14 of 14 hit points)"
        details = {"character": character.pk, "leader_most_hit_points": character.max_hit_points}
    fallen = getattr(unit, "leader", None)
    if fallen is not None and fallen.character_id is not None:
        details["replaced"] = fallen.character_id
    unit_change(
        unit=unit,
        state=state.but(leader=leader),
        kind=Kind.LEADER,
        why=reason or f"{leader.name} takes command",
        day=unit.force.campaign.day,
        details=details,
        actor=actor,
        # The new leader is a person of its own: the row lets go of the dead character before
        # it takes the new leader's state, which would otherwise be carried onto the dead.
        character=None if character is None else character.pk,
    )
    return unit.leader


def _leader_name_taken(unit: Unit, name: str) -> str | None:
    """Why a leader named with ``unit`` may not take ``name``, if it may not: one of the
    campaign's characters has it (that character joins the unit as itself, so one person never
    stands twice on the Characters page, nor leads two units), or a leader named with another
    unit has it."""
    campaign = unit.force.campaign
    if campaign.characters.filter(name=name).exists():
        return (
            f"{campaign} has a character called {quoted(name)} already: to put them at the head of "
            f"{unit}, have them join it on the Characters page"
        )
    other = (
        Leader.objects.filter(unit__force__campaign=campaign, character=None, name=name)
        .exclude(unit=unit)
        .select_related("unit")
        .first()
    )
    if other is not None:
        return (
            f"{quoted(name)} is the name of {possessive(str(other.unit))} leader already: "
            "give this leader another"
        )
    return None


def _survivor_leaves(ruins: Unit, character: Character, to_lead: Unit, actor: Any) -> None:
    """A character who survived the destruction of ``ruins`` (locked) leaves it to lead
    ``to_lead``, as `leader_detach` would take it away: the destroyed unit's history keeps who
    led it, and names the character, so a revert of its leaving puts it back at the head only
    once it leads no other unit (`outcomes._relink_problem`)."""
    unit_change(
        unit=ruins,
        state=ruins.state.but(leader=None),
        kind=Kind.LEADER,
        why=f"{character.name} survived its destruction and leaves it to lead {to_lead}",
        day=to_lead.force.campaign.day,
        details={"character": character.pk},
        actor=actor,
    )


@transaction.atomic
def leader_detach(*, unit: Unit, reason: str = "", actor: Any = None) -> HistoryEntry:
    unit = Unit.objects.select_for_update(of=("self",)).get(pk=unit.pk)
    require_manager(unit.force.campaign, actor)
    state = unit.state
    if state.leader is None:
        raise ValidationError({"leader": f"{unit} has no leader"})
    character = unit.leader.character_id
    entry = unit_change(
        unit=unit,
        state=state.but(leader=None),
        kind=Kind.LEADER,
        why=reason or f"{state.leader.name} leaves the unit",
        day=unit.force.campaign.day,
        # Which character led it, so a revert puts the same one back at its head.
        details={} if character is None else {"character": character},
        actor=actor,
    )
    assert entry is not None
    notices_after_commit(unit.force.campaign)
    return entry


def unit_zone_refusal(unit: Unit, in_combat_zone: bool) -> str:
    """Why ``unit`` cannot be sent into the combat zone (``in_combat_zone`` True) or withdrawn
    from it, in a sentence ("" when it can, or is there already): only a ready unit goes in
    (`recovery.zone_problem`), and a unit in a battle whose outcome is not applied yet stays
    where it went in, as it fights nothing else (`pages.still_in_battle`): the outcome,
    once applied, says where it stands."""
    state = unit.state
    if problem := zone_problem(state.but(in_combat_zone=in_combat_zone)):
        return problem
    if state.in_combat_zone == in_combat_zone:
        return ""
    if battle := engaged_units(campaign=unit.force.campaign).get(unit.pk):
        return still_in_battle(unit, battle)
    return ""


@transaction.atomic
def unit_combat_zone_set(
    *, unit: Unit, in_combat_zone: bool, reason: str = "", actor: Any = None
) -> HistoryEntry | None:
    """Send a unit into the combat zone or withdraw it (where R&R heals its last Morale hit).
    Only a ready unit goes in (`recovery.zone_problem`): one that retreated in poor order has
    left the combat zone until it rallies. A unit in a battle whose outcome is not applied yet
    stays where it is until it is (`unit_zone_refusal`)."""
    unit = Unit.objects.select_for_update(of=("self",)).get(pk=unit.pk)
    if actor is not None and not force_can_edit(force=unit.force, user=actor):
        raise PermissionDenied(f"only {unit.force.owner} or the GM may move {unit}")
    state = unit.state
    if state.destroyed:
        raise ValidationError({"in_combat_zone": f"{unit} is destroyed"})
    if problem := unit_zone_refusal(unit, bool(in_combat_zone)):
        raise ValidationError({"in_combat_zone": problem})
    why = reason or ("sent into the combat zone" if in_combat_zone else "withdrawn to the rear")
    return unit_change(
        unit=unit,
        state=state.but(in_combat_zone=bool(in_combat_zone)),
        kind=Kind.DEPLOYMENT,
        why=why,
        day=unit.force.campaign.day,
        actor=actor,
    )


@transaction.atomic
def unit_train(
    *, unit: Unit, character: Character | None, reason: str = "", actor: Any = None
) -> HistoryEntry:
    """A course of training by one of the campaign's characters, alive and Special Forces or a
    Strategist: one step up, to Experienced at most. The history names the trainer."""
    unit = Unit.objects.select_for_update(of=("self",)).get(pk=unit.pk)
    require_manager(unit.force.campaign, actor)
    if character is None:
        raise ValidationError({"character": "training is given by a character of the campaign"})
    character = locked(character)
    if character.campaign_id != unit.force.campaign_id:
        raise ValidationError({"character": f"{character} is not of {unit.force.campaign}"})
    if not character.alive:
        raise ValidationError({"character": f"{character} is dead"})
    if not can_train(feats_from(character.feats)):
        raise ValidationError(
            {"character": f"{character} is neither Special Forces nor a Strategist"}
        )
    if refused := command_refused(character=character, unit=unit, does="train"):
        raise ValidationError({"character": refused})
    trainer = character.name
    try:
        trained = training_apply(unit.state)
    except TrainingError as error:
        raise ValidationError({"quality": str(error)}) from None
    entry = unit_change(
        unit=unit,
        state=with_quality(trained, trained.quality),
        kind=Kind.TRAINING,
        why=reason or f"trained by {trainer}",
        day=unit.force.campaign.day,
        details={"trainer": trainer, "character": character.pk},
        actor=actor,
    )
    assert entry is not None
    return entry
