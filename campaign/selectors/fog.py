"""What a member sees of a battle under the campaign's fog of war.

Under the campaign's fog of war a player reads a battle's report, log, replay and downloaded
log as their side saw it: the side their force's units fought on. A member with units on
neither side (a spectator, a player who sat it out) sees the outcome only; one with units on
both sides had eyes on both, and the GM and co-GMs always see everything. A member who sees
some force that fought the battle only in summary reads it so too, fog of war or not: the
whole log would give the cards, Skill, dice and hits of that force's units.
"""

from __future__ import annotations

import json
from typing import Any

from battles.engine import ScenarioError, canonical_json, parse_scenario
from battles.fog import hidden_events, seed_withheld_json
from battles.models import BattleLog
from battles.report import unit_sides
from battles.selectors import log_events
from campaign.models import CampaignBattle, Unit

FOG_ALL = "all"
"""A fog side meaning "sees everything" (the GM, or a player with units on both sides)."""
FOG_NONE = ""
"""A fog side meaning "fought on neither side": the outcome only."""


class FoggedLogUnreadable(Exception):
    """A stored log that cannot be read back to take out what a side did not see."""


def fog_side(*, campaign_battle: CampaignBattle, user: Any, manages: bool, sees_all: bool) -> str:
    """The side whose eyes ``user`` sees this battle through: a side id, ``FOG_ALL`` or
    ``FOG_NONE``. ``manages``: the user is the campaign's GM or a co-GM; ``sees_all``: the user
    sees every force that fought it in full (`Viewer.sees_in_full`)."""
    if manages or (sees_all and not campaign_battle.campaign.fog_of_war):
        return FOG_ALL
    sides = campaign_battle.sides
    pks = {pk for side in sides.values() for pk in side}
    own = set(Unit.objects.filter(pk__in=pks, force__owner=user).values_list("pk", flat=True))
    mine = [side for side, side_pks in sides.items() if own.intersection(side_pks)]
    if len(mine) == 1:
        return mine[0]
    return FOG_ALL if mine else FOG_NONE


def fogged_log(
    *, campaign_battle: CampaignBattle, log: BattleLog, side: str, seed_shown: bool = True
) -> str:
    """The stored log as ``side`` saw it: without the events it could not see (the whole log
    for ``FOG_ALL``), and without its seed unless ``seed_shown`` (`fog.seed_withheld_json`).
    ``FoggedLogUnreadable`` if it cannot be read back."""
    if side == FOG_ALL and seed_shown:
        return log.events
    data = json.loads(log.events)
    if not seed_shown:
        try:
            data = seed_withheld_json(data)
        except (KeyError, TypeError) as exc:
            raise FoggedLogUnreadable("this log cannot be read back without its seed") from exc
    if side == FOG_ALL:
        return canonical_json(data)
    try:
        sides = unit_sides(parse_scenario(campaign_battle.battle.scenario, fought=True))
        hidden = hidden_events(log_events(log), sides, side)
    except (ScenarioError, KeyError, TypeError, ValueError):
        raise FoggedLogUnreadable("this log cannot be read back under fog of war") from None
    data["events"] = [e for i, e in enumerate(data["events"]) if i not in hidden]
    return canonical_json(data)
