"""Reads of who may do what in a campaign: a member's role and what it lets them do, the
forces the GM plays, who may give and call off Orders, whether a character may command a unit,
and the invitations (what each holds, whom it is for).
"""

from __future__ import annotations

from typing import Any

from django.db.models import F, Prefetch, Q, QuerySet

from campaign.models import Campaign, Character, Force, Invitation, Leader, Membership, Unit
from campaign.rules.history import out_cold_text
from campaign.rules.state import can_act
from units.words import possessive

GM = "gm"
"""The role of the campaign's own GM (not a membership: it is `Campaign.gm`)."""
MANAGING_ROLES = frozenset({GM, Membership.Role.CO_GM})


def campaign_role(*, campaign: Campaign, user: Any) -> str | None:
    """The user's role in the campaign: gm, co_gm, player, spectator, or None.

    The one answer to "who is this user here", for views, services and templates alike. A
    membership is the role its holder chose, for the site's superusers too (a superuser who plays
    or watches sees the campaign as a player or spectator does, fog of war included); a superuser
    with no part in the campaign counts as its GM, since superusers run the site.
    """
    if user is None or not user.is_authenticated:
        return None
    if campaign.gm_id == user.pk:
        return GM
    role = (
        Membership.objects.filter(campaign=campaign, user=user).values_list("role", flat=True)
    ).first()
    if role is None and user.is_superuser and user.is_active:
        return GM
    return role


def forces_the_gm_plays(campaign: Campaign) -> QuerySet[Force]:
    """The forces the campaign's GM plays themselves (an opposing force, say): theirs and held
    for no one invited (an import's forces for an invitee wait with the GM until they join)."""
    return campaign.forces.filter(owner_id=campaign.gm_id, held_for__isnull=True)


def _still_held() -> tuple[Q, Q]:
    """What of an invitation's forces and characters still waits for its invitee: a force
    its campaign's GM still holds, a character nobody plays yet (a force the GM gave someone
    since, or a character given a player, no longer waits for them)."""
    return Q(owner_id=F("campaign__gm_id")), Q(player__isnull=True)


def characters_held(campaign: Campaign) -> dict[str, str]:
    """Character name (unique in a campaign) → the invitee an invitation of ``campaign``
    holds it for (`_still_held`: nobody plays it yet), for the GM's pages: they take it over on
    joining."""
    _, characters = _still_held()
    held = campaign.characters.filter(characters, held_for__isnull=False)
    return dict(held.values_list("name", "held_for__invitee"))


def invitation_holds(invitation: Invitation) -> tuple[QuerySet[Force], QuerySet[Character]]:
    """What accepting ``invitation`` in a player's or a co-GM's role hands over (`_still_held`)."""
    forces, characters = _still_held()
    return invitation.forces.filter(forces), invitation.characters.filter(characters)


def with_holdings(invitations: QuerySet[Invitation]) -> QuerySet[Invitation]:
    """``invitations``, each with what accepting it hands over (`invitation_holds`) read for
    all at once, by name: its ``held`` forces and ``unplayed`` characters. What a page says an
    invitation brings is read so, never from all it was given: the GM may have given a force,
    or a character a player, since."""
    forces, characters = _still_held()
    return invitations.prefetch_related(
        Prefetch("forces", Force.objects.filter(forces).order_by("name"), to_attr="held"),
        Prefetch(
            "characters",
            Character.objects.filter(characters).order_by("name"),
            to_attr="unplayed",
        ),
    )


def invitations_holding(campaign: Campaign, *, mails: bool = False) -> list[Invitation]:
    """The campaign's invitations waiting, by invitee, each with what accepting it hands over
    (`with_holdings`), and with ``mails`` its link's mails, the latest first (``mailed``)."""
    invitations = with_holdings(campaign.invitations.order_by("invitee"))
    if mails:
        invitations = invitations.prefetch_related(Prefetch("mails", to_attr="mailed"))
    return list(invitations)


