"""The site's Battles page, and where a campaign's battle or odds run is sent from the battle
pages.

The battle pages (``battles.views``) know nothing of campaigns: the Battles page lists a user's
one-off battles and odds runs beside the battles of their campaigns, so it is drawn here; and a
campaign's battle or odds run reached at its one-off address is sent on to its campaign's page,
in the campaign's names, by ``battle_home`` and ``odds_home``, which ``settings.BATTLE_HOME``
and ``settings.ODDS_HOME`` name to the battle pages.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from battles.selectors import LISTED, battles_of, odds_runs_of
from campaign.models import AskedOdds
from campaign.odds import odds_for_viewer
from campaign.pages.fights import campaign_battles_of, campaigns_with_battles
from campaign.selectors.access import campaign_can_manage, campaign_role, campaigns_managed_by
from campaign.selectors.roster import campaign_battle_of

RUNS_LISTED = 5
"""The campaigns the Battles page offers to set up a battle in, by name; past these, the list."""
CAMPAIGN_BATTLES_LISTED = 50
"""The latest campaign battles the Battles page lists; past these, each campaign's timeline."""


@login_required
@require_GET
def battle_list(request: HttpRequest) -> HttpResponse:
    # A campaign battle is listed with its campaign and opens on the campaign's page, never
    # among the one-off battles, whose page it does not have (`battles_of`). Past the latest of
    # each kind, the page leads to their every one.
    one_off = list(battles_of(request.user)[: LISTED + 1])
    odds_runs = list(odds_runs_of(request.user)[: LISTED + 1])
    runs = list(campaigns_managed_by(user=request.user).order_by("name")[: RUNS_LISTED + 1])
    fights = campaign_battles_of(request.user, limit=CAMPAIGN_BATTLES_LISTED + 1)
    more = len(fights) > CAMPAIGN_BATTLES_LISTED
    fights = fights[:CAMPAIGN_BATTLES_LISTED]
    return render(
        request,
        "battle_list.html",
        {
            "campaign_battles": fights,
            # Each campaign leads to its every battle, page by page: past the latest listed,
            # every campaign with a battle, those whose battles are all older too.
            "battle_campaigns": campaigns_with_battles(request.user)
            if more
            else list(dict.fromkeys(c for c, _ in fights)),
            # Older battles are not lost: the page says where they are.
            "more_campaign_battles": more,
            "runs": runs[:RUNS_LISTED],
            "more_runs": len(runs) > RUNS_LISTED,
            "battles": one_off[:LISTED],
            "more_battles": len(one_off) > LISTED,
            "odds_runs": odds_runs[:LISTED],
            "more_odds_runs": len(odds_runs) > LISTED,
        },
    )


def battle_home(user: Any, battle_id: int) -> str | None:
    """The address of a campaign battle's page, for the battle pages to send ``user`` there;
    None for a battle fought for no campaign (a one-off, whose page is the battle pages' own).

    A campaign battle has one home, inside its campaign, which decides who may see it: to
    anyone else it is ``Http404``, never a hint that it exists.
    """
    home = campaign_battle_of(battle_id=battle_id)
    if home is None:
        return None
    if campaign_role(campaign=home.campaign, user=user) is None:
        raise Http404
    return reverse("campaign:battle", args=[home.campaign_id, home.pk])


def odds_home(user: Any, run_id: int) -> str | None:
    """The address of an odds run asked on a campaign's set-up page, on the campaign's own odds
    page, for the battle pages to send ``user`` there; None for a run asked for no campaign (a
    one-off, whose page is the battle pages' own). Only the campaign's GMs read it there, as
    on its set-up page: to anyone else it is ``Http404``."""
    asked = AskedOdds.objects.select_related("campaign").filter(run_id=run_id).first()
    if asked is None:
        return None
    campaign = asked.campaign
    mine = campaign_can_manage(campaign=campaign, user=user)
    if not mine or odds_for_viewer(user, campaign, run_id) is None:
        raise Http404
    return reverse("campaign:battle-odds", args=[campaign.pk, run_id])
