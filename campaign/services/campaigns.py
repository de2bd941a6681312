"""Writes for a campaign itself: making it, its settings, and handing it to another GM.

Each service validates its inputs first (a `ValidationError` naming the field) and runs in one
transaction.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from campaign.models import CAMPAIGN_SETTINGS, Campaign, Membership, StoryEntry, role_phrase
from campaign.selectors.access import GM, campaign_role, campaigns_for_user, forces_the_gm_plays
from campaign.services._record import (
    campaign_made,
    campaign_save_once,
    model_checked,
    name_taken,
    require_manager,
    story_told,
)
from units.models import new_version
from units.words import and_words, given, or_words

Told = StoryEntry.Kind


SETTINGS = ("name", *CAMPAIGN_SETTINGS)


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
    model_checked(campaign, exclude=["request_key"])  # its clash is the same request's
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
    model_checked(campaign)
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
