"""Deleting a campaign: everything in it goes, for good, in one transaction.

Only the GM who runs it may (a co-GM helps run it; it is not theirs to end). Nothing of it may
be in a worker's hands: while one of its battles is queued or being fought, the deletion is
refused, saying which, so no task ever wakes to a battle that is gone. The battles the engine
fought for it go with it (their logs too): they would otherwise turn up among the GM's one-off
battles with no campaign to name their units. The odds a GM asked for are theirs, not the
campaign's, and stay in their list. An export (`campaign.transfer`) is the way to keep a copy.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from battles.models import IN_FLIGHT, Battle
from campaign.models import Campaign, CampaignBattle, Order, Unit
from campaign.selectors.access import GM, campaign_role
from units.words import and_words, plural

logger = logging.getLogger(__name__)


def campaign_deletion_refusal(campaign: Campaign) -> str:
    """Why the campaign cannot be deleted now, in a sentence naming its battles still queued or
    being fought; "" when it can."""
    fighting = CampaignBattle.objects.filter(campaign=campaign, battle__status__in=IN_FLIGHT)
    names = list(fighting.order_by("pk").values_list("name", flat=True))
    if not names:
        return ""
    one = len(names) == 1
    return (
        f"{and_words(names)} {'is' if one else 'are'} still being fought, or waiting for a "
        f"worker: the campaign can be deleted once {'it is' if one else 'they are'} done."
    )


def campaign_contents(campaign: Campaign) -> str:
    """What deleting the campaign takes with it, in words: "its 2 forces (10 units), 3
    characters, 4 battles (and their logs), 1 engagement and 2 saved maps"; "" for a campaign
    with nothing in it yet."""
    units = Unit.objects.filter(force__campaign=campaign).count()
    battles = campaign.battles.count()
    logs = "its log" if battles == 1 else "their logs"
    logged = campaign.battles.exclude(battle=None).exists()
    words = []
    for count, word, more in (
        (campaign.forces.count(), "force", f" ({plural(units, 'unit')})" if units else ""),
        (campaign.characters.count(), "character", ""),
        (battles, "battle", f" (and {logs})" if logged else ""),
        (campaign.engagements.count(), "engagement", ""),
        (campaign.table_rolls.count(), "roll", ""),
        (campaign.maps.count(), "saved map", ""),
    ):
        if count:
            words.append(plural(count, word) + more)
    return f"its {and_words(words)}" if words else ""


@transaction.atomic
def campaign_delete(*, campaign: Campaign, actor: Any, name: Any) -> str:
    """Delete the campaign and everything in it; its name, for the page that says so.

    ``name``: the campaign's name as the GM typed it, to show they mean this one (refused
    beside the field otherwise, as is a deletion while any of its battles is queued or being
    fought). ``actor`` must be its GM (`campaign_role`: a superuser with no part in it counts
    as one).
    """
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if campaign_role(campaign=campaign, user=actor) != GM:
        raise PermissionDenied(f"only the GM of {campaign} may delete it")
    if not isinstance(name, str) or name.strip() != campaign.name:
        raise ValidationError({"name": f"Type the campaign's name, {campaign.name}, to delete it."})
    if refusal := campaign_deletion_refusal(campaign):
        raise ValidationError(refusal)
    pk = campaign.pk
    fought = list(campaign.battles.exclude(battle=None).values_list("battle_id", flat=True))
    # An Order's giver is protected (a character who gave Orders stays while they stand):
    # the campaign's Orders go first, then everything the campaign holds, then the engine's
    # battles its own battles held on to.
    Order.objects.filter(campaign=campaign).delete()
    campaign.delete()
    Battle.objects.filter(pk__in=fought).delete()
    logger.info("campaign %s (%s) deleted by %s", pk, campaign.name, actor)
    return campaign.name