def may_give_orders(*, role: str | None, owns: bool) -> bool:
    """The GM and co-GMs give any unit an Order; a player the units of a force they own (with
    their own characters, `services.orders.order_give`); nobody else."""
    return role in MANAGING_ROLES or (role == Membership.Role.PLAYER and owns)


OUT_COLD_DOES = {
    "order": "gives no Orders",
    "train": "trains nobody",
    "heal": "heals no Morale hits",
}
"""What a dying character does not do, by `command_refused`'s ``does``."""


def command_refused(*, character: Character, unit: Unit, does: str) -> str | None:
    """Why ``character`` may not give ``unit`` an Order, train it or heal its Morale hits
    (``does``: "order", "train", "heal"), if it may not. A player's character acts for its player's
    side: the units of the forces its player owns, as the player's own Orders form offers them,
    and the unit it leads, wherever the GM put it at the head; so it never works for another
    player's side. An NPC is the GM's, who gives any unit an Order: an NPC officer's Order to a
    player's unit stands until the GM replaces it (`services.orders.order_give`). A dying
    character does none of it until healed (`state.can_act`)."""
    if character.alive and not can_act(character.hit_points):
        return out_cold_text(character.name, character.hit_points, OUT_COLD_DOES[does])
    player = character.player
    if player is None or unit.force.owner_id == player.pk:
        return None
    if Leader.objects.filter(unit=unit, character=character).exists():
        return None
    return (
        f"{character} is {possessive(str(player))} character: they {does} the units of "
        f"{possessive(str(player))} forces and "
        f"the unit they lead, not {unit} of {unit.force}"
    )


def may_call_off(*, role: str | None, owns: bool, gave: bool) -> bool:
    """The GM and co-GMs call off any Order under way; a player one a character of theirs
    (``gave``) gave a unit of a force they own."""
    return role in MANAGING_ROLES or (may_give_orders(role=role, owns=owns) and gave)


def campaign_can_manage(*, campaign: Campaign, user: Any) -> bool:
    """The GM and co-GMs run the campaign: calendar, battles, corrections."""
    return campaign_role(campaign=campaign, user=user) in MANAGING_ROLES


def campaigns_for_user(*, user: Any) -> QuerySet[Campaign]:
    """Every campaign the user runs or belongs to."""
    if user is None or not user.is_authenticated:
        return Campaign.objects.none()
    return Campaign.objects.filter(Q(gm=user) | Q(memberships__user=user)).distinct()


def campaigns_managed_by(*, user: Any) -> QuerySet[Campaign]:
    """Every campaign the user runs, as its GM or a co-GM (`campaign_can_manage`): those whose
    battles they set up. A superuser runs those they have no other part in."""
    if user is None or not user.is_authenticated:
        return Campaign.objects.none()
    if user.is_superuser and user.is_active:
        playing = Membership.objects.filter(user=user).exclude(role=Membership.Role.CO_GM)
        return Campaign.objects.exclude(pk__in=playing.values("campaign"))
    co_gm = Q(memberships__user=user, memberships__role=Membership.Role.CO_GM)
    return Campaign.objects.filter(Q(gm=user) | co_gm).distinct()


def force_can_edit(*, force: Force, user: Any) -> bool:
    """A force's owner looks after it; the GM and co-GMs may touch any force."""
    if user is not None and user.is_authenticated and force.owner_id == user.pk:
        return True
    return campaign_can_manage(campaign=force.campaign, user=user)


def invitee_key(text: str) -> str:
    """An invitee as stored: a username as typed (usernames are case-sensitive), an e-mail
    address in lower case."""
    text = text.strip()
    return text.lower() if "@" in text else text


def invitee_keys(user: Any) -> list[str]:
    """The names an invitation to this user may carry: their username and their e-mail."""
    keys = [user.get_username()]
    email = getattr(user, "email", "")
    if email:
        keys.append(email.lower())
    return keys


def invitations_for(user: Any) -> QuerySet[Invitation]:
    """The invitations waiting for this user's answer, oldest first."""
    return (
        Invitation.objects.filter(invitee__in=invitee_keys(user))
        .select_related("campaign__gm")
        .order_by("created_at")
    )
